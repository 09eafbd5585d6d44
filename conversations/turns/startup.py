"""What ``recover_turns`` (and ``make run``) does at start: finish running turns and run the queues
they held up."""

from __future__ import annotations

import logging

from ..models import CommandJournalEntry, Conversation, Turn
from .messages import turns_run_queued
from .recovery import turn_recover

log = logging.getLogger(__name__)
Phase, JStatus = Turn.Phase, CommandJournalEntry.Status


def turns_recover_all() -> list[str]:
    recovered = []
    for turn in Turn.objects.filter(status=Turn.Status.RUNNING).order_by("created_at"):
        turn_recover(turn)
        recovered.append(turn.id)
    for conversation in Conversation.objects.filter(turns__status=Turn.Status.QUEUED).distinct():
        recovered.extend(turns_run_queued(conversation))  # messages that waited behind a turn a crash stopped
    return recovered
