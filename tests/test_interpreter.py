"""The local interpreter (SPEC §7.3) as a unit: message in, model answer JSON out (CONTRACT §2).

No database: requests are built from claim views the way the runtime builds them, read results
come from the real read tool handlers, and every answer is parsed and validated by the runtime's
own parser and stage-1 validation, so what passes here is what the runtime accepts.
"""

from __future__ import annotations

import json
from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conversations.core.claims import check_claims
from conversations.core.context import CaseSummary, ModelRequest, OfferedAct, OfferedTool, RoundRecord
from conversations.core.evidence import numbers_in
from conversations.core.plan import ReadBatch, UserTurnPlan, parse_model_answer
from conversations.core.reducer import validate_plan
from expenses.domain import project, summarize
from expenses.interpreter import _NEUTRAL, CAPABILITIES, interpret, neutral
from expenses.read_tools import calculate, exchange_rate, lookup_policy
from expenses.schemas import CalculateArgs, ExchangeRateArgs, LookupPolicyArgs
from registries import CaseSnapshot, get_registry

TODAY = "2026-12-02"  # a Wednesday


def claim(case_id: str, title: str, lines: list[tuple[str, str, str, str]], *, status: str = "draft",
          currency: str = "EUR") -> CaseSummary:
    state = {"title": title, "currency": currency, "line_counter": len(lines), "lines": [
        {"id": f"ln_{case_id[-4:].lower()}{n:02d}", "date": day, "merchant": merchant, "category": category,
         "amount": amount} for n, (day, merchant, category, amount) in enumerate(lines)]}
    snap = CaseSnapshot(id=case_id, kind="expense_claim", owner_id=1, title=title, status=status, revision=4,
                        state=state)
    return CaseSummary(id=case_id, kind="expense_claim", title=title, status=status, revision=4,
                       summary=summarize(snap), view=project(snap))


BERLIN = claim("clm_BERL0001", "Berlin trip", [("2026-11-16", "Deutsche Bahn", "travel", "89.90"),
                                               ("2026-11-16", "Hotel Adlon", "hotel", "180.00"),
                                               ("2026-11-17", "Taxi Berlin", "taxi", "32.60")])
LISBON = claim("clm_LISB0001", "Lisbon conference", [("2026-11-23", "TAP Air Portugal", "travel", "245.00"),
                                                     ("2026-11-23", "Hotel Avenida Palace", "hotel", "165.00"),
                                                     ("2026-11-24", "Time Out Market", "meals", "38.40")])


def offered_acts() -> list[OfferedAct]:
    return [OfferedAct(a.name, a.case_kind, a.description, str(a.mutability), {}, a.creates_case)
            for a in get_registry().acts.values()]


def offered_tools() -> list[OfferedTool]:
    return [OfferedTool(t.name, t.description, {}) for t in get_registry().read_tools.values()]


def request(message: str, *, cases=(BERLIN,), active: str | None = "clm_BERL0001", mode: str = "controlled_agentic",
            today: str = TODAY, rounds: list[RoundRecord] | None = None, repair_error: str | None = None
            ) -> ModelRequest:
    return ModelRequest(message=message, mode=mode, today=today, timezone="UTC", username="alice", active_case=active,
                        cases=list(cases), read_tools=[] if mode == "deterministic" else offered_tools(),
                        acts=[] if mode == "read_agentic" else offered_acts(), rounds=rounds or [],
                        repair_error=repair_error, rounds_left=4, calls_left=8)


def answer(message: str, **kwargs: Any) -> ReadBatch | UserTurnPlan:
    """The interpreter's answer, parsed by the runtime's parser and (for a plan) validated by stage 1."""
    parsed = parse_model_answer(interpret(request(message, **kwargs)))
    if isinstance(parsed, UserTurnPlan):
        validate_plan(parsed, get_registry())
    return parsed


def plan_of(message: str, **kwargs: Any) -> UserTurnPlan:
    parsed = answer(message, **kwargs)
    assert isinstance(parsed, UserTurnPlan), parsed
    return parsed


def acts(plan: UserTurnPlan) -> list[tuple[str, dict[str, Any]]]:
    return [(a.act, dict(a.args)) for a in plan.acts]


# =============================================================================== requests become acts


