"""A running turn's lease (issue 20, 1): recovery takes only the turns no live process carries.

In one process here; ``test_lease_processes.py`` does the same with daphne processes started, restarted and
killed. Both run on SQLite and on the PostgreSQL lane.
"""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from conversations.models import CommandJournalEntry, Conversation, Turn
from conversations.providers.scripted import ScriptedProvider
from conversations.selectors import turn_json
from conversations.turns import lease, turn_recover, turn_submit_message
from tests.support import Ledger, act, lines_of, plan, seed


@pytest.fixture
def world(db):
    cases = seed()
    alice = get_user_model().objects.get(username="alice")
    return type("World", (), {"alice": alice, **cases})


def running_turn(world, **lease_fields) -> Turn:
    """A message turn left running (as a process would leave it), with the lease given."""
    conv = Conversation.objects.create(owner=world.alice, mode="deterministic")
    return Turn.objects.create(conversation=conv, kind=Turn.Kind.MESSAGE, text="add a taxi of 12",
                               client_message_id="c1", mode=conv.mode, phase=Turn.Phase.UNDERSTANDING,
                               status=Turn.Status.RUNNING, **lease_fields)


def recover() -> str:
    out = io.StringIO()
    call_command("recover_turns", stdout=out)
    return out.getvalue()


def test_recovery_leaves_a_turn_whose_lease_another_live_process_renews(world):
    turn = running_turn(world, lease_owner="web-2:4242:abcd", lease_expires_at=timezone.now() + timedelta(seconds=30))
    assert "recovered 0 turn(s)" in recover()
    turn.refresh_from_db()
    assert (turn.status, turn.phase, turn.lease_owner) == ("running", "understanding", "web-2:4242:abcd")


def test_recovery_takes_a_turn_once_its_lease_expired_and_then_only_once(world):
    turn = running_turn(world, lease_owner="web-2:4242:abcd", lease_expires_at=timezone.now() - timedelta(seconds=1))
    assert turn.id in recover()
    turn.refresh_from_db()
    assert (turn.status, turn.trace.ending or turn.notices[0].code) == ("failed", "turn_interrupted")
    assert turn.lease_owner == lease.owner()  # taken in one conditional update, by this process
    assert "recovered 0 turn(s)" in recover()


def test_a_turn_without_a_lease_from_an_earlier_version_is_recovered(world):
    turn = running_turn(world)
    assert turn.lease_expires_at is None
    assert turn.id in recover()


def test_taking_is_one_conditional_update_only_one_recovery_wins(world):
    turn = running_turn(world, lease_owner="gone:1:x", lease_expires_at=timezone.now() - timedelta(seconds=1))
    assert lease.take(turn.id) is True
    assert lease.take(turn.id) is False  # now leased again (by this process): not takeable
    Turn.objects.filter(pk=turn.pk).update(lease_owner="web-3:7:y")
    assert lease.take(turn.id) is False


def test_a_turn_started_here_carries_this_process_lease_and_it_is_renewed(world, script):
    text = script("add a taxi of 12", plan(act("a1", "add_line", "add a taxi of 12", case={"id": world.berlin.id},
                                                category="taxi", amount="12")))
    conv = Conversation.objects.create(owner=world.alice, mode="deterministic")
    seen = {}
    real = ScriptedProvider.complete

    def complete(self, request):  # while the model is asked: the lease is this process's, and renewable
        turn = Turn.objects.get(conversation=conv)
        seen["before"] = turn.lease_expires_at
        seen["owner"] = turn.lease_owner
        seen["renewed"] = lease.renew()
        seen["after"] = Turn.objects.get(pk=turn.pk).lease_expires_at
        return real(self, request)

    ScriptedProvider.complete = complete
    try:
        outcome = turn_submit_message(user=world.alice, conversation_id=conv.id, text=text)
    finally:
        ScriptedProvider.complete = real
    assert outcome.turn.status == "completed"
    assert seen["owner"] == lease.owner() and seen["renewed"] == 1 and seen["after"] >= seen["before"]
    assert lease.carrying() == set()


