"""The ``approver`` outbox destination: where a submitted claim is sent (SPEC §19).

The approver system speaks HTTP: ``POST <url>`` with the notification and the row's idempotency key in
the ``Idempotency-Key`` header to deliver, ``GET <url>/<key>`` to learn what became of a row whose
outcome is unknown. Its URL is ``TURNFRAME_APPROVER_URL``; unset, the factory configures no real system
and the engine's demo inbox receives the notifications and records them (admin: *Demo approver
notifications*), the no-network default.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import httpx
from django.conf import settings

from registries import IDEMPOTENCY_HEADER, Delivery, OutboxMessage

from .acts import APPROVER as NAME

log = logging.getLogger(__name__)

MAX_ACK_TEXT = 2000


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _body(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return response.text[:MAX_ACK_TEXT]


class HttpApprover:
    """The approver system over HTTP: ``POST <url>`` to deliver, ``GET <url>/<key>`` to reconcile."""

    name = NAME

    def __init__(self, url: str, *, timeout_s: float, client: httpx.Client | None = None):
        self.url = url.rstrip("/")
        self.timeout = httpx.Timeout(timeout_s)
        self.client = client

    def _request(self, method: str, url: str, **kwargs) -> httpx.Response:
        if self.client is not None:
            return self.client.request(method, url, timeout=self.timeout, **kwargs)
        with httpx.Client(timeout=self.timeout, follow_redirects=False) as client:
            return client.request(method, url, **kwargs)

    def send(self, message: OutboxMessage) -> Delivery:
        try:
            response = self._request("POST", self.url, json=message.payload,
                                     headers={IDEMPOTENCY_HEADER: message.idempotency_key})
        except (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout) as exc:
            # no connection was made: the request certainly never left, so it may be sent again
            return Delivery("pending", {"error": "not_sent", "detail": str(exc)[:200], "at": _now()})
        except httpx.TimeoutException as exc:
            # sent, and no answer in time: the approver may or may not have it (I15)
            return Delivery("outcome_unknown", {"error": "timeout", "detail": str(exc)[:200], "at": _now()})
        except httpx.HTTPError as exc:
            return Delivery("outcome_unknown", {"error": "transport", "detail": str(exc)[:200], "at": _now()})
        ack = {"status_code": response.status_code, "body": _body(response), "at": _now()}
        if response.is_success:
            return Delivery("delivered", ack)
        if response.status_code in (408, 425, 429, 503):
            # the approver says it did not take the request: send it again later, same key
            return Delivery("pending", {**ack, "error": "not_accepted"})
        if 400 <= response.status_code < 500:
            return Delivery("failed", {**ack, "error": "refused"})
        # a server error after the request arrived: it may have acted before failing
        return Delivery("outcome_unknown", {**ack, "error": "server_error"})

    def lookup(self, message: OutboxMessage) -> Delivery | None:
        try:
            response = self._request("GET", f"{self.url}/{message.idempotency_key}")
        except httpx.HTTPError as exc:
            log.warning("outbox %s: reconcile lookup failed: %s", message.id, exc)
            return None
        ack = {"status_code": response.status_code, "body": _body(response), "at": _now(), "reconciled": True}
        if response.is_success:
            return Delivery("delivered", ack)
        if response.status_code == 404:
            return Delivery("pending", {**ack, "error": "not_received"})
        return None


def approver() -> HttpApprover | None:
    """The approver system at ``TURNFRAME_APPROVER_URL``; None when it is unset (the demo inbox receives)."""
    url = settings.TURNFRAME["APPROVER_URL"]
    if not url:
        return None
    return HttpApprover(url, timeout_s=settings.TURNFRAME["APPROVER_TIMEOUT_S"])
