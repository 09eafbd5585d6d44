"""The turn algorithm of SPEC §23, steps A to Q, in that order.

``turn_submit_message`` runs a message turn; ``interaction_respond`` runs a click turn (no model
call); ``turn_recover`` finishes a turn a crash interrupted, without repeating an effect. Read the
functions top to bottom: each step is marked with its letter.
"""

from __future__ import annotations

import functools
import logging
import time
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from conversations.core.context import CaseSummary, ModelRequest, OfferedAct, OfferedTool, RoundRecord
from conversations.core.keys import idempotency_key
from conversations.core.origins import CONFIRMED_INTERACTION, DIRECT_USER_ACT
from conversations.core.reducer import (
    NEW_CASE,
    ActResult,
    Notice,
    Outcome,
    Reduction,
    TurnFacts,
    ValidatedAct,
    reduce_selected,
    reduce_turn,
)
from conversations.providers.base import ProviderFailure
from conversations.providers.registry import build_provider
from registries import Actor, Registry, get_registry
from registries.models import EntryStatus
from registries.services import entry_statuses
from turnframe_web.errors import AppError, Conflict, Invalid, NotFound

from . import stream
from .commands import command_execute, journal_admit, journal_settle_broken_chain, journal_settle_unexecuted
from .models import Case, CommandJournalEntry, Conversation, DomainEvent, Interaction, ReadRound, Turn
from .readloop import ActorReadContext, LoopSettings, acquire_plan, snapshot
from .reply import case_facts_of, compose_reply

log = logging.getLogger(__name__)
Phase, JStatus = Turn.Phase, CommandJournalEntry.Status

NOTICE_COPY = {
    "provider_unavailable": "I could not reach the language model, so nothing was changed. Please try again.",
    "plan_rejected": "I could not make sense of that reliably, so nothing was changed. Could you rephrase?",
    "read_budget_exhausted": "I looked up too many things without reaching an answer, so nothing was changed.",
    "revision_conflict": "It changed while I was working on it, so that change was not applied.",
    "turn_interrupted": "This message was interrupted before anything changed. Please send it again.",
    "declined": "Declined: nothing was changed.",
    "interaction_stale": "It changed since this card was made, so nothing was changed. Please ask again.",
    "selection_none": "Nothing was changed.",
    "stopped": "Stopped as you asked, before anything was done: nothing was changed.",
    "confirmation_stale": "It is not in the state the confirmation was drawn for (a change did not go "
                          "through, or it changed meanwhile), so I did not ask you to confirm. Please ask again.",
}
MODE_CAPS = {"deterministic": {"acts"}, "read_agentic": {"reads"}, "controlled_agentic": {"reads", "acts"},
             "sandboxed_autonomous": {"reads", "acts", "autonomous"}}


class SimulatedCrash(BaseException):
    """Raised at a named crash point by chaos tests; BaseException so no handler swallows it."""


CRASH_POINTS: set[str] = set()


def _crash_point(name: str) -> None:
    if name in CRASH_POINTS:
        raise SimulatedCrash(name)


@dataclass(frozen=True)
class TurnOutcome:
    turn: Turn
    replayed: bool


def mode_allowed(requested: str, deployment: str) -> bool:
    """A conversation may narrow the deployment's mode, never widen it (SPEC §3)."""
    return requested in MODE_CAPS and MODE_CAPS[requested] <= MODE_CAPS.get(deployment, set())


def actor_of(user) -> Actor:
    return Actor(user_id=user.pk, username=user.get_username(), timezone=getattr(user, "timezone", None) or "UTC")


def today_for(actor: Actor) -> str:
    try:
        zone = ZoneInfo(actor.timezone)
    except Exception:
        zone = ZoneInfo("UTC")
    return timezone.now().astimezone(zone).date().isoformat()


def offered_registry(mode: str) -> Registry:
    """What this turn may offer: disabled or quarantined entries are left out (the audit mirror)."""
    registry = get_registry()
    statuses = entry_statuses()
    active = {name for name, status in statuses.items() if status == EntryStatus.ACTIVE}
    unmirrored = {n for n in (*registry.read_tools, *registry.acts) if n not in statuses}
    usable = active | unmirrored
    tools = {n: t for n, t in registry.read_tools.items() if n in usable and "reads" in MODE_CAPS[mode]}
    acts = {n: a for n, a in registry.acts.items() if n in usable}
    return Registry(case_kinds=registry.case_kinds, read_tools=tools, acts=acts)


# =============================================================================== message turns


def turn_submit_message(*, user, conversation_id: str, text: str, client_message_id: str | None = None) -> TurnOutcome:
    # A: accept; a repeated client id returns the recorded turn and nothing re-runs
    conversation = Conversation.objects.filter(pk=conversation_id, owner=user, hidden_at__isnull=True).first()
    if conversation is None:
        raise NotFound("No such conversation.")
    if client_message_id:
        existing = Turn.objects.filter(conversation=conversation, client_message_id=client_message_id).first()
        if existing is not None:
            return TurnOutcome(existing, True)
    # B: validate the shape
    text = (text or "").strip()
    if not text:
        raise Invalid("The message is empty.", errors=[{"loc": ["text"], "msg": "must not be empty"}])
    limit = settings.TURNFRAME["MAX_MESSAGE_CHARS"]
    if len(text) > limit:
        raise AppError(f"The message is longer than {limit} characters.", code="message_too_long", status=413)
    client_message_id = client_message_id or f"auto:{time.time_ns()}"
    # messages already waiting go first: a new one joins the queue behind them (arrival order)
    waiting = Turn.objects.filter(conversation=conversation, status=Turn.Status.QUEUED).exists()
    turn = None if waiting else _turn_open(conversation, kind=Turn.Kind.MESSAGE, text=text,
                                           client_message_id=client_message_id, queue=True)
    if turn is None:
        turn = _turn_queue(conversation, text=text, client_message_id=client_message_id)
    if isinstance(turn, TurnOutcome):
        return turn
    if turn.status == Turn.Status.QUEUED:
        stream.publish(conversation.id, "turn.queued", {"turn": turn.id, "text": text})
        turns_run_queued(conversation)  # the turn ahead may have finished meanwhile: nothing waits for nobody
        turn.refresh_from_db()
        return TurnOutcome(turn, False)
    _run_started_message(turn, conversation, user)
    turns_run_queued(conversation)
    turn.refresh_from_db()
    return TurnOutcome(turn, False)


