"""What a socket is told is what the database holds (issue 11): the runtime builds its events from the rows
it already has in hand instead of reading them back, so every event is checked here against the
database at the moment it is published — ``turn.completed``, ``turn.failed``, ``interaction.pending`` and
``interaction.resolved`` — through confirm, decline, selection, staleness, a lost race and a failure; and the
turn and card the runtime hands back to the HTTP and socket surfaces likewise."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from conversations import stream
from conversations.models import Conversation, Interaction, Turn
from conversations.selectors import interaction_json, turn_json
from conversations.turns import execution, interaction_respond, turn_submit_message
from tests.support import act, plan, seed
from tests.test_chaos import MIXED, _mixed_plan
from tests.test_scenarios import commit_elsewhere
from turnframe_web.errors import Conflict


@pytest.fixture
def world(db):
    cases = seed()
    return type("World", (), {"alice": get_user_model().objects.get(username="alice"), **cases})


@pytest.fixture
def published(monkeypatch) -> list[tuple[str, dict, dict]]:
    """Each event as sent, beside the same object as the database has it right then."""
    seen: list[tuple[str, dict, dict]] = []

    def record(conversation_id: str, events: list[tuple[str, dict]]) -> None:
        for kind, payload in events:
            if kind in ("turn.completed", "turn.failed"):
                seen.append((kind, payload["turn"], turn_json(Turn.objects.get(pk=payload["turn"]["id"]))))
            elif kind.startswith("interaction."):
                card = Interaction.objects.get(pk=payload["interaction"]["id"])
                seen.append((kind, payload["interaction"], interaction_json(card)))

    monkeypatch.setattr(stream, "publish_many", record)
    return seen


def assert_true_to_the_database(published) -> None:
    assert published
    for kind, sent, stored in published:
        assert sent == stored, kind


def say(world, conv, text):
    turn = turn_submit_message(user=world.alice, conversation_id=conv.id, text=text).turn
    assert turn_json(turn) == turn_json(Turn.objects.get(pk=turn.pk))  # what the HTTP answer is built from
    return turn


def click(world, card: str, option: str):
    interaction, turn = interaction_respond(user=world.alice, interaction_id=card, option=option)
    assert interaction_json(interaction) == interaction_json(Interaction.objects.get(pk=card))
    assert turn_json(turn) == turn_json(Turn.objects.get(pk=turn.pk))
    return interaction, turn


def open_conversation(world) -> Conversation:
    return Conversation.objects.create(owner=world.alice, mode="controlled_agentic", active_case=world.berlin)


@pytest.mark.parametrize("option", ["confirm", "decline"])
def test_a_direct_edit_and_a_card_then_its_answer(world, script, published, option):
    conv = open_conversation(world)
    turn = say(world, conv, script(MIXED, _mixed_plan(world)))
    click(world, turn.trace.interaction_ids[0], option)

    kinds = [kind for kind, _, _ in published]
    assert kinds == ["interaction.pending", "turn.completed", "interaction.resolved", "turn.completed"]
    assert_true_to_the_database(published)


def test_a_card_made_stale_by_another_change_then_clicked(world, script, published):
    conv = open_conversation(world)
    text = script("remove the third line", plan(act("a1", "remove_line", "remove the third line",
                                                    case={"id": world.berlin.id}, line=3)))
    card = say(world, conv, text).trace.interaction_ids[0]
    commit_elsewhere(world.berlin, "update_line", {"line": 1, "amount": "95.00"}, tag="elsewhere")
    with pytest.raises(Conflict):
        interaction_respond(user=world.alice, interaction_id=card, option="confirm")
    edit = script("change the first line to 96", plan(act("a1", "update_line", "change the first line to 96",
                                                          case={"id": world.berlin.id}, line=1, amount="96")))
    say(world, conv, edit)

    assert ("interaction.resolved", "stale") in [(kind, sent["status"]) for kind, sent, _ in published]
    assert_true_to_the_database(published)


def test_a_card_whose_direct_edit_lost_a_race_is_withdrawn(world, script, published, monkeypatch):
    conv = open_conversation(world)
    text = script("change the second line to 120 and submit the claim", plan(
        act("a1", "update_line", "change the second line to 120", case={"id": world.berlin.id}, line=2,
            amount="120"),
        act("a2", "submit_claim", "submit the claim", case={"id": world.berlin.id})))
    real_execute = execution.command_execute

    def someone_else_commits_first(**kwargs):
        commit_elsewhere(world.berlin, "update_line", {"line": 1, "amount": "95.00"}, tag="race")
        return real_execute(**kwargs)

    monkeypatch.setattr(execution, "command_execute", someone_else_commits_first)
    say(world, conv, text)

    assert [sent["status"] for kind, sent, _ in published if kind == "interaction.resolved"] == ["stale"]
    assert_true_to_the_database(published)


def test_a_selection_then_the_card_it_leads_to(world, script, published):
    conv = Conversation.objects.create(owner=world.alice, mode="controlled_agentic")
    text = script("submit my claim", plan(act("a1", "submit_claim", "submit my claim")))
    selection = say(world, conv, text).trace.interaction_ids[0]
    _, chosen = click(world, selection, Interaction.objects.get(pk=selection).options[0]["id"])
    click(world, chosen.trace.interaction_ids[0], "confirm")

    assert [kind for kind, _, _ in published].count("interaction.resolved") == 2
    assert_true_to_the_database(published)


def test_a_turn_whose_model_fails(world, script, published):
    conv = open_conversation(world)
    say(world, conv, script("change the first line to 95", {"fail": "unavailable"}, {"fail": "unavailable"}))

    assert [kind for kind, _, _ in published] == ["turn.failed"]
    assert_true_to_the_database(published)
