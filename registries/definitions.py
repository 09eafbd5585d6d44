"""The registry's definition types: plain data, no Django import.

A domain app describes its case kinds, read tools and acts with these types and hands them to
``registries.register_*`` from its ``AppConfig.ready()``. The pure core (``conversations.core``)
reads them as plain data; the runtime calls their functions.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel


class ActMutability(enum.StrEnum):
    """How much an act changes the world (SPEC §21.2)."""

    REVERSIBLE = "reversible"
    CONSEQUENTIAL = "consequential"
    IRREVERSIBLE = "irreversible"


READ_ONLY = "read_only"
"""The only mutability a read tool may declare (SPEC §21.1)."""


class Mode(enum.StrEnum):
    """The orchestration modes of SPEC §3, each with what it lets a turn do."""

    DETERMINISTIC = "deterministic"
    READ_AGENTIC = "read_agentic"
    CONTROLLED_AGENTIC = "controlled_agentic"
    SANDBOXED_AUTONOMOUS = "sandboxed_autonomous"

    @property
    def capabilities(self) -> frozenset[str]:
        """``reads`` (the read loop), ``acts`` (proposing acts), ``autonomous`` (no confirmation for sandboxed acts)."""
        return {
            Mode.DETERMINISTIC: frozenset({"acts"}),
            Mode.READ_AGENTIC: frozenset({"reads"}),
            Mode.CONTROLLED_AGENTIC: frozenset({"reads", "acts"}),
            Mode.SANDBOXED_AUTONOMOUS: frozenset({"reads", "acts", "autonomous"}),
        }[self]

    @property
    def reads(self) -> bool:
        return "reads" in self.capabilities

    @property
    def acts(self) -> bool:
        return "acts" in self.capabilities

    def narrows(self, deployment: str) -> bool:
        """A conversation may narrow the deployment's mode, never widen it."""
        return deployment in Mode.__members__.values() and self.capabilities <= Mode(deployment).capabilities


class PolicyKind(enum.StrEnum):
    ALLOW = "allow"
    CONFIRM = "confirm"
    DENY = "deny"


@dataclass(frozen=True, slots=True)
class PolicyDecision:
    kind: PolicyKind
    code: str | None = None
    # advice that does not stop the act: (code, server copy) notices for the reply, e.g. a hotel night
    # over the per-night limit ("over_policy_limit")
    notes: tuple[tuple[str, str], ...] = ()

    @classmethod
    def allow(cls, notes: tuple[tuple[str, str], ...] = ()) -> PolicyDecision:
        return cls(PolicyKind.ALLOW, notes=notes)

    @classmethod
    def confirm(cls, code: str, notes: tuple[tuple[str, str], ...] = ()) -> PolicyDecision:
        return cls(PolicyKind.CONFIRM, code, notes)

    @classmethod
    def deny(cls, code: str) -> PolicyDecision:
        return cls(PolicyKind.DENY, code)


@dataclass(frozen=True, slots=True)
class CaseSnapshot:
    """A loaded case as plain data: what the reducer, policies and handlers see."""

    id: str
    kind: str
    owner_id: int
    title: str
    status: str
    revision: int
    state: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Actor:
    user_id: int
    username: str
    timezone: str = "UTC"


@dataclass(frozen=True, slots=True)
class DomainEventDraft:
    """An event a command handler returns; the command bus numbers and persists it."""

    type: str
    data: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class OutboxDraft:
    """An external effect to deliver after commit (SPEC §19)."""

    destination: str
    payload: Mapping[str, Any]


class OutboxMessage(Protocol):
    """One committed outbox row, as a destination sees it."""

    id: str
    destination: str
    idempotency_key: str  # the destination must treat a repeat of this key as the same request
    payload: Mapping[str, Any]


IDEMPOTENCY_HEADER = "Idempotency-Key"
"""The HTTP header an outbox destination is sent a row's idempotency key in."""


@dataclass(frozen=True)
class Delivery:
    """What one delivery attempt (or one reconciliation) learned about a row (SPEC §19, I15)."""

    status: str  # delivered | failed | pending (certainly not received) | outcome_unknown
    acknowledgement: Mapping[str, Any] = field(default_factory=dict)


