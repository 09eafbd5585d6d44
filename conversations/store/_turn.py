"""The store's statements of a turn's own rows: its conversation (the stream's numbering, a message admitted, a
turn begun), the turn's row (inserted, queued, recorded, ended), its read rounds, and the reads that travel with
them (``ContextQuery``, ``DeliveryQuery``). Re-exported by ``conversations.store``."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db import DEFAULT_DB_ALIAS

from registries.models import EntryStatus, RegistryEntry

from ..models import Case, CommandJournalEntry, Conversation, DomainEvent, Interaction, ReadRound, Turn
from ._sql import (
    Bound,
    Select,
    Update,
    Values,
    along_sql,
    column_of,
    converted,
    db,
    decoded,
    execute,
    field_of,
    insert,
    insert_if,
    read,
)

_QUEUED, _RUNNING, _PENDING = Turn.Status.QUEUED, Turn.Status.RUNNING, Interaction.Status.PENDING
_TURNS, _CONVERSATIONS = Turn._meta.db_table, Conversation._meta.db_table


# --------------------------------------------------------------------------- the conversation and its stream


def next_seq(conversation_id: str, count: int = 1) -> int | None:
    """Take the conversation's next ``count`` stream sequence numbers in one statement; the last of them (None:
    no such conversation)."""
    row = execute(f"UPDATE {db().ops.quote_name(_CONVERSATIONS)} SET event_seq = event_seq + %s WHERE id = %s"
                   " RETURNING event_seq", [count, conversation_id])
    return row[0] if row else None


_VISIBLE_CONVERSATION = Select(Conversation, "t.id = %s AND t.owner_id = %s AND t.hidden_at IS NULL")


def conversation_visible(conversation_id: str, owner_id: int) -> Conversation | None:
    """The owner's conversation, unless deleted."""
    return _VISIBLE_CONVERSATION.first(conversation_id, owner_id)


# --------------------------------------------------------------------------- a turn takes hold (SPEC §23 A–D)


@dataclass(frozen=True)
class ContextQuery:
    """What a message turn reads before it asks the model (steps D and F), sent with the statement that begins it:
    the owner's most recently changed cases of ``kinds`` (open ones, when some statuses are ``terminal``), one
    more than ``limit``, and the conversation's active case; its earlier messages, the last effects, open cards."""

    owner_id: int
    conversation_id: str
    turn_id: str
    kinds: Collection[str]
    terminal: Collection[str]
    limit: int


@dataclass(frozen=True)
class Seen:
    """What ``ContextQuery`` read."""

    cases: list[Case]
    earlier: list[str]  # the conversation's latest other messages, latest first
    effects: list[DomainEvent]  # what its latest other turn with an effect committed, each with its command
    open_cards: list[tuple[str, str, str | None]]  # id, kind, case of each open card


def _recent_cases(open_only: bool) -> Select:
    """The user's most recently changed cases of the offered kinds (open ones: not in a terminal status), and
    the conversation's active case, oldest first."""
    unless = " AND c.status NOT IN %s" if open_only else ""
    return Select(Case, f"t.id IN (SELECT c.id FROM {Case._meta.db_table} c WHERE c.owner_id = %s AND c.kind IN %s"
                        f"{unless} ORDER BY c.updated_at DESC LIMIT %s)"
                        f" OR (t.id = (SELECT a.active_case_id FROM {_CONVERSATIONS} a WHERE a.id = %s)"
                        " AND t.owner_id = %s)", order="t.created_at")


_RECENT_OPEN_CASES, _RECENT_CASES = _recent_cases(True), _recent_cases(False)
# the messages before this one that were read: not one still queued (it comes after), nor one withdrawn or
# stopped before it ran (a stop is honoured only before anything is journaled: the person took it back)
_EARLIER_MESSAGES = Values(Turn, ("text",), "t.conversation_id = %s AND t.kind = %s AND t.id <> %s"
                           f" AND t.status <> '{_QUEUED}' AND t.stop_requested_at IS NULL",
                           order="t.created_at DESC", limit=3)