def _run_started_message(turn: Turn, conversation: Conversation, user) -> None:
    stream.publish(conversation.id, "turn.started", {"turn": turn.id, "text": turn.text})
    try:
        _run_message_turn(turn, conversation, user)
    except SimulatedCrash:
        raise
    except Exception:
        log.exception("turn %s failed unexpectedly", turn.id)
        _turn_recover_or_fail(turn)


def _turn_queue(conversation: Conversation, *, text: str, client_message_id: str) -> Turn | TurnOutcome:
    """Keep a message sent while another turn runs (SPEC §23 A): in the database, bounded per conversation."""
    limit = settings.TURNFRAME.get("MAX_QUEUED_MESSAGES", 20)
    if Turn.objects.filter(conversation=conversation, status=Turn.Status.QUEUED).count() >= limit:
        raise AppError(f"{limit} messages of this conversation are already waiting; send this one when they are "
                       "done.", code="queue_full", status=429)
    try:
        with transaction.atomic():
            return Turn.objects.create(conversation=conversation, kind=Turn.Kind.MESSAGE, text=text,
                                       client_message_id=client_message_id, mode=conversation.mode,
                                       status=Turn.Status.QUEUED, active_case_before="")
    except IntegrityError:  # the same client id again: the turn it names is the answer
        return TurnOutcome(Turn.objects.get(conversation=conversation, client_message_id=client_message_id), True)


def turns_run_queued(conversation: Conversation) -> list[str]:
    """Run the conversation's queued messages, oldest first, each its own turn, while no other turn runs.
    Promotion is one conditional update the database allows only when nothing else of the conversation runs
    (the partial unique index), so two threads draining the same queue never run two turns at once."""
    ran = []
    while True:
        nxt = Turn.objects.filter(conversation=conversation, status=Turn.Status.QUEUED).order_by("created_at", "pk").first()
        if nxt is None:
            return ran
        try:
            with transaction.atomic():
                promoted = Turn.objects.filter(pk=nxt.pk, status=Turn.Status.QUEUED).update(
                    status=Turn.Status.RUNNING, active_case_before=Conversation.objects.filter(
                        pk=conversation.pk).values_list("active_case_id", flat=True).first() or "")
        except IntegrityError:
            return ran  # a turn is running: it runs the queue when it is done
        if promoted:
            conversation.refresh_from_db()
            nxt.refresh_from_db()
            _run_started_message(nxt, conversation, conversation.owner)
            ran.append(nxt.id)


def _turn_open(conversation: Conversation, *, kind: str, text: str, client_message_id: str,
               interaction: Interaction | None = None, option: str = "", queue: bool = False
               ) -> Turn | TurnOutcome | None:
    """Insert the running turn. The database allows one running turn per conversation; with ``queue``,
    None when another turn runs (the caller queues the message)."""
    try:
        with transaction.atomic():
            return Turn.objects.create(
                conversation=conversation, kind=kind, text=text, client_message_id=client_message_id,
                interaction=interaction, option=option, mode=conversation.mode,
                active_case_before=conversation.active_case_id or "")
    except IntegrityError:
        existing = Turn.objects.filter(conversation=conversation, client_message_id=client_message_id).first()
        if existing is not None:
            return TurnOutcome(existing, True)
        if queue:
            return None
        raise Conflict("Another message of this conversation is still being handled.", code="turn_in_progress") from None


def _run_message_turn(turn: Turn, conversation: Conversation, user) -> None:
    actor = actor_of(user)
    today = today_for(actor)
    mode = conversation.mode
    registry = offered_registry(mode)
    _set_phase(turn, Phase.UNDERSTANDING)
    # D: load the actor's relevant cases;  E: project them (pure)
    cases = _load_cases(actor, registry, conversation.active_case_id)
    # F: the model context
    base = _model_request(turn, conversation, actor, today, mode, registry, cases)
    # G-H: the read-only loop and one plan (retry once, then the fallback, before any commit)
    providers = [build_provider(settings.TURNFRAME["PROVIDER"], role="primary")]
    if settings.TURNFRAME["FALLBACK_PROVIDER"]:
        providers.append(build_provider(settings.TURNFRAME["FALLBACK_PROVIDER"], role="fallback"))
    limits = LoopSettings(settings.TURNFRAME["MAX_ROUNDS"], settings.TURNFRAME["MAX_CALLS"])
    ctx = ActorReadContext(actor, today, registry)
    rounds: list[dict[str, Any]] = []
    switched_off: dict[str, str] = {}  # a lookup the model asked for that staff or the runtime turned off

    def on_round(record: RoundRecord, provider: str) -> None:
        if record.status == "rejected":
            switched_off.update(_switched_off(record.requests, registry))
        number = len(rounds) + 1
        row = ReadRound.objects.create(turn=turn, round=number, provider=provider, status=record.status,
                                       requests=record.requests, results=record.results, error=record.error or "")
        rounds.append({"round": number, "provider": provider, "status": record.status})
        stream.publish(conversation.id, "read_round", {"turn": turn.id, **round_json(row)})
        if Turn.objects.filter(pk=turn.pk, stop_requested_at__isnull=False).exists():
            raise _StopWaiting  # the user stopped waiting: no further model call

    try:
        loop = acquire_plan(providers=providers, base=base, tools=dict(registry.read_tools), registry=registry,
                            ctx=ctx, limits=limits, on_round=on_round)
    except ProviderFailure as failure:
        _fail_closed(turn, conversation, "provider_unavailable", {"provider_failure": failure.kind})
        return
    except _StopWaiting:
        loop = None
    explained = [Notice("read_tool_switched_off", _switched_off_text(name, status))
                 for name, status in sorted(switched_off.items())]
    # the point of no return: past it the turn journals and runs, so a stop is honoured only before, and the
    # database arbitrates a stop that races this step (turn_stop's update requires the phase still before it)
    if loop is None or not Turn.objects.filter(pk=turn.pk, stop_requested_at__isnull=True).update(
            phase=Phase.REDUCED):
        _finish_without_plan(turn, conversation, registry, "stopped",
                             {"raw": loop.raw if loop else None, "detail": "the user stopped waiting"},
                             explained=explained)
        return
    if loop.validated is None:
        _finish_without_plan(turn, conversation, registry, loop.ending or "plan_rejected",
                             {"raw": loop.raw, "detail": loop.detail}, explained=explained)
        return
    # I-K: validate (done in the loop, all-or-nothing), resolve targets, reduce the whole turn
    referenced = {a.ref.id for a in loop.validated.acts if a.ref and a.ref.id} - set(cases)
    cases.update({c.id: snapshot(c) for c in Case.objects.filter(pk__in=referenced, owner=user)})
    plan = loop.validated.plan
    last_edit = _last_edit(conversation) if plan.undo is not None else None
    if last_edit and last_edit["case"] not in cases:
        cases.update({c.id: snapshot(c) for c in Case.objects.filter(pk=last_edit["case"], owner=user)})
    facts = TurnFacts(message=turn.text, mode=mode, actor=actor, today=today, registry=registry, cases=cases,
                      active_case=conversation.active_case_id,
                      earlier_message=(conversation.pending or {}).get("message"), last_edit=last_edit)
    reduction = reduce_turn(loop.validated, facts)
    reduction.notices[:0] = explained
    trace = {"rounds": rounds, "plan_raw": loop.raw, "plan": plan.model_dump(mode="json")}
    pending = {**plan.pending.model_dump(mode="json", exclude_none=True), "message": turn.text} if plan.pending else None
    pending = pending or _unfound_target_question(turn, reduction)
    _apply_reduction(turn, conversation, actor, today, registry, reduction, trace,
                     answers=[a.model_dump() for a in plan.answers], say=plan.say, pending=pending)


