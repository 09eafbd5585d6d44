"""Families of the nineteenth round (issue 19), with sentences of our own. First the wrong commits the eighteenth
round's review listed as older than that round: a claim's currency said as a sentence of its own ("pounds."), a
share of a bill told after the bill's price, a weekday told with a day of the month it was not, a card's rate given
where the amount in the claim's currency was asked."""

from __future__ import annotations

from dataclasses import replace

import pytest

from conversations.core.plan import ReadBatch, parse_model_answer
from expenses.interpreter import interpret
from tests.test_families_13 import line, on
from tests.test_families_17 import TRIP
from tests.test_families_21 import _offered
from tests.test_interpreter import plan_of, request

# ----------------------------------------------------------------- 1. the claim's currency said on its own


@pytest.mark.parametrize(("text", "currency", "title"), [
    ("new claim called 'Cork'. pounds. taxi 20", "GBP", "Cork"),
    ("new claim — call it 'Oslo'. NOK please. dinner 400", "NOK", "Oslo"),
    ("new claim 'Bern', francs. hotel 150", "CHF", "Bern"),
])
def test_a_currency_said_on_its_own_after_the_title_is_the_claims(text, currency, title):
    plan = plan_of(text, cases=(), active=None)
    opened = [a for a in plan.acts if a.act == "open_claim"]
    assert [(a.args["title"], a.args.get("currency")) for a in opened] == [(title, currency)]


def test_a_currency_word_on_its_own_is_never_left_unread():
    # the audit sees it: a reading that does not use it proposes nothing in EUR
    plan = plan_of("new claim 'Cork'. pounds thanks. taxi 20", cases=(), active=None)
    assert all(a.args.get("currency", "GBP") == "GBP" for a in plan.acts if a.act == "open_claim")


# ----------------------------------------------------------------- 2. the share of a bill


@pytest.mark.parametrize("text", [
    "dinner with the team 150, paid my own share, €31.20",
    "dinner 90, paid my share 30",
    "dinner 90, my share was 30",
])
def test_a_share_told_after_the_bills_price_never_adds_the_bill(text):
    plan = plan_of(text, **on(TRIP))
    assert not any(a.args.get("amount") in ("150.00", "90.00") for a in plan.acts)


def test_a_share_told_as_what_was_paid_is_the_line():
    plan = plan_of("went for dinner with two of the girls after and paid my own share, €31.20", **on(TRIP))
    assert [(a.args["category"], a.args["amount"]) for a in plan.acts if a.act == "add_line"] == [("meals", "31.20")]


# ----------------------------------------------------------------- 3. a weekday with a day it was not


def test_a_weekday_told_with_a_day_it_was_not_is_asked_never_a_price():
    # told on Thursday 3 December: Monday was the 30th, and the 1st a Tuesday
    plan = plan_of("monday 1 the flight 240", **on(TRIP))
    assert plan.acts == []
    assert "Monday was the 30th" in " ".join([plan.say or "", *(a.text for a in plan.answers)])


def test_a_weekday_told_with_its_own_day_dates_the_line():
    plan = plan_of("monday 30 the flight 240", **on(TRIP))
    assert [(a.args["amount"], a.args["date"]) for a in plan.acts] == [("240.00", "2026-11-30")]


# ----------------------------------------------------------------- 4. a rate where the amount was asked


@pytest.mark.parametrize("said", ["go with the card rate, 1.17", "use the exchange rate 1.17", "fx was 1.17"])
def test_a_rate_given_for_an_offer_is_never_the_amount(said):
    told = "dinner 40 USD"
    first = _offered(told, **on(TRIP))
    assert first.acts == [] and first.pending is not None
    pending = {**first.pending.model_dump(mode="json"), "message": told}
    parsed = parse_model_answer(interpret(replace(request(said, **on(TRIP)), pending=pending)))
    assert not isinstance(parsed, ReadBatch)
    assert not any(a.args.get("amount") == "1.17" for a in parsed.acts)


# ----------------------------------------------------------------- 5. the answer to "what should the new amount be?"

DINNERS = [line("ln_trn00001", "2026-11-30", "travel", "120.00"), line("ln_taxi0001", "2026-11-30", "taxi", "12.50"),
           line("ln_dnr00001", "2026-11-30", "meals", "34.20", "dinner")]


def _answered(told: str, answer: str, lines: list[dict]):
    first = _offered(told, **on(lines))
    assert first.acts == [] and first.pending is not None, first
    pending = {**first.pending.model_dump(mode="json"), "message": told}
    parsed = parse_model_answer(interpret(replace(request(answer, **on(lines)), pending=pending)))
    assert not isinstance(parsed, ReadBatch)
    return parsed


@pytest.mark.parametrize(("told", "answer"), [
    ("the dinner amount is wrong", "37.45"),
    ("the dinner on monday was actually 44 USD", "37.45"),
    ("the dinner on monday was actually 44 USD", "the dinner, line 3. 37.45"),
    ("the dinner on monday was actually 44 USD", "line 3, 37.45 EUR"),
])
def test_the_new_amount_answered_changes_the_line_asked_about(told, answer):
    plan = _answered(told, answer, DINNERS)
    assert [(a.act, a.args.get("line"), a.args.get("amount")) for a in plan.acts] == [("update_line", 3, "37.45")]


