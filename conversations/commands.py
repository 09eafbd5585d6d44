"""Steps M-N: the command bus (SPEC §16).

A command is admitted to the journal under its idempotency key before it runs, and runs in one
database transaction that checks the expected revision with a conditional UPDATE, applies the
handler's state, appends its events and outbox rows, and settles its journal row. The bus refuses
any origin that does not satisfy the act's mutability (I12), whoever calls it.
"""

from __future__ import annotations

import copy
import logging
from dataclasses import dataclass, field, fields

from django.db import IntegrityError, transaction
from django.utils import timezone
from pydantic import ValidationError

from conversations.core.origins import CONFIRMED_INTERACTION, origin_allows
from registries import Actor, CommandContext, CommandRefused, get_registry

from . import store
from .ids import new_id
from .models import Case, CommandJournalEntry, DomainEvent, OutboxEntry, snapshot

log = logging.getLogger(__name__)
Status = CommandJournalEntry.Status
SETTLED = {Status.COMMITTED, Status.REJECTED, Status.CONFLICT, Status.FAILED, Status.OUTCOME_UNKNOWN,
           Status.DECLINED, Status.STALE}


@dataclass(frozen=True)
class Execution:
    status: str
    code: str | None
    events: list[str]
    case: str | None
    # the event rows this very call inserted (none when recorded earlier) and the case as it left it (None then):
    # bookkeeping, not part of the outcome
    committed: tuple[DomainEvent, ...] = field(default=(), compare=False)
    case_row: Case | None = field(default=None, compare=False)


class _Abort(Exception):
    def __init__(self, status: str, code: str):
        super().__init__(code)
        self.status, self.code = status, code


def journal_admit(**fields) -> tuple[CommandJournalEntry, bool]:
    """Insert a journal row; the unique key makes a second admission return the first row (I14)."""
    try:
        with transaction.atomic():
            row = CommandJournalEntry(**fields)
            store.journal_insert(row)
            return row, True
    except IntegrityError:
        existing = CommandJournalEntry.objects.filter(idempotency_key=fields["idempotency_key"]).first()
        if existing is None:
            raise
        return existing, False


