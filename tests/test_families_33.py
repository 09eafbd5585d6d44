"""Families of the twenty-fifth round (issue 19), with sentences of our own: why a line goes, in anyone's words; a
request to add what was just told in another currency; an amount given for the one expense offered converted; a
claim's quoted name run on into the first day's expenses; the trip's days told with a place; a bare weekday in the week
the message dates; which line, answered by its day; a day's meal told again at another price; Catalan days; a number
that is no year; the day a stay ended."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from conversations.core.plan import ReadBatch, UserTurnPlan, parse_model_answer
from conversations.core.reducer import validate_plan
from conversations.turns.messages import kept_message
from expenses.interpreter import interpret
from registries import get_registry
from tests.test_families_13 import TODAY, on
from tests.test_families_29 import _said, _talk
from tests.test_interpreter import _round, answer, plan_of, request

# TODAY is Thursday 3 December 2026


def _line(ident: str, day: str, category: str, amount: str, merchant: str = "", description: str = "") -> dict[str, Any]:
    return {"id": ident, "date": day, "merchant": merchant, "category": category, "amount": amount,
            **({"description": description} if description else {})}


def _talk_kept(messages: list[str], **kwargs: Any) -> list[UserTurnPlan]:
    """``_talk``, with the message a question is kept with chosen as the server chooses it (``kept_message``): a
    question asked again about words of an earlier message keeps that message."""
    plans, pending = [], None
    for message in messages:
        rounds: list = []
        while isinstance(parsed := parse_model_answer(interpret(replace(request(message, rounds=rounds, **kwargs),
                                                                        pending=pending))), ReadBatch):
            rounds.append(_round(parsed))
        assert isinstance(parsed, UserTurnPlan), parsed
        validate_plan(parsed, get_registry())
        plans.append(parsed)
        pending = {**parsed.pending.model_dump(mode="json", exclude_none=True),
                   "message": kept_message(parsed.pending.about, message, pending)} if parsed.pending else None
    return plans


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


# ----------------------------------------------------------------- 8. the walk's (Z10) messages


MILAN = ("ok so. Tuesday last week I flew Munich - Milan with Lufthansa, 189,40 €. From Malpensa I took the Malpensa "
         "Express to Centrale, 13 euro. And the hotel, Hotel Berna, 2 nights, 312 in total.")


@pytest.mark.parametrize(("text", "today", "day"), [
    ("taxi 20 on tuesday last week", "2026-12-07", "2026-12-01"),
    ("taxi 20 on tuesday last week", TODAY, "2026-11-24"),  # (never the latest Tuesday, 1 December)
    ("last week tuesday taxi 20", TODAY, "2026-11-24"),
    ("taxi 20 on the tuesday of last week", TODAY, "2026-11-24"),
])
def test_a_weekday_of_last_week_is_that_week_s(text, today, day):
    assert _adds(plan_of(text, **{**on([]), "today": today})) == [("taxi", "20.00", day)]


def test_both_answering_which_day_of_two_expenses_dates_both():
    plans = _talk([MILAN, "Both were on Tuesday 1/12, the day I arrived."], **{**on([]), "today": "2026-12-07"})
    assert _adds(plans[0]) == [("travel", "189.40", "2026-12-01")]
    assert _adds(plans[1]) == [("travel", "13.00", "2026-12-01"), ("hotel", "312.00", "2026-12-01")]


def test_a_day_alone_dates_the_first_and_asks_the_next_never_dropping_it():
    plans = _talk_kept([MILAN, "Tuesday 1/12", "1/12 too"], **{**on([]), "today": "2026-12-07"})
    assert _adds(plans[1]) == [("travel", "13.00", "2026-12-01")] and "Hotel Berna" in _said(plans[1])
    assert _adds(plans[2]) == [("hotel", "312.00", "2026-12-01")]


def test_i_mean_a_day_then_everything_told_again_with_it_reads_the_rest():
    plan = plan_of("Sorry, I mean Tuesday 1/12. On 1/12: flight Munich-Milan 189,40 € and Malpensa Express train 13 €. "
                   "Hotel Berna 312 € for the 2 nights (1/12 to 3/12).", **{**on([]), "today": "2026-12-07"})
    assert _adds(plan) == [("travel", "189.40", "2026-12-01"), ("travel", "13.00", "2026-12-01"),
                           ("hotel", "312.00", "2026-12-01")]


def test_i_mean_a_day_before_an_expense_without_it_is_still_not_understood():
    assert plan_of("Sorry, I mean Tuesday. Taxi 20", **{**on([]), "today": "2026-12-07"}).acts == []


@pytest.mark.parametrize("text", ["Great. What's the total now? If that looks right please submit it",
                                  "if all good submit it"])
def test_the_user_s_own_check_before_a_submit_is_no_condition(text):
    assert [a.act for a in _talk([text])[0].acts] == ["submit_claim"]


def test_a_real_condition_still_holds_the_submit():
    assert plan_of("submit it if the hotel is approved", **on(TAXIS)).acts == []


# ----------------------------------------------------------------- 9. what the round's two reviews found


HEATHROW = ("Flight with Aegean Athens-London on 1st of December 238,60 euro. And the Heathrow Express the same day, "
            "£25")


@pytest.mark.parametrize("answer", ["Yes, put the 25", "put 3", "no, leave the 29.04 out", "forget the 29.04",
                                    "the flight was 250", "put the 238,60", "29.04 but the client will reimburse me",
                                    "wait. the express was a return, 37", "put the 29.04 twice"])
def test_a_figure_after_a_conversion_offered_is_the_offer_s_only_when_said_plainly_as_its_converted_amount(answer):
    plans = _talk([HEATHROW, answer], **{**on([]), "today": "2026-12-07"})
    assert not [a for a in plans[1].acts if a.act == "add_line" and a.args.get("merchant") == "Heathrow Express"]


def test_the_offer_s_amount_as_the_card_charged_it_in_the_claim_s_currency_is_taken():
    plans = _talk([HEATHROW, "yes put 29.50 EUR"], **{**on([]), "today": "2026-12-07"})
    assert _adds(plans[1]) == [("travel", "29.50", "2026-12-01")]


@pytest.mark.parametrize("answer", ["not wed", "the one before wednesday", "wednesday i think", "anything but monday",
                                    "maybe wed"])
def test_which_line_answered_with_a_day_negated_or_in_doubt_changes_nothing(answer):
    plans = _talk(["fix the taxi, amount is wrong, should be 18.40", answer], **on(TAXIS))
    assert not [a for a in plans[1].acts if a.act == "update_line"]


def test_a_day_word_that_names_a_listed_line_is_no_day():
    hotels = [_line("ln_sun00001", "2026-12-01", "hotel", "120.00", "Sun Inn"),
              _line("ln_hilt0001", "2026-11-29", "hotel", "180.00", "Hilton")]
    plans = _talk(["fix the hotel, should be 140", "Sun"], **on(hotels))
    assert not [a for a in plans[1].acts if a.act == "update_line"]


@pytest.mark.parametrize(("text", "currency"), [('open claim "Zurich" 30.11 in CHF', "CHF"),
                                                ('open a claim titled "Vienna" mon 30/11 - wed 2/12, in CHF', "CHF"),
                                                ('new claim "Oslo" 1.12 NOK', "NOK")])
def test_a_quoted_name_with_its_days_and_currency_keeps_the_currency(text, currency):
    plan = plan_of(text, cases=(), active=None, today=TODAY)
    assert [(a.act, a.args.get("currency")) for a in plan.acts if a.act == "open_claim"] == [("open_claim", currency)]


def test_a_quoted_existing_claim_before_a_day_is_not_opened_nor_added_to_twice():
    said = answer('claim "Lyon partner visit" mon taxi 32', **on([_line("ln_taxi0001", "2026-11-30", "taxi", "32.00")]))
    assert isinstance(said, ReadBatch) or not [a for a in said.acts if a.act in ("open_claim", "add_line")]


@pytest.mark.parametrize(("text", "today", "day"), [
    ("I was in Lyon from Mon 16 to Wed 18 Nov. Tuesday: lunch 22", "2026-11-27", "2026-11-17"),
    ("We were at the Hilton from Mon 16 to Wed 18 Nov. Monday: dinner 45", "2026-12-04", "2026-11-16"),
    ("I was in Lyon from Mon 16 to Wed 18 November. Tuesday: lunch 22", "2026-11-27", "2026-11-17"),
    ("I was in Lyon from Mon 16 to Wed 18 Nov. Tue: lunch 22", "2026-11-27", "2026-11-17"),
])
def test_a_weekday_heading_after_the_trip_told_is_the_trip_s_day(text, today, day):
    assert [d for _, _, d in _adds(plan_of(text, **{**on([]), "today": today}))] == [day]


def test_a_bare_weekday_stays_asked_when_the_message_or_the_claim_dates_this_week_too():
    trip = [_line("ln_hotl0001", "2026-11-16", "hotel", "412.00", "Hotel Euler"),
            _line("ln_taxi0001", "2026-11-17", "taxi", "30.00")]
    plan = plan_of("Tue 17.11 parking 12; yesterday taxi 20; Wed dinner 40", **{**on(trip), "today": "2026-11-26"})
    assert ("meals", "40.00", "2026-11-18") not in _adds(plan)


# ----------------------------------------------------------------- 10. the round's last families


def test_forget_the_kind_of_a_day_removes_that_day_s_one_line_of_that_kind():
    day = [_line("ln_dinr0001", "2026-11-17", "meals", "52.00", description="with our distributor"),
           _line("ln_othr0001", "2026-11-18", "other", "23.80")]
    plan = plan_of("ah no scusa, forget the dinner of tuesday, the distributor paid everything at the end",
                   **{**on(day), "today": "2026-11-20"})
    assert _removed(plan) == [1]


SHEKEL = "taxi to ben gurion on monday 16.11, 180 shekel"


def test_an_amount_with_no_rate_asks_its_amount_in_the_claim_s_currency_and_the_answer_completes_it():
    plans = _talk_kept([SHEKEL, "ok i checked my card statement, it was 47.20 euro. put that"],
                       **{**on([]), "today": "2026-11-20"})
    assert plans[0].acts == [] and "shekel" in _said(plans[0])
    assert _adds(plans[1]) == [("taxi", "47.20", "2026-11-16")] and not plans[1].acts[0].args.get("merchant")


@pytest.mark.parametrize("answer", ["maybe 47", "about 47 i think", "180"])
def test_a_guess_or_the_foreign_figure_again_completes_nothing(answer):
    plans = _talk_kept([SHEKEL, answer], **{**on([]), "today": "2026-11-20"})
    assert not [a for a in plans[1].acts if a.act == "add_line" and a.args.get("amount") in ("47.00", "180.00")]


def test_a_thing_named_with_no_price_and_taken_back_at_once_leaves_the_rest_to_be_added():
    plan = plan_of("Last day, Thursday 3/12: metro ticket 2,20 € in the morning, lunch at the supplier canteen 18 €, "
                   "parking... no sorry, no parking. Then taxi to Linate 35 € and the flight back Milan-Munich 176,90 €.",
                   **{**on([]), "today": "2026-12-07"})
    assert _adds(plan) == [("travel", "2.20", "2026-12-03"), ("meals", "18.00", "2026-12-03"),
                           ("taxi", "35.00", "2026-12-03"), ("travel", "176.90", "2026-12-03")]
    assert "How much" not in _said(plan)


@pytest.mark.parametrize("text", ["taxi 20, lunch 14, no sorry, no lunch", "lunch 14, taxi 20, oh no sorry, no lunch"])
def test_a_priced_thing_taken_back_at_once_is_never_added(text):
    plan = plan_of(text, **on([]))
    taken = {r.act for r in plan.retractions}
    assert "meals" not in [a.args.get("category") for a in plan.acts if a.act == "add_line" and a.id not in taken]


# ----------------------------------------------------------------- 11. the second walk's (Z11) messages


GDANSK = [_line("ln_fli00001", "2026-11-30", "travel", "189.00", description="flight Stockholm"),
          _line("ln_lnch0001", "2026-12-01", "meals", "16.00", description="lunch"),
          _line("ln_lnch0002", "2026-12-02", "meals", "19.00", description="lunch"),
          _line("ln_back0001", "2026-12-02", "travel", "251.00")]


def test_a_leg_s_new_amount_told_with_its_old_one_changes_that_line():
    plan = plan_of("the flight back should be 215 eur, not 251", **{**on(GDANSK), "today": "2026-12-07"})
    assert [(a.act, a.args.get("line"), a.args.get("amount")) for a in plan.acts] == [("update_line", 4, "215.00")]


def test_take_that_one_off_removes_the_one_line_the_words_name_by_kind_and_day():
    plan = plan_of("btw the customer paid the lunch on tuesday, so take that one off", **{**on(GDANSK), "today": "2026-12-07"})
    assert _removed(plan) == [2]


def test_a_yes_then_another_thing_in_another_currency_adds_the_first_and_offers_the_next():
    plans = _talk_kept(["fuel 210 PLN on tuesday 1/12", "yes thats fine. also parking at the customer 2/12, 45 PLN", "yes"],
                       **{**on([]), "today": "2026-12-07"})
    def paid(plan) -> list[tuple[Any, ...]]:  # (the handler converts a line that names the currency it was paid in)
        return [(a.args.get("amount"), a.args.get("currency"), a.args.get("date")) for a in plan.acts]
    assert plans[0].acts == []
    assert paid(plans[1]) == [("210.00", "PLN", "2026-12-01")] and "10.56" in _said(plans[1])
    assert paid(plans[2]) == [("45.00", "PLN", "2026-12-02")]


# ----------------------------------------------------------------- 12. what the third review found


@pytest.mark.parametrize("text", ["taxi 20 on 2.12, lunch 15 on 2.12, oh no sorry, no taxi",
                                  "flight 189 on 1.12, hotel 312 on 1.12, sorry, no flight"])
def test_no_sorry_no_x_of_a_priced_thing_never_commits_x(text):
    plan = plan_of(text, **{**on([]), "today": "2026-12-07"})
    taken = {r.act for r in plan.retractions}
    named = text.rsplit("no ", 1)[1]
    assert not [a for a in plan.acts if a.act == "add_line" and a.id not in taken
                and named in str(a.args.get("category")) + str(a.evidence)]


def test_i_mean_a_day_then_a_line_the_claim_has_is_asked_never_added_again():
    taxi = [_line("ln_taxi0001", "2026-12-02", "taxi", "20.00")]
    assert plan_of("Sorry, I mean 1/12. On 1/12: taxi 20", **{**on(taxi), "today": "2026-12-07"}).acts == []


@pytest.mark.parametrize("answer", ["it was 190", "190", "sorry 190", "Put 47.20 on Israel", "the card says 47.20"])
def test_after_a_money_with_no_rate_only_an_amount_told_in_the_claim_s_currency_completes_it(answer):
    plans = _talk_kept([SHEKEL, answer], **{**on([]), "today": "2026-11-20"})
    assert not [a for a in plans[1].acts if a.act == "add_line" and a.args.get("category") == "taxi"]


@pytest.mark.parametrize(("text", "today"), [("taxi on friday the last week of november, 25", "2026-12-07"),
                                             ("taxi 20 on tuesday last week", "2026-12-06")])  # (a Sunday)
def test_the_last_week_of_something_and_last_week_said_on_a_sunday_are_asked(text, today):
    assert plan_of(text, **{**on([]), "today": today}).acts == []


def test_a_third_day_beside_the_trip_s_leaves_a_weekday_heading_asked():
    plan = plan_of("The conference was from 18 to 20 Nov, I registered on 13 Nov. Tuesday: lunch 22",
                   **{**on([]), "today": "2026-11-27"})
    assert ("meals", "22.00", "2026-11-17") not in _adds(plan)


def test_both_when_three_were_asked_is_asked_again():
    plans = _talk_kept(["Flight to Milan with Lufthansa on 1/12, 189,40 €. Dinner at Luini 24. Hotel Berna 2 nights 312. "
                        "Taxi to the office 30.", "both on 1/12"], **{**on([]), "today": "2026-12-07"})
    assert len([a for a in plans[1].acts if a.act == "add_line"]) <= 1


def test_a_weekday_in_the_trip_beside_the_same_line_a_week_later_is_asked():
    lunch = [_line("ln_lnch0001", "2026-11-24", "meals", "22.00", description="lunch")]
    plan = plan_of("I was in Lyon from Mon 16 to Wed 18 Nov. Tuesday: lunch 22", **{**on(lunch), "today": "2026-11-27"})
    assert plan.acts == []


def test_forget_a_thing_of_a_day_never_removes_another_kind_of_that_day():
    day = [_line("ln_meal0001", "2026-12-01", "meals", "45.00", "Zum Schwan"),
           _line("ln_trai0001", "2026-11-30", "travel", "89.00", "Deutsche Bahn")]
    plan = plan_of("forget the parking of monday, the client paid it", **{**on(day), "today": "2026-12-07"})
    assert _removed(plan) == []


def test_a_check_before_an_addition_is_still_a_condition():
    taxi = [_line("ln_taxi0001", "2026-12-01", "taxi", "20.00")]
    plan = plan_of("if that's right add a taxi 20 on 1/12", **{**on(taxi), "today": "2026-12-07"})
    assert not [a for a in plan.acts if a.act == "add_line"]
