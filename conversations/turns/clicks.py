"""A click turn (SPEC §17): the card is claimed with its turn, the stored action runs (no model call)."""

from __future__ import annotations

import logging
import time
from contextlib import nullcontext
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from conversations.core.origins import CONFIRMED_INTERACTION
from conversations.core.record import ClickRecord, TurnAct, TurnNotice, TurnTrace
from conversations.core.reducer import (
    Outcome,
    TurnFacts,
    ValidatedAct,
    reduce_selected,
)
from registries import Actor, Registry
from registries.models import EntryStatus, RegistryEntry
from turnframe_web.errors import Conflict, Invalid, NotFound

from .. import prepared, stream
from ..commands import journal_settle_behind
from ..models import Case, CommandJournalEntry, Conversation, Interaction, Turn, snapshot
from ..selectors import interaction_json
from . import lease
from .chaos import SimulatedCrash, crash_point
from .context import TurnOutcome, actor_of, offered_registry, today_for, turn_begin, turn_write
from .copy import NOTICE_COPY
from .delivery import CardsAlong, reply_deliver
from .execution import cases_left, commands_execute_ready, reduction_apply
from .interactions import card_claim, card_finish
from .messages import turns_run_queued
from .recovery import turn_recover_or_fail

log = logging.getLogger(__name__)
Phase, JStatus = Turn.Phase, CommandJournalEntry.Status


def interaction_respond(*, user, interaction_id: str, option: str, client_response_id: str | None = None
                        ) -> tuple[Interaction, Turn]:
    """Answer a card (SPEC §17). The click sends ids only; the server runs the stored action (I7)."""
    deadline = time.monotonic() + 15
    while True:
        # C: load and check the interaction, scoped to the user (a foreign id is a missing id), with the commands
        # it names and the audit mirror's entries out of service (one statement)
        found, commands, out_of_service = prepared.read(
            _CARD.bind(interaction_id, user.pk), _CARD_COMMANDS.bind(interaction_id),
            _OUT_OF_SERVICE.bind(EntryStatus.ACTIVE))
        if not found:
            raise NotFound("No such interaction.")
        interaction = found[0]
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
                journal_settle_behind([interaction.pk], JStatus.STALE)
                interaction.refresh_from_db()
                stream.publish(interaction.conversation_id, "interaction.resolved",
                               {"interaction": interaction_json(interaction)})
            raise Conflict("It changed since this card was made; nothing was run.", code="interaction_stale")
        claimed = card_claim(interaction, option, user, client_response_id)
        if isinstance(claimed, TurnOutcome):  # the client's response id names an earlier turn: that is the answer
            interaction.refresh_from_db()
            return interaction, claimed.turn
        if claimed is not None:
            turn = claimed
            break
    conversation = interaction.conversation
    action = next(o["action"] for o in interaction.options if o["id"] == option)
    started = [("turn.started", {"turn": turn.id, "text": turn.text})]
    if action["type"] in _SENT_AT_ONCE:
        # nothing of this click is sent before its reply, so its turn.started is numbered and sent with it; the
        # conversation as read with the card is enough: a click leaves the open question as it is, and makes the
        # case it touched active (or reads which one is)
        out_of_service, conversation.waiting = dict(out_of_service), None
    else:
        out_of_service, _ = turn_begin(conversation, turn)
        started = []
    with lease.carried(turn.id):
        try:
            click_turn_run(turn, conversation, interaction, option, user, out_of_service, commands, started)
        except SimulatedCrash:
            raise
        except Exception:
            log.exception("click turn %s failed unexpectedly", turn.id)
            if started and turn.status == Turn.Status.RUNNING:  # not delivered: recovery's comes after it
                stream.publish_many(conversation.pk, started)
            turn_recover_or_fail(turn)
            interaction.refresh_from_db()  # recovery finished it: as the database has it
            turn.refresh_from_db()
    turns_run_queued(conversation)
    if interaction.status == Interaction.Status.STALE:  # the commands met a newer revision: nothing ran
        raise Conflict("It changed since this card was made; nothing was run.", code="interaction_stale")
    return interaction, turn


_CARD = prepared.Select(Interaction, "t.id = %s AND t.owner_id = %s", related=("case", "conversation"))
_CARD_COMMANDS = prepared.Select(CommandJournalEntry, "t.interaction_id = %s", order="t.sequence")
_OUT_OF_SERVICE = prepared.Values(RegistryEntry, ("name", "status"), "t.status <> %s")
# the click actions that send nothing before the reply (a selection may send the cards it draws first)
_SENT_AT_ONCE = {"execute_commands", "decline", "none"}
_CONFIRMED = prepared.Update(CommandJournalEntry, ("status", "origin", "origin_kind"), "t.id IN %s AND t.status = %s")


def click_turn_run(turn: Turn, conversation: Conversation, interaction: Interaction, option: str, user,
                   out_of_service: dict[str, str], commands: list[CommandJournalEntry],
                   started: list[tuple[str, dict]]) -> None:
    """Run the action the card stored for ``option`` (never anything the click itself says, I7). ``commands``:
    the card's journal rows as read with it; ``started``: the turn's events not sent yet (its ``turn.started``),
    sent first with the reply."""
    actor = actor_of(user)
    action = next(o["action"] for o in interaction.options if o["id"] == option)
    click = _Click(turn, conversation, interaction, option, user, actor, today_for(actor),
                   offered_registry(conversation.mode, out_of_service),
                   commands, started)
    {"execute_commands": _confirm, "decline": _decline, "none": _none_of_these}.get(action["type"], _select)(
        click, action)


