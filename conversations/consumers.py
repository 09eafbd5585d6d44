"""The conversation socket (CONTRACT §7): a thin translation between WebSocket frames and the services.

- ``connect`` refuses by accepting, then closing with 4401 (anonymous) or 4404 (missing or another user's
  conversation), so the browser learns why; daphne would turn a refusal before ``accept`` into a
  plain 403. A socket it keeps is accepted once it has joined its groups. The Origin check is ``AllowedHostsOriginValidator`` in ``asgi.py``.
- Every inbound frame is validated with a pydantic model. Bad frames (not JSON, not an object,
  unknown ``type``, invalid fields, over ``MAX_WS_FRAME_BYTES``) get an ``error`` event and the
  socket stays open. A ``ping`` frame (the page's keep-alive, beside CONTRACT §7's two) is answered
  with a ``pong`` event at once.
- A turn runs **outside** the socket handler: it is submitted to a module-level thread pool from a
  detached task that nothing cancels, so a disconnect (or a slow model) never interrupts a commit
  half-way, and the consumer keeps forwarding stream events while the turn runs. Service errors
  (``turn_in_progress``, ``interaction_stale``, ``not_found`` …) go back to the socket that asked.
- Sign-out ends the socket (``conversations.signout``): a signed-in socket also joins its user's group,
  and closes with 4401 when told its credential ended (sign-out, token revocation, password change),
  or when it finds so itself before running a frame.
- The events of a turn are published by the runtime through ``stream.publish``; this consumer only
  forwards them, one frame per event, in order: handed to it directly on the in-memory layer (``stream.listen``,
  ``forward``), as one layer message per publish on Redis (``stream_events``). The channel layer only notifies: the
  database is the truth, and a client that reconnects refetches the conversation.

``seq`` of events sent to one socket only (``error``, ``pong``, and the replay of a repeated
``client_message_id``): the **last conversation seq this socket knows of** (read at connect,
raised by every forwarded event), **not incremented**. Such an event therefore repeats the seq of
the stream event before it; it never consumes a number, so the other sockets of the conversation
see no gap, and a client ordering the shared stream by ``seq`` can ignore socket-only events.
The alternatives were worse: incrementing the conversation counter would show every other socket
a gap (and make them refetch), and a separate per-socket counter would not be comparable with the
stream's seq at all.
"""

from __future__ import annotations

import asyncio
import collections
import logging
from typing import Any, Literal

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from turnframe_web.errors import AppError

from . import stream
from .auth import SocketCredential, credential_live, socket_credential
from .core.text import StorableStr, unstorable_reason
from .models import Conversation
from .pool import LastIdleFirstPool
from .schemas import Edits
from .signout import session_digest, user_group
from .stream import group_name
from .turns import interaction_respond, turn_submit_message

log = logging.getLogger(__name__)

CLOSE_NOT_AUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404

# Turns run here, never on the event loop and never on asgiref's single thread-sensitive thread
# (a model call can take a minute; it must not hold up the other sockets' database calls). A turn
# waiting on its model holds a thread and no database connection (readloop._complete), so the pool is
# wide: with 16 threads, 100 turns waiting 5 s each took 36 s and a fast conversation's turn queued
# behind them for 30 s (issue 11, 5). Connections stay bounded by the database pool (settings). The thread that ran
# the last turn runs the next (its connection warm: conversations.pool).
TURN_EXECUTOR = LastIdleFirstPool(max_workers=max(1, settings.TURNFRAME["TURN_THREADS"]),
                                  thread_name_prefix="turnframe-turn")
# Strong references to the detached turn tasks (the loop keeps only weak ones).
_DETACHED: set[asyncio.Task] = set()


# --------------------------------------------------------------------------- inbound frames


class Frame(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=False)


class MessageFrame(Frame):
    type: Literal["message"]
    # the service enforces TURNFRAME_MAX_MESSAGE_CHARS (message_too_long); the frame cap bounds the rest
    text: StorableStr
    client_message_id: StorableStr | None = Field(default=None, min_length=1, max_length=100)


class RespondFrame(Frame):
    type: Literal["respond"]
    interaction: StorableStr = Field(min_length=1, max_length=64)
    option: StorableStr = Field(min_length=1, max_length=64)
    client_response_id: StorableStr | None = Field(default=None, min_length=1, max_length=100)
    edits: Edits | None = None  # as POST /api/interactions/{id}/respond


class PingFrame(Frame):
    """The page's keep-alive: answered with a ``pong`` event for this socket only (its seq is the last
    one the socket knows, so a page that missed an event learns it here too)."""

    type: Literal["ping"]


FRAMES: dict[str, type[Frame]] = {"message": MessageFrame, "respond": RespondFrame, "ping": PingFrame}


