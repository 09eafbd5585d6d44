"""A running turn's row, written as the turn goes (its phase, record and ending): each write a statement of the
store that keeps the instance in step, and whether messages wait behind it as it ends."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from .. import store
from ..models import CommandJournalEntry, Turn
from . import lease

log = logging.getLogger(__name__)
Phase, JStatus = Turn.Phase, CommandJournalEntry.Status


def turn_write(turn: Turn, *, unless_stopped: bool = False, **fields: Any) -> bool:
    """Write fields of the turn's row and keep the instance in step: the later steps of a turn read the
    instance, not the row (one process runs a turn). ``unless_stopped``: only if the user has not stopped
    waiting (the database arbitrates that race); False when they had, and the instance is left as it was."""
    return _in_step(turn, fields, lambda values: store.turn_record(
        turn.pk, values, lease_owner=lease.owner() if unless_stopped else None) or None) is not None


def turn_write_reading(turn: Turn, delivery: store.DeliveryQuery, *, unless_stopped: bool = False,
                       **fields: Any) -> store.DeliveryRead | None:
    """``turn_write`` that also makes delivery's read (the turn's next read, made at this moment: one statement
    for both); what it read, or None when the turn was not written (stopped)."""
    return _in_step(turn, fields, lambda values: store.turn_record_reading(
        turn.pk, values, delivery, lease_owner=lease.owner() if unless_stopped else None))


def turn_end(turn: Turn, **fields: Any) -> bool | None:
    """The write that ends the turn (``turn_write``), which also reads whether messages of the conversation
    wait in its queue (a message queued after this statement finds the turn ended and runs itself); None: not
    known (``turns_run_queued`` reads the queue then)."""
    return _in_step(turn, fields, lambda values: store.turn_end(turn.pk, turn.conversation_id, values))


def _in_step[T](turn: Turn, fields: dict[str, Any], write: Callable[[dict[str, Any]], T | None]) -> T | None:
    """Assign the fields, write them (``write``: None when not written), and put the instance back if not."""
    before = {name: getattr(turn, name) for name in fields}
    for name, value in fields.items():  # assigned first: the instance validates a record (SchemaField)
        setattr(turn, name, value)
    written = write({name: getattr(turn, name) for name in fields})
    if written is None:
        for name, value in before.items():
            setattr(turn, name, value)
    return written


def set_phase(turn: Turn, phase: str) -> None:
    turn_write(turn, phase=phase)
