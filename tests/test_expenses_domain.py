"""The example domain (expense claims) on its own: handlers, policies, views, read tools, registration.

Pure unit tests: no database. ``execute`` below plays the runtime's part the way the reducer and
command bus do it (validate and dump the arguments, resolve ``line`` to ``line_id``, complete the
arguments, call the pure handler, bump the revision).
"""

from __future__ import annotations

import ast
import copy
import dataclasses
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pytest
from pydantic import ValidationError

import registries
from expenses import calculator
from expenses.acts import ACTS, new_line_id
from expenses.calculator import calculate, calculation_result
from expenses.demo import demo_cases
from expenses.domain import EXPENSE_CLAIM, next_steps, project, resolve_line, summarize
from expenses.exchange import convert, reference_rate
from expenses.read_tools import READ_TOOLS
from expenses.schemas import (
    AddLineArgs,
    ExchangeRateArgs,
    ExpenseClaimState,
    OpenClaimArgs,
    UpdateLineArgs,
)
from registries import (
    Actor,
    CaseSnapshot,
    CommandContext,
    CommandRefused,
    CommandResult,
    DomainEventDraft,
    PolicyKind,
)

ACT = {definition.name: definition for definition in ACTS}
TOOL = {definition.name: definition for definition in READ_TOOLS}
ALICE = Actor(user_id=1, username="alice", timezone="Europe/Berlin")
CTX = CommandContext(actor=ALICE, today="2026-12-01")
BERLIN_LINES = (
    {"date": "2026-11-16", "merchant": "Deutsche Bahn", "category": "travel", "amount": "89.90"},
    {"date": "2026-11-16", "merchant": "Hotel Adlon", "category": "hotel", "amount": "180.00"},
    {"date": "2026-11-17", "merchant": "Taxi Berlin", "category": "taxi", "amount": "32.60"},
)


# --------------------------------------------------------------------------- helpers


def runtime_args(case: CaseSnapshot | None, act: str, args: dict[str, Any]) -> dict[str, Any]:
    """What the reducer hands a handler: validated, dumped, line resolved, completed."""
    definition = ACT[act]
    dumped = definition.args_schema.model_validate(args).model_dump(mode="json", exclude_none=True)
    if "line" in dumped:
        dumped["line_id"] = resolve_line(case, dumped["line"])
    return definition.complete_args(dumped, CTX)


def execute(case: CaseSnapshot | None, act: str, args: dict[str, Any] | None = None,
            case_id: str = "clm_TESTCLAIM0001") -> tuple[CaseSnapshot, CommandResult]:
    result = ACT[act].handler(case, runtime_args(case, act, args or {}), CTX)
    after = CaseSnapshot(id=case.id if case else case_id, kind="expense_claim", owner_id=ALICE.user_id,
                         title=result.title, status=result.status, revision=(case.revision if case else 0) + 1,
                         state=result.state)
    return after, result


def claim(*lines: dict[str, Any], title: str = "Berlin trip", currency: str = "EUR",
          status: str = "draft") -> CaseSnapshot:
    case, _ = execute(None, "open_claim", {"title": title, "currency": currency})
    for line in lines:
        case, _ = execute(case, "add_line", line)
    return dataclasses.replace(case, status=status)


def berlin(status: str = "draft") -> CaseSnapshot:
    return claim(*BERLIN_LINES, status=status)


def policy(case: CaseSnapshot | None, act: str, args: dict[str, Any] | None = None):
    return ACT[act].policy(case, ACT[act].args_schema.model_validate(args or {}))


@dataclass
class FakeReadContext:
    """A ReadContext over an in-memory set of the actor's cases."""

    actor: Actor = ALICE
    today: str = "2026-12-01"
    cases: dict[str, CaseSnapshot] = field(default_factory=dict)
    searches: list[dict[str, Any]] = field(default_factory=list)

    def get_case(self, case_id: str) -> CaseSnapshot | None:
        return self.cases.get(case_id)

    def search_cases(self, *, kind: str | None, query: str, status: str | None) -> list[CaseSnapshot]:
        self.searches.append({"kind": kind, "query": query, "status": status})
        return [case for case in self.cases.values()
                if query.lower() in case.title.lower() and status in (None, case.status)]


