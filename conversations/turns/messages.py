"""A message turn, steps A to Q (SPEC §23), and the queue of messages sent while another turn runs."""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from conversations.core.context import RoundRecord
from conversations.core.record import RoundSummary, TurnNotice, TurnTrace
from conversations.core.reducer import (
    Notice,
    Reduction,
    TurnFacts,
    reduce_turn,
)
from conversations.providers.base import ProviderFailure
from conversations.providers.registry import build_provider
from registries import Actor, Registry, get_registry
from registries.models import EntryStatus
from registries.services import entry_statuses
from turnframe_web.errors import AppError, Invalid, NotFound

from .. import store, stream
from ..models import Case, CommandJournalEntry, Conversation, ReadRound, Turn, snapshot
from ..readloop import ActorReadContext, LoopSettings, acquire_plan
from ..selectors import round_json, turn_json
from . import lease
from .admission import Admitted, TurnOutcome, recorded_turn, turn_admit, turn_begin
from .chaos import SimulatedCrash
from .context import (
    actor_of,
    cases_to_resolve_among,
    context_query,
    last_edit,
    load_cases,
    load_open_cases,
    model_request,
    offered_registry,
    today_for,
)
from .copy import WITHDRAWN_COPY, Withdrawal
from .delivery import Delivered, turn_fail_closed, turn_finish_without_plan
from .execution import TurnStopped, reduction_apply
from .recovery import turn_recover_or_fail
from .run import Said, TurnRun

log = logging.getLogger(__name__)
Phase, JStatus = Turn.Phase, CommandJournalEntry.Status


_VISIBLE = Exists(Conversation.objects.filter(pk=OuterRef("conversation_id"), hidden_at__isnull=True))


def turn_submit_message(*, user, conversation_id: str, text: str, client_message_id: str | None = None,
                        on_admitted: Callable[[], None] | None = None) -> TurnOutcome:
    """A message: admitted to run now, or queued behind the turn that runs, then run (SPEC §23 A–Q).
    ``on_admitted``: called once the message holds its place (running, or in the queue), before it runs: a socket
    admits its next frame only then, so the frames of one socket keep their order."""
    # B: validate the shape (the database is asked only once it is valid: what a refused message is told below)
    text = (text or "").strip()
    limit = settings.TURNFRAME["MAX_MESSAGE_CHARS"]
    refusal = (Invalid("The message is empty.", errors=[{"loc": ["text"], "msg": "must not be empty"}]) if not text
               else AppError(f"The message is longer than {limit} characters.", code="message_too_long", status=413)
               if len(text) > limit else None)
    if refusal is not None:  # a missing conversation is still missing, a message sent again still its turn
        _, recorded = _conversation_and_recorded(user, conversation_id, client_message_id)
        if recorded is not None:
            return recorded
        raise refusal
    # A: accept, C-D: begin, in one transaction: a repeated client id returns the recorded turn and nothing re-runs
    actor = actor_of(user)
    turn = Turn(kind=Turn.Kind.MESSAGE, text=text, client_message_id=client_message_id or f"auto:{time.time_ns()}")
    admitted = turn_admit(user, conversation_id, turn, functools.partial(context_query, conversation_id=conversation_id,
                                                                         actor=actor))
    if isinstance(admitted, TurnOutcome):
        return admitted
    if admitted is not None:
        if on_admitted is not None:
            on_admitted()
        delivered = message_turn_run_admitted(admitted, actor)
        turns_run_queued(admitted.conversation, waiting=delivered.queued_behind if delivered else None)
        # the instance followed every write of the turn (turn_write); the JSON it was delivered with
        return TurnOutcome(turn, False, shown=delivered.turn_json if delivered else None)
    # not admitted: no such conversation, or messages wait or a turn runs (then this one joins the queue, unless it
    # is a message sent again: the turn it names is the answer, however full the queue)
    conversation, recorded = _conversation_and_recorded(user, conversation_id, client_message_id)
    if recorded is not None:
        return recorded
    queued = turn_queue(conversation, text=text, client_message_id=turn.client_message_id)
    if isinstance(queued, TurnOutcome):
        return queued
    stream.publish(conversation.id, "turn.queued", {"turn": queued.id, "text": text})
    if on_admitted is not None:  # after its announcement: the next frame's comes after it
        on_admitted()
    turns_run_queued(conversation)  # the turn ahead may have finished meanwhile: nothing waits for nobody
    queued.refresh_from_db()
    return TurnOutcome(queued, False)


def _conversation_and_recorded(user, conversation_id: str, client_message_id: str | None
                               ) -> tuple[Conversation, TurnOutcome | None]:
    """The user's conversation (else 404), and the turn the client's message id already recorded in it, if any."""
    conversation = store.conversation_visible(conversation_id, user.pk)
    if conversation is None:
        raise NotFound("No such conversation.")
    return conversation, recorded_turn(conversation.pk, client_message_id)