def test_a_turn_taken_over_while_its_model_was_slow_is_not_committed_by_the_process_that_lost_it(world, script):
    """The fence at the point of no return: a process paused past its lease (its turn recovered by another,
    the person told nothing changed) must not add the line when it wakes."""
    text = script("add a taxi of 12", plan(act("a1", "add_line", "add a taxi of 12", case={"id": world.berlin.id},
                                                category="taxi", amount="12")))
    conv = Conversation.objects.create(owner=world.alice, mode="deterministic")
    before_lines = len(lines_of(world.berlin.id))
    real = ScriptedProvider.complete

    def complete(self, request):  # meanwhile the lease expired and another process's recovery took the turn
        turn = Turn.objects.get(conversation=conv)
        Turn.objects.filter(pk=turn.pk).update(lease_owner="web-2:4242:abcd",
                                               lease_expires_at=timezone.now() + timedelta(seconds=30))
        turn_recover(turn)
        return real(self, request)

    ledger = Ledger.now()
    ScriptedProvider.complete = complete
    try:
        outcome = turn_submit_message(user=world.alice, conversation_id=conv.id, text=text)
    finally:
        ScriptedProvider.complete = real
    turn = turn_json(Turn.objects.get(pk=outcome.turn.pk))
    assert turn["status"] == "failed"
    assert [b["code"] for b in turn["reply"]["blocks"] if b["kind"] == "notice"] == ["turn_interrupted"]
    assert Ledger.now() == ledger and len(lines_of(world.berlin.id)) == before_lines
    assert not CommandJournalEntry.objects.filter(turn_id=turn["id"]).exists()


def test_a_turn_whose_thread_failed_is_released_for_recovery_at_once(world, script, monkeypatch):
    from conversations.providers.base import ProviderFailure
    from conversations.turns import delivery

    text = script("add a taxi of 12", plan(act("a1", "add_line", "add a taxi of 12", case={"id": world.berlin.id},
                                                category="taxi", amount="12")))
    conv = Conversation.objects.create(owner=world.alice, mode="deterministic")

    def failing(**kwargs):
        raise ProviderFailure("unavailable", "narration down")

    monkeypatch.setattr(delivery, "compose_reply", failing)
    outcome = turn_submit_message(user=world.alice, conversation_id=conv.id, text=text)
    turn = Turn.objects.get(pk=outcome.turn.pk)
    assert turn.status == "running" and turn.lease_expires_at is None  # given up here: takeable now
    monkeypatch.undo()
    assert turn.id in recover()
    assert Turn.objects.get(pk=turn.pk).status == "completed"


def test_a_turn_this_process_still_carries_is_not_taken_by_its_own_sweep_though_its_renewals_lag(world):
    """Review of issue 20: with renewals held up (a busy database) the lease of a live turn may run out; the sweep
    of the same process must not take it — its thread will finish it, and the fence could not tell them apart."""
    turn = running_turn(world, lease_owner=lease.owner(), lease_expires_at=timezone.now() - timedelta(seconds=1))
    with lease.carried(turn.id):
        assert lease.take(turn.id) is False
        assert "recovered 0 turn(s)" in recover()
    assert Turn.objects.get(pk=turn.pk).status == "running"
    assert turn.id in recover()  # carried no more: taken


def test_one_turn_whose_recovery_fails_does_not_hold_up_the_others(world, monkeypatch):
    from conversations.turns import startup

    stuck = running_turn(world, lease_owner="gone:1:x", lease_expires_at=timezone.now() - timedelta(seconds=2))
    other_conv = Conversation.objects.create(owner=world.alice, mode="deterministic")
    fine = Turn.objects.create(conversation=other_conv, kind=Turn.Kind.MESSAGE, text="add a taxi of 12",
                               client_message_id="c2", mode=other_conv.mode, phase=Turn.Phase.UNDERSTANDING,
                               status=Turn.Status.RUNNING, lease_owner="gone:1:x",
                               lease_expires_at=timezone.now() - timedelta(seconds=1))
    real = startup.turn_recover

    def failing(turn):
        if turn.pk == stuck.pk:
            raise RuntimeError("cannot recover this one")
        return real(turn)

    monkeypatch.setattr(startup, "turn_recover", failing)
    assert startup.turns_recover_all() == [fine.id]
    assert Turn.objects.get(pk=fine.pk).status == "failed"
    held = Turn.objects.get(pk=stuck.pk)  # taken, and left to be tried again once that lease expires
    assert held.status == "running" and held.lease_owner == lease.owner() and held.lease_expires_at > timezone.now()


def test_the_threads_that_ask_first_at_once_get_one_name_for_the_process(monkeypatch):
    """Two names in one process: the turn written under the one that lost was refused its own next write (its
    lease "taken over"), stayed running, and its conversation's messages queued behind it (seen under load on
    PostgreSQL with 16 clients). The moment is widened here so that every thread asks before any has a name."""
    import threading
    import time as _time

    monkeypatch.setattr(lease, "_identity", None)
    real_uuid4 = lease.uuid.uuid4

    def slow_uuid4():
        _time.sleep(0.02)
        return real_uuid4()

    monkeypatch.setattr(lease.uuid, "uuid4", slow_uuid4)
    names: list[str] = []
    start = threading.Barrier(16)

    def ask() -> None:
        start.wait()
        names.append(lease.owner())

    threads = [threading.Thread(target=ask) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(names) == 16 and len(set(names)) == 1
    assert lease.owner() == names[0]