def test_a_taxi_ride_with_commas_becomes_one_line_dated_yesterday() -> None:
    plan = plan_of("add a taxi ride, 42.50, yesterday")
    assert acts(plan) == [("add_line", {"amount": "42.50", "category": "taxi", "date": "2026-12-01"})]
    assert plan.acts[0].evidence == "add a taxi ride, 42.50, yesterday"


@pytest.mark.parametrize(("words", "today", "expected"), [
    ("yesterday", "2026-12-02", "2026-12-01"),
    ("yesterday", "2027-01-01", "2026-12-31"),
    ("today", "2026-03-15", "2026-03-15"),
    ("last Friday", "2026-12-02", "2026-11-27"),
    ("last Friday", "2026-11-27", "2026-11-20"),
    ("on Monday", "2026-12-02", "2026-11-30"),
    ("20 Nov", "2026-12-02", "2026-11-20"),
    ("Nov 20", "2026-12-02", "2026-11-20"),
    ("3 December", "2026-12-02", "2025-12-03"),
    ("on 2026-10-05", "2026-12-02", "2026-10-05"),
    ("two days ago", "2026-12-02", "2026-11-30"),
    ("on the 20th", "2026-12-02", "2026-11-20"),
    ("on the 1st", "2026-12-02", "2026-12-01"),
    ("12/11", "2026-12-02", "2026-11-12"),
])
def test_dates_are_resolved_by_code_with_the_users_clock(words: str, today: str, expected: str) -> None:
    plan = plan_of(f"add a taxi for 20 {words}", today=today)
    assert acts(plan) == [("add_line", {"amount": "20.00", "category": "taxi", "date": expected})]


@pytest.mark.parametrize(("message", "amount", "category", "merchant"), [
    ("I spent 12,80 € on lunch", "12.80", "meals", None),
    ("add a cab from the hotel, €35", "35.00", "taxi", None),
    ("add dinner at Zur Letzten Instanz for 58.20", "58.20", "meals", "Zur Letzten Instanz"),
    ("please log the Airbnb, 212.40", "212.40", "hotel", "Airbnb"),
    ("add a flight to New York for 1,380.00", "1380.00", "travel", None),
    ("Can you add 3 coffees for 11.40 at Starbucks?", "11.40", "meals", "Starbucks"),
    ("add the hotel for 2 nights, 310", "310.00", "hotel", None),
    ("add a restaurnt bill, 64.90", "64.90", "meals", None),
])
def test_amounts_categories_and_merchants_are_read_from_the_users_words(message, amount, category, merchant) -> None:
    [(act, args)] = acts(plan_of(message))
    assert act == "add_line"
    assert (args["amount"], args["category"], args.get("merchant")) == (amount, category, merchant)


def test_several_requests_in_one_message_become_several_acts_in_order() -> None:
    plan = plan_of("add taxi 30, lunch 12,50 and hotel 180, then submit the claim")
    assert [a for a, _ in acts(plan)] == ["add_line", "add_line", "add_line", "submit_claim"]
    assert [args.get("amount") for _, args in acts(plan)] == ["30.00", "12.50", "180.00", None]


def test_opening_a_claim_reads_title_and_currency_and_later_lines_target_it() -> None:
    plan = plan_of("start a new claim for the Oslo workshop in NOK and add the hotel, 1450 NOK, yesterday")
    assert acts(plan)[0] == ("open_claim", {"title": "Oslo workshop", "currency": "NOK"})
    assert plan.acts[1].case is None  # the reducer puts it on the claim this plan opens


def test_a_line_named_by_category_resolves_to_its_ordinal_on_the_claim_it_was_read_from() -> None:
    plan = plan_of("the hotel line should be 180")
    assert acts(plan) == [("update_line", {"line": 2, "amount": "180.00"})]
    assert plan.acts[0].case is not None and plan.acts[0].case.id == "clm_BERL0001"


def test_a_line_named_by_merchant_on_one_of_two_claims_is_pinned_to_that_claim() -> None:
    plan = plan_of("the Avenida Palace should be 155", cases=(BERLIN, LISBON), active=None)
    assert acts(plan) == [("update_line", {"line": 2, "amount": "155.00"})]
    assert plan.acts[0].case.id == "clm_LISB0001"