def read(tool: str, args: dict[str, Any], ctx: FakeReadContext | None = None) -> Any:
    definition = TOOL[tool]
    return definition.handler(definition.args_schema.model_validate(args), ctx or FakeReadContext())


# --------------------------------------------------------------------------- handlers


def test_opening_a_claim_starts_an_empty_draft_and_records_claim_opened():
    case, result = execute(None, "open_claim", {"title": "  Berlin trip ", "currency": "eur"})

    assert (result.status, result.title) == ("draft", "Berlin trip")
    assert result.state == {"title": "Berlin trip", "currency": "EUR", "lines": [], "line_counter": 0}
    assert [(e.type, e.data["title"], e.data["currency"]) for e in result.events] == [
        ("claim_opened", "Berlin trip", "EUR")]
    assert summarize(case) == "“Berlin trip” · draft · no lines · 0.00 EUR"


def test_adding_a_line_without_a_date_dates_it_today_and_records_what_a_receipt_needs():
    case, result = execute(berlin(), "add_line", {"amount": 42.5, "category": "Taxi"})

    added = result.state["lines"][-1]
    assert added | {"id": "?"} == {"id": "?", "date": "2026-12-01", "merchant": "", "category": "taxi",
                                   "amount": "42.50"}
    (event,) = result.events
    assert event.type == "line_added"
    assert event.data["line_id"] == added["id"]
    assert {k: event.data[k] for k in ("ordinal", "category", "amount", "currency", "total", "title")} == {
        "ordinal": 4, "category": "taxi", "amount": "42.50", "currency": "EUR", "total": "345.00",
        "title": "Berlin trip"}
    assert ACT["add_line"].describe_event(event) == "Added line 4 to “Berlin trip”: Taxi, 42.50 EUR on 2026-12-01."


def test_new_line_ids_are_deterministic_given_state_and_arguments():
    case = berlin()
    args = runtime_args(case, "add_line", {"amount": "12", "category": "meals"})

    first = ACT["add_line"].handler(case, args, CTX)
    again = ACT["add_line"].handler(case, args, CTX)

    assert first == again
    assert new_line_id("clm_A", 3, ()) == new_line_id("clm_A", 3, ())


def test_line_ids_are_never_reused_after_a_line_is_removed():
    case = berlin()
    removed_id = resolve_line(case, 3)
    case, _ = execute(case, "remove_line", {"line": 3})
    case, _ = execute(case, "add_line", {"amount": "32.60", "category": "taxi", "merchant": "Taxi Berlin"})

    ids = [line["id"] for line in case.state["lines"]]
    assert len(set(ids)) == 3
    assert removed_id not in ids


def test_handlers_leave_the_given_case_untouched_and_never_set_a_revision():
    case = berlin()
    before = copy.deepcopy(dict(case.state))

    _, result = execute(case, "update_line", {"line": 1, "amount": "95"})

    assert dict(case.state) == before
    assert case.revision == 4
    assert not hasattr(result, "revision")
    ExpenseClaimState.model_validate(result.state)


def test_updating_a_line_records_before_and_after_and_keeps_its_id():
    case = berlin()
    line_id = resolve_line(case, 2)

    after, result = execute(case, "update_line", {"line": 2, "amount": "120", "merchant": "Adlon Kempinski"})

    assert resolve_line(after, 2) == line_id
    (event,) = result.events
    assert event.type == "line_updated"
    assert event.data["changed"] == ["merchant", "amount"]
    assert event.data["before"]["amount"] == "180.00"
    assert event.data["after"] == {"date": "2026-11-16", "merchant": "Adlon Kempinski", "category": "hotel",
                                   "amount": "120.00"}
    assert ACT["update_line"].describe_event(event) == (
        "Updated line 2 of “Berlin trip”: merchant “Hotel Adlon” → “Adlon Kempinski”, amount 180.00 → 120.00 EUR.")


