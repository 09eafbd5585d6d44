"""HTTP through the served ASGI application (``turnframe_web.handler``, issue 23): each request whole on one
thread of the HTTP pool, its cookies and streamed files sent as Django's own handler sends them, and a turn
run over HTTP still publishes to the sockets through daphne's loop.

Each test talks to ``turnframe_web.asgi.application`` with channels' communicators, as daphne would."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.testing import HttpCommunicator, WebsocketCommunicator
from django.core import signals
from django.test import Client

from conversations.auth import token_create
from conversations.models import Conversation
from conversations.services import demo_seed
from turnframe_web.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "handler-test-password"
HOST = [(b"host", b"127.0.0.1:8000")]
HELLO = {"plan": {"acts": [], "answers": [{"question": "hello", "text": "Hello!"}]}}


@pytest.fixture
def alice(transactional_db):
    from django.contrib.auth import get_user_model

    demo_seed(password=PASSWORD)
    return get_user_model().objects.get(username="alice")


async def fetch(method: str, path: str, body: bytes = b"", headers=()) -> dict:
    communicator = HttpCommunicator(application, method, path, body=body, headers=[*HOST, *headers])
    return await communicator.get_response(timeout=20)


def header(response: dict, name: bytes) -> list[bytes]:
    return [v for k, v in response["headers"] if k.lower() == name]


async def test_a_request_runs_whole_on_one_thread_of_the_http_pool(alice):
    seen: list[tuple[str, str]] = []

    def started(**kwargs):
        seen.append(("started", threading.current_thread().name))

    def finished(**kwargs):
        seen.append(("finished", threading.current_thread().name))

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    try:
        response = await fetch("GET", "/api/health")
    finally:
        signals.request_started.disconnect(started)
        signals.request_finished.disconnect(finished)
    assert response["status"] == 200 and json.loads(response["body"])["status"] == "ok"
    (_, first), (_, last) = seen
    assert [kind for kind, _ in seen] == ["started", "finished"]
    assert first == last and first.startswith("turnframe-http")


async def test_sign_in_sets_its_cookies_and_an_error_keeps_the_api_shape(alice):
    body = json.dumps({"username": "alice", "password": PASSWORD}).encode()
    response = await fetch("POST", "/api/auth/login", body, [(b"content-type", b"application/json")])
    assert response["status"] == 200
    cookies = b" ".join(header(response, b"set-cookie"))
    assert b"sessionid=" in cookies and b"csrftoken=" in cookies
    refused = await fetch("POST", "/api/auth/login", b"{not json", [(b"content-type", b"application/json")])
    assert refused["status"] == 400 and json.loads(refused["body"])["code"] == "bad_json"
    missing = await fetch("GET", "/api/conversations")
    assert missing["status"] == 401 and json.loads(missing["body"])["code"] == "not_authenticated"


async def test_a_static_file_is_streamed_whole(alice):
    response = await fetch("GET", "/static/chat.css")
    assert response["status"] == 200
    assert response["body"] == (Path(__file__).resolve().parent.parent / "static" / "chat.css").read_bytes()


async def test_a_message_over_http_reaches_the_conversations_socket(alice, script):
    """The turn runs on an HTTP pool thread and hands its events to the loop the socket listens on."""
    text = script("hello over http", HELLO)
    conversation = await database_sync_to_async(Conversation.objects.create)(owner=alice, mode="controlled_agentic")
    token, _ = await database_sync_to_async(token_create)(user=alice)
    browser = Client()
    await database_sync_to_async(browser.force_login)(alice)
    socket = WebsocketCommunicator(application, f"/ws/conversations/{conversation.id}/", headers=[
        *HOST, (b"origin", b"http://127.0.0.1:8000"),
        (b"cookie", f"sessionid={browser.cookies['sessionid'].value}".encode())])
    connected, _ = await socket.connect(timeout=5)
    assert connected
    try:
        response = await fetch("POST", f"/api/conversations/{conversation.id}/messages",
                               json.dumps({"text": text}).encode(),
                               [(b"content-type", b"application/json"), (b"authorization", f"Bearer {token}".encode())])
        assert response["status"] == 200
        turn = json.loads(response["body"])
        while True:
            event = await socket.receive_json_from(timeout=20)
            if event["type"] == "turn.completed":
                break
        assert event["turn"]["id"] == turn["id"] and event["turn"]["reply"] == turn["reply"]
    finally:
        await socket.disconnect()


def test_daphne_leaves_form_bodies_to_django():
    """Twisted does not parse a POST's form before daphne hands the body on (the sign-in form still works:
    tests/e2e)."""
    from daphne.http_protocol import WebRequest

    assert WebRequest.__init__.forms_unparsed
