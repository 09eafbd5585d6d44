"""A confirmation of an act that opens a case (issue 21: a latent crash). "Could you open a claim for Rome?" is a
request the plan also answers as a question, so opening waits for a yes/no card; the case does not exist until
that command commits, so the card is drawn on no case. It used to pass the plan's ``NewCase`` to the database
as a case id: the turn failed ("interrupted") and nothing could be confirmed."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from conversations.models import Case, CommandJournalEntry, Conversation, Interaction
from conversations.turns import interaction_respond, turn_submit_message
from tests.support import act, plan, seed

pytestmark = pytest.mark.django_db

ASKED = "could you open a claim for Rome in EUR?"


@pytest.fixture
def asked(script):
    seed()
    alice = get_user_model().objects.get(username="alice")
    conversation = Conversation.objects.create(owner=alice, mode="controlled_agentic")
    text = script(ASKED, plan(act("a1", "open_claim", "open a claim for Rome in EUR", title="Rome", currency="EUR"),
                              answers=[{"question": ASKED, "text": "Yes, I can."}]))
    turn = turn_submit_message(user=alice, conversation_id=conversation.id, text=text).turn
    return alice, conversation, turn


def test_opening_a_case_behind_a_card_draws_the_card_on_no_case(asked):
    alice, conversation, turn = asked
    assert turn.status == "completed" and [(a.act, a.outcome) for a in turn.acts] == [
        ("open_claim", "awaiting_confirmation")]
    (card,) = Interaction.objects.filter(conversation=conversation)
    assert card.status == "pending" and card.case_id is None and "Rome" in card.prompt
    assert not Case.objects.filter(owner=alice, title="Rome").exists()  # nothing opened before the click


def test_confirming_it_opens_the_case_and_declining_opens_nothing(asked, script):
    alice, conversation, turn = asked
    (card,) = Interaction.objects.filter(conversation=conversation)
    answered, click = interaction_respond(user=alice, interaction_id=card.id, option="confirm")
    assert answered.status == "resolved" and click.status == "completed"
    (row,) = CommandJournalEntry.objects.filter(interaction=card)
    opened = Case.objects.get(owner=alice, title="Rome")
    assert row.status == "committed" and row.case_id == opened.id and row.origin_kind == "confirmed_interaction"
    assert Conversation.objects.get(pk=conversation.pk).active_case_id == opened.id

    again = Conversation.objects.create(owner=alice, mode="controlled_agentic")
    turn_submit_message(user=alice, conversation_id=again.id, text=ASKED)
    (other,) = Interaction.objects.filter(conversation=again)
    answered, _ = interaction_respond(user=alice, interaction_id=other.id, option="decline")
    assert answered.status == "declined" and Case.objects.filter(owner=alice, title="Rome").count() == 1