def test_an_update_changes_a_stays_nights_and_its_sum_and_undoing_it_restores_both():
    case = claim({"date": "2026-11-16", "merchant": "Motel One", "category": "hotel", "amount": "267", "quantity": 3})

    after, result = execute(case, "update_line", {"line": 1, "quantity": 2, "amount": "178"})

    assert [(line["amount"], line["quantity"]) for line in after.state["lines"]] == [("178.00", 2)]
    (event,) = result.events
    assert event.data["changed"] == ["amount", "quantity"]
    assert ACT["update_line"].describe_event(event) == (
        "Updated line 1 of “Berlin trip”: amount 267.00 → 178.00 EUR, quantity 3 → 2.")
    act, args = ACT["update_line"].invert(after, event.data)
    assert (act, args) == ("update_line", {"line": 1, "amount": "267.00", "quantity": 3})


def test_an_update_that_changes_nothing_is_refused():
    with pytest.raises(CommandRefused) as refused:
        execute(berlin(), "update_line", {"line": 2, "amount": "180"})
    assert refused.value.code == "no_change"


def test_removing_a_line_renumbers_the_others_and_keeps_their_ids():
    case = berlin()
    kept = [resolve_line(case, 1), resolve_line(case, 3)]

    after, result = execute(case, "remove_line", {"line": 2})

    assert [resolve_line(after, 1), resolve_line(after, 2)] == kept
    assert resolve_line(after, 3) is None
    (event,) = result.events
    assert (event.type, event.data["ordinal"], event.data["merchant"], event.data["amount"]) == (
        "line_removed", 2, "Hotel Adlon", "180.00")
    assert project(after)["total"] == "122.50"


@pytest.mark.parametrize("line_id", ["ln_zzzzzz", None])
def test_a_handler_refuses_a_line_that_is_not_in_the_claim(line_id):
    case = berlin()
    args = {"line": 2, "amount": "120.00"} | ({"line_id": line_id} if line_id else {})

    for act, act_args in (("update_line", args), ("remove_line", {k: v for k, v in args.items() if k != "amount"})):
        with pytest.raises(CommandRefused) as refused:
            ACT[act].handler(case, act_args, CTX)
        assert refused.value.code == "line_not_found"


def test_submitting_a_claim_locks_it_and_queues_one_approver_notification():
    case, result = execute(berlin(), "submit_claim")

    assert result.status == "submitted"
    assert [e.type for e in result.events] == ["claim_submitted"]
    (outbox,) = result.outbox
    assert outbox.destination == "approver"
    assert outbox.payload["claim"] == case.id
    assert (outbox.payload["total"], outbox.payload["currency"], len(outbox.payload["lines"])) == ("302.50", "EUR", 3)
    assert ACT["submit_claim"].external is True
    assert project(case)["locked"] is True
    assert project(case)["next_acts"] == []


def test_a_submitted_claim_refuses_line_edits():
    submitted, _ = execute(berlin(), "submit_claim")

    for act, args in (("add_line", {"amount": "5", "category": "taxi"}), ("update_line", {"line": 1, "amount": "5"}),
                      ("remove_line", {"line": 1}), ("submit_claim", {}), ("withdraw_claim", {})):
        assert policy(submitted, act, args).code == "case_locked"
        with pytest.raises(CommandRefused) as refused:
            ACT[act].handler(submitted, runtime_args(submitted, act, args), CTX)
        assert refused.value.code == "case_locked"


def test_withdrawing_a_draft_closes_it_for_good():
    case, result = execute(berlin(), "withdraw_claim")

    assert (result.status, result.events[0].type) == ("withdrawn", "claim_withdrawn")
    assert result.outbox == []
    assert next_steps(case) == "The claim was withdrawn and is closed; you can open a new claim."


def test_an_empty_claim_cannot_be_submitted():
    empty = claim()
    assert policy(empty, "submit_claim").code == "claim_empty"
    with pytest.raises(CommandRefused) as refused:
        ACT["submit_claim"].handler(empty, {}, CTX)
    assert refused.value.code == "claim_empty"


def test_open_claim_takes_no_case():
    with pytest.raises(CommandRefused):
        ACT["open_claim"].handler(berlin(), {"title": "Again", "currency": "EUR"}, CTX)


# --------------------------------------------------------------------------- policies


