"""Families of the fourteenth round (issue 19), with sentences of our own: a place whose name ends in a number, how
an expense was paid said beside it, and a yes to a conversion that picks some of the expenses offered."""

from __future__ import annotations

from dataclasses import replace

import pytest

from conversations.core.plan import ReadBatch, parse_model_answer
from expenses.interpreter import interpret
from tests.test_families_13 import on
from tests.test_families_17 import TRIP, fields
from tests.test_interpreter import _round, answer, plan_of, request
from tests.test_walkthrough_families import conversation

# TODAY is Thursday 2026-12-03: Monday is 2026-11-30, Tuesday 2026-12-01, Wednesday 2026-12-02


# ----------------------------------------------------------------- 1. a name that ends in a number


@pytest.mark.parametrize(("text", "merchant", "amount"), [
    ("dinner at Curry 36 yesterday, 12,50", "Curry 36", "12.50"),
    ("lunch at Café 1900 on monday 18.40", "Café 1900", "18.40"),
    ("drinks at Bar 7 on tuesday, €23.00", "Bar 7", "23.00"),
])
def test_a_number_ending_a_name_said_after_at_is_the_name_when_the_price_is_written_as_money(text, merchant, amount):
    [plan] = conversation([text], **on(TRIP))
    assert fields(plan, "merchant", "amount") == [(merchant, amount)]


@pytest.mark.parametrize("text", [
    "dinner at Vapiano 36",  # the one number: its price
    "dinner at Vapiano 36 and a taxi 12.50",  # two expenses
    "lunch at Nordsee 12, tip 2.50",  # a tip of its own
])
def test_a_number_after_a_name_stays_a_price_when_nothing_else_is_one(text):
    [plan] = conversation([text], **on(TRIP))
    assert all(a.args.get("merchant") not in ("Vapiano 36", "Nordsee 12") for a in plan.acts)
    assert plan.acts == [] or "36.00" in [a.args.get("amount") for a in plan.acts] or "12.00" in [
        a.args.get("amount") for a in plan.acts]


# ----------------------------------------------------------------- 2. how it was paid, said beside it


@pytest.mark.parametrize("text", [
    "hotel Adina 2 nights 258, paid at checkout",
    "taxi 31 from Hbf, paid by card",
    "lunch 14,50 - paid cash",
    "hotel 2 nights 258, settled at the front desk",
])
def test_how_an_expense_was_paid_is_no_expense_of_its_own(text):
    [plan] = conversation([text], **on(TRIP))
    assert len(plan.acts) == 1 and plan.acts[0].act == "add_line" and plan.pending is None
    assert not any("How much" in a.text for a in plan.answers)


def test_paid_by_someone_else_beside_an_addition_is_still_no_aside():
    [plan] = conversation(["dinner 48, the client paid it"], **on(TRIP))
    assert not [a for a in plan.acts if a.args.get("amount") == "48.00"]


# ----------------------------------------------------------------- 3. a yes to a conversion, for some of them


def _offered(told: str, **kwargs):
    """The plan for ``told`` after every exchange rate it asks for is read (the real read tool)."""
    rounds = []
    while isinstance(first := answer(told, rounds=rounds, **kwargs), ReadBatch):
        rounds.append(_round(first))
    return plan_of(told, rounds=rounds, **kwargs)


def _yes(told: str, said: str):
    first = _offered(told, **on(TRIP))
    assert first.acts == [] and first.pending is not None
    pending = {**first.pending.model_dump(mode="json"), "message": told}
    return parse_model_answer(interpret(replace(request(said, **on(TRIP)), pending=pending)))


TOLD = "metro ticket 3,40 USD and lunch 22 USD"


@pytest.mark.parametrize(("said", "kinds"), [
    ("Yes for the Metro ticket only", ["travel"]),
    ("only the metro", ["travel"]),
    ("just the lunch please", ["meals"]),
    ("yes please for both", ["travel", "meals"]),
    ("ja bitte", ["travel", "meals"]),
])
def test_a_yes_that_says_only_adds_the_expenses_it_names(said, kinds):
    plan = _yes(TOLD, said)
    assert [a.args["category"] for a in plan.acts] == kinds
    assert all(a.args.get("currency") == "USD" for a in plan.acts)


@pytest.mark.parametrize("said", ["yes only the lunch and the metro", "only the hotel", "yes only"])
def test_a_yes_with_only_that_names_none_or_all_adds_nothing(said):
    plan = _yes(TOLD, said)
    assert plan.acts == []
