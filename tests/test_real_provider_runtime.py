"""Issue 5: one setting switches the whole runtime to a real model endpoint (here a local stub that
speaks the protocol): the answer goes through the same parser, read loop and reducer."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from pytest_httpserver import HTTPServer

from conversations.models import CommandJournalEntry, Conversation, DomainEvent
from conversations.turns import turn_submit_message

from .test_provider_adapters import ANTHROPIC_PATH, OPENAI_PATH, anthropic_message, chat_completion, tool_use

pytestmark = pytest.mark.django_db

TEXT = "open a claim called Stub trip"
PLAN = {"plan": {"acts": [{"id": "a1", "act": "open_claim", "args": {"title": "Stub trip"}, "evidence": TEXT}]}}
READS = {"reads": [{"tool": "lookup_policy", "args": {"query": "hotel"}}]}


@pytest.fixture
def bob():
    return get_user_model().objects.create_user("bob-stub", password="x")


def run(bob) -> dict:
    conversation = Conversation.objects.create(owner=bob)
    turn = turn_submit_message(user=bob, conversation_id=conversation.id, text=TEXT).turn
    return {"turn": turn, "events": DomainEvent.objects.filter(command__turn=turn).count(),
            "rows": CommandJournalEntry.objects.filter(turn=turn).count()}


def test_an_openai_compatible_endpoint_drives_a_whole_turn(httpserver: HTTPServer, settings, monkeypatch, bob):
    monkeypatch.setenv("OPENAI_BASE_URL", httpserver.url_for("/v1"))
    monkeypatch.setenv("OPENAI_API_KEY", "")
    settings.TURNFRAME = {**settings.TURNFRAME, "PROVIDER": "openai", "FALLBACK_PROVIDER": None}
    httpserver.expect_ordered_request(OPENAI_PATH).respond_with_json(chat_completion(json.dumps(READS)))
    httpserver.expect_ordered_request(OPENAI_PATH).respond_with_json(chat_completion(json.dumps(PLAN)))

    result = run(bob)

    assert result["turn"].acts[0].outcome == "executed"
    assert result["events"] == 1 and result["rows"] == 1
    assert [r.status for r in result["turn"].read_rounds.all()] == ["ok"]
    second_call = json.loads(httpserver.log[1][0].get_data())
    assert "lookup_policy" in json.dumps(second_call["messages"])  # the read's result was fed back


def test_an_anthropic_endpoint_drives_a_whole_turn(httpserver: HTTPServer, settings, monkeypatch, bob):
    monkeypatch.setenv("ANTHROPIC_BASE_URL", httpserver.url_for(""))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    settings.TURNFRAME = {**settings.TURNFRAME, "PROVIDER": "anthropic", "FALLBACK_PROVIDER": None}
    httpserver.expect_request(ANTHROPIC_PATH).respond_with_json(anthropic_message([tool_use(PLAN)]))

    result = run(bob)

    assert result["turn"].acts[0].outcome == "executed" and result["events"] == 1


def test_garbage_from_a_real_endpoint_fails_closed(httpserver: HTTPServer, settings, monkeypatch, bob):
    monkeypatch.setenv("OPENAI_BASE_URL", httpserver.url_for("/v1"))
    settings.TURNFRAME = {**settings.TURNFRAME, "PROVIDER": "openai", "FALLBACK_PROVIDER": None}
    httpserver.expect_request(OPENAI_PATH).respond_with_json(chat_completion("Sure! I opened it for you."))

    result = run(bob)

    assert result["turn"].status == "failed"
    assert [n.code for n in result["turn"].notices] == ["provider_unavailable"]
    assert result["events"] == 0 and result["rows"] == 0