def _field_errors(exc: ValidationError) -> list[dict[str, Any]]:
    return [{"loc": [str(p) for p in e["loc"]], "msg": e["msg"]} for e in exc.errors(include_url=False)]


# --------------------------------------------------------------------------- services, off the loop


def _conversation_seq(user, conversation_id: str) -> int | None:
    """The conversation's current stream seq, or None when it is not this user's (404)."""
    return Conversation.objects.filter(pk=conversation_id, owner=user, hidden_at__isnull=True).values_list(
        "event_seq", flat=True).first()


def _in_turn_pool(func):
    """``func`` on the turn pool; the worker thread still reaches the loop for ``stream.publish``."""
    return database_sync_to_async(func, thread_sensitive=False, executor=TURN_EXECUTOR)


_SIGNED_OUT = object()  # what ``_signed_in_then`` returns in place of a turn


def _signed_in_then(credential: SocketCredential | None, func, /, **kwargs):
    """On the turn's thread: the socket's credential read now (``auth.credential_live``), then the turn;
    ``_SIGNED_OUT``, and no turn, once the credential ended. One hop to the thread for both."""
    if credential is None or not credential_live(credential):
        return _SIGNED_OUT
    with stream.held():  # the turn's events handed to the loop in a few hand-offs, not one per publish
        return func(**kwargs)


_TURN = _in_turn_pool(_signed_in_then)  # made once, not per frame


def _admitted(loop: asyncio.AbstractEventLoop, place: asyncio.Future) -> None:
    """On the turn's thread, its message admitted: the events published so far (``turn.started``) are handed over
    first, so the next frame's turn, admitted now, publishes after them."""
    stream.flush_held()
    loop.call_soon_threadsafe(_settle, place)


def _settle(place: asyncio.Future) -> None:
    if not place.done():
        place.set_result(None)


async def _after(ahead: asyncio.Future | None, place: asyncio.Future, run) -> None:
    """Run a frame's turn once the frame ahead of it holds its place; its own place is held at the latest when
    the turn is done (or refused: an error frees the next one too)."""
    try:
        if ahead is not None:
            await asyncio.shield(ahead)
        await run
    finally:
        _settle(place)


def detach(coro) -> asyncio.Task:
    """Run ``coro`` as a task that outlives the socket; the consumer never awaits or cancels it."""
    task = asyncio.get_running_loop().create_task(coro)
    _DETACHED.add(task)
    task.add_done_callback(_DETACHED.discard)
    return task


async def drain(timeout: float = 30) -> None:
    """Wait for the detached turns of this loop (tests, graceful shutdown)."""
    loop = asyncio.get_running_loop()
    pending = [t for t in _DETACHED if t.get_loop() is loop]
    if pending:
        await asyncio.wait(pending, timeout=timeout)


# --------------------------------------------------------------------------- the consumer


