"""Families of the nineteenth round (issue 19), with sentences of our own. First the wrong commits the eighteenth
round's review listed as older than that round: a claim's currency said as a sentence of its own ("pounds."), a
share of a bill told after the bill's price, a weekday told with a day of the month it was not, a card's rate given
where the amount in the claim's currency was asked."""

from __future__ import annotations

import re
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


def test_a_sentence_after_a_price_with_its_own_subject_and_price_is_its_own():
    plan = plan_of("Tuesday: lunch 7.25, and the train home was 79.10. Oh and that lunch on Wednesday was 16.50, not 14.50.",
                   **on(TRIP))
    assert sorted((a.act, a.args.get("amount")) for a in plan.acts) == [
        ("add_line", "7.25"), ("add_line", "79.10"), ("update_line", "16.50")]


def test_a_day_heading_after_words_that_only_announce_the_expenses_dates_them():
    plan = plan_of("Good morning. I want to put the expenses of my Lyon trip in the claim I have already. Monday 30/11: "
                   "taxi to the hotel 16.40, and in the evening dinner near the station 27.50.", **on(TRIP))
    assert [(a.args["category"], a.args["date"]) for a in plan.acts] == [("taxi", "2026-11-30"), ("meals", "2026-11-30")]


def test_the_price_said_after_the_currency_it_was_paid_in_is_the_things_just_named():
    plan = _offered("The flight Lyon–Paris with Air France on Monday 30, return ticket, I paid in dollars, 189.98 USD.",
                    **on(TRIP))
    assert plan.acts == [] and plan.pending is not None and (plan.pending.args or {}).get("currency") == "USD"


def test_a_label_says_a_question_follows():
    from datetime import date

    from expenses.interpreter.clauses import split

    said = split("Dinner with the other students 34.80 on tuesday. Question: I want to know my total until now.",
                 date(2026, 12, 3))
    assert [(c.kind, c.question) for c in said] == [("item", False), ("context", False), ("question", True)]


def test_a_meal_included_is_nothing_to_claim_and_the_day_heading_still_dates_what_follows():
    plan = plan_of("12/1 (Tue): workshop all day, lunch is included. Dinner with other PhD students 34.80.", **on(TRIP))
    assert [(a.args["category"], a.args["amount"], a.args["date"]) for a in plan.acts] == [
        ("meals", "34.80", "2026-12-01")]


# ----------------------------------------------------------------- 9. what the round's review found (asked or read)


@pytest.mark.parametrize("text", ["taxi 40, Tom paid half fare", "dinner 150, half price because Anna covered the rest"])
def test_half_of_a_price_another_paid_never_commits_the_whole(text):
    plan = plan_of(text, **on(TRIP))
    assert not any(a.args.get("amount") in ("40.00", "150.00") for a in plan.acts)


@pytest.mark.parametrize(("text", "amount"), [
    ("hotel 2 nights (Mon and Tue) at 300 total", "300.00"),
    ("hotel 2 nights, Mon and Tue, at 179 for both", "179.00"),
])
def test_a_stays_price_for_all_its_nights_is_never_multiplied(text, amount):
    plan = plan_of(text, **on(TRIP))
    assert [a.args["amount"] for a in plan.acts] in ([amount], [])


@pytest.mark.parametrize("text", ["hotel 2 nights at 300 total", "hotel 2 nights, 29 and 1, 100 per night, taxi 20 on the 2nd"])
def test_nothing_multiplied_or_dated_by_another_days_words(text):
    plan = plan_of(text, **on(TRIP))
    assert not any(a.args.get("amount") == "600.00" for a in plan.acts)
    assert not any(a.args.get("category") == "hotel" and a.args.get("date") == "2026-12-02" for a in plan.acts)


@pytest.mark.parametrize("text", ["hotel 2 nights, 29 and 1, 100 per night", "hotel 2 nights, Mon and Wed, at 100"])
def test_nights_named_not_in_a_row_are_no_stay_of_that_many_nights(text):
    plan = plan_of(text, **on(TRIP))
    assert not any(a.args.get("amount") == "200.00" for a in plan.acts)


@pytest.mark.parametrize("text", [
    "OCT 08 HOTEL LE GERMAIN 398.00\nthe hotel is 2 nights (6th + 7th), 199/night",
    "OCT 08 HOTEL LE GERMAIN 400.00\nthe hotel is 2 nights (6th + 7th), 199/night",
    "NOV 10 MARRIOTT 300.00\nthe Marriott was 2 nights, 9 and 10 November, 150 per night",
])
def test_a_pasted_stay_and_words_about_a_stay_are_never_two_lines(text):
    plan = plan_of(text, **on(TRIP))
    assert len([a for a in plan.acts if a.args.get("category") == "hotel"]) <= 1
    assert not any(a.args.get("date") == "2026-11-06" for a in plan.acts)


