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


def next_seq(conversation_id: str) -> int | None:
    """Take the conversation's next stream sequence number in one statement (SQLite >= 3.35, PostgreSQL)."""
    table = connection.ops.quote_name(Conversation._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET event_seq = event_seq + 1 WHERE id = %s RETURNING event_seq",
                       [conversation_id])
        row = cursor.fetchone()
    return row[0] if row else None


def publish(conversation_id: str, event_type: str, payload: dict[str, Any]) -> None:
    """Send one event to the conversation's sockets. Never fails the turn: the DB has the truth."""
    try:
        seq = next_seq(conversation_id)
        layer = get_channel_layer()
        if layer is None:
            return
        event = {"type": event_type, "seq": seq, **payload}
        async_to_sync(layer.group_send)(group_name(conversation_id), {"type": "stream.event", "event": event})
    except Exception:  # a dead layer must not break a committed turn
        log.exception("could not publish %s for %s", event_type, conversation_id)