def message_turn_run_admitted(admitted: Admitted, actor: Actor) -> Delivered | None:
    """Run an admitted message; what its reply delivered (None: it ended otherwise, or recovery finished it)."""
    turn, conversation = admitted.turn, admitted.conversation
    assert admitted.seen is not None  # (a message's context is read as it is admitted)
    run = TurnRun(turn, conversation, actor, today_for(actor), offered_registry(conversation.mode,
                                                                                admitted.out_of_service))
    with lease.carried(turn.id):
        try:
            return message_turn_run(run, admitted.seen)
        except SimulatedCrash:
            raise
        except Exception:
            log.exception("turn %s failed unexpectedly", turn.id)
            turn_recover_or_fail(turn)
            turn.refresh_from_db()  # recovery finished it: as the database has it
            return None


def message_turn_run_started(turn: Turn, conversation: Conversation, user) -> Delivered | None:
    """A queued message promoted to running: it begins as an admitted one does (``turn_begin``)."""
    actor = actor_of(user)
    out_of_service, seen = turn_begin(conversation, turn, context_query(turn, conversation.pk, actor))
    return message_turn_run_admitted(Admitted(turn, conversation, out_of_service, seen), actor)


def turn_queue(conversation: Conversation, *, text: str, client_message_id: str) -> Turn | TurnOutcome:
    """Keep a message sent while another turn runs (SPEC §23 A): in the database, bounded per conversation. The
    bound is part of the insert (the database decides): queued messages of one conversation are inserted one at
    a time (the conversation's row is locked first where the database has row locks; SQLite writes one
    transaction at a time), each only while fewer than the bound wait."""
    limit = settings.TURNFRAME["MAX_QUEUED_MESSAGES"]
    turn = Turn(conversation=conversation, kind=Turn.Kind.MESSAGE, text=text, client_message_id=client_message_id,
                mode=conversation.mode, status=Turn.Status.QUEUED, active_case_before="")
    try:
        with transaction.atomic():
            if connection.features.has_select_for_update:
                Conversation.objects.select_for_update().filter(pk=conversation.pk).values_list("pk").first()
            if not store.turn_queue(turn, limit):
                raise AppError(f"{limit} messages of this conversation are already waiting; send this one when "
                               "they are done.", code="queue_full", status=429)
            return turn
    except IntegrityError:  # the same client id again: the turn it names is the answer
        return TurnOutcome(Turn.objects.get(conversation=conversation, client_message_id=client_message_id), True)


def turns_run_queued(conversation: Conversation, waiting: bool | None = None) -> list[str]:
    """Run the conversation's queued messages, oldest first, each its own turn, while no other turn runs.
    Promotion is one conditional update the database allows only when nothing else of the conversation runs
    (the partial unique index), so two threads draining the same queue never run two turns at once.
    ``waiting``: whether messages wait, as the turn that just ended read its queue (``Delivered``; None: read)."""
    ran: list[str] = []
    while True:
        if waiting is False:  # as the turn that just ended read the queue
            return ran
        nxt = store.next_queued(conversation.pk)
        if nxt is None:
            return ran
        try:
            with transaction.atomic():
                # still queued (not withdrawn: turn_stop's update requires the same) and its conversation not
                # deleted, in the one statement: whichever of promotion and withdrawal comes first wins
                promoted = Turn.objects.filter(pk=nxt.pk, status=Turn.Status.QUEUED).filter(_VISIBLE).update(
                    status=Turn.Status.RUNNING, **lease.fresh(), updated_at=timezone.now(),
                    active_case_before=Conversation.objects.filter(
                        pk=conversation.pk).values_list("active_case_id", flat=True).first() or "")
        except IntegrityError:
            return ran  # a turn is running: it runs the queue when it is done
        if not promoted and Turn.objects.filter(pk=nxt.pk, status=Turn.Status.QUEUED).exists():
            # its conversation was deleted after the message joined the queue: it never runs
            queued_withdraw(conversation_id=conversation.pk, because=Withdrawal.CONVERSATION_DELETED)
            return ran
        if promoted:
            conversation.refresh_from_db()
            nxt.refresh_from_db()
            delivered = message_turn_run_started(nxt, conversation, conversation.owner)
            waiting = delivered.queued_behind if delivered else None
            ran.append(nxt.id)