def _switched_off(requests: list[dict[str, Any]], offered: Registry) -> dict[str, str]:
    """The read tools a rejected round asked for that exist in code but are not offered because the
    audit mirror has them disabled (by staff) or quarantined (by the runtime): name -> status."""
    wanted = {str(r.get("tool")) for r in requests} - set(offered.read_tools)
    known = wanted & set(get_registry().read_tools)
    statuses = entry_statuses() if known else {}
    return {name: statuses[name] for name in known
            if statuses.get(name) in (EntryStatus.DISABLED, EntryStatus.QUARANTINED)}


def _switched_off_text(name: str, status: str) -> str:
    if status == EntryStatus.DISABLED:
        return f"I could not use the lookup “{name}”: that lookup is switched off by an administrator."
    return (f"I could not use the lookup “{name}”: that lookup is switched off for safety until an administrator "
            "has checked it.")


class _StopWaiting(Exception):
    """Raised between read rounds when the user stopped waiting for the model."""


def turn_stop(*, user, turn_id: str) -> tuple[Turn, bool]:
    """Stop waiting for a slow model (issue 12, 2). A message turn still understanding (reading, waiting on
    the model) ends before anything is journaled or run: ``(turn, True)``. A turn past that point (its plan
    is being carried out), a click or a finished turn is not stopped: ``(turn, False)``, it will finish."""
    turn = Turn.objects.filter(pk=turn_id, conversation__owner=user, conversation__hidden_at__isnull=True).first()
    if turn is None:
        raise NotFound("No such turn.")
    Turn.objects.filter(pk=turn.pk, kind=Turn.Kind.MESSAGE, status=Turn.Status.RUNNING,
                        phase__in=(Phase.RECEIVED, Phase.UNDERSTANDING),
                        stop_requested_at__isnull=True).update(stop_requested_at=timezone.now())
    turn.refresh_from_db()
    honoured = turn.stop_requested_at is not None and (
        turn.phase in (Phase.RECEIVED, Phase.UNDERSTANDING) or (turn.trace or {}).get("ending") == "stopped")
    return turn, honoured


def _unfound_target_question(turn: Turn, reduction: Reduction) -> dict[str, Any] | None:
    """One act refused because the case it named does not resolve: the refusal is a question the next
    message may answer ("put it on my Berlin one"), kept like any pending question (server state)."""
    unfound = [a for a in reduction.acts if a.code == "target_not_found"]
    if len(unfound) != 1 or len(reduction.acts) != 1:
        return None
    notice = next((n.text for n in reduction.notices if n.code == "target_not_found"), "Which case do you mean?")
    return {"question": notice, "act": unfound[0].act, "args": dict(unfound[0].args or {}), "missing": ["case"],
            "message": turn.text}


def _apply_reduction(turn: Turn, conversation: Conversation, actor: Actor, today: str, registry: Registry,
                     reduction: Reduction, trace: dict[str, Any], *, answers: list[dict[str, Any]], say: str | None,
                     resolved: Interaction | None = None, pending: dict[str, Any] | None | bool = False) -> None:
    """Steps L to Q, shared by message turns and selection clicks."""
    _set_phase(turn, Phase.REDUCED)
    # L: persist cards and journal every command before anything runs or is mentioned (I6)
    with transaction.atomic():
        cards = _persist_interactions(turn, conversation, actor, registry, reduction)
        rows = _journal_commands(turn, conversation, reduction, cards)
        acts_json = [_act_json(a) for a in reduction.acts]
        trace = {**trace, "acts": [_act_trace(a) for a in reduction.acts],
                 "command_ids": [r.id for r in rows], "interaction_ids": [c.id for c in cards],
                 "notices": [n.code for n in reduction.notices]}
        Turn.objects.filter(pk=turn.pk).update(
            phase=Phase.EXECUTING, acts=acts_json, trace=trace,
            notices=[{"code": n.code, "text": n.text} for n in reduction.notices])
    _crash_point("after_interactions_persisted")
    for card in cards:
        stream.publish(conversation.id, "interaction.pending", {"interaction": interaction_json(card)})
    _crash_point("after_journal_admission")
    # M-N: execute what is ready, in plan order, each in its own transaction
    _execute_ready(turn, actor, today, [r for r in rows if r.status == JStatus.PENDING])
    _set_phase(turn, Phase.COMMITTED)
    _crash_point("after_commit")
    _compose_and_deliver(turn, conversation, registry, answers=answers, say=say, resolved=resolved, pending=pending)