def test_an_ordinal_is_passed_as_written_and_the_claim_left_to_the_reducer() -> None:
    plan = plan_of("change the amount on the second line to 120", cases=(BERLIN, LISBON), active=None)
    assert acts(plan) == [("update_line", {"line": 2, "amount": "120.00"})]
    assert plan.acts[0].case is None  # two open claims: the reducer asks with a selection card


def test_a_claim_named_by_title_among_several_is_a_match_reference() -> None:
    plan = plan_of("submit the Lisbon claim", cases=(BERLIN, LISBON), active=None)
    assert plan.acts[0].act == "submit_claim"
    assert plan.acts[0].case.match == "Lisbon"


def test_removal_and_withdrawal_are_told_apart_by_what_they_name() -> None:
    assert acts(plan_of("delete the Adlon line")) == [("remove_line", {"line": 2})]
    assert acts(plan_of("delete the claim")) == [("withdraw_claim", {})]


# =============================================================================== retractions, corrections, holds


def test_a_retraction_names_the_act_before_it() -> None:
    message = "change the amount on the second line to 120, actually no, leave it"
    plan = plan_of(message)
    assert acts(plan) == [("update_line", {"line": 2, "amount": "120.00"})]
    assert [(r.act, r.evidence) for r in plan.retractions] == [("a1", "actually no, leave it")]


def test_a_retraction_that_names_a_thing_takes_back_that_act() -> None:
    plan = plan_of("add lunch 15 and a taxi for 30, scratch the lunch")
    assert [r.act for r in plan.retractions] == ["a1"]


def test_a_correction_keeps_the_first_value_in_the_act_and_quotes_the_second() -> None:
    plan = plan_of("add a taxi ride for 100, no wait, 120")
    assert acts(plan) == [("add_line", {"amount": "100.00", "category": "taxi"})]
    assert [(c.act, dict(c.args), c.evidence) for c in plan.corrections] == [
        ("a1", {"amount": "120.00"}, "no wait, 120")]


def test_dont_submit_anything_yet_is_a_hold_on_submit_claim() -> None:
    plan = plan_of("change line 2 to 120 but don't submit anything yet")
    assert acts(plan) == [("update_line", {"line": 2, "amount": "120.00"})]
    assert [(c.kind, c.acts, c.evidence) for c in plan.constraints] == [
        ("hold", ["submit_claim"], "don't submit anything yet")]


# =============================================================================== never a guess


@pytest.mark.parametrize("message", [
    "blorp the wizzle by tuesday",
    "book me a flight to Rome for 300",
    "approve my Berlin claim",
    "add a taxi for 20 and email my manager",
    "what's the weather in Berlin tomorrow?",
    "42",
])
def test_what_is_not_understood_gets_no_act_and_an_answer_saying_so(message: str) -> None:
    plan = plan_of(message)
    assert plan.acts == []
    assert "I did not understand" in plan.answers[0].text
    assert CAPABILITIES in plan.answers[0].text


@pytest.mark.parametrize(("message", "asks"), [
    ("add a taxi yesterday", "How much"),
    ("add 45 for the thing at the station", "What kind of expense"),
    ("add a taxi 30 40", "more than one amount"),
    ("open a new claim", "called"),
    ("change it to 50", "Which line"),
    ("change the parking to 12", "Which line"),
])
def test_a_request_missing_a_value_asks_for_it_instead_of_filling_it_in(message: str, asks: str) -> None:
    plan = plan_of(message)
    assert plan.acts == []
    assert asks in plan.answers[0].text


def test_two_lines_that_fit_a_name_are_listed_and_neither_is_picked() -> None:
    with_bolt = claim("clm_BERL0001", "Berlin trip", [("2026-11-17", "Taxi Berlin", "taxi", "32.60"),
                                                      ("2026-11-18", "Bolt", "taxi", "18.00")])
    plan = plan_of("the taxi should be 25", cases=(with_bolt,))
    assert plan.acts == []
    assert "line 1" in plan.answers[0].text and "line 2" in plan.answers[0].text


def test_an_amount_in_another_currency_is_not_added_but_converted_for_the_user() -> None:
    first = answer("add a dinner for USD 100 yesterday")
    assert isinstance(first, ReadBatch)
    assert [(r.tool, r.args) for r in first.reads] == [
        ("exchange_rate", {"from": "USD", "to": "EUR", "amount": "100.00", "date": "2026-12-01"})]
    plan = plan_of("add a dinner for USD 100 yesterday", rounds=[_round(first)])
    assert plan.acts == []
    assert "90.42 EUR" in plan.answers[0].text


