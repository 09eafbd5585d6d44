"""Policies of the trip acts: pure ``(case | None, validated args) -> PolicyDecision``.

- ``case_locked``: any act on a cancelled trip is denied (cancelling is terminal);
- ``too_many_travellers``: a trip holds at most nine travellers;
- ``flight_change`` (advice, the act still runs once confirmed): rebooking a flight says the fare rules
  may charge a change fee.
"""

from __future__ import annotations

from pydantic import BaseModel

from registries import CaseSnapshot, PolicyDecision

from .domain import LOCKED_STATUSES, trip_state
from .schemas import MAX_TRAVELLERS

FLIGHT_CHANGE_NOTE = ("flight_change", "Flight changes may carry a change fee under the fare rules "
                                       "(economy light: not changeable; economy classic: 70 EUR).")


def _locked(case: CaseSnapshot | None) -> PolicyDecision | None:
    return PolicyDecision.deny("case_locked") if case is not None and case.status in LOCKED_STATUSES else None


def open_trip_policy(case: CaseSnapshot | None, args: BaseModel) -> PolicyDecision:
    return PolicyDecision.allow()


def open_only_policy(case: CaseSnapshot | None, args: BaseModel) -> PolicyDecision:
    return _locked(case) or PolicyDecision.allow()


def add_traveller_policy(case: CaseSnapshot | None, args: BaseModel) -> PolicyDecision:
    if (denied := _locked(case)) is not None:
        return denied
    if case is not None and len(trip_state(case).travellers) >= MAX_TRAVELLERS:
        return PolicyDecision.deny("too_many_travellers")
    return PolicyDecision.allow()


def rebook_segment_policy(case: CaseSnapshot | None, args: BaseModel) -> PolicyDecision:
    if (denied := _locked(case)) is not None:
        return denied
    ordinal = getattr(args, "segment", None)
    segments = trip_state(case).segments if case is not None else []
    flight = isinstance(ordinal, int) and 1 <= ordinal <= len(segments) and segments[ordinal - 1].mode == "flight"
    return PolicyDecision.allow(notes=(FLIGHT_CHANGE_NOTE,) if flight else ())