_OPEN_CARDS = Values(Interaction, ("id", "kind", "case_id"), "t.conversation_id = %s AND t.status = %s",
                     order="t.created_at")
# the events of the conversation's latest other turn that committed a command (r1: each event's command)
_LAST_EFFECTS = Select(DomainEvent, f"""r1.turn_id = (
    SELECT j.turn_id FROM {CommandJournalEntry._meta.db_table} j
    WHERE j.conversation_id = %s AND j.status = %s AND (j.turn_id IS NULL OR j.turn_id <> %s)
    ORDER BY j.updated_at DESC, j.sequence DESC LIMIT 1) AND r1.status = %s""",
                       order="t.created_at, t.sequence", related="command")


def _context_reads(q: ContextQuery) -> list[Bound]:
    cases = (_RECENT_OPEN_CASES.bind(q.owner_id, q.kinds, q.terminal, q.limit + 1, q.conversation_id, q.owner_id)
             if q.terminal else _RECENT_CASES.bind(q.owner_id, q.kinds, q.limit + 1, q.conversation_id, q.owner_id))
    committed = CommandJournalEntry.Status.COMMITTED
    return [cases, _EARLIER_MESSAGES.bind(q.conversation_id, Turn.Kind.MESSAGE, q.turn_id),
            _LAST_EFFECTS.bind(q.conversation_id, committed, q.turn_id, committed),
            _OPEN_CARDS.bind(q.conversation_id, _PENDING)]


def _seen(rows: list[list[Any]]) -> Seen:
    cases, earlier, effects, cards = rows
    return Seen(cases, [text for (text,) in earlier], effects, cards)


def context(q: ContextQuery) -> Seen:
    """``ContextQuery`` read on its own (one statement)."""
    return _seen(read(*_context_reads(q)))


@dataclass(frozen=True)
class Begun:
    """What one statement read as a turn took hold of its conversation."""

    event_seq: int  # the turn's ``turn.started`` number
    active_case_id: str | None
    pending: dict[str, Any] | None  # the open question
    out_of_service: dict[str, str]  # the audit mirror's entries not active: name -> status
    seen: Seen | None  # what the ``ContextQuery`` read (None: none was sent)


@dataclass(frozen=True)
class Admission:
    """A message's conversation as ``admit`` found it (every field), and what it read with it."""

    conversation: Conversation
    out_of_service: dict[str, str]
    seen: Seen | None


# the audit mirror's entries out of service, as one JSON object (name -> status), by database
_JSON_OBJECT_AGG = {"sqlite": "json_group_object", "postgresql": "json_object_agg"}
_CONVERSATION_FIELDS = tuple(f.attname for f in Conversation._meta.concrete_fields)
_ADMITTING = (f"t.id = %s AND t.owner_id = %s AND t.hidden_at IS NULL AND NOT EXISTS (SELECT 1 FROM"
              f" {_TURNS} q WHERE q.conversation_id = %s AND q.status = '{_QUEUED}')")


def begin(conversation_id: str, context: ContextQuery | None = None) -> Begun | None:
    """Once a turn holds its conversation (the one running turn), one statement numbers its ``turn.started``
    event, reads what an earlier turn may have left since the conversation was loaded (the active case and the
    open question), the audit mirror's entries out of service and ``context``. None: no such conversation."""
    row = _begin("t.id = %s", [conversation_id], ("event_seq", "active_case_id", "pending"), context)
    if row is None:
        return None
    (seq, active, pending), out_of_service, seen = row
    return Begun(seq, active, pending, out_of_service, seen)


def admit(conversation_id: str, owner_id: int, context: ContextQuery | None = None) -> Admission | None:
    """``begin`` for a message: only in the owner's visible conversation with no message waiting in its queue
    (None otherwise); the conversation comes back whole (its ``event_seq``: the turn's ``turn.started``)."""
    row = _begin(_ADMITTING, [conversation_id, owner_id, conversation_id], _CONVERSATION_FIELDS, context)
    if row is None:
        return None
    values, out_of_service, seen = row
    return Admission(Conversation.from_db(DEFAULT_DB_ALIAS, _CONVERSATION_FIELDS, list(values)), out_of_service, seen)


