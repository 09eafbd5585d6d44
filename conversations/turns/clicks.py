"""A click turn (SPEC §17): the card is claimed with its turn, the stored action runs (no model call).

Before the claim the card is judged as it stands at the click (issue 20): an expired card (its conversation
deleted, or ``TURNFRAME_CARD_TTL_MINUTES`` passed) and a stale one change nothing; a confirmation is judged
again by the acts on offer and their policies now (``core.review``), with the person's edits of the act's
editable arguments, so nothing runs on the verdict the card was drawn with."""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Iterator, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from conversations.core.origins import CONFIRMED_INTERACTION
from conversations.core.record import ClickRecord, TurnAct, TurnNotice, TurnTrace
from conversations.core.reducer import (
    ActResult,
    NewCase,
    Notice,
    Outcome,
    PlannedCommand,
    PlannedConfirmation,
    Reduction,
    TurnFacts,
    ValidatedAct,
    reduce_selected,
)
from conversations.core.review import CardCommand, EditRefused, Review, review_card
from registries import Actor, CommandContext
from turnframe_web.errors import Conflict, Invalid, NotFound

from .. import store, stream
from ..commands import journal_settle_behind
from ..models import Case, CommandJournalEntry, Conversation, DomainEvent, Interaction, Turn, snapshot
from ..selectors import interaction_json, turn_json
from . import lease
from .admission import TurnOutcome, turn_begin
from .chaos import SimulatedCrash, crash_point
from .context import actor_of, offered_registry, today_for
from .copy import NOTICE_COPY
from .delivery import Delivered, reply_deliver
from .execution import cases_left, commands_execute_ready, reduction_apply
from .interactions import card_claim, card_expire_if_due, card_finish, card_origin_text, card_publish_resolved
from .messages import turns_run_queued
from .recovery import turn_recover_or_fail
from .run import TurnRun
from .writes import turn_write

log = logging.getLogger(__name__)
Phase, JStatus = Turn.Phase, CommandJournalEntry.Status


@dataclass(frozen=True)
class ClickOutcome:
    """The card and the click's turn; ``delivered``: what this process delivered them with (None: it did not)."""

    interaction: Interaction
    turn: Turn
    delivered: Delivered | None = None

    def __iter__(self) -> Iterator[Any]:  # interaction, turn = interaction_respond(…)
        return iter((self.interaction, self.turn))

    def as_json(self) -> dict[str, Any]:
        """The answer to the click (``RespondOut``): as delivered, when this process delivered it."""
        shown = self.delivered
        card = shown.card_json if shown is not None and self.interaction.status != Interaction.Status.PENDING else None
        return {"interaction": card if card is not None else interaction_json(self.interaction),
                "turn": shown.turn_json if shown is not None else turn_json(self.turn)}


