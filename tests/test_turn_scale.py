"""A turn costs the same for a user with ten cases or ten thousand (issue 11): the cases a turn loads are
bounded, the active one always among them; a case named by id beyond them is still reached."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from conversations.models import Case, Conversation
from conversations.turns import actor_of, offered_registry, turn_submit_message
from conversations.turns.context import load_cases
from tests.support import act, plan

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
    loaded = load_cases(actor_of(user), offered_registry("controlled_agentic"), active_case=cases[0].id)
    assert set(loaded) == {cases[0].id, *(c.id for c in cases[-3:])}


def test_a_case_beyond_the_bound_named_by_id_is_still_reached(many, script):
    user, cases = many
    conversation = Conversation.objects.create(owner=user, mode="controlled_agentic")
    text = script("add a taxi of 20 to claim 1", plan(act("a1", "add_line", "add a taxi of 20 to claim 1",
                                                          case={"id": cases[1].id}, amount="20", category="taxi")))
    turn = turn_submit_message(user=user, conversation_id=conversation.id, text=text).turn
    assert [(a.outcome, a.case) for a in turn.acts] == [("executed", cases[1].id)]
