"""Notify open sockets (CONTRACT §7). The channel layer only notifies; the database is the truth.

Every event carries a per-conversation, strictly increasing ``seq`` taken from the database, so
a client can order events from several processes and notice a gap (then refetch the turns).
"""

from __future__ import annotations

import asyncio
import logging
import os
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
    a quarter of a daphne process's time on Redis (issue 23); the consumer forwards them one frame each."""
    try:
        layer = get_channel_layer()
        if layer is None:
            return
        group = group_name(conversation_id)
        if _no_one_listens(layer, group):
            return
        first = None if last is None else last - len(events) + 1
        message = {"type": "stream.events", "events": [_Sent({"type": kind, "seq": None if first is None else first + i,
                                                               **payload}) for i, (kind, payload) in enumerate(events)]}
        loop = _turn_loop()
        if loop is None:
            async_to_sync(_send)(layer, group, message)
        else:
            loop.call_soon_threadsafe(_send_in_order, layer, group, message)
    except Exception:  # a dead layer must not break a committed turn
        log.exception("could not publish %s for %s", [kind for kind, _ in events], conversation_id)


class _Sent(dict):
    """An event as published: nothing changes it once it is sent (the sockets forward it, the HTTP answer is
    built from the same turn JSON), so the in-memory layer's deep copy of every message it delivers keeps the
    event itself (a turn's ``turn.completed`` cost about 60 µs to copy on the event loop, per socket). A dict
    still: the Redis layer packs it as one."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Sent:
        return self


def _no_one_listens(layer, group: str) -> bool:
    """The in-memory layer (one process, its own ``group_send``) sees its groups: when none of the conversation's
    sockets is open in it, the send would deliver nothing, so nothing is handed to the loop. (Handing it over woke
    the loop's thread for each publish, four times per message + click, and the turn's thread waited for the GIL
    behind it: about a sixth of an in-process message + click with no socket listening, issue 23.) A socket joins
    its groups before it is accepted (``consumers.connect``); one still joining as an event is published may miss
    it, as it could before when the event reached the layer first, and learns of it by the gap in ``seq``.
    Any other layer (Redis: the group lives elsewhere) is always sent to."""
    if type(layer).group_send is not InMemoryChannelLayer.group_send:
        return False
    return not layer.groups.get(group)


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