def message_turn_run(run: TurnRun, seen: store.Seen) -> Delivered | None:
    """Steps D to Q of an admitted message; ``seen``: what its admission read (``store.ContextQuery``)."""
    turn, conversation, actor, today, registry = run.turn, run.conversation, run.actor, run.today, run.registry
    mode = conversation.mode
    # D: the actor's relevant cases;  E: project them (pure)
    cases, more_cases = load_cases(registry, seen.cases, conversation.active_case_id)
    # F: the model context
    base = model_request(turn, conversation, actor, today, mode, registry, cases, seen)
    # G-H: the read-only loop and one plan (retry once, then the fallback, before any commit)
    limits = LoopSettings(settings.TURNFRAME["MAX_ROUNDS"], settings.TURNFRAME["MAX_CALLS"])
    ctx = ActorReadContext(actor, today, registry)
    recorder = _RoundRecorder(run)
    try:
        loop = acquire_plan(providers=_providers(), base=base, tools=dict(registry.read_tools), registry=registry,
                            ctx=ctx, limits=limits, on_round=recorder)
    except ProviderFailure as failure:
        turn_fail_closed(turn, conversation, "provider_unavailable", {"provider_failure": failure.kind})
        return None
    except _StopWaiting:
        loop = None
    explained = [Notice("read_tool_switched_off", _switched_off_text(name, status))
                 for name, status in sorted(recorder.switched_off.items())]
    stopped = {"plan_raw": loop.raw if loop else None, "detail": "the user stopped waiting"}
    if loop is None:
        return turn_finish_without_plan(run, "stopped", stopped, explained=explained)
    if loop.validated is None:
        return turn_finish_without_plan(run, loop.ending or "plan_rejected",
                                        {"plan_raw": loop.raw, "detail": loop.detail}, explained=explained)
    # I-K: validate (done in the loop, all-or-nothing), resolve targets, reduce the whole turn
    referenced = {a.ref.id for a in loop.validated.acts if a.ref and a.ref.id} - set(cases)
    run.held = [*seen.cases, *(Case.objects.filter(pk__in=referenced, owner_id=actor.user_id) if referenced else ())]
    cases.update({c.id: snapshot(c) for c in run.held if c.id in referenced})
    if more_cases and (kinds := cases_to_resolve_among(loop.validated, registry,
                                                       cases.get(conversation.active_case_id or ""))):
        cases.update(load_open_cases(actor, registry, kinds))  # a name or "the only one": among all, not the recent
    plan = loop.validated.plan
    edit = last_edit(conversation) if plan.undo is not None else None
    if edit and edit["case"] not in cases:
        cases.update({c.id: snapshot(c) for c in Case.objects.filter(pk=edit["case"], owner_id=actor.user_id)})
    facts = TurnFacts(message=turn.text, mode=mode, actor=actor, today=today, registry=registry, cases=cases,
                      active_case=conversation.active_case_id,
                      earlier_message=(conversation.pending or {}).get("message"), last_edit=edit)
    reduction = reduce_turn(loop.validated, facts)
    reduction.notices[:0] = explained
    trace = TurnTrace(rounds=recorder.rounds, plan_raw=loop.raw, plan=plan.model_dump(mode="json"))
    pending = {**plan.pending.model_dump(mode="json", exclude_none=True), "message": kept_message(
        plan.pending.about, turn.text, conversation.pending)} if plan.pending else None
    pending = pending or unfound_target_question(turn, reduction)
    said = Said([a.model_dump() for a in plan.answers], plan.say, pending)
    try:
        # the point of no return is L's commit: a stop is honoured only before it, and the database arbitrates
        # a stop that races it (turn_stop's update requires the phase still before it; L requires no stop)
        return reduction_apply(run, reduction, trace, said, unless_stopped=True)
    except TurnStopped:
        return turn_finish_without_plan(run, "stopped", stopped, explained=explained)


def _providers() -> list:
    providers = [build_provider(settings.TURNFRAME["PROVIDER"], role="primary")]
    if settings.TURNFRAME["FALLBACK_PROVIDER"]:
        providers.append(build_provider(settings.TURNFRAME["FALLBACK_PROVIDER"], role="fallback"))
    return providers


class _RoundRecorder:
    """Each read round as it ends: persisted, streamed, and the user's "stop waiting" honoured before the
    next model call; notes the lookups the model asked for that are switched off."""

    def __init__(self, run: TurnRun):
        self.turn, self.conversation, self.registry = run.turn, run.conversation, run.registry
        self.rounds: list[RoundSummary] = []
        self.rows: list[ReadRound] = []  # as persisted, for the reply's record (not read back)
        run.rounds = self.rows  # (the run's, as they are recorded)
        self.switched_off: dict[str, str] = {}  # a lookup staff or the runtime turned off: name -> status

    def __call__(self, record: RoundRecord, provider: str) -> None:
        if record.status == "rejected":
            self.switched_off.update(_switched_off(record.requests, self.registry))
        number = len(self.rounds) + 1
        row = ReadRound(turn=self.turn, round=number, provider=provider, status=record.status,
                        requests=record.requests, results=record.results, error=record.error or "")
        # the round's row, and whether the user has stopped waiting meanwhile, in one statement
        stopped = store.round_record(row)
        self.rows.append(row)
        self.rounds.append(RoundSummary(round=number, provider=provider, status=record.status))
        stream.publish(self.conversation.id, "read_round", {"turn": self.turn.id, **round_json(row)})
        if stopped:
            raise _StopWaiting  # the user stopped waiting: no further model call