def interaction_respond(*, user, interaction_id: str, option: str, client_response_id: str | None = None,
                        edits: dict[str, Any] | None = None) -> ClickOutcome:
    """Answer a card (SPEC §17). The click sends ids only; the server runs the stored action (I7). ``edits``: the
    person's values for arguments the card's act declares editable (a confirmation only)."""
    deadline = time.monotonic() + 15
    while True:
        # C: load and check the interaction, scoped to the user (a foreign id is a missing id), with the commands
        # it names and the audit mirror's entries out of service (one statement)
        found = store.card_at_click(interaction_id, user.pk)
        if found is None:
            raise NotFound("No such interaction.")
        interaction, commands, out_of_service = found
        if option not in {o["id"] for o in interaction.options}:
            raise Invalid("That is not one of the card's options.", code="invalid_option",
                          errors=[{"loc": ["option"], "msg": "not an option of this interaction"}])
        status = interaction.status
        if status in (Interaction.Status.RESOLVED, Interaction.Status.DECLINED):
            if interaction.chosen_option == option and interaction.result_turn is not None:
                return ClickOutcome(interaction, interaction.result_turn)  # a repeated answer: the original outcome
            raise Conflict("This card was already answered.", code="interaction_closed")
        if status == Interaction.Status.STALE:
            raise Conflict("It changed since this card was made; nothing was run.", code="interaction_stale")
        if status == Interaction.Status.SUPERSEDED:
            if interaction.chosen_option == option and interaction.result_turn is not None:
                return ClickOutcome(interaction, interaction.result_turn)  # a repeated edit that drew a new card
            raise Conflict("This card was replaced by a newer one.", code="interaction_closed")
        if card_expire_if_due(interaction):
            raise _expired(interaction)
        if status == Interaction.Status.RESOLVING:
            if time.monotonic() > deadline:
                raise Conflict("This card is being answered.", code="interaction_closed")
            time.sleep(0.05)
            continue
        if (interaction.kind == Interaction.Kind.CONFIRMATION and interaction.case is not None
                and interaction.case.revision != interaction.case_revision):  # (a card on no case opens one)
            if Interaction.objects.filter(pk=interaction.pk, status=Interaction.Status.PENDING).update(
                    status=Interaction.Status.STALE, resolved_at=timezone.now()):
                journal_settle_behind([interaction.pk], JStatus.STALE)
                interaction.refresh_from_db()
                stream.publish(interaction.conversation_id, "interaction.resolved",
                               {"interaction": interaction_json(interaction)})
            raise Conflict("It changed since this card was made; nothing was run.", code="interaction_stale")
        action = next(o["action"] for o in interaction.options if o["id"] == option)
        review = _review(interaction, action, commands, user, out_of_service, edits)
        claimed = card_claim(interaction, option, user, client_response_id)
        if isinstance(claimed, TurnOutcome):  # the client's response id names an earlier turn: that is the answer
            interaction.refresh_from_db()
            return ClickOutcome(interaction, claimed.turn)
        if claimed is not None:
            turn = claimed
            break
    conversation = interaction.conversation
    # nothing of a click sent at once is sent before its reply, so its turn.started is numbered and sent with it;
    # the conversation as read with the card is enough: a click leaves the open question as it is, and makes the
    # case it touched active (or reads which one is). Otherwise the turn begins as a message's does
    started = [("turn.started", {"turn": turn.id, "text": turn.text})]
    if action["type"] not in _SENT_AT_ONCE or (review and review.needs_card):
        out_of_service, _ = turn_begin(conversation, turn)
        started = []
    actor = actor_of(user)
    run = TurnRun(turn, conversation, actor, today_for(actor), offered_registry(conversation.mode, out_of_service),
                  resolved=interaction, announce=started)
    delivered = None
    with lease.carried(turn.id):
        try:
            delivered = click_turn_run(run, interaction, option, commands, review)
        except SimulatedCrash:
            raise
        except Exception:
            log.exception("click turn %s failed unexpectedly", turn.id)
            if started and turn.status == Turn.Status.RUNNING:  # not delivered: recovery's comes after it
                stream.publish_many(conversation.pk, started)
            turn_recover_or_fail(turn)
            interaction.refresh_from_db()  # recovery finished it: as the database has it
            turn.refresh_from_db()
    turns_run_queued(conversation, waiting=delivered.queued_behind if delivered else None)
    if interaction.status == Interaction.Status.STALE:  # the commands met a newer revision: nothing ran
        raise Conflict("It changed since this card was made; nothing was run.", code="interaction_stale")
    return ClickOutcome(interaction, turn, delivered)


def _expired(card: Interaction) -> Conflict:
    """409 ``interaction_expired``: nothing was changed; ``ask_again`` is the message that drew the card."""
    return Conflict(NOTICE_COPY["interaction_expired"], code="interaction_expired", ask_again=card_origin_text(card))


def _review(card: Interaction, action: dict, commands: list[CommandJournalEntry], user,
            out_of_service, edits: dict[str, Any] | None) -> Review | None:
    """A confirmation judged as it stands now, with the person's ``edits`` (``core.review``): edits that cannot
    apply are a 422 and change nothing; a command its act's policy (or the registry) no longer allows makes the
    card refused, 409 ``interaction_refused``, and nothing of it runs. None: not a confirmation."""
    if action["type"] != "execute_commands":
        if edits:
            raise Invalid("Only a confirmation can be edited.", code="edits_not_allowed",
                          errors=[{"loc": ["edits"], "msg": "edits go with the confirm option"}])
        return None
    actor = actor_of(user)
    registry = offered_registry(card.conversation.mode, dict(out_of_service))
    rows = [CardCommand(r.id, r.act, r.args) for r in sorted(commands, key=lambda r: r.sequence)]
    try:
        review = review_card(rows, snapshot(card.case) if card.case is not None else None, registry, CommandContext(actor=actor, today=today_for(actor)),
                             edits or None)
    except EditRefused as refused:
        raise Invalid(refused.message, code=refused.code,
                      errors=refused.errors or [{"loc": ["edits"], "msg": refused.reason or refused.code}],
                      **_reason(refused.reason)) from None
    if review.refused is not None:
        command, code = review.refused
        _card_refuse(card, command, code)
        raise Conflict(f"{NOTICE_COPY['interaction_refused']} ({code.replace('_', ' ')})", code="interaction_refused",
                       reason=code)
    return review