def test_two_hotels_at_one_amount_are_both_added():
    plan = plan_of("Hotel Berlin 240 on the 29th, and hotel Munich 2 nights at 120 from the 30th", **on(TRIP))
    assert [(a.args["amount"], a.args["date"]) for a in plan.acts] == [("240.00", "2026-11-29"), ("240.00", "2026-11-30")]


@pytest.mark.parametrize("text", [
    "lunch 14 on tuesday — no wait, plus a coffee, 3",
    "taxi 20 on tuesday — oops, I forgot the tip, 3",
    "dinner 45 on tuesday — no wait, also the wine, 12",
    "train 45 on tuesday — no wait, that's the outbound, the return was 50",
])
def test_a_price_after_a_take_back_that_adds_something_is_asked(text):
    plan = plan_of(text, **on(TRIP))
    first = re.search(r"\b(\d+) on tuesday", text).group(1) + ".00"  # type: ignore[union-attr]
    assert _amounts_after_corrections(plan) in ([], [first]) or first in _amounts_after_corrections(plan)


@pytest.mark.parametrize("answer", ["half of 80", "two thirds of 60"])
def test_a_share_answered_for_the_new_amount_is_never_the_amount(answer):
    plan = _answered("the dinner amount is wrong", answer, DINNERS)
    assert plan.acts == []


@pytest.mark.parametrize("said", ["convert at 1.17", "at 1.17 please"])
def test_a_rate_said_with_at_is_never_the_amount(said):
    first = _offered("dinner 40 USD", **on(TRIP))
    pending = {**first.pending.model_dump(mode="json"), "message": "dinner 40 USD"}
    parsed = parse_model_answer(interpret(replace(request(said, **on(TRIP)), pending=pending)))
    assert not isinstance(parsed, ReadBatch) and not any(a.args.get("amount") == "1.17" for a in parsed.acts)


def test_the_amount_the_bank_charged_is_the_amount():
    first = _offered("dinner 40 USD", **on(TRIP))
    pending = {**first.pending.model_dump(mode="json"), "message": "dinner 40 USD"}
    parsed = parse_model_answer(interpret(replace(request("my bank charged 36.90 at their rate", **on(TRIP)),
                                                  pending=pending)))
    assert not isinstance(parsed, ReadBatch) and [a.args["amount"] for a in parsed.acts] == ["36.90"]


@pytest.mark.parametrize(("text", "opened"), [("New Berlin claim please, taxi 20", "Berlin"),
                                              ("New Rome claim in euros please", "Rome")])
def test_a_new_claim_named_after_a_place_is_opened(text, opened):
    plan = plan_of(text, **on(TRIP))
    assert [a.args["title"] for a in plan.acts if a.act == "open_claim"] == [opened]


@pytest.mark.parametrize("text", ["roll of tape for the booth 5", "a roll of bin bags 3"])
def test_things_that_are_no_food_are_no_meal(text):
    plan = plan_of(text, **on(TRIP))
    assert not any(a.args.get("category") == "meals" for a in plan.acts)


@pytest.mark.parametrize("text", ["monday 1: flight 240", "monday 1 flight 240", "monday 1, flight 240"])
def test_a_weekday_with_a_day_it_was_not_heading_a_price_is_asked(text):
    plan = plan_of(text, **on(TRIP))
    assert not any(a.args.get("amount") == "1.00" for a in plan.acts)


def test_the_lunch_with_one_of_the_clients_is_the_lunch():
    plan = plan_of("the lunch with one of the clients was 16 not 14.50", **on(TRIP))
    assert [(a.act, a.args.get("amount")) for a in plan.acts] == [("update_line", "16.00")]


def test_one_of_my_taxis_is_never_a_new_taxi():
    plan = plan_of("one of my taxis was 35", **on(TRIP + [line("ln_taxi0002", "2026-11-30", "taxi", "30.00")]))
    assert plan.acts == []


def test_a_limit_told_is_no_expense():
    plan = plan_of("I was over 50 on the meal limit on tuesday, dinner 65", **on(TRIP))
    assert [a.args["amount"] for a in plan.acts] == ["65.00"]


@pytest.mark.parametrize("text", ["dinner 40 on tuesday (Yen, the colleague, joined)", "taxi 20 on tuesday - real"])
def test_a_currency_name_inside_other_words_is_no_currency(text):
    plan = plan_of(text, **on(TRIP))
    assert len(plan.acts) == 1


def test_a_journey_told_after_an_opening_with_call_it_is_added():
    plan = plan_of("Hi, need to open a new claim for my Rotterdam trip last week, call it Rotterdam client visit, in euros "
                   "please. Flight out Mon 30 Nov was 189.40 and the flight back Wed 2 Dec was 162.10. Also the train from "
                   "Schiphol into Rotterdam Centraal on the Monday, 17.80.", cases=(), active=None)
    assert [(a.act, a.args.get("amount"), a.args.get("date")) for a in plan.acts] == [
        ("open_claim", None, None), ("add_line", "189.40", "2026-11-30"), ("add_line", "162.10", "2026-12-02"),
        ("add_line", "17.80", "2026-11-30")]


