"""The ``expense_claim`` case kind: statuses and the pure views of a claim (SPEC §5, I2).

Everything here is a function of the case snapshot alone: what a person and the model see
(lines with their ordinals, the total, what may be done next) never depends on the transcript.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from registries import CaseFigures, CaseKindDefinition, CaseSnapshot, Panel, PanelItem

from .bench import BENCH
from .corpus import CORPUS
from .money import format_money, sum_amounts
from .naming import claim_currency, claim_mentions
from .schemas import CONFIRMATION_THRESHOLD_EUR, KIND, MAX_LINES, STATUSES, ExpenseClaimState, Line

ID_PREFIX = "clm"
INITIAL_STATUS = "draft"
TERMINAL_STATUSES = ("approved", "rejected", "withdrawn")
LOCKED_STATUSES = tuple(status for status in STATUSES if status != INITIAL_STATUS)

_CLOSED_STEPS = {
    "submitted": "The claim is with the approver and can no longer be changed; you can open a new claim.",
    "approved": "The claim was approved and is closed; you can open a new claim.",
    "rejected": "The claim was rejected and is closed; you can open a new claim.",
    "withdrawn": "The claim was withdrawn and is closed; you can open a new claim.",
}


_STATES: OrderedDict[str, ExpenseClaimState] = OrderedDict()
_STATES_LOCK = threading.Lock()
_STATES_KEPT = 256


def claim_state(case: CaseSnapshot) -> ExpenseClaimState:
    """The case's state, validated by the kind's schema: once per state and process. A turn reads the same claim's
    state about ten times (its projection and summary, the next steps, the policy, the handler: 0.4 ms of a message
    + click, issue 23). Kept by the state's ``repr``, which tells any two JSON values apart (a state written in
    another key order is only validated again); the validation reads nothing but the state. The model is frozen
    and shared: its lines are never changed in place (every act builds new ones)."""
    key = repr(case.state)
    with _STATES_LOCK:
        found = _STATES.get(key)
        if found is not None:
            _STATES.move_to_end(key)
            return found
    state = ExpenseClaimState.model_validate(dict(case.state))
    with _STATES_LOCK:
        _STATES[key] = state
        if len(_STATES) > _STATES_KEPT:
            _STATES.popitem(last=False)
    return state


def line_label(line: Line | Mapping[str, Any]) -> str:
    """What a line is called in copy: its merchant, or its category when it has none."""
    merchant = line.merchant if isinstance(line, Line) else line.get("merchant", "")
    category = line.category if isinstance(line, Line) else line.get("category", "other")
    return merchant or str(category).capitalize()


def describe_line(line: Line | Mapping[str, Any], currency: str) -> str:
    """``"Hotel Adlon, 180.00 EUR"``."""
    amount = line.amount if isinstance(line, Line) else line["amount"]
    quantity = line.quantity if isinstance(line, Line) else line.get("quantity")
    each = ""
    if isinstance(quantity, int) and quantity > 1:
        unit = Decimal(str(amount)) / quantity
        each = f" ({quantity} × {unit:.2f})" if unit == unit.quantize(Decimal("0.01")) else f" (for {quantity})"
    description = (line.description if isinstance(line, Line) else line.get("description")) or ""
    what = f"{line_label(line)} — {description}" if description else line_label(line)
    paid_amount, paid_currency = ((line.paid_amount, line.paid_currency) if isinstance(line, Line)
                                  else (line.get("paid_amount"), line.get("paid_currency")))
    paid = (f" ({format_money(paid_amount, paid_currency)} at the reference rate)"
            if paid_amount and paid_currency else "")
    return f"{what}, {format_money(amount, currency)}{paid}{each}"


def claim_total(state: ExpenseClaimState) -> str:
    return str(sum_amounts(line.amount for line in state.lines))


def next_acts(case: CaseSnapshot) -> list[str]:
    """The acts that may be proposed on this claim now, in the order a person would do them."""
    if case.status != INITIAL_STATUS:
        return []
    state = claim_state(case)
    acts = ["add_line"] if len(state.lines) < MAX_LINES else []
    if state.lines:
        acts += ["update_line", "remove_line", "submit_claim"]
    return [*acts, "withdraw_claim"]


def project(case: CaseSnapshot) -> dict[str, Any]:
    """The claim's view: lines with 1-based ordinals, totals, status and what may be done next."""
    state = claim_state(case)
    by_category: dict[str, str] = {}
    for category in dict.fromkeys(line.category for line in state.lines):
        by_category[category] = str(sum_amounts(line.amount for line in state.lines if line.category == category))
    return {
        "id": case.id,
        "kind": KIND,
        "title": state.title,
        "status": case.status,
        "revision": case.revision,
        "currency": state.currency,
        "lines": [{"ordinal": n, **line.model_dump(mode="json")} for n, line in enumerate(state.lines, 1)],
        "line_count": len(state.lines),
        "total": claim_total(state),
        "totals_by_category": by_category,
        "locked": case.status in LOCKED_STATUSES,
        "terminal": case.status in TERMINAL_STATUSES,
        "next_acts": next_acts(case),
        "next_steps": next_steps(case),
    }


