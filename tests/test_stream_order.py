"""A turn hands its events to the event loop and goes on (issue 11): each conversation's events still reach the
channel layer in the order they were numbered, even when the layer suspends while sending (as one over the
network does), and with no loop to hand them to they are sent before ``send`` returns."""

from __future__ import annotations

import asyncio
import random

from asgiref.sync import sync_to_async
from channels.layers import InMemoryChannelLayer

from conversations import stream


class SlowLayer(InMemoryChannelLayer):
    """The in-memory layer, suspending a random moment before each group send (a network layer's await);
    it records each message's events in the order the message carries them."""

    def __init__(self):
        super().__init__()
        self.sent: list[tuple[str, int]] = []
        self.messages = 0
        self.rng = random.Random(7)

    async def group_send(self, group, message):
        await asyncio.sleep(self.rng.choice([0, 0, 0.001, 0.003]))
        self.sent.extend((group, event["seq"]) for event in message["events"])
        self.messages += 1


def test_a_conversation_s_events_reach_the_layer_in_order_though_the_turn_does_not_wait(monkeypatch):
    layer = SlowLayer()
    monkeypatch.setattr(stream, "get_channel_layer", lambda: layer)

    def turn(conversation: str) -> None:  # a turn's sends, one to four events at a time, from a worker thread
        seq = 0
        for size in [1, 3, 1, 2, 4, 1] * 5:
            seq += size
            stream.send(conversation, [("read_round", {"i": i}) for i in range(size)], seq)

    async def main() -> None:
        await asyncio.gather(sync_to_async(turn, thread_sensitive=False)("a"),
                             sync_to_async(turn, thread_sensitive=False)("b"))
        while stream._LAST:  # the sends handed over and not done yet
            await asyncio.sleep(0.01)

    asyncio.run(main())

    for conversation in ("a", "b"):
        seqs = [seq for group, seq in layer.sent if group == stream.group_name(conversation)]
        assert seqs == list(range(1, 61))
    assert layer.messages == 2 * 6 * 5  # one group send per ``send``, whatever its number of events


def test_with_no_loop_the_events_are_sent_before_send_returns(monkeypatch):
    layer = SlowLayer()
    monkeypatch.setattr(stream, "get_channel_layer", lambda: layer)
    stream.send("c", [("turn.started", {}), ("turn.completed", {})], 2)
    assert layer.sent == [(stream.group_name("c"), 1), (stream.group_name("c"), 2)]
    assert layer.messages == 1


def test_the_in_memory_layer_is_handed_nothing_when_no_socket_of_the_conversation_listens(monkeypatch):
    layer = InMemoryChannelLayer()
    monkeypatch.setattr(stream, "get_channel_layer", lambda: layer)
    handed: list[str] = []

    async def main() -> list:
        channel = await layer.new_channel()
        await layer.group_add(stream.group_name("heard"), channel)
        loop = asyncio.get_running_loop()
        real = loop.call_soon_threadsafe

        def handing(callback, *args, **kwargs):
            if callback is stream._send_in_order:
                handed.append(args[1])
            return real(callback, *args, **kwargs)

        monkeypatch.setattr(loop, "call_soon_threadsafe", handing)

        def turn() -> None:
            stream.send("unheard", [("turn.started", {})], 1)
            stream.send("heard", [("turn.started", {}), ("turn.completed", {})], 2)

        await sync_to_async(turn, thread_sensitive=False)()
        return [await asyncio.wait_for(layer.receive(channel), 5)]

    (message,) = asyncio.run(main())
    assert handed == [stream.group_name("heard")]  # the unheard conversation's send never woke the loop
    assert [e["seq"] for e in message["events"]] == [1, 2]


def test_the_in_memory_layer_delivers_the_published_events_without_copying_them(monkeypatch):
    layer = InMemoryChannelLayer()
    monkeypatch.setattr(stream, "get_channel_layer", lambda: layer)

    async def main() -> dict:
        channel = await layer.new_channel()
        await layer.group_add(stream.group_name("c"), channel)
        await sync_to_async(stream.send, thread_sensitive=False)("c", [("turn.completed", {"turn": {"id": "t"}})], 3)
        return await asyncio.wait_for(layer.receive(channel), 5)

    message = asyncio.run(main())
    (event,) = message["events"]
    assert event == {"type": "turn.completed", "seq": 3, "turn": {"id": "t"}}
    assert type(event).__deepcopy__(event, {}) is event  # the layer's deep copy keeps the event as published
