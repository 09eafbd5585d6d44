"""What the TurnReducer (SPEC §13) takes and gives, as plain data: the facts it is handed, the validated plan,
and the reduction — an outcome per act, the commands, cards and notices. No logic beyond (de)serialising.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from registries.definitions import Actor, CaseSnapshot, PolicyDecision, Registry

from .plan import CaseRef, UserTurnPlan


class Outcome(enum.StrEnum):
    """What became of one proposed act (CONTRACT §6 ``acts[].outcome``)."""

    UNDECIDED = ""  # not decided yet (while the reducer runs; never an act's final outcome)
    EXECUTED = "executed"
    AWAITING_CONFIRMATION = "awaiting_confirmation"
    AWAITING_SELECTION = "awaiting_selection"
    HELD = "held"
    RETRACTED = "retracted"
    SUPERSEDED = "superseded"
    REFUSED = "refused"
    CONFLICT = "conflict"
    OUTCOME_UNKNOWN = "outcome_unknown"
    DECLINED = "declined"
    STALE = "stale"


ALL_OUTCOMES = frozenset(o for o in Outcome if o is not Outcome.UNDECIDED)


@dataclass(frozen=True, slots=True)
class NewCase:
    """The case an earlier act of the same plan opens: it has no id until that act's command commits."""

    act_id: str

    def __str__(self) -> str:  # how keys and the audit record spell it
        return f"new:{self.act_id}"


type CaseTarget = str | NewCase  # a case id, or the case an act of this plan opens


class PlanInvalid(Exception):
    """Stage 1 failed: the whole plan is rejected, nothing runs."""


@dataclass(frozen=True, slots=True)
class ValidatedAct:
    id: str
    act: str
    ref: CaseRef | None
    args: dict[str, Any]  # validated, JSON form, corrections applied
    evidence: str
    corrected_by: str | None = None  # the correction's evidence, when one replaced arguments
    corrected_fields: tuple[str, ...] = ()
    earlier_evidence: str | None = None  # a quote of the message the pending question was about
    undo_of: str | None = None  # the event this server-derived inverse reverses ("undo that")

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "act": self.act, "ref": self.ref.model_dump(exclude_none=True) if self.ref else None,
                "args": self.args, "evidence": self.evidence, "corrected_by": self.corrected_by,
                "corrected_fields": list(self.corrected_fields), "earlier_evidence": self.earlier_evidence,
                "undo_of": self.undo_of}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ValidatedAct:
        ref = CaseRef.model_validate(data["ref"]) if data.get("ref") else None
        return cls(id=data["id"], act=data["act"], ref=ref, args=dict(data["args"]), evidence=data["evidence"],
                   corrected_by=data.get("corrected_by"), corrected_fields=tuple(data.get("corrected_fields", ())),
                   earlier_evidence=data.get("earlier_evidence"), undo_of=data.get("undo_of"))


@dataclass(frozen=True, slots=True)
class ValidatedPlan:
    plan: UserTurnPlan
    acts: tuple[ValidatedAct, ...]


@dataclass(slots=True)
class ActResult:
    """The reducer's verdict on one proposed act, and the trace of why (I20)."""

    id: str
    act: str
    outcome: str
    code: str | None = None
    case: CaseTarget | None = None
    args: dict[str, Any] = field(default_factory=dict)
    evidence: str = ""
    target: str = ""  # how the case was found: id | active | match | only_open | new | selection
    policy: PolicyDecision | None = None  # what the act's policy decided (its kind and code)
    origin: str | None = None  # direct_user_act for commands that run now


@dataclass(frozen=True, slots=True)
class PlannedCommand:
    act_id: str
    act: str
    case: CaseTarget | None  # None: the command creates its case
    args: dict[str, Any]
    expected_revision: int
    sequence: int
    needs_confirmation: bool
    evidence: str
    preview: CaseSnapshot | None = None  # the case as this command will find it (cards are described on it)
    # the person's edits this command carries (a card redrawn for edited values): kept on its journal row
    edits: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class PlannedConfirmation:
    case: CaseTarget
    bound_revision: int
    act_ids: tuple[str, ...]
    codes: tuple[str, ...]  # policy codes that asked for it (empty: mutability did)


@dataclass(frozen=True, slots=True)
class PlannedSelection:
    reference: str  # what the user said, e.g. "match:Berlin" or "active"
    case_kind: str
    candidates: tuple[str, ...]
    held_acts: tuple[ValidatedAct, ...]
    said: str = ""  # the user's words that named a case the act did not target (grounding), for the card


@dataclass(frozen=True, slots=True)
class Notice:
    code: str
    text: str
    act: str | None = None


@dataclass(slots=True)
class Reduction:
    acts: list[ActResult] = field(default_factory=list)
    commands: list[PlannedCommand] = field(default_factory=list)
    confirmations: list[PlannedConfirmation] = field(default_factory=list)
    selections: list[PlannedSelection] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class TurnFacts:
    """Everything the reducer needs, loaded beforehand."""

    message: str
    mode: str
    actor: Actor
    today: str
    registry: Registry  # the acts on offer for this turn (disabled ones already removed)
    cases: Mapping[str, CaseSnapshot]  # cases the actor may touch, by id
    active_case: str | None
    # the user's own earlier message that the conversation's pending question is about (server state,
    # never model text): an act's ``earlier_evidence`` must quote it; None when no question is pending
    earlier_message: str | None = None
    # the conversation's last committed command, for "undo that": {"act", "case", "event", "data",
    # "direct"} (direct: it ran under direct_user_act); None when there is none
    last_edit: Mapping[str, Any] | None = None
