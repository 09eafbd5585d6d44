"""Notify open sockets (CONTRACT §7). The channel layer only notifies; the database is the truth.

Every event carries a per-conversation, strictly increasing ``seq`` taken from the database, so
a client can order events from several processes and notice a gap (then refetch the turns).
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection

from .models import Conversation

log = logging.getLogger(__name__)


def group_name(conversation_id: str) -> str:
    return f"conversation.{conversation_id}"


def next_seq(conversation_id: str, count: int = 1) -> int | None:
    """Take the conversation's next ``count`` stream sequence numbers in one statement (SQLite >= 3.35,
    PostgreSQL); returns the last of them."""
    table = connection.ops.quote_name(Conversation._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET event_seq = event_seq + %s WHERE id = %s RETURNING event_seq",
                       [count, conversation_id])
        row = cursor.fetchone()
    return row[0] if row else None


def publish(conversation_id: str, event_type: str, payload: dict[str, Any]) -> None:
    """Send one event to the conversation's sockets. Never fails the turn: the DB has the truth."""
    publish_many(conversation_id, [(event_type, payload)])


def publish_many(conversation_id: str, events: list[tuple[str, dict[str, Any]]]) -> None:
    """Send events in this order with consecutive sequence numbers taken at once (no gap, so no client
    refetches). Never fails the turn: the DB has the truth."""
    if not events:
        return
    try:
        last = next_seq(conversation_id, len(events))
    except Exception:  # a dead layer must not break a committed turn
        log.exception("could not number %s for %s", [kind for kind, _ in events], conversation_id)
        return
    send(conversation_id, events, last)


def send(conversation_id: str, events: list[tuple[str, dict[str, Any]]], last: int | None) -> None:
    """Send events numbered up to ``last`` (taken by ``next_seq``). Never fails the turn."""
    try:
        layer = get_channel_layer()
        if layer is None:
            return
        first = None if last is None else last - len(events) + 1
        messages = [{"type": "stream.event", "event": {"type": kind, "seq": None if first is None else first + i,
                                                       **payload}} for i, (kind, payload) in enumerate(events)]
        async_to_sync(_send)(layer, group_name(conversation_id), messages)
    except Exception:  # a dead layer must not break a committed turn
        log.exception("could not publish %s for %s", [kind for kind, _ in events], conversation_id)


async def _send(layer, group: str, messages: list[dict[str, Any]]) -> None:
    for message in messages:
        await layer.group_send(group, message)