def _execute_ready(turn: Turn, actor: Actor, today: str, rows: list[CommandJournalEntry]) -> None:
    if not rows:
        return
    trace, acts, notices = Turn.objects.values_list("trace", "acts", "notices").get(pk=turn.pk)
    trace, acts, notices = dict(trace), list(acts), list(notices)
    broken: set[str] = set()  # cases where a command of this batch did not commit
    for row in sorted(rows, key=lambda r: r.sequence):
        if row.case_id and row.case_id in broken:
            # the commands of one case form a chain (each expects the revision the one before leaves): once a
            # link failed, the rest never run, even if someone else's edit happens to bring that revision about
            result = journal_settle_broken_chain(entry=row)
        else:
            origin = row.origin or {"kind": DIRECT_USER_ACT}
            result = command_execute(entry=row, origin=origin, actor=actor, today=today)
        if result.status != JStatus.COMMITTED and row.case_id:
            broken.add(row.case_id)
        trace["event_ids"] = list(dict.fromkeys(trace.get("event_ids", []) + result.events))
        if row.id not in trace.get("command_ids", []):
            trace["command_ids"] = trace.get("command_ids", []) + [row.id]
        # what recovery needs to tell a row this turn recorded from one that settled as the process died
        trace["settled_command_ids"] = trace.get("settled_command_ids", []) + [row.id]
        for act in acts:
            if act["id"] == row.plan_act_id and (turn.kind == Turn.Kind.CLICK or act["outcome"] == Outcome.EXECUTED):
                act["outcome"], act["code"] = _outcome_of(result.status), result.code
                act["case"] = result.case or act.get("case")
        if result.status == JStatus.CONFLICT:
            notices.append({"code": "revision_conflict", "text": NOTICE_COPY["revision_conflict"]})
        elif result.status in (JStatus.REJECTED, JStatus.FAILED):
            notices.append({"code": result.code or "rejected",
                            "text": f"I could not {row.act.replace('_', ' ')} ({result.code})."})
        # recorded after every command, so a crash between two commands loses no receipt
        Turn.objects.filter(pk=turn.pk).update(trace=trace, acts=acts, notices=notices)


def _outcome_of(status: str) -> str:
    return {JStatus.COMMITTED: Outcome.EXECUTED, JStatus.CONFLICT: Outcome.CONFLICT,
            JStatus.OUTCOME_UNKNOWN: Outcome.OUTCOME_UNKNOWN}.get(status, Outcome.REFUSED)


def _compose_and_deliver(turn: Turn, conversation: Conversation, registry: Registry, *, answers, say,
                         resolved: Interaction | None = None, pending: dict[str, Any] | None | bool = False) -> None:
    """Steps O to Q. ``pending``: the question this reply leaves open (a message turn replaces the
    conversation's, None clearing it); False leaves it as it is (clicks)."""
    # O: re-project changed cases; cards bound to an older revision go stale
    turn.refresh_from_db()
    trace = turn.trace or {}
    events = list(DomainEvent.objects.filter(pk__in=trace.get("event_ids", [])).order_by("created_at", "sequence"))
    changed = {e.case_id for e in events}
    staled = _stale_cards(changed)
    cards = list(Interaction.objects.filter(pk__in=trace.get("interaction_ids", [])))
    withdrawn = _withdraw_unreachable_cards(trace, cards)
    staled += withdrawn
    notices = list(turn.notices)
    if withdrawn:
        notices.append({"code": "confirmation_stale", "text": NOTICE_COPY["confirmation_stale"]})
        Turn.objects.filter(pk=turn.pk).update(notices=notices)
    active = _next_active_case(conversation, turn, events)
    # P: compose from committed events, notices, cards and guarded prose
    shown = [c for c in cards if c.pk not in {w.pk for w in withdrawn}]
    open_cards = list(Interaction.objects.filter(conversation=conversation, status=Interaction.Status.PENDING))
    facts = case_facts_of(registry, Case.objects.filter(owner_id=conversation.owner_id, kind__in=list(
        registry.case_kinds))) if answers or say else []
    reply = compose_reply(registry=registry, events=events, notices=notices, interactions=shown,
                          answers=answers, say=say, active_case=active, open_cards=open_cards, case_facts=facts)
    if fact_checks := reply.pop("fact_checks", None):
        trace["fact_checks"] = fact_checks  # I20: why an answer was replaced by the facts
    _set_phase(turn, Phase.COMPOSED)
    # Q: persist the reply exactly as sent, then deliver
    trace["active_case_after"] = active.id if active else None
    with transaction.atomic():
        Turn.objects.filter(pk=turn.pk).update(reply=reply, trace=trace, phase=Phase.DELIVERED,
                                               status=Turn.Status.COMPLETED)
        if pending is not False:
            trace["pending"] = pending
            Turn.objects.filter(pk=turn.pk).update(trace=trace)
            Conversation.objects.filter(pk=conversation.pk).update(pending=pending)
            conversation.pending = pending
    for card in staled + ([resolved] if resolved else []):
        card.refresh_from_db()
        stream.publish(conversation.id, "interaction.resolved", {"interaction": interaction_json(card)})
    turn.refresh_from_db()
    from .selectors import turn_json

    stream.publish(conversation.id, "turn.completed", {"turn": turn_json(turn)})


def _next_active_case(conversation: Conversation, turn: Turn, events: list[DomainEvent]) -> Case | None:
    """A turn that touched a case makes it active; a read-only question keeps the active case (§27.16)."""
    touched = [e.case_id for e in events]
    touched += [a["case"] for a in turn.acts if a.get("case") and not str(a["case"]).startswith(NEW_CASE)
                and a.get("outcome") in (Outcome.AWAITING_CONFIRMATION, Outcome.EXECUTED)]
    if touched:
        Conversation.objects.filter(pk=conversation.pk).update(active_case_id=touched[-1])
    conversation.refresh_from_db()
    return conversation.active_case


def _stale_cards(changed_cases: set[str]) -> list[Interaction]:
    """Pending cards bound to a revision that is no longer live can never run: mark them stale."""
    staled = []
    for card in Interaction.objects.filter(case_id__in=changed_cases, status=Interaction.Status.PENDING,
                                           kind=Interaction.Kind.CONFIRMATION).select_related("case"):
        if card.case_revision != card.case.revision:
            if Interaction.objects.filter(pk=card.pk, status=Interaction.Status.PENDING).update(
                    status=Interaction.Status.STALE, resolved_at=timezone.now()):
                journal_settle_unexecuted(entries=card.commands.all(), status=JStatus.STALE)
                staled.append(card)
    return staled


def _withdraw_unreachable_cards(trace: dict[str, Any], cards: list[Interaction]) -> list[Interaction]:
    """A card this turn drew for the state after its direct edits is withdrawn (stale) when one of
    those edits did not commit: its bound revision may since be reached by another writer's change,
    never by the state the card describes."""
    direct = CommandJournalEntry.objects.filter(pk__in=trace.get("command_ids", []), interaction__isnull=True)
    failed = {row.case_id for row in direct if row.status != JStatus.COMMITTED}
    withdrawn = []
    for card in cards:
        if card.kind != Interaction.Kind.CONFIRMATION or card.status != Interaction.Status.PENDING:
            continue
        live = Case.objects.filter(pk=card.case_id).values_list("revision", flat=True).first()
        if card.case_id in failed or live != card.case_revision:
            if Interaction.objects.filter(pk=card.pk, status=Interaction.Status.PENDING).update(
                    status=Interaction.Status.STALE, resolved_at=timezone.now()):
                journal_settle_unexecuted(entries=card.commands.all(), status=JStatus.STALE)
                withdrawn.append(card)
    return withdrawn


