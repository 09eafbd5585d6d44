"""The provider interface (SPEC §7.1-7.2).

A provider is built per turn (``build_provider``) and answers ``complete(request) -> text``.
Every failure it can meet (timeout, rate limit, 5xx, transport error, refusal) is raised as
``ProviderFailure`` with a stable ``kind``; the runtime retries once, falls back, or fails closed.
"""

from __future__ import annotations

from typing import Protocol

from conversations.core.context import ModelRequest


class ProviderFailure(Exception):
    KINDS = ("timeout", "unavailable", "rate_limited", "server_error", "bad_request", "malformed")

    def __init__(self, kind: str, message: str = "", *, status: int | None = None):
        super().__init__(message or kind)
        self.kind = kind
        self.status = status  # the HTTP status the endpoint answered, when it answered one


class Provider(Protocol):
    name: str

    def complete(self, request: ModelRequest) -> str:
        """Return the model's answer text for one call, or raise ProviderFailure."""
