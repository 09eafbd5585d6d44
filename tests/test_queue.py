"""Double texting (issue 9 §5): a message sent while a turn of its conversation runs is kept in the database,
in arrival order, and runs as its own turn when the one ahead is done; the queue is bounded; a repeated
client id stays idempotent. Nothing a person sends is lost or refused while there is room."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from conversations.models import CommandJournalEntry, Conversation, Turn
from conversations.turns import turn_submit_message, turns_run_queued
from tests.support import Api, Ledger, busy, edit, seed
from turnframe_web.errors import AppError

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    cases = seed()
    alice = get_user_model().objects.get(username="alice")
    conversation = Conversation.objects.create(owner=alice, mode="deterministic", active_case_id=cases["berlin"].id)
    return alice, conversation, cases["berlin"]


def test_messages_sent_while_a_turn_runs_wait_and_then_run_in_arrival_order(world, script):
    alice, conversation, berlin = world
    ahead = busy(conversation)
    before = Ledger.now()

    sent = [turn_submit_message(user=alice, conversation_id=conversation.id, text=edit(script, n)).turn for n in range(3)]

    assert [t.status for t in sent] == ["queued"] * 3 and Ledger.now() == before
    Turn.objects.filter(pk=ahead.pk).update(status="completed")
    ran = turns_run_queued(conversation)

    assert ran == [t.id for t in sent]  # each its own turn, oldest first
    assert [Turn.objects.get(pk=t.id).status for t in sent] == ["completed"] * 3
    berlin.refresh_from_db()
    assert berlin.state["lines"][0]["amount"] == "102.00"  # the last one sent is the last one applied


def test_a_message_behind_queued_ones_queues_even_when_nothing_runs(world, script):
    alice, conversation, _ = world
    ahead = busy(conversation)
    first = turn_submit_message(user=alice, conversation_id=conversation.id, text=edit(script, 1)).turn
    Turn.objects.filter(pk=ahead.pk).update(status="completed")  # the turn ahead ended; its drain has not run yet

    second = turn_submit_message(user=alice, conversation_id=conversation.id, text=edit(script, 2)).turn

    first.refresh_from_db()
    assert first.status == "completed" and second.status == "completed"
    assert first.created_at <= second.created_at
    assert Turn.objects.get(pk=first.id).updated_at <= Turn.objects.get(pk=second.id).updated_at


def test_the_queue_is_bounded_with_a_clear_error(world, script, settings):
    alice, conversation, _ = world
    settings.TURNFRAME = {**settings.TURNFRAME, "MAX_QUEUED_MESSAGES": 2}
    busy(conversation)
    for n in range(2):
        turn_submit_message(user=alice, conversation_id=conversation.id, text=edit(script, n))

    with pytest.raises(AppError) as full:
        turn_submit_message(user=alice, conversation_id=conversation.id, text=edit(script, 3))

    assert full.value.code == "queue_full" and full.value.status == 429
    assert conversation.turns.filter(status="queued").count() == 2


def test_a_repeated_client_id_of_a_queued_message_is_the_same_turn(world, script):
    alice, conversation, _ = world
    busy(conversation)
    text = edit(script, 1)
    first = turn_submit_message(user=alice, conversation_id=conversation.id, text=text, client_message_id="m-1")

    again = turn_submit_message(user=alice, conversation_id=conversation.id, text=text, client_message_id="m-1")

    assert again.replayed and again.turn.id == first.turn.id
    assert conversation.turns.filter(status="queued").count() == 1


def test_a_queued_message_sent_again_is_its_turn_even_when_the_queue_is_full(world, script, settings):
    alice, conversation, _ = world
    settings.TURNFRAME = {**settings.TURNFRAME, "MAX_QUEUED_MESSAGES": 2}
    busy(conversation)
    first = turn_submit_message(user=alice, conversation_id=conversation.id, text=edit(script, 1),
                                client_message_id="m-1")
    turn_submit_message(user=alice, conversation_id=conversation.id, text=edit(script, 2))

    again = turn_submit_message(user=alice, conversation_id=conversation.id, text=edit(script, 1),
                                client_message_id="m-1")

    assert again.replayed and again.turn.id == first.turn.id


def test_over_http_a_queued_message_is_202_with_its_turn(world, script):
    alice, conversation, _ = world
    busy(conversation)
    api = Api("alice")

    status, body = api.post(f"/api/conversations/{conversation.id}/messages", {"text": edit(script, 1)})

    assert status == 202 and body["status"] == "queued" and body["acts"] == []


@pytest.mark.django_db(transaction=True)
def test_the_bound_holds_when_many_messages_arrive_at_once(world, script, settings):
    """Issue 20 (3): counted then inserted, 30 messages at once behind a running turn got 22-26 places of 20.
    The bound is part of the insert: exactly the bound is admitted, every other message is told queue_full."""
    import threading

    from django.db import connection

    alice, conversation, _ = world
    settings.TURNFRAME = {**settings.TURNFRAME, "MAX_QUEUED_MESSAGES": 20}
    busy(conversation)
    texts = [edit(script, n) for n in range(30)]
    start, outcomes = threading.Barrier(len(texts)), []

    def send(text: str) -> None:
        try:
            start.wait()
            outcomes.append(turn_submit_message(user=alice, conversation_id=conversation.id, text=text).turn.status)
        except AppError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(text,)) for text in texts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["queue_full"] * 10 + ["queued"] * 20
    assert conversation.turns.filter(status="queued").count() == 20


def test_a_turn_record_says_when_it_last_changed(world, script):
    """Issue 20 (11): the prepared updates set ``updated_at`` as save() does (it stayed the insert time)."""
    alice, conversation, _ = world
    turn = turn_submit_message(user=alice, conversation_id=conversation.id, text=edit(script, 1)).turn
    stored = Turn.objects.get(pk=turn.pk)
    assert stored.status == "completed" and stored.updated_at > stored.created_at
    entry = CommandJournalEntry.objects.get(turn=stored)
    assert entry.status == "committed" and entry.updated_at > entry.created_at
