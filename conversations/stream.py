"""Notify open sockets (CONTRACT §7). The channel layer only notifies; the database is the truth.

Every event carries a per-conversation, strictly increasing ``seq`` taken from the database, so
a client can order events from several processes and notice a gap (then refetch the turns).
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models import F

from .models import Conversation

log = logging.getLogger(__name__)


def group_name(conversation_id: str) -> str:
    return f"conversation.{conversation_id}"


def publish(conversation_id: str, event_type: str, payload: dict[str, Any]) -> None:
    """Send one event to the conversation's sockets. Never fails the turn: the DB has the truth."""
    try:
        with transaction.atomic():
            Conversation.objects.filter(pk=conversation_id).update(event_seq=F("event_seq") + 1)
            seq = Conversation.objects.filter(pk=conversation_id).values_list("event_seq", flat=True).first()
        layer = get_channel_layer()
        if layer is None:
            return
        event = {"type": event_type, "seq": seq, **payload}
        async_to_sync(layer.group_send)(group_name(conversation_id), {"type": "stream.event", "event": event})
    except Exception:  # a dead layer must not break a committed turn
        log.exception("could not publish %s for %s", event_type, conversation_id)