def _fail_closed(turn: Turn, conversation: Conversation, code: str, detail: dict[str, Any]) -> None:
    """Every provider failed: status failed, a notice, no journal row, no event (SPEC §7.2)."""
    registry = get_registry()
    notices = [{"code": code, "text": NOTICE_COPY[code]}]
    open_cards = list(Interaction.objects.filter(conversation=conversation, status=Interaction.Status.PENDING))
    reply = compose_reply(registry=registry, events=[], notices=notices, interactions=[], answers=[], say=None,
                          active_case=conversation.active_case, open_cards=open_cards)
    reply.pop("fact_checks", None)
    Turn.objects.filter(pk=turn.pk).update(status=Turn.Status.FAILED, phase=Phase.FAILED, notices=notices,
                                           reply=reply, trace={**(turn.trace or {}), **detail,
                                                               "active_case_after": conversation.active_case_id})
    turn.refresh_from_db()
    from .selectors import turn_json

    stream.publish(conversation.id, "turn.failed", {"turn": turn_json(turn)})


def _finish_without_plan(turn: Turn, conversation: Conversation, registry: Registry, code: str,
                         detail: dict[str, Any], *, explained: list[Notice] = ()) -> None:
    """The loop ended without a valid plan (budget, repair failed): nothing runs, the turn completes."""
    notices = [{"code": n.code, "text": n.text} for n in explained] + [{"code": code, "text": NOTICE_COPY[code]}]
    Turn.objects.filter(pk=turn.pk).update(notices=notices, trace={**detail, "ending": code}, phase=Phase.COMMITTED)
    _compose_and_deliver(turn, conversation, registry, answers=[], say=None)


# =============================================================================== L: cards and journal


def _persist_interactions(turn: Turn, conversation: Conversation, actor: Actor, registry: Registry,
                          reduction: Reduction) -> list[Interaction]:
    cards: list[Interaction] = []
    by_id = {a.id: a for a in reduction.acts}
    commands = {c.act_id: c for c in reduction.commands}
    for confirmation in reduction.confirmations:
        case = Case.objects.get(pk=confirmation.case)
        _supersede_open_cards(case)
        # each command described on the state it will find: after this turn's direct edits and the
        # card's earlier commands, never on the state before the message
        lines = [registry.acts[by_id[i].act].describe_command(commands[i].preview or snapshot(case),
                                                               commands[i].args)
                 or by_id[i].act.replace("_", " ") for i in confirmation.act_ids]
        kind = registry.case_kinds.get(case.kind)
        reasons = [kind.reason_copy.get(code, code.replace("_", " ")) if kind else code.replace("_", " ")
                   for code in confirmation.codes]
        reason = f" ({'; '.join(reasons)})" if reasons else ""
        cards.append(Interaction.objects.create(
            conversation=conversation, turn=turn, owner_id=actor.user_id, kind=Interaction.Kind.CONFIRMATION,
            case=case, case_revision=confirmation.bound_revision,
            prompt=f"Please confirm{reason}: " + "; ".join(lines) + ".",
            options=[{"id": "confirm", "label": "Confirm", "action": {"type": "execute_commands"}},
                     {"id": "decline", "label": "Decline", "action": {"type": "decline"}}]))
    for selection in reduction.selections:
        candidates = list(Case.objects.filter(pk__in=selection.candidates, owner_id=actor.user_id))
        options = [{"id": c.id, "label": c.title, "action": {"type": "resume_acts", "case": c.id},
                    **_case_detail(registry, c)} for c in candidates]
        options.append({"id": "none", "label": "None of these", "action": {"type": "none"}})
        what = ", ".join(a.act.replace("_", " ") for a in selection.held_acts)
        cards.append(Interaction.objects.create(
            conversation=conversation, turn=turn, owner_id=actor.user_id, kind=Interaction.Kind.SELECTION,
            blocking=False, prompt=f"Which {_noun(registry, selection.case_kind)} do you mean ({what})?",
            options=options,
            held_acts=[a.to_json() for a in selection.held_acts], candidates=[c.id for c in candidates]))
    return cards


def _case_detail(registry: Registry, case: Case) -> dict[str, Any]:
    """What a selection card shows beside a candidate's title: its status and total."""
    kind = registry.case_kinds.get(case.kind)
    view = kind.project(snapshot(case)) if kind else {}
    detail = {"status": case.status}
    if view.get("total") is not None:
        detail |= {"total": str(view["total"]), "currency": str(view.get("currency") or "")}
    return {"detail": detail}


def _supersede_open_cards(case: Case) -> None:
    """I5: a new blocking card on a case supersedes the open one, which can never be answered again."""
    for old in Interaction.objects.filter(case=case, blocking=True, status=Interaction.Status.PENDING):
        if Interaction.objects.filter(pk=old.pk, status=Interaction.Status.PENDING).update(
                status=Interaction.Status.SUPERSEDED, resolved_at=timezone.now()):
            journal_settle_unexecuted(entries=old.commands.all(), status=JStatus.STALE)
            transaction.on_commit(lambda pk=old.pk: _publish_resolved(pk))


def _publish_resolved(interaction_id: str) -> None:
    """Announce a card's new status as the database has it (never a stale in-memory copy)."""
    card = Interaction.objects.get(pk=interaction_id)
    stream.publish(card.conversation_id, "interaction.resolved", {"interaction": interaction_json(card)})


def _journal_commands(turn: Turn, conversation: Conversation, reduction: Reduction,
                      cards: list[Interaction]) -> list[CommandJournalEntry]:
    card_of = {}
    for confirmation, card in zip(reduction.confirmations, [c for c in cards if c.kind == "confirmation"],
                                  strict=True):
        for act_id in confirmation.act_ids:
            card_of[act_id] = card
    rows = []
    for command in reduction.commands:
        on_new = bool(command.case and command.case.startswith(NEW_CASE))
        case_id = None if (on_new or command.case is None) else command.case
        key = idempotency_key(conversation=conversation.id, turn=turn.id, act_id=command.act_id,
                              case=command.case, expected_revision=command.expected_revision, args=command.args)
        row, _ = journal_admit(
            idempotency_key=key, conversation=conversation, turn=turn, plan_act_id=command.act_id, act=command.act,
            case_id=case_id, case_from_act=command.case.removeprefix(NEW_CASE) if on_new else "",
            args=command.args, expected_revision=command.expected_revision, sequence=command.sequence,
            status=JStatus.AWAITING_CONFIRMATION if command.needs_confirmation else JStatus.PENDING,
            origin={} if command.needs_confirmation else {"kind": DIRECT_USER_ACT, "evidence": command.evidence},
            origin_kind="none" if command.needs_confirmation else DIRECT_USER_ACT,
            interaction=card_of.get(command.act_id))
        rows.append(row)
    return rows