def summarize(case: CaseSnapshot) -> str:
    """``'“Berlin trip” · draft · 3 lines · 412.50 EUR'``."""
    state = claim_state(case)
    count = len(state.lines)
    lines = "no lines" if count == 0 else f"{count} line" if count == 1 else f"{count} lines"
    return f"“{state.title}” · {case.status} · {lines} · {format_money(claim_total(state), state.currency)}"


def claim_facts(case: CaseSnapshot) -> CaseFigures:
    """What the claim guard holds an answer about a claim to: its number of lines and its total."""
    state = claim_state(case)
    return CaseFigures(item_count=len(state.lines), total=claim_total(state),
                       item_words=("expense", "expenses"))


def card_detail(case: CaseSnapshot) -> dict[str, str]:
    """Beside a claim's title on a selection card: its total (``302.50 EUR``)."""
    state = claim_state(case)
    total, currency = claim_total(state), state.currency or ""
    return {"total": total, "currency": currency, "summary": f"{total} {currency}".strip()}


def resolve_line(case: CaseSnapshot, ordinal: int) -> str | None:
    """The stable id of the line at 1-based ``ordinal``, or None when there is no such line."""
    lines = claim_state(case).lines
    if isinstance(ordinal, bool) or not 1 <= ordinal <= len(lines):
        return None
    return lines[ordinal - 1].id


def suggestions(cases: Sequence[CaseSnapshot]) -> list[str]:
    """First things to type, about the user's own draft claims (never someone else's, never made up)."""
    drafts = [c for c in cases if c.status == INITIAL_STATUS]
    out = ["What is the hotel limit per night?"]
    if drafts:
        out.append(f"Add a taxi of 23.50 to the {drafts[0].title} claim")
        out.append(f"What's the total of my {drafts[-1].title} claim?")
    else:
        out.append("Open a new claim called Client visit in EUR")
    return out


def panel(case: CaseSnapshot) -> Panel:
    """The claim on the chat page: its lines (who was paid, else what it was, else its category; then its date,
    category and what it was) and its total."""
    state = claim_state(case)
    items = []
    for n, line in enumerate(state.lines, 1):
        label = line.merchant or line.description or line.category.capitalize()
        said = line.description if line.merchant else None
        items.append(PanelItem(ordinal=n, label=label, value=line.amount, meta=" · ".join(
            part for part in (line.date, line.category if label != line.category.capitalize() else "", said) if part)))
    count = len(state.lines)
    return Panel(items=items, item_heading="Expense", value_heading="Amount", empty="No lines yet.",
                 total_label="Total", total=format_money(claim_total(state), state.currency),
                 summary=f"{count} line" if count == 1 else f"{count} lines")


def next_steps(case: CaseSnapshot) -> str:
    """One sentence on what the user can do next (I21)."""
    if case.status != INITIAL_STATUS:
        return _CLOSED_STEPS.get(case.status, "The claim can no longer be changed.")
    lines = claim_state(case).lines
    if not lines:
        return "You can add lines to the claim, or withdraw it."
    if len(lines) >= MAX_LINES:
        return f"The claim holds the maximum of {MAX_LINES} lines; you can change or remove them, or submit it."
    return "You can add lines, change or remove them, or submit the claim."


EXPENSE_CLAIM = CaseKindDefinition(
    name=KIND,
    id_prefix=ID_PREFIX,
    state_schema=ExpenseClaimState,
    statuses=STATUSES,
    initial_status=INITIAL_STATUS,
    terminal_statuses=TERMINAL_STATUSES,
    locked_statuses=LOCKED_STATUSES,
    project=project,
    summarize=summarize,
    resolve_item=resolve_line,
    item_noun="line",
    next_steps=next_steps,
    noun="claim",
    start_hint="You can open a claim (“start a new claim for the Berlin trip in EUR”), add lines, "
               "or ask me about the expense policy.",
    reason_copy={"amount_over_limit": f"over the {CONFIRMATION_THRESHOLD_EUR:.0f} EUR limit"},
    suggestions=suggestions,
    panel=panel,
    corpus=CORPUS,
    bench=BENCH,
    mentions=claim_mentions,
    currency=claim_currency,
    facts=claim_facts,
    card_detail=card_detail,
)