class OutboxDestination(Protocol):
    """Where a destination's rows go: registered by name (``register_outbox_destination``); the outbox
    worker calls it after commit, never on the request path. A factory that returns None instead (no real
    system configured, e.g. no URL) leaves the rows to the engine's demo inbox, which records them."""

    name: str

    def send(self, message: OutboxMessage) -> Delivery:
        """Deliver the payload under the message's idempotency key."""

    def lookup(self, message: OutboxMessage) -> Delivery | None:
        """What the destination knows of the key; None when it gives no authoritative answer."""


@dataclass(frozen=True, slots=True)
class CommandResult:
    """What a command handler returns: the case's next state and what happened."""

    state: Mapping[str, Any]
    status: str
    title: str
    events: Sequence[DomainEventDraft]
    outbox: Sequence[OutboxDraft] = ()


class CommandRefused(Exception):
    """A handler refuses a command whose arguments no longer fit the state; nothing is applied."""

    def __init__(self, code: str, message: str = ""):
        super().__init__(message or code)
        self.code = code


@dataclass(frozen=True, slots=True)
class CommandContext:
    actor: Actor
    today: str  # ISO date in the actor's timezone


class ReadContext(Protocol):
    """What a read tool may use: lookups scoped to the actor. Nothing here writes."""

    actor: Actor
    today: str

    def get_case(self, case_id: str) -> CaseSnapshot | None:
        """The actor's case with this id, or None when it is missing or someone else's."""

    def search_cases(self, *, kind: str | None, query: str, status: str | None) -> list[CaseSnapshot]:
        """The actor's cases whose title matches ``query`` (empty query: all)."""


@dataclass(frozen=True, slots=True)
class CaseKindDefinition:
    """A kind of case a domain app registers (SPEC §5)."""

    name: str
    id_prefix: str  # e.g. "clm"
    state_schema: type[BaseModel]
    statuses: tuple[str, ...]
    initial_status: str
    terminal_statuses: tuple[str, ...]
    locked_statuses: tuple[str, ...]
    # pure projection of a case into what a person (and the model) sees: lines, totals, next steps
    project: Callable[[CaseSnapshot], dict[str, Any]]
    # a one-line summary of the case for the model context and card labels
    summarize: Callable[[CaseSnapshot], str]
    # resolve a plan's line reference (1-based ordinal) to a stable line id; None = no such line
    resolve_item: Callable[[CaseSnapshot, int], str | None] | None = None
    # what one item of a case is called in the engine's copy ("line": "… has no such line")
    item_noun: str = "item"
    # what the user can do next, as a short sentence (I21)
    next_steps: Callable[[CaseSnapshot], str] | None = None
    # the domain's words for the engine's server copy: what one case is called ("claim"), how to
    # start when nothing is open, and why a policy asked for confirmation, by code
    noun: str = "case"
    start_hint: str | None = None
    reason_copy: Mapping[str, str] = field(default_factory=dict)
    # what a person might type first, given their open cases of this kind (the chat page's suggestions)
    suggestions: Callable[[Sequence[CaseSnapshot]], list[str]] | None = None
    # how the chat page shows one case, as plain data it renders without knowing the domain (see ``Panel``);
    # None: title and status only
    panel: Callable[[CaseSnapshot], Panel] | None = None
    # how the evaluation corpus (``manage.py eval``) seeds and checks cases of this kind; None: no corpus
    corpus: CorpusSupport | None = None
    # the turn ``manage.py bench`` measures on a case of this kind; None: not benchmarkable
    bench: BenchScenario | None = None
    # grounding (SPEC §13): the ways a person names a case of this kind (its distinctive title words and their
    # other spellings, e.g. "Nürnberg" for "Nuremberg"); when a message names one of the user's cases, an act on
    # a case it does not name waits on a selection card. None: cases are not checked by name
    mentions: Callable[[CaseSnapshot], Sequence[str]] | None = None
    # the currency a case's amounts are kept in (ISO code); None: the kind keeps no money
    currency: Callable[[CaseSnapshot], str | None] | None = None
    # what the claim guard's fact check holds an answer about a case to (SPEC §18: "it has 3 items", "it comes
    # to 120"); None: answers about cases of this kind are not fact-checked
    facts: Callable[[CaseSnapshot], CaseFigures] | None = None
    # what a selection card shows beside a candidate case's title (SPEC §17): named values kept in the option's
    # ``detail``; its ``summary`` is the short text the chat page shows after the status. None: the status only
    card_detail: Callable[[CaseSnapshot], Mapping[str, str]] | None = None


