"""What ``recover_turns`` (and ``make run``) does at start: finish running turns and run the queues
they held up."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.utils import timezone

from ..models import CommandJournalEntry, Conversation, Turn
from . import lease
from .messages import turns_run_queued
from .recovery import turn_recover

log = logging.getLogger(__name__)
Phase, JStatus = Turn.Phase, CommandJournalEntry.Status


def turns_recover_all() -> list[str]:
    """Finish the running turns no live process carries — their lease expired or was released (lease.py); a
    turn another process is running is left to it — then run the queues no running turn holds up."""
    recovered = []
    for turn_id in lease.takeable_ids():
        if not lease.take(turn_id):  # another process's recovery took it first, or its owner renewed meanwhile
            continue
        with lease.carried(turn_id):
            try:
                turn_recover(Turn.objects.get(pk=turn_id))
            except Exception:  # the others are still recovered; this one again once the lease just taken expires
                log.exception("recovery of turn %s failed; it is tried again when its lease expires", turn_id)
                continue
        recovered.append(turn_id)
    for conversation in Conversation.objects.filter(turns__status=Turn.Status.QUEUED).exclude(
            turns__status=Turn.Status.RUNNING).distinct():
        try:  # messages that waited behind a turn a crash stopped
            recovered.extend(turns_run_queued(conversation))
        except Exception:
            log.exception("the queue of conversation %s could not be run; it is tried again", conversation.pk)
    return recovered


def turns_sweep() -> list[str]:
    """A served process's keeper (lease.py), every third of a lease: recover the turns whose lease expired."""
    if not lease.takeable_ids() and not _stranded().exists():
        return []
    recovered = turns_recover_all()
    if recovered:
        log.warning("recovered %d turn(s) whose process stopped: %s", len(recovered), ", ".join(recovered))
    return recovered


def _stranded():
    """Messages queued for longer than a lease in a conversation where no turn runs (their runner stopped)."""
    return Turn.objects.filter(status=Turn.Status.QUEUED,
                               created_at__lt=timezone.now() - timedelta(seconds=lease.seconds())).exclude(
        conversation__turns__status=Turn.Status.RUNNING)
