"""Policies of the expense acts (SPEC §13 stage 5, CONTRACT §3).

Each act's policy is a pure function ``(case | None, validated args) -> PolicyDecision``:

- ``case_locked``: any act on a claim that is no longer a draft is denied;
- ``amount_over_limit``: a line amount worth more than 1000 EUR at the reference rate needs a
  confirmation (an amount that cannot be converted needs one too: the rule fails closed);
- ``claim_empty``: a claim with no lines cannot be submitted.
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


def line_amount_policy(case: CaseSnapshot | None, args: BaseModel) -> PolicyDecision:
    """``add_line`` / ``update_line``: the claim must be a draft; large amounts need confirmation."""
    if case is None:
        return PolicyDecision.deny("target_not_found")
    return case_locked(case) or amount_over_limit(case, getattr(args, "amount", None)) or PolicyDecision.allow()


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