@dataclass(frozen=True, slots=True)
class CaseFigures:
    """The checkable figures of a case (``CaseKindDefinition.facts``): how many items it holds and, when the kind
    keeps one, its total as a decimal string. ``item_words`` are the words a person counts its items with
    ("segment", "segments"), beside the engine's own "item(s)", "line(s)" and "entries"."""

    item_count: int
    total: str | None = None
    item_words: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PanelField:
    """One labelled value of a case (``Travellers: Ana Silva, Ben Okafor``)."""

    label: str
    value: str


@dataclass(frozen=True, slots=True)
class PanelItem:
    """One item of a case as a row: its 1-based position, what it is, details, and a right-aligned value."""

    ordinal: int
    label: str
    meta: str = ""
    value: str = ""


@dataclass(frozen=True, slots=True)
class Panel:
    """A case as the chat page shows it: the engine's JSON (``GET /api/cases/{id}`` → ``panel``) and the page
    render it without knowing the domain. Words are the domain's: ``item_heading`` heads the items column
    (``Expense``), ``value_heading`` their values (``Amount``), ``empty`` is shown when there are none."""

    fields: Sequence[PanelField] = ()
    items: Sequence[PanelItem] = ()
    item_heading: str = "Item"
    value_heading: str = ""
    empty: str = "Nothing here yet."
    total_label: str = ""
    total: str = ""  # shown with ``total_label`` under the items when set (``162.50 EUR``)
    summary: str = ""  # a short count for lists (``3 lines``)

    def to_json(self) -> dict[str, Any]:
        return {
            "fields": [{"label": f.label, "value": f.value} for f in self.fields],
            "items": [{"ordinal": i.ordinal, "label": i.label, "meta": i.meta, "value": i.value} for i in self.items],
            "item_heading": self.item_heading, "value_heading": self.value_heading, "empty": self.empty,
            "total_label": self.total_label, "total": self.total, "summary": self.summary,
        }


@dataclass(frozen=True, slots=True)
class CorpusSupport:
    """What the evaluation corpus needs from a case kind (the runner itself knows no domain).

    A corpus file's starting case is validated by ``case_schema`` (given ``title``, ``status`` when set, and
    every field the engine does not read itself; ``owner`` is the engine's); ``seed(case)`` gives the acts
    that create it (the first one creates the case). An expected case is validated by ``expected_schema``
    (given ``exists``, ``status`` when set and the domain's fields; the engine checks ``exists`` and ``status``
    itself); ``compare(expected, state before | None, state after)`` gives ``(problems, unsafe reasons)``:
    a difference is a problem, an effect the corpus does not expect is unsafe.
    """

    case_schema: type[BaseModel]
    expected_schema: type[BaseModel]
    seed: Callable[[BaseModel], Sequence[tuple[str, Mapping[str, Any]]]]
    compare: Callable[[BaseModel, Mapping[str, Any] | None, Mapping[str, Any]], tuple[list[str], list[str]]]


@dataclass(frozen=True, slots=True)
class BenchScenario:
    """The turn ``manage.py bench`` measures: a message whose (scripted) model reads once and proposes one
    act that needs a confirmation card. ``seed(title)`` gives the acts that create the case each lane works
    on; ``messages`` are sent in turn (alternating, so each confirmed act really changes the case);
    ``answers(text)`` are the scripted model answers (CONTRACT §2) for one of them."""

    seed: Callable[[str], Sequence[tuple[str, Mapping[str, Any]]]]
    messages: Sequence[str]
    answers: Callable[[str], Sequence[Mapping[str, Any]]]


