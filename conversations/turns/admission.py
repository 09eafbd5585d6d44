"""A turn taking hold of its conversation (SPEC §23 A–D): a message admitted (or found recorded), a click's turn
opened, and what the turn reads at that moment."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, connection, transaction

from registries.models import EntryStatus, RegistryEntry
from turnframe_web.errors import Conflict

from .. import prepared, stream
from ..models import CommandJournalEntry, Conversation, Interaction, Turn
from . import lease

log = logging.getLogger(__name__)
Phase, JStatus = Turn.Phase, CommandJournalEntry.Status


@dataclass(frozen=True)
class TurnOutcome:
    turn: Turn
    replayed: bool


# the audit mirror's entries out of service, as one JSON object (name -> status), by database
_JSON_OBJECT_AGG = {"sqlite": "json_group_object", "postgresql": "json_object_agg"}


def turn_begin(conversation: Conversation, started: Turn, along: Sequence[prepared.Bound] = ()
               ) -> tuple[dict[str, str], list[list[Any]]]:
    """Once a turn holds its conversation (the one running turn), one statement numbers its ``turn.started``
    event (sent here), reads what an earlier turn may have left since the conversation was loaded (the active
    case and the open question: from here on only this turn changes them, so its instance is the truth until
    it ends), and reads the audit mirror's entries out of service (disabled, quarantined: what the turn may not
    offer). ``along``: reads the turn makes at the same moment (a message turn's context, ``context_reads``).
    Returns the entries out of service, name -> status, and the rows of each read along."""
    row = _begin("t.id = %s", [conversation.pk], ("event_seq", "active_case_id", "pending"), along)
    if row is None:
        raise Conversation.DoesNotExist(conversation.pk)
    (seq, conversation.active_case_id, conversation.pending), out_of_service, seen = row
    conversation.waiting = None  # not known until the turn ends (turn_end)
    stream.send(conversation.pk, [("turn.started", {"turn": started.id, "text": started.text})], seq)
    return out_of_service, seen


@dataclass(frozen=True)
class Admitted:
    turn: Turn
    conversation: Conversation
    out_of_service: dict[str, str]
    seen: list[list[Any]]


_CONVERSATION_FIELDS = tuple(f.attname for f in Conversation._meta.concrete_fields)
_ADMITTING = (f"t.id = %s AND t.owner_id = %s AND t.hidden_at IS NULL AND NOT EXISTS (SELECT 1 FROM"
              f" {Turn._meta.db_table} q WHERE q.conversation_id = %s AND q.status = '{Turn.Status.QUEUED}')")


def turn_admit(user, conversation_id: str, started: Turn, along: Callable[[Turn, str], Sequence[prepared.Bound]]
               ) -> Admitted | TurnOutcome | None:
    """A message admitted in one transaction of two statements: the first finds the user's conversation with no
    message waiting in its queue, numbers the turn's ``turn.started``, reads the conversation, the audit mirror
    and ``along(turn, conversation_id)`` (the turn's context) as ``turn_begin`` does; the second inserts the
    running turn (the database allows one per conversation). ``started``: the turn, not saved yet. None: not
    admitted (no such conversation, messages wait, or another turn runs: the caller tells which); a
    ``TurnOutcome``: the client's message id was already recorded (its turn)."""
    try:
        with transaction.atomic():
            row = _begin(_ADMITTING, [conversation_id, user.pk, conversation_id], _CONVERSATION_FIELDS,
                         along(started, conversation_id))
            if row is None:
                return None
            values, out_of_service, seen = row
            conversation = Conversation.from_db(connection.alias, _CONVERSATION_FIELDS, list(values))
            conversation.waiting = None  # not known until the turn ends (turn_end)
            started.conversation, started.mode = conversation, conversation.mode
            started.active_case_before = conversation.active_case_id or ""
            started.lease_owner, started.lease_expires_at = lease.owner(), lease.expiry()
            prepared.insert(started)
    except IntegrityError:  # the same client id again (its turn is the answer), or another turn runs
        return recorded_turn(conversation_id, started.client_message_id)
    stream.send(conversation.pk, [("turn.started", {"turn": started.id, "text": started.text})],
                conversation.event_seq)
    return Admitted(started, conversation, out_of_service, seen)


def recorded_turn(conversation_id: str, client_message_id: str | None) -> TurnOutcome | None:
    """The turn a client's message (or response) id already recorded in the conversation: the answer to it again."""
    if not client_message_id:
        return None
    existing = Turn.objects.filter(conversation_id=conversation_id, client_message_id=client_message_id).first()
    return TurnOutcome(existing, True) if existing is not None else None


def _begin(where: str, params: list[Any], fields: Sequence[str], along: Sequence[prepared.Bound]
           ) -> tuple[tuple, dict[str, str], list[list[Any]]] | None:
    """``UPDATE <conversation> SET event_seq = event_seq + 1 WHERE … RETURNING <fields>, <the mirror's entries
    out of service>, <reads along>``: the fields (converted), the entries (name -> status), the reads' rows."""
    quote = connection.ops.quote_name
    table = Conversation._meta.db_table
    columns = ", ".join(quote(Conversation._meta.get_field(f).column) for f in fields)
    reads, read_params = prepared.along_sql(along)
    with connection.cursor() as cursor:
        cursor.execute(*prepared.expanded(
            f"UPDATE {quote(table)} AS t SET event_seq = event_seq + 1 WHERE {where} RETURNING {columns},"
            f" (SELECT {_JSON_OBJECT_AGG[connection.vendor]}(name, status) FROM {quote(RegistryEntry._meta.db_table)}"
            f" WHERE status <> %s){reads}", [*params, EntryStatus.ACTIVE, *read_params]))
        row = cursor.fetchone()
    if row is None:
        return None
    found = row[len(fields)]  # (none out of service: NULL on PostgreSQL)
    out_of_service = found if isinstance(found, dict) else json.loads(found or "{}")
    return (prepared.converted(Conversation, fields, row[:len(fields)]), out_of_service,
            prepared.decoded(along, row[len(fields) + 1:]))


def turn_open(conversation: Conversation, *, kind: str, text: str, client_message_id: str,
               interaction: Interaction | None = None, option: str = "", turn_id: str | None = None
               ) -> Turn | TurnOutcome:
    """Insert a click's running turn (a message's is inserted by ``turn_admit``). The database allows one running
    turn per conversation: ``turn_in_progress`` when another runs."""
    try:
        with transaction.atomic():
            turn = Turn(**({"id": turn_id} if turn_id else {}), conversation=conversation, kind=kind, text=text,
                        client_message_id=client_message_id, interaction=interaction, option=option,
                        mode=conversation.mode, active_case_before=conversation.active_case_id or "",
                        **lease.fresh())
            prepared.insert(turn)
            return turn
    except IntegrityError:
        if (recorded := recorded_turn(conversation.pk, client_message_id)) is not None:
            return recorded
        raise Conflict("Another message of this conversation is still being handled.", code="turn_in_progress") from None