def command_execute(*, entry: CommandJournalEntry, origin: dict, actor: Actor, today: str,
                    held: Case | None = None) -> Execution:
    """Run one admitted command exactly once. A settled row returns its recorded outcome.

    Kept whole on purpose: the origin checks, the handler, the conditional revision update, the events, the
    outbox row and the journal settlement are one transaction, and reading them in one place is how a reviewer
    sees that nothing escapes it. ``entry`` as the caller loaded it: a row another executor settled meanwhile is
    caught by the conditional settlement below (nothing of this run is applied, the recorded outcome returns).
    ``held``: the case's row as the caller read it; used when it is at the expected revision (a case's state
    changes only with its revision, and the conditional update below refuses a revision that moved on)."""
    if entry.status in SETTLED:
        return _recorded(entry)
    definition = get_registry().acts.get(entry.act)
    if definition is None:
        return _settle(entry, Status.REJECTED, "act_not_registered")
    if not origin_allows(definition.mutability, origin.get("kind", "")):
        log.error("command %s refused: origin %s does not satisfy %s", entry.id, origin.get("kind"),
                  definition.mutability)
        return _settle(entry, Status.REJECTED, "origin_not_allowed")
    confirmed = origin["kind"] == CONFIRMED_INTERACTION
    if confirmed and (origin.get("option") != "confirm" or not entry.interaction_id
                      or origin.get("interaction") != entry.interaction_id):
        return _settle(entry, Status.REJECTED, "origin_not_verified")
    kinds = get_registry().case_kinds
    ctx = CommandContext(actor=actor, today=today)
    try:
        with transaction.atomic():
            case = None
            if not definition.creates_case:
                case_id = entry.case_id or _case_id_from_same_turn(entry)
                if case_id is None:
                    raise _Abort(Status.REJECTED, "case_not_created_yet")
                fresh = held is not None and held.pk == case_id and held.revision == entry.expected_revision
                case = copy.copy(held) if fresh else store.case(case_id)  # (the caller's row stays as read)
                if case is None:
                    raise Case.DoesNotExist(case_id)
                if case.owner_id != actor.user_id:
                    raise _Abort(Status.REJECTED, "not_authorized")
                if case.revision != entry.expected_revision:
                    raise _Abort(Status.CONFLICT, "revision_conflict")
            try:
                result = definition.handler(snapshot(case) if case else None, entry.args, ctx)
            except CommandRefused as refused:
                raise _Abort(Status.REJECTED, refused.code) from None
            except Exception:  # a bug in the domain's handler fails the row for good (a database error
                # elsewhere leaves it pending for recovery to retry)
                log.exception("command %s (%s): the handler failed; nothing was applied", entry.id, entry.act)
                raise _Abort(Status.FAILED, "handler_failed") from None
            kind = kinds[definition.case_kind]
            try:
                state = kind.state_schema.model_validate(dict(result.state)).model_dump(mode="json")
            except ValidationError:
                raise _Abort(Status.REJECTED, "invalid_state") from None
            if case is None:
                last = 0  # a new case has no events yet
                case = Case.objects.create(id=new_id(kind.id_prefix), kind=kind.name, owner_id=actor.user_id,
                                           title=result.title, status=result.status, revision=1, state=state)
            else:
                changed_at = timezone.now()
                # the same statement reads the case's last event number, for the events appended below
                last = store.case_change(case.pk, entry.expected_revision, state=state, status=result.status,
                                         title=result.title, at=changed_at)
                if last is None:  # someone committed in between: nothing of ours is applied (I13)
                    raise _Abort(Status.CONFLICT, "revision_conflict")
                case.state, case.status, case.title, case.revision, case.updated_at = (
                    state, result.status, result.title, entry.expected_revision + 1, changed_at)
            events = [DomainEvent(case=case, revision=case.revision if definition.creates_case
                                  else entry.expected_revision + 1,
                                  sequence=last + i + 1, type=e.type, data=dict(e.data), command=entry)
                      for i, e in enumerate(result.events)]
            ids = [e.id for e in events]
            # settle the row conditionally: a second executor of the same row changes nothing
            settled = store.Settlement(Status.COMMITTED, case.pk, origin, origin["kind"], {"events": ids},
                                       timezone.now())
            # I19 for a confirmed card is checked by the same statement: the card exists, is the clicking user's,
            # is being answered, and names this row (else nothing of this transaction is applied)
            # (a confirmed row may still be awaiting the card: a click that runs one command settles it straight)
            claimed = (store.journal_settle_confirmed(entry.pk, settled, (*OPEN, Status.AWAITING_CONFIRMATION),
                                                      card_id=entry.interaction_id, owner_id=actor.user_id)
                       if confirmed
                       else store.journal_settle(entry.pk, settled, OPEN))
            if not claimed:
                raise _Abort("raced", "already_settled")
            store.events_insert(events)
            for effect in result.outbox:
                OutboxEntry.objects.create(destination=effect.destination, idempotency_key=entry.idempotency_key,
                                           case=case, command=entry, payload=dict(effect.payload))
    except _Abort as abort:
        if abort.status == "raced":
            entry.refresh_from_db()
            if confirmed and entry.status not in SETTLED:  # nobody settled it: the card did not verify (I19)
                return _settle(entry, Status.REJECTED, "origin_not_verified")
            return _recorded(entry)
        return _settle(entry, abort.status, abort.code)
    for f in fields(settled):  # the caller's row, as committed
        setattr(entry, f.name, getattr(settled, f.name))
    return Execution(Status.COMMITTED, None, ids, case.id, tuple(events), case)


OPEN = (Status.PENDING, Status.EXECUTING)


def _case_id_from_same_turn(entry: CommandJournalEntry) -> str | None:
    if not entry.case_from_act:
        return None
    creator = CommandJournalEntry.objects.filter(turn_id=entry.turn_id, plan_act_id=entry.case_from_act,
                                                 status=Status.COMMITTED).values_list("case_id", flat=True).first()
    if creator:
        CommandJournalEntry.objects.filter(pk=entry.pk).update(case_id=creator)
        return creator
    return None


def _settle(entry: CommandJournalEntry, status: str, code: str) -> Execution:
    """Settle a row that did not commit, with the origin it ran under (a confirmed card's, when the click settles
    its one command straight from awaiting the card)."""
    CommandJournalEntry.objects.filter(pk=entry.pk).exclude(status__in=SETTLED).update(
        status=status, result={"code": code}, updated_at=timezone.now(), origin=entry.origin,
        origin_kind=entry.origin_kind)
    entry.refresh_from_db()
    return _recorded(entry)


def _recorded(entry: CommandJournalEntry) -> Execution:
    return Execution(entry.status, (entry.result or {}).get("code"), list((entry.result or {}).get("events", [])),
                     entry.case_id)


def journal_settle_broken_chain(*, entry: CommandJournalEntry) -> Execution:
    """A pending row whose case's earlier command in the same batch did not commit: it never runs."""
    if CommandJournalEntry.objects.filter(pk=entry.pk, status=Status.PENDING).update(
            status=Status.CONFLICT, result={"code": "earlier_command_failed"}, updated_at=timezone.now()):
        entry.status, entry.result = Status.CONFLICT, {"code": "earlier_command_failed"}  # the caller's row follows
    return Execution(status=Status.CONFLICT, code="earlier_command_failed", events=[], case=entry.case_id)


def journal_settle_behind(interaction_ids: list[str], status: str) -> None:
    """Settle the rows behind declined, stale or superseded cards (by the cards' ids): they never run."""
    store.journal_settle_behind(interaction_ids, status, timezone.now())
