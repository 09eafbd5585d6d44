"""Families of the twenty-fifth round (issue 19), with sentences of our own: why a line goes, in anyone's words; a
request to add what was just told in another currency; an amount given for the one expense offered converted; a
claim's quoted name run on into the first day's expenses; the trip's days told with a place; a bare weekday in the week
the message dates; which line, answered by its day; a day's meal told again at another price; Catalan days; a number
that is no year; the day a stay ended."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_families_13 import TODAY, on
from tests.test_families_29 import _said, _talk
from tests.test_interpreter import plan_of

# TODAY is Thursday 3 December 2026


def _line(ident: str, day: str, category: str, amount: str, merchant: str = "", description: str = "") -> dict[str, Any]:
    return {"id": ident, "date": day, "merchant": merchant, "category": category, "amount": amount,
            **({"description": description} if description else {})}


def _adds(plan) -> list[tuple[str | None, str | None, str | None]]:
    return [(a.args.get("category"), a.args.get("amount"), a.args.get("date")) for a in plan.acts if a.act == "add_line"]


def _removed(plan) -> list[int]:
    return [int(a.args["line"]) for a in plan.acts if a.act == "remove_line"]


TRIP = [
    _line("ln_metr0001", "2026-11-27", "travel", "6.80", description="metro card"),
    _line("ln_prnt0001", "2026-11-26", "other", "32.00", "Copy shop", "printing"),
    _line("ln_dinr0001", "2026-11-24", "meals", "17.30", description="dinner"),
    _line("ln_taxi0001", "2026-11-26", "taxi", "14.60", description="to the museum"),
    _line("ln_bolt0001", "2026-11-25", "taxi", "11.40", "Bolt"),
    _line("ln_trai0001", "2026-11-23", "travel", "7.20", description="airport train"),
]


# ----------------------------------------------------------------- 1. why a line goes, in anyone's words


@pytest.mark.parametrize(("text", "line"), [
    ("Oh take the metro card off actually, the congress gave us free transport passes and I got refunded", 1),
    ("Actually, scrap the printing — the press office paid me back for it on the spot.", 2),
    ("Please remove the taxi to the museum on Thursday, the museum paid it directly", 4),
    ("and drop the bolt, my cofounder paid it", 5),
    ("please remove the airport train; the hosts have reimbursed it.", 6),
    ("ah no scusa, forget the dinner of tuesday, the distributor paid everything at the end", 3),
])
def test_a_removal_with_why_in_anyone_s_words_removes_that_line_and_asks_nothing_more(text, line):
    plan = plan_of(text, **{**on(TRIP), "today": "2026-11-30"})
    assert [a.act for a in plan.acts] == ["remove_line"] and _removed(plan) == [line]
    assert "How much" not in _said(plan)


def test_a_negated_removal_stays_one_and_no_said_as_sorry_does_not():
    assert plan_of("no, don't remove the dinner", **{**on(TRIP), "today": "2026-11-30"}).acts == []
    assert _removed(plan_of("no wait, delete the dinner", **{**on(TRIP), "today": "2026-11-30"})) == [3]


def test_wed_before_the_kind_of_a_line_to_remove_is_its_day():
    plan = plan_of("- remove Wed taxi, colleague paid", **{**on(TRIP), "today": "2026-11-30"})
    assert _removed(plan) == [5]  # the Bolt of Wednesday 25 November, never the museum's taxi of Thursday


def test_the_sun_hotel_is_a_name_never_sunday():
    plan = plan_of("add the sun hotel 120", **on([]))
    assert all(a.args.get("date") != "2026-11-29" for a in plan.acts)


# ----------------------------------------------------------------- 2. added after a conversion offered


def test_put_it_on_the_claim_after_a_foreign_expense_asks_only_about_the_conversion():
    plans = _talk(["On Tuesday I took the Flytoget from the airport to the city, 230 NOK. Put it on the claim.",
                   "Yes that's fine, add 19.98."], **on([]))
    assert plans[0].acts == [] and "19.98" in _said(plans[0]) and "How much" not in _said(plans[0])
    assert _adds(plans[1]) == [("travel", "19.98", "2026-12-01")]


def test_an_amount_given_for_the_one_expense_offered_converted_beside_another_adds_that_one():
    plans = _talk(["Flight with Aegean Athens-London on 1st of December 238,60 euro. And the Heathrow Express the "
                   "same day, £25", "Yes, put the 29.04"], **on([]))
    assert _adds(plans[0]) == [("travel", "238.60", "2026-12-01")]
    assert _adds(plans[1]) == [("travel", "29.04", "2026-12-01")]
    assert plans[1].acts[0].args.get("merchant") == "Heathrow Express" and "currency" not in plans[1].acts[0].args


def test_an_amount_in_another_currency_is_never_taken_for_the_one_offered():
    plans = _talk(["Flight with Aegean Athens-London on 1st of December 238,60 euro. And the Heathrow Express the "
                   "same day, £25", "Yes, put 30 GBP"], **on([]))
    assert not any(a.args.get("amount") == "30.00" and not a.args.get("currency") for a in plans[1].acts)


# ----------------------------------------------------------------- 3. opening a claim and telling the trip at once


def test_a_quoted_claim_name_then_the_first_day_s_expenses_opens_it_and_adds_them():
    plan = plan_of('hey can u start a claim "Berlin investor week" 🙏 mon 30/11 train amsterdam-berlin 79.90 with NS '
                   'International, uber to the hotel 16.50, dinner 34', cases=(), active=None, today=TODAY)
    assert [a.act for a in plan.acts] == ["open_claim", "add_line", "add_line", "add_line"]
    assert _adds(plan) == [("travel", "79.90", "2026-11-30"), ("taxi", "16.50", "2026-11-30"),
                           ("meals", "34.00", "2026-11-30")]


def test_the_trip_told_with_its_place_and_days_is_no_expense_s_day():
    plan = plan_of('Could you open a new claim called "Lisbon ICU congress"? I was at the nursing congress Wed 18 to Fri '
                   '20 Nov. Wednesday: flight Dublin–Lisbon with Aer Lingus 214.60, Uber from the airport 19.40, and the '
                   'congress registration 350 (paid at the desk that morning).', cases=(), active=None, today="2026-11-23")
    assert _adds(plan) == [("travel", "214.60", "2026-11-18"), ("taxi", "19.40", "2026-11-18"),
                           ("other", "350.00", "2026-11-18")]


# ----------------------------------------------------------------- 4. a bare weekday in the week the message dates


def test_a_bare_weekday_after_the_same_weekday_dated_is_that_day():
    plan = plan_of("- Mon 16.11 SBB Lausanne–Basel 78.00\n- Mon lunch 24.50\n- Mon taxi station to site 21.80",
                   **{**on([]), "today": "2026-11-25"})
    assert [d for _, _, d in _adds(plan)] == ["2026-11-16"] * 3


def test_a_bare_weekday_is_the_trip_s_when_the_message_dates_that_week_and_not_this_one():
    trip = [_line("ln_sbb00001", "2026-11-16", "travel", "78.00", "SBB")]
    plan = plan_of("- Hotel Euler, 2 nights from Mon, 412.00\n- Tue 17.11 lunch 22.00\n- Tue taxi 17.40",
                   **{**on(trip), "today": "2026-11-25"})
    assert _adds(plan) == [("hotel", "412.00", "2026-11-16"), ("meals", "22.00", "2026-11-17"),
                           ("taxi", "17.40", "2026-11-17")]


def test_a_bare_weekday_of_a_trip_is_still_asked_when_the_message_dates_no_day():
    trip = [_line("ln_sbb00001", "2026-11-16", "travel", "78.00", "SBB")]
    plan = plan_of("Hotel Euler, 2 nights from Mon, 412.00", **{**on(trip), "today": "2026-11-25"})
    assert plan.acts == []


# ----------------------------------------------------------------- 5. which line, answered by its day


TAXIS = [_line("ln_taxi0001", "2026-11-30", "taxi", "24.60"), _line("ln_taxi0002", "2026-12-02", "taxi", "16.80")]


@pytest.mark.parametrize("answer", ["the one from wednesday", "wed", "the one on 2/12",
                                    "Sorry, is the taxi on last day 2/12, from hotel go to train station"])
def test_which_line_answered_by_its_day_is_the_listed_line_of_that_day(answer):
    plans = _talk(["fix the taxi, amount is wrong, should be 18.40", answer], **on(TAXIS))
    assert plans[0].acts == []
    assert [(a.act, a.args.get("line"), a.args.get("amount")) for a in plans[1].acts] == [("update_line", 2, "18.40")]


@pytest.mark.parametrize("answer", ["the dinner on wednesday", "the one from tuesday"])
def test_which_line_answered_by_a_day_no_listed_line_fits_changes_nothing(answer):
    plans = _talk(["fix the taxi, amount is wrong, should be 18.40", answer], **on(TAXIS))
    assert not [a for a in plans[1].acts if a.act == "update_line"]


# ----------------------------------------------------------------- 6. a day's meal told again at another price


def test_a_day_s_lunch_told_again_at_another_price_is_asked_new_or_a_fix():
    day = [_line("ln_lnch0001", "2026-12-02", "meals", "24.00", "Kleinmarkthalle")]
    plan = plan_of("Hi, Wednesday lunch 28 euros", **on(day))
    assert plan.acts == [] and "new line or corrects" in _said(plan)


def test_another_meal_of_that_day_or_one_priced_apart_is_added():
    day = [_line("ln_pret0001", "2026-12-02", "meals", "6.85", "Pret")]
    assert _adds(plan_of("wednesday dinner 26.50", **on(day))) == [("meals", "26.50", "2026-12-02")]
    named = [_line("ln_lnch0001", "2026-12-02", "meals", "24.00", description="lunch")]
    assert _adds(plan_of("wednesday dinner 28", **on(named))) == [("meals", "28.00", "2026-12-02")]


# ----------------------------------------------------------------- 7. days and numbers


def test_a_catalan_day_with_its_day_of_the_month_is_that_day():
    plan = plan_of("Add also the lunch of dijous 26: 16,50", **{**on([]), "today": "2026-12-01"})
    assert _adds(plan) == [("meals", "16.50", "2026-11-26")]


def test_a_number_no_reading_placed_is_never_taken_for_the_year():
    taxi = [_line("ln_taxi0001", "2026-11-27", "taxi", "21.00")]
    plans = _talk(["the one of Friday, to the airport", "Add also the lunch of osteguna 26: 16,50"],
                  **{**on(taxi), "today": "2026-12-01"})
    assert plans[1].acts == []  # (it was added on the 27th, its "26" taken for the year 2026)


def test_the_day_a_stay_ended_written_as_day_and_month_is_its_check_out():
    plan = plan_of("Hotel was Motel One, 24-11 to 26-11, 218", **on([]))
    assert _adds(plan) == [("hotel", "218.00", "2026-11-24")]


def test_irish_rail_is_who_was_paid():
    plan = plan_of("Friday: Irish Rail Heuston to Cork 54.40", **{**on([]), "today": "2026-11-30"})
    assert [a.args.get("merchant") for a in plan.acts] == ["Irish Rail"]
