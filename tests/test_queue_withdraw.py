"""Issue 20 (7, and 5's queued part): stopping a message that waits in the queue withdraws it, and deleting a
conversation withdraws its queued messages: a withdrawn message never runs. A stop racing the promotion of
the queued message is all-or-nothing: either it was withdrawn and never ran, or it had started and the rules
of stopping a running turn applied (stopped before anything changed, or told it will finish, and finished)."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connections

from conversations.models import CommandJournalEntry, Conversation, Turn
from conversations.services import conversation_hide
from conversations.turns import turn_stop, turn_submit_message, turns_run_queued
from conversations.turns.messages import turn_queue
from tests.support import Api, Ledger, act, busy, edit, plan, seed

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    cases = seed()
    alice = get_user_model().objects.get(username="alice")
    conversation = Conversation.objects.create(owner=alice, mode="deterministic", active_case_id=cases["berlin"].id)
    return alice, conversation, cases["berlin"]


def done(turn: Turn) -> None:
    Turn.objects.filter(pk=turn.pk).update(status="completed")


def test_stopping_a_queued_message_withdraws_it_and_it_never_runs(world, script):
    alice, conversation, berlin = world
    ahead = busy(conversation)
    queued = turn_submit_message(user=alice, conversation_id=conversation.id, text=edit(script, 1)).turn
    before = Ledger.now()

    turn, stopped = turn_stop(user=alice, turn_id=queued.id)

    assert stopped is True and turn.status == "completed" and turn.trace.ending == "withdrawn"
    assert turn.stop_requested_at is not None and [n.code for n in turn.notices] == ["withdrawn"]
    assert [b["kind"] for b in turn.reply["blocks"]] == ["notice"]
    done(ahead)
    assert turns_run_queued(conversation) == []  # the turn ahead ended: nothing of the queue is left to run
    turn.refresh_from_db()
    assert turn.status == "completed" and turn.trace.ending == "withdrawn" and not turn.read_rounds.exists()
    assert Ledger.now() == before and not CommandJournalEntry.objects.filter(turn=turn).exists()
    assert turn_stop(user=alice, turn_id=turn.id)[1] is True  # asked again: the same truthful answer


def test_the_messages_around_a_withdrawn_one_still_run_in_order(world, script):
    alice, conversation, berlin = world
    ahead = busy(conversation)
    sent = [turn_submit_message(user=alice, conversation_id=conversation.id, text=edit(script, n)).turn
            for n in range(3)]

    assert turn_stop(user=alice, turn_id=sent[2].id)[1] is True
    done(ahead)

    assert turns_run_queued(conversation) == [sent[0].id, sent[1].id]
    berlin.refresh_from_db()
    assert berlin.state["lines"][0]["amount"] == "101.00"  # the last one sent was withdrawn: never applied


def test_over_http_stopping_a_queued_message_answers_withdrawn_and_shows_it(world, script):
    alice, conversation, _ = world
    busy(conversation)
    api = Api("alice")
    status, queued = api.post(f"/api/conversations/{conversation.id}/messages", {"text": edit(script, 1)})
    assert status == 202 and queued["status"] == "queued" and queued["withdrawn"] is False

    assert api.post(f"/api/turns/{queued['id']}/stop", csrf=False)[0] == 403
    status, answer = api.post(f"/api/turns/{queued['id']}/stop")

    assert status == 200 and answer["stopped"] is True and answer["withdrawn"] is True
    assert answer["message"] == "Withdrawn: this message will not run, and nothing was changed."
    turn = answer["turn"]
    assert turn["status"] == "completed" and turn["withdrawn"] is True and turn["stop_requested"] is True
    assert [n["code"] for n in turn["notices"]] == ["withdrawn"] and turn["acts"] == []
    _, shown = api.get(f"/api/conversations/{conversation.id}")
    assert [t["withdrawn"] for t in shown["turns"]] == [False, True]


def test_a_running_turn_is_not_withdrawn_by_a_stop(world, script):
    alice, conversation, _ = world
    running = busy(conversation)
    Turn.objects.filter(pk=running.pk).update(phase=Turn.Phase.EXECUTING)

    turn, stopped = turn_stop(user=alice, turn_id=running.id)

    assert stopped is False and turn.status == "running" and turn.trace.ending is None


def test_only_the_owner_can_withdraw_a_queued_message(world, script):
    alice, conversation, _ = world
    busy(conversation)
    queued = turn_submit_message(user=alice, conversation_id=conversation.id, text=edit(script, 1)).turn
    bob = get_user_model().objects.get(username="bob")

    from turnframe_web.errors import NotFound

    with pytest.raises(NotFound):
        turn_stop(user=bob, turn_id=queued.id)
    assert Turn.objects.get(pk=queued.pk).status == "queued"


def test_deleting_a_conversation_withdraws_its_queued_messages(world, script):
    alice, conversation, _ = world
    ahead = busy(conversation)
    sent = [turn_submit_message(user=alice, conversation_id=conversation.id, text=edit(script, n)).turn
            for n in range(2)]
    before = Ledger.now()

    conversation_hide(user=alice, conversation_id=conversation.id)

    rows = list(Turn.objects.filter(pk__in=[t.id for t in sent]))
    assert {(t.status, t.trace.ending) for t in rows} == {("completed", "withdrawn")}
    assert all("its conversation was deleted" in t.notices[0].text for t in rows)
    done(ahead)  # the turn that was running when it was deleted ends, and runs what is left of the queue
    assert turns_run_queued(conversation) == []
    assert Ledger.now() == before


def test_a_message_that_joins_the_queue_as_its_conversation_is_deleted_never_runs(world, script):
    """The message passed the conversation's check, then the deletion committed, then its insert: the queue
    still holds it, but its promotion requires the conversation not deleted, so it is withdrawn instead."""
    alice, conversation, _ = world
    conversation_hide(user=alice, conversation_id=conversation.id)
    late = turn_queue(conversation, text=edit(script, 1), client_message_id="late")
    before = Ledger.now()

    assert turns_run_queued(conversation) == []

    late.refresh_from_db()
    assert late.status == "completed" and late.trace.ending == "withdrawn" and Ledger.now() == before


def test_a_stop_that_read_the_message_queued_after_it_started_does_not_withdraw_it(world, script, monkeypatch):
    """The stop read the message as queued; before its withdrawal the message was promoted and ran. The
    withdrawal's update requires the message still queued, so it withdraws nothing and the stop answers as
    for the turn as it is: finished, not stopped."""
    from conversations.turns import messages

    alice, conversation, berlin = world
    text = "add a taxi of 23"
    script(text, plan(act("a1", "add_line", text, amount="23", category="taxi")))
    queued = turn_queue(conversation, text=text, client_message_id="late-stop")
    real = messages.queued_withdraw

    def promoted_first(**kwargs):
        assert turns_run_queued(Conversation.objects.get(pk=conversation.pk)) == [queued.id]
        return real(**kwargs)

    monkeypatch.setattr(messages, "queued_withdraw", promoted_first)
    turn, stopped = turn_stop(user=alice, turn_id=queued.id)

    assert stopped is False and turn.status == "completed" and turn.trace.ending is None
    assert [a.outcome for a in turn.acts] == ["executed"]
    assert CommandJournalEntry.objects.filter(turn=turn, status="committed").count() == 1


# --------------------------------------------------------------------------- the race, on SQLite and PostgreSQL


def _together(*work):
    barrier = threading.Barrier(len(work))
    results: list = [None] * len(work)

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = work[i]()
        except Exception as exc:  # asserted on below
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(work))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


@pytest.mark.django_db(transaction=True)
def test_a_stop_racing_the_promotion_of_a_queued_message_is_all_or_nothing(world, script):
    alice, conversation, berlin = world
    seen = {"withdrawn": 0, "stopped": 0, "finished": 0}
    for n in range(24):
        text = f"add a taxi of {10 + n}"
        script(text, plan(act("a1", "add_line", text, amount=str(10 + n), category="taxi")))
        queued = turn_queue(conversation, text=text, client_message_id=f"race-{n}")
        before = Ledger.now()

        stop, ran = _together(lambda queued=queued: turn_stop(user=alice, turn_id=queued.id),
                              lambda: turns_run_queued(Conversation.objects.get(pk=conversation.pk)))

        assert not isinstance(stop, Exception) and not isinstance(ran, Exception), (stop, ran)
        turn = Turn.objects.get(pk=queued.pk)
        committed = CommandJournalEntry.objects.filter(turn=turn, status="committed").count()
        if turn.trace.ending == "withdrawn":  # withdrawn: it never ran
            seen["withdrawn"] += 1
            assert stop[1] is True and ran == [] and not turn.read_rounds.exists()
            assert committed == 0 and Ledger.now() == before
        elif stop[1]:  # it had started: stopped before anything changed
            seen["stopped"] += 1
            assert ran == [turn.id] and turn.trace.ending == "stopped" and committed == 0
            assert Ledger.now() == before
        else:  # it had started and was past stopping: it finished, as the stop's answer said
            seen["finished"] += 1
            assert ran == [turn.id] and turn.trace.ending is None and committed == 1
        assert turn.status == "completed"
        assert not Turn.objects.filter(conversation=conversation, status__in=["queued", "running"]).exists()
    assert seen["withdrawn"] + seen["stopped"] + seen["finished"] == 24, seen


# --------------------------------------------------------------------------- the socket


@pytest.mark.django_db(transaction=True)
async def test_a_withdrawn_message_is_published_to_the_conversations_sockets(world, script):
    from channels.db import database_sync_to_async

    from tests.test_consumers import _session_cookie, close, events_until, socket

    alice, conversation, _ = world
    await database_sync_to_async(busy)(conversation)
    watcher, connected = await socket(conversation.id, cookie=await database_sync_to_async(_session_cookie)(alice))
    assert connected
    await watcher.send_json_to({"type": "message", "text": edit(script, 1), "client_message_id": "w-1"})
    queued = (await events_until(watcher, "turn.queued"))[-1]

    await database_sync_to_async(turn_stop)(user=alice, turn_id=queued["turn"])

    event = (await events_until(watcher, "turn.completed"))[-1]
    assert event["turn"]["id"] == queued["turn"] and event["turn"]["withdrawn"] is True
    assert event["turn"]["status"] == "completed" and event["seq"] > queued["seq"]
    await close(watcher)


def test_the_model_is_shown_neither_a_withdrawn_message_nor_one_still_waiting_behind(world, script, monkeypatch):
    """A withdrawn message was never read: later turns do not show it to the model as something said earlier; and
    a turn does not see the messages queued after it (they come later)."""
    from conversations.providers.scripted import ScriptedProvider

    alice, conversation, _ = world
    ahead = busy(conversation)
    sent = [turn_submit_message(user=alice, conversation_id=conversation.id, text=edit(script, n)).turn
            for n in range(3)]
    assert turn_stop(user=alice, turn_id=sent[1].id)[1] is True
    shown: dict[str, list[str]] = {}
    real = ScriptedProvider.complete

    def complete(self, request):
        shown[request.message] = [part["text"] for part in request.excerpt]
        return real(self, request)

    monkeypatch.setattr(ScriptedProvider, "complete", complete)
    done(ahead)
    assert turns_run_queued(conversation) == [sent[0].id, sent[2].id]
    assert sent[2].text not in shown[sent[0].text] and sent[1].text not in shown[sent[0].text]
    assert sent[1].text not in shown[sent[2].text] and sent[0].text in shown[sent[2].text]
