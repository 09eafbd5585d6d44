"""The clients of a load run: one message + click over HTTP (``httpx``), the WebSocket (``websockets``), or as the
chat page does it (the message on the socket, the click over HTTP with the session and its CSRF header)."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from typing import Any

from .fixtures import FAST, TIMEOUT_S, Lane


class TurnFailed(Exception):
    pass


async def http_pair(client, lane: Lane, template: str = FAST) -> float:
    """One message + click over HTTP; its latency in ms."""
    started = time.perf_counter()
    r = await client.post(f"/api/conversations/{lane.conversation}/messages", json={"text": lane.text(template)})
    if r.status_code != 200:
        raise TurnFailed(f"message: {r.status_code} {r.text[:200]}")
    cards = r.json().get("interactions") or []
    if not cards:
        raise TurnFailed(f"no card: {r.json().get('notices')}")
    r = await client.post(f"/api/interactions/{cards[0]['id']}/respond", json={"option": "confirm"})
    if r.status_code != 200 or not r.json()["turn"].get("events"):
        raise TurnFailed(f"click: {r.status_code} {r.text[:200]}")
    return (time.perf_counter() - started) * 1000


async def http_message(client, lane: Lane, template: str) -> float:
    """One message turn (ending with its card) over HTTP; its latency in ms."""
    started = time.perf_counter()
    r = await client.post(f"/api/conversations/{lane.conversation}/messages", json={"text": lane.text(template)})
    if r.status_code != 200 or not r.json().get("interactions"):
        raise TurnFailed(f"message: {r.status_code} {r.text[:200]}")
    return (time.perf_counter() - started) * 1000


def http_client(base: str, lane: Lane):
    import httpx

    return httpx.AsyncClient(base_url=f"http://{base}", headers={"Authorization": f"Bearer {lane.token}"},
                             timeout=TIMEOUT_S)


async def ws_open(base: str, lane: Lane):
    from websockets.asyncio.client import connect

    return await connect(f"ws://{base}/ws/conversations/{lane.conversation}/", open_timeout=TIMEOUT_S,
                         additional_headers={"Cookie": f"sessionid={lane.session}", "Origin": f"http://{base}"},
                         max_size=2**22)


async def ws_until_done(ws) -> dict[str, Any]:
    """Read events until this conversation's turn completes; the completed turn."""
    card, seen = None, []
    while True:
        try:
            event = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT_S))
        except TimeoutError:
            raise TurnFailed(f"no turn.completed within {TIMEOUT_S:g} s; saw {seen}") from None
        kind = event.get("type")
        seen.append(kind)
        if kind == "error" or kind == "turn.failed":
            raise TurnFailed(f"{kind}: {json.dumps(event)[:300]}")
        if kind == "interaction.pending":
            card = event["interaction"]["id"]
        if kind == "turn.completed":
            turn = event["turn"]
            if card and not turn.get("interactions"):
                turn["interactions"] = [{"id": card}]
            return turn


async def ws_message(ws, lane: Lane, template: str = FAST) -> tuple[float, str]:
    started = time.perf_counter()
    await ws.send(json.dumps({"type": "message", "text": lane.text(template), "client_message_id": uuid.uuid4().hex}))
    turn = await ws_until_done(ws)
    cards = turn.get("interactions") or []
    if not cards:
        raise TurnFailed(f"no card: {turn.get('notices')}")
    return (time.perf_counter() - started) * 1000, cards[0]["id"]


async def ws_pair(ws, lane: Lane, template: str = FAST) -> float:
    """One message + click over the WebSocket; its latency in ms."""
    started = time.perf_counter()
    _, card = await ws_message(ws, lane, template)
    await ws.send(json.dumps({"type": "respond", "interaction": card, "option": "confirm"}))
    turn = await ws_until_done(ws)
    if not turn.get("events"):
        raise TurnFailed(f"nothing committed: {turn.get('notices')}")
    return (time.perf_counter() - started) * 1000



class PageConn:
    """What the chat page holds: its socket and, for the click, HTTP with the session cookie and the CSRF header."""

    def __init__(self, ws, http) -> None:
        self.ws, self.http = ws, http

    async def close(self) -> None:
        await self.ws.close()
        await self.http.aclose()


async def page_open(base: str, lane: Lane) -> PageConn:
    import httpx
    from django.middleware.csrf import _get_new_csrf_string

    csrf = _get_new_csrf_string()
    http = httpx.AsyncClient(base_url=f"http://{base}", timeout=TIMEOUT_S, headers={
        "Cookie": f"sessionid={lane.session}; csrftoken={csrf}", "X-CSRFToken": csrf})
    return PageConn(await ws_open(base, lane), http)


async def page_pair(conn: PageConn, lane: Lane, template: str = FAST) -> float:
    """One message on the socket + the click over HTTP, as the page sends them; its latency in ms (up to the
    click's answer, which the page shows). The click's own events on the socket are read before the next
    message, outside the figure."""
    started = time.perf_counter()
    _, card = await ws_message(conn.ws, lane, template)
    r = await conn.http.post(f"/api/interactions/{card}/respond", json={"option": "confirm",
                                                                        "client_response_id": uuid.uuid4().hex})
    if r.status_code != 200 or not r.json()["turn"].get("events"):
        raise TurnFailed(f"click: {r.status_code} {r.text[:200]}")
    elapsed = (time.perf_counter() - started) * 1000
    click = r.json()["turn"]["id"]
    while (await ws_until_done(conn.ws)).get("id") != click:
        pass
    return elapsed
