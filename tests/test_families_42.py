"""Families of the twenty-ninth round (issue 19), with sentences of our own: long messages that tell the day as a
story, with remarks that ask for nothing ("Honestly, what a day.", "the hotel was lovely btw"); a sentence headed by
its dotted day after the last one's price ("dinner 312 kr. 27.11 lunch 135 kr"); an undated expense told between two
of one day; a hotel named in lower case ("hotel amigo 176"); "fika"."""

from __future__ import annotations

from typing import Any

import pytest

from expenses.interpreter.clauses import remark
from tests.test_families_17 import on_claim
from tests.test_walkthrough_families import conversation

TODAY = "2026-12-03"  # a Thursday


def _adds(plan) -> list[tuple[Any, ...]]:
    return [(a.args.get("category"), a.args.get("amount"), a.args.get("date")) for a in plan.acts
            if a.act == "add_line"]


# ----------------------------------------------------------------------------- remarks


@pytest.mark.parametrize("text", [
    "Honestly, what a day.",
    "The hotel was lovely btw, very old building with huge windows.",
    "Everyone had a great time btw, even Johan who hates bowling.",
    "My manager Ruud was there too, which made the day a lot longer than it needed to be, haha.",
    "Okay, I have two things mixed up in my head, bear with me.",
    "ugh, what a week 😩",
])
def test_a_remark_asks_for_nothing(text):
    assert remark(text)


@pytest.mark.parametrize("text", [
    "The hotel was 120 btw.",  # a figure
    "btw the hotel was the Hilton",  # a kind of expense said with a name: which hotel, maybe a correction
    "btw the taxi was actually an uber",  # a correction's word
    "haha forget the taxi",  # a take-back
    "btw can you submit it",  # a request
    "btw the dinner was in pounds",  # a currency
    "honestly, is the hotel ok?",  # a question
    "btw it was not the hotel",  # a negation
    "The hotel was lovely",  # no remark's word: an evaluation alone is no aside
    "btw the hotel was lovely, add it",  # a request after the praise
])
def test_a_sentence_with_anything_to_act_on_is_no_remark(text):
    assert not remark(text)


@pytest.mark.parametrize("text, expected", [
    ("Lunch yesterday was 11.20. Honestly, what a day.", [("meals", "11.20", "2026-12-02")]),
    ("Lunch yesterday was 11.20. My manager Ruud was there too, which made the day a lot longer than it needed to be, "
     "haha.", [("meals", "11.20", "2026-12-02")]),
    ("Okay, I have two things mixed up in my head, bear with me. Lunch yesterday was 11.40.",
     [("meals", "11.40", "2026-12-02")]),
    ("Taxi to the hotel yesterday 23.50. The hotel is lovely btw, very old building with huge windows.",
     [("taxi", "23.50", "2026-12-02")]),
])
def test_a_remark_beside_an_expense_leaves_the_expense_to_be_added(text, expected):
    [plan] = conversation([text], **on_claim("EUR"))
    assert _adds(plan) == expected


def test_a_correction_said_with_a_remarks_word_is_still_read():
    # "btw the hotel was actually 140, haha": a correction, never passed over as a remark
    cases = on_claim("EUR", [("2026-12-01", "", "hotel", "120.00")])
    [plan] = conversation(["Taxi yesterday 23.50. btw the hotel was actually 140, haha"], **cases)
    assert _adds(plan) == [("taxi", "23.50", "2026-12-02")]
    assert [(a.args.get("line"), a.args.get("amount")) for a in plan.acts if a.act == "update_line"] == [
        (1, "140.00")]


# ----------------------------------------------------------------------------- days


def test_a_dotted_day_heading_a_sentence_after_a_price_is_the_day_of_what_follows():
    [plan] = conversation(["26.11 lunch 145 kr, fika 68 kr, dinner 312 kr. 27.11 lunch 135 kr and SJ train back 749 kr."],
                          **on_claim("SEK"))
    assert _adds(plan) == [("meals", "145.00", "2026-11-26"), ("meals", "68.00", "2026-11-26"),
                           ("meals", "312.00", "2026-11-26"), ("meals", "135.00", "2026-11-27"),
                           ("travel", "749.00", "2026-11-27")]


@pytest.mark.parametrize("text", [
    "coffee 3.50. 12.10 taxi 5 eur",  # (12 Oct is months ago: never a day heading the sentence)
    "Lunch with client. 12.10 - paid by card, tip 2",
])
def test_a_dotted_figure_after_a_sentence_long_ago_is_no_day(text):
    [plan] = conversation([text], **on_claim("EUR"))
    assert all(date != "2026-10-12" for _c, _a, date in _adds(plan))


def test_an_undated_expense_between_two_of_one_day_is_of_that_day():
    # (a Tuesday: "wed" is the 18th)
    [plan] = conversation(["taxi from airport wed 18th 58.90, hotel 2 nights motel one 198, dinner wed 34.50"],
                          **{**on_claim("EUR"), "today": "2026-11-24"})
    assert _adds(plan) == [("taxi", "58.90", "2026-11-18"), ("hotel", "198.00", "2026-11-18"),
                           ("meals", "34.50", "2026-11-18")]


def test_an_undated_expense_between_two_of_different_days_is_still_asked():
    [plan] = conversation(["taxi from airport mon 16th 58.90, hotel 2 nights motel one 198, dinner wed 34.50"],
                          **{**on_claim("EUR"), "today": "2026-11-24"})
    assert ("hotel", "198.00", None) not in _adds(plan)
    assert all(category != "hotel" for category, _a, _d in _adds(plan))


# ----------------------------------------------------------------------------- names and words


@pytest.mark.parametrize("text, merchant", [
    ("hotel amigo 176 for 1 night on the 1st", "Hotel Amigo"),
    ("hotel leonardo 120 on the 1st", "Hotel Leonardo"),
])
def test_a_hotel_named_in_lower_case_is_who_was_paid(text, merchant):
    [plan] = conversation([text], **on_claim("EUR"))
    [act] = plan.acts
    assert act.args.get("merchant") == merchant and act.args["category"] == "hotel"


@pytest.mark.parametrize("text", ["hotel minibar 12 on the 1st", "hotel breakfast 12 on the 1st",
                                  "hotel central 130 on the 1st", "hotel tax 5 on the 1st"])
def test_a_word_after_hotel_that_is_a_thing_or_english_is_no_name(text):
    [plan] = conversation([text], **on_claim("EUR"))
    assert all(not str(a.args.get("merchant") or "").startswith("Hotel ") for a in plan.acts)


def test_fika_is_a_meal():
    [plan] = conversation(["fika 68 kr yesterday"], **on_claim("SEK"))
    assert _adds(plan) == [("meals", "68.00", "2026-12-02")]
