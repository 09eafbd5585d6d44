"""The Interaction (card) state machine (SPEC §17): pending → resolving → resolved / declined / stale /
superseded / expired, persisted before anything mentions a card, and the journal settlement that goes with it.

A card does not outlive its use (issue 20, 5): deleting its conversation expires it, and so does
``TURNFRAME_CARD_TTL_MINUTES`` unanswered (checked at the click, the one place a card is acted on). An expired
card can never run; its commands settle ``stale``."""

from __future__ import annotations

import functools
import logging
from typing import Any

from django.db import transaction
from django.utils import timezone

from conversations.core.reducer import NewCase, Reduction
from registries import Registry

from .. import store, stream
from ..commands import journal_settle_behind
from ..ids import new_id
from ..models import Case, CommandJournalEntry, Interaction, Turn, snapshot
from ..selectors import card_expires_at, interaction_json
from .admission import TurnOutcome, turn_open
from .chaos import crash_point
from .context import noun
from .run import TurnRun

log = logging.getLogger(__name__)
Phase, JStatus = Turn.Phase, CommandJournalEntry.Status


# the engine's own reasons for a card, worded for the page (a case kind's ``reason_copy`` words its policies')
_REASONS = {"reading_unsure": "I am not sure I read you right", "asked_and_requested": "you asked about it too"}


def cards_persist(run: TurnRun, reduction: Reduction) -> list[Interaction]:
    """The turn's cards. A confirmation describes its commands on the state the reduction saw (``run.held``: it
    is bound to that revision; if the case moved on since, the card goes stale). A confirmation of an act that
    opens a case (a ``NewCase``: the case exists once its command commits) is drawn on no case."""
    turn, conversation, actor, registry = run.turn, run.conversation, run.actor, run.registry
    cards: list[Interaction] = []
    by_id = {a.id: a for a in reduction.acts}
    commands = {c.act_id: c for c in reduction.commands}
    rows = {c.pk: c for c in run.held}
    for confirmation in reduction.confirmations:
        case = None
        if not isinstance(confirmation.case, NewCase):
            case = rows.get(confirmation.case) or store.case(confirmation.case)
            if case is None:
                raise Case.DoesNotExist(confirmation.case)
            cards_supersede_open(case.pk)
        # each command described on the state it will find: after this turn's direct edits and the
        # card's earlier commands, never on the state before the message
        before = snapshot(case) if case is not None else None
        lines = [registry.acts[by_id[i].act].describe_command(commands[i].preview or before, commands[i].args)
                 or by_id[i].act.replace("_", " ") for i in confirmation.act_ids]
        kind = registry.case_kinds.get(case.kind if case is not None
                                       else registry.acts[by_id[confirmation.act_ids[0]].act].case_kind)
        reasons = [(kind.reason_copy if kind else {}).get(code) or _REASONS.get(code, code.replace("_", " "))
                   for code in confirmation.codes]
        reason = f" ({'; '.join(reasons)})" if reasons else ""
        card = Interaction(
            conversation=conversation, turn=turn, owner_id=actor.user_id, kind=Interaction.Kind.CONFIRMATION,
            case=case, case_revision=confirmation.bound_revision,
            prompt=f"Please confirm{reason}: " + "; ".join(lines) + ".",
            options=[{"id": "confirm", "label": "Confirm", "action": {"type": "execute_commands"}},
                     {"id": "decline", "label": "Decline", "action": {"type": "decline"}}])
        store.card_insert(card)
        cards.append(card)
    for selection in reduction.selections:
        candidates = list(Case.objects.filter(pk__in=selection.candidates, owner_id=actor.user_id))
        options = [{"id": c.id, "label": c.title, "action": {"type": "resume_acts", "case": c.id},
                    **_case_detail(registry, c)} for c in candidates]
        options.append({"id": "none", "label": "None of these", "action": {"type": "none"}})
        what = ", ".join(a.act.replace("_", " ") for a in selection.held_acts)
        cards.append(Interaction.objects.create(
            conversation=conversation, turn=turn, owner_id=actor.user_id, kind=Interaction.Kind.SELECTION,
            blocking=False, prompt=f"Which {noun(registry, selection.case_kind)} do you mean ({what})?",
            options=options,
            held_acts=[a.to_json() for a in selection.held_acts], candidates=[c.id for c in candidates]))
    return cards


