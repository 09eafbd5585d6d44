"""Families of the eighteenth round (issue 19), with sentences of our own: one "yes" for every expense offered
converted when the message also added others, each with the day it was told with (walk Y1: a yes answered only the
first offer, and an offer beside an addition lost its day)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from conversations.core.plan import ReadBatch, parse_model_answer
from expenses.interpreter import interpret
from tests.test_families_13 import on
from tests.test_families_17 import TRIP
from tests.test_families_21 import _offered
from tests.test_interpreter import request

# ----------------------------------------------------------------- 1. a yes for every one offered beside an addition


def _said_after(told: str, *answers: str):
    """The plans for ``answers``, said one after the other after ``told`` was offered converted."""
    first = _offered(told, **on(TRIP))
    pending = {**first.pending.model_dump(mode="json"), "message": told} if first.pending else None
    plans = [first]
    for said in answers:
        parsed = parse_model_answer(interpret(replace(request(said, **on(TRIP)), pending=pending)))
        assert not isinstance(parsed, ReadBatch)
        plans.append(parsed)
        if parsed.pending:
            pending = {**parsed.pending.model_dump(mode="json"),
                       "message": told if parsed.pending.about and parsed.pending.about in told else said}
        else:
            pending = None
    return plans


@pytest.mark.parametrize(("told", "added"), [
    ("monday: dinner £40 and taxi £22, and the hotel 2 nights at 150 eur",
     [("meals", "40.00", "2026-11-30"), ("taxi", "22.00", "2026-11-30")]),
    ("On Monday I paid the hotel, 300 eur, and a dinner for £40", [("meals", "40.00", "2026-11-30")]),
    ("Tuesday: lunch 14, a museum ticket 25 USD and the bus 30 USD", [("other", "25.00", "2026-12-01"),
                                                                     ("travel", "30.00", "2026-12-01")]),
])
def test_one_yes_adds_every_expense_offered_beside_an_addition_with_its_day(told, added):
    first, yes = _said_after(told, "yes please convert them" if len(added) > 1 else "yes")
    assert first.acts and first.pending is not None and first.pending.args.get("currency")
    assert [(a.args["category"], a.args["amount"], a.args.get("date")) for a in yes.acts] == added
    assert all(a.args.get("currency") for a in yes.acts)  # each converted by the handler, never taken as euros
    assert not any(a.args.get("category") == "hotel" for a in yes.acts)  # what was added then is not added again


def test_a_yes_that_names_one_adds_only_that_one():
    _, yes = _said_after("monday: dinner £40 and taxi £22, and the hotel 2 nights at 150 eur", "yes for the taxi only")
    assert [a.args["category"] for a in yes.acts] == ["taxi"]


def test_the_offer_still_waits_after_a_message_not_understood_and_names_both():
    _, lost, yes = _said_after("monday: dinner £40 and taxi £22, and the hotel 2 nights at 150 eur", "hmm what",
                               "yes")
    assert lost.acts == [] and "“monday: dinner £40”, “taxi £22”" in " ".join(a.text for a in lost.answers)
    assert [a.args["category"] for a in yes.acts] == ["meals", "taxi"]


def test_a_yes_with_doubt_adds_nothing():
    _, maybe = _said_after("monday: dinner £40 and taxi £22, and the hotel 2 nights at 150 eur", "yes but not the taxi")
    assert not any(a.args.get("category") == "taxi" for a in maybe.acts)
