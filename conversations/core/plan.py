"""Model answers (CONTRACT §2): a batch of read requests or one UserTurnPlan.

One parser for every provider's text. Strict JSON, pydantic models with ``extra="forbid"``.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .text import unstorable_parts


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ReadRequest(Strict):
    tool: str = Field(min_length=1, max_length=100)
    args: dict[str, Any] = Field(default_factory=dict)


class CaseRef(Strict):
    id: str | None = None
    active: bool | None = None
    match: str | None = Field(default=None, min_length=1, max_length=200)

    @model_validator(mode="after")
    def _exactly_one(self) -> CaseRef:
        given = [k for k in ("id", "active", "match") if getattr(self, k) not in (None, False)]
        if len(given) != 1:
            raise ValueError("a case reference names exactly one of id, active (true) or match")
        return self


SERVER_ACT_ID_PREFIX = "~"  # ids the server gives the acts it derives itself ("undo that"); no plan may use one


class PlannedAct(Strict):
    id: str = Field(min_length=1, max_length=40, pattern=r"^[^~]")
    act: str = Field(min_length=1, max_length=100)
    case: CaseRef | None = None
    args: dict[str, Any] = Field(default_factory=dict)
    evidence: str = Field(min_length=1, max_length=2000)
    # a verbatim quote of the earlier message the conversation's pending question is about ("add 45 for
    # the thing at the station" before "taxi"): quoted arguments may come from it; valid only while the
    # server holds that pending question, and ``evidence`` must still quote this message
    earlier_evidence: str | None = Field(default=None, min_length=1, max_length=2000)


class PendingQuestion(Strict):
    """What the reply asks the user to complete ("How much was the taxi?"): the server keeps it as
    conversation state for the next message, with that message's own text, and hands it to the model."""

    question: str = Field(min_length=1, max_length=2000)
    act: str | None = Field(default=None, max_length=100)
    case: CaseRef | None = None
    args: dict[str, Any] = Field(default_factory=dict)
    missing: list[str] = Field(default_factory=list, max_length=10)
    options: list[str] = Field(default_factory=list, max_length=20)
    # the words of the message the question is about, when that message told more than one thing ("dinner 45 and a
    # taxi back to the hotel": "a taxi back to the hotel"): the answer completes those words, never the rest
    about: str | None = Field(default=None, min_length=1, max_length=2000)


class Undo(Strict):
    """"undo that": the server reverses the conversation's last direct edit from its committed event."""

    evidence: str = Field(min_length=1, max_length=2000)


class Retraction(Strict):
    act: str = Field(min_length=1, max_length=40)
    evidence: str = Field(min_length=1, max_length=2000)


class Correction(Strict):
    act: str = Field(min_length=1, max_length=40)
    args: dict[str, Any]
    evidence: str = Field(min_length=1, max_length=2000)


class Constraint(Strict):
    """``hold``: the acts it covers do not run this turn ("don't submit anything yet"). ``confirm``: they wait for
    the user's yes on a card, because the provider is not sure of its reading (``evidence`` quotes the words it
    could not place); never a weaker step than running them."""

    kind: Literal["hold", "confirm"]
    acts: list[str] = Field(min_length=1)
    evidence: str = Field(min_length=1, max_length=2000)


class Answer(Strict):
    question: str = Field(default="", max_length=2000)
    text: str = Field(min_length=1, max_length=8000)


class UserTurnPlan(Strict):
    acts: list[PlannedAct] = Field(default_factory=list, max_length=20)
    retractions: list[Retraction] = Field(default_factory=list)
    corrections: list[Correction] = Field(default_factory=list)
    constraints: list[Constraint] = Field(default_factory=list)
    answers: list[Answer] = Field(default_factory=list)
    say: str | None = Field(default=None, max_length=8000)
    pending: PendingQuestion | None = None
    undo: Undo | None = None


class ReadBatch(Strict):
    reads: list[ReadRequest] = Field(min_length=1, max_length=32)


class PlanAnswer(Strict):
    plan: UserTurnPlan


class MalformedAnswer(Exception):
    """The text is not one JSON object of either answer shape: a provider failure (SPEC §7.2)."""


class PlanSchemaError(Exception):
    """The text is a plan (or read batch) whose contents fail the schema: eligible for repair."""

    def __init__(self, message: str, kind: str):
        super().__init__(message)
        self.kind = kind  # "plan" | "reads"


def parse_model_answer(text: str) -> ReadBatch | UserTurnPlan:
    """Parse a model's text. Raises MalformedAnswer or PlanSchemaError; never returns a partial."""
    try:
        data = json.loads(_strip_fence(text))
    except (TypeError, ValueError) as exc:
        raise MalformedAnswer(f"not JSON: {exc}") from None
    if not isinstance(data, dict) or len(data) != 1 or next(iter(data)) not in ("reads", "plan"):
        raise MalformedAnswer('expected exactly one of {"reads": [...]} or {"plan": {...}}')
    try:
        if "reads" in data:
            return ReadBatch.model_validate(data)
        return PlanAnswer.model_validate(data).plan
    except ValidationError as exc:
        raise PlanSchemaError(_errors(exc), "reads" if "reads" in data else "plan") from None


def refuse_unstorable(answer: ReadBatch | UserTurnPlan) -> None:
    """A NUL or a lone UTF-16 surrogate in any string of a parsed answer means nothing and no database
    stores it alike (``core.text``, the one judge of that for HTTP, the socket and this parser): the
    runtime refuses the answer whole, as a schema error, before anything of it is recorded or run."""
    found = next(unstorable_parts(answer.model_dump()), None)
    if found is not None:
        loc, reason = found
        raise PlanSchemaError(f"{'.'.join(str(p) for p in loc) or '(root)'}: {reason}; strings may not contain "
                              "NUL (\\u0000) or lone surrogates", "reads" if isinstance(answer, ReadBatch) else "plan")


def _strip_fence(text: str) -> str:
    """Models sometimes wrap JSON in a Markdown code fence; accept exactly that and nothing looser."""
    t = (text or "").strip()
    if t.startswith("```") and t.endswith("```"):
        t = t[3:-3]
        if t.startswith("json"):
            t = t[4:]
    return t


def _errors(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}" for e in exc.errors(include_url=False)
    )