@pytest.mark.parametrize("status", ["submitted", "approved", "rejected", "withdrawn"])
@pytest.mark.parametrize("act,args", [
    ("add_line", {"amount": "5", "category": "taxi"}), ("update_line", {"line": 1, "category": "other"}),
    ("remove_line", {"line": 1}), ("submit_claim", {}), ("withdraw_claim", {}),
])
def test_any_act_on_a_claim_that_is_no_longer_a_draft_is_denied_as_case_locked(status, act, args):
    decision = policy(berlin(status), act, args)
    assert (decision.kind, decision.code) == (PolicyKind.DENY, "case_locked")


def test_opening_a_claim_and_small_edits_on_a_draft_are_allowed():
    assert policy(None, "open_claim", {"title": "Oslo"}).kind == PolicyKind.ALLOW
    assert policy(berlin(), "add_line", {"amount": "1000", "category": "hotel"}).kind == PolicyKind.ALLOW
    assert policy(berlin(), "update_line", {"line": 1, "merchant": "DB"}).kind == PolicyKind.ALLOW


def test_a_line_over_1000_eur_needs_confirmation():
    decision = policy(berlin(), "add_line", {"amount": "1000.01", "category": "travel"})
    assert (decision.kind, decision.code) == (PolicyKind.CONFIRM, "amount_over_limit")
    decision = policy(berlin(), "update_line", {"line": 2, "amount": "1200"})
    assert (decision.kind, decision.code) == (PolicyKind.CONFIRM, "amount_over_limit")


def test_a_foreign_amount_is_converted_at_the_reference_rate_before_the_1000_eur_rule():
    in_pounds = claim(title="London visit", currency="GBP")
    in_dollars = claim(title="Boston visit", currency="USD")

    # 900 GBP is about 1045 EUR; 1100 USD is about 995 EUR (latest reference rates)
    assert policy(in_pounds, "add_line", {"amount": "900", "category": "hotel"}).code == "amount_over_limit"
    assert policy(in_dollars, "add_line", {"amount": "1100", "category": "hotel"}).kind == PolicyKind.ALLOW
    assert policy(in_dollars, "add_line", {"amount": "1200", "category": "hotel"}).code == "amount_over_limit"


def test_an_amount_that_cannot_be_converted_needs_confirmation():
    unconvertible = dataclasses.replace(berlin(), state={**berlin().state, "currency": "AUD"})
    assert policy(unconvertible, "add_line", {"amount": "10", "category": "meals"}).code == "amount_over_limit"


# --------------------------------------------------------------------------- schemas


@pytest.mark.parametrize("currency", ["EURO", "XYZ", "E1R", "", "€"])
def test_the_state_schema_rejects_a_bad_currency(currency):
    with pytest.raises(ValidationError):
        ExpenseClaimState(title="Berlin trip", currency=currency)


def test_a_claim_can_only_be_opened_in_a_currency_the_reference_table_converts():
    assert OpenClaimArgs(title="Tokyo", currency="jpy").currency == "JPY"
    with pytest.raises(ValidationError):
        OpenClaimArgs(title="Sydney", currency="AUD")


@pytest.mark.parametrize("given,canonical", [(120, "120.00"), ("120", "120.00"), (42.5, "42.50"),
                                             (" 7.5 ", "7.50"), ("999999.99", "999999.99")])
def test_amounts_are_normalised_to_two_decimal_strings(given, canonical):
    assert AddLineArgs(amount=given, category="meals").amount == canonical


@pytest.mark.parametrize("amount", ["0", "-5", "1000000", "12.345", "1e3", "1,200.00", "NaN", True, None, [1]])
def test_amounts_out_of_range_or_ambiguous_are_refused(amount):
    with pytest.raises(ValidationError):
        AddLineArgs(amount=amount, category="meals")


def test_an_update_names_a_line_and_at_least_one_field():
    with pytest.raises(ValidationError):
        UpdateLineArgs.model_validate({"line": 2})
    with pytest.raises(ValidationError):
        UpdateLineArgs.model_validate({"line": 0, "amount": "5"})
    assert UpdateLineArgs.model_validate({"line": "2", "date": "2026-11-18"}).line == 2