@dataclass(frozen=True)
class _Click:
    turn: Turn
    conversation: Conversation
    interaction: Interaction
    option: str
    user: object
    actor: Actor
    today: str
    registry: Registry
    commands: list[CommandJournalEntry]  # the card's journal rows, as read with the card
    started: list[tuple[str, dict]]  # the turn's events not sent yet

    @property
    def trace(self) -> TurnTrace:
        return TurnTrace(click=ClickRecord(interaction=self.interaction.id, option=self.option))

    def acts(self, rows: list[CommandJournalEntry], outcome: str = "") -> list[TurnAct]:
        return [TurnAct(id=r.plan_act_id, act=r.act, case=r.case_id, outcome=outcome) for r in rows]

    def deliver(self, committed: list | None = None, commands: list[CommandJournalEntry] | None = None,
                cases: list[Case] = (), along: CardsAlong | None = None) -> None:
        reply_deliver(self.turn, self.conversation, self.registry, answers=[], say=None, resolved=self.interaction,
                      committed=committed or [], commands=commands, cases=cases, along=along,
                      announce=self.started)


def _confirm(click: _Click, action: dict) -> None:
    """The card's commands run under ``confirmed_interaction``; if they all met a newer revision, the card is stale."""
    rows = click.commands
    origin = {"kind": CONFIRMED_INTERACTION, "interaction": click.interaction.id, "option": click.option,
              "user": click.actor.user_id}
    acts, trace = click.acts(rows), click.trace.model_copy(update={"command_ids": [r.id for r in rows]})
    # one command: confirming it, running it, settling the card and the turn's record are one transaction (the
    # bus settles the row straight from awaiting this card: its settlement checks the card, I19); a crash
    # before its commit leaves the card being answered by a turn that did nothing, which recovery reopens
    single = len(rows) == 1 and rows[0].status == JStatus.AWAITING_CONFIRMATION
    if single:
        rows[0].origin, rows[0].origin_kind = origin, CONFIRMED_INTERACTION
        click.turn.acts, click.turn.trace = acts, trace  # written with the command's record, in its transaction
        crash_point("after_journal_admission")
    else:  # several: all of them are confirmed at once, then each runs in its own transaction
        with transaction.atomic():
            moved = _CONFIRMED.run([JStatus.PENDING, origin, CONFIRMED_INTERACTION], [r.pk for r in rows],
                                   JStatus.AWAITING_CONFIRMATION)
            turn_write(click.turn, phase=Phase.EXECUTING, acts=acts, trace=trace)
        crash_point("after_journal_admission")
        if moved == len(rows):  # every row was awaiting this card: all of them run
            for row in rows:
                row.status, row.origin, row.origin_kind = JStatus.PENDING, origin, CONFIRMED_INTERACTION
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

    along = CardsAlong(click.conversation)
    with transaction.atomic() if single else nullcontext():
        results = commands_execute_ready(click.turn, click.actor, click.today, rows, then=Phase.COMMITTED,
                                         before_last=settle_card, along=along, held=[click.interaction.case])
    crash_point("after_commit")
    click.deliver([e for r in results for e in r.committed], commands=rows, cases=cases_left(results), along=along)


def _decline(click: _Click, action: dict) -> None:
    """One transaction: a crash leaves either an answerable card or a declined card, never a mix."""
    rows = click.commands
    with transaction.atomic():
        journal_settle_behind([click.interaction.pk], JStatus.DECLINED)
        card_finish(click.interaction, Interaction.Status.DECLINED)
        turn_write(
            click.turn, acts=click.acts(rows, Outcome.DECLINED), phase=Phase.COMMITTED, trace=click.trace,
            notices=[TurnNotice(code="declined", text=NOTICE_COPY["declined"])])
    crash_point("after_commit")
    click.deliver()


def _none_of_these(click: _Click, action: dict) -> None:
    held = [ValidatedAct.from_json(a) for a in click.interaction.held_acts]
    card_finish(click.interaction, Interaction.Status.RESOLVED)
    turn_write(
        click.turn, acts=[TurnAct(id=a.id, act=a.act, outcome=Outcome.DECLINED) for a in held],
        notices=[TurnNotice(code="selection_none", text=NOTICE_COPY["selection_none"])], phase=Phase.COMMITTED,
        trace=click.trace)
    click.deliver()


def _select(click: _Click, action: dict) -> None:
    """A selection: resume the held acts on exactly the chosen case, through policy and confirmation."""
    chosen = Case.objects.filter(pk=action["case"], owner=click.user).first()
    if chosen is None or chosen.id not in click.interaction.candidates:
        raise NotFound("No such case.")
    Conversation.objects.filter(pk=click.conversation.pk).update(active_case=chosen)
    click.conversation.active_case_id = chosen.id
    held = [ValidatedAct.from_json(a) for a in click.interaction.held_acts]
    facts = TurnFacts(message="", mode=click.conversation.mode, actor=click.actor, today=click.today,
                      registry=click.registry, cases={chosen.id: snapshot(chosen)}, active_case=chosen.id)
    reduction = reduce_selected(held, chosen.id, facts)
    # the selection card is settled in L's transaction, with the acts it resumes: a crash before leaves it
    # answerable again (recovery reopens it), never resolved with its held acts lost
    reduction_apply(click.turn, click.conversation, click.actor, click.today, click.registry, reduction, click.trace,
                    answers=[], say=None, resolved=click.interaction, held=[chosen])
