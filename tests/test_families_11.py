"""Families of the eleventh round (issue 19), with sentences of our own: a reading whose only doubt is a number or
a day it could not place is shown on a card to confirm (or change) rather than thrown away; a take-back, a
correction or a question it was unsure of is still asked about, with nothing proposed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from expenses.interpreter.audit import Leftover, _may_confirm, audited
from expenses.interpreter.context import Context
from tests.test_eval import run_eval, write
from tests.test_interpreter import request
from tests.test_walkthrough_families import conversation

TODAY = "2026-12-03"


# ----------------------------------------------------------------- 1. unsure of a number or a day: a card, not a wall


def _plan(acts: list[dict]) -> dict:
    return {"acts": acts}


ADD = {"id": "a1", "act": "add_line", "args": {"amount": "14", "category": "taxi"}, "evidence": "taxi 14"}


@pytest.mark.parametrize(("kinds", "acts", "card"), [
    (["same_day"], [ADD], True),
    (["number"], [ADD], False),  # measured: mostly a misreading (a card would have been wrong in 99 of 129)
    (["date"], [ADD], False),
    (["same_day", "number"], [ADD], False),
    (["negation"], [ADD], False),  # "… actually not the coffee": confirming could add what was taken back
    (["correction"], [ADD], False),  # a new line, or a correction of one on the claim?
    (["question"], [ADD], False),
    (["currency"], [ADD], False),
    (["same_day"], [{"id": "a1", "act": "open_claim", "args": {"title": "Oslo"}, "evidence": "Oslo"}, ADD], False),
])
def test_only_a_day_taken_over_from_the_line_before_puts_the_reading_on_a_card(kinds, acts, card) -> None:
    assert _may_confirm(_plan(acts), [Leftover(k, "3") for k in kinds]) is card


def test_the_card_keeps_every_act_and_quotes_each_unplaced_part_once() -> None:
    message = "taxi 14 on monday, and a coffee 3"
    ctx = Context.of(request(message, today=TODAY))
    answer = json.dumps({"plan": {"acts": [{**ADD, "evidence": message}]}})
    from expenses.interpreter import audit
    original = audit.Audit.run
    try:
        audit.Audit.run = lambda self: [Leftover("same_day", "monday", 11), Leftover("same_day", "monday", 11)]
        out = json.loads(audited(answer, message, ctx))["plan"]
    finally:
        audit.Audit.run = original
    assert out["acts"] == [{**ADD, "evidence": message}]
    assert out["constraints"] == [{"kind": "confirm", "acts": ["*"], "evidence": "monday"}]


@pytest.mark.parametrize("message", ["Flight was 412.60 on Monday, and the Uber from Logan to the hotel was 38.25",
                                     "taxi 12 on monday, coffee 4"])
def test_a_day_said_for_the_first_expense_is_taken_for_the_next_but_only_behind_a_card(message: str) -> None:
    [plan] = conversation([message], today=TODAY)
    assert [a.args.get("date") for a in plan.acts] == ["2026-11-30", "2026-11-30"]
    assert [c.kind for c in plan.constraints] == ["confirm"]


@pytest.mark.parametrize("message", ["on monday lunch 23 and a taxi 15", "Monday: lunch 23, taxi 15"])
def test_a_day_that_heads_the_sentence_is_every_expense_s_without_a_card(message: str) -> None:
    [plan] = conversation([message], today=TODAY)
    assert [a.args.get("date") for a in plan.acts] == ["2026-11-30", "2026-11-30"] and not plan.constraints


@pytest.mark.django_db
def test_through_the_runtime_nothing_runs_until_the_card_is_confirmed(tmp_path: Path) -> None:
    said = "Flight was 412.60 on Monday, and the Uber from Logan to the hotel was 38.25"
    lines = ["89.90", "180.00", "32.60", {"amount": "412.60", "date": "2026-11-30"},
             {"amount": "38.25", "date": "2026-11-30", "category": "taxi"}]
    write(tmp_path, "declined", [
        {"text": said, "expect": {"acts": [{"act": "add_line", "outcome": "awaiting_confirmation"}] * 2,
                                  "notices": ["reading_unsure"], "cases": {"Berlin trip": {"total": "302.50"}}}},
        {"text": "no", "expect": {"cases": {"Berlin trip": {"total": "302.50"}}}},
    ], today=TODAY)
    path = write(tmp_path, "confirmed", [
        {"text": said, "click": "confirm",
         "expect": {"acts": [{"act": "add_line", "outcome": "executed"}] * 2,
                    "cases": {"Berlin trip": {"total": "753.35", "lines": lines}}}},
    ], today=TODAY)
    report, error = run_eval(path)
    assert error is None and [i["verdict"] for c in report["conversations"] for i in c["items"]] == ["passed"] * 3, [
        (i["problems"], i["unsafe_reasons"]) for c in report["conversations"] for i in c["items"]]


# ----------------------------------------------------------------- 2. how people write


def test_a_clock_time_is_no_word_of_what_the_expense_was() -> None:
    [plan] = conversation(["Uber 23.40 at 7pm yesterday"], today=TODAY)
    [act] = plan.acts
    assert act.args.get("description") in (None, "") and act.args["amount"] == "23.40"


# ----------------------------------------------------------------- 3. the page


def test_the_panel_calls_a_line_by_who_was_paid_else_by_what_it_was_else_by_its_kind() -> None:
    from expenses.domain import panel
    from registries import CaseSnapshot

    lines = [{"id": "ln_aaaa1", "date": "2026-11-30", "merchant": "", "category": "travel", "amount": "412.60",
              "description": "Flight"},
             {"id": "ln_aaaa2", "date": "2026-11-30", "merchant": "Uber", "category": "taxi", "amount": "38.25",
              "description": "from Logan to the hotel"},
             {"id": "ln_aaaa3", "date": "2026-12-01", "merchant": "", "category": "meals", "amount": "12.00"}]
    snap = CaseSnapshot(id="clm_BOST0001", kind="expense_claim", owner_id=1, title="Boston", status="draft",
                        revision=3, state={"title": "Boston", "currency": "USD", "lines": lines, "line_counter": 3})
    items = panel(snap).to_json()["items"]
    assert [(i["label"], i["meta"]) for i in items] == [
        ("Flight", "2026-11-30 · travel"), ("Uber", "2026-11-30 · taxi · from Logan to the hotel"),
        ("Meals", "2026-12-01")]
