"""Writes outside the turn algorithm: demo seeding through the command bus; a conversation's name and
its deletion by its user (soft: the ledger stays)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from conversations.core.keys import idempotency_key
from conversations.core.origins import INTERNAL_POLICY
from registries import CommandContext, DemoCase, get_registry
from registries.registry import demo_cases
from turnframe_web.errors import NotFound

from .commands import command_execute, journal_admit
from .models import Case, CommandJournalEntry, Conversation
from .turns import actor_of, queued_withdraw
from .turns.copy import Withdrawal
from .turns.interactions import cards_expire_in


def users_seed(*, password: str) -> dict[str, object]:
    """The demo users of CONTRACT §8: alice, bob, and the staff user admin (password reset each run
    where it differs: setting it again would count as a password change and revoke their API tokens)."""
    User = get_user_model()
    users = {}
    for username, staff in (("alice", False), ("bob", False), ("admin", True)):
        user, _ = User.objects.get_or_create(username=username, defaults={"email": f"{username}@example.com"})
        user.is_staff = user.is_superuser = staff
        if not user.check_password(password):
            user.set_password(password)
        user.save()
        users[username] = user
    return users


def case_seed(*, owner, demo: DemoCase) -> Case:
    """Create one demo case by running its acts under origin ``internal_policy``; idempotent by title."""
    existing = Case.objects.filter(owner=owner, kind=demo.kind, title=demo.title).first()
    if existing is not None:
        return existing
    registry = get_registry()
    actor = actor_of(owner)
    today = timezone.now().date().isoformat()
    case = None
    for i, (act, args) in enumerate(demo.acts):
        definition = registry.acts[act]
        key = idempotency_key(conversation="seed", turn=f"{owner.pk}:{demo.title}", act_id=str(i),
                              case=case.id if case else None, expected_revision=i, args=args)
        with transaction.atomic():
            args = definition.complete_args(dict(args), CommandContext(actor=actor, today=today))
            row, _ = journal_admit(idempotency_key=key, plan_act_id=str(i), act=act, case=case, args=args,
                                   expected_revision=i, sequence=i, status=CommandJournalEntry.Status.PENDING,
                                   origin={"kind": INTERNAL_POLICY, "reason": "seed_demo"},
                                   origin_kind=INTERNAL_POLICY)
        result = command_execute(entry=row, origin={"kind": INTERNAL_POLICY, "reason": "seed_demo"}, actor=actor,
                                 today=today)
        case = Case.objects.get(pk=result.case) if result.case else case
    return case


def demo_seed(*, password: str) -> list[Case]:
    users = users_seed(password=password)
    return [case_seed(owner=users[d.owner], demo=d) for d in demo_cases() if d.owner in users]


def _visible(*, user, conversation_id: str):
    rows = Conversation.objects.filter(pk=conversation_id, owner=user, hidden_at__isnull=True)
    if not rows.exists():
        raise NotFound("No such conversation.")
    return rows


def conversation_rename(*, user, conversation_id: str, title: str) -> Conversation:
    """Name a conversation ("" gives it back the label of its first message)."""
    rows = _visible(user=user, conversation_id=conversation_id)
    rows.update(title=" ".join(title.split()))
    return rows.get()


def conversation_hide(*, user, conversation_id: str) -> None:
    """Delete a conversation for its user: it leaves their lists, pages and socket, while its turns,
    commands, events and cards stay in the ledger (the admin shows it, marked deleted). Its open cards
    expire with it (their commands never run; a click answers 409 ``interaction_expired``), and its queued
    messages are withdrawn (they never run: the promotion of a queued message also requires its conversation
    not deleted, so one that joins the queue as it is deleted never runs either)."""
    with transaction.atomic():
        _visible(user=user, conversation_id=conversation_id).update(hidden_at=timezone.now())
        cards_expire_in(conversation_id)
        queued_withdraw(conversation_id=conversation_id, because=Withdrawal.CONVERSATION_DELETED)