def test_every_argument_schema_forbids_unknown_fields():
    schemas = [d.args_schema for d in ACTS] + [d.args_schema for d in READ_TOOLS]
    for schema in schemas:
        assert schema.model_json_schema().get("additionalProperties") is False, schema.__name__
    with pytest.raises(ValidationError):
        AddLineArgs.model_validate({"amount": "5", "category": "taxi", "note": "sneaky"})


def test_dates_must_be_real_iso_dates():
    with pytest.raises(ValidationError):
        AddLineArgs(amount="5", category="taxi", date="2026-02-30")
    with pytest.raises(ValidationError):
        AddLineArgs(amount="5", category="taxi", date="1.12.2026")


# --------------------------------------------------------------------------- views and copy


def test_the_projection_numbers_lines_from_one_and_totals_them():
    view = project(berlin())

    assert [(line["ordinal"], line["merchant"]) for line in view["lines"]] == [
        (1, "Deutsche Bahn"), (2, "Hotel Adlon"), (3, "Taxi Berlin")]
    assert view["total"] == "302.50"
    assert view["totals_by_category"] == {"travel": "89.90", "hotel": "180.00", "taxi": "32.60"}
    assert view["next_acts"] == ["add_line", "update_line", "remove_line", "submit_claim", "withdraw_claim"]
    assert view["status"] == "draft" and view["locked"] is False


def test_summary_and_next_steps_read_as_the_contract_shows():
    assert summarize(berlin()) == "“Berlin trip” · draft · 3 lines · 302.50 EUR"
    assert next_steps(berlin()) == "You can add lines, change or remove them, or submit the claim."
    assert next_steps(claim()) == "You can add lines to the claim, or withdraw it."
    assert project(claim())["next_acts"] == ["add_line", "withdraw_claim"]


def test_resolve_line_maps_ordinals_to_stable_ids():
    case = berlin()
    assert resolve_line(case, 1) == case.state["lines"][0]["id"]
    assert resolve_line(case, 0) is None
    assert resolve_line(case, 4) is None


def test_the_confirmation_card_names_the_line_it_removes():
    case = berlin()
    args = runtime_args(case, "remove_line", {"line": 2})

    assert ACT["remove_line"].describe_command(case, args) == "Remove line 2 (Hotel Adlon, 180.00 EUR) from “Berlin trip”"
    assert ACT["submit_claim"].describe_command(case, {}) == "Submit “Berlin trip” (3 lines, 302.50 EUR) for approval"
    assert ACT["update_line"].describe_command(case, runtime_args(case, "update_line", {"line": 2, "amount": "120"})) == (
        "Change line 2 of “Berlin trip” (Hotel Adlon, 180.00 EUR): amount 180.00 → 120.00 EUR")


def test_server_copy_never_raises_on_odd_input():
    assert ACT["add_line"].describe_command(None, {}) == "Add line"
    assert ACT["add_line"].describe_event(DomainEventDraft(type="line_added", data={})) == "Line added."


# --------------------------------------------------------------------------- calculate


@pytest.mark.parametrize("expression,result,rounded", [
    ("0.1 + 0.2", "0.3", "0.30"),
    ("180 * 3 + 42.50", "582.50", "582.50"),
    ("412.50 / 3", "137.50", "137.50"),
    ("10 / 3", "3.3333333333", "3.33"),
    ("-(2 - 5) * (1 + 1)", "6", "6.00"),
    ("1000 / 10", "100", "100.00"),
    ("89.90 + 180.00 + 32.60", "302.50", "302.50"),
])
def test_calculate_is_exact_on_decimals(expression, result, rounded):
    assert read("calculate", {"expression": expression}) == {"expression": expression, "result": result,
                                                             "rounded": rounded}


@pytest.mark.parametrize("expression", [
    "__import__('os').system('true')", "x + 1", "abs(-1)", "(1).real", "[1, 2]", "'a' * 3",
    "1 if 1 else 2", "lambda: 1", "1; 2", "0x10", "1_000",
])
def test_calculate_refuses_names_calls_and_attributes(expression):
    with pytest.raises(ValueError):
        calculate(expression)


@pytest.mark.parametrize("expression", [
    "9**9**9", "2 ** 10", "1e308 * 10", "10 // 3", "9" * 16, "999999999999999 * 999999999999999",
    "(" * 120 + "1" + ")" * 120, "1+" * 150 + "1", "1/0", "",
])
def test_calculate_refuses_exponent_bombs_huge_inputs_and_division_by_zero(expression):
    with pytest.raises(ValueError):
        calculate(expression)