def _case_detail(registry: Registry, case: Case) -> dict[str, Any]:
    """What a selection card shows beside a candidate's title: its status, and what its kind adds
    (``CaseKindDefinition.card_detail``; the page shows its ``summary``)."""
    kind = registry.case_kinds.get(case.kind)
    extra = kind.card_detail(snapshot(case)) if kind and kind.card_detail else {}
    return {"detail": {**{str(k): str(v) for k, v in extra.items()}, "status": case.status}}


def cards_supersede_open(case_id: str) -> None:
    """I5: a new blocking card on a case supersedes the open one, which can never be answered again (one
    conditional update: only from pending, so the database decides a race with its click)."""
    superseded = store.cards_supersede(case_id, timezone.now())
    if superseded:
        journal_settle_behind(superseded, JStatus.STALE)
    for pk in superseded:
        transaction.on_commit(functools.partial(card_publish_resolved, pk))


def card_publish_resolved(interaction_id: str) -> None:
    """Announce a card's new status as the database has it (never a stale in-memory copy)."""
    card = Interaction.objects.get(pk=interaction_id)
    stream.publish(card.conversation_id, "interaction.resolved", {"interaction": interaction_json(card)})


def cards_stale(cards: list[Interaction], changed_cases: set[str], rows: list[CommandJournalEntry]
                ) -> list[Interaction]:
    """Pending confirmations on a changed case bound to a revision that is no longer live can never run: mark
    them stale. ``cards`` as loaded after the change, each with its case (``select_related``: the live revision);
    the staled ones, and their commands among ``rows``, are updated in place too."""
    due = [card for card in cards
           if card.status == Interaction.Status.PENDING and card.kind == Interaction.Kind.CONFIRMATION
           and card.case is not None and card.case_id in changed_cases and card.case_revision != card.case.revision]
    return [card for card in due if _card_go_stale(card, rows)]


def cards_withdraw_unreachable(rows: list[CommandJournalEntry], cards: list[Interaction]) -> list[Interaction]:
    """A card this turn drew for the state after its direct edits is withdrawn (stale) when one of
    those edits did not commit: its bound revision may since be reached by another writer's change,
    never by the state the card describes. ``rows``: the turn's commands, ``cards``: its cards with their
    case (``select_related``, so the live revision comes with them), both loaded after the commands ran;
    the withdrawn cards and their rows are updated in place too."""
    failed = {row.case_id for row in rows if row.interaction_id is None and row.status != JStatus.COMMITTED}
    due = [card for card in cards
           if card.kind == Interaction.Kind.CONFIRMATION and card.status == Interaction.Status.PENDING
           and card.case is not None and (card.case_id in failed or card.case.revision != card.case_revision)]
    return [card for card in due if _card_go_stale(card, rows)]


def _card_go_stale(card: Interaction, rows: list[CommandJournalEntry]) -> bool:
    """Settle a pending card stale with its commands (only from pending: the database decides a race); the card
    and the caller's copies of its commands among ``rows`` follow. False: it was no longer pending."""
    now = timezone.now()
    if not store.card_settle(card.pk, Interaction.Status.STALE, now):
        return False
    journal_settle_behind([card.pk], JStatus.STALE)
    card.status, card.resolved_at = Interaction.Status.STALE, now
    for row in rows:
        if row.interaction_id == card.id and row.status == JStatus.AWAITING_CONFIRMATION:
            row.status = JStatus.STALE
    return True


