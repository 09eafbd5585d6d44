"""The chaos seam: named crash points that chaos tests arm (``CRASH_POINTS``); inert otherwise."""

from __future__ import annotations

import logging

from ..models import CommandJournalEntry, Turn

log = logging.getLogger(__name__)
Phase, JStatus = Turn.Phase, CommandJournalEntry.Status


class SimulatedCrash(BaseException):
    """Raised at a named crash point by chaos tests; BaseException so no handler swallows it."""


CRASH_POINTS: set[str] = set()


def crash_point(name: str) -> None:
    if name in CRASH_POINTS:
        raise SimulatedCrash(name)
