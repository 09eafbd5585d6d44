"""The turn algorithm of SPEC §23 (steps A to Q), one module per job; read a message turn in
``messages`` (A–K), then ``execution`` (L–N) and ``delivery`` (O–Q); a click in ``clicks``; a crash's
leftovers in ``recovery`` and ``startup``. One ``TurnRun`` (``run``) is handed through the steps; cards live in
``interactions``, the engine's own words in ``copy``, the chaos seam in ``chaos``; every statement is the store's
(``conversations.store``).
"""

from .admission import TurnOutcome
from .chaos import CRASH_POINTS, SimulatedCrash
from .clicks import interaction_respond
from .context import actor_of, mode_allowed, offered_registry, today_for
from .interactions import cards_settle_orphaned
from .messages import queued_withdraw, turn_stop, turn_submit_message, turns_run_queued
from .recovery import turn_recover
from .startup import turns_recover_all

__all__ = [
    "CRASH_POINTS", "SimulatedCrash", "TurnOutcome", "actor_of", "cards_settle_orphaned",
    "interaction_respond", "mode_allowed", "offered_registry", "queued_withdraw", "today_for", "turn_recover", "turn_stop", "turn_submit_message",
    "turns_recover_all", "turns_run_queued",
]