def test_the_evaluator_refuses_names_even_if_the_screening_were_bypassed():
    for source in ("x", "f(1)", "a.b", "2 ** 3"):
        with pytest.raises(ValueError):
            calculator._evaluate(ast.parse(source, mode="eval").body, source, 0)


def test_calculate_results_are_plain_strings():
    assert calculation_result("5 - 5.00")["result"] == "0.00"


# --------------------------------------------------------------------------- exchange_rate


def test_exchange_rate_uses_the_rate_in_force_on_the_date():
    result = read("exchange_rate", {"from": "EUR", "to": "usd", "date": "2026-05-15"})

    assert (result["from"], result["to"], result["rate"]) == ("EUR", "USD", "1.081")
    assert result["effective_date"] == "2026-04-01"


def test_exchange_rate_converts_an_amount_between_two_foreign_currencies():
    result = read("exchange_rate", {"from": "GBP", "to": "USD", "amount": "100"})

    assert result["effective_date"] == "2026-10-01"
    assert result["converted"] == "128.46"  # 100 / 0.8610 * 1.1060
    assert Decimal(result["rate"]) * Decimal(result["inverse"]) == pytest.approx(Decimal(1), abs=Decimal("0.0001"))
    assert convert(Decimal("100"), "GBP", "USD") == Decimal("128.46")


def test_exchange_rate_between_one_currency_and_itself_is_one():
    assert read("exchange_rate", {"from": "JPY", "to": "JPY"})["rate"] == "1"


def test_exchange_rate_refuses_an_unknown_currency_or_a_date_before_the_table():
    with pytest.raises(ValueError, match="unknown_currency"):
        read("exchange_rate", {"from": "EUR", "to": "AUD"})
    with pytest.raises(ValueError, match="no_rate_for_date"):
        read("exchange_rate", {"from": "EUR", "to": "USD", "date": "2025-06-30"})


def test_the_exchange_rate_schema_speaks_from_and_to():
    assert set(ExchangeRateArgs.model_json_schema()["required"]) == {"from", "to"}
    assert reference_rate("eur", "chf").quote == "CHF"


# --------------------------------------------------------------------------- other read tools


def test_lookup_policy_finds_the_hotel_limit():
    result = read("lookup_policy", {"query": "what is the hotel limit per night?"})

    best = result["sections"][0]
    assert best["section"] == "Hotels and accommodation"
    assert "180 EUR per night" in best["text"]


@pytest.mark.parametrize("query,section", [
    ("do I need receipts", "Receipts"), ("deadline to submit", "Submission deadline"),
    ("dinner allowance", "Meals"), ("taxi at night", "Taxis and local transport"),
    ("foreign currency conversion", "Currency and exchange rates"),
])
def test_lookup_policy_finds_the_section_a_question_is_about(query, section):
    assert read("lookup_policy", {"query": query})["sections"][0]["section"] == section


def test_lookup_policy_says_so_when_nothing_matches():
    result = read("lookup_policy", {"query": "banana smoothie"})
    assert result["sections"] == [] and "note" in result


def test_get_case_returns_the_projection_of_the_actors_claim():
    case = berlin()
    assert read("get_case", {"case": case.id}, FakeReadContext(cases={case.id: case})) == project(case)


def test_get_case_of_a_missing_or_foreign_claim_is_not_found():
    with pytest.raises(LookupError, match="not_found"):
        read("get_case", {"case": "clm_SOMEONEELSES0001"}, FakeReadContext())


def test_search_cases_searches_expense_claims_of_the_actor():
    berlin_case = berlin()
    lisbon = dataclasses.replace(claim(title="Lisbon conference"), id="clm_LISBON00000001")
    ctx = FakeReadContext(cases={berlin_case.id: berlin_case, lisbon.id: lisbon})

    result = read("search_cases", {"query": "lisbon", "status": "draft"}, ctx)

    assert ctx.searches == [{"kind": "expense_claim", "query": "lisbon", "status": "draft"}]
    assert [(c["id"], c["title"], c["line_count"]) for c in result["cases"]] == [(lisbon.id, "Lisbon conference", 0)]


