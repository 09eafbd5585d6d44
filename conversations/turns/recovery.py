"""Finishing a turn a crash interrupted, never repeating an effect (SPEC §23)."""

from __future__ import annotations

import logging

from registries import get_registry

from .. import stream
from ..models import CommandJournalEntry, Interaction, Turn
from ..selectors import interaction_json
from . import lease
from .context import actor_of, today_for
from .delivery import reply_deliver, turn_fail_closed
from .execution import commands_execute_ready
from .interactions import card_finish
from .run import Said, TurnRun
from .writes import set_phase

log = logging.getLogger(__name__)
Phase, JStatus = Turn.Phase, CommandJournalEntry.Status


def turn_recover(turn: Turn) -> Turn:
    """Finish a turn a crash left running, never repeating an effect (SPEC §23)."""
    turn.refresh_from_db()
    if turn.status != Turn.Status.RUNNING:
        return turn
    conversation = turn.conversation
    registry = get_registry()
    plan = turn.trace.plan or {}
    answers, say = plan.get("answers", []), plan.get("say")
    if turn.phase in (Phase.RECEIVED, Phase.UNDERSTANDING, Phase.REDUCED):
        # nothing was journaled (L is one transaction with the phase change): fail, do not re-plan
        if turn.kind == Turn.Kind.CLICK and turn.interaction_id:
            Interaction.objects.filter(pk=turn.interaction_id, status=Interaction.Status.RESOLVING).update(
                status=Interaction.Status.PENDING, chosen_option="", answered_by=None, result_turn=None)
        turn_fail_closed(turn, conversation, "turn_interrupted", {"recovered": True})
        return Turn.objects.get(pk=turn.pk)
    user = conversation.owner
    actor = actor_of(user)
    if turn.phase == Phase.EXECUTING:
        # every admitted row the turn has not recorded yet: pending ones run; one that committed just
        # before the crash is not re-run (the bus returns its recorded outcome) but its events and
        # outcome still reach the turn, so the reply's receipts and claims match what happened
        rows = list(CommandJournalEntry.objects.filter(pk__in=turn.trace.command_ids).exclude(
            pk__in=turn.trace.settled_command_ids).exclude(
            status__in=[JStatus.AWAITING_CONFIRMATION, JStatus.DECLINED, JStatus.STALE]))
        commands_execute_ready(turn, actor, today_for(actor), rows)  # by key: committed rows are never re-run
        if turn.kind == Turn.Kind.CLICK and turn.interaction_id:
            interaction = Interaction.objects.get(pk=turn.interaction_id)
            card_finish(interaction, Interaction.Status.DECLINED if turn.option == "decline"
                          else Interaction.Status.RESOLVED)
        set_phase(turn, Phase.COMMITTED)
    # a crash may have come before the cards were announced: announce the ones still open (the
    # event is idempotent for clients, which upsert cards by id)
    for card in Interaction.objects.filter(pk__in=turn.trace.interaction_ids,
                                           status=Interaction.Status.PENDING):
        stream.publish(conversation.id, "interaction.pending", {"interaction": interaction_json(card)})
    resolved = Interaction.objects.filter(pk=turn.interaction_id).first() if turn.interaction_id else None
    # the plan's words as its record has them; the open question is left as the conversation has it
    reply_deliver(TurnRun(turn, conversation, actor, today_for(actor), registry, resolved=resolved),
                  Said(answers, say))
    return Turn.objects.get(pk=turn.pk)


def turn_recover_or_fail(turn: Turn) -> None:
    try:
        turn_recover(turn)
    except Exception:
        log.exception("recovery of turn %s failed; it stays running for `manage.py recover_turns`", turn.id)
        lease.release(turn.id)
