"""Policies of the expense acts (SPEC §13 stage 5, CONTRACT §3).

Each act's policy is a pure function ``(case | None, validated args) -> PolicyDecision``:

- ``case_locked``: any act on a claim that is no longer a draft is denied;
- ``amount_over_limit``: a line amount worth more than 1000 EUR at the reference rate needs a
  confirmation (an amount that cannot be converted needs one too: the rule fails closed);
- ``claim_empty``: a claim with no lines cannot be submitted;
- ``over_policy_limit`` (advice, the act still runs): a line above its category's limit in the
  expense policy (a hotel night over 180 EUR, meals over 60 EUR a day, a taxi ride over 50 EUR)
  gets a notice in the reply saying what the policy asks for.
"""

from __future__ import annotations

from decimal import Decimal

from pydantic import BaseModel

from registries import CaseSnapshot, PolicyDecision

from .domain import LOCKED_STATUSES
from .exchange import to_reference_base
from .schemas import CONFIRMATION_THRESHOLD_EUR


def case_locked(case: CaseSnapshot) -> PolicyDecision | None:
    """Deny with ``case_locked`` when the claim is submitted, approved, rejected or withdrawn."""
    return PolicyDecision.deny("case_locked") if case.status in LOCKED_STATUSES else None


def amount_over_limit(case: CaseSnapshot, amount: str | None) -> PolicyDecision | None:
    """Ask for confirmation when ``amount`` (in the claim's currency) exceeds 1000 EUR."""
    if amount is None:
        return None
    try:
        in_eur = to_reference_base(Decimal(amount), str(case.state.get("currency", "")))
    except LookupError:
        return PolicyDecision.confirm("amount_over_limit")
    return PolicyDecision.confirm("amount_over_limit") if in_eur > CONFIRMATION_THRESHOLD_EUR else None


def open_claim_policy(case: CaseSnapshot | None, args: BaseModel) -> PolicyDecision:
    """Opening a claim touches no existing case: always allowed."""
    return PolicyDecision.allow()


# the expense policy's per-category limits in EUR (knowledge/expense-policy.md) and what it asks for above them
CATEGORY_LIMITS: dict[str, tuple[Decimal, str]] = {
    "hotel": (Decimal("180"), "the policy reimburses hotels up to 180 EUR per night (250 EUR in London, Zurich, "
                              "Geneva, Oslo and New York); a night above it needs your manager's written approval, "
                              "attached to the claim"),
    "meals": (Decimal("60"), "the policy reimburses meals up to 60 EUR per day per person, alcohol excluded"),
    "taxi": (Decimal("50"), "taxi rides above 50 EUR need a short note of the route and the reason"),
}


def category_limit_notes(case: CaseSnapshot, args: BaseModel) -> tuple[tuple[str, str], ...]:
    """Advice when the line this act leaves is above its category's limit (meals: per day, all meal lines)."""
    lines = list(case.state.get("lines") or [])
    ordinal = getattr(args, "line", None)
    before = lines[ordinal - 1] if isinstance(ordinal, int) and 1 <= ordinal <= len(lines) else {}
    category = getattr(args, "category", None) or before.get("category")
    amount = getattr(args, "amount", None) or before.get("amount")
    if category not in CATEGORY_LIMITS or amount is None:
        return ()
    limit, rule = CATEGORY_LIMITS[category]
    currency = str(case.state.get("currency", "EUR"))
    day = getattr(args, "date", None) or before.get("date")
    quantity = getattr(args, "quantity", None) or before.get("quantity") or 1
    total = Decimal(amount) / quantity if category != "meals" else Decimal(amount)  # per night, per ride
    if category == "meals" and day:
        total += sum((Decimal(line["amount"]) for n, line in enumerate(lines, 1)
                      if line.get("category") == "meals" and line.get("date") == day and n != ordinal), Decimal(0))
    try:
        in_eur = to_reference_base(total, currency)
    except LookupError:
        return ()
    if in_eur <= limit:
        return ()
    if category == "meals" and total != Decimal(amount):
        what = f"meals on that day come to {total:.2f} {currency}"
    elif quantity > 1:
        unit = {"hotel": "night", "taxi": "ride"}.get(category, "unit")
        what = (f"{total:.2f} {currency} a {unit} ({quantity} {unit}s, {Decimal(amount):.2f} {currency}) is above "
                f"the {category} limit")
    else:
        what = f"{Decimal(amount):.2f} {currency} is above the {category} limit"
    return (("over_policy_limit", f"Note: {what}: {rule}."),)


def line_amount_policy(case: CaseSnapshot | None, args: BaseModel) -> PolicyDecision:
    """``add_line`` / ``update_line``: the claim must be a draft; large amounts need confirmation; a line
    above its category's limit is noted."""
    if case is None:
        return PolicyDecision.deny("target_not_found")
    if denied := case_locked(case):
        return denied
    notes = category_limit_notes(case, args)
    confirm = amount_over_limit(case, getattr(args, "amount", None))
    if confirm is not None:
        return PolicyDecision.confirm(confirm.code or "amount_over_limit", notes)
    return PolicyDecision.allow(notes)


def draft_only_policy(case: CaseSnapshot | None, args: BaseModel) -> PolicyDecision:
    """``remove_line`` / ``withdraw_claim``: allowed on a draft claim only."""
    if case is None:
        return PolicyDecision.deny("target_not_found")
    return case_locked(case) or PolicyDecision.allow()


def submit_claim_policy(case: CaseSnapshot | None, args: BaseModel) -> PolicyDecision:
    """``submit_claim``: a draft claim with at least one line."""
    if case is None:
        return PolicyDecision.deny("target_not_found")
    if denied := case_locked(case):
        return denied
    if not case.state.get("lines"):
        return PolicyDecision.deny("claim_empty")
    return PolicyDecision.allow()
