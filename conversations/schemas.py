"""The HTTP API's request bodies and the schemas of its answers (CONTRACT §6)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from ninja import Schema
from pydantic import ConfigDict, Field, StrictFloat, StrictInt, StringConstraints, WithJsonSchema

from turnframe_web.schemas import Out

from .core.text import StorableStr


class Body(Schema):
    model_config = ConfigDict(extra="forbid")


# every string field is a ``StorableStr``: NUL and lone surrogates are 422 ``invalid_request`` (core.text)


class Credentials(Body):
    username: StorableStr = Field(min_length=1, max_length=150)
    password: StorableStr = Field(min_length=1, max_length=500)


class ConversationIn(Body):
    mode: StorableStr | None = None


class ConversationPatch(Body):
    title: StorableStr = Field(max_length=200)


class MessageIn(Body):
    text: StorableStr = Field(max_length=1_000_000)
    client_message_id: StorableStr | None = Field(default=None, min_length=1, max_length=100)


# the person's values for a confirmation card's editable arguments (``{"amount": "95.00"}``); the act's own
# schema judges them (core.review), this only bounds their size
EditName = Annotated[StorableStr, Field(min_length=1, max_length=64)]
EditValue = Annotated[StorableStr, StringConstraints(max_length=500)] | StrictInt | StrictFloat | None
Edits = Annotated[dict[EditName, EditValue], Field(max_length=20)]


class RespondIn(Body):
    option: StorableStr = Field(min_length=1, max_length=64)
    client_response_id: StorableStr | None = Field(default=None, min_length=1, max_length=100)
    edits: Edits | None = None


# --------------------------------------------------------------------------- responses
#
# What the HTTP API answers (CONTRACT §6), as the OpenAPI at /api/docs documents it. The selectors build
# the JSON (the socket sends the same objects); these schemas declare it. The routers serialize with
# ``exclude_unset``: a key a selector leaves out stays out, so the wire is what the selector built.

# an ISO 8601 date-time as the selectors write it (``datetime.isoformat()``), kept as that text
Timestamp = Annotated[str, WithJsonSchema({"type": "string", "format": "date-time"})]


class HealthOut(Out):
    status: str
    mode: str
    provider: str


class UsernameOut(Out):
    username: str


class StatusOut(Out):
    status: str


class TokenOut(Out):
    token: str = Field(description="Shown once: only its hash is stored.")
    expires_at: datetime | None = Field(description="None: it never expires (TURNFRAME_TOKEN_TTL_DAYS=0).")


class RevokedOut(Out):
    revoked: int = Field(description="How many live tokens were revoked.")


class ConversationOut(Out):
    id: str
    mode: str
    active_case: str | None
    created_at: Timestamp
    title: str | None
    label: str | None = Field(default=None, description="In lists: its name, else its first message, shortened.")


class OriginOut(Out):
    """Why a command ran: ``direct_user_act``, ``confirmed_interaction`` (with ``interaction``),
    ``internal_policy``, or ``none`` while it awaits a click."""

    kind: str
    interaction: str | None = None
    option: str | None = None
    user: int | None = None
    evidence: str | None = Field(default=None, description="direct_user_act: the words of the message it acted on")
    edits: list[dict[str, Any]] | None = Field(default=None, description="the person's changes to its arguments "
                                               "before confirming: [{by, user, interaction, changes}]")
    reason: str | None = Field(default=None, description="internal_policy: why")


class ReadRequestOut(Out):
    tool: str
    args: dict[str, Any]


class ReadResultOut(Out):
    tool: str
    ok: bool
    result: Any = None
    error: str | None = Field(default=None, description="when not ok: read_timeout, not_found, invalid_arguments, …")
    detail: str | None = None


class ReadRoundOut(Out):
    round: int
    status: str = Field(description="ok | rejected")
    requests: list[ReadRequestOut]
    results: list[ReadResultOut]
    error: str | None
    provider: str


class TurnActOut(Out):
    id: str
    act: str
    case: str | None
    outcome: str
    code: str | None


class TurnCommandOut(Out):
    id: str
    act: str
    case: str | None
    status: str
    origin: OriginOut


class TurnEventOut(Out):
    id: str
    type: str
    case: str | None
    revision: int


class NoticeOut(Out):
    code: str
    text: str


class ReplyBlockOut(Out):
    kind: str = Field(description="receipt | notice | interaction | answer | say | ask")
    text: str
    code: str | None = None
    event: str | None = None
    interaction: str | None = None
    interactions: list[str] | None = Field(default=None, description="ask: the open cards it waits for")


class ReplyOut(Out):
    blocks: list[ReplyBlockOut]
    fact_checks: list[str] | None = None


class OptionOut(Out):
    id: str
    label: str
    detail: dict[str, Any] | None = Field(default=None, description="a selection's candidate: its status, …")


class CardCommandOut(Out):
    id: str
    act: str
    args: dict[str, Any]
    status: str
    editable_fields: list[str]


class InteractionOut(Out):
    id: str
    kind: str = Field(description="confirmation | selection")
    status: str = Field(description="pending | resolving | resolved | declined | stale | superseded | expired")
    case: str | None
    case_revision: int | None
    expires_at: Timestamp | None
    prompt: str
    options: list[OptionOut]
    commands: list[CardCommandOut]
    candidates: list[Any]
    chosen_option: str | None
    conversation: str | None
    turn: str | None
    created_at: Timestamp | None


class TurnOut(Out):
    id: str
    conversation: str
    kind: str
    status: str = Field(description="queued | running | completed | failed")
    phase: str
    text: str
    replayed: bool
    client_message_id: str | None
    interaction: str | None
    option: str | None
    read_rounds: list[ReadRoundOut]
    acts: list[TurnActOut]
    commands: list[TurnCommandOut]
    events: list[TurnEventOut]
    interactions: list[InteractionOut]
    notices: list[NoticeOut]
    reply: ReplyOut
    active_case: str | None
    created_at: Timestamp
    stop_requested: bool
    withdrawn: bool


class ConversationDetailOut(ConversationOut):
    turns: list[TurnOut]
    pending_interactions: list[InteractionOut]


class StopOut(Out):
    stopped: bool
    withdrawn: bool
    message: str
    turn: TurnOut


class RespondOut(Out):
    interaction: InteractionOut
    turn: TurnOut


class CaseOut(Out):
    id: str
    kind: str
    title: str
    status: str
    revision: int


class PanelFieldOut(Out):
    label: str
    value: str


class PanelItemOut(Out):
    ordinal: int
    label: str
    meta: str
    value: str


class PanelOut(Out):
    """How the page shows a case (``registries.Panel``), with the kind's noun."""

    noun: str
    terminal: bool
    fields: list[PanelFieldOut]
    items: list[PanelItemOut]
    item_heading: str
    value_heading: str
    empty: str
    total_label: str
    total: str
    summary: str


class CaseDetailOut(CaseOut):
    state: dict[str, Any]
    view: dict[str, Any]
    panel: PanelOut


class EventOut(Out):
    id: str
    type: str
    revision: int
    data: dict[str, Any]
    command: str | None
    created_at: Timestamp


class JournalEntryOut(Out):
    id: str
    idempotency_key: str
    act: str
    case: str | None
    status: str
    origin: OriginOut
    expected_revision: int | None
    turn: str | None
    interaction: str | None
    args: dict[str, Any]
    code: str | None
    created_at: Timestamp
