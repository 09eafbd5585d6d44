"""Notify open sockets (CONTRACT §7). The channel layer only notifies; the database is the truth.

Every event carries a per-conversation, strictly increasing ``seq`` taken from the database, so
a client can order events from several processes and notice a gap (then refetch the turns).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import threading
from collections.abc import Iterator
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from . import store

log = logging.getLogger(__name__)


def group_name(conversation_id: str) -> str:
    return f"conversation.{conversation_id}"


def publish(conversation_id: str, event_type: str, payload: dict[str, Any]) -> None:
    """Send one event to the conversation's sockets. Never fails the turn: the DB has the truth."""
    publish_many(conversation_id, [(event_type, payload)])


def publish_many(conversation_id: str, events: list[tuple[str, dict[str, Any]]]) -> None:
    """Send events in this order with consecutive sequence numbers taken at once (no gap, so no client
    refetches). Never fails the turn: the DB has the truth."""
    if not events:
        return
    try:
        last = store.next_seq(conversation_id, len(events))
    except Exception:  # a dead layer must not break a committed turn
        log.exception("could not number %s for %s", [kind for kind, _ in events], conversation_id)
        return
    send(conversation_id, events, last)


def send(conversation_id: str, events: list[tuple[str, dict[str, Any]]], last: int | None) -> None:
    """Send events numbered up to ``last`` (taken by ``store.next_seq``). Never fails the turn.

    A turn running in a worker thread of an event loop (daphne, the bench) hands the events to that loop and
    goes on: it does not wait for the hop back (about a tenth of a message + click when it did). Each
    conversation's sends still go out in the order they were made: the loop runs what threads hand it in
    order, and each send waits for the conversation's previous one (a channel layer over the network may
    suspend in between). With no such loop (a command, a test) it sends and waits.

    The events go out as ONE layer message (``stream.events``, the list in order): a group send per event was
    a quarter of a daphne process's time on Redis (issue 23); the consumer forwards them one frame each. On the
    in-memory layer they are handed to this process's listening sockets directly instead (``listen``), and to
    the layer only when something else joined the group (a channel of its own)."""
    try:
        layer = get_channel_layer()
        if layer is None:
            return
        group = group_name(conversation_id)
        direct = in_memory(layer)
        sockets = _LISTENING.get(group) if direct else None
        if direct and not sockets and not layer.groups.get(group):
            return  # nobody in this process listens (``in_memory``)
        first = None if last is None else last - len(events) + 1
        sent = [Sent({"type": kind, "seq": None if first is None else first + i, **payload})
                for i, (kind, payload) in enumerate(events)]
        if sockets:
            _hand_to_sockets(group, tuple(sockets), sent)
            if not layer.groups.get(group):
                return
        message = {"type": "stream.events", "events": sent}
        loop = _turn_loop()
        if loop is None:
            async_to_sync(_send)(layer, group, message)
        else:
            loop.call_soon_threadsafe(_send_in_order, layer, group, message)
    except Exception:  # a dead layer must not break a committed turn
        log.exception("could not publish %s for %s", [kind for kind, _ in events], conversation_id)


class Sent(dict):
    """An event as published: nothing changes it once it is sent (the sockets forward it, the HTTP answer is
    built from the same turn JSON), so the in-memory layer's deep copy of every message it delivers keeps the
    event itself (a turn's ``turn.completed`` cost about 60 µs to copy on the event loop, per socket). A dict
    still: the Redis layer packs it as one."""

    __slots__ = ("_text",)
    _text: str

    def __deepcopy__(self, memo: dict[int, Any]) -> Sent:
        return self

    def text(self) -> str:
        """The event as its frame's JSON text, written once for all the sockets it is forwarded to."""
        try:
            return self._text
        except AttributeError:
            self._text = text = json.dumps(self)
            return text


def in_memory(layer) -> bool:
    """Channels' in-memory layer (one process, its own ``group_send``): its groups are all in this process, so
    publishing reaches the conversation's sockets here directly (``listen``), and hands nothing to the event loop
    when none of them is open (handing it over woke the loop's thread for each publish, four times per message +
    click, and the turn's thread waited for the GIL behind it: about a sixth of an in-process message + click with
    no socket listening, issue 23). A socket listens before it is accepted (``consumers.connect``); one still
    joining as an event is published may miss it, as it could when the event reached the layer first, and learns
    of it by the gap in ``seq``. Any other layer (Redis: the group lives elsewhere) is always sent to, and its
    sockets hear the conversation through it."""
    return type(layer).group_send is InMemoryChannelLayer.group_send


# --------------------------------------------------------------------------- this process's sockets, directly

# conversation group -> the sockets of this process listening to it (an ordered set: dict keys), on the in-memory
# layer. Written on each socket's event loop; a turn's thread only reads it (``tuple`` of a dict is one step).
_LISTENING: dict[str, dict[Any, None]] = {}


class Listener:
    """What ``listen`` needs of a socket (``consumers.ConversationConsumer``): the event loop it runs on, and
    ``forward``, called on that loop with a publish's events in their order (it must not await: it queues)."""

    loop: asyncio.AbstractEventLoop

    def forward(self, events: list[dict[str, Any]]) -> None:  # pragma: no cover (the protocol)
        raise NotImplementedError