def test_a_repair_request_gets_an_honest_plan_with_no_act() -> None:
    plan = plan_of("add a taxi for 20", repair_error="acts.0.args.amount: bad")
    assert plan.acts == [] and "left everything as it is" in plan.answers[0].text


# =============================================================================== questions: reads, then a plan


def _round(batch: ReadBatch, number: int = 1) -> RoundRecord:
    """Run the batch with the real read tool handlers that need no database."""
    handlers = {
        "lookup_policy": lambda a: lookup_policy(LookupPolicyArgs.model_validate(a), None),
        "exchange_rate": lambda a: exchange_rate(ExchangeRateArgs.model_validate(a), None),
        "calculate": lambda a: calculate(CalculateArgs.model_validate(a), None),
        "get_case": lambda a: next(c.view for c in (BERLIN, LISBON) if c.id == a["case"]),
    }
    requests = [{"tool": r.tool, "args": dict(r.args)} for r in batch.reads]
    results = [{"tool": r["tool"], "ok": True, "result": handlers[r["tool"]](r["args"])} for r in requests]
    return RoundRecord(number, "ok", requests, results)


@pytest.mark.parametrize(("question", "tool", "expected"), [
    ("what is the policy on hotels?", "lookup_policy", "180 EUR"),
    ("How much can I spend on meals per day?", "lookup_policy", "60 EUR"),
    ("what's the total?", "get_case", "302.50 EUR"),
    ("how much did I spend on hotels?", "get_case", "180.00 EUR"),
    ("how much is 100 USD in EUR?", "exchange_rate", "90.42 EUR"),
    ("what is 180 * 3 + 42.50?", "calculate", "582.5"),
    ("how much is 3 nights at 165?", "calculate", "495"),
    ("what can I do next?", "get_case", "submit it for approval"),
])
def test_a_question_asks_for_reads_first_then_answers_from_their_results(question, tool, expected) -> None:
    first = answer(question)
    assert isinstance(first, ReadBatch)
    assert [r.tool for r in first.reads] == [tool]
    plan = plan_of(question, rounds=[_round(first)])
    assert plan.acts == []
    assert expected in plan.answers[0].text


def test_a_question_beside_a_request_keeps_the_request_in_the_final_plan() -> None:
    message = "What is the hotel limit? Also add dinner at Nobu for 58.20 on Monday."
    first = answer(message)
    assert isinstance(first, ReadBatch)
    plan = plan_of(message, rounds=[_round(first)])
    assert acts(plan) == [("add_line", {"amount": "58.20", "category": "meals", "merchant": "Nobu",
                                        "date": "2026-11-30", "description": "dinner"})]
    assert "180 EUR" in plan.answers[0].text


def test_without_reads_only_what_the_request_shows_is_answered() -> None:
    assert "302.50" in plan_of("what's the total?", mode="deterministic").answers[0].text
    assert "269.9" in plan_of("what is 89.90 + 180?", mode="deterministic").answers[0].text
    assert "cannot look up" in plan_of("what is the hotel limit?", mode="deterministic").answers[0].text


def test_in_read_agentic_mode_no_act_is_proposed() -> None:
    plan = plan_of("add a taxi for 20", mode="read_agentic")
    assert plan.acts == [] and "cannot make changes" in plan.answers[0].text


def test_a_failed_read_is_reported_not_invented() -> None:
    first = answer("what's the total?")
    failed = RoundRecord(1, "ok", [{"tool": "get_case", "args": {"case": "clm_BERL0001"}}],
                         [{"tool": "get_case", "ok": False, "error": "not_found"}])
    plan = plan_of("what's the total?", rounds=[failed])
    assert isinstance(first, ReadBatch)
    assert "could not find" in plan.answers[0].text and "302.50" not in plan.answers[0].text


# =============================================================================== what the reducer will check


