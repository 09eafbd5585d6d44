"""The failure policy shared by the SDK adapters (SPEC §7.2).

The SDKs' own retries are disabled (``max_retries=0``); instead one call is retried once on a
transient failure (timeout, connection error, 429, 5xx) and then raised as ``ProviderFailure``
with a stable kind. Messages are scrubbed of the API key, and the SDK exception is not chained,
so neither the key nor request headers reach a log or a traceback.

The ``openai`` and ``anthropic`` SDKs share one exception layout (``APITimeoutError`` ⊂
``APIConnectionError``, ``APIStatusError`` with ``status_code``, ``APIResponseValidationError``),
so one classifier serves both, given the SDK module.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from types import ModuleType

from conversations.providers.base import ProviderFailure

logger = logging.getLogger("turnframe.providers")

RETRYABLE = frozenset({"timeout", "unavailable", "rate_limited", "server_error"})
MAX_MESSAGE_CHARS = 500
REDACTED = "[redacted]"


def failure_kind(exc: Exception, sdk: ModuleType) -> str:
    """Map an SDK exception to a ``ProviderFailure`` kind."""
    if isinstance(exc, sdk.APITimeoutError):
        return "timeout"
    if isinstance(exc, sdk.APIConnectionError):
        return "unavailable"
    if isinstance(exc, sdk.APIResponseValidationError):
        return "malformed"
    if isinstance(exc, sdk.APIStatusError):
        return status_kind(exc.status_code)
    return "unavailable"


def status_kind(status: int) -> str:
    if status == 429:
        return "rate_limited"
    if status == 408:
        return "timeout"
    if status >= 500:
        return "server_error"
    return "bad_request"


def scrub(text: str, secret: str) -> str:
    """``text`` without the secret, cut to a length fit for a log line."""
    if secret:
        text = text.replace(secret, REDACTED)
    return text if len(text) <= MAX_MESSAGE_CHARS else text[: MAX_MESSAGE_CHARS - 1] + "…"


def call_with_retry[T](
    call: Callable[[], T],
    *,
    provider: str,
    sdk: ModuleType,
    base_error: type[Exception],
    secret: str,
    retry_delay_s: float,
    refused: Callable[[Exception], Exception | None] | None = None,
    retry: bool = True,
) -> T:
    """Run ``call``; retry once on a transient SDK failure; raise ``ProviderFailure`` otherwise.

    ``refused``: says whether an SDK error is the server refusing a part of the request the adapter can
    change (``openai_provider``'s response format); the exception it returns is raised at once, unretried.
    ``retry=False``: one call only (an adapter's own second try in another form).
    """
    try:
        return call()
    except base_error as exc:
        if refused is not None and (refusal := refused(exc)) is not None:
            raise refusal from None
        first = _failure(exc, provider=provider, sdk=sdk, secret=secret)
    if first.kind not in RETRYABLE or not retry:
        raise first
    logger.warning("%s; retrying once", first)
    time.sleep(retry_delay_s)
    try:
        return call()
    except base_error as exc:
        if refused is not None and (refusal := refused(exc)) is not None:
            raise refusal from None
        raise _failure(exc, provider=provider, sdk=sdk, secret=secret) from None


def _failure(exc: Exception, *, provider: str, sdk: ModuleType, secret: str) -> ProviderFailure:
    kind = failure_kind(exc, sdk)
    detail = scrub(f"{type(exc).__name__}: {exc}", secret)
    status = exc.status_code if isinstance(exc, sdk.APIStatusError) else None
    return ProviderFailure(kind, f"{provider} call failed ({kind}): {detail}", status=status)