@pytest.mark.parametrize("answer", ["line 2, 37.45", "the taxi, 37.45"])
def test_an_answer_naming_another_line_changes_nothing_it_was_not_asked_about(answer):
    plan = _answered("the dinner on monday was actually 44 USD", answer, DINNERS)
    assert not any(a.act == "update_line" and a.args.get("line") != 3 for a in plan.acts)
    assert not any(a.act == "update_line" and a.args.get("line") == 3 and a.args.get("amount") == "37.45"
                   for a in plan.acts)


# ----------------------------------------------------------------- 6. what the blind set's unsafe items showed


def _amounts_after_corrections(plan) -> list[str]:
    fixed = {c.act: c.args for c in plan.corrections}
    return [{**a.args, **fixed.get(a.id, {})}["amount"] for a in plan.acts if a.act == "add_line"]


def test_a_price_taken_back_with_why_is_the_price_said_again():
    plan = plan_of("Wednesday back home: ICE back 139.90 — no wait, I had the Sparpreis, 89.90.", **on(TRIP))
    assert _amounts_after_corrections(plan) == ["89.90"]


def test_a_take_back_naming_another_kind_is_never_the_price_said_again():
    plan = plan_of("taxi 20 - no wait, the dinner was 30", **on(TRIP))
    assert not any(a.args.get("amount") == "30.00" and a.args.get("category") == "taxi" for a in plan.acts)


@pytest.mark.parametrize(("text", "category"), [
    ("Thursday return: train 169 again and in train I eat in Wars 46.", "meals"),
    ("on the train I ate a sandwich, 7.50", "meals"),
])
def test_what_was_eaten_on_a_train_is_a_meal(text, category):
    plan = plan_of(text, **on(TRIP))
    assert not any(a.args.get("category") == "travel" and a.args.get("amount") in ("46.00", "7.50") for a in plan.acts)


@pytest.mark.parametrize("text", [
    "one of the taxis was 35 rather than 32",
    "one of the taxis was on tuesday actually",
    "one of my lunches was 16.50, not 14.50",
])
def test_one_of_several_not_said_which_is_asked(text):
    plan = plan_of(text, **on(TRIP))
    assert not any(a.act == "update_line" for a in plan.acts)


# ----------------------------------------------------------------- 7. a stay: its count, the days of its nights, a rate


@pytest.mark.parametrize(("text", "amount", "day"), [
    ("Hotel was the Premier Inn, two nights (Monday and Tuesday) at 89 a night.", "178.00", "2026-11-30"),
    ("Hotel was the Ibis Gare, two nights, Monday and Tuesday, at 172 a night.", "344.00", "2026-11-30"),
    ("The hotel: Ibis Styles, 2 nights (29 and 30 November), 385 per night.", "770.00", "2026-11-29"),
    ("the hotel: 2 nights, 29 and 30, 198 per night.", "396.00", "2026-11-29"),
    ("Hotel Scandic Europa, 2 nights, 29th and 30th, 139 per night.", "278.00", "2026-11-29"),
    ("Hotel was the Marriott, 2 nights, Mon and Tue, at 179.", "358.00", "2026-11-30"),
])
def test_a_stay_told_by_its_count_its_nights_and_a_rate_is_one_line_from_the_first_night(text, amount, day):
    plan = plan_of(text, **on(TRIP))
    assert [(a.args["category"], a.args["amount"], a.args["date"]) for a in plan.acts] == [("hotel", amount, day)]


@pytest.mark.parametrize("text", [
    "hotel 3 nights, 29 and 30, 90 per night",
    "hotel 3 nights, Monday and Tuesday, 90 per night",
])
def test_a_count_of_nights_the_days_named_do_not_number_is_asked(text):
    plan = plan_of(text, **on(TRIP))
    assert plan.acts == []


@pytest.mark.parametrize(("text", "value"), [
    ("two nights (Tuesday and Wednesday) at £89 a night", "178"),
    ("2 nights, 16 and 17, 198 euros per night", "396"),
    ("2 nights, 24th and 25th, 1390 kronor per night", "2780"),
    ("2 nights, Wed and Thu, at $179", "358"),
    ("3 nights from mon, 100 per night", "300"),
])
def test_the_engine_reads_a_count_of_nights_its_days_and_a_rate_as_their_product(text, value):
    from registries.numbers import numbers_found

    assert [str(n.value) for n in numbers_found(text) if n.product] == [value]


@pytest.mark.parametrize("text", ["3 nights, 16 and 17, 100 per night", "3 nights, Wed and Thu, at $179"])
def test_the_engine_multiplies_nothing_when_the_days_named_do_not_number_the_nights(text):
    from registries.numbers import numbers_found

    assert [n for n in numbers_found(text) if n.product] == []


