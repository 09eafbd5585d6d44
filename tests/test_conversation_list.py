"""Issue 12 (8): a user renames, deletes (softly: the ledger stays) and searches their conversations, over
the HTTP API with the browser's session and CSRF, and nobody else's."""

from __future__ import annotations

import json

import pytest

from conversations.models import CommandJournalEntry, Conversation, Turn
from conversations.services import demo_seed
from tests.test_api import PASSWORD, Browser, assert_error, new_conversation

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def alice(db) -> Browser:
    demo_seed(password=PASSWORD)
    return Browser("alice")


@pytest.fixture
def bob(alice) -> Browser:
    return Browser("bob")


def patch(browser: Browser, path: str, body, *, csrf: bool = True):
    headers = {"X-CSRFToken": browser.csrf} if csrf else {}
    return browser.client.patch(path, json.dumps(body), content_type="application/json", headers=headers)


def delete(browser: Browser, path: str, *, csrf: bool = True):
    headers = {"X-CSRFToken": browser.csrf} if csrf else {}
    return browser.client.delete(path, headers=headers)


def test_a_conversation_is_renamed_and_an_empty_name_gives_back_its_first_message(alice):
    cid = new_conversation(alice)
    Turn.objects.create(conversation_id=cid, kind="message", text="What is the hotel limit?", client_message_id="m1",
                        mode="controlled_agentic", status="completed")
    response = patch(alice, f"/api/conversations/{cid}", {"title": "  Hotel   questions "})
    assert response.status_code == 200 and response.json()["title"] == "Hotel questions"
    listed = {c["id"]: c for c in alice.get("/api/conversations").json()}
    assert listed[cid]["label"] == "Hotel questions" and listed[cid]["title"] == "Hotel questions"
    patch(alice, f"/api/conversations/{cid}", {"title": ""})
    assert {c["id"]: c for c in alice.get("/api/conversations").json()}[cid]["label"] == "What is the hotel limit?"


def test_renaming_needs_the_csrf_header_and_the_owner(alice, bob):
    cid = new_conversation(alice)
    assert patch(alice, f"/api/conversations/{cid}", {"title": "x"}, csrf=False).status_code == 403
    assert_error(patch(bob, f"/api/conversations/{cid}", {"title": "mine now"}), 404, "not_found")
    assert_error(patch(alice, f"/api/conversations/{cid}", {"title": "x" * 201}), 422, "invalid_request")
    assert Conversation.objects.get(pk=cid).title == ""


def test_deleting_hides_the_conversation_from_its_user_and_keeps_the_ledger(alice, bob):
    cid = new_conversation(alice)
    Turn.objects.create(conversation_id=cid, kind="message", text="hello", client_message_id="m1",
                        mode="controlled_agentic", status="completed")
    journal_before = CommandJournalEntry.objects.count()
    assert_error(delete(bob, f"/api/conversations/{cid}"), 404, "not_found")
    assert delete(alice, f"/api/conversations/{cid}", csrf=False).status_code == 403
    assert delete(alice, f"/api/conversations/{cid}").status_code == 204
    assert cid not in {c["id"] for c in alice.get("/api/conversations").json()}
    assert_error(alice.get(f"/api/conversations/{cid}"), 404, "not_found")
    assert_error(alice.post(f"/api/conversations/{cid}/messages", {"text": "still there?"}), 404, "not_found")
    assert alice.client.get(f"/c/{cid}/").status_code == 404
    assert_error(delete(alice, f"/api/conversations/{cid}"), 404, "not_found")
    row = Conversation.objects.get(pk=cid)  # soft: the row, its turns and the journal stay
    assert row.hidden_at is not None and row.turns.count() == 1
    assert CommandJournalEntry.objects.count() == journal_before
    assert "deleted by its user" in str(row)


def test_search_finds_conversations_by_name_or_by_anything_said_in_them(alice, bob):
    hotel, taxi, other = new_conversation(alice), new_conversation(alice), new_conversation(bob)
    for cid, text in ((hotel, "What is the HOTEL limit in Lisbon?"), (taxi, "add a taxi of 20"),
                      (other, "hotel for bob")):
        Turn.objects.create(conversation_id=cid, kind="message", text=text, client_message_id="m1",
                            mode="controlled_agentic", status="completed")
    patch(alice, f"/api/conversations/{taxi}", {"title": "Cab rides"})
    assert [c["id"] for c in alice.get("/api/conversations?q=hotel").json()] == [hotel]
    assert [c["id"] for c in alice.get("/api/conversations?q=cab").json()] == [taxi]
    assert [c["id"] for c in alice.get("/api/conversations?q=taxi%20of").json()] == [taxi]
    assert alice.get("/api/conversations?q=nothing-like-this").json() == []
    assert len(alice.get("/api/conversations").json()) == 2


def test_search_ignores_case_in_every_script_not_only_ascii(alice):
    """Issue 20 (11): on SQLite LIKE folds ASCII only; "ZÜRICH" finds "Zürich" and "straße" finds "STRASSE" is
    not promised, but upper and lower case of the same letters are, in titles and in what was said."""
    zurich, athens = new_conversation(alice), new_conversation(alice)
    Turn.objects.create(conversation_id=zurich, kind="message", text="hotel in Zürich, 2 nights", client_message_id="m1",
                        mode="controlled_agentic", status="completed")
    patch(alice, f"/api/conversations/{athens}", {"title": "Αθήνα workshop"})
    assert [c["id"] for c in alice.get("/api/conversations?q=ZÜRICH").json()] == [zurich]
    assert [c["id"] for c in alice.get("/api/conversations?q=zürich").json()] == [zurich]
    assert [c["id"] for c in alice.get("/api/conversations?q=ΑΘΉΝΑ").json()] == [athens]