# =============================================================================== click turns


def interaction_respond(*, user, interaction_id: str, option: str, client_response_id: str | None = None
                        ) -> tuple[Interaction, Turn]:
    """Answer a card (SPEC §17). The click sends ids only; the server runs the stored action (I7)."""
    deadline = time.monotonic() + 15
    while True:
        # C: load and check the interaction, scoped to the user (a foreign id is a missing id)
        interaction = Interaction.objects.filter(pk=interaction_id, owner=user).select_related("case").first()
        if interaction is None:
            raise NotFound("No such interaction.")
        if option not in {o["id"] for o in interaction.options}:
            raise Invalid("That is not one of the card's options.", code="invalid_option",
                          errors=[{"loc": ["option"], "msg": "not an option of this interaction"}])
        status = interaction.status
        if status in (Interaction.Status.RESOLVED, Interaction.Status.DECLINED):
            if interaction.chosen_option == option and interaction.result_turn_id:
                return interaction, interaction.result_turn  # a repeated answer: the original outcome
            raise Conflict("This card was already answered.", code="interaction_closed")
        if status == Interaction.Status.STALE:
            raise Conflict("It changed since this card was made; nothing was run.", code="interaction_stale")
        if status in (Interaction.Status.SUPERSEDED, Interaction.Status.EXPIRED):
            raise Conflict("This card was replaced by a newer one.", code="interaction_closed")
        if status == Interaction.Status.RESOLVING:
            if time.monotonic() > deadline:
                raise Conflict("This card is being answered.", code="interaction_closed")
            time.sleep(0.05)
            continue
        if interaction.kind == Interaction.Kind.CONFIRMATION and interaction.case.revision != interaction.case_revision:
            if Interaction.objects.filter(pk=interaction.pk, status=Interaction.Status.PENDING).update(
                    status=Interaction.Status.STALE, resolved_at=timezone.now()):
                journal_settle_unexecuted(entries=interaction.commands.all(), status=JStatus.STALE)
                interaction.refresh_from_db()
                stream.publish(interaction.conversation_id, "interaction.resolved",
                               {"interaction": interaction_json(interaction)})
            raise Conflict("It changed since this card was made; nothing was run.", code="interaction_stale")
        claimed = _claim_card(interaction, option, user, client_response_id)
        if isinstance(claimed, TurnOutcome):  # the client's response id names an earlier turn: that is the answer
            interaction.refresh_from_db()
            return interaction, claimed.turn
        if claimed is not None:
            turn = claimed
            break
    conversation = interaction.conversation
    stream.publish(conversation.id, "turn.started", {"turn": turn.id, "text": ""})
    try:
        _run_click_turn(turn, conversation, interaction, option, user)
    except SimulatedCrash:
        raise
    except Exception:
        log.exception("click turn %s failed unexpectedly", turn.id)
        _turn_recover_or_fail(turn)
    turns_run_queued(conversation)
    interaction.refresh_from_db()
    turn.refresh_from_db()
    if interaction.status == Interaction.Status.STALE:  # the commands met a newer revision: nothing ran
        raise Conflict("It changed since this card was made; nothing was run.", code="interaction_stale")
    return interaction, turn


class _ClickNotStarted(Exception):
    def __init__(self, outcome: TurnOutcome | None = None):
        self.outcome = outcome


def _claim_card(interaction: Interaction, option: str, user, client_response_id: str | None
                ) -> Turn | TurnOutcome | None:
    """Claim the card and open the click's turn in one transaction (SPEC §17): a crash or a refusal between
    the two can never leave a card ``resolving`` with no turn to finish it. None: another click won."""
    try:
        with transaction.atomic():
            # the one conditional update that decides who answers (concurrency by the database)
            if not Interaction.objects.filter(pk=interaction.pk, status=Interaction.Status.PENDING).update(
                    status=Interaction.Status.RESOLVING, chosen_option=option, answered_by=user):
                return None
            _crash_point("after_card_claimed")
            # only the winner gets here, so counting earlier attempts is race-free: a click whose turn was
            # interrupted (and the card reopened by recovery) must not meet that turn's id again
            attempt = Turn.objects.filter(interaction=interaction).count() + 1
            turn = _turn_open(interaction.conversation, kind=Turn.Kind.CLICK, text="", interaction=interaction,
                              option=option,
                              client_message_id=client_response_id or f"click:{interaction.id}:{option}:{attempt}")
            if isinstance(turn, TurnOutcome):
                raise _ClickNotStarted(turn)
            Interaction.objects.filter(pk=interaction.pk).update(result_turn=turn)
            return turn
    except _ClickNotStarted as not_started:  # rolled back: the card is answerable as it was
        return not_started.outcome