def _begin(where: str, params: list[Any], fields: Sequence[str], context: ContextQuery | None
           ) -> tuple[tuple, dict[str, str], Seen | None] | None:
    """``UPDATE <conversation> SET event_seq = event_seq + 1 WHERE … RETURNING <fields>, <the mirror's entries
    out of service>, <reads along>``: the fields (converted), the entries (name -> status), what was seen."""
    along = _context_reads(context) if context is not None else []
    reads, read_params = along_sql(along)
    row = execute(_begin_sql(where, tuple(fields)) + reads, [*params, EntryStatus.ACTIVE, *read_params])
    if row is None:
        return None
    found = row[len(fields)]  # (none out of service: NULL on PostgreSQL)
    out_of_service = found if isinstance(found, dict) else json.loads(found or "{}")
    seen = _seen(decoded(along, row[len(fields) + 1:])) if context is not None else None
    return converted(Conversation, fields, row[:len(fields)]), out_of_service, seen


_BEGINS: dict[tuple[str, str, tuple[str, ...]], str] = {}


def _begin_sql(where: str, fields: tuple[str, ...]) -> str:
    """``_begin``'s statement up to the reads along, written once per database, where clause and fields."""
    connection = db()
    key = (connection.vendor, where, fields)
    sql = _BEGINS.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        columns = ", ".join(column_of(field_of(Conversation, f), connection) for f in fields)
        sql = _BEGINS[key] = (f"UPDATE {quote(_CONVERSATIONS)} AS t SET event_seq = event_seq + 1 WHERE {where}"
                              f" RETURNING {columns}, (SELECT {_JSON_OBJECT_AGG[connection.vendor]}(name, status)"
                              f" FROM {quote(RegistryEntry._meta.db_table)} WHERE status <> %s)")
    return sql


# --------------------------------------------------------------------------- the turn's row


def turn_insert(turn: Turn) -> None:
    """Insert a turn as ``save`` would (the database allows one running turn per conversation)."""
    insert(turn)


_ROOM_IN_QUEUE = f"(SELECT COUNT(*) FROM {_TURNS} q WHERE q.conversation_id = %s AND q.status = '{_QUEUED}') < %s"


def turn_queue(turn: Turn, limit: int) -> bool:
    """Insert a queued message only while fewer than ``limit`` of its conversation wait (the database decides);
    False: the queue is full."""
    return insert_if(turn, _ROOM_IN_QUEUE, [turn.conversation_id, limit])


_NEXT_QUEUED = Select(Turn, "t.conversation_id = %s AND t.status = %s", order="t.created_at, t.id", limit=1)


def next_queued(conversation_id: str) -> Turn | None:
    """The conversation's oldest queued message."""
    return _NEXT_QUEUED.first(conversation_id, _QUEUED)


_STOPPED = f"EXISTS (SELECT 1 FROM {_TURNS} s WHERE s.id = %s AND s.stop_requested_at IS NOT NULL)"


def round_record(row: ReadRound) -> bool:
    """Insert a read round's row; whether the user has stopped waiting for its turn meanwhile (one statement)."""
    (stopped,) = insert(row, returning=_STOPPED, params=[row.turn_id]) or (False,)
    return bool(stopped)


_TURN_WRITES: dict[tuple[tuple[str, ...], bool, bool], Update] = {}
# whether messages wait in the turn's conversation's queue, as the write that ends the turn leaves it
_QUEUED_BEHIND = f"EXISTS (SELECT 1 FROM {_TURNS} q WHERE q.conversation_id = %s AND q.status = '{_QUEUED}')"


