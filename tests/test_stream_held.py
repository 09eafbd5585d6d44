"""A turn's events are handed to the socket's loop a few at a time, not one hand-off per publish (issue 23, fifth
round, ``stream.held``): still every event, in ``seq`` order, to every socket, whichever thread publishes; and what
a turn published before it waits on a model reaches the page while the model is asked."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from channels.layers import InMemoryChannelLayer

from conversations import stream
from tests.test_consumers import close, events_until, remove_first_line_script, socket, world  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def in_memory(settings):
    if not settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("InMemoryChannelLayer"):
        pytest.skip("the in-memory layer's direct delivery (the Redis lane's sockets hear the layer)")


def _counting_hand_offs(monkeypatch) -> list[str]:
    """The names of the functions threads hand to a loop that delivers events (``_deliver``, ``_deliver_all``)."""
    handed: list[str] = []
    original = asyncio.BaseEventLoop.call_soon_threadsafe

    def counting(self, callback, *args, **kwargs):
        if callback in (stream._deliver, stream._deliver_all):
            handed.append(callback.__name__)
        return original(self, callback, *args, **kwargs)

    monkeypatch.setattr(asyncio.BaseEventLoop, "call_soon_threadsafe", counting)
    return handed


async def test_a_socket_turn_hands_its_events_over_in_two_hand_offs(world, script, monkeypatch, in_memory):  # noqa: F811
    """Four publishes (turn.started, read_round, interaction.pending, turn.completed) were four hand-offs; now the
    admission's (turn.started, before the next frame may be admitted) and the turn's end."""
    handed = _counting_hand_offs(monkeypatch)
    conversation, berlin = world["alice_conversation"], world["berlin"]
    text = remove_first_line_script(script, berlin.id)
    communicator, _ = await socket(conversation.id, cookie=world["alice_cookie"])
    await communicator.send_json_to({"type": "message", "text": text, "client_message_id": "h-1"})
    events = await events_until(communicator, "turn.completed")
    assert [e["type"] for e in events] == ["turn.started", "read_round", "interaction.pending", "turn.completed"]
    assert [e["seq"] for e in events] == sorted(e["seq"] for e in events)
    assert len(handed) == 2
    await close(communicator)


async def test_what_a_turn_published_reaches_the_page_while_its_model_is_asked(world, script, in_memory):  # noqa: F811
    """The read round is handed over before the (slow) model is asked for the plan, not when the turn ends."""
    conversation, berlin = world["alice_conversation"], world["berlin"]
    text = script("look at Berlin, then think", {"reads": [{"tool": "get_case", "args": {"case": berlin.id}}]},
                  {"delay_s": 1.5, "plan": {"acts": [], "answers": [{"question": "hello", "text": "Hello!"}]}})
    communicator, _ = await socket(conversation.id, cookie=world["alice_cookie"])
    began = time.monotonic()
    await communicator.send_json_to({"type": "message", "text": text, "client_message_id": "h-2"})
    seen = await events_until(communicator, "read_round", timeout=5)
    assert time.monotonic() - began < 1.2  # not held until the model answered
    assert [e["type"] for e in seen] == ["turn.started", "read_round"]
    assert (await events_until(communicator, "turn.completed"))[-1]["type"] == "turn.completed"
    await close(communicator)


def test_another_thread_s_events_of_a_held_conversation_follow_the_held_ones(monkeypatch):
    """A thread holds seq 1; another publishes seq 2 of the same conversation meanwhile; the loop gets 1, then 2, then
    the holder's 3: never 2 before 1 (a page would see a gap and refetch, the seq would not increase)."""
    monkeypatch.setattr(stream, "get_channel_layer", InMemoryChannelLayer)
    got: list[int] = []

    class Listener:
        def forward(self, events):
            got.extend(e["seq"] for e in events)

    def holder(published: threading.Event, other_done: threading.Event) -> None:
        with stream.held():
            stream.send("cnv_h", [("turn.started", {})], 1)
            published.set()
            assert other_done.wait(5)
            stream.send("cnv_h", [("read_round", {})], 3)

    def other(published: threading.Event, other_done: threading.Event) -> None:
        assert published.wait(5)
        stream.send("cnv_h", [("turn.queued", {})], 2)
        other_done.set()

    async def main() -> None:
        listener = Listener()
        listener.loop = asyncio.get_running_loop()
        stream.listen("cnv_h", listener)
        try:
            published, other_done = threading.Event(), threading.Event()
            await asyncio.gather(asyncio.to_thread(holder, published, other_done),
                                 asyncio.to_thread(other, published, other_done))
            await asyncio.sleep(0.01)
            assert got == [1, 2, 3]
            assert not stream._HELD_GROUPS  # nothing left held
        finally:
            stream.unlisten("cnv_h", listener)

    asyncio.run(main())


def test_held_events_are_handed_over_when_the_turn_fails(monkeypatch):
    """A turn that raises still hands over what it published (a ``turn.failed`` among them)."""
    monkeypatch.setattr(stream, "get_channel_layer", InMemoryChannelLayer)
    got: list[int] = []

    class Listener:
        def forward(self, events):
            got.extend(e["seq"] for e in events)

    def failing() -> None:
        with stream.held():
            stream.send("cnv_f", [("turn.started", {}), ("turn.failed", {})], 2)
            raise RuntimeError("the turn failed")

    async def main() -> None:
        listener = Listener()
        listener.loop = asyncio.get_running_loop()
        stream.listen("cnv_f", listener)
        try:
            with pytest.raises(RuntimeError):
                await asyncio.to_thread(failing)
            await asyncio.sleep(0.01)
        finally:
            stream.unlisten("cnv_f", listener)

    asyncio.run(main())
    assert got == [1, 2]
