"""What a provider is given for one model call (SPEC §7.1): plain data, no Django."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class OfferedTool:
    name: str
    description: str
    args_schema: dict[str, Any]  # JSON schema


@dataclass(frozen=True, slots=True)
class OfferedAct:
    name: str
    case_kind: str
    description: str
    mutability: str
    args_schema: dict[str, Any]  # JSON schema
    creates_case: bool = False


@dataclass(frozen=True, slots=True)
class CaseSummary:
    id: str
    kind: str
    title: str
    status: str
    revision: int
    summary: str
    view: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One completed read round as the model sees it on its next call."""

    round: int
    status: str  # "ok" | "rejected"
    requests: list[dict[str, Any]]
    results: list[dict[str, Any]]  # {"tool","ok",...,"result"|"error"}
    error: str | None = None  # why a rejected batch ran nothing


@dataclass(frozen=True, slots=True)
class ModelRequest:
    """Everything a provider receives for one call. Providers return the model's answer text."""

    message: str
    mode: str  # deterministic | read_agentic | controlled_agentic | sandboxed_autonomous
    today: str  # ISO date in the user's timezone
    timezone: str
    username: str
    active_case: str | None
    cases: list[CaseSummary]
    read_tools: list[OfferedTool]  # empty in deterministic mode
    acts: list[OfferedAct]  # empty in read_agentic mode
    rounds: list[RoundRecord]  # previous read rounds of this turn
    excerpt: list[dict[str, str]] = field(default_factory=list)  # recent {"role","text"}
    repair_error: str | None = None  # set on the one repair call after a schema error
    rounds_left: int = 0
    calls_left: int = 0
    # the question the previous reply left open (server state, SPEC §7.1 conversation context):
    # {"question", "act", "case", "args", "missing", "options", "message": the user's text it was about}
    pending: dict[str, Any] | None = None
    # what the previous turns of this conversation committed, newest last:
    # [{"act", "case", "event", "data"}] (the event's data names its item, e.g. "line_id"): what "that one", "make that 18" refer to
    recent: list[dict[str, Any]] = field(default_factory=list)
    # the conversation's cards still waiting for a click: [{"id", "kind", "case"}] (typed text never answers one)
    open_cards: list[dict[str, Any]] = field(default_factory=list)

    @property
    def reads_allowed(self) -> bool:
        return bool(self.read_tools) and self.rounds_left > 0 and self.calls_left > 0