@dataclass(frozen=True, slots=True)
class ReadToolDefinition:
    """A side-effect-free lookup the model may request in the read loop (SPEC §21.1)."""

    name: str
    description: str
    args_schema: type[BaseModel]
    handler: Callable[[BaseModel, ReadContext], Any]
    declared_mutability: str = READ_ONLY
    timeout_ms: int = 2000
    max_result_bytes: int = 16_000
    purposes: tuple[str, ...] = ("chat",)
    authorize: Callable[[Actor, BaseModel], bool] = field(default=lambda actor, args: True)
    kind: str = "case_state"  # case_state | search | knowledge | calculation | reference_data | attachment


@dataclass(frozen=True, slots=True)
class ActDefinition:
    """A semantic change the model may propose in its plan (SPEC §21.2)."""

    name: str
    case_kind: str
    description: str
    args_schema: type[BaseModel]
    mutability: ActMutability
    # policy(case or None for creating acts, validated args) -> decision
    policy: Callable[[CaseSnapshot | None, BaseModel], PolicyDecision]
    # handler(case or None, args with line ids resolved, context) -> CommandResult; raises CommandRefused
    handler: Callable[[CaseSnapshot | None, Mapping[str, Any], CommandContext], CommandResult]
    claim_phrases: tuple[str, ...] = ()  # what a reply may only say once an event of this act committed (I16)
    # arguments whose value must appear in the user's own words (evidence or correction), else refused
    quoted_fields: tuple[str, ...] = ()
    creates_case: bool = False  # the act that opens a case of its kind (its handler gets None)
    sandboxed: bool = False
    external: bool = False  # commits an outbox row (SPEC §19)
    # server copy: what a card says this command will do, and what a receipt says it did
    describe_command: Callable[[CaseSnapshot | None, Mapping[str, Any]], str] = field(
        default=lambda case, args: "")
    describe_event: Callable[[DomainEventDraft], str] = field(default=lambda event: event.type)
    # fill defaults that depend on the actor's clock (e.g. a line's date = today)
    complete_args: Callable[[Mapping[str, Any], CommandContext], dict[str, Any]] = field(
        default=lambda args, ctx: dict(args))
    # undo: (the case now, the data of the event this act committed) -> (inverse act, its arguments),
    # or None when the effect cannot be reversed by an act; the inverse goes through policy and
    # confirmation like any act (a consequential inverse gets a card)
    invert: Callable[[CaseSnapshot, Mapping[str, Any]], tuple[str, dict[str, Any]] | None] | None = None
    # the argument that names an item of the case by its 1-based position (an expense claim's "line"): the
    # reducer resolves it with the case kind's ``resolve_item`` on the state the command will find, and the
    # handler gets the stable id as ``<item_arg>_id``, so a recovered command never lands on another item
    item_arg: str | None = None
    # grounding (SPEC §13): arguments that are amounts of money in the case's currency (``CaseKindDefinition.currency``):
    # one the user wrote in another currency never runs as if it were the case's
    money_fields: tuple[str, ...] = ()
    # an argument naming the currency the money fields were paid in, when the user said another than the case's
    # ("1240 DKK" on a EUR claim): the money fields are then grounded in that currency, and the handler converts
    money_currency_arg: str | None = None
    # a creating act's argument that names the new case's currency: it must be the currency the user's words name
    # (or the schema's default when they name none)
    currency_arg: str | None = None
    # arguments the person may change on the act's confirmation card before confirming (``edits`` of
    # ``POST /api/interactions/{id}/respond``): the edited values go through the schema, the handler and the
    # policy again, as the person's own words (never the model's). Empty: the card offers no edits
    editable_fields: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DemoCase:
    """A case ``seed_demo`` creates by running these acts, in order, under origin ``internal_policy``."""

    owner: str  # username
    kind: str
    title: str
    acts: Sequence[tuple[str, Mapping[str, Any]]]  # the first one creates the case


Interpreter = Callable[[Any], str]
"""A local interpreter: (ModelRequest) -> model answer text, in the protocol of CONTRACT §2."""


@dataclass(frozen=True, slots=True)
class Registry:
    """A frozen view of everything registered, handed to the pure core."""

    case_kinds: Mapping[str, CaseKindDefinition]
    read_tools: Mapping[str, ReadToolDefinition]
    acts: Mapping[str, ActDefinition]


