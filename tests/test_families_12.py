"""Families of the twelfth round (issue 19), with sentences of our own: a correction that names another expense than
the one just told never lands on it; people counted at a meal multiply what each one's share was, and a share with
no count is asked about; "the cab was 13.20" with no cab on the claim asks its day; a day heading a later sentence
covers that sentence only; dotted days beside their weekday, heading a line or before what was paid; a carrier said
after a ride is who was paid.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from conversations.core.plan import parse_model_answer
from expenses.interpreter import interpret
from registries.numbers import quantity_products
from tests.test_eval import run_eval, write
from tests.test_interpreter import request
from tests.test_walkthrough_families import conversation, lyon_with

TODAY = "2026-12-03"  # a Thursday


def on(lines: list[dict]) -> dict:
    return {"cases": (lyon_with(lines),), "active": "clm_LYON0001", "today": TODAY}


def line(ident: str, day: str, category: str, amount: str, description: str = "") -> dict:
    return {"id": ident, "date": day, "merchant": "", "category": category, "amount": amount,
            **({"description": description} if description else {})}


# ----------------------------------------------------------------- 1. a correction of another expense


def test_a_wait_that_corrects_another_kind_changes_that_line_and_never_the_one_just_told() -> None:
    taxi = line("ln_taxi0001", "2026-11-27", "taxi", "24.50")
    [plan] = conversation(["Saturday taxi to the station 31 and coffee at the station 4.60. Wait, the Friday taxi was "
                           "25.40, not 24.50, I swapped the digits."], **on([taxi]))
    assert not plan.corrections
    added = [a.args for a in plan.acts if a.act == "add_line"]
    assert all(a["amount"] != "25.40" for a in added)
    assert [(a.act, a.args) for a in plan.acts if a.act == "update_line"] in ([], [("update_line", {
        "line": 1, "amount": "25.40"})])


def test_a_wait_with_no_such_line_on_the_claim_adds_nothing_under_the_coffee() -> None:
    [plan] = conversation(["Saturday taxi to the station 31 and coffee at the station 4.60. Wait, the Friday taxi was "
                           "25.40, not 24.50, I swapped the digits."], **on([]))
    assert not plan.corrections and all(a.args.get("amount") != "25.40" for a in plan.acts)


def test_the_same_kind_told_again_after_wait_still_corrects_what_was_just_said() -> None:
    [plan] = conversation(["taxi 30, no wait, the taxi was 35"], **on([]))
    assert [(a.act, a.args.get("amount")) for a in plan.acts] == [("add_line", "30.00")]
    assert [c.args for c in plan.corrections] == [{"amount": "35.00"}]


@pytest.mark.parametrize("heading", ["Corr:", "Correction:", "correction -"])
def test_a_pasted_line_headed_as_a_correction_changes_the_line_of_its_day_and_kind(heading: str) -> None:
    lines = [line("ln_lnch0001", "2026-11-25", "meals", "21.90", "Lunch"),
             line("ln_dinn0001", "2026-11-26", "meals", "40.60", "Dinner")]
    [plan] = conversation([f"27/11 Printing 12,00\n{heading} 25/11 Lunch 19,20"], **on(lines))
    assert [(a.act, a.args.get("amount"), a.args.get("line")) for a in plan.acts] == [
        ("add_line", "12.00", None), ("update_line", "19.20", 1)]
    assert not plan.corrections


@pytest.mark.parametrize("message", ["Taxi yesterday 30, lunch yesterday 21,90. Sorry, the taxi was 32",
                                     "Taxi 24/11 30\nLunch 25/11 21,90\nCorr: taxi 32"])
def test_a_correction_of_a_kind_told_earlier_in_the_message_corrects_that_one_never_a_line_of_the_claim(
        message: str) -> None:
    older = line("ln_taxi0001", "2026-11-20", "taxi", "18.00")
    [plan] = conversation([message], **on([older]))
    assert [a.act for a in plan.acts] == ["add_line", "add_line"]
    [fix] = plan.corrections
    assert fix.act == plan.acts[0].id and fix.args == {"amount": "32.00"}


def test_two_expenses_of_the_kind_corrected_in_the_message_are_asked_about() -> None:
    [plan] = conversation(["taxi 30 yesterday, lunch 21,90, taxi 12 today. Sorry, the taxi was 32"], **on([]))
    assert plan.acts == [] or not plan.corrections


def test_hmm_no_before_a_kind_with_nothing_told_is_not_an_edit_of_a_line() -> None:
    dinner = line("ln_dinn0001", "2026-12-02", "meals", "40.00", "dinner")
    [plan] = conversation(["oh no, it was the breakfast with the client"], **on([dinner]))
    assert [a for a in plan.acts if a.act == "update_line"] == []


# ----------------------------------------------------------------- 2. people counted at a meal


@pytest.mark.parametrize(("text", "total"), [("lunch for four of us, 18 each", 72), ("dinner for 3, 40 per person", 120),
                                             ("the 5 of us 20 pp", 100), ("team lunch 6 ppl 15 each", 90)])
def test_people_counted_beside_what_each_one_paid_are_one_amount(text: str, total: int) -> None:
    assert [int(f.value) for f in quantity_products(text)] == [total]


@pytest.mark.parametrize("text", ["taxi for 40, 20 each", "airport taxi for 3 of us, 35 each way",
                                  "taxi for 2 of us, 15 each leg", "dinner, booked for 7, 30 each"])
def test_each_way_each_leg_and_a_bare_for_n_each_are_no_head_counts(text: str) -> None:
    assert quantity_products(text) == []


def test_a_meal_for_people_counted_is_added_as_their_total_and_the_limit_is_per_person() -> None:
    [plan] = conversation(["lunch today for four of us, 18 each"], **on([]))
    [act] = plan.acts
    assert (act.args["amount"], act.args.get("quantity"), act.args["date"]) == ("72.00", 4, TODAY)


@pytest.mark.parametrize("message", ["lunch for the team today, 22 each", "dinner 30 a head"])
def test_a_share_with_no_count_is_asked_about_never_added_as_the_whole(message: str) -> None:
    [plan] = conversation([message], **on([]))
    assert plan.acts == []


def test_the_count_of_people_corrected_is_never_the_amount() -> None:
    lunch = {**line("ln_lnch0001", TODAY, "meals", "54.00", "lunch"), "quantity": 3}
    [plan] = conversation(["the lunch was for four, not three. Same 18 each."], **on([lunch]))
    assert all(a.args.get("amount") not in ("4.00", "3.00") for a in plan.acts)


def test_the_meals_limit_is_per_person_for_a_meal_of_several() -> None:
    from expenses.policies import category_limit_notes
    from registries import CaseSnapshot

    class Args:
        category, amount, quantity, date = "meals", "72.00", 4, TODAY

    snap = CaseSnapshot(id="c", kind="expense_claim", owner_id=1, title="t", status="draft", revision=1,
                        state={"currency": "EUR", "lines": []})
    assert category_limit_notes(snap, Args()) == ()


# ----------------------------------------------------------------- 3. an expense told before, its day unknown


def test_the_cab_was_an_amount_with_no_cab_on_the_claim_asks_its_day_and_a_day_answers_it() -> None:
    told = "Friday evening a dinner, and a cab back to the hotel, 12 or maybe 14, I need the receipt"
    asked = parse_model_answer(interpret(replace(request("the cab was 13.20", **on([])), excerpt=[{"role": "user", "text": told}])))
    assert asked.acts == [] and asked.pending is not None and asked.pending.missing == ["date"]
    answered = parse_model_answer(interpret(replace(request("friday", **on([])), pending={
        **asked.pending.model_dump(mode="json"), "message": "the cab was 13.20"})))
    [act] = answered.acts
    assert (act.args["amount"], act.args["category"], act.args["date"]) == ("13.20", "taxi", "2026-11-27")


def test_the_metro_card_was_an_amount_told_afresh_is_added() -> None:
    [plan] = conversation(["the metro card was 8"], **on([]))
    assert [(a.act, a.args["amount"]) for a in plan.acts] == [("add_line", "8.00")]


def test_a_statement_with_its_day_in_the_sentence_is_added_on_that_day() -> None:
    [plan] = conversation(["The registration fee was 295, I paid it on 2 October."], **on([]))
    assert [(a.act, a.args.get("date")) for a in plan.acts] == [("add_line", "2026-10-02")]


@pytest.mark.django_db
def test_a_zloty_taxi_beside_a_euro_train_is_asked_about_and_its_euros_go_on_with_its_day(tmp_path: Path) -> None:
    path = write(tmp_path, "told-before", [
        # the train in euros goes on; the złoty taxi is asked about (its conversion offered), as one of two currencies is
        {"text": "Mon 30.11: train 86,40 EUR, taxi from the station 95 zł", "expect": {
            "acts": [{"act": "add_line", "outcome": "executed"}], "cases": {"Berlin trip": {"lines": [
                "89.90", "180.00", "32.60", {"amount": "86.40", "date": "2026-11-30"}]}}}},
        # the euros of that taxi answer the question, with the day it was told on
        {"text": "taxi is 22,10 EUR on my card statement", "expect": {
            "acts": [{"act": "add_line", "outcome": "executed"}], "cases": {"Berlin trip": {"lines": [
                "89.90", "180.00", "32.60", "86.40", {"amount": "22.10", "date": "2026-11-30"}]}}}},
        # told again: new, or the same one? asked
        {"text": "taxi 22,10 on 30.11", "expect": {"acts": []}},
    ], today=TODAY)
    report, error = run_eval(path)
    assert error is None
    assert [(i["verdict"], i["unsafe"]) for c in report["conversations"] for i in c["items"]] == [
        ("passed", False)] * 3, report


# ----------------------------------------------------------------- 4. days


def test_a_day_heading_a_later_sentence_covers_that_sentence_not_the_one_before() -> None:
    [plan] = conversation(["taxi 20,10 yesterday. Tue: lunch 30,50, taxi 12"], **on([]))
    assert [(a.args["amount"], a.args["date"]) for a in plan.acts] == [
        ("20.10", "2026-12-02"), ("30.50", "2026-12-01"), ("12.00", "2026-12-01")]


@pytest.mark.parametrize(("message", "day"), [("Mon 30.11: lunch 14,50", "2026-11-30"),
                                              ("wed 25.11: taxi 31", "2026-11-25"),
                                              ("25.11: taxi 31", "2026-11-25")])
def test_a_dotted_day_beside_its_weekday_heading_a_line_or_before_what_was_paid_is_a_day(message: str, day: str) -> None:
    [plan] = conversation([message], **on([]))
    assert [a.args["date"] for a in plan.acts] == [day]


@pytest.mark.parametrize("message", ["the taxi 23.11 was 28,50", "lunch 21.10 was 19.20"])
def test_a_dotted_number_before_what_was_paid_may_be_the_old_amount_so_it_is_asked(message: str) -> None:
    taxi = line("ln_taxi0001", "2026-11-28", "taxi", "23.11")
    [plan] = conversation([message], **on([taxi]))
    assert [(a.act, a.args) for a in plan.acts] in ([], [("update_line", {"line": 1, "amount": "28.50"})])


def test_a_weekday_then_a_dotted_number_in_a_sentence_never_takes_the_next_expense_s_price() -> None:
    [plan] = conversation(["lunch Friday 27.11, taxi 15", "dinner Sunday 29.11, hotel 2 nights 240"], **on([]))[:1]
    assert ("15.00", "meals") not in [(a.args["amount"], a.args["category"]) for a in plan.acts]
    [plan] = conversation(["dinner Sunday 29.11, hotel 2 nights 240"], **on([]))
    assert ("240.00", "meals") not in [(a.args["amount"], a.args["category"]) for a in plan.acts]


@pytest.mark.parametrize("message", ["ryanair on monday 74.99", "taxi tuesday 10.10"])
def test_a_weekday_then_a_price_stays_a_price(message: str) -> None:
    [plan] = conversation([message], **on([]))
    assert [a.args["amount"] for a in plan.acts] in ([], ["74.99"], ["10.10"])
    assert all(a.args["date"] in ("2026-11-30", "2026-12-01") for a in plan.acts)


def test_several_expenses_after_a_dotted_heading_all_take_its_day() -> None:
    [plan] = conversation(["wed 25.11: taxi 31, flight back 298,90, sim card 15"], **on([]))
    assert [(a.args["amount"], a.args["date"]) for a in plan.acts] == [
        ("31.00", "2026-11-25"), ("298.90", "2026-11-25"), ("15.00", "2026-11-25")]


# ----------------------------------------------------------------- 5. who carried a ride


def test_a_carrier_said_after_a_ride_is_who_was_paid_and_a_route_is_not_part_of_the_name() -> None:
    [plan] = conversation(["Thalys Paris-Bruxelles on Monday 79, taxi from Midi with Taxis Verts 17,40"], **on([]))
    assert [(a.args.get("merchant"), a.args.get("description")) for a in plan.acts] == [
        ("Thalys", "Paris-Bruxelles"), ("Taxis Verts", "from Midi")]


def test_a_person_who_came_along_to_a_meal_is_no_merchant() -> None:
    [plan] = conversation(["dinner with Anna 40"], **on([]))
    assert [a.args.get("merchant") for a in plan.acts] in ([None], [""], [])


def test_words_for_one_thing_never_name_a_line_of_its_kind_told_as_another_thing() -> None:
    sandwiches = line("ln_sand0001", "2026-11-26", "meals", "72.60", "for the workshop")
    [plan] = conversation(["The coffee and pastries were on Friday, not Thursday."],
                          **{**on([sandwiches]), "today": "2026-11-30"})
    assert [a for a in plan.acts if a.act == "update_line"] == []


@pytest.mark.parametrize(("answer", "title"), [("oh ok. call it Vienna customer visit, EUR", "Vienna customer visit"),
                                               ("ok sure, Vienna customer visit", "Vienna customer visit"),
                                               ("Great Lakes trip", "Great Lakes trip")])
def test_the_name_given_after_a_filler_is_the_title_never_the_filler(answer: str, title: str) -> None:
    asked, opened = conversation(["please open a new claim", answer], **on([]))
    assert asked.acts == [] and [(a.act, a.args["title"]) for a in opened.acts] == [("open_claim", title)]
