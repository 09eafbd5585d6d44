"""What the engine used to know about expenses now comes from the domain (issue 21, 5): the approver
destination is registered by ``expenses``, a card's detail and the fact check's figures by the case kind."""

from __future__ import annotations

from conversations.core.facts import CaseFacts, check_facts
from conversations.outbox import DemoInbox, destination_for
from registries import CaseSnapshot, get_registry


def test_the_approver_is_the_expense_domains_and_the_demo_inbox_receives_without_a_url(settings) -> None:
    from expenses.approver import HttpApprover

    settings.TURNFRAME = {**settings.TURNFRAME, "APPROVER_URL": None}
    assert isinstance(destination_for("approver"), DemoInbox)
    settings.TURNFRAME = {**settings.TURNFRAME, "APPROVER_URL": "http://127.0.0.1:9/approvals"}
    assert isinstance(destination_for("approver"), HttpApprover)
    assert destination_for("nobody_registered_this") is None


def _claim(lines: int) -> CaseSnapshot:
    state = {"title": "Berlin trip", "currency": "EUR", "line_counter": lines, "lines": [
        {"id": f"ln_000{n}", "date": f"2026-01-0{n}", "merchant": "DB", "category": "travel", "amount": "10.00"}
        for n in range(1, lines + 1)]}
    return CaseSnapshot("clm_X", "expense_claim", 1, "Berlin trip", "draft", lines + 1, state)


def test_a_selection_card_shows_the_summary_its_case_kind_gives() -> None:
    kind = get_registry().case_kinds["expense_claim"]
    assert kind.card_detail(_claim(2)) == {"total": "20.00", "currency": "EUR", "summary": "20.00 EUR"}


def test_the_fact_check_counts_items_in_the_kinds_words() -> None:
    kind = get_registry().case_kinds["expense_claim"]
    figures = kind.facts(_claim(2))
    facts = [CaseFacts("clm_X", "Berlin trip", figures.item_count, figures.total or "", "“Berlin trip” · 2 lines",
                       figures.item_words)]
    assert check_facts("“Berlin trip” has 3 expenses.", facts).corrected
    assert not check_facts("“Berlin trip” has 2 expenses.", facts).corrected
    # a kind that does not count its items as "expenses" is not held to that word
    assert not check_facts("“Berlin trip” has 3 expenses.", [CaseFacts("clm_X", "Berlin trip", 2, "20.00", "s")]).corrected