def test_inspect_attachment_shows_the_actors_own_receipt():
    result = read("inspect_attachment", {"attachment": "att_BERLINHOTEL01"})

    assert (result["merchant"], result["total"], result["currency"]) == ("Hotel Adlon", "180.00", "EUR")
    assert "owner" not in result


def test_someone_elses_attachment_is_indistinguishable_from_a_missing_one():
    bob = FakeReadContext(actor=Actor(user_id=2, username="bob"))
    with pytest.raises(LookupError, match="not_found"):
        read("inspect_attachment", {"attachment": "att_BERLINHOTEL01"}, bob)
    with pytest.raises(LookupError, match="not_found"):
        read("inspect_attachment", {"attachment": "att_DOESNOTEXIST"})


# --------------------------------------------------------------------------- registration and demo data


def test_the_app_registers_the_claim_kind_six_acts_and_six_read_only_tools():
    registry = registries.get_registry()

    assert registry.case_kinds["expense_claim"] is EXPENSE_CLAIM
    assert EXPENSE_CLAIM.id_prefix == "clm"
    assert {"open_claim", "add_line", "update_line", "remove_line", "submit_claim",
            "withdraw_claim"} <= set(registry.acts)
    tools = {"get_case", "search_cases", "lookup_policy", "calculate", "exchange_rate", "inspect_attachment"}
    assert tools <= set(registry.read_tools)
    assert all(registry.read_tools[name].declared_mutability == registries.READ_ONLY for name in tools)
    assert {name: str(registry.acts[name].mutability) for name in ACT} == {
        "open_claim": "reversible", "add_line": "reversible", "update_line": "reversible",
        "remove_line": "consequential", "submit_claim": "consequential", "withdraw_claim": "consequential"}
    assert registry.acts["open_claim"].creates_case is True
    assert registry.acts["update_line"].quoted_fields == ("amount", "quantity", "description")


def test_the_demo_claims_replay_through_the_handlers():
    seeded = {}
    for demo in demo_cases():
        case = None
        for act, args in demo.acts:
            case, _ = execute(case, act, args)
        seeded[demo.title] = (demo.owner, summarize(case))

    assert seeded == {
        "Berlin trip": ("alice", "“Berlin trip” · draft · 3 lines · 302.50 EUR"),
        "Lisbon conference": ("alice", "“Lisbon conference” · draft · 3 lines · 448.40 EUR"),
    }


def test_a_claims_state_is_validated_once_per_state_and_an_invalid_one_every_time(monkeypatch):
    """A turn reads the same claim's state about ten times; it is validated once per state (issue 23), and the
    same state in another snapshot, or another key order, is the same claim."""
    from expenses import domain

    calls: list[dict] = []
    validate = domain.ExpenseClaimState.model_validate
    monkeypatch.setattr(domain.ExpenseClaimState, "model_validate",
                        classmethod(lambda cls, value: calls.append(value) or validate(value)))
    monkeypatch.setattr(domain, "_STATES", type(domain._STATES)())
    state = {"title": "Kept", "currency": "EUR", "line_counter": 1,
             "lines": [{"id": "ln_abcd", "date": "2026-12-01", "category": "taxi", "amount": "12.00"}]}
    case = registries.CaseSnapshot(id="clm_KEPT01", kind="expense_claim", owner_id=1, title="Kept", status="draft",
                                   revision=1, state=state)
    first = domain.claim_state(case)
    assert domain.claim_state(dataclasses.replace(case, state=copy.deepcopy(state))) is first
    assert first == validate(state) and len(calls) == 1
    other = dict(reversed(list(state.items())))
    assert domain.claim_state(dataclasses.replace(case, state=other)) == first and len(calls) == 2
    changed = {**state, "lines": [{**state["lines"][0], "amount": "13.00"}]}
    assert domain.claim_state(dataclasses.replace(case, state=changed)).lines[0].amount == "13.00"
    invalid = {**state, "currency": "XYZ"}
    for _ in range(2):
        with pytest.raises(ValidationError):
            domain.claim_state(dataclasses.replace(case, state=invalid))
    assert len(calls) == 5
