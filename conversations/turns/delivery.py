"""Steps O to Q: re-project, stale the cards a change made unreachable, compose the reply (claim guard,
fact check) from committed events, persist it exactly as sent, and publish."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from conversations.core.record import TurnEnd, TurnNotice, TurnTrace
from conversations.core.reducer import Notice, Outcome
from registries import get_registry

from .. import store, stream
from ..models import Case, CommandJournalEntry, Conversation, DomainEvent, Interaction, Turn
from ..reply import case_facts_of, compose_reply
from ..selectors import Loaded, interaction_json, turn_json
from . import lease
from .copy import NOTICE_COPY
from .interactions import cards_stale, cards_withdraw_unreachable
from .run import KEEP_QUESTION, NOTHING_SAID, Said, TurnRun
from .writes import turn_end, turn_write

log = logging.getLogger(__name__)
Phase, JStatus = Turn.Phase, CommandJournalEntry.Status


@dataclass(frozen=True)
class Delivered:
    """What a turn's reply delivered: the turn's JSON and the answered card's as the sockets were sent them (what
    the HTTP answer shows too), and whether messages wait in the conversation's queue as the turn ended (None:
    not known)."""

    turn_json: dict[str, Any]
    card_json: dict[str, Any] | None
    queued_behind: bool | None


def reply_deliver(run: TurnRun, said: Said = NOTHING_SAID, *, committed: Sequence[DomainEvent] = (),
                  commands: Sequence[CommandJournalEntry] | None = None, cases: Sequence[Case] = (),
                  announce: Sequence[tuple[str, dict[str, Any]]] = (),
                  read: store.DeliveryRead | None = None) -> Delivered:
    """Steps O to Q; ``said``: what the reply says besides what happened, and the question it leaves open.
    ``committed``: the event rows this process inserted for the turn; used when they are all its events, else
    they are read. ``commands``: its journal rows as this process journaled and ran them (each kept in step with
    what the bus settled); None: read. ``cases``: case rows as this turn last wrote or read them in its own
    transactions (the bus's commits, L's cards), later ones first. ``announce``: events of the turn not sent yet
    (after ``run.announce``), sent first with the reply's. ``read``: delivery's read, made with the turn's last
    write (used when it read what this step would: ``store.DeliveryQuery``)."""
    turn, conversation, registry, resolved = run.turn, run.conversation, run.registry, run.resolved
    answers, say, pending = said.answers, said.say, said.pending
    # O: re-project changed cases; cards bound to an older revision go stale (the turn's record as this
    # process wrote it: every write of a turn goes through turn_write, which keeps the instance in step)
    trace = turn.trace
    known = {e.id: e for e in committed}
    if set(trace.event_ids) <= set(known):
        events = sorted((known[i] for i in trace.event_ids), key=lambda e: (e.created_at, e.sequence))
    else:  # some committed before a crash, or by another executor: as the database has them
        events = list(DomainEvent.objects.filter(pk__in=trace.event_ids).order_by("created_at", "sequence"))
    changed = {e.case_id for e in events}
    # read once, after the turn's commands ran (a click began from the conversation as read with its card:
    # another turn may have ended between that read and the click's claim)
    mine = set(trace.interaction_ids)
    query = store.DeliveryQuery(conversation.id, frozenset(mine), frozenset(changed))
    if read is None or read.query != query:
        read = store.delivery_read(query)
    loaded = read.cards
    if read.state is not None:  # (one running turn per conversation: from here on only this turn changes them)
        conversation.active_case_id, conversation.pending = read.state
    held = {r.id: r for r in commands or ()}
    if commands is not None and set(trace.command_ids) <= set(held):
        rows = sorted((held[i] for i in trace.command_ids), key=lambda r: (r.created_at, r.sequence))
    else:
        rows = store.commands(trace.command_ids)
    staled = cards_stale(loaded, changed, rows)
    cards = [c for c in loaded if c.id in mine]
    withdrawn = cards_withdraw_unreachable(rows, cards)
    staled += withdrawn
    notices = list(turn.notices)
    if withdrawn:
        notices.append(TurnNotice(code="confirmation_stale", text=NOTICE_COPY["confirmation_stale"]))
        turn_write(turn, notices=notices)
    # the cards' cases were read last (after every commit of the turn): they come first
    active = next_active_case(conversation, turn, events, [*(c.case for c in loaded if c.case is not None), *cases])
    # P: compose from committed events, notices, cards and guarded prose
    shown = [c for c in cards if c.pk not in {w.pk for w in withdrawn}]
    open_cards = [c for c in loaded if c.conversation_id == conversation.id and c.status == Interaction.Status.PENDING]
    facts = case_facts_of(registry, Case.objects.filter(owner_id=conversation.owner_id, kind__in=list(
        registry.case_kinds))) if answers or say else []
    reply = compose_reply(registry=registry, events=events, notices=notices, interactions=shown,
                          answers=answers, say=say, active_case=active, open_cards=open_cards, case_facts=facts,
                          command_acts={r.id: r.act for r in rows})
    trace.fact_checks = reply.pop("fact_checks", None) or []  # I20: why an answer was replaced by the facts
    # Q: persist the reply exactly as sent (with the question it leaves open, if any), then deliver
    trace.end = TurnEnd(active_case=active.id if active else None,
                        pending=conversation.pending if pending is KEEP_QUESTION else pending)
    with transaction.atomic():  # (one running turn per conversation: its instance holds the question open now)
        queued_behind = turn_end(turn, reply=reply, trace=trace, phase=Phase.DELIVERED, status=Turn.Status.COMPLETED)
        if pending is not KEEP_QUESTION and pending != conversation.pending:
            Conversation.objects.filter(pk=conversation.pk).update(pending=pending)
            conversation.pending = pending
    announced = [*run.announce, *announce]
    for card in staled:
        card.refresh_from_db()
        announced.append(("interaction.resolved", {"interaction": interaction_json(card)}))
    card_shown = None
    if resolved:
        if resolved.status == Interaction.Status.RESOLVING:  # not settled by this process: as the database has it
            resolved.refresh_from_db()
        own = [r for r in rows if r.interaction_id == resolved.id]  # a confirmed card's commands are the turn's
        card_shown = interaction_json(resolved, commands=own or None)
        announced.append(("interaction.resolved", {"interaction": card_shown}))
    # what the sockets are sent is what the click's or the message's HTTP answer shows (``Delivered``)
    turn_shown = turn_json(turn, loaded=Loaded(
        commands=rows, events=events, cards=cards, rounds=[] if turn.kind == Turn.Kind.CLICK else run.rounds))
    announced.append(("turn.completed", {"turn": turn_shown}))
    stream.publish_many(conversation.id, announced)
    return Delivered(turn_shown, card_shown, queued_behind)


def next_active_case(conversation: Conversation, turn: Turn, events: list[DomainEvent],
                     held: Sequence[Case] = ()) -> Case | None:
    """A turn that touched a case makes it active; a read-only question keeps the active case (§27.16).
    ``held``: rows of cases as the turn itself left them (the first of an id wins); others are read."""
    touched = [e.case_id for e in events]
    touched += [a.case for a in turn.acts if a.case and a.outcome in (Outcome.AWAITING_CONFIRMATION, Outcome.EXECUTED)]
    # (``conversation`` as delivery read it, once the turn held it: from then on only this turn moves it)
    if touched and touched[-1] != conversation.active_case_id:
        Conversation.objects.filter(pk=conversation.pk).update(active_case_id=touched[-1])
        conversation.active_case_id = touched[-1]
    if not conversation.active_case_id:
        return None
    own = next((c for c in held if c.pk == conversation.active_case_id), None)
    return own if own is not None else store.case(conversation.active_case_id)


def turn_fail_closed(turn: Turn, conversation: Conversation, code: str, detail: dict[str, Any]) -> None:
    """Every provider failed: status failed, a notice, no journal row, no event (SPEC §7.2)."""
    registry = get_registry()
    notices = [TurnNotice(code=code, text=NOTICE_COPY[code])]
    open_cards = list(Interaction.objects.filter(conversation=conversation, status=Interaction.Status.PENDING))
    reply = compose_reply(registry=registry, events=[], notices=notices, interactions=[], answers=[], say=None,
                          active_case=conversation.active_case, open_cards=open_cards)
    reply.pop("fact_checks", None)
    trace = turn.trace.model_copy(update={**detail, "end": TurnEnd(active_case=conversation.active_case_id)})
    Turn.objects.filter(pk=turn.pk).update(status=Turn.Status.FAILED, phase=Phase.FAILED, updated_at=timezone.now(),
                                           notices=notices,
                                           reply=reply, trace=trace)
    turn.refresh_from_db()
    stream.publish(conversation.id, "turn.failed", {"turn": turn_json(turn)})


def turn_finish_without_plan(run: TurnRun, code: str, detail: dict[str, Any], *,
                             explained: Sequence[Notice] = ()) -> Delivered | None:
    """The loop ended without a valid plan (budget, repair failed, the user stopped waiting): nothing runs,
    the turn completes. A stop requested meanwhile names the ending (the database decides which came first:
    the write requires no stop, and ``turn_stop`` requires the phase still before this one)."""
    turn = run.turn

    def ending(code: str) -> dict[str, Any]:
        return {"notices": [TurnNotice.of(n) for n in explained] + [TurnNotice(code=code, text=NOTICE_COPY[code])],
                "trace": TurnTrace(**detail, ending=code), "phase": Phase.COMMITTED}

    if code == "stopped" or not turn_write(turn, unless_stopped=True, **ending(code)):
        if not lease.still_mine(turn.id):  # recovery took the turn over (lease.py) and answered: nothing more here
            log.warning("turn %s was taken over by recovery; this process leaves it", turn.id)
            return None
        turn_write(turn, **ending("stopped"))
        turn.refresh_from_db(fields=["stop_requested_at"])  # asked for elsewhere (turn_stop): learn when
    return reply_deliver(run)
