"""Steps L to N: persist cards and journal every command (one transaction), then run what is ready
through the command bus, each command in its own transaction, one case's commands as a chain."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from django.db import transaction

from conversations.core.keys import idempotency_key
from conversations.core.origins import DIRECT_USER_ACT
from conversations.core.record import ActWhy, TurnAct, TurnNotice, TurnTrace
from conversations.core.reducer import NewCase, Outcome, Reduction
from registries import Actor

from .. import store, stream
from ..commands import (
    Execution,
    command_execute,
    journal_admit,
    journal_settle_behind,
    journal_settle_broken_chain,
)
from ..models import Case, CommandJournalEntry, Conversation, Interaction, Turn
from ..selectors import interaction_json
from .chaos import crash_point
from .copy import NOTICE_COPY
from .delivery import Delivered, reply_deliver
from .interactions import card_finish, cards_persist
from .run import NOTHING_SAID, Said, TurnRun
from .writes import turn_write, turn_write_reading

log = logging.getLogger(__name__)
Phase, JStatus = Turn.Phase, CommandJournalEntry.Status


def reduction_apply(run: TurnRun, reduction: Reduction, trace: TurnTrace, said: Said = NOTHING_SAID, *,
                    unless_stopped: bool = False, resolved_as: str = Interaction.Status.RESOLVED) -> Delivered:
    """Steps L to Q of the turn's ``reduction`` (I–K), shared by message turns and clicks that draw cards; ``trace``:
    the turn's record so far; ``said``: what the reply says besides what happened. ``unless_stopped``: L is the point of no return, so it commits only if the user has
    not stopped waiting (else ``TurnStopped``, nothing written). ``resolved_as``: what the answered card
    (``run.resolved``) becomes (a card redrawn with the person's edits is superseded, its commands stale)."""
    turn, conversation, resolved = run.turn, run.conversation, run.resolved
    # L: persist cards and journal every command before anything runs or is mentioned (I6)
    with transaction.atomic():
        if resolved is not None and resolved.status == Interaction.Status.RESOLVING:  # the card answered
            card_finish(resolved, resolved_as)
            if resolved_as != Interaction.Status.RESOLVED:
                journal_settle_behind([resolved.pk], JStatus.STALE)
        cards = cards_persist(run, reduction)
        rows = commands_journal(turn, conversation, reduction, cards)
        ready = [r for r in rows if r.status == JStatus.PENDING]
        trace = trace.model_copy(update={
            "acts": [ActWhy.of(a) for a in reduction.acts], "notices": [n.code for n in reduction.notices],
            "command_ids": [r.id for r in rows], "interaction_ids": [c.id for c in cards]})
        # last in the transaction, conditional: a stop that raced this step either came first (this update
        # finds it and everything above rolls back) or finds the phase already past understanding. With nothing
        # to run before the reply, it also makes delivery's read of the cards (nothing happens between)
        record: dict[str, Any] = {"phase": Phase.EXECUTING if ready else Phase.COMMITTED, "acts": [TurnAct.of(a) for a in reduction.acts],
                  "trace": trace, "notices": [TurnNotice.of(n) for n in reduction.notices]}
        read = None
        if ready:
            written = turn_write(turn, unless_stopped=unless_stopped, **record)
        else:
            read = turn_write_reading(turn, store.DeliveryQuery(conversation.id, frozenset(c.id for c in cards),
                                                                frozenset()), unless_stopped=unless_stopped, **record)
            written = read is not None
        if not written:
            raise TurnStopped
    crash_point("after_interactions_persisted")
    # each card with its commands, this turn's rows as just journaled; sent now when commands run before the
    # reply, else with the reply (nothing happens between: one numbering, one send)
    pending_cards = [("interaction.pending", {"interaction": interaction_json(
        card, commands=[r for r in rows if r.interaction_id == card.id])}) for card in cards]
    if ready:
        stream.publish_many(conversation.id, pending_cards)
    crash_point("after_journal_admission")
    # M-N: execute what is ready, in plan order, each in its own transaction; the last record says committed
    results, last_read = commands_execute_ready(turn, run.actor, run.today, ready,
                                                then=Phase.COMMITTED if ready else None,
                                                read_for_delivery=bool(ready), held=run.held)
    crash_point("after_commit")
    return reply_deliver(run, said, committed=[e for r in results for e in r.committed], commands=rows,
                         cases=cases_left(results, cards), announce=[] if ready else pending_cards,
                         read=read or last_read)


def cases_left(results: list[Execution], cards: Sequence[Interaction] = ()) -> list[Case]:
    """The case rows as this turn left them, the latest first: each command's commit, then the cases its cards
    were drawn on (read in L) unless a command of the turn ran on them (then the commit, or a fresh read)."""
    ran = [r.case_row for r in reversed(results) if r.case_row is not None]
    touched = {r.case for r in results}
    return ran + [c.case for c in cards if c.case is not None and c.case_id not in touched]


def commands_journal(turn: Turn, conversation: Conversation, reduction: Reduction,
                      cards: list[Interaction]) -> list[CommandJournalEntry]:
    card_of = {}
    for confirmation, card in zip(reduction.confirmations, [c for c in cards if c.kind == "confirmation"],
                                  strict=True):
        for act_id in confirmation.act_ids:
            card_of[act_id] = card
    rows = []
    for command in reduction.commands:
        new = command.case if isinstance(command.case, NewCase) else None
        key = idempotency_key(conversation=conversation.id, turn=turn.id, act_id=command.act_id,
                              case=str(command.case) if command.case else None, expected_revision=command.expected_revision, args=command.args)
        row, _ = journal_admit(
            idempotency_key=key, conversation=conversation, turn=turn, plan_act_id=command.act_id, act=command.act,
            case_id=command.case if isinstance(command.case, str) else None,
            case_from_act=new.act_id if new is not None else "",
            args=command.args, expected_revision=command.expected_revision, sequence=command.sequence,
            status=JStatus.AWAITING_CONFIRMATION if command.needs_confirmation else JStatus.PENDING,
            origin=({"edits": list(command.edits)} if command.edits else {}) if command.needs_confirmation
            else {"kind": DIRECT_USER_ACT, "evidence": command.evidence},
            origin_kind="none" if command.needs_confirmation else DIRECT_USER_ACT,
            interaction=card_of.get(command.act_id))
        rows.append(row)
    return rows


class TurnStopped(Exception):
    """The user stopped waiting before the turn's point of no return: nothing was journaled."""


class Executed(NamedTuple):
    results: list[Execution]  # in plan order
    read: store.DeliveryRead | None  # delivery's read, made with the last record (``read_for_delivery``)


def commands_execute_ready(turn: Turn, actor: Actor, today: str, rows: list[CommandJournalEntry], *,
                           then: str | None = None,
                           before_last: Callable[[list[Execution]], list[TurnNotice] | None] | None = None,
                           read_for_delivery: bool = False, held: Sequence[Case] = ()) -> Executed:
    """Run the turn's ready rows and record each outcome on the turn as it settles; ``then``: the phase the
    turn's record takes with the last of them (a turn with no ready row takes it at once). ``before_last``:
    called once every row has run, before the last record is written (a click settles its card there: a crash
    before that record re-runs nothing, the bus returns what committed); notices it returns replace the
    record's. ``read_for_delivery``: the last record also makes delivery's read (``store.DeliveryQuery``).
    ``held``: case rows the turn read (each command's commit replaces its case's)."""
    if not rows:
        instead = before_last([]) if before_last else None
        if then or instead is not None:
            fields: dict[str, Any] = {"phase": then} if then else {}
            if instead is not None:
                fields["notices"] = instead
            turn_write(turn, **fields)
        return Executed([], None)
    results: list[Execution] = []
    read = None
    trace, acts, notices = turn.trace.model_copy(deep=True), [a.model_copy() for a in turn.acts], list(turn.notices)
    broken: set[str] = set()  # cases where a command of this batch did not commit
    cases = {c.pk: c for c in held}
    rows = sorted(rows, key=lambda r: r.sequence)
    for row in rows:
        if row.case_id and row.case_id in broken:
            # the commands of one case form a chain (each expects the revision the one before leaves): once a
            # link failed, the rest never run, even if someone else's edit happens to bring that revision about
            result = journal_settle_broken_chain(entry=row)
        else:
            origin = row.origin or {"kind": DIRECT_USER_ACT}
            result = command_execute(entry=row, origin=origin, actor=actor, today=today,
                                     held=cases.get(row.case_id) if row.case_id else None)
        results.append(result)
        if result.case_row is not None:
            cases[result.case_row.pk] = result.case_row
        if result.status != JStatus.COMMITTED and row.case_id:
            broken.add(row.case_id)
        # what recovery needs to tell a row this turn recorded from one that settled as the process died
        trace.settle(row.id, result.events)
        for act in acts:
            if act.id == row.plan_act_id and (turn.kind == Turn.Kind.CLICK or act.outcome == Outcome.EXECUTED):
                act.outcome, act.code = outcome_of(result.status), result.code
                act.case = result.case or act.case
        if result.status == JStatus.CONFLICT:
            notices.append(TurnNotice(code="revision_conflict", text=NOTICE_COPY["revision_conflict"]))
        elif result.status in (JStatus.REJECTED, JStatus.FAILED):
            notices.append(TurnNotice(code=result.code or "rejected",
                                      text=f"I could not {row.act.replace('_', ' ')} ({result.code})."))
        # recorded after every command, so a crash between two commands loses no receipt
        last: dict[str, Any] = {"phase": then} if then and row is rows[-1] else {}
        if before_last and row is rows[-1] and (instead := before_last(results)) is not None:
            notices = list(instead)
        # the last record also makes delivery's read (nothing of the turn happens between)
        if read_for_delivery and row is rows[-1]:
            read = turn_write_reading(turn, store.DeliveryQuery(
                turn.conversation_id, frozenset(trace.interaction_ids),
                frozenset(e.case_id for r in results for e in r.committed)), trace=trace, acts=acts,
                notices=list(notices), **last)
        else:
            turn_write(turn, trace=trace, acts=acts, notices=list(notices), **last)
    return Executed(results, read)


_OUTCOME_OF: dict[str, str] = {JStatus.COMMITTED: Outcome.EXECUTED, JStatus.CONFLICT: Outcome.CONFLICT,
                               JStatus.OUTCOME_UNKNOWN: Outcome.OUTCOME_UNKNOWN}


def outcome_of(status: str) -> str:
    return _OUTCOME_OF.get(status, Outcome.REFUSED)
