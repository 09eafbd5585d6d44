"""The conversation socket (CONTRACT §7), through the full ASGI application of ``turnframe_web.asgi``.

Each test connects the way a browser does: an Origin header the host validator accepts and the
Django session cookie. Turns run on the consumer's thread pool, so every test uses a
transactional database and waits for the detached turns before it ends.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import AsyncClient, Client

from conversations import consumers
from conversations.models import Case, Conversation, Interaction
from conversations.services import demo_seed
from turnframe_web.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = "http://127.0.0.1:8000"
PASSWORD = "socket-test-password"


# --------------------------------------------------------------------------- fixtures and helpers


@pytest.fixture
def world(transactional_db, settings):
    """alice with her two demo claims and a conversation; bob with his own conversation."""
    demo_seed(password=PASSWORD)
    User = get_user_model()
    alice, bob = User.objects.get(username="alice"), User.objects.get(username="bob")
    berlin = Case.objects.get(owner=alice, title="Berlin trip")
    return {
        "alice": alice, "bob": bob, "berlin": berlin,
        "alice_conversation": Conversation.objects.create(owner=alice, mode="controlled_agentic"),
        "bob_conversation": Conversation.objects.create(owner=bob, mode="controlled_agentic"),
        "alice_cookie": _session_cookie(alice),
    }


def _session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def socket(conversation_id: str, *, cookie: str | None, origin: str | None = ORIGIN):
    headers = [(b"host", b"127.0.0.1:8000")]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if cookie is not None:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    communicator = WebsocketCommunicator(application, f"/ws/conversations/{conversation_id}/", headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    return communicator, connected


async def events_until(communicator, last_type: str, *, timeout: float = 15) -> list[dict[str, Any]]:
    """Every event up to and including the first one of ``last_type``."""
    events = []
    async with asyncio.timeout(timeout):
        while True:
            event = await communicator.receive_json_from(timeout=timeout)
            events.append(event)
            if event["type"] == last_type:
                return events


async def close(communicator) -> None:
    await consumers.drain()
    await communicator.disconnect()


def remove_first_line_script(script, case_id: str) -> str:
    """A read round, then a consequential act: the card of a confirmation."""
    return script(
        "look at Berlin and remove line 1",
        {"reads": [{"tool": "get_case", "args": {"case": case_id}}]},
        {"plan": {"acts": [{"id": "a1", "act": "remove_line", "case": {"id": case_id}, "args": {"line": 1},
                            "evidence": "remove line 1"}]}},
    )


# --------------------------------------------------------------------------- who may connect


async def test_an_anonymous_socket_is_accepted_then_closed_with_4401(world):
    communicator, connected = await socket(world["alice_conversation"].id, cookie=None)
    assert connected
    assert await communicator.receive_output(timeout=5) == {"type": "websocket.close", "code": 4401}


async def test_another_users_conversation_is_closed_with_4404(world):
    communicator, connected = await socket(world["bob_conversation"].id, cookie=world["alice_cookie"])
    assert connected
    assert await communicator.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}


async def test_a_missing_conversation_is_closed_with_4404(world):
    communicator, connected = await socket("cnv_doesnotexist", cookie=world["alice_cookie"])
    assert connected
    assert await communicator.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}


@pytest.mark.parametrize("origin", ["http://evil.example", None])
async def test_a_foreign_or_missing_origin_is_refused(world, origin):
    communicator, connected = await socket(world["alice_conversation"].id, cookie=world["alice_cookie"],
                                           origin=origin)
    assert not connected


async def test_the_owner_connects_and_hears_nothing_until_something_happens(world):
    communicator, connected = await socket(world["alice_conversation"].id, cookie=world["alice_cookie"])
    assert connected
    assert await communicator.receive_nothing(timeout=0.2)
    await close(communicator)


# --------------------------------------------------------------------------- bad frames


@pytest.mark.parametrize(("frame", "code"), [
    ("{not json", "bad_json"),
    ("[" * 5000 + "]" * 5000, "bad_json"),  # nesting deep enough to break a naive decoder
    ('"just a string"', "invalid_request"),
    ('{"type": "shout", "text": "hi"}', "unknown_type"),
    ('{"text": "no type"}', "unknown_type"),
    ('{"type": "message"}', "invalid_request"),
    ('{"type": "message", "text": "hi", "client_message_id": "x", "extra": 1}', "invalid_request"),
    ('{"type": "message", "text": "nul \\u0000 char"}', "invalid_request"),
    ('{"type": "respond", "interaction": "int_x"}', "invalid_request"),
    ('{"type": "respond", "interaction": "int_x", "option": 7}', "invalid_request"),
])
async def test_a_bad_frame_gets_an_error_event_and_the_socket_stays_open(world, frame, code):
    communicator, _ = await socket(world["alice_conversation"].id, cookie=world["alice_cookie"])
    await communicator.send_to(text_data=frame)
    error = await communicator.receive_json_from(timeout=5)
    assert error["type"] == "error" and error["code"] == code and error["message"]
    assert isinstance(error["seq"], int)
    # still open and still answering
    await communicator.send_to(text_data="{oops")
    assert (await communicator.receive_json_from(timeout=5))["code"] == "bad_json"
    await close(communicator)


@pytest.mark.parametrize("frame", [
    '{"type": "message", "text": "a lone \\ud800 surrogate"}',
    '{"type": "message", "text": "hi", "client_message_id": "m\\udfff"}',
    '{"type": "respond", "interaction": "int_\\u0000x", "option": "confirm"}',
    '{"type": "respond", "interaction": "int_x", "option": "con\\u0000firm"}',
    '{"type": "respond", "interaction": "int_\\ud83d", "option": "confirm"}',
])
async def test_unstorable_text_in_a_frame_is_invalid_request_with_no_traceback(world, frame, caplog):
    """A NUL or a lone surrogate in any field is refused like over HTTP (core.text): a stable code, never
    ``internal_error``, nothing stored, and no traceback in the server log."""
    communicator, _ = await socket(world["alice_conversation"].id, cookie=world["alice_cookie"])
    await communicator.send_to(text_data=frame)
    error = await communicator.receive_json_from(timeout=5)
    assert error["type"] == "error" and error["code"] == "invalid_request", error
    assert error["errors"] and all(e["loc"] and e["msg"] for e in error["errors"])
    await close(communicator)
    assert not await database_sync_to_async(world["alice_conversation"].turns.exists)()
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records if r.exc_info]


async def test_a_socket_on_a_conversation_id_with_a_nul_is_closed_with_4404(world, caplog):
    communicator, connected = await socket("cnv_%00x", cookie=world["alice_cookie"])
    assert connected
    assert (await communicator.receive_output(timeout=5)) == {"type": "websocket.close", "code": 4404}
    assert not [r for r in caplog.records if r.exc_info]


async def test_a_ping_frame_is_answered_with_a_pong_that_consumes_no_sequence_number(world, script):
    conversation = world["alice_conversation"]
    text = script("hello there", {"plan": {"acts": [], "answers": [{"question": "hello", "text": "Hello!"}]}})
    communicator, _ = await socket(conversation.id, cookie=world["alice_cookie"])
    await communicator.send_json_to({"type": "ping"})
    assert await communicator.receive_json_from(timeout=5) == {"type": "pong", "seq": 0}
    await communicator.send_json_to({"type": "message", "text": text})
    completed = (await events_until(communicator, "turn.completed"))[-1]
    await communicator.send_json_to({"type": "ping"})
    assert await communicator.receive_json_from(timeout=5) == {"type": "pong", "seq": completed["seq"]}
    await communicator.send_json_to({"type": "ping", "extra": 1})
    assert (await communicator.receive_json_from(timeout=5))["code"] == "invalid_request"
    await close(communicator)


async def test_an_invalid_frame_names_the_fields_at_fault(world):
    communicator, _ = await socket(world["alice_conversation"].id, cookie=world["alice_cookie"])
    await communicator.send_json_to({"type": "respond", "interaction": "int_x"})
    error = await communicator.receive_json_from(timeout=5)
    assert error["code"] == "invalid_request"
    assert {"loc": ["option"], "msg": "Field required"} in error["errors"]
    await close(communicator)


async def test_an_oversized_frame_is_refused_before_it_is_parsed(world, settings):
    settings.TURNFRAME = {**settings.TURNFRAME, "MAX_WS_FRAME_BYTES": 1000}
    communicator, _ = await socket(world["alice_conversation"].id, cookie=world["alice_cookie"])
    await communicator.send_to(text_data=json.dumps({"type": "message", "text": "x" * 2000}))
    assert (await communicator.receive_json_from(timeout=5))["code"] == "frame_too_large"
    # bytes, not characters: 400 characters of 3 bytes each are over 1000 bytes
    await communicator.send_to(text_data=json.dumps({"type": "message", "text": "€" * 400}, ensure_ascii=False))
    assert (await communicator.receive_json_from(timeout=5))["code"] == "frame_too_large"
    await communicator.send_to(text_data="{oops")
    assert (await communicator.receive_json_from(timeout=5))["code"] == "bad_json"
    await close(communicator)


async def test_a_binary_frame_gets_an_error_event(world):
    communicator, _ = await socket(world["alice_conversation"].id, cookie=world["alice_cookie"])
    await communicator.send_to(bytes_data=b"\x00\x01")
    assert (await communicator.receive_json_from(timeout=5))["code"] == "bad_frame"
    await close(communicator)


async def test_an_error_event_does_not_consume_a_sequence_number(world, script):
    """Socket-only events repeat the last seq the socket knows; the shared stream sees no gap."""
    conversation = world["alice_conversation"]
    text = script("hello there", {"plan": {"acts": [], "answers": [{"question": "hello", "text": "Hello!"}]}})
    communicator, _ = await socket(conversation.id, cookie=world["alice_cookie"])
    await communicator.send_json_to({"type": "message", "text": text, "client_message_id": "m1"})
    first = await events_until(communicator, "turn.completed")
    await communicator.send_to(text_data="{oops")
    error = await communicator.receive_json_from(timeout=5)
    assert error["seq"] == first[-1]["seq"]
    await communicator.send_json_to({"type": "message", "text": text, "client_message_id": "m2"})
    second = await events_until(communicator, "turn.completed")
    assert second[0]["seq"] == first[-1]["seq"] + 1
    await close(communicator)


# --------------------------------------------------------------------------- turns over the socket


async def test_a_turn_streams_its_events_in_contract_order(world, script):
    conversation, berlin = world["alice_conversation"], world["berlin"]
    text = remove_first_line_script(script, berlin.id)
    communicator, _ = await socket(conversation.id, cookie=world["alice_cookie"])
    await communicator.send_json_to({"type": "message", "text": text, "client_message_id": "c-1"})
    events = await events_until(communicator, "turn.completed")
    types = [e["type"] for e in events]
    assert types == ["turn.started", "read_round", "interaction.pending", "turn.completed"]
    seqs = [e["seq"] for e in events]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert all(b == a + 1 for a, b in zip(seqs, seqs[1:], strict=False))
    started, read_round, pending, completed = events
    turn_id = started["turn"]
    assert started["text"] == text
    assert read_round["turn"] == turn_id and read_round["round"] == 1 and read_round["status"] == "ok"
    assert read_round["requests"] == [{"tool": "get_case", "args": {"case": berlin.id}}]
    assert read_round["results"][0]["ok"] is True
    card = pending["interaction"]
    assert card["kind"] == "confirmation" and card["status"] == "pending" and card["turn"] == turn_id
    # I6: the card was persisted before the event mentioned it
    assert await database_sync_to_async(Interaction.objects.filter(pk=card["id"]).exists)()
    turn = completed["turn"]
    assert turn["id"] == turn_id and turn["status"] == "completed"
    assert [b["kind"] for b in turn["reply"]["blocks"]].count("interaction") == 1
    assert turn["acts"][0]["outcome"] == "awaiting_confirmation"
    await close(communicator)


async def test_a_click_over_the_socket_streams_started_resolved_completed(world, script):
    conversation, berlin = world["alice_conversation"], world["berlin"]
    text = remove_first_line_script(script, berlin.id)
    communicator, _ = await socket(conversation.id, cookie=world["alice_cookie"])
    await communicator.send_json_to({"type": "message", "text": text, "client_message_id": "c-1"})
    card = next(e for e in await events_until(communicator, "turn.completed")
                if e["type"] == "interaction.pending")["interaction"]
    await communicator.send_json_to({"type": "respond", "interaction": card["id"], "option": "confirm",
                                     "client_response_id": "r-1"})
    events = await events_until(communicator, "turn.completed")
    assert [e["type"] for e in events] == ["turn.started", "interaction.resolved", "turn.completed"]
    assert events[1]["interaction"]["id"] == card["id"] and events[1]["interaction"]["status"] == "resolved"
    seqs = [e["seq"] for e in events]  # the two sent together take consecutive numbers too: no gap
    assert all(b == a + 1 for a, b in zip(seqs, seqs[1:], strict=False))
    turn = events[2]["turn"]
    assert [b["kind"] for b in turn["reply"]["blocks"]][0] == "receipt"
    assert turn["commands"][0]["origin"] == {"kind": "confirmed_interaction", "interaction": card["id"]}
    berlin_now = await database_sync_to_async(Case.objects.get)(pk=berlin.id)
    assert berlin_now.revision == berlin.revision + 1
    # the same click again: the original outcome, nothing runs, nothing is published
    await communicator.send_json_to({"type": "respond", "interaction": card["id"], "option": "confirm",
                                     "client_response_id": "r-1"})
    await consumers.drain()
    assert await communicator.receive_nothing(timeout=0.3)
    await close(communicator)


async def test_a_stale_card_answered_over_the_socket_is_an_error_event(world, script):
    conversation, berlin = world["alice_conversation"], world["berlin"]
    text = remove_first_line_script(script, berlin.id)
    edit = script("change line 2 to 150",
                  {"plan": {"acts": [{"id": "a1", "act": "update_line", "case": {"id": berlin.id},
                                      "args": {"line": 2, "amount": "150"}, "evidence": "change line 2 to 150"}]}})
    communicator, _ = await socket(conversation.id, cookie=world["alice_cookie"])
    await communicator.send_json_to({"type": "message", "text": text, "client_message_id": "c-1"})
    card = next(e for e in await events_until(communicator, "turn.completed")
                if e["type"] == "interaction.pending")["interaction"]
    await communicator.send_json_to({"type": "message", "text": edit, "client_message_id": "c-2"})
    events = await events_until(communicator, "turn.completed")
    resolved = [e for e in events if e["type"] == "interaction.resolved"]
    assert [e["interaction"]["status"] for e in resolved] == ["stale"]
    assert resolved[0]["seq"] < events[-1]["seq"]
    await communicator.send_json_to({"type": "respond", "interaction": card["id"], "option": "confirm"})
    error = await communicator.receive_json_from(timeout=10)
    assert error["type"] == "error" and error["code"] == "interaction_stale"
    assert error["interaction"] == card["id"]
    berlin_now = await database_sync_to_async(Case.objects.get)(pk=berlin.id)
    assert berlin_now.revision == berlin.revision + 1  # only the edit ran
    await close(communicator)


async def test_service_errors_go_back_to_the_socket_that_asked(world, script):
    communicator, _ = await socket(world["alice_conversation"].id, cookie=world["alice_cookie"])
    await communicator.send_json_to({"type": "message", "text": "   ", "client_message_id": "c-1"})
    error = await communicator.receive_json_from(timeout=10)
    assert error["type"] == "error" and error["code"] == "invalid_request"
    assert error["client_message_id"] == "c-1"
    await communicator.send_json_to({"type": "respond", "interaction": "int_nope", "option": "confirm"})
    error = await communicator.receive_json_from(timeout=10)
    assert error["code"] == "not_found" and error["interaction"] == "int_nope"
    await close(communicator)


async def test_a_message_too_long_is_an_error_event(world, settings):
    settings.TURNFRAME = {**settings.TURNFRAME, "MAX_MESSAGE_CHARS": 10}
    communicator, _ = await socket(world["alice_conversation"].id, cookie=world["alice_cookie"])
    await communicator.send_json_to({"type": "message", "text": "x" * 11})
    assert (await communicator.receive_json_from(timeout=10))["code"] == "message_too_long"
    await close(communicator)


async def test_a_second_message_while_a_turn_runs_is_queued_not_refused(world, script):
    """The database allows one running turn per conversation; a message sent meanwhile waits its turn."""
    conversation = world["alice_conversation"]
    await database_sync_to_async(_open_a_running_turn)(conversation)
    communicator, _ = await socket(conversation.id, cookie=world["alice_cookie"])
    await communicator.send_json_to({"type": "message", "text": "hello", "client_message_id": "c-9"})
    event = await communicator.receive_json_from(timeout=10)
    assert event["type"] == "turn.queued" and event["text"] == "hello"
    assert await database_sync_to_async(
        lambda: conversation.turns.get(client_message_id="c-9").status)() == "queued"
    await close(communicator)


def _open_a_running_turn(conversation):
    conversation.turns.create(kind="message", text="still thinking", client_message_id="running",
                              mode=conversation.mode)


async def test_a_repeated_client_message_id_replays_the_turn_to_the_sender_only(world, script):
    conversation = world["alice_conversation"]
    text = script("hello there", {"plan": {"acts": [], "answers": [{"question": "hello", "text": "Hello!"}]}})
    sender, _ = await socket(conversation.id, cookie=world["alice_cookie"])
    watcher, _ = await socket(conversation.id, cookie=world["alice_cookie"])
    await sender.send_json_to({"type": "message", "text": text, "client_message_id": "same"})
    first = (await events_until(sender, "turn.completed"))[-1]
    await events_until(watcher, "turn.completed")
    await sender.send_json_to({"type": "message", "text": text, "client_message_id": "same"})
    replay = await sender.receive_json_from(timeout=10)
    assert replay["type"] == "turn.completed" and replay["turn"]["replayed"] is True
    assert replay["turn"]["id"] == first["turn"]["id"] and replay["seq"] == first["seq"]
    await consumers.drain()
    assert await watcher.receive_nothing(timeout=0.3)
    await close(sender)
    await close(watcher)


async def test_a_turn_started_over_http_is_streamed_to_an_open_socket(world, script):
    conversation, berlin = world["alice_conversation"], world["berlin"]
    text = remove_first_line_script(script, berlin.id)
    communicator, _ = await socket(conversation.id, cookie=world["alice_cookie"])
    client = AsyncClient()
    await client.aforce_login(world["alice"])
    response = await client.post(f"/api/conversations/{conversation.id}/messages",
                                 {"text": text, "client_message_id": "http-1"}, content_type="application/json")
    assert response.status_code == 200, response.content
    turn = response.json()
    events = await events_until(communicator, "turn.completed")
    assert [e["type"] for e in events] == ["turn.started", "read_round", "interaction.pending", "turn.completed"]
    assert all(e.get("turn") in (turn["id"], None) for e in events[:2])
    assert events[-1]["turn"]["id"] == turn["id"]
    assert events[-1]["turn"]["reply"] == turn["reply"]
    await close(communicator)


async def test_a_turn_finishes_even_when_its_socket_goes_away(world, script):
    """The turn is detached from the socket: closing it mid-turn never cancels a commit."""
    conversation, berlin = world["alice_conversation"], world["berlin"]
    text = script("add a taxi of 20",
                  {"reads": [{"tool": "get_case", "args": {"case": berlin.id}}]},
                  {"plan": {"acts": [{"id": "a1", "act": "add_line", "case": {"id": berlin.id},
                                      "args": {"amount": "20", "category": "taxi"},
                                      "evidence": "add a taxi of 20"}]}})
    communicator, _ = await socket(conversation.id, cookie=world["alice_cookie"])
    await communicator.send_json_to({"type": "message", "text": text, "client_message_id": "gone"})
    await communicator.disconnect()
    await consumers.drain()
    turn = await database_sync_to_async(lambda: conversation.turns.get(client_message_id="gone"))()
    assert turn.status == "completed"
    berlin_now = await database_sync_to_async(Case.objects.get)(pk=berlin.id)
    assert berlin_now.revision == berlin.revision + 1


async def test_every_socket_of_the_conversation_hears_the_turn(world, script):
    conversation = world["alice_conversation"]
    text = script("hello there", {"plan": {"acts": [], "answers": [{"question": "hello", "text": "Hello!"}]}})
    first, _ = await socket(conversation.id, cookie=world["alice_cookie"])
    second, _ = await socket(conversation.id, cookie=world["alice_cookie"])
    await first.send_json_to({"type": "message", "text": text, "client_message_id": "c-1"})
    a = await events_until(first, "turn.completed")
    b = await events_until(second, "turn.completed")
    assert [(e["type"], e["seq"]) for e in a] == [(e["type"], e["seq"]) for e in b]
    await close(first)
    await close(second)


async def test_a_card_superseded_by_a_newer_one_is_announced_with_its_new_status(world, script):
    conversation, berlin = world["alice_conversation"], world["berlin"]
    first = remove_first_line_script(script, berlin.id)
    second = script("remove the second line",
                    {"plan": {"acts": [{"id": "a1", "act": "remove_line", "case": {"id": berlin.id},
                                        "args": {"line": 2}, "evidence": "remove the second line"}]}})
    communicator, _ = await socket(conversation.id, cookie=world["alice_cookie"])
    await communicator.send_json_to({"type": "message", "text": first, "client_message_id": "c-1"})
    old = next(e for e in await events_until(communicator, "turn.completed")
               if e["type"] == "interaction.pending")["interaction"]
    await communicator.send_json_to({"type": "message", "text": second, "client_message_id": "c-2"})
    events = await events_until(communicator, "turn.completed")
    resolved = [e["interaction"] for e in events if e["type"] == "interaction.resolved"]
    assert [(i["id"], i["status"]) for i in resolved] == [(old["id"], "superseded")]
    await close(communicator)


# --------------------------------------------------------------------------- the Redis layer (its lane)

IDLE_S = 31


async def test_an_idle_socket_on_the_redis_layer_stays_open_past_30_s_and_then_runs_a_turn(world, script, settings):
    """redis-py's 5 s socket timeout met channels_redis's blocking 5 s pop: every idle socket was closed
    (1011) after ~5 s. The Redis lane (TURNFRAME_TEST_REDIS=1) holds one idle for 31 s, then uses it."""
    if "Redis" not in settings.CHANNEL_LAYERS["default"]["BACKEND"]:
        pytest.skip("the Redis lane runs with TURNFRAME_TEST_REDIS=1 (Redis at 127.0.0.1:6379) or REDIS_URL")
    try:
        _reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", 6379), timeout=2)
        writer.close()
    except OSError as exc:
        print(f"\nSKIP: the Redis lane needs Redis at 127.0.0.1:6379 ({exc})")
        pytest.skip(f"Redis is not reachable at 127.0.0.1:6379 ({exc})")
    conversation = world["alice_conversation"]
    text = script("hello after a quiet while",
                  {"plan": {"acts": [], "answers": [{"question": "hello", "text": "Hello!"}]}})
    communicator, _ = await socket(conversation.id, cookie=world["alice_cookie"])
    assert await communicator.receive_nothing(timeout=IDLE_S, interval=1)  # idle: no close, no error
    await communicator.send_json_to({"type": "ping"})
    assert (await communicator.receive_json_from(timeout=5))["type"] == "pong"
    await communicator.send_json_to({"type": "message", "text": text, "client_message_id": "after-idle"})
    events = await events_until(communicator, "turn.completed")
    assert events[-1]["turn"]["status"] == "completed"
    await close(communicator)


async def test_message_frames_sent_back_to_back_are_admitted_in_arrival_order(world, script):
    """Issue 20 (2): ten frames sent at once behind a running turn ran as 2,3,5,6,10,9,4,…: each went to its own
    thread. A socket admits a frame only once the one before it holds its place."""
    conversation = world["alice_conversation"]
    await database_sync_to_async(_open_a_running_turn)(conversation)
    communicator, _ = await socket(conversation.id, cookie=world["alice_cookie"])
    sent = [f"message number {n}" for n in range(10)]
    for n, text in enumerate(sent):
        await communicator.send_json_to({"type": "message", "text": text, "client_message_id": f"c-{n}"})
    queued = [e["text"] for e in (await events_until_count(communicator, "turn.queued", len(sent)))
              if e["type"] == "turn.queued"]
    assert queued == sent
    in_queue = await database_sync_to_async(lambda: list(
        conversation.turns.filter(status="queued").order_by("created_at", "id").values_list("text", flat=True)))()
    assert in_queue == sent
    await close(communicator)


async def events_until_count(communicator, kind: str, count: int, *, timeout: float = 30) -> list[dict[str, Any]]:
    events = []
    async with asyncio.timeout(timeout):
        while sum(e["type"] == kind for e in events) < count:
            events.append(await communicator.receive_json_from(timeout=timeout))
    return events


async def test_a_repeated_client_message_id_of_a_queued_message_is_answered_as_queued(world, script):
    """Issue 20 (11): it was answered ``turn.completed`` with status ``queued``."""
    conversation = world["alice_conversation"]
    await database_sync_to_async(_open_a_running_turn)(conversation)
    communicator, _ = await socket(conversation.id, cookie=world["alice_cookie"])
    await communicator.send_json_to({"type": "message", "text": "hello", "client_message_id": "c-9"})
    first = await communicator.receive_json_from(timeout=10)
    await communicator.send_json_to({"type": "message", "text": "hello", "client_message_id": "c-9"})
    again = await communicator.receive_json_from(timeout=10)
    assert first["type"] == again["type"] == "turn.queued"
    assert again["turn"] == first["turn"] and again["text"] == "hello" and again["replayed"] is True
    await close(communicator)
