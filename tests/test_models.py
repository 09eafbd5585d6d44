"""Persisted state: the database itself refuses what concurrent writers must never do, and the
command bus commits a command's revision, events and journal settlement as one transaction.

Runs on SQLite and, with TURNFRAME_TEST_POSTGRES=1, on PostgreSQL (partial unique indexes on both).
"""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from conversations.commands import command_execute, journal_admit
from conversations.core.keys import idempotency_key
from conversations.core.origins import CONFIRMED_INTERACTION, DIRECT_USER_ACT, INTERNAL_POLICY
from conversations.models import (
    Case,
    CommandJournalEntry,
    Conversation,
    DomainEvent,
    Interaction,
    OutboxEntry,
    Turn,
)
from conversations.services import demo_seed
from conversations.turns import actor_of

pytestmark = pytest.mark.django_db
JStatus = CommandJournalEntry.Status
TODAY = "2026-12-01"


# --------------------------------------------------------------------------- fixtures



@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice", password="pw-alice-1")


@pytest.fixture
def case(alice):
    return Case.objects.create(id="clm_TESTCASE0001", kind="expense_claim", owner=alice, title="Trip",
                               status="draft", revision=3, state={})


@pytest.fixture
def conversation(alice):
    return Conversation.objects.create(owner=alice, mode="controlled_agentic")


@pytest.fixture
def turn(conversation):
    return Turn.objects.create(conversation=conversation, client_message_id="m1", text="hi",
                               mode=conversation.mode, status=Turn.Status.COMPLETED)


def journal_row(case, *, key: str, status: str = JStatus.PENDING, **extra) -> CommandJournalEntry:
    fields = {"idempotency_key": key, "plan_act_id": "a1", "act": "update_line", "case": case,
              "args": {}, "expected_revision": case.revision, "status": status} | extra
    return CommandJournalEntry.objects.create(**fields)


def interaction(conversation, turn, case, *, status=Interaction.Status.PENDING, blocking=True) -> Interaction:
    return Interaction.objects.create(conversation=conversation, turn=turn, owner=conversation.owner,
                                      kind=Interaction.Kind.CONFIRMATION, status=status, blocking=blocking,
                                      case=case, case_revision=case.revision,
                                      options=[{"id": "confirm", "label": "Confirm"},
                                               {"id": "decline", "label": "Decline"}])


def refused(create) -> bool:
    """Whether the database refuses the write (inside a savepoint, so the test can go on)."""
    try:
        with transaction.atomic():
            create()
    except IntegrityError:
        return True
    return False


# --------------------------------------------------------------------------- constraints


def test_a_second_journal_row_with_the_same_idempotency_key_is_refused(case):
    journal_row(case, key="k" * 64)
    assert refused(lambda: journal_row(case, key="k" * 64, plan_act_id="a2"))
    assert CommandJournalEntry.objects.count() == 1


def test_journal_admission_of_a_repeated_key_returns_the_first_row(case):
    fields = {"idempotency_key": "same-key", "plan_act_id": "a1", "act": "update_line", "case": case, "args": {},
              "expected_revision": case.revision, "status": JStatus.PENDING}
    first, created = journal_admit(**fields)
    again, created_again = journal_admit(**{**fields, "args": {"amount": "999"}})
    assert (created, created_again) == (True, False)
    assert again.pk == first.pk and again.args == {}
    assert CommandJournalEntry.objects.count() == 1


def test_a_second_open_blocking_interaction_on_one_case_is_refused(conversation, turn, case):
    interaction(conversation, turn, case)
    assert refused(lambda: interaction(conversation, turn, case))
    assert refused(lambda: interaction(conversation, turn, case, status=Interaction.Status.RESOLVING))
    assert Interaction.objects.filter(case=case).count() == 1


def test_a_resolving_card_also_counts_as_open(conversation, turn, case):
    interaction(conversation, turn, case, status=Interaction.Status.RESOLVING)
    assert refused(lambda: interaction(conversation, turn, case))


def test_a_closed_card_non_blocking_cards_and_other_cases_do_not_block(conversation, turn, case, alice):
    first = interaction(conversation, turn, case)
    Interaction.objects.filter(pk=first.pk).update(status=Interaction.Status.SUPERSEDED)
    interaction(conversation, turn, case)  # the old one is closed: a new blocking card may open
    interaction(conversation, turn, case, blocking=False)
    other = Case.objects.create(id="clm_TESTCASE0002", kind="expense_claim", owner=alice, title="Other",
                                status="draft", revision=1, state={})
    interaction(conversation, turn, other)
    assert Interaction.objects.filter(status=Interaction.Status.PENDING).count() == 3