# ----------------------------------------------------------------- 8. how a whole claim is told (dev-26)


def test_a_day_told_by_what_happened_heads_the_expenses_after_its_colon():
    plan = plan_of("Tuesday the meetings were out at the ministry: taxi out there 18.00, lunch in the canteen 9.80",
                   **on(TRIP))
    assert [(a.args["category"], a.args["date"]) for a in plan.acts] == [("taxi", "2026-12-01"), ("meals", "2026-12-01")]


def test_a_question_with_its_own_guess_is_one_question():
    plan = _offered("dinner 27 on tuesday. What's the daily limit on food again, is it 60?", **on(TRIP))
    assert [(a.args["category"], a.args["amount"]) for a in plan.acts] == [("meals", "27.00")]
    assert not any("did not understand" in a.text for a in plan.answers)


@pytest.mark.parametrize("told", [
    "I was down Monday to Wednesday this week.",
    "I was in Lyon from Monday 30 until Wednesday 2.",
    "trip was Mon Nov 30 to Wed Dec 2.",
    "I had travelled from 30th November to 2nd December.",
])
def test_when_the_trip_was_is_no_expense_and_no_day_left_unread(told):
    plan = plan_of(f"{told} Tuesday: train 24.60, taxi to the hotel 16.40", **on(TRIP))
    assert [(a.args["category"], a.args["date"]) for a in plan.acts] == [("travel", "2026-12-01"), ("taxi", "2026-12-01")]


def test_a_place_called_new_is_no_request_for_a_new_claim():
    plan = plan_of("taxi from New Street to the hotel 9.40 on tuesday", **on(TRIP))
    assert [(a.act, a.args["amount"]) for a in plan.acts] == [("add_line", "9.40")]


def test_call_it_after_a_comma_names_the_claim_asked_for():
    plan = plan_of('Can you open a new claim in pounds for me, call it "Leeds depot audit". taxi 9.40 on tuesday',
                   cases=(), active=None)
    assert [(a.act, a.args.get("title"), a.args.get("currency")) for a in plan.acts][:1] == [
        ("open_claim", "Leeds depot audit", "GBP")]


def test_a_pasted_stay_told_again_by_its_nights_is_one_line_from_its_first_night():
    plan = plan_of("29/11 HOTEL LE GERMAIN 398.00\n\nthe hotel is 2 nights (29th + 30th), 199/night", **on(TRIP))
    assert [(a.args["category"], a.args["amount"], a.args["date"]) for a in plan.acts] == [
        ("hotel", "398.00", "2026-11-29")]


@pytest.mark.parametrize("text", ["12/1 (Tue): lunch 16.75", "Tuesday 1/12: lunch 16.75"])
def test_a_day_written_with_slashes_is_read_by_the_weekday_beside_it(text):
    plan = plan_of(text, **on(TRIP))
    assert [a.args["date"] for a in plan.acts] == ["2026-12-01"]


def test_a_day_written_with_slashes_that_fell_on_no_weekday_beside_it_is_asked():
    plan = plan_of("11/30 (Tue): lunch 16.75", **on(TRIP))  # 30 November was a Monday
    assert plan.acts == []


def test_a_discount_fare_is_no_split_of_the_amount():
    plan = plan_of("tuesday: train to Lausanne 78 (half fare), lunch 22.50", **on(TRIP))
    assert [(a.args["category"], a.args["amount"]) for a in plan.acts] == [("travel", "78.00"), ("meals", "22.50")]


def test_two_things_told_with_their_prices_after_a_day_are_two_lines_of_that_day():
    plan = plan_of("Tuesday I had a bacon roll on site, 3.95, and dinner at a place round the corner, 22.80.", **on(TRIP))
    assert [(a.args["category"], a.args["amount"], a.args["date"]) for a in plan.acts] == [
        ("meals", "3.95", "2026-12-01"), ("meals", "22.80", "2026-12-01")]


def test_a_question_by_the_way_with_its_guess_is_one_question():
    plan = _offered("Is there a cap on the hotel per night, by the way, or am I fine at 89?", **on(TRIP))
    assert plan.acts == [] and not any("did not understand" in a.text for a in plan.answers)


def test_a_stay_starting_on_a_day_opens_no_claim():
    plan = plan_of("The hotel was the Premier Inn at King's Cross, three nights starting on the Monday, at 119 a night.",
                   **on(TRIP))
    assert [(a.act, a.args.get("amount")) for a in plan.acts] == [("add_line", "357.00")]


def test_a_bare_weekday_a_week_after_the_trip_an_earlier_message_told_is_asked():
    said = request("On the Monday I also took the train into town, 25", **on(TRIP))
    said = replace(said, excerpt=[{"role": "user", "text": "I was in Paris for work from Monday 23 to Thursday 26 November"}])
    plan = parse_model_answer(interpret(said))
    assert plan.acts == []
    assert "23 Nov (in the trip you told me of) or 30 Nov" in " ".join(a.text for a in plan.answers)
