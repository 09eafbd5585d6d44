"""A running turn's row, written as the turn goes (its phase, record and ending): each write a prepared
statement that keeps the instance in step, and whether messages wait behind it as it ends."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from .. import prepared
from ..models import CommandJournalEntry, Conversation, Turn
from . import lease

log = logging.getLogger(__name__)
Phase, JStatus = Turn.Phase, CommandJournalEntry.Status


_TURN_WRITES: dict[tuple[tuple[str, ...], bool, bool], prepared.Update] = {}
# whether messages wait in the turn's conversation's queue, as the write that ends the turn leaves it
_QUEUED_BEHIND = (f"EXISTS (SELECT 1 FROM {Turn._meta.db_table} q WHERE q.conversation_id = %s"
                  f" AND q.status = '{Turn.Status.QUEUED}')")


def turn_write(turn: Turn, *, unless_stopped: bool = False, **fields) -> bool:
    """Write fields of the turn's row and keep the instance in step: the later steps of a turn read the
    instance, not the row (one process runs a turn). ``unless_stopped``: only if the user has not stopped
    waiting (the database arbitrates that race); False when they had, and the instance is left as it was."""
    return _turn_update(turn, fields, unless_stopped=unless_stopped) is not None


def turn_write_reading(turn: Turn, reads: Sequence[prepared.Bound], *, unless_stopped: bool = False,
                       **fields) -> list[list[Any]] | None:
    """``turn_write`` that also sends ``reads`` (the turn's next reads, made at this moment: one statement for
    both); their rows, or None when the turn was not written (stopped)."""
    returned = _turn_update(turn, fields, unless_stopped=unless_stopped, along=reads)
    return None if returned is None else list(returned[1:])


def turn_end(turn: Turn, conversation: Conversation, **fields) -> None:
    """The write that ends the turn (``turn_write``), which also reads whether messages of the conversation
    wait in its queue: ``conversation.waiting`` (a message queued after this statement finds the turn ended
    and runs itself; ``turns_run_queued`` reads the queue when this is not known)."""
    returned = _turn_update(turn, fields, queued_behind=True)
    conversation.waiting = bool(returned[0]) if returned is not None else None


def _turn_update(turn: Turn, fields: dict[str, Any], *, unless_stopped: bool = False,
                 queued_behind: bool = False, along: Sequence[prepared.Bound] = ()) -> tuple | None:
    names = tuple(fields)
    update = _TURN_WRITES.get((names, unless_stopped, queued_behind))
    if update is None:
        # unless stopped: also only while the turn runs under this process's lease (lease.py: the point of no
        # return is fenced, so a turn taken over by recovery is never committed by the process that lost it)
        where = "t.id = %s" + (f" AND t.stop_requested_at IS NULL AND t.status = '{Turn.Status.RUNNING}'"
                               " AND t.lease_owner = %s" if unless_stopped else "")
        update = _TURN_WRITES[(names, unless_stopped, queued_behind)] = prepared.Update(
            Turn, names, where, returning=_QUEUED_BEHIND if queued_behind else "1")
    before = {name: getattr(turn, name) for name in names}
    for name, value in fields.items():  # assigned first: the instance validates a record (SchemaField)
        setattr(turn, name, value)
    returned = update.returned([getattr(turn, name) for name in names], turn.pk,
                               *([lease.owner()] if unless_stopped else []),
                               *([turn.conversation_id] if queued_behind else []), along=along)
    if returned is None:
        for name, value in before.items():
            setattr(turn, name, value)
    return returned


def set_phase(turn: Turn, phase: str) -> None:
    turn_write(turn, phase=phase)