def _reason(reason: str | None) -> dict[str, Any]:
    return {"reason": reason} if reason else {}


def _card_refuse(card: Interaction, command_id: str, code: str) -> None:
    """Settle a card whose command may no longer run (stale; the command rejected with ``code``, the others
    stale): one transaction, only from pending."""
    now = timezone.now()
    with transaction.atomic():
        if not Interaction.objects.filter(pk=card.pk, status=Interaction.Status.PENDING).update(
                status=Interaction.Status.STALE, resolved_at=now):
            raise Conflict("This card is being answered.", code="interaction_closed")
        CommandJournalEntry.objects.filter(pk=command_id, status=JStatus.AWAITING_CONFIRMATION).update(
            status=JStatus.REJECTED, result={"code": code}, updated_at=now)
        journal_settle_behind([card.pk], JStatus.STALE)
        transaction.on_commit(functools.partial(card_publish_resolved, card.pk))


# the click actions that send nothing before the reply (a selection may send the cards it draws first)
_SENT_AT_ONCE = {"execute_commands", "decline", "none"}


def click_turn_run(run: TurnRun, interaction: Interaction, option: str, commands: list[CommandJournalEntry],
                   review: Review | None = None) -> Delivered:
    """Run the action the card (``run.resolved``) stored for ``option`` (never anything the click itself says,
    I7). ``commands``: the card's journal rows as read with it; ``review``: a confirmation judged at the click,
    with the person's edits. The turn's events not sent yet (its ``turn.started``) are ``run.announce``."""
    action = next(o["action"] for o in interaction.options if o["id"] == option)
    click = _Click(run, interaction, option, commands, review)
    return {"execute_commands": _confirm, "decline": _decline, "none": _none_of_these}.get(action["type"], _select)(
        click, action)


@dataclass(frozen=True)
class _Click:
    run: TurnRun
    interaction: Interaction  # (``run.resolved``)
    option: str
    commands: list[CommandJournalEntry]  # the card's journal rows, as read with the card
    review: Review | None = None  # a confirmation judged at the click (with the person's edits)

    @property
    def turn(self) -> Turn:
        return self.run.turn

    @property
    def conversation(self) -> Conversation:
        return self.run.conversation

    @property
    def actor(self) -> Actor:
        return self.run.actor

    @property
    def trace(self) -> TurnTrace:
        return TurnTrace(click=ClickRecord(interaction=self.interaction.id, option=self.option))

    def acts(self, rows: list[CommandJournalEntry], outcome: str = "") -> list[TurnAct]:
        return [TurnAct(id=r.plan_act_id, act=r.act, case=r.case_id, outcome=outcome) for r in rows]

    def deliver(self, committed: Sequence[DomainEvent] = (), commands: list[CommandJournalEntry] | None = None,
                cases: Sequence[Case] = (), read: store.DeliveryRead | None = None) -> Delivered:
        return reply_deliver(self.run, committed=committed, commands=commands, cases=cases, read=read)


def _held(card: Interaction) -> list[Case]:
    """The case row the card was read with (none for a card on an act that opens a case)."""
    return [card.case] if card.case is not None else []


def _edit_record(click: _Click, review: Review) -> dict[str, Any]:
    """What the journal keeps of the person's edits: who made them (the person, never the model), on which card."""
    return {"by": "person", "user": click.actor.user_id, "interaction": click.interaction.id,
            "changes": [c.to_json() for c in review.changes]}


def _changes_text(review: Review) -> str:
    return ", ".join(f"{c.field} from {c.before} to {c.after}" if c.before not in (None, "") else
                     f"{c.field} to {c.after}" for c in review.changes)