def test_one_running_turn_per_conversation(conversation, alice):
    Turn.objects.create(conversation=conversation, client_message_id="r1", mode=conversation.mode)
    assert refused(lambda: Turn.objects.create(conversation=conversation, client_message_id="r2",
                                               mode=conversation.mode))
    # a finished turn does not count, and another conversation has its own
    Turn.objects.create(conversation=conversation, client_message_id="done", mode=conversation.mode,
                        status=Turn.Status.COMPLETED)
    other = Conversation.objects.create(owner=alice)
    Turn.objects.create(conversation=other, client_message_id="r1", mode=other.mode)
    assert Turn.objects.filter(status=Turn.Status.RUNNING).count() == 2


def test_a_client_message_id_is_unique_within_its_conversation(conversation):
    Turn.objects.create(conversation=conversation, client_message_id="m", mode=conversation.mode,
                        status=Turn.Status.COMPLETED)
    assert refused(lambda: Turn.objects.create(conversation=conversation, client_message_id="m",
                                               mode=conversation.mode, status=Turn.Status.FAILED))


def test_a_domain_events_sequence_is_unique_per_case(case, alice):
    row = journal_row(case, key="k1", status=JStatus.COMMITTED, origin_kind=DIRECT_USER_ACT)
    DomainEvent.objects.create(case=case, sequence=1, revision=1, type="line_added", command=row)
    assert refused(lambda: DomainEvent.objects.create(case=case, sequence=1, revision=2, type="x", command=row))
    other = Case.objects.create(id="clm_TESTCASE0003", kind="expense_claim", owner=alice, title="Other",
                                status="draft", revision=1, state={})
    DomainEvent.objects.create(case=other, sequence=1, revision=1, type="line_added", command=row)


def test_a_committed_journal_row_always_names_its_origin(case):
    assert refused(lambda: journal_row(case, key="no-origin", status=JStatus.COMMITTED))
    journal_row(case, key="awaiting", status=JStatus.AWAITING_CONFIRMATION)  # no origin yet: fine
    journal_row(case, key="with-origin", status=JStatus.COMMITTED, origin_kind=DIRECT_USER_ACT)


def test_a_case_revision_is_never_negative(alice):
    assert refused(lambda: Case.objects.create(id="clm_NEG", kind="expense_claim", owner=alice, title="x",
                                               status="draft", revision=-1))


def test_one_outbox_row_per_destination_and_key(case):
    row = journal_row(case, key="obx", status=JStatus.COMMITTED, origin_kind=CONFIRMED_INTERACTION)
    OutboxEntry.objects.create(destination="approver", idempotency_key="obx", case=case, command=row)
    assert refused(lambda: OutboxEntry.objects.create(destination="approver", idempotency_key="obx", case=case,
                                                      command=row))
    OutboxEntry.objects.create(destination="archive", idempotency_key="obx", case=case, command=row)


# --------------------------------------------------------------------------- the command bus


@pytest.fixture
def berlin(django_user_model):
    demo_seed(password="pw-demo-1")
    alice = django_user_model.objects.get(username="alice")
    return alice, Case.objects.get(owner=alice, title="Berlin trip")


def admit_update(case: Case, *, amount: str, expected_revision: int | None = None, act_id: str = "a1"):
    revision = case.revision if expected_revision is None else expected_revision
    line_id = case.state["lines"][1]["id"]
    args = {"line": 2, "line_id": line_id, "amount": amount}
    key = idempotency_key(conversation="test", turn="t1", act_id=act_id, case=case.id, expected_revision=revision,
                          args=args)
    row, created = journal_admit(idempotency_key=key, plan_act_id=act_id, act="update_line", case=case, args=args,
                                 expected_revision=revision, status=JStatus.PENDING)
    assert created
    return row