def card_expire_if_due(card: Interaction) -> bool:
    """Expire a pending card whose conversation was deleted or whose time is up (one conditional update: only
    from pending, so a click that claimed it first wins). True when the card is expired now (by this call or
    before); the instance follows."""
    if card.status == Interaction.Status.EXPIRED:
        return True
    due = card.conversation.hidden_at is not None or (
        (at := card_expires_at(card)) is not None and timezone.now() >= at)
    if not due or card.status != Interaction.Status.PENDING:
        return False
    now = timezone.now()
    with transaction.atomic():
        if not store.card_settle(card.pk, Interaction.Status.EXPIRED, now):
            card.refresh_from_db()
            return card.status == Interaction.Status.EXPIRED
        journal_settle_behind([card.pk], JStatus.STALE)
        transaction.on_commit(functools.partial(card_publish_resolved, card.pk))
    card.status, card.resolved_at = Interaction.Status.EXPIRED, now
    return True


def cards_expire_in(conversation_id: str) -> list[str]:
    """Expire every open card of a conversation (deleted by its user): one conditional update, only from
    pending (a card being answered finishes its click); their commands settle stale and never run."""
    now = timezone.now()
    with transaction.atomic():
        expired = store.cards_expire_in(conversation_id, now)
        if expired:
            journal_settle_behind(expired, JStatus.STALE)
        for pk in expired:
            transaction.on_commit(functools.partial(card_publish_resolved, pk))
    return expired


def card_origin_text(card: Interaction) -> str | None:
    """The person's message that drew a card (through the clicks between: a selection's confirmation card),
    for "Ask again"; None when there is none."""
    turn = card.turn
    for _ in range(10):
        if turn.kind != Turn.Kind.CLICK or turn.interaction is None:
            break
        turn = turn.interaction.turn
    return turn.text or None if turn.kind != Turn.Kind.CLICK else None


class ClickNotStarted(Exception):
    def __init__(self, outcome: TurnOutcome | None = None):
        self.outcome = outcome


def card_claim(interaction: Interaction, option: str, user, client_response_id: str | None
                ) -> Turn | TurnOutcome | None:
    """Claim the card and open the click's turn in one transaction (SPEC §17): a crash or a refusal between
    the two can never leave a card ``resolving`` with no turn to finish it. None: another click won."""
    try:
        with transaction.atomic():
            # the one conditional update that decides who answers (concurrency by the database); it names the
            # click's turn, inserted just below in the same transaction (the reference is checked at commit)
            turn_id = new_id("trn")
            if not store.card_claim(interaction.pk, option, user.pk, turn_id):
                return None
            crash_point("after_card_claimed")
            # each attempt its own id: a click whose turn was interrupted (and the card reopened by recovery)
            # must not meet that turn's id again
            attempt = new_id("try")
            turn = turn_open(interaction.conversation, kind=Turn.Kind.CLICK, text="", interaction=interaction,
                              option=option, turn_id=turn_id,
                              client_message_id=client_response_id or f"click:{interaction.id}:{option}:{attempt}")
            if isinstance(turn, TurnOutcome):
                raise ClickNotStarted(turn)
            interaction.status, interaction.chosen_option = Interaction.Status.RESOLVING, option
            interaction.answered_by, interaction.result_turn = user, turn  # the instance follows the claim
            return turn
    except ClickNotStarted as not_started:  # rolled back: the card is answerable as it was
        return not_started.outcome


def card_finish(interaction: Interaction, status: str) -> None:
    """Settle a card being answered; the instance follows when this call settled it."""
    now = timezone.now()
    if store.card_settle(interaction.pk, status, now, from_status=Interaction.Status.RESOLVING):
        interaction.status, interaction.resolved_at = status, now


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
            card_finish(card, Interaction.Status.RESOLVED)
        else:
            Interaction.objects.filter(pk=card.pk, status=Interaction.Status.RESOLVING).update(
                status=Interaction.Status.PENDING, chosen_option="", answered_by=None, result_turn=None)
        settled.append(card.id)
    return settled
