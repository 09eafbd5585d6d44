"""The conversation, not just the message (issue 8 §2): pending questions as server state, earlier
evidence, server-derived undo, and the domain's policy advice. Driven by the scripted provider, so
each test says exactly what the model proposed and asserts on what the server did with it."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from pytest_httpserver import HTTPServer

from conversations.models import Case, CommandJournalEntry, Conversation, DomainEvent, Interaction
from conversations.turns import interaction_respond, turn_submit_message
from tests.support import Ledger, act, plan, seed

from .test_provider_adapters import OPENAI_PATH, chat_completion

pytestmark = pytest.mark.django_db

QUESTION = {"question": "How much was the taxi?", "act": "add_line", "args": {"category": "taxi"},
            "missing": ["amount"]}


@pytest.fixture
def world(db):
    cases = seed()
    alice = get_user_model().objects.get(username="alice")
    conversation = Conversation.objects.create(owner=alice, mode="controlled_agentic",
                                               active_case_id=cases["berlin"].id)
    return alice, conversation, cases["berlin"]


def say(world, text: str):
    alice, conversation, _ = world
    return turn_submit_message(user=alice, conversation_id=conversation.id, text=text).turn


def lines_of(case: Case) -> list[dict]:
    return Case.objects.get(pk=case.pk).state["lines"]


def notice_codes(turn) -> list[str]:
    return [n.code for n in turn.notices]


def asking(text: str) -> dict:
    answer = plan(say="How much was the taxi?")
    answer["plan"]["pending"] = QUESTION
    return answer


# --------------------------------------------------------------------------- pending questions


def test_a_pending_question_is_kept_with_the_users_message_until_the_next_turn(world, script):
    _, conversation, _ = world
    script("add a taxi from the station", asking("add a taxi from the station"))
    script("what is the total", plan(answers=[{"text": "The total is on the claim."}]))

    say(world, "add a taxi from the station")
    conversation.refresh_from_db()
    assert conversation.pending["question"] == "How much was the taxi?"
    assert conversation.pending["message"] == "add a taxi from the station"  # the user's words, kept by the server

    say(world, "what is the total")  # a turn that asks nothing: the question expires
    conversation.refresh_from_db()
    assert conversation.pending is None


def test_the_pending_question_reaches_a_real_model_in_its_request(world, httpserver: HTTPServer, settings,
                                                                  monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", httpserver.url_for("/v1"))
    monkeypatch.setenv("OPENAI_API_KEY", "")
    settings.TURNFRAME = {**settings.TURNFRAME, "PROVIDER": "openai", "FALLBACK_PROVIDER": None}
    httpserver.expect_ordered_request(OPENAI_PATH).respond_with_json(
        chat_completion(json.dumps(asking("add a taxi from the station"))))
    httpserver.expect_ordered_request(OPENAI_PATH).respond_with_json(
        chat_completion(json.dumps(plan(say="Noted."))))

    say(world, "add a taxi from the station")
    say(world, "45")

    second = json.dumps(json.loads(httpserver.log[1][0].get_data())["messages"])
    assert "How much was the taxi?" in second and "add a taxi from the station" in second


# --------------------------------------------------------------------------- earlier evidence


def test_an_answer_completes_the_request_with_values_quoted_from_the_earlier_message(world, script):
    _, _, berlin = world
    script("add 45 for the thing at the station", asking("add 45 for the thing at the station"))
    completed = act("a1", "add_line", "taxi", amount="45", category="taxi")
    completed["earlier_evidence"] = "add 45 for the thing at the station"
    script("taxi", plan(completed))

    say(world, "add 45 for the thing at the station")
    turn = say(world, "taxi")

    assert [(a.act, a.outcome) for a in turn.acts] == [("add_line", "executed")]
    assert lines_of(berlin)[-1]["amount"] == "45.00" and lines_of(berlin)[-1]["category"] == "taxi"


def test_earlier_evidence_without_a_pending_question_is_refused(world, script):
    completed = act("a1", "add_line", "taxi", amount="45", category="taxi")
    completed["earlier_evidence"] = "add 45 for the thing at the station"
    script("taxi", plan(completed))
    before = Ledger.now()

    turn = say(world, "taxi")

    assert turn.acts[0].outcome == "refused" and turn.acts[0].code == "evidence_not_found"
    assert Ledger.now() == before


def test_earlier_evidence_that_the_user_did_not_write_is_refused(world, script):
    script("add a taxi from the station", asking("add a taxi from the station"))
    forged = act("a1", "add_line", "taxi", amount="450", category="taxi")
    forged["earlier_evidence"] = "add 450 for the taxi"  # not what the user wrote before
    script("taxi", plan(forged))

    say(world, "add a taxi from the station")
    before = Ledger.now()
    turn = say(world, "taxi")

    assert turn.acts[0].outcome == "refused" and turn.acts[0].code == "evidence_not_found"
    assert Ledger.now() == before


def test_an_amount_neither_message_quotes_is_refused(world, script):
    script("add a taxi from the station", asking("add a taxi from the station"))
    invented = act("a1", "add_line", "taxi", amount="99", category="taxi")
    invented["earlier_evidence"] = "add a taxi from the station"
    script("taxi", plan(invented))

    say(world, "add a taxi from the station")
    before = Ledger.now()
    turn = say(world, "taxi")

    assert turn.acts[0].code == "argument_not_in_evidence" and Ledger.now() == before


# --------------------------------------------------------------------------- undo


def undo(text: str) -> dict:
    answer = plan()
    answer["plan"]["undo"] = {"evidence": text}
    return answer


def test_undoing_a_changed_line_restores_it_directly_through_the_command_bus(world, script):
    _, _, berlin = world
    old = lines_of(berlin)[1]["amount"]
    script("make line 2 120", plan(act("a1", "update_line", "make line 2 120", line=2, amount="120")))
    script("undo that", undo("undo that"))

    say(world, "make line 2 120")
    assert lines_of(berlin)[1]["amount"] == "120.00"
    turn = say(world, "undo that")

    assert [(a.act, a.outcome) for a in turn.acts] == [("update_line", "executed")]
    assert lines_of(berlin)[1]["amount"] == old
    (undone,) = [n for n in turn.notices if n.code == "undone"]
    assert undone.text.startswith("Undone as you asked (“undo that”): I reversed your last change. Change line 2")
    row = CommandJournalEntry.objects.get(turn=turn)
    assert row.origin_kind == "direct_user_act" and row.status == "committed"


def test_a_second_undo_does_not_redo_it_says_so(world, script):
    """Issue 20 (11): "undo that" twice undid the undo (a redo nobody asked for by that name)."""
    _, _, berlin = world
    old = lines_of(berlin)[1]["amount"]
    script("make line 2 120", plan(act("a1", "update_line", "make line 2 120", line=2, amount="120")))
    script("undo that", undo("undo that"))
    say(world, "make line 2 120")
    say(world, "undo that")
    assert lines_of(berlin)[1]["amount"] == old
    before = Ledger.now()

    turn = say(world, "undo that")

    assert notice_codes(turn) == ["undo_of_undo"] and Ledger.now() == before
    assert lines_of(berlin)[1]["amount"] == old
    assert "already an undo" in next(n.text for n in turn.notices if n.code == "undo_of_undo")


def test_undoing_an_added_line_asks_on_a_card_because_removing_is_consequential(world, script):
    _, _, berlin = world
    script("add a taxi of 20", plan(act("a1", "add_line", "add a taxi of 20", amount="20", category="taxi")))
    script("undo that", undo("undo that"))

    say(world, "add a taxi of 20")
    count = len(lines_of(berlin))
    turn = say(world, "undo that")

    assert [(a.act, a.outcome) for a in turn.acts] == [("remove_line", "awaiting_confirmation")]
    card = Interaction.objects.get(turn=turn)
    (undone,) = [n for n in turn.notices if n.code == "undone"]
    assert undone.text.startswith("To undo your last change as you asked (“undo that”), confirm the card: remove")
    assert len(lines_of(berlin)) == count  # nothing removed before the click
    interaction_respond(user=world[0], interaction_id=card.id, option="confirm")
    assert len(lines_of(berlin)) == count - 1 and all(line["amount"] != "20.00" or line["category"] != "taxi"
                                                      for line in lines_of(berlin))


def test_undo_with_nothing_done_in_the_conversation_changes_nothing(world, script):
    script("undo that", undo("undo that"))
    before = Ledger.now()

    turn = say(world, "undo that")

    assert "nothing_to_undo" in notice_codes(turn) and Ledger.now() == before


def test_undo_after_the_case_moved_on_is_refused(world, script):
    _, _, berlin = world
    script("make line 2 120", plan(act("a1", "update_line", "make line 2 120", line=2, amount="120")))
    script("undo that", undo("undo that"))
    say(world, "make line 2 120")
    Case.objects.filter(pk=berlin.pk).update(revision=berlin.revision + 50)  # someone else edited since
    before = Ledger.now()

    turn = say(world, "undo that")

    assert "cannot_undo" in notice_codes(turn) and Ledger.now() == before


def test_an_undo_the_user_did_not_ask_for_is_refused(world, script):
    script("make line 2 120", plan(act("a1", "update_line", "make line 2 120", line=2, amount="120")))
    script("what is the total", undo("undo that"))
    say(world, "make line 2 120")
    before = Ledger.now()

    turn = say(world, "what is the total")

    assert "evidence_not_found" in notice_codes(turn) and Ledger.now() == before


# --------------------------------------------------------------------------- policy advice


@pytest.mark.parametrize(("text", "category", "amount", "advised"), [
    ("add a hotel night of 210", "hotel", "210", True),
    ("add a hotel night of 150", "hotel", "150", False),
    ("add a taxi of 65", "taxi", "65", True),
    ("add a taxi of 30", "taxi", "30", False),
])
def test_a_line_over_its_category_limit_runs_and_gets_the_policys_advice(world, script, text, category, amount,
                                                                        advised):
    script(text, plan(act("a1", "add_line", text, amount=amount, category=category, date="2026-11-20")))

    turn = say(world, text)

    assert turn.acts[0].outcome == "executed"
    assert ("over_policy_limit" in notice_codes(turn)) is advised
    if advised:
        notice = next(n for n in turn.notices if n.code == "over_policy_limit")
        assert {"hotel": "180", "taxi": "50"}[category] in notice.text


def test_meals_are_limited_per_day_over_all_meal_lines_of_that_day(world, script):
    script("lunch 35", plan(act("a1", "add_line", "lunch 35", amount="35", category="meals", date="2026-11-20")))
    script("dinner 30", plan(act("a1", "add_line", "dinner 30", amount="30", category="meals", date="2026-11-20")))
    script("dinner 30 on the 21st", plan(act("a1", "add_line", "dinner 30 on the 21st", amount="30",
                                             category="meals", date="2026-11-21")))

    assert "over_policy_limit" not in notice_codes(say(world, "lunch 35"))
    second = say(world, "dinner 30")  # 65 EUR of meals on the 20th
    assert "over_policy_limit" in notice_codes(second)
    assert "65.00" in next(n.text for n in second.notices if n.code == "over_policy_limit")
    assert "over_policy_limit" not in notice_codes(say(world, "dinner 30 on the 21st"))
    assert DomainEvent.objects.filter(command__conversation=world[1]).count() == 3  # advice never blocks


# --------------------------------------------------------------------------- acknowledgements


def test_a_take_back_is_acknowledged_in_plain_words_and_changes_nothing(world, script):
    text = "change the hotel to 170 actually leave it as is"
    script(text, {"plan": {"acts": [act("a1", "update_line", "change the hotel to 170", line=2, amount="170")],
                           "retractions": [{"act": "a1", "evidence": "actually leave it as is"}]}})
    before = Ledger.now()

    turn = say(world, text)

    assert Ledger.now() == before
    notice = next(n for n in turn.notices if n.code == "retracted")
    assert "leave it as is" in notice.text and "line 2" in notice.text and "Nothing was changed" in notice.text
    assert any(b["kind"] == "notice" and b["code"] == "retracted" for b in turn.reply["blocks"])


def test_undoing_a_confirmed_removal_puts_the_line_back_directly(world, script):
    _, _, berlin = world
    removed = lines_of(berlin)[2]
    script("remove the third line", plan(act("a1", "remove_line", "remove the third line", line=3)))
    script("undo that", undo("undo that"))
    card = Interaction.objects.get(turn=say(world, "remove the third line"))
    interaction_respond(user=world[0], interaction_id=card.id, option="confirm")
    assert len(lines_of(berlin)) == 2

    turn = say(world, "undo that")

    assert [(a.act, a.outcome) for a in turn.acts] == [("add_line", "executed")]
    back = lines_of(berlin)[-1]
    assert {k: back[k] for k in ("amount", "category", "date", "merchant")} == {
        k: removed[k] for k in ("amount", "category", "date", "merchant")}
    assert CommandJournalEntry.objects.get(turn=turn).origin_kind == "direct_user_act"


def test_a_submission_cannot_be_undone(world, script):
    script("submit it", plan(act("a1", "submit_claim", "submit it")))
    script("undo that", undo("undo that"))
    card = Interaction.objects.get(turn=say(world, "submit it"))
    interaction_respond(user=world[0], interaction_id=card.id, option="confirm")
    before = Ledger.now()

    turn = say(world, "undo that")

    assert "cannot_undo" in notice_codes(turn) and Ledger.now() == before


def test_a_plan_cannot_take_the_id_the_server_gives_an_undo(world, script):
    """Review of issue 20: an undo was told apart by its act id "undo", which a model could also use, and the next
    real "undo that" was then refused. The server's own act ids are reserved: a plan using one is invalid."""
    import pydantic

    from conversations.core.plan import PlannedAct
    from conversations.core.reducer import UNDO_ACT_ID

    with pytest.raises(pydantic.ValidationError):
        PlannedAct(id=UNDO_ACT_ID, act="update_line", evidence="x")
    _, _, berlin = world
    script("make line 2 120", plan(act("undo", "update_line", "make line 2 120", line=2, amount="120")))
    script("undo that", undo("undo that"))
    say(world, "make line 2 120")
    turn = say(world, "undo that")  # the model's act named "undo" was an edit, not an undo: it is undone
    assert "undo_of_undo" not in notice_codes(turn) and lines_of(berlin)[1]["amount"] != "120.00"