def test_a_command_increments_the_revision_by_one_and_appends_its_events(berlin):
    alice, case = berlin
    before_events = DomainEvent.objects.filter(case=case).count()
    last = DomainEvent.objects.filter(case=case).order_by("-sequence").first()
    row = admit_update(case, amount="120")
    result = command_execute(entry=row, origin={"kind": DIRECT_USER_ACT}, actor=actor_of(alice), today=TODAY)
    case_after = Case.objects.get(pk=case.pk)
    row.refresh_from_db()
    events = list(DomainEvent.objects.filter(command=row))
    assert result.status == JStatus.COMMITTED and result.code is None
    assert case_after.revision == case.revision + 1
    assert case_after.state["lines"][1]["amount"] == "120.00"
    assert [e.type for e in events] == ["line_updated"]
    assert events[0].revision == case_after.revision and events[0].sequence == last.sequence + 1
    assert DomainEvent.objects.filter(case=case).count() == before_events + 1
    assert row.status == JStatus.COMMITTED and row.origin_kind == DIRECT_USER_ACT
    assert row.result["events"] == [events[0].id] == result.events


def test_a_stale_expected_revision_changes_nothing(berlin):
    alice, case = berlin
    events_before = DomainEvent.objects.count()
    row = admit_update(case, amount="120", expected_revision=case.revision - 1)
    result = command_execute(entry=row, origin={"kind": DIRECT_USER_ACT}, actor=actor_of(alice), today=TODAY)
    after = Case.objects.get(pk=case.pk)
    row.refresh_from_db()
    assert (result.status, result.code) == (JStatus.CONFLICT, "revision_conflict")
    assert row.status == JStatus.CONFLICT
    assert (after.revision, after.state, after.updated_at) == (case.revision, case.state, case.updated_at)
    assert DomainEvent.objects.count() == events_before


def test_the_second_of_two_commands_drawn_for_one_revision_is_a_conflict(berlin):
    alice, case = berlin
    first = admit_update(case, amount="120", act_id="a1")
    second = admit_update(case, amount="130", act_id="a2")
    actor = actor_of(alice)
    assert command_execute(entry=first, origin={"kind": DIRECT_USER_ACT}, actor=actor, today=TODAY).status == "committed"
    outcome = command_execute(entry=second, origin={"kind": DIRECT_USER_ACT}, actor=actor, today=TODAY)
    after = Case.objects.get(pk=case.pk)
    assert outcome.status == JStatus.CONFLICT
    assert after.revision == case.revision + 1 and after.state["lines"][1]["amount"] == "120.00"


def test_executing_a_settled_row_again_returns_its_recorded_outcome(berlin):
    alice, case = berlin
    row = admit_update(case, amount="120")
    actor = actor_of(alice)
    first = command_execute(entry=row, origin={"kind": DIRECT_USER_ACT}, actor=actor, today=TODAY)
    again = command_execute(entry=row, origin={"kind": DIRECT_USER_ACT}, actor=actor, today=TODAY)
    assert again == first
    assert Case.objects.get(pk=case.pk).revision == case.revision + 1
    assert DomainEvent.objects.filter(command=row).count() == 1


def test_a_failure_while_appending_events_rolls_back_the_revision_and_the_state(berlin, monkeypatch):
    alice, case = berlin

    def boom(execute, sql, params, many, context):  # the database refuses the events' insert
        if sql.startswith(f'INSERT INTO "{DomainEvent._meta.db_table}"'):
            raise RuntimeError("disk full")
        return execute(sql, params, many, context)

    row = admit_update(case, amount="120")
    with connection.execute_wrapper(boom), pytest.raises(RuntimeError):
        command_execute(entry=row, origin={"kind": DIRECT_USER_ACT}, actor=actor_of(alice), today=TODAY)
    after = Case.objects.get(pk=case.pk)
    row.refresh_from_db()
    assert (after.revision, after.state) == (case.revision, case.state)
    assert row.status == JStatus.PENDING and DomainEvent.objects.filter(command=row).count() == 0


def test_a_consequential_act_without_a_confirmed_interaction_is_refused(berlin):
    alice, case = berlin
    key = idempotency_key(conversation="test", turn="t1", act_id="a1", case=case.id,
                          expected_revision=case.revision, args={})
    row, _ = journal_admit(idempotency_key=key, plan_act_id="a1", act="submit_claim", case=case, args={},
                           expected_revision=case.revision, status=JStatus.PENDING)
    for kind in (DIRECT_USER_ACT, INTERNAL_POLICY, "", "model"):
        CommandJournalEntry.objects.filter(pk=row.pk).update(status=JStatus.PENDING, result={})
        outcome = command_execute(entry=row, origin={"kind": kind}, actor=actor_of(alice), today=TODAY)
        assert (outcome.status, outcome.code) == (JStatus.REJECTED, "origin_not_allowed")
    assert Case.objects.get(pk=case.pk).status == "draft"
    assert not OutboxEntry.objects.exists()