class _StopWaiting(Exception):
    """Raised between read rounds when the user stopped waiting for the model."""


def turn_stop(*, user, turn_id: str) -> tuple[Turn, bool]:
    """Stop a message (issue 12, 2; issue 20, 7). A message still waiting in the queue is withdrawn: it never
    runs (``queued_withdraw``). A message turn still understanding (reading, waiting on the model) ends before
    anything is journaled or run. Either is ``(turn, True)``. A turn past that point (its plan is being carried
    out), a click or a finished turn is not stopped: ``(turn, False)``, it will finish. A stop racing the
    promotion of the queued message is all-or-nothing: both are conditional updates on ``status = 'queued'``,
    so either it was withdrawn and never runs, or it had started and the rules of a running turn apply."""
    turn = Turn.objects.filter(pk=turn_id, conversation__owner=user, conversation__hidden_at__isnull=True).first()
    if turn is None:
        raise NotFound("No such turn.")
    if turn.status == Turn.Status.QUEUED and queued_withdraw(conversation_id=turn.conversation_id, turn_id=turn.pk,
                                                             because=Withdrawal.USER):
        turn.refresh_from_db()
        stream.publish(turn.conversation_id, "turn.completed", {"turn": turn_json(turn)})
        return turn, True
    Turn.objects.filter(pk=turn.pk, kind=Turn.Kind.MESSAGE, status=Turn.Status.RUNNING,
                        phase__in=(Phase.RECEIVED, Phase.UNDERSTANDING),
                        stop_requested_at__isnull=True).update(stop_requested_at=timezone.now())
    turn.refresh_from_db()
    honoured = turn.stop_requested_at is not None and (
        turn.phase in (Phase.RECEIVED, Phase.UNDERSTANDING) or turn.trace.ending in ("stopped", "withdrawn"))
    return turn, honoured


def queued_withdraw(*, conversation_id: str, because: Withdrawal, turn_id: str | None = None) -> int:
    """Withdraw a conversation's queued messages (or the one ``turn_id`` names) before they run, in one
    conditional update on ``status = 'queued'`` (the promotion in ``turns_run_queued`` requires the same, so
    the database lets exactly one of them have the message). A withdrawn message is kept in the ledger as a
    turn that ran nothing: status ``completed``, trace ending ``withdrawn``, a ``withdrawn`` notice (its text
    says why: ``because``), ``stop_requested_at`` set. Returns how many were withdrawn."""
    text = WITHDRAWN_COPY[because]
    rows = Turn.objects.filter(conversation_id=conversation_id, status=Turn.Status.QUEUED)
    if turn_id is not None:
        rows = rows.filter(pk=turn_id)
    now = timezone.now()
    return rows.update(status=Turn.Status.COMPLETED, phase=Phase.DELIVERED, stop_requested_at=now, updated_at=now,
                       notices=[TurnNotice(code="withdrawn", text=text)],
                       reply={"blocks": [{"kind": "notice", "code": "withdrawn", "text": text}]},
                       trace=TurnTrace(ending="withdrawn", detail=f"withdrawn before it ran ({because})"))


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


def kept_message(about: str | None, text: str, earlier: dict[str, Any] | None) -> str:
    """The message a pending question keeps: this one, unless the question is still about words of the message the
    open question was kept with (a question asked again after a message it did not need): then that message, so
    what its answer completes is still quoted from what the user wrote."""
    before = str((earlier or {}).get("message") or "")
    if about and about not in text and before and about in before:
        return before
    return text


def unfound_target_question(turn: Turn, reduction: Reduction) -> dict[str, Any] | None:
    """One act refused because the case it named does not resolve: the refusal is a question the next
    message may answer ("put it on my Berlin one"), kept like any pending question (server state)."""
    unfound = [a for a in reduction.acts if a.code == "target_not_found"]
    if len(unfound) != 1 or len(reduction.acts) != 1:
        return None
    notice = next((n.text for n in reduction.notices if n.code == "target_not_found"), "Which case do you mean?")
    return {"question": notice, "act": unfound[0].act, "args": dict(unfound[0].args or {}), "missing": ["case"],
            "message": turn.text}