def _run_click_turn(turn: Turn, conversation: Conversation, interaction: Interaction, option: str, user) -> None:
    actor = actor_of(user)
    today = today_for(actor)
    registry = offered_registry(conversation.mode)
    action = next(o["action"] for o in interaction.options if o["id"] == option)
    rows = list(interaction.commands.order_by("sequence"))
    acts = [{"id": r.plan_act_id, "act": r.act, "case": r.case_id, "outcome": "", "code": None} for r in rows]
    if action["type"] == "execute_commands":
        origin = {"kind": CONFIRMED_INTERACTION, "interaction": interaction.id, "option": option, "user": actor.user_id}
        with transaction.atomic():
            CommandJournalEntry.objects.filter(pk__in=[r.pk for r in rows], status=JStatus.AWAITING_CONFIRMATION
                                               ).update(status=JStatus.PENDING, origin=origin,
                                                        origin_kind=CONFIRMED_INTERACTION)
            Turn.objects.filter(pk=turn.pk).update(phase=Phase.EXECUTING, acts=acts,
                                                   trace={"click": {"interaction": interaction.id, "option": option},
                                                          "command_ids": [r.id for r in rows]})
        _crash_point("after_journal_admission")
        rows = list(CommandJournalEntry.objects.filter(pk__in=[r.pk for r in rows], status=JStatus.PENDING))
        _execute_ready(turn, actor, today, rows)
        settled = set(CommandJournalEntry.objects.filter(pk__in=[r.pk for r in rows]).values_list("status", flat=True))
        if rows and JStatus.CONFLICT in settled and JStatus.COMMITTED not in settled:
            # it changed under the card: stale, and nothing was changed
            _finish_click(interaction, Interaction.Status.STALE)
            Turn.objects.filter(pk=turn.pk).update(notices=[{"code": "interaction_stale",
                                                            "text": NOTICE_COPY["interaction_stale"]}])
        else:
            _finish_click(interaction, Interaction.Status.RESOLVED)
        _set_phase(turn, Phase.COMMITTED)
        _crash_point("after_commit")
        _compose_and_deliver(turn, conversation, registry, answers=[], say=None, resolved=interaction)
        return
    if action["type"] == "decline":
        for a in acts:
            a["outcome"] = Outcome.DECLINED
        # one transaction: a crash leaves either an answerable card or a declined card, never a mix
        with transaction.atomic():
            journal_settle_unexecuted(entries=rows, status=JStatus.DECLINED)
            _finish_click(interaction, Interaction.Status.DECLINED)
            Turn.objects.filter(pk=turn.pk).update(acts=acts, phase=Phase.COMMITTED,
                                                   notices=[{"code": "declined", "text": NOTICE_COPY["declined"]}],
                                                   trace={"click": {"interaction": interaction.id, "option": option}})
        _crash_point("after_commit")
        _compose_and_deliver(turn, conversation, registry, answers=[], say=None, resolved=interaction)
        return
    held = [ValidatedAct.from_json(a) for a in interaction.held_acts]
    if action["type"] == "none":
        _finish_click(interaction, Interaction.Status.RESOLVED)
        Turn.objects.filter(pk=turn.pk).update(
            acts=[{"id": a.id, "act": a.act, "case": None, "outcome": Outcome.DECLINED, "code": None} for a in held],
            notices=[{"code": "selection_none", "text": NOTICE_COPY["selection_none"]}], phase=Phase.COMMITTED,
            trace={"click": {"interaction": interaction.id, "option": option}})
        _compose_and_deliver(turn, conversation, registry, answers=[], say=None, resolved=interaction)
        return
    # a selection: resume the held acts on exactly the chosen case, through policy and confirmation
    chosen = Case.objects.filter(pk=action["case"], owner=user).first()
    if chosen is None or chosen.id not in interaction.candidates:
        raise NotFound("No such case.")
    Conversation.objects.filter(pk=conversation.pk).update(active_case=chosen)
    facts = TurnFacts(message="", mode=conversation.mode, actor=actor, today=today, registry=registry,
                      cases={chosen.id: snapshot(chosen)}, active_case=chosen.id)
    reduction = reduce_selected(held, chosen.id, facts)
    _finish_click(interaction, Interaction.Status.RESOLVED)
    _apply_reduction(turn, conversation, actor, today, registry, reduction,
                     {"click": {"interaction": interaction.id, "option": option}}, answers=[], say=None,
                     resolved=interaction)


def _finish_click(interaction: Interaction, status: str) -> None:
    Interaction.objects.filter(pk=interaction.pk, status=Interaction.Status.RESOLVING).update(
        status=status, resolved_at=timezone.now())


# =============================================================================== recovery


def turn_recover(turn: Turn) -> Turn:
    """Finish a turn a crash left running, never repeating an effect (SPEC §23)."""
    turn.refresh_from_db()
    if turn.status != Turn.Status.RUNNING:
        return turn
    conversation = turn.conversation
    registry = get_registry()
    plan = (turn.trace or {}).get("plan") or {}
    answers, say = plan.get("answers", []), plan.get("say")
    if turn.phase in (Phase.RECEIVED, Phase.UNDERSTANDING, Phase.REDUCED):
        # nothing was journaled (L is one transaction with the phase change): fail, do not re-plan
        if turn.kind == Turn.Kind.CLICK and turn.interaction_id:
            Interaction.objects.filter(pk=turn.interaction_id, status=Interaction.Status.RESOLVING).update(
                status=Interaction.Status.PENDING, chosen_option="", answered_by=None, result_turn=None)
        _fail_closed(turn, conversation, "turn_interrupted", {"recovered": True})
        return Turn.objects.get(pk=turn.pk)
    user = conversation.owner
    actor = actor_of(user)
    if turn.phase == Phase.EXECUTING:
        # every admitted row the turn has not recorded yet: pending ones run; one that committed just
        # before the crash is not re-run (the bus returns its recorded outcome) but its events and
        # outcome still reach the turn, so the reply's receipts and claims match what happened
        trace = turn.trace or {}
        rows = list(CommandJournalEntry.objects.filter(pk__in=trace.get("command_ids", [])).exclude(
            pk__in=trace.get("settled_command_ids", [])).exclude(
            status__in=[JStatus.AWAITING_CONFIRMATION, JStatus.DECLINED, JStatus.STALE]))
        _execute_ready(turn, actor, today_for(actor), rows)  # by key: committed rows are never re-run
        if turn.kind == Turn.Kind.CLICK and turn.interaction_id:
            interaction = Interaction.objects.get(pk=turn.interaction_id)
            _finish_click(interaction, Interaction.Status.DECLINED if turn.option == "decline"
                          else Interaction.Status.RESOLVED)
        _set_phase(turn, Phase.COMMITTED)
    # a crash may have come before the cards were announced: announce the ones still open (the
    # event is idempotent for clients, which upsert cards by id)
    for card in Interaction.objects.filter(pk__in=(turn.trace or {}).get("interaction_ids", []),
                                           status=Interaction.Status.PENDING):
        stream.publish(conversation.id, "interaction.pending", {"interaction": interaction_json(card)})
    resolved = Interaction.objects.filter(pk=turn.interaction_id).first() if turn.interaction_id else None
    _compose_and_deliver(turn, conversation, registry, answers=answers, say=say, resolved=resolved)
    return Turn.objects.get(pk=turn.pk)


def turns_recover_all() -> list[str]:
    recovered = []
    for turn in Turn.objects.filter(status=Turn.Status.RUNNING).order_by("created_at"):
        turn_recover(turn)
        recovered.append(turn.id)
    for conversation in Conversation.objects.filter(turns__status=Turn.Status.QUEUED).distinct():
        recovered.extend(turns_run_queued(conversation))  # messages that waited behind a turn a crash stopped
    return recovered