def test_a_refused_handler_applies_nothing(berlin):
    alice, case = berlin
    row = admit_update(case, amount="120")
    CommandJournalEntry.objects.filter(pk=row.pk).update(args={**row.args, "line_id": "no-such-line"})
    row.refresh_from_db()  # the executor runs the row as its caller loaded it
    outcome = command_execute(entry=row, origin={"kind": DIRECT_USER_ACT}, actor=actor_of(alice), today=TODAY)
    assert (outcome.status, outcome.code) == (JStatus.REJECTED, "line_not_found")
    assert Case.objects.get(pk=case.pk).revision == case.revision


def test_a_command_on_someone_elses_case_is_refused(berlin, django_user_model):
    _, case = berlin
    bob = django_user_model.objects.get(username="bob")
    row = admit_update(case, amount="120")
    outcome = command_execute(entry=row, origin={"kind": DIRECT_USER_ACT}, actor=actor_of(bob), today=TODAY)
    assert (outcome.status, outcome.code) == (JStatus.REJECTED, "not_authorized")
    assert Case.objects.get(pk=case.pk).revision == case.revision


def test_a_case_creating_command_starts_at_revision_one(berlin):
    alice, _ = berlin
    args = {"title": "Paris", "currency": "EUR"}
    key = idempotency_key(conversation="test", turn="t2", act_id="a1", case=None, expected_revision=0, args=args)
    row, _ = journal_admit(idempotency_key=key, plan_act_id="a1", act="open_claim", args=args, expected_revision=0,
                           status=JStatus.PENDING)
    outcome = command_execute(entry=row, origin={"kind": DIRECT_USER_ACT}, actor=actor_of(alice), today=TODAY)
    created = Case.objects.get(pk=outcome.case)
    assert outcome.status == JStatus.COMMITTED and created.id.startswith("clm_")
    assert (created.revision, created.title, created.status) == (1, "Paris", "draft")
    assert list(created.events.values_list("sequence", "revision", "type")) == [(1, 1, "claim_opened")]


def test_a_confirmed_origin_runs_only_for_a_card_being_answered_by_its_owner(berlin, django_user_model):
    """I19 at the command bus: the card the origin names must exist, be the clicking user's, be being answered
    and name the row. The check rides on the statement that settles the row, so a card that does not hold
    leaves nothing of the transaction behind."""
    alice, case = berlin
    bob = django_user_model.objects.get(username="bob")
    conversation = Conversation.objects.create(owner=alice)
    turn = Turn.objects.create(conversation=conversation, client_message_id="m1", text="submit it")
    card = Interaction.objects.create(conversation=conversation, turn=turn, owner=alice, case=case,
                                      case_revision=case.revision, prompt="Confirm?")
    row, _ = journal_admit(idempotency_key="i19", plan_act_id="a1", act="submit_claim", case=case, args={},
                           expected_revision=case.revision, status=JStatus.PENDING, interaction=card)
    origin = {"kind": CONFIRMED_INTERACTION, "interaction": card.id, "option": "confirm", "user": alice.pk}

    def run(actor, **card_fields):
        Interaction.objects.filter(pk=card.pk).update(**card_fields)
        CommandJournalEntry.objects.filter(pk=row.pk).update(status=JStatus.PENDING, result={})
        row.refresh_from_db()
        return command_execute(entry=row, origin=origin, actor=actor_of(actor), today=TODAY)

    before = (Case.objects.get(pk=case.pk).revision, DomainEvent.objects.count(), OutboxEntry.objects.count())
    for actor, fields in [(alice, {"status": "pending"}),  # nobody clicked it
                          (alice, {"status": "resolving", "owner": bob}),  # someone else's card
                          (alice, {"status": "declined", "owner": alice})]:  # answered otherwise
        outcome = run(actor, **fields)
        assert (outcome.status, outcome.code) == (JStatus.REJECTED, "origin_not_verified"), fields
        assert (Case.objects.get(pk=case.pk).revision, DomainEvent.objects.count(),
                OutboxEntry.objects.count()) == before
    outcome = run(alice, status="resolving", owner=alice)  # the card as a click leaves it: it runs
    assert outcome.status == JStatus.COMMITTED and Case.objects.get(pk=case.pk).status == "submitted"