class ConversationConsumer(AsyncJsonWebsocketConsumer):
    """``/ws/conversations/<id>/``: stream a conversation's events; accept messages and clicks."""

    # this socket's stream events not yet sent, in order (``forward``), and whether it may be sent to yet
    outbox: collections.deque
    accepted = False
    listening = False  # in ``stream.listen`` (the in-memory layer)
    _drainer: asyncio.Task | None = None

    async def __call__(self, scope, receive, send) -> None:
        self.loop = asyncio.get_running_loop()
        self.outbox = collections.deque()
        try:
            await super().__call__(scope, receive, send)
        finally:  # however the socket ended (its disconnect, or its task cancelled): it hears nothing more
            self._unlisten()

    async def connect(self) -> None:
        self.conversation_id: str = self.scope["url_route"]["kwargs"]["conversation_id"]
        self.user = None
        self.credential: SocketCredential | None = None
        self.admitted: asyncio.Future | None = None  # the last message or click frame's place (arrival order)
        self.last_seq = 0
        self.open = False
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(CLOSE_NOT_AUTHENTICATED)
            return
        seq = None
        if unstorable_reason(self.conversation_id) is None:  # an id no database stores names no conversation
            seq = await database_sync_to_async(_conversation_seq)(user, self.conversation_id)
        if seq is None:  # another user's conversation is indistinguishable from a missing one
            await self.refuse(CLOSE_NOT_FOUND)
            return
        groups = [user_group(user.pk)]
        if stream.in_memory(self.channel_layer):  # this process's publishes reach it directly (``forward``)
            stream.listen(self.conversation_id, self)
            self.listening = True
        else:  # through the layer (Redis: other processes publish too)
            groups.insert(0, group_name(self.conversation_id))
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups.append(group)  # discarded by websocket_disconnect
        self.user, self.last_seq, self.open = user, seq, True
        self.credential = socket_credential(self.scope, user)
        # accepted once it hears the conversation: the events of a frame sent as soon as the socket is open (another
        # socket's too) all reach it; a socket accepted first could miss the first ones of a turn that beat its join
        await self.accept()
        self.accepted = True
        if self.outbox:  # published while it was being accepted: kept for it, sent now
            self._drain_soon()

    async def refuse(self, code: int) -> None:
        """Accept, then close with ``code``: the browser learns why (a refusal before accepting is daphne's 403)."""
        await self.accept()
        await self.close(code=code)

    async def disconnect(self, code) -> None:
        self.open = False
        self._unlisten()

    def _unlisten(self) -> None:
        if self.listening:
            self.listening = False
            stream.unlisten(self.conversation_id, self)

    async def dispatch(self, message) -> None:
        """Channels' own dispatch without its ``close_old_connections`` hop before every message (a thread hop
        on each stream event a socket forwards: a fifth of the loop's time per message + click, issue 23).
        This consumer touches the database only through ``database_sync_to_async`` (the turn pool's too),
        which closes the old connections of its thread before and after each call."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    # ---- inbound

    async def receive(self, text_data=None, bytes_data=None, **kwargs) -> None:
        if not self.open:  # a frame that raced the 4401/4404 close
            return
        if text_data is None:
            await self.send_error("bad_frame", "Frames are JSON text, not binary.")
            return
        limit = settings.TURNFRAME["MAX_WS_FRAME_BYTES"]
        if len(text_data) > limit or len(text_data.encode("utf-8", "surrogatepass")) > limit:
            await self.send_error("frame_too_large", f"A frame may be at most {limit} bytes.")
            return
        try:
            content = await self.decode_json(text_data)
        except (ValueError, RecursionError):
            await self.send_error("bad_json", "The frame is not valid JSON.")
            return
        await self.receive_json(content)

    async def receive_json(self, content, **kwargs) -> None:
        if not isinstance(content, dict):
            await self.send_error("invalid_request", "A frame is a JSON object with a \"type\".")
            return
        kind = content.get("type")
        model = FRAMES.get(kind) if isinstance(kind, str) else None
        if model is None:
            await self.send_error("unknown_type", f"Unknown frame type; expected one of: {', '.join(FRAMES)}.")
            return
        try:
            frame = model.model_validate(content)
        except ValidationError as exc:
            await self.send_error("invalid_request", "The frame has invalid fields.", errors=_field_errors(exc))
            return
        if isinstance(frame, PingFrame):
            if await self.still_signed_in():
                await self.send_private({"type": "pong"})
        elif isinstance(frame, (MessageFrame, RespondFrame)):
            # admitted in arrival order: each waits until the socket's previous message or click holds its place
            # (a message admitted or queued, a click answered) before it is handed to a turn thread, which reads
            # the credential first (``_signed_in_then``)
            ahead, self.admitted = self.admitted, asyncio.get_running_loop().create_future()
            run = self.run_message if isinstance(frame, MessageFrame) else self.run_respond
            detach(_after(ahead, self.admitted, run(frame, self.admitted)))

    # ---- sign-out ends the socket

    async def still_signed_in(self) -> bool:
        """Re-read the credential before a ping; close with 4401 (and answer nothing) once it ended.

        A message or click frame has the same check on its turn's thread, just before its turn
        (``_signed_in_then``): per frame, not cached, since a cache of any length is a window in which a
        frame sent after sign-out still runs a turn, which is what this check exists to shut. It costs one
        statement: a token's check is the indexed read every API request makes; a session's reads the
        session row with the user it names (``auth._session_with_user``). It runs in the socket's frame
        order, after the frame ahead holds its place and before this one's turn is admitted, so a frame read
        after the credential ended is never admitted, whether or not the ``auth.recheck`` notice came first
        (it is read later than the frame, never earlier)."""
        if self.credential is not None and await database_sync_to_async(credential_live)(self.credential):
            return True
        await self.close_signed_out()
        return False

    async def auth_recheck(self, message: dict[str, Any]) -> None:
        """``signout.sockets_recheck``: something ended a credential of this user; is it this socket's?"""
        if not self.open or self.credential is None:
            return
        ended = message.get("ended_session")
        if ended and self.credential.session_key and ended == session_digest(self.credential.session_key):
            await self.close_signed_out()  # the session is being deleted: no need to look
        elif not await database_sync_to_async(credential_live)(self.credential):
            await self.close_signed_out()

    async def close_signed_out(self) -> None:
        if not self.open:
            return
        self.open = False  # frames that race the close are dropped (``receive``)
        await self.close(code=CLOSE_NOT_AUTHENTICATED)

    # ---- the turns (detached: they finish even if this socket goes away)

    async def run_message(self, frame: MessageFrame, admitted: asyncio.Future) -> None:
        context = {"client_message_id": frame.client_message_id} if frame.client_message_id else {}
        loop = asyncio.get_running_loop()
        try:
            outcome = await _TURN(
                self.credential, turn_submit_message,
                user=self.user, conversation_id=self.conversation_id, text=frame.text,
                client_message_id=frame.client_message_id,
                on_admitted=lambda: _admitted(loop, admitted))
        except AppError as exc:
            await self.send_error(exc.code, exc.message, **context, **_extra(exc))
            return
        except Exception:
            log.exception("message turn on %s failed", self.conversation_id)
            await self.send_error("internal_error", "The message could not be handled.", **context)
            return
        if outcome is _SIGNED_OUT:
            await self.close_signed_out()
            return
        if outcome.replayed:  # nothing re-ran and nothing was published: tell the sender what happened
            from .selectors import turn_json

            turn = await database_sync_to_async(turn_json)(outcome.turn, replayed=True)
            if turn["status"] in ("queued", "running"):  # still waiting or running: as the stream announced it
                event = "turn.queued" if turn["status"] == "queued" else "turn.started"
                await self.send_private({"type": event, "turn": turn["id"], "text": outcome.turn.text,
                                         "replayed": True})
                return
            event = "turn.failed" if turn["status"] == "failed" else "turn.completed"
            await self.send_private({"type": event, "turn": turn})

    async def run_respond(self, frame: RespondFrame, admitted: asyncio.Future) -> None:
        context: dict[str, Any] = {"interaction": frame.interaction, "option": frame.option}
        if frame.client_response_id:
            context["client_response_id"] = frame.client_response_id
        try:
            outcome = await _TURN(
                self.credential, interaction_respond,
                user=self.user, interaction_id=frame.interaction, option=frame.option,
                client_response_id=frame.client_response_id, edits=frame.edits)
        except AppError as exc:
            await self.send_error(exc.code, exc.message, **context, **_extra(exc))
            return
        except Exception:
            log.exception("click on %s failed", frame.interaction)
            await self.send_error("internal_error", "The answer could not be handled.", **context)
            return
        if outcome is _SIGNED_OUT:
            await self.close_signed_out()

    # ---- outbound

    def forward(self, events: list[stream.Sent]) -> None:
        """On this socket's loop, the events of one ``stream.publish_many`` published in this process (``stream.listen``):
        queued after the ones not yet sent, each sent as it is, one frame each, in their order (``_drain``). It
        never awaits, so the publishes of a conversation reach the socket in the order the loop was handed them."""
        self.outbox.extend(events)
        if self.accepted:
            self._drain_soon()

    def _drain_soon(self) -> None:
        if self._drainer is None:
            self._drainer = self.loop.create_task(self._drain())

    async def _drain(self) -> None:
        """Send the queued events in order, one frame each (one task while events keep coming, not one per event).
        A socket closed meanwhile (signed out, gone) is sent nothing more: the database has the turns."""
        try:
            while self.outbox:
                event = self.outbox.popleft()
                if not self.open:
                    self.outbox.clear()
                    return
                seq = event.get("seq")
                if isinstance(seq, int) and seq > self.last_seq:
                    self.last_seq = seq
                await self.base_send({"type": "websocket.send", "text": event.text()})
        except Exception:  # the socket went away: the database has the turns, a page that reconnects refetches
            log.info("socket on %s closed while events were sent to it", self.conversation_id, exc_info=True)
            self.outbox.clear()
        finally:
            self._drainer = None

    async def stream_events(self, message: dict[str, Any]) -> None:
        """The events of one ``stream.publish_many`` as one layer message (Redis): forward each as it is, one frame
        each, in their order."""
        for event in message["events"]:
            seq = event.get("seq")
            if isinstance(seq, int) and seq > self.last_seq:
                self.last_seq = seq
            await self.send_json(event)

    async def stream_event(self, message: dict[str, Any]) -> None:
        """One event in the shape published before issue 23 (a process not yet restarted may still send it)."""
        await self.stream_events({"events": [message["event"]]})

    async def send_error(self, code: str, message: str, **fields: Any) -> None:
        await self.send_private({"type": "error", "code": code, "message": message, **fields})

    async def send_private(self, event: dict[str, Any]) -> None:
        """An event for this socket only; its seq is the last one this socket knows (see module doc)."""
        if not self.open:
            return
        try:
            await self.send_json({**event, "seq": self.last_seq})
        except Exception:  # the socket went away while the turn ran: the database has the outcome
            log.info("socket on %s closed before its %s event", self.conversation_id, event.get("type"))


def _extra(exc: AppError) -> dict[str, Any]:
    """The error's fields beside code and message, as the HTTP body has them (``errors``, ``reason``,
    ``ask_again`` …); empty ``errors`` are left out."""
    extra = dict(exc.extra) if isinstance(exc.extra, dict) else {}
    if not extra.get("errors"):
        extra.pop("errors", None)
    return {k: v for k, v in extra.items() if k not in ("type", "code", "message", "seq")}