def _confirm(click: _Click, action: dict) -> Delivered:
    """The card's commands run under ``confirmed_interaction``; if they all met a newer revision, the card is stale.
    With the person's edits, the edited command runs with their values (recorded on its journal row), or, when
    those values need a confirmation of their own, a new card describes them and nothing runs now."""
    review = click.review
    if review is not None and review.needs_card:
        return _redraw(click, review)
    edited = review.edited if review is not None else None
    edited_args = dict(review.args) if review is not None and edited is not None else {}  # the person's values
    rows = click.commands
    origin = {"kind": CONFIRMED_INTERACTION, "interaction": click.interaction.id, "option": click.option,
              "user": click.actor.user_id}
    for row in rows:  # edits made on an earlier card of this command stay on its record
        if (row.origin or {}).get("edits") and row.status == JStatus.AWAITING_CONFIRMATION:
            row.origin = {**origin, "edits": row.origin["edits"]}
    origins = {r.pk: r.origin if (r.origin or {}).get("edits") else origin for r in rows}
    if edited is not None:
        assert review is not None  # (an edit is the review's)
        origins[edited] = {**origin, "edits": [*origins.get(edited, {}).get("edits", []), _edit_record(click, review)]}
        click.turn.notices = [TurnNotice(code="edited_before_confirming", text=NOTICE_COPY[
            "edited_before_confirming"].format(changes=_changes_text(review)))]
    acts, trace = click.acts(rows), click.trace.model_copy(update={"command_ids": [r.id for r in rows]})
    # one command: confirming it, running it, settling the card and the turn's record are one transaction (the
    # bus settles the row straight from awaiting this card: its settlement checks the card, I19); a crash
    # before its commit leaves the card being answered by a turn that did nothing, which recovery reopens
    single = len(rows) == 1 and rows[0].status == JStatus.AWAITING_CONFIRMATION
    if single:
        rows[0].origin, rows[0].origin_kind = origins[rows[0].pk], CONFIRMED_INTERACTION
        click.turn.acts, click.turn.trace = acts, trace  # written with the command's record, in its transaction
        crash_point("after_journal_admission")
    else:  # several: all of them are confirmed at once, then each runs in its own transaction
        with transaction.atomic():
            moved = 0
            for each in {id(o): o for o in origins.values()}.values():  # one statement per distinct origin
                moved += store.commands_confirm([r.pk for r in rows if origins[r.pk] is each], each,
                                                CONFIRMED_INTERACTION)
            if edited is not None:
                store.command_edit(edited, edited_args, status=JStatus.PENDING, card_id=click.interaction.pk)
            turn_write(click.turn, phase=Phase.EXECUTING, acts=acts, trace=trace,
                       **({"notices": click.turn.notices} if edited is not None else {}))
        crash_point("after_journal_admission")
        if moved == len(rows):  # every row was awaiting this card: all of them run
            for row in rows:
                row.status, row.origin, row.origin_kind = JStatus.PENDING, origins[row.pk], CONFIRMED_INTERACTION
                if row.pk == edited:
                    row.args = dict(edited_args)
        else:  # some were settled meanwhile (a supersession, a recovery): only the ones this click moved run
            rows = list(CommandJournalEntry.objects.filter(pk__in=[r.pk for r in rows], status=JStatus.PENDING))

    def settle_card(results) -> list[TurnNotice] | None:
        settled = {result.status for result in results}
        if rows and JStatus.CONFLICT in settled and JStatus.COMMITTED not in settled:
            # it changed under the card: stale, and nothing was changed
            card_finish(click.interaction, Interaction.Status.STALE)
            return [TurnNotice(code="interaction_stale", text=NOTICE_COPY["interaction_stale"])]
        card_finish(click.interaction, Interaction.Status.RESOLVED)
        return None

    with transaction.atomic() if single else nullcontext():
        if single and edited is not None:  # the person's values, written with the command's run (one transaction)
            store.command_edit(edited, edited_args, status=JStatus.AWAITING_CONFIRMATION, card_id=click.interaction.pk)
            rows[0].args = dict(edited_args)
        results, read = commands_execute_ready(click.turn, click.actor, click.run.today, rows, then=Phase.COMMITTED,
                                               before_last=settle_card, read_for_delivery=True,
                                               held=_held(click.interaction))
    crash_point("after_commit")
    return click.deliver([e for r in results for e in r.committed], commands=rows, cases=cases_left(results),
                         read=read)