def cards_settle_orphaned() -> list[str]:
    """Cards left ``resolving`` with no running turn to finish them (written before the claim and the click's
    turn shared one transaction): settled from the journal when the click ran a command, else answerable again."""
    settled = []
    for card in Interaction.objects.filter(status=Interaction.Status.RESOLVING).exclude(
            result_turn__status=Turn.Status.RUNNING):
        if Turn.objects.filter(interaction=card, status=Turn.Status.RUNNING).exists():
            continue
        ran = card.commands.filter(status=JStatus.COMMITTED).exists()
        if ran:
            _finish_click(card, Interaction.Status.RESOLVED)
        else:
            Interaction.objects.filter(pk=card.pk, status=Interaction.Status.RESOLVING).update(
                status=Interaction.Status.PENDING, chosen_option="", answered_by=None, result_turn=None)
        settled.append(card.id)
    return settled


def _turn_recover_or_fail(turn: Turn) -> None:
    try:
        turn_recover(turn)
    except Exception:
        log.exception("recovery of turn %s failed; it stays running for `manage.py recover_turns`", turn.id)


# =============================================================================== helpers


def _set_phase(turn: Turn, phase: str) -> None:
    Turn.objects.filter(pk=turn.pk).update(phase=phase)
    turn.phase = phase


def _load_cases(actor: Actor, registry: Registry, active_case: str | None) -> dict[str, Any]:
    kinds = {a.case_kind for a in registry.acts.values()} | set(registry.case_kinds)
    open_q = Q(owner_id=actor.user_id, kind__in=kinds)
    terminal = {s for k in registry.case_kinds.values() for s in k.terminal_statuses}
    qs = Case.objects.filter(open_q & ~Q(status__in=terminal))
    if active_case:
        qs = qs | Case.objects.filter(pk=active_case, owner_id=actor.user_id)
    return {c.id: snapshot(c) for c in qs.distinct()}


def _model_request(turn: Turn, conversation: Conversation, actor: Actor, today: str, mode: str, registry: Registry,
                   cases: dict[str, Any]) -> ModelRequest:
    summaries = []
    for case in cases.values():
        kind = registry.case_kinds.get(case.kind)
        summaries.append(CaseSummary(id=case.id, kind=case.kind, title=case.title, status=case.status,
                                     revision=case.revision, summary=kind.summarize(case) if kind else case.title,
                                     view=kind.project(case) if kind else {}))
    tools = [OfferedTool(t.name, t.description, json_schema(t.args_schema))
             for t in registry.read_tools.values()] if "reads" in MODE_CAPS[mode] else []
    acts = [OfferedAct(a.name, a.case_kind, a.description, str(a.mutability), json_schema(a.args_schema),
                       a.creates_case) for a in registry.acts.values()] if "acts" in MODE_CAPS[mode] else []
    excerpt = []
    for previous in Turn.objects.filter(conversation=conversation, kind=Turn.Kind.MESSAGE).exclude(pk=turn.pk
                                                                                                  ).order_by("-created_at")[:3]:
        excerpt.append({"role": "user", "text": previous.text})
    return ModelRequest(message=turn.text, mode=mode, today=today, timezone=actor.timezone, username=actor.username,
                        active_case=conversation.active_case_id, cases=summaries, read_tools=tools, acts=acts,
                        rounds=[], excerpt=list(reversed(excerpt)), pending=conversation.pending,
                        recent=_recent_effects(conversation, turn),
                        open_cards=[{"id": i.id, "kind": i.kind, "case": i.case_id} for i in Interaction.objects.filter(
                            conversation=conversation, status=Interaction.Status.PENDING).only("id", "kind", "case")])


def _recent_effects(conversation: Conversation, turn: Turn) -> list[dict[str, Any]]:
    """What the conversation's latest turn with an effect committed: what "that one" and "make that 18" mean."""
    last = (CommandJournalEntry.objects.filter(conversation=conversation, status=JStatus.COMMITTED)
            .exclude(turn=turn).order_by("-updated_at", "-sequence").values_list("turn_id", flat=True).first())
    if last is None:
        return []
    events = DomainEvent.objects.filter(command__turn_id=last, command__status=JStatus.COMMITTED).select_related(
        "command").order_by("created_at", "sequence")
    return [{"act": e.command.act, "case": e.case_id, "event": e.type, "line_id": e.data.get("line_id"),
             "data": e.data} for e in events]


def _last_edit(conversation: Conversation) -> dict[str, Any] | None:
    """The conversation's last committed command and its event, for "undo that" (the reducer inverts it)."""
    row = (CommandJournalEntry.objects.filter(conversation=conversation, status=JStatus.COMMITTED)
           .order_by("-updated_at", "-sequence").first())
    event = row.events.order_by("-sequence").first() if row is not None else None
    if row is None or event is None:
        return None
    return {"act": row.act, "case": event.case_id, "event": event.id, "data": event.data, "revision": event.revision,
            "direct": row.origin_kind == CommandJournalEntry.Origin.DIRECT_USER_ACT}


@functools.lru_cache(maxsize=256)
def json_schema(model: type) -> dict[str, Any]:
    """A pydantic model's JSON schema, computed once per class (it is the same for every turn)."""
    return model.model_json_schema()


def _noun(registry: Registry, case_kind: str) -> str:
    kind = registry.case_kinds.get(case_kind)
    return kind.noun if kind else "case"


def _act_json(a: ActResult) -> dict[str, Any]:
    return {"id": a.id, "act": a.act, "case": a.case if a.case and not a.case.startswith(NEW_CASE) else None,
            "outcome": a.outcome, "code": a.code}


def _act_trace(a: ActResult) -> dict[str, Any]:
    return {"id": a.id, "act": a.act, "case": a.case, "outcome": a.outcome, "code": a.code, "args": a.args,
            "evidence": a.evidence, "target": a.target, "policy": a.policy, "origin": a.origin}


def round_json(row: ReadRound) -> dict[str, Any]:
    return {"round": row.round, "status": row.status, "requests": row.requests, "results": row.results,
            "error": row.error or None, "provider": row.provider}


def interaction_json(i: Interaction) -> dict[str, Any]:
    commands = [{"id": c.id, "act": c.act, "args": {k: v for k, v in c.args.items() if k != "line_id"},
                 "status": c.status} for c in sorted(i.commands.all(), key=lambda c: c.sequence)]
    return {"id": i.id, "kind": i.kind, "status": i.status, "case": i.case_id, "case_revision": i.case_revision,
            "prompt": i.prompt, "options": [{"id": o["id"], "label": o["label"],
                                             **({"detail": o["detail"]} if o.get("detail") else {})}
                                            for o in i.options],
            "commands": commands, "candidates": i.candidates, "chosen_option": i.chosen_option or None,
            "conversation": i.conversation_id, "turn": i.turn_id,
            "created_at": i.created_at.isoformat() if i.created_at else None}
