"""A turn costs the same for a user with ten cases or ten thousand (issue 11): the cases a turn loads are
bounded, the active one always among them; a case named by id beyond them is still reached."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from conversations import store
from conversations.core.context import CaseSummary
from conversations.models import Case, Conversation, Turn, snapshot
from conversations.turns import actor_of, context, offered_registry, turn_submit_message
from conversations.turns.context import context_query, load_cases
from tests.support import act, plan, seed

pytestmark = pytest.mark.django_db


@pytest.fixture
def many(settings):
    settings.TURNFRAME = {**settings.TURNFRAME, "MAX_CONTEXT_CASES": 3}
    user = get_user_model().objects.create_user("many")
    cases = [Case.objects.create(id=f"clm_MANY{i:08d}", kind="expense_claim", owner=user, title=f"Claim {i}",
                                 status="draft", revision=1, state={"title": f"Claim {i}", "currency": "EUR",
                                                                    "lines": []}) for i in range(8)]
    return user, cases


def test_a_turn_loads_the_most_recent_open_cases_and_the_active_one(many):
    user, cases = many
    conversation = Conversation.objects.create(owner=user, mode="controlled_agentic", active_case=cases[0])
    turn = Turn.objects.create(conversation=conversation, client_message_id="m", text="hi")
    seen = store.context(context_query(turn, conversation.pk, actor_of(user)))
    loaded, more = load_cases(offered_registry("controlled_agentic"), seen.cases, active_case=cases[0].id)
    assert set(loaded) == {cases[0].id, *(c.id for c in cases[-3:])} and more


def test_a_case_beyond_the_bound_named_by_id_is_still_reached(many, script):
    user, cases = many
    conversation = Conversation.objects.create(owner=user, mode="controlled_agentic")
    text = script("add a taxi of 20 to claim 1", plan(act("a1", "add_line", "add a taxi of 20 to claim 1",
                                                          case={"id": cases[1].id}, amount="20", category="taxi")))
    turn = turn_submit_message(user=user, conversation_id=conversation.id, text=text).turn
    assert [(a.outcome, a.case) for a in turn.acts] == [("executed", cases[1].id)]


# A review found the bound turned an ambiguity into a guess by recency (I8): a name, or "the only open one",
# is resolved among all the user's open cases, never among the recent ones only.

def _claim(user, i, title):
    return Case.objects.create(id=f"clm_REV{i:09d}", kind="expense_claim", owner=user, title=title,
                               status="draft", revision=1,
                               state={"title": title, "currency": "EUR", "lines": []})


def test_a_name_two_cases_share_beyond_the_bound_asks_which_one(settings, script):
    settings.TURNFRAME = {**settings.TURNFRAME, "MAX_CONTEXT_CASES": 3}
    user = get_user_model().objects.create_user("many")
    old = _claim(user, 0, "Berlin trip")            # least recently changed: outside the bound
    new = [_claim(user, 1, "Berlin conference"), _claim(user, 2, "Rome"), _claim(user, 3, "Paris")]
    conversation = Conversation.objects.create(owner=user, mode="controlled_agentic")
    text = script("add a taxi of 20 to my Berlin claim",
                  plan(act("a1", "add_line", "add a taxi of 20", case={"match": "Berlin"}, amount="20",
                           category="taxi")))
    turn = turn_submit_message(user=user, conversation_id=conversation.id, text=text).turn
    # I8: two open claims match "Berlin": a selection card, no mutation
    assert [(a.outcome, a.case) for a in turn.acts] == [("awaiting_selection", None)], \
        f"guessed by recency: {[(a.outcome, a.case) for a in turn.acts]}; old={old.id} new={new[0].id}"


def test_no_reference_with_two_open_cases_of_a_kind_beyond_the_bound_asks(settings, script):
    settings.TURNFRAME = {**settings.TURNFRAME, "MAX_CONTEXT_CASES": 3}
    user = get_user_model().objects.create_user("many2")
    old = _claim(user, 10, "Old claim")
    newest = _claim(user, 11, "New claim")
    for i in range(2):  # two recently changed trips push the old claim out of the bound
        Case.objects.create(id=f"trp_REV{i:09d}", kind="trip", owner=user, title=f"Trip {i}", status="planned",
                            revision=1, state={"title": f"Trip {i}"})
    conversation = Conversation.objects.create(owner=user, mode="controlled_agentic")
    text = script("add a taxi of 20", plan(act("a1", "add_line", "add a taxi of 20", amount="20", category="taxi")))
    turn = turn_submit_message(user=user, conversation_id=conversation.id, text=text).turn
    assert [a.outcome for a in turn.acts] == ["awaiting_selection"], \
        f"{[(a.outcome, a.case, a.code) for a in turn.acts]} (old={old.id}, newest={newest.id})"



# and that a conversation loaded before an earlier turn ended must not hide what that turn left

def test_a_turn_reads_what_the_turn_before_it_left_once_it_holds_the_conversation(monkeypatch, script):
    cases = seed()
    alice = get_user_model().objects.get(username="alice")
    berlin, lisbon = cases["berlin"], cases["lisbon"]
    conversation = Conversation.objects.create(owner=alice, mode="controlled_agentic", active_case_id=berlin.id)
    real_begin = store._turn._begin

    def another_turn_finished_meanwhile(*args, **kw):
        # what a previous turn's delivery commits between this request being sent and its turn beginning:
        # the turn must read the conversation in the statement that admits it, not before
        Conversation.objects.filter(pk=conversation.pk).update(active_case_id=lisbon.id,
                                                               pending={"question": "Which amount?", "message": "x"})
        monkeypatch.setattr(store._turn, "_begin", real_begin)
        return real_begin(*args, **kw)

    monkeypatch.setattr(store._turn, "_begin", another_turn_finished_meanwhile)
    text = script("add a taxi of 20 to the Berlin trip",
                  plan(act("a1", "add_line", "add a taxi of 20", case={"id": berlin.id}, amount="20",
                           category="taxi")))
    turn = turn_submit_message(user=alice, conversation_id=conversation.id, text=text).turn
    db = Conversation.objects.get(pk=conversation.pk)
    assert turn.trace.end.active_case == berlin.id and turn.trace.end.pending is None
    # the record (and the reply / turn.completed) say Berlin is active and no question is open:
    assert (db.active_case_id, db.pending) == (berlin.id, None), (db.active_case_id, db.pending)




def test_a_case_is_projected_for_the_model_once_per_value(many):
    """What the model is shown of a case is kept by the case's value (issue 11): the same case costs one projection
    across turns, and any change to it, even one that did not move its revision, is projected anew."""
    user, cases = many
    registry = offered_registry("controlled_agentic")
    kind = registry.case_kinds["expense_claim"]
    first = context.case_summary(registry, snapshot(cases[0]))
    assert first == CaseSummary(id=cases[0].id, kind="expense_claim", title="Claim 0", status="draft", revision=1,
                                summary=kind.summarize(snapshot(cases[0])), view=kind.project(snapshot(cases[0])))
    assert context.case_summary(registry, snapshot(cases[0])) is first  # kept, not projected again
    cases[0].state = {**cases[0].state, "currency": "USD"}
    changed = context.case_summary(registry, snapshot(cases[0]))  # same id, same revision, another state
    assert changed is not first and changed.view == kind.project(snapshot(cases[0])) != first.view


def test_a_click_reads_what_the_turn_before_it_left_once_it_holds_the_conversation(monkeypatch, script):
    """A click begins from the conversation as read with its card; another turn may end between that read and the
    click's claim (here: making Lisbon active). What the click's reply says is active is what the database has."""
    from conversations.turns import clicks, interaction_respond

    cases = seed()
    alice = get_user_model().objects.get(username="alice")
    berlin, lisbon = cases["berlin"], cases["lisbon"]
    conversation = Conversation.objects.create(owner=alice, mode="controlled_agentic", active_case_id=berlin.id)
    text = script("submit the Berlin trip", plan(act("a1", "submit_claim", "submit the Berlin trip",
                                                     case={"id": berlin.id})))
    card = turn_submit_message(user=alice, conversation_id=conversation.id, text=text).turn.interactions.get()
    real_claim = clicks.card_claim

    def another_turn_finished_meanwhile(*args, **kw):
        Conversation.objects.filter(pk=conversation.pk).update(active_case_id=lisbon.id)
        return real_claim(*args, **kw)

    monkeypatch.setattr(clicks, "card_claim", another_turn_finished_meanwhile)
    _, click = interaction_respond(user=alice, interaction_id=card.id, option="confirm")

    assert click.trace.end.active_case == berlin.id  # the click touched Berlin: it is active again
    assert Conversation.objects.get(pk=conversation.pk).active_case_id == berlin.id