def _redraw(click: _Click, review: Review) -> Delivered:
    """The person's edits need a confirmation of their own: the card is superseded (its commands stale) and a
    new card describes the card's commands with the edited values, bound to the same revision; nothing runs.
    The edited command's journal row keeps the edit, from the person (L's one transaction)."""
    card, record = click.interaction, _edit_record(click, review)
    rows = sorted(click.commands, key=lambda r: r.sequence)
    acts, commands = [], []
    for sequence, row in enumerate(rows, 1):
        args = dict(review.args) if row.pk == review.edited else dict(row.args)
        earlier = list((row.origin or {}).get("edits", []))
        acts.append(ActResult(row.plan_act_id, row.act, Outcome.AWAITING_CONFIRMATION, case=card.case_id, args=args,
                              target="id"))
        commands.append(PlannedCommand(
            act_id=row.plan_act_id, act=row.act, case=card.case_id, args=args, expected_revision=row.expected_revision,
            sequence=sequence, needs_confirmation=True, evidence="", preview=review.previews.get(row.pk),
            edits=tuple([*earlier, record] if row.pk == review.edited else earlier)))
    reduction = Reduction(
        acts=acts, commands=commands,
        # (a card on no case holds the act that opens one: the new card is drawn on no case either)
        confirmations=[PlannedConfirmation(card.case_id or NewCase(rows[0].plan_act_id), card.case_revision or 0,
                                           tuple(r.plan_act_id for r in rows), review.codes)],
        notices=[Notice("edit_needs_confirmation",
                        NOTICE_COPY["edit_needs_confirmation"].format(changes=_changes_text(review)))])
    click.run.held = _held(card)
    return reduction_apply(click.run, reduction, click.trace, resolved_as=Interaction.Status.SUPERSEDED)


def _decline(click: _Click, action: dict) -> Delivered:
    """One transaction: a crash leaves either an answerable card or a declined card, never a mix."""
    rows = click.commands
    with transaction.atomic():
        journal_settle_behind([click.interaction.pk], JStatus.DECLINED)
        card_finish(click.interaction, Interaction.Status.DECLINED)
        turn_write(
            click.turn, acts=click.acts(rows, Outcome.DECLINED), phase=Phase.COMMITTED, trace=click.trace,
            notices=[TurnNotice(code="declined", text=NOTICE_COPY["declined"])])
    crash_point("after_commit")
    return click.deliver()


def _none_of_these(click: _Click, action: dict) -> Delivered:
    held = [ValidatedAct.from_json(a) for a in click.interaction.held_acts]
    card_finish(click.interaction, Interaction.Status.RESOLVED)
    turn_write(
        click.turn, acts=[TurnAct(id=a.id, act=a.act, outcome=Outcome.DECLINED) for a in held],
        notices=[TurnNotice(code="selection_none", text=NOTICE_COPY["selection_none"])], phase=Phase.COMMITTED,
        trace=click.trace)
    return click.deliver()


def _select(click: _Click, action: dict) -> Delivered:
    """A selection: resume the held acts on exactly the chosen case, through policy and confirmation."""
    chosen = Case.objects.filter(pk=action["case"], owner_id=click.actor.user_id).first()
    if chosen is None or chosen.id not in click.interaction.candidates:
        raise NotFound("No such case.")
    Conversation.objects.filter(pk=click.conversation.pk).update(active_case=chosen)
    click.conversation.active_case_id = chosen.id
    held = [ValidatedAct.from_json(a) for a in click.interaction.held_acts]
    facts = TurnFacts(message="", mode=click.conversation.mode, actor=click.actor, today=click.run.today,
                      registry=click.run.registry, cases={chosen.id: snapshot(chosen)}, active_case=chosen.id)
    reduction = reduce_selected(held, chosen.id, facts)
    # the selection card is settled in L's transaction, with the acts it resumes: a crash before leaves it
    # answerable again (recovery reopens it), never resolved with its held acts lost
    click.run.held = [chosen]
    return reduction_apply(click.run, reduction, click.trace)
