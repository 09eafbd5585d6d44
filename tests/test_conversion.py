"""Money paid in another currency (issue 19): said in that currency, converted by deterministic code, never stored as
the claim's. The act names the currency it was paid in (``add_line.currency``); the reducer grounds the amount in
that currency; the handler converts it at the reference rate of the line's day and keeps what was paid."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conversations.core.plan import UserTurnPlan, parse_model_answer
from conversations.core.reducer import Outcome
from expenses.acts import _describe_event, add_line, describe_command
from expenses.exchange import convert
from expenses.interpreter import interpret
from registries import CommandContext, CommandRefused
from tests.test_grounding import ALICE, PURE, add, reduce, snapshot

EUR_CLAIM = snapshot("clm_FRANKFURT01", "Frankfurt audit November")


def _ctx() -> CommandContext:
    return CommandContext(actor=ALICE, today="2026-12-02")


def test_a_line_paid_in_another_currency_is_converted_at_the_rate_of_its_day_and_keeps_what_was_paid():
    result = add_line(EUR_CLAIM, {"amount": "1240.00", "currency": "DKK", "category": "meals",
                                  "date": "2026-12-01"}, _ctx())
    line = result.state["lines"][-1]
    expected = convert(Decimal("1240.00"), "DKK", "EUR", date(2026, 12, 1))
    assert Decimal(line["amount"]) == expected != Decimal("1240.00")
    assert (line["paid_amount"], line["paid_currency"]) == ("1240.00", "DKK")
    receipt = _describe_event("line_added", result.events[0].data)
    assert f"{expected:.2f} EUR" in receipt and "1240.00 DKK" in receipt


def test_the_card_of_a_line_paid_in_another_currency_states_the_conversion_not_the_foreign_figure_as_euros():
    copy = describe_command(EUR_CLAIM, {"amount": "1240.00", "currency": "DKK", "category": "meals",
                                        "date": "2026-12-01"}, "add_line")
    assert "1240.00 DKK" in copy and "1240.00 EUR" not in copy


def test_the_claims_own_currency_named_changes_nothing():
    result = add_line(EUR_CLAIM, {"amount": "40.00", "currency": "EUR", "category": "taxi"}, _ctx())
    assert result.state["lines"][-1]["amount"] == "40.00" and "paid_amount" not in result.state["lines"][-1]


def test_a_currency_no_rate_covers_on_that_day_is_refused():
    with pytest.raises(CommandRefused):
        add_line(EUR_CLAIM, {"amount": "40.00", "currency": "DKK", "category": "taxi", "date": "1990-01-01"}, _ctx())


def test_the_reducer_grounds_the_amount_in_the_currency_the_act_names():
    said = "dinner 1240 dkk"
    out = reduce(said, add(said, "1240", currency="DKK"))
    assert [a.outcome for a in out.acts] == [Outcome.EXECUTED]


@PURE
@given(st.sampled_from(["DKK", "SEK", "GBP", "CHF", "USD"]), st.sampled_from(["1240 dkk", "£58", "CHF 34", "90 kr"]))
def test_an_act_naming_a_currency_the_words_do_not_say_never_runs(code, said):
    out = reduce(f"dinner {said}", add(f"dinner {said}", "".join(c for c in said if c.isdigit()), currency=code))
    words_say = {"1240 dkk": {"DKK"}, "£58": {"GBP"}, "CHF 34": {"CHF"}, "90 kr": set()}[said]
    if code not in words_say:
        assert out.commands == [], (code, said)


EARLIER = "dinner at Höst 1240 dkk yesterday"
ASKED = {"question": "“Copenhagen trip” is kept in EUR.", "act": "add_line", "args": {"currency": "DKK"},
         "missing": ["amount"], "message": EARLIER}


def _answer(text: str):
    from tests.test_interpreter import claim, request
    parsed = parse_model_answer(interpret(replace(request(text, cases=(claim("clm_CPH0000001", "Copenhagen trip", []),),
                                                          active="clm_CPH0000001", today="2026-12-03"),
                                                  pending=ASKED)))
    assert isinstance(parsed, UserTurnPlan), parsed
    return parsed


@pytest.mark.parametrize("answer", ["yes", "yes, convert it", "ok use that rate", "1240 dkk", "sure go ahead"])
def test_yes_to_the_offered_conversion_adds_the_line_naming_its_currency(answer):
    [act] = _answer(answer).acts
    assert act.args["amount"] == "1240.00" and act.args["currency"] == "DKK" and act.args["merchant"] == "Höst"
    assert act.earlier_evidence == EARLIER and act.evidence == answer


@pytest.mark.parametrize("answer", ["no, wait", "convert it to 150", "maybe later", "1250 dkk", "what rate?",
                                    "yes but it was 1250"])
def test_an_answer_that_is_no_plain_yes_adds_nothing_converted(answer):
    assert not any(a.args.get("currency") for a in _answer(answer).acts)