MESSAGES = [
    "add a taxi ride, 42.50, yesterday", "Hi! Could you please add an Uber to the airport, 28 euros, last Friday?",
    "add taxi 30, lunch 12,50 and hotel 180", "set line 1 to 100 — no, 120",
    "change the amount on the second line to 120, actually no, leave it", "remove the taxi line and submit the claim",
    "add lunch 18.90 and submit it, actually don't submit yet", "open a claim called Zurich visit in EUR, no, CHF",
    "add a flight to New York for 1,380.00", "The taxi on the 17th was 30.60, and please add a dinner for 45 on Tuesday",
    "add breakfast 14.50 on Monday, sorry, I mean Tuesday", "  add   a TAXI for 19,50  ",
]


@pytest.mark.parametrize("message", MESSAGES)
def test_every_quote_is_an_exact_slice_of_the_message_and_amounts_are_in_their_quote(message: str) -> None:
    plan = plan_of(message)
    quotes = [a.evidence for a in plan.acts] + [r.evidence for r in plan.retractions] + [
        c.evidence for c in plan.corrections] + [c.evidence for c in plan.constraints]
    assert quotes
    for quote in quotes:
        assert quote in message  # exact, not only case- and whitespace-insensitive
    for act in plan.acts:
        if "amount" in act.args:
            assert Decimal(act.args["amount"]) in numbers_in(act.evidence)
    for correction in plan.corrections:
        if "amount" in correction.args:
            assert Decimal(correction.args["amount"]) in numbers_in(correction.evidence)


def test_neutral_wording_covers_every_registered_claim_phrase() -> None:
    # the interpreter speaks for the expense domain only (another installed domain, e.g. trips, has its own
    # phrases and no local interpreter)
    phrases = {p for act in get_registry().acts.values() if act.case_kind == "expense_claim" for p in act.claim_phrases}
    assert phrases <= set(_NEUTRAL)
    assert neutral("It was Submitted and sent for approval; lines added") == (
        "It was Handed in and handed in; lines entered")


@pytest.mark.parametrize("status", ["draft", "submitted", "approved", "rejected", "withdrawn"])
def test_answers_about_a_claim_never_use_a_claim_phrase(status: str) -> None:
    phrases = {name: act.claim_phrases for name, act in get_registry().acts.items()}
    lisbon = replace(LISBON, status=status, view={**LISBON.view, "status": status})
    for question in ("what's the status of the Lisbon claim?", "what can I do next?", "what's on the Lisbon claim?",
                     "how do I submit?", "which claims do I have?", "how do I withdraw a claim?"):
        plan = plan_of(question, cases=(lisbon,), active="clm_LISB0001", mode="deterministic")
        for block in plan.answers:
            assert check_claims(block.text, phrases, backed_acts=()).allowed, block.text


# =============================================================================== robustness


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(min_size=1, max_size=160))
def test_any_text_gives_a_valid_answer_whose_quotes_are_in_the_message(message: str) -> None:
    text = interpret(request(message))
    parsed = parse_model_answer(text)
    assert json.loads(text)
    if isinstance(parsed, UserTurnPlan):
        validate_plan(parsed, get_registry())
        for quote in [a.evidence for a in parsed.acts] + [r.evidence for r in parsed.retractions] + [
                c.evidence for c in parsed.corrections] + [c.evidence for c in parsed.constraints]:
            assert quote in message


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["add", "a", "taxi", "for", "20", "no", "wait", "30", "line", "2", "submit", "it",
                                 "actually", "leave", "don't", "yesterday", "hotel", ",", "and", "the", "remove",
                                 "change", "to", "Lisbon", "claim", "?", "what", "total", "USD", "€"]),
                min_size=1, max_size=14))
def test_word_salad_from_the_domain_never_breaks_the_protocol(tokens: list[str]) -> None:
    message = " ".join(tokens)
    parsed = parse_model_answer(interpret(request(message, cases=(BERLIN, LISBON), active=None)))
    if isinstance(parsed, UserTurnPlan):
        validate_plan(parsed, get_registry())
        for act in parsed.acts:
            assert act.evidence in message


def test_questions_past_the_call_budget_say_so_instead_of_guessing() -> None:
    message = "what is the hotel limit? what is the meals limit?"
    first = parse_model_answer(interpret(replace(request(message), calls_left=1)))
    assert isinstance(first, ReadBatch) and len(first.reads) == 1
    plan = plan_of(message, rounds=[_round(first)])
    assert "180 EUR" in plan.answers[0].text
    assert "ran out of lookups" in plan.answers[1].text
