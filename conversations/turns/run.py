"""One turn as it goes through the steps of SPEC §23 (``TurnRun``), and what its reply says (``Said``)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from registries import Actor, Registry

from ..models import Case, Conversation, Interaction, ReadRound, Turn


class _Keep(enum.Enum):
    QUESTION = "keep the open question"

    def __repr__(self) -> str:
        return "KEEP_QUESTION"


# the open question a turn leaves as it found it (a click): neither replaced nor cleared (an enum member, so a
# type checker narrows ``pending is KEEP_QUESTION``)
KEEP_QUESTION: Final = _Keep.QUESTION
OpenQuestion = dict[str, Any] | None | Literal[_Keep.QUESTION]  # a question to leave open, None to clear it, or keep


@dataclass
class TurnRun:
    """A running turn and what it knows, handed from step to step (SPEC §23): who runs it, on what, and what it
    read. Made once the turn holds its conversation (a message: ``messages``, a click: ``clicks``, a crash's
    leftovers: ``recovery``); what each step adds is named where it is set (``rounds`` as they are recorded)."""

    turn: Turn  # kept in step with its row by every write (``writes``)
    conversation: Conversation  # as the turn read it once it held it: from then on only this turn changes it
    actor: Actor
    today: str  # the actor's day
    registry: Registry  # what the turn may offer (the audit mirror's entries out of service left out)
    held: list[Case] = field(default_factory=list)  # case rows as the turn read them (what its reduction saw)
    rounds: list[ReadRound] | None = None  # its read rounds as recorded (a message turn); None: read them
    resolved: Interaction | None = None  # the card the turn answers (a click)
    announce: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # events not sent yet: with the reply


@dataclass(frozen=True)
class Said:
    """What a turn's reply says besides what happened: a message's plan (its answers, its own words, the question
    it leaves open: it replaces the conversation's, None clearing it). A click, or a turn that ends without a
    plan, says nothing more and leaves the open question as it found it (``KEEP_QUESTION``)."""

    answers: list[dict[str, Any]] = field(default_factory=list)
    say: str | None = None
    pending: OpenQuestion = KEEP_QUESTION


NOTHING_SAID = Said()