def listen(conversation_id: str, socket: Listener) -> None:
    """On the socket's loop: the conversation's events published in this process reach ``socket.forward`` directly,
    without the channel layer's group send, its per-socket queue and the consumer's dispatch of a layer message
    (a fifth of daphne's event loop per message + click with the page open, issue 23, fourth round)."""
    _LISTENING.setdefault(group_name(conversation_id), {})[socket] = None


def unlisten(conversation_id: str, socket: Listener) -> None:
    group = group_name(conversation_id)
    sockets = _LISTENING.get(group)
    if sockets is not None:
        sockets.pop(socket, None)
        if not sockets:
            _LISTENING.pop(group, None)


def _hand_to_sockets(group: str, sockets: tuple[Listener, ...], events: list[Sent]) -> None:
    """The events to each listening socket, on its loop: at once when this is that loop, else handed to it (one
    hand-off per loop per publish; the loop runs what a thread hands it in order, so a conversation's publishes
    reach each socket in the order they were made). While a thread ``held`` the conversation's events, they join
    them, in the order they were published, whichever thread publishes."""
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    loops = tuple(dict.fromkeys(socket.loop for socket in sockets))
    mine = getattr(_HELD, "groups", None)
    with _HOLD_LOCK:
        batch = _HELD_GROUPS.get(group)
        if batch is None and mine is not None and running is None:
            batch = _HELD_GROUPS[group] = []
            mine.append(group)
        if batch is not None:
            batch.append((loops, events))
            return
        for loop in loops:
            if loop is running:
                _deliver(group, loop, events)
            elif not loop.is_closed():
                loop.call_soon_threadsafe(_deliver, group, loop, events)


# --------------------------------------------------------------------------- a turn's hand-offs, held on its thread

_HELD = threading.local()  # ``groups``: the conversations whose events this thread holds (None: not in ``held``)
_HELD_GROUPS: dict[str, list[tuple[tuple[asyncio.AbstractEventLoop, ...], list[Sent]]]] = {}  # group -> held
_HOLD_LOCK = threading.Lock()


@contextlib.contextmanager
def held() -> Iterator[None]:
    """On a turn's thread (a socket's turn, an HTTP request): the events it publishes to this process's sockets are
    handed to their loops when it ends, or earlier at ``flush_held`` (a message admitted, a model about to be
    asked), in one hand-off per loop instead of one per publish. Each hand-off woke the loop's thread while the
    turn's thread held the GIL, and on two busy cores the two then took turns on one (issue 23, fifth round).
    Nothing is held longer than the stretch of the turn that waits on no model: the page still sees
    ``turn.started`` before a model is asked. Events another thread publishes meanwhile to a conversation held here
    join the held ones, after them, so every socket still gets a conversation's events in the order of their
    ``seq``. Nested, the outer one hands over."""
    if getattr(_HELD, "groups", None) is not None:
        yield
        return
    _HELD.groups = []
    try:
        yield
    finally:
        try:
            flush_held()
        finally:
            _HELD.groups = None


def flush_held() -> None:
    """Hand the events this thread holds (``held``) over now, in the order they were published; nothing when none."""
    mine = getattr(_HELD, "groups", None)
    if not mine:
        return
    with _HOLD_LOCK:  # (handed over under the lock: a publish of the group after it cannot overtake them)
        handed: dict[asyncio.AbstractEventLoop, list[tuple[str, list[Sent]]]] = {}
        for group in mine:
            for loops, events in _HELD_GROUPS.pop(group, ()):
                for loop in loops:
                    handed.setdefault(loop, []).append((group, events))
        mine.clear()
        for loop, batches in handed.items():
            if not loop.is_closed():
                loop.call_soon_threadsafe(_deliver_all, loop, batches)


def _deliver_all(loop: asyncio.AbstractEventLoop, batches: list[tuple[str, list[Sent]]]) -> None:
    for group, events in batches:
        _deliver(group, loop, events)


def _deliver(group: str, loop: asyncio.AbstractEventLoop, events: list[Sent]) -> None:
    """On ``loop``: the sockets listening now (one that left meanwhile is not written to)."""
    for socket in tuple(_LISTENING.get(group, ())):
        if socket.loop is loop:
            try:
                socket.forward(events)
            except Exception:  # one socket's failure is not the others'
                log.exception("could not forward %s to a socket of %s", [e["type"] for e in events], group)


def _turn_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop whose worker thread this is (set by asgiref's ``sync_to_async``), if any."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is None or getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    return loop if loop.is_running() and not loop.is_closed() else None


# each group's last send not yet done, so the next one waits for it (touched on the loop only)
_LAST: dict[str, asyncio.Task] = {}


def _send_in_order(layer, group: str, message: dict[str, Any]) -> None:
    task = asyncio.ensure_future(_send(layer, group, message, after=_LAST.get(group)))
    _LAST[group] = task
    task.add_done_callback(lambda done: _LAST.pop(group) if _LAST.get(group) is done else None)


async def _send(layer, group: str, message: dict[str, Any], after: asyncio.Task | None = None) -> None:
    if after is not None:
        await asyncio.wait([after])
    try:
        await layer.group_send(group, message)
    except Exception:  # sent from the loop: nobody else would hear of it
        log.exception("could not publish %s to %s", [event["type"] for event in message["events"]], group)