def _turn_update(turn_id: str, values: dict[str, Any], *, lease_owner: str | None = None,
                 conversation_id: str | None = None, along: Sequence[Bound] = ()) -> tuple | None:
    """``UPDATE`` the turn's fields; with ``lease_owner`` only while it runs under that lease with no stop asked
    for; with ``conversation_id`` also returning whether messages wait in its queue; then ``along``'s rows."""
    names, unless_stopped, queued_behind = tuple(values), lease_owner is not None, conversation_id is not None
    update = _TURN_WRITES.get((names, unless_stopped, queued_behind))
    if update is None:
        # unless stopped: also only while the turn runs under this process's lease (turns/lease.py: the point of
        # no return is fenced, so a turn taken over by recovery is never committed by the process that lost it)
        where = "t.id = %s" + (f" AND t.stop_requested_at IS NULL AND t.status = '{_RUNNING}'"
                               " AND t.lease_owner = %s" if unless_stopped else "")
        update = _TURN_WRITES[(names, unless_stopped, queued_behind)] = Update(
            Turn, names, where, returning=_QUEUED_BEHIND if queued_behind else "1")
    return update.returned(list(values.values()), turn_id, *([lease_owner] if unless_stopped else []),
                           *([conversation_id] if queued_behind else []), along=along)


def turn_record(turn_id: str, values: dict[str, Any], *, lease_owner: str | None = None) -> bool:
    """Write fields of a turn's row (``updated_at`` stamped). ``lease_owner``: only while the turn runs under
    that lease and the user has not stopped waiting (the database arbitrates that race). False: not written."""
    return _turn_update(turn_id, values, lease_owner=lease_owner) is not None


def turn_record_reading(turn_id: str, values: dict[str, Any], delivery: DeliveryQuery, *,
                        lease_owner: str | None = None) -> DeliveryRead | None:
    """``turn_record`` that also makes delivery's read (one statement); None when the turn was not written."""
    reads = _delivery_reads(delivery)
    returned = _turn_update(turn_id, values, lease_owner=lease_owner, along=reads)
    return None if returned is None else _delivery_read(delivery, returned[1:])


def turn_end(turn_id: str, conversation_id: str, values: dict[str, Any]) -> bool | None:
    """The write that ends a turn (``turn_record``), which also reads whether messages of its conversation wait
    in its queue (a message queued after this statement finds the turn ended and runs itself). None: no row."""
    returned = _turn_update(turn_id, values, conversation_id=conversation_id)
    return bool(returned[0]) if returned is not None else None


# --------------------------------------------------------------------------- delivery's read (SPEC §23 O)


@dataclass(frozen=True)
class DeliveryQuery:
    """What delivery reads once the turn's commands ran: its cards (``mine``), every open card of the conversation
    and the open confirmations on the cases it ``changed``, each with its case (the live revision); and the
    conversation's active case and open question."""

    conversation_id: str
    mine: frozenset[str]
    changed: frozenset[str]


class ConversationState(NamedTuple):
    active_case_id: str | None
    pending: dict[str, Any] | None


@dataclass(frozen=True)
class DeliveryRead:
    """What ``DeliveryQuery`` read; ``state`` None: the conversation is gone."""

    query: DeliveryQuery
    cards: list[Interaction]
    state: ConversationState | None


_CARDS = Select(Interaction, "t.id IN %s OR (t.conversation_id = %s AND t.status = %s)"
                             " OR (t.case_id IN %s AND t.status = %s AND t.kind = %s)", order="t.created_at",
                related="case")
_STATE = Values(Conversation, ("active_case_id", "pending"), "t.id = %s")


def _delivery_reads(q: DeliveryQuery) -> list[Bound]:
    return [_CARDS.bind(q.mine, q.conversation_id, _PENDING, q.changed, _PENDING, Interaction.Kind.CONFIRMATION),
            _STATE.bind(q.conversation_id)]


def _delivery_read(q: DeliveryQuery, rows: Sequence[list[Any]]) -> DeliveryRead:
    cards, state = rows
    return DeliveryRead(q, cards, ConversationState(*state[0]) if state else None)


def delivery_read(q: DeliveryQuery) -> DeliveryRead:
    """``DeliveryQuery`` read on its own (one statement)."""
    return _delivery_read(q, read(*_delivery_reads(q)))