def test_what_the_user_says_of_their_own_words_is_no_description():
    plan = plan_of("They are two separate things: flight back on Wed 2 Dec was 162.10, and the train on Mon 30 Nov was "
                   "17.80.", **on(TRIP))
    assert not any("separate" in str(a.args.get("description") or "") for a in plan.acts)


def test_the_currency_said_again_after_a_price_asked_about_keeps_the_rest():
    plan = _offered("Also the taxi home from Heathrow on Wed 2 Dec was £38, paid in pounds. And the wednesday lunch was "
                    "actually 16.60 not 14.50, forgot the tip.", **on(TRIP))
    assert [(a.act, a.args.get("amount")) for a in plan.acts] == [("update_line", "16.60")]


def test_an_edit_that_changes_nothing_says_so_in_plain_words():
    from conversations.core.wording import notice_text

    assert notice_text("no_change", "update_line", None, noun="claim", item="line") == (
        "Nothing changed: that line of the claim already has those values.")


# ----------------------------------------------------------------- 10. what the second review found (asked or read)


@pytest.mark.parametrize("text", ["taxi to the airport on tuesday, half of 80, and lunch 14", "dinner on tuesday, my half of 90"])
def test_half_of_a_price_is_never_the_price(text):
    plan = plan_of(text, **on(TRIP))
    assert not any(a.args.get("amount") in ("80.00", "90.00") for a in plan.acts)


@pytest.mark.parametrize("text", ["lunch 12 and taxi £20 on tuesday — both paid in pounds",
                                  "taxi £38 and dinner 45 on tuesday, both paid in pounds"])
def test_a_currency_said_for_several_prices_is_never_dropped(text):
    plan = _offered(text, **on(TRIP))
    assert not any(a.args.get("amount") in ("12.00", "45.00") and not a.args.get("currency") for a in plan.acts)


def test_the_same_thing_told_again_in_the_next_sentence_is_no_second_line():
    plan = plan_of("Train 89 on tuesday. My ticket was first class, 119.", **on(TRIP))
    assert len([a for a in plan.acts if a.act == "add_line"]) <= 1


@pytest.mark.parametrize(("text", "amount"), [("hotel 2 nights at 110 all inclusive", "220.00"),
                                              ("hotel 2 nights at 179 for both of us", "358.00")])
def test_all_inclusive_and_both_of_us_are_no_total(text, amount):
    plan = plan_of(text, **on(TRIP))
    assert [a.args["amount"] for a in plan.acts] == [amount]


def test_a_limit_said_after_an_expense_keeps_the_expense():
    plan = _offered("taxi 20 Monday and dinner 70, which is 10 above the 60 daily allowance", **on(TRIP))
    assert sorted(a.args["amount"] for a in plan.acts) == ["20.00", "70.00"]


def test_words_announcing_the_expenses_are_no_description():
    plan = plan_of("I want to put the expenses of my Lyon trip in the claim: train 89 on tuesday, taxi 20 on tuesday",
                   **on(TRIP))
    assert [a.args.get("description") for a in plan.acts if a.args["amount"] == "89.00"] == ["train"]


def test_a_question_label_before_a_priced_question_keeps_the_rest():
    plan = _offered("Taxi 20 Monday, lunch 14 Tuesday. Also one doubt — dinner 70 on Tuesday is over the limit, right?",
                   **on(TRIP))
    assert [a.args["amount"] for a in plan.acts][:2] == ["20.00", "14.00"]


# ----------------------------------------------------------------- 11. walk Z3


def test_a_food_heading_after_a_stay_heads_the_meals():
    plan = plan_of("Hotel was the Novotel, 2 nights (Monday and Tuesday night) at 95 a night. Food: lunch Monday 14.50, "
                   "dinner Tuesday 31", **on(TRIP))
    assert [(a.args["category"], a.args["amount"]) for a in plan.acts] == [
        ("hotel", "190.00"), ("meals", "14.50"), ("meals", "31.00")]


def test_the_stays_sum_answered_is_never_asked_again():
    told = "Novotel hotel, 95 per night for Monday night and Tuesday night."
    first = _offered(told, **on(TRIP))
    assert first.acts == [] and first.pending is not None
    pending = {**first.pending.model_dump(mode="json"), "message": told}
    parsed = parse_model_answer(interpret(replace(request("190", **on(TRIP)), pending=pending)))
    assert not isinstance(parsed, ReadBatch)
    assert not any("in all" in a.text for a in parsed.answers)
    assert all(a.args.get("amount") == "190.00" for a in parsed.acts)


def test_a_sentence_told_then_with_a_thing_of_its_own_is_its_own():
    plan = plan_of("ok so the flight out on Monday was 189.50 and the flight home Tuesday evening was 164.20. Then taxi "
                   "from the airport to the hotel Monday, 38 euro", **on(TRIP))
    assert [(a.args["amount"], a.args["date"]) for a in plan.acts] == [
        ("189.50", "2026-11-30"), ("164.20", "2026-12-01"), ("38.00", "2026-11-30")]
