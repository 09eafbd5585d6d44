"""Sign-out ends the socket (issue 20, 6): signing out, revoking a token and changing a password close
the open sockets whose credential they ended, with 4401, on every process.

Each signed-in socket joins its user's group (``user.<id>``) beside its conversation's. What ends a
credential sends that group one ``auth.recheck`` notice once its transaction commits; the channel
layer carries it to every process (``channels_redis`` when ``REDIS_URL`` is set). The notice only
says "look again": each socket reads its own credential from the database (``auth.credential_live``)
and closes if it no longer holds, so signing out on one device closes that device's sockets and leaves
the user's other sessions open. Sign-out is the one case where the notice has to say more: Django sends
``user_logged_out`` *before* it deletes the session, so the notice names the ended session (by a hash
of its key: session keys do not travel through Redis) and the sockets on it close without looking.

The notice is how the socket learns soon; it is not what makes sign-out safe. A socket re-checks its
credential before every frame it runs (``ConversationConsumer.receive_json``), so a frame that arrives
after the credential ended is never run, whether the notice is late, lost, or the layer is down.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Iterable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.dispatch import receiver

log = logging.getLogger(__name__)

NOTICE_TIMEOUT_S = 5  # a layer that does not take the notice in time must not hold up the sign-out


def user_group(user_id) -> str:
    return f"user.{user_id}"


def session_digest(session_key: str) -> str:
    return hashlib.sha256(session_key.encode()).hexdigest()


def sockets_recheck(*, user_ids: Iterable, ended_session: str | None = None) -> None:
    """Once the current transaction commits (at once outside one), tell every open socket of these users,
    on every process, to re-check its credential; the sockets on ``ended_session`` close outright.
    Never fails the caller: the per-frame check holds even when the notice is lost."""
    groups = sorted({user_group(user_id) for user_id in user_ids})
    if not groups:
        return
    message = {"type": "auth.recheck", "ended_session": session_digest(ended_session) if ended_session else None}
    transaction.on_commit(lambda: _notify(groups, message), robust=True)


def _notify(groups: list[str], message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(_send)(layer, groups, message)
    except Exception:  # a dead layer must not break a sign-out; the frames are still refused
        log.exception("could not tell the sockets of %s to re-check their credential", groups)


async def _send(layer, groups: list[str], message: dict) -> None:
    async with asyncio.timeout(NOTICE_TIMEOUT_S):
        for group in groups:
            await layer.group_send(group, message)


@receiver(user_logged_out, dispatch_uid="conversations.signout")
def _on_user_logged_out(sender, request, user, **kwargs) -> None:
    """Every sign-out through ``django.contrib.auth.logout``: ``/logout/``, ``POST /api/auth/logout``, the
    admin's."""
    if user is None or user.pk is None:
        return
    session = getattr(request, "session", None)
    sockets_recheck(user_ids=[user.pk], ended_session=getattr(session, "session_key", None))
