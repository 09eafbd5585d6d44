"""On the in-memory layer a conversation's events reach this process's sockets directly (issue 23, fourth round):
no group send, no layer message per socket, the JSON text of an event written once for all of them; and
still every event, in order, to every open socket of the conversation, none before it is accepted and none
after it closed."""

from __future__ import annotations

import asyncio
import collections
import json

import pytest
from channels.layers import InMemoryChannelLayer, get_channel_layer

from conversations import consumers, stream
from tests.test_consumers import close, events_until, remove_first_line_script, socket, world  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def in_memory(settings):
    if not settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("InMemoryChannelLayer"):
        pytest.skip("the in-memory layer's direct delivery (the Redis lane's sockets hear the layer)")


async def test_a_turn_reaches_its_sockets_without_a_layer_message(world, script, monkeypatch, in_memory):  # noqa: F811
    """Each publish is forwarded to each listening socket on its loop; the layer carries none of the events."""
    assert isinstance(get_channel_layer(), InMemoryChannelLayer)
    asked: list[str] = []
    group_send = InMemoryChannelLayer.group_send

    async def counting(self, group, message):
        asked.append(message["type"])
        return await group_send(self, group, message)

    monkeypatch.setattr(InMemoryChannelLayer, "group_send", counting)  # (on the class: still ``in_memory``)
    conversation, berlin = world["alice_conversation"], world["berlin"]
    text = remove_first_line_script(script, berlin.id)
    first, _ = await socket(conversation.id, cookie=world["alice_cookie"])
    second, _ = await socket(conversation.id, cookie=world["alice_cookie"])
    await first.send_json_to({"type": "message", "text": text, "client_message_id": "d-1"})
    a = await events_until(first, "turn.completed")
    b = await events_until(second, "turn.completed")
    assert [e["type"] for e in a] == ["turn.started", "read_round", "interaction.pending", "turn.completed"]
    assert [(e["type"], e["seq"]) for e in a] == [(e["type"], e["seq"]) for e in b]
    assert [e["seq"] for e in a] == sorted(e["seq"] for e in a)
    assert "stream.events" not in asked  # delivered directly, not through the layer's groups
    await close(first)
    await close(second)


async def test_a_closed_socket_stops_listening(world, in_memory):  # noqa: F811
    conversation = world["alice_conversation"]
    group = stream.group_name(conversation.id)
    communicator, _ = await socket(conversation.id, cookie=world["alice_cookie"])
    assert len(stream._LISTENING[group]) == 1
    await close(communicator)
    assert group not in stream._LISTENING  # nothing is kept for a socket that is gone


def test_events_published_while_the_socket_is_accepted_wait_for_it_in_order(monkeypatch):
    """A socket listens before it is accepted: what is published in between is kept and sent after the accept,
    in order, and a socket that closed is sent nothing more."""
    monkeypatch.setattr(stream, "get_channel_layer", InMemoryChannelLayer)  # (a fresh one: nothing joined it)
    sent: list[dict] = []

    class Socket(consumers.ConversationConsumer):
        async def base_send(self, message):
            sent.append(message)

    async def main() -> None:
        sock = Socket()
        sock.loop, sock.outbox = asyncio.get_running_loop(), collections.deque()
        sock.conversation_id, sock.last_seq, sock.open = "cnv_x", 0, True
        stream.listen("cnv_x", sock)
        try:
            stream.send("cnv_x", [("turn.started", {"turn": "t"}), ("read_round", {"turn": "t"})], 2)
            await asyncio.sleep(0.01)
            assert sent == [] and len(sock.outbox) == 2  # not accepted yet: kept
            sock.accepted = True
            sock._drain_soon()
            stream.send("cnv_x", [("turn.completed", {"turn": {"id": "t"}})], 3)
            await asyncio.sleep(0.01)
            assert [json.loads(m["text"])["seq"] for m in sent] == [1, 2, 3]
            assert sock.last_seq == 3
            sock.open = False  # closed (signed out): nothing more is sent
            stream.send("cnv_x", [("turn.started", {"turn": "u"})], 4)
            await asyncio.sleep(0.01)
            assert len(sent) == 3 and not sock.outbox
        finally:
            stream.unlisten("cnv_x", sock)

    asyncio.run(main())


def test_a_thread_s_publish_reaches_the_socket_s_loop(monkeypatch):
    """From a turn's thread the events are handed to the loop the socket runs on (not sent from the thread)."""
    monkeypatch.setattr(stream, "get_channel_layer", InMemoryChannelLayer)
    got: list[tuple[bool, list[int]]] = []

    class Listener:
        def forward(self, events):
            got.append((asyncio.get_running_loop() is self.loop, [e["seq"] for e in events]))

    async def main() -> None:
        listener = Listener()
        listener.loop = asyncio.get_running_loop()
        stream.listen("cnv_t", listener)
        try:
            await asyncio.to_thread(stream.send, "cnv_t", [("turn.started", {}), ("turn.completed", {})], 6)
            await asyncio.sleep(0.01)
        finally:
            stream.unlisten("cnv_t", listener)

    asyncio.run(main())
    assert got == [(True, [5, 6])]


def test_an_event_s_json_is_written_once_for_every_socket():
    event = stream.Sent({"type": "turn.completed", "seq": 3, "turn": {"id": "t", "reply": "é"}})
    first = event.text()
    assert event.text() is first  # kept: the second socket's frame is the same text
    assert json.loads(first) == event
