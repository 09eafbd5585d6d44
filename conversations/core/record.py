"""The turn record: what a turn decided and why (I20), as one versioned schema.

``Turn.acts`` and ``Turn.notices`` are what clients are told (CONTRACT §6); ``Turn.trace`` is why it
happened: the read rounds, the plan as the model wrote it and as parsed, each act's evidence, target and
policy, the commands, events and cards it made, and what it left behind. The runtime writes these
models, the selectors and the admin read them, recovery resumes from them. Pure: no Django import.

Versioning: every trace carries ``version``. A record written before the schema had one (version 0)
is read through ``_upgrade``; fields a newer writer added are kept (``extra="allow"``), never dropped.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from registries.definitions import PolicyDecision, PolicyKind

from .reduction import ActResult, NewCase, Notice

VERSION = 1


class _Record(BaseModel):
    model_config = ConfigDict(extra="allow", validate_assignment=True)


class TurnAct(_Record):
    """One act as the client sees it (CONTRACT §6): the case it landed on, once it has an id."""

    id: str
    act: str
    case: str | None = None
    outcome: str = ""
    code: str | None = None

    @classmethod
    def of(cls, result: ActResult, outcome: str | None = None) -> TurnAct:
        case = result.case if isinstance(result.case, str) else None
        return cls(id=result.id, act=result.act, case=case, outcome=result.outcome if outcome is None else outcome,
                   code=result.code)


class TurnNotice(_Record):
    """Something the user is told beside the receipts: a refusal, a hold, a correction (CONTRACT §6)."""

    code: str
    text: str

    @classmethod
    def of(cls, notice: Notice) -> TurnNotice:
        return cls(code=notice.code, text=notice.text)


class PolicyRecord(_Record):
    kind: PolicyKind
    code: str | None = None

    @classmethod
    def of(cls, decision: PolicyDecision | None) -> PolicyRecord | None:
        return cls(kind=decision.kind, code=decision.code) if decision else None

    def __str__(self) -> str:
        return str(self.kind) if self.kind == PolicyKind.ALLOW else f"{self.kind}:{self.code}"


class ActWhy(_Record):
    """Why one act ran or did not (I20): the reducer's verdict with its evidence, target and policy."""

    id: str
    act: str
    case: str | None = None  # the case id it was resolved to
    new_case_of: str | None = None  # or: the act of this plan whose new case it lands on
    outcome: str = ""
    code: str | None = None
    args: dict[str, Any] = Field(default_factory=dict)
    evidence: str = ""
    target: str = ""  # id | active | match | only_open | new | selection
    policy: PolicyRecord | None = None
    origin: str | None = None

    @classmethod
    def of(cls, result: ActResult) -> ActWhy:
        new = result.case.act_id if isinstance(result.case, NewCase) else None
        return cls(id=result.id, act=result.act, case=result.case if isinstance(result.case, str) else None, new_case_of=new,
                   outcome=result.outcome, code=result.code, args=result.args, evidence=result.evidence,
                   target=result.target, policy=PolicyRecord.of(result.policy), origin=result.origin)

    @model_validator(mode="before")
    @classmethod
    def _version_0(cls, data: Any) -> Any:  # "new:<act id>" and "confirm:<code>" strings
        if isinstance(data, dict):
            data = dict(data)
            if isinstance(data.get("case"), str) and data["case"].startswith("new:"):
                data["new_case_of"] = data.pop("case").removeprefix("new:")
            if isinstance(data.get("policy"), str):
                kind, _, code = data["policy"].partition(":")
                data["policy"] = {"kind": kind, "code": code or None}
        return data


class ClickRecord(_Record):
    interaction: str
    option: str


class RoundSummary(_Record):
    round: int
    provider: str = ""
    status: str = ""


class TurnEnd(_Record):
    """What a finished turn left: the active case after it, and the question it left open (None: none)."""

    active_case: str | None = None
    pending: dict[str, Any] | None = None


class TurnTrace(_Record):
    version: int = VERSION
    click: ClickRecord | None = None  # a click turn: the card and the option chosen
    rounds: list[RoundSummary] = Field(default_factory=list)
    plan_raw: Any = None  # what the model wrote (text or JSON), kept as received
    plan: dict[str, Any] | None = None  # the plan as parsed (UserTurnPlan, JSON form)
    acts: list[ActWhy] = Field(default_factory=list)
    notices: list[str] = Field(default_factory=list)  # the reducer's notice codes
    command_ids: list[str] = Field(default_factory=list)
    settled_command_ids: list[str] = Field(default_factory=list)  # recorded here: recovery skips them
    event_ids: list[str] = Field(default_factory=list)
    interaction_ids: list[str] = Field(default_factory=list)
    fact_checks: list[str] = Field(default_factory=list)  # why an answer was replaced by the facts
    ending: str | None = None  # a turn that ended without running a plan: why (stopped, plan_rejected, …)
    detail: Any = None
    provider_failure: str | None = None
    recovered: bool = False
    end: TurnEnd | None = None  # set when the turn is delivered or failed

    @model_validator(mode="before")
    @classmethod
    def _upgrade(cls, data: Any) -> Any:
        if isinstance(data, dict) and "version" not in data:  # version 0: flat keys, no version
            data = dict(data)
            if "raw" in data and "plan_raw" not in data:
                data["plan_raw"] = data.pop("raw")
            if "active_case_after" in data:
                data["end"] = {"active_case": data.pop("active_case_after"), "pending": data.pop("pending", None)}
            data["version"] = VERSION
        return data

    def settle(self, command_id: str, event_ids: list[str]) -> None:
        """Record one command's outcome: its events, and that it is settled (recovery will not rerun it)."""
        self.event_ids = list(dict.fromkeys([*self.event_ids, *event_ids]))
        if command_id not in self.command_ids:
            self.command_ids = [*self.command_ids, command_id]
        self.settled_command_ids = [*self.settled_command_ids, command_id]
