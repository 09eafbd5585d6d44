"""Issue 12 (2): stop waiting for a slow model. A message turn whose model is still working ends before
anything is journaled or run when its user stops it; a turn already carrying out its plan is told to
finish, and finishes; nobody else can stop a user's turn."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from conversations.models import CommandJournalEntry, Conversation, Turn
from conversations.turns import messages, turn_stop, turn_submit_message
from tests.support import Ledger, act, plan, seed
from turnframe_web.errors import NotFound

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    cases = seed()
    users = get_user_model().objects
    alice = users.get(username="alice")
    conversation = Conversation.objects.create(owner=alice, mode="controlled_agentic",
                                               active_case_id=cases["berlin"].id)
    return alice, users.get(username="bob"), conversation


def stop_while_the_model_works(monkeypatch, user):
    """The user presses "stop waiting" while the model is answering (during the read-and-plan loop)."""
    real = messages.acquire_plan

    def slow_model(**kwargs):
        turn = Turn.objects.filter(status=Turn.Status.RUNNING).get()
        assert turn_stop(user=user, turn_id=turn.id)[1] is True
        return real(**kwargs)

    monkeypatch.setattr(messages, "acquire_plan", slow_model)


def test_a_turn_stopped_while_the_model_works_changes_nothing_and_says_so(world, script, monkeypatch):
    alice, _, conversation = world
    text = script("add a taxi of 20 to it", plan(act("a1", "add_line", "add a taxi of 20", amount="20",
                                                     category="taxi")))
    stop_while_the_model_works(monkeypatch, alice)
    before = Ledger.now()

    turn = turn_submit_message(user=alice, conversation_id=conversation.id, text=text).turn

    assert turn.status == "completed" and turn.trace.ending == "stopped" and turn.stop_requested_at
    assert [n.code for n in turn.notices] == ["stopped"]
    assert "nothing was changed" in turn.notices[0].text
    assert Ledger.now() == before and not CommandJournalEntry.objects.filter(turn=turn).exists()
    assert [b["kind"] for b in turn.reply["blocks"]] == ["notice", "ask"]


def test_a_turn_past_understanding_is_not_stopped_and_finishes(world, script):
    alice, _, conversation = world
    text = script("add a taxi of 21 to it", plan(act("a1", "add_line", "add a taxi of 21", amount="21",
                                                     category="taxi")))
    turn = turn_submit_message(user=alice, conversation_id=conversation.id, text=text).turn
    assert turn.status == "completed" and [a.outcome for a in turn.acts] == ["executed"]
    stopped_turn, stopped = turn_stop(user=alice, turn_id=turn.id)
    assert stopped is False and stopped_turn.stop_requested_at is None

    executing = conversation.turns.create(kind="message", text="busy", client_message_id="busy",
                                          mode=conversation.mode, phase=Turn.Phase.EXECUTING)
    assert turn_stop(user=alice, turn_id=executing.id)[1] is False  # its plan is being carried out


def test_only_the_owner_can_stop_a_turn(world):
    alice, bob, conversation = world
    running = conversation.turns.create(kind="message", text="thinking", client_message_id="t1",
                                        mode=conversation.mode, phase=Turn.Phase.UNDERSTANDING)
    with pytest.raises(NotFound):
        turn_stop(user=bob, turn_id=running.id)
    assert Turn.objects.get(pk=running.pk).stop_requested_at is None
    assert turn_stop(user=alice, turn_id=running.id)[1] is True


@pytest.mark.django_db(transaction=True)
def test_stop_over_http_needs_the_csrf_header_and_answers_in_words(world):
    from tests.test_api import PASSWORD, Browser

    alice, _, conversation = world
    alice.set_password(PASSWORD)
    alice.save()
    running = conversation.turns.create(kind="message", text="thinking", client_message_id="t1",
                                        mode=conversation.mode, phase=Turn.Phase.UNDERSTANDING)
    browser = Browser("alice")
    assert browser.post(f"/api/turns/{running.id}/stop", csrf=False).status_code == 403
    answer = browser.post(f"/api/turns/{running.id}/stop").json()
    assert answer["stopped"] is True and answer["message"] == "Stopping: nothing will be changed."
    assert answer["turn"]["stop_requested"] is True
    assert browser.post("/api/turns/trn_missing/stop").status_code == 404


def test_a_stop_that_lands_as_a_plan_is_rejected_ends_the_turn_stopped(db, monkeypatch, script):
    seed()
    alice = get_user_model().objects.get(username="alice")
    conversation = Conversation.objects.create(owner=alice, mode="deterministic")
    bad = plan(act("a1", "delete_everything", "add a taxi"))
    text = script("add a taxi", bad, bad)
    real = messages.turn_finish_without_plan
    answers = {}

    def stop_lands_now(run, code, detail, **kw):  # just after the exists() check
        answers["honoured"] = turn_stop(user=alice, turn_id=run.turn.id)[1]
        return real(run, code, detail, **kw)

    monkeypatch.setattr(messages, "turn_finish_without_plan", stop_lands_now)
    turn = turn_submit_message(user=alice, conversation_id=conversation.id, text=text).turn
    db = Turn.objects.get(pk=turn.pk)
    assert answers["honoured"] is True
    assert (turn.stop_requested_at is None) == (db.stop_requested_at is None), "returned instance is stale"
    assert db.trace.ending == "stopped", f"told 'stopped' but the turn ended {db.trace.ending!r}"




def test_a_stop_during_a_lookup_round_calls_the_model_no_more(world, script, monkeypatch):
    """Between read rounds the turn checks for a stop before the next model call (it is in the same statement
    that records the round): the model, which would go on to propose an edit, is not asked again."""
    from conversations.providers import scripted
    from tests.support import reads

    alice, _, conversation = world
    case = conversation.active_case_id
    text = script("look it up then add a taxi of 22", reads(("get_case", {"case": case})),
                  plan(act("a1", "add_line", "add a taxi of 22", amount="22", category="taxi")))
    calls = []
    real = scripted.ScriptedProvider.complete

    def model(self, request, *args, **kwargs):
        calls.append(request)
        if len(calls) == 1:  # the user stops while the first round's lookups run
            running = Turn.objects.filter(status=Turn.Status.RUNNING).get()
            assert turn_stop(user=alice, turn_id=running.id)[1] is True
        return real(self, request, *args, **kwargs)

    monkeypatch.setattr(scripted.ScriptedProvider, "complete", model)
    before = Ledger.now()

    turn = turn_submit_message(user=alice, conversation_id=conversation.id, text=text).turn

    assert len(calls) == 1 and len(turn.read_rounds.all()) == 1
    assert turn.trace.ending == "stopped" and Ledger.now() == before
