"""Families behind the misreadings of whole claims told in one sitting (issue 19, the dev-8 part), with sentences of
our own: a claim asked for and named in a later clause, a preface about the user, an expense told with a question
whether it may be claimed, a day written "3. December", a route told with an arrow, and a correction of a line told
while the interpreter's question about another expense was still open. Each must act once, or ask: never guess.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from conversations.core.plan import UserTurnPlan
from expenses.interpreter import _MAY_CLAIM
from expenses.interpreter.values import find_dates
from tests.test_interpreter import claim, plan_of
from tests.test_walkthrough_families import conversation

TODAY = "2026-12-10"  # a Thursday
NO_CLAIMS = {"cases": (), "active": None, "today": TODAY}
BASEL = claim("clm_BASE0001", "Basel gallery visit", [("2026-12-07", "SBB", "travel", "34.80")], currency="CHF")
ON_BASEL = {"cases": (BASEL,), "active": "clm_BASE0001", "today": TODAY, "mode": "deterministic"}
GRAZ = claim("clm_GRAZ0001", "Graz supplier days", [
    ("2026-12-07", "ÖBB", "travel", "54.00"),
    ("2026-12-08", "", "taxi", "12.90"),
    ("2026-12-08", "", "taxi", "15.10"),
])
ON_GRAZ = {"cases": (GRAZ,), "active": "clm_GRAZ0001", "today": TODAY}


def acts(plan: UserTurnPlan) -> list[tuple[str, dict[str, Any]]]:
    return [(a.act, dict(a.args)) for a in plan.acts]


# ----------------------------------------------------------------- 1. one claim, named in a later clause


def test_a_claim_asked_for_then_named_as_one_is_one_claim_with_the_name_given():
    plan = plan_of('hello! i must make a claim for my workshop trip, could you create one called "SIGIR Padua 27"? '
                   'in euros', **NO_CLAIMS)
    assert [(a, args.get("title")) for a, args in acts(plan)] == [("open_claim", "SIGIR Padua 27")]


def test_call_it_after_what_the_claim_is_for_wins():
    plan = plan_of("hi, I'd like a new claim for my visit to Torino, please call it Torino design week", **NO_CLAIMS)
    assert [(a, args.get("title")) for a, args in acts(plan)] == [("open_claim", "Torino design week")]


def test_two_names_for_one_claim_are_asked_and_the_answer_opens_it():
    first, second = conversation(['start a claim named "Porto" for the trip, call it Porto wine fair', "Porto wine fair"],
                                 **NO_CLAIMS)
    assert first.acts == [] and first.pending is not None and first.pending.missing == ["title"]
    assert [(a, args.get("title")) for a, args in acts(second)] == [("open_claim", "Porto wine fair")]


# ----------------------------------------------------------------- 2. a preface about the user


def test_a_preface_that_the_user_is_new_here_is_no_take_back():
    plan = plan_of("Good morning. I have never used this before, so forgive me. Would you open a claim for the "
                   'symposium, named "Ghent medieval symposium"?', **NO_CLAIMS)
    assert [(a, args.get("title")) for a, args in acts(plan)] == [("open_claim", "Ghent medieval symposium")]


# ----------------------------------------------------------------- 3. told, then asked whether it may be claimed


def test_an_expense_told_with_a_question_whether_it_may_be_claimed_is_not_added():
    plan = plan_of("I also paid the exhibition entrance on Monday, 45 francs. Can I claim that?", **ON_BASEL)
    assert plan.acts == []


def test_is_it_allowed_after_an_expense_is_not_added():
    plan = plan_of("a parking fine near the gallery, 40 francs on Tuesday. is that reimbursable?", **ON_BASEL)
    assert plan.acts == []


def test_a_plain_add_it_after_the_question_adds_it_with_the_kind_said():
    first, second = conversation(["I also paid the exhibition entrance on Monday, 45 francs. Can I claim that?",
                                  "alright, please add it under other"], **ON_BASEL)
    assert first.acts == []
    [(act, args)] = acts(second)
    assert (act, args["amount"], args["category"], args["date"]) == ("add_line", "45.00", "other", "2026-12-07")
    assert second.acts[0].earlier_evidence


def test_only_a_question_whether_it_may_be_claimed_holds_the_expense():
    for asked in ("Can I claim that?", "is that something I may claim?", "would it count as a meal?",
                  "is that allowed?", "is a book reimbursable?"):
        assert _MAY_CLAIM.search(asked), asked
    for asked in ("is there a daily limit for meals?", "what's the total now?", "could you add it?"):
        assert not _MAY_CLAIM.search(asked), asked


# ----------------------------------------------------------------- 4. days written the German way


def test_a_day_with_a_full_stop_before_its_month_is_a_day():
    [found] = find_dates("am 5. December", date.fromisoformat(TODAY))
    assert (found.text, found.value) == ("5. December", "2026-12-05")


def test_the_days_number_never_becomes_an_amount():
    plan = plan_of("Lunch on 4. December with the suppliers at Café Sacher, 41,50 €", **ON_GRAZ)
    assert [(a, args["amount"], args["date"]) for a, args in acts(plan)] == [("add_line", "41.50", "2026-12-04")]


def test_a_month_then_an_amount_with_decimals_is_no_day():
    plan = plan_of("taxi on 2. December 19,00", **ON_GRAZ)
    assert [(args["amount"], args["date"]) for _, args in acts(plan)] == [("19.00", "2026-12-02")]


# ----------------------------------------------------------------- 5. a route is no category


def test_an_arrow_to_a_place_that_is_a_category_word_is_a_route_not_that_category():
    for message in ("18.20€, office→hotel", "18.20€, office -> hotel", "18.20 eur from the office to the hotel"):
        plan = plan_of(message, **ON_GRAZ)
        assert all(args.get("category") != "hotel" for _, args in acts(plan)), message


def test_the_route_answers_how_much_the_taxi_was():
    first, second = conversation(["I took a taxi on wednesday", "17.80€, plant→hotel"], **ON_GRAZ)
    assert first.acts == [] and first.pending is not None and first.pending.missing == ["amount"]
    assert [(args["category"], args["amount"]) for _, args in acts(second)] == [("taxi", "17.80")]


# ----------------------------------------------------------------- 6. a line named is no answer to "what kind?"


def test_a_correction_of_a_line_on_the_claim_is_no_answer_to_the_kind_question():
    first, second = conversation(["tea & strudel at Aida Tuesday 9.80", "the second taxi was on wednesday actually"],
                                 **ON_GRAZ)
    assert first.acts == [] and first.pending is not None and first.pending.missing == ["category"]
    assert all(a.act != "add_line" for a in second.acts)


def test_a_plain_kind_still_answers_the_kind_question():
    _, second = conversation(["tea & strudel at Aida Tuesday 9.80", "it was a meal"], **ON_GRAZ)
    assert [(args["category"], args["amount"]) for _, args in acts(second)] == [("meals", "9.80")]


# ----------------------------------------------------------------- found on the way: told twice, told for both


def test_the_same_amount_said_twice_in_one_clause_is_never_one_line():
    plan = plan_of("Linz on 8 Dec: bus out 12.50 and back 12.50", **ON_GRAZ)
    assert [args["amount"] for _, args in acts(plan)] in ([], ["12.50", "12.50"])


def test_a_name_said_for_both_items_is_the_merchant_of_both():
    empty = claim("clm_LINZ0001", "Linz visit", [])
    plan = plan_of("the coach out on the 8th was 19 and the one back on the 9th was also 19, both Flixbus",
                   cases=(empty,), active="clm_LINZ0001", today=TODAY)
    assert [(args["amount"], args["date"], args.get("merchant")) for _, args in acts(plan)] == [
        ("19.00", "2026-12-08", "FlixBus"), ("19.00", "2026-12-09", "FlixBus")]


def test_a_day_told_as_that_same_afternoon_is_never_today():
    plan = plan_of("I took a cab from the station to my hotel that same afternoon; it cost 21 euros.", **ON_GRAZ)
    assert all(args.get("date") != TODAY for _, args in acts(plan))


def test_it_was_only_told_again_asks_whether_it_corrects_a_line():
    plan = plan_of("Forgive me — it was only one night, as I left early. That makes 98.", **ON_GRAZ)
    assert plan.acts == []


def test_a_price_said_after_the_thing_and_its_day_is_that_things_price():
    empty = claim("clm_DRES0001", "Dresden archive visit", [])
    plan = plan_of("Good evening. Would you kindly record my train from Leipzig to Dresden on Monday the 7th of "
                   "December, 24.90 euros with Flixtrain.", cases=(empty,), active="clm_DRES0001", today=TODAY)
    assert [(args["amount"], args["date"], args.get("merchant")) for _, args in acts(plan)] == [
        ("24.90", "2026-12-07", "Flixtrain")]


def test_that_was_the_kind_still_answers_the_kind_question():
    _, second = conversation(["tea & strudel at Aida Tuesday 9.80", "that was the cafe by the station"], **ON_GRAZ)
    assert [(args["category"], args["amount"]) for _, args in acts(second)] == [("meals", "9.80")]
