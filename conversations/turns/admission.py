"""A turn taking hold of its conversation (SPEC §23 A–D): a message admitted (or found recorded), a click's turn
opened, and what the turn reads at that moment."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from turnframe_web.errors import Conflict

from .. import store, stream
from ..models import CommandJournalEntry, Conversation, Interaction, Turn
from ..selectors import turn_json
from . import lease

log = logging.getLogger(__name__)
Phase, JStatus = Turn.Phase, CommandJournalEntry.Status


@dataclass(frozen=True)
class TurnOutcome:
    turn: Turn
    replayed: bool
    shown: dict[str, Any] | None = None  # the JSON this process delivered the turn with (``Delivered``)

    def as_json(self) -> dict[str, Any]:
        """The turn as CONTRACT §6 shows it: as this process delivered it, else as the database has it now."""
        if self.shown is not None and not self.replayed:
            return self.shown
        return turn_json(self.turn, replayed=self.replayed)


def turn_begin(conversation: Conversation, started: Turn, context: store.ContextQuery | None = None
               ) -> tuple[dict[str, str], store.Seen | None]:
    """Once a turn holds its conversation (the one running turn), one statement numbers its ``turn.started``
    event (sent here), reads what an earlier turn may have left since the conversation was loaded (the active
    case and the open question: from here on only this turn changes them, so its instance is the truth until
    it ends), and reads the audit mirror's entries out of service (disabled, quarantined: what the turn may not
    offer). ``context``: what a message turn reads at the same moment (``store.ContextQuery``).
    Returns the entries out of service, name -> status, and what the context read."""
    begun = store.begin(conversation.pk, context)
    if begun is None:
        raise Conversation.DoesNotExist(conversation.pk)
    conversation.active_case_id, conversation.pending = begun.active_case_id, begun.pending
    stream.send(conversation.pk, [("turn.started", {"turn": started.id, "text": started.text})], begun.event_seq)
    return begun.out_of_service, begun.seen


@dataclass(frozen=True)
class Admitted:
    turn: Turn
    conversation: Conversation
    out_of_service: dict[str, str]
    seen: store.Seen | None


def turn_admit(user, conversation_id: str, started: Turn, context: Callable[[Turn], store.ContextQuery]
               ) -> Admitted | TurnOutcome | None:
    """A message admitted in one transaction of two statements: the first finds the user's conversation with no
    message waiting in its queue, numbers the turn's ``turn.started``, reads the conversation, the audit mirror
    and ``context(turn)`` as ``turn_begin`` does (``store.admit``); the second inserts the running turn (the
    database allows one per conversation). ``started``: the turn, not saved yet. None: not admitted (no such
    conversation, messages wait, or another turn runs: the caller tells which); a ``TurnOutcome``: the client's
    message id was already recorded (its turn)."""
    try:
        with transaction.atomic():
            admission = store.admit(conversation_id, user.pk, context(started))
            if admission is None:
                return None
            conversation = admission.conversation
            started.conversation, started.mode = conversation, conversation.mode
            started.active_case_before = conversation.active_case_id or ""
            started.lease_owner, started.lease_expires_at = lease.owner(), lease.expiry()
            store.turn_insert(started)
    except IntegrityError:  # the same client id again (its turn is the answer), or another turn runs
        return recorded_turn(conversation_id, started.client_message_id)
    stream.send(conversation.pk, [("turn.started", {"turn": started.id, "text": started.text})],
                conversation.event_seq)
    return Admitted(started, conversation, admission.out_of_service, admission.seen)


def recorded_turn(conversation_id: str, client_message_id: str | None) -> TurnOutcome | None:
    """The turn a client's message (or response) id already recorded in the conversation: the answer to it again."""
    if not client_message_id:
        return None
    existing = Turn.objects.filter(conversation_id=conversation_id, client_message_id=client_message_id).first()
    return TurnOutcome(existing, True) if existing is not None else None


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
            store.turn_insert(turn)
            return turn
    except IntegrityError:
        if (recorded := recorded_turn(conversation.pk, client_message_id)) is not None:
            return recorded
        raise Conflict("Another message of this conversation is still being handled.", code="turn_in_progress") from None
