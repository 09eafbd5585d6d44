"""Families of the twelfth round (issue 19), with sentences of our own: a trip told before its expenses; claims
opened in chatty words; thousands grouped by a space where a price stands; nights named by their days; the meals,
nights and flights of other languages; a line named first and removed after the reason; a trip's "Day 2" that is
never a price and never today.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from conversations.core.plan import ReadBatch, parse_model_answer
from expenses.interpreter import interpret
from tests.test_families_13 import TODAY, line, on
from tests.test_interpreter import _round, answer, claim, plan_of, request
from tests.test_walkthrough_families import added, conversation


def fields(plan, *names: str) -> list[tuple]:
    return [tuple(a.get(n) for n in names) for a in added(plan)]


def acts(plan) -> list[tuple[str, dict]]:
    return [(a.act, dict(a.args)) for a in plan.acts]


def on_claim(currency: str, lines: list[tuple[str, str, str, str]] = ()) -> dict:
    return {"cases": (claim("clm_TRIP0001", "Trip", list(lines), currency=currency),), "active": "clm_TRIP0001",
            "today": TODAY}


NONE = {"cases": (), "active": None, "today": TODAY}
TRIP = [line("ln_taxi0001", "2026-12-01", "taxi", "32.00"), line("ln_lnch0001", "2026-12-02", "meals", "14.50", "lunch")]


# ----------------------------------------------------------------- 1. the trip told first


@pytest.mark.parametrize("text", [
    "Hi! I am back from 3 days in Vienna. Here are my costs: taxi 24.11. 38,50",
    "So, I am back from Vienna since yesterday evening, here are my costs:\n- taxi 24.11. 38,50",
    "we were in Vienna for the fair. taxi 24.11. 38,50",
])
def test_the_trip_told_before_the_expenses_is_no_request(text) -> None:
    [plan] = conversation([text], **on(TRIP))
    assert fields(plan, "category", "amount", "date") == [("taxi", "38.50", "2026-11-24")]


def test_a_day_in_the_story_before_a_claim_is_opened_is_the_trips() -> None:
    [plan] = conversation(["ok so story time, last week I went to Brussels for the EU standards meeting, so new claim "
                           "please, Brussels standards meeting. The Thalys out from Paris on Monday the 30th was 89 euros"],
                          **NONE)
    assert [a for a, _ in acts(plan)] == ["open_claim", "add_line"]
    assert fields(plan, "merchant", "amount", "date") == [("Thalys", "89.00", "2026-11-30")]


# ----------------------------------------------------------------- 2. claims opened in chatty words


@pytest.mark.parametrize(("text", "title", "currency"), [
    ("tak ok so, I need a new claim in Czech crowns please, Prague supplier audit", "Prague supplier audit", "CZK"),
    ('Grüezi, bitte a new Spesenabrechnung "Paris Kundentermin" in CHF', "Paris Kundentermin", "CHF"),
    ("new claim please, Oslo roadshow, in Swedish crowns", "Oslo roadshow", "SEK"),
])
def test_a_claim_asked_for_in_chatty_words_opens(text, title, currency) -> None:
    [plan] = conversation([text], **NONE)
    assert acts(plan) == [("open_claim", {"title": title, "currency": currency})]


# ----------------------------------------------------------------- 3. thousands grouped by a space


@pytest.mark.parametrize(("text", "amount"), [
    ("Hotel Oleana 1.12., 2 150", "2150.00"),
    ("hotel Nobis 1.12. 3 890 in total", "3890.00"),
    ("flight Norwegian 29.11. was 1 486", "1486.00"),
    ("flight Norwegian 29.11., 1 486 kroner", "1486.00"),
])
def test_thousands_grouped_by_a_space_where_a_price_stands_are_one_price(text, amount) -> None:
    [plan] = conversation([text], **on_claim("NOK"))
    assert fields(plan, "amount") == [(amount,)]


@pytest.mark.parametrize("text", ["flight Norwegian 29.11. 1 486", "hotel 1.12. 2 150"])
def test_two_numbers_with_a_space_and_no_price_slot_are_asked_about(text) -> None:
    [plan] = conversation([text], **on_claim("NOK"))
    assert plan.acts == [] and plan.answers


# ----------------------------------------------------------------- 4. nights named by their days


def test_nights_counted_and_named_by_their_days_are_one_stay_from_its_first() -> None:
    [plan] = conversation(["hotel Nobis two nights Monday and Tuesday 3 890 in total"], **on_claim("SEK"))
    assert fields(plan, "category", "amount", "date") == [("hotel", "3890.00", "2026-11-30")]
    [plan] = conversation(["Stayed at The Thief, Sunday and Monday night, so 2 nights, 5 380 all in."], **on_claim("NOK"))
    assert fields(plan, "merchant", "amount", "date") == [("The Thief", "5380.00", "2026-11-29")]


def test_days_named_with_no_count_or_another_count_are_still_asked() -> None:
    [plan] = conversation(["hotel Nobis three nights Monday and Tuesday 3 890 in total"], **on_claim("SEK"))
    assert plan.acts == []


# ----------------------------------------------------------------- 5. the words of other languages


def test_meals_nights_and_flights_said_in_other_languages() -> None:
    [plan] = conversation(["déjeuner 01/12 Le Pain Quotidien 18,70\ndîner 01/12 brasserie Le Falstaff 41,20"], **on(TRIP))
    assert fields(plan, "category", "amount", "date") == [("meals", "18.70", "2026-12-01"), ("meals", "41.20", "2026-12-01")]
    [plan] = conversation(["Motel One Hamburg 1.12.-3.12., 2 Nächte, 198,00"], **on(TRIP))
    assert fields(plan, "category", "amount", "date") == [("hotel", "198.00", "2026-12-01")]
    [plan] = conversation(["volo ITA Airways FCO–VIE 30/11 — 214,60"], **on(TRIP))
    assert fields(plan, "merchant", "category", "amount") == [("ITA Airways", "travel", "214.60")]


def test_a_french_weekday_before_its_date_is_no_month() -> None:
    [plan] = conversation(["dîner mar. 01/12 Cervecería Catalana : 33,60"], **on(TRIP))
    assert fields(plan, "date") == [("2026-12-01",)]


def test_a_chain_said_with_its_branch_in_small_letters_is_that_branch() -> None:
    [plan] = conversation(["htl hilton midtown 3 nts from 30.11. 867"], **on(TRIP))
    assert fields(plan, "merchant") == [("Hilton Midtown",)]


def test_two_expenses_told_with_commas_are_no_pasted_record() -> None:
    [plan] = conversation(["and the hotel, Hotel Amigo, the 30th and the 1st, two nights, 358 for the two, and on the 1st "
                           "dinner at Belga Queen, 52"], **on(TRIP))
    assert fields(plan, "category", "amount") == [("hotel", "358.00"), ("meals", "52.00")]


# ----------------------------------------------------------------- 6. removals, named first


BERLIN = [("2026-12-01", "Sixt", "travel", "164.00"), ("2026-12-01", "Orlen", "travel", "71.35"),
          ("2026-12-01", "Adina", "hotel", "252.00")]


@pytest.mark.parametrize("text", [
    "Sorry, the Orlen fuel — the company card paid it, so it must not be in my claim. Please remove",
    "the Orlen fuel, the company card paid it. Please remove it",
])
def test_a_line_named_before_the_reason_and_a_bare_removal_is_removed(text) -> None:
    [plan] = conversation([text], **on_claim("EUR", BERLIN))
    assert acts(plan) == [("remove_line", {"line": 2})]


def test_a_bare_removal_after_words_that_name_two_lines_is_asked() -> None:
    lines = BERLIN + [("2026-12-02", "Shell", "travel", "68.90")]
    [plan] = conversation(["the fuel, the company card paid it. Please remove it"], **on_claim("EUR", lines))
    assert plan.acts == []


def test_take_it_back_off_and_submit_the_whole_thing() -> None:
    [plan] = conversation(["take the lunch back off"], **on(TRIP))
    assert acts(plan) == [("remove_line", {"line": 2})]
    for text in ("submit the whole thing", "Bitte einreichen = submit it"):
        [plan] = conversation([text], **on(TRIP))
        assert [a for a, _ in acts(plan)] == ["submit_claim"]


# ----------------------------------------------------------------- 7. a trip's day, never a price, never today


def converted(text: str, **kwargs):
    """The plan for ``text`` after the exchange rate it asks for is read (the real read tool)."""
    first = answer(text, **kwargs)
    assert isinstance(first, ReadBatch) and [r.tool for r in first.reads] == ["exchange_rate"]
    return plan_of(text, rounds=[_round(first)], **kwargs)


def test_a_trips_day_number_is_never_a_price() -> None:
    plan = converted("Day 2 (Tue 24.11.): lunch with the supplier team at Café de Jaren, I paid €64.80 on my card",
                     **on_claim("GBP"))
    assert plan.acts == []  # the euros are converted and asked about; 2.00 is never added
    [plan] = conversation(["Day 2: lunch at Café de Jaren 64.80"], **on(TRIP))
    assert plan.acts == [] and "Day 2" in plan.answers[0].text


# ----------------------------------------------------------------- 8. corrections among other words


def test_the_leg_home_never_corrects_a_line_told_with_no_leg() -> None:
    lines = [("2026-11-30", "ITA Airways", "travel", "241.30")]
    [plan] = conversation(["the ITA Airways flight home was 198.70"], **on_claim("EUR", lines))
    assert plan.acts == []


def test_a_fix_beside_a_line_said_to_be_right() -> None:
    lines = [("2026-12-01", "Trenitalia", "travel", "59.90"), ("2026-12-02", "Trenitalia", "travel", "59.90")]
    [plan] = conversation(["the Frecciarossa of 1/12 was 49,90 not 59,90. the return one 2/12 is ok"],
                          **on_claim("EUR", lines))
    assert acts(plan) == [("update_line", {"line": 1, "amount": "49.90"})]


def test_the_amount_asked_for_said_as_what_to_make_it() -> None:
    told = "Tuesday I paid the hotel breakfast separately it was 18 euros"
    first = converted(told, **on_claim("SEK"))
    assert first.acts == [] and first.pending is not None
    pending = {**first.pending.model_dump(mode="json"), "message": told}
    second = parse_model_answer(interpret(replace(request("ok make it 205 kronor then that's what the bank took",
                                                          **on_claim("SEK")), pending=pending)))
    assert fields(second, "category", "amount") == [("meals", "205.00")]


@pytest.mark.parametrize("text", [
    "right, before I forget, the hotel isn't 420, it's 402, my phone swapped the numbers when I dictated it",
    "the hotel isn't 420 but 402",
])
def test_a_value_said_not_to_be_then_what_it_is_corrects_the_line(text) -> None:
    lines = [("2026-11-25", "TAP", "travel", "246.30"), ("2026-11-25", "Hotel Avenida Palace", "hotel", "420.00")]
    [plan] = conversation([text], **on_claim("EUR", lines))
    assert acts(plan) == [("update_line", {"line": 2, "amount": "402.00"})]


@pytest.mark.parametrize(("text", "amount"), [
    ("dinner with the team was 1 120 no sorry 1 210 at Pelikan", "1210.00"),
    ("dinner with the team was 112 no sorry 121 at Pelikan", "121.00"),
])
def test_a_price_taken_back_as_it_is_said_keeps_the_new_one_and_who_was_paid(text, amount) -> None:
    [plan] = conversation([text], **on_claim("SEK"))
    assert fields(plan, "category") == [("meals",)]
    assert [dict(c.args) for c in plan.corrections] == [{"amount": amount, "merchant": "Pelikan"}]


def test_a_claim_named_with_its_possessive_is_the_one_submitted() -> None:
    cases = (claim("clm_FRAN0001", "Frankfurt client audit", [("2026-12-01", "DB", "travel", "119.90")]),
             claim("clm_MILA0001", "Milan supplier visit", [("2026-11-25", "ITA Airways", "travel", "189.00")]))
    [plan] = conversation(["milan's done, submit it"], cases=cases, active="clm_FRAN0001", today=TODAY)
    assert [(a.act, a.case.id or a.case.match) for a in plan.acts] == [("submit_claim", "milan")]


# ----------------------------------------------------------------- 9. the round's review: never a guess that commits


@pytest.mark.parametrize("text", ["Beers, 4 240", "Taxi was 2 150", "Museum, 2 150"])
def test_a_count_and_a_price_that_may_be_one_price_is_asked_about(text) -> None:
    [plan] = conversation([text], **on_claim("SEK"))
    assert plan.acts == [] and "one price" in plan.answers[0].text


def test_a_price_grouped_by_a_space_on_a_claim_kept_in_euros_is_asked_about() -> None:
    [plan] = conversation(["Hotel Oleana 1.12., 2 150"], **on_claim("EUR"))
    assert plan.acts == []


@pytest.mark.parametrize("text", ["Lunch 22 no sorry 26 at 1 PM", "Lunch 22 no sorry 26 at Terminal 2",
                                  "Breakfast 12 no sorry 21 at Hotel 7", "Lunch 18 no 19 Nov 24"])
def test_a_price_taken_back_beside_other_numbers_is_asked_about(text) -> None:
    [plan] = conversation([text], **on(TRIP))
    assert plan.acts == []


def test_a_place_after_a_ride_taken_back_is_no_merchant() -> None:
    [plan] = conversation(["Taxi 22 no sorry 26 at Heathrow"], **on(TRIP))
    assert [dict(c.args) for c in plan.corrections] == [{"amount": "26.00"}]


def test_a_removal_after_words_naming_two_things_is_asked() -> None:
    [plan] = conversation(["I returned the Sixt car on Tuesday. I paid the fuel with the company card. Please remove"],
                          **on_claim("EUR", BERLIN))
    assert plan.acts == []


@pytest.mark.parametrize("text", ['new lunch "Pelikan" 40', 'new entry "Dinner with client" 80'])
def test_an_expense_told_with_a_quoted_name_opens_no_claim(text) -> None:
    [plan] = conversation([text], **on(TRIP))
    assert [a.act for a in plan.acts] == ["add_line"]


@pytest.mark.parametrize(("text", "merchant"), [("htl hilton again 2 nts 300", "Hilton"), ("hilton lounge 40", "Hilton")])
def test_an_everyday_word_after_a_chain_is_no_branch(text, merchant) -> None:
    [plan] = conversation([text], **on(TRIP))
    assert fields(plan, "merchant") == [(merchant,)]


def test_money_back_is_no_expense() -> None:
    [plan] = conversation(["scandic refund 200"], **on(TRIP))
    assert plan.acts == []


def test_a_line_the_claim_has_told_again_with_a_new_price_and_no_edit_verb_is_asked_about() -> None:
    lines = [("2026-12-01", "Figlmüller", "meals", "38.90"), ("2026-11-30", "ITA Airways", "travel", "214.60")]
    [plan] = conversation(["Scusa, the cena at Figlmüller — date is ok but the importo is 48,90, I wrote it wrong"],
                          **on_claim("EUR", lines))
    assert plan.acts == []


def test_the_trip_told_with_its_event_and_days_before_a_claim_is_opened_is_no_expense() -> None:
    [plan] = conversation(["So I'm back from Stockholm, 3 days at the Nordic Supplier Summit, 10-12 November. Can you open a "
                           "new claim for this trip, name it 'Stockholm supplier summit', in SEK please"], **NONE)
    assert acts(plan) == [("open_claim", {"title": "Stockholm supplier summit", "currency": "SEK"})]

