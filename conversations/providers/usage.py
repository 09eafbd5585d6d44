"""What model calls cost, as the servers report it (issue 22, 4): prompt, cached and completion tokens.

The real adapters report every answered call here (``usage_record``); ``manage.py eval`` and ``bench``
open a ``usage_meter()`` around a run and read the calls back, so they can say prompt tokens per call,
cached tokens per call and calls per turn. A call whose server reports no usage is still counted, with
``reported=False`` (its tokens are unknown, not zero); likewise a server that reports no cached tokens
(llama-cpp-python) leaves ``cached_tokens`` None, not 0. Meters are process-wide (a turn may run on
another thread than the one that opened the meter) and cost nothing when none is open.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class CallUsage:
    provider: str
    reported: bool  # the server said what the call cost
    prompt_tokens: int = 0
    cached_tokens: int | None = None  # of the prompt tokens, those read from the server's cache (None: not said)
    completion_tokens: int = 0
    cache_write_tokens: int = 0  # Anthropic: prompt tokens written to its cache by this call


@dataclass
class UsageMeter:
    calls: list[CallUsage] = field(default_factory=list)

    def summary(self, *, turns: int) -> dict[str, Any]:
        """``calls_per_turn`` and, when any call reported usage, tokens per reported call."""
        out: dict[str, Any] = {"model_calls": len(self.calls),
                               "calls_per_turn": round(len(self.calls) / turns, 2) if turns else None}
        reported = [c for c in self.calls if c.reported]
        if reported:
            n = len(reported)
            cached = [c.cached_tokens for c in reported if c.cached_tokens is not None]
            out.update(prompt_tokens_per_call=round(sum(c.prompt_tokens for c in reported) / n, 1),
                       cached_tokens_per_call=round(sum(cached) / len(cached), 1) if cached else None,
                       completion_tokens_per_call=round(sum(c.completion_tokens for c in reported) / n, 1),
                       max_prompt_tokens=max(c.prompt_tokens for c in reported))
        return out


_lock = threading.Lock()
_meters: list[UsageMeter] = []


@contextmanager
def usage_meter() -> Iterator[UsageMeter]:
    """Collect every call reported while the block runs (from any thread)."""
    meter = UsageMeter()
    with _lock:
        _meters.append(meter)
    try:
        yield meter
    finally:
        with _lock:
            _meters.remove(meter)


def usage_record(call: CallUsage) -> None:
    if not _meters:
        return
    with _lock:
        for meter in _meters:
            meter.calls.append(call)


def _int(value: Any) -> int:
    return value if isinstance(value, int) and value >= 0 else 0


def openai_usage(provider: str, usage: Any) -> CallUsage:
    """From a Chat Completions ``usage`` (cached tokens: ``prompt_tokens_details.cached_tokens`` as OpenAI and
    vLLM report them; llama.cpp-style servers may report none)."""
    if usage is None:
        return CallUsage(provider, reported=False)
    details = getattr(usage, "prompt_tokens_details", None)
    cached = getattr(details, "cached_tokens", None) if details is not None else None
    return CallUsage(provider, reported=True, prompt_tokens=_int(getattr(usage, "prompt_tokens", 0)),
                     cached_tokens=_int(cached) if cached is not None else None,
                     completion_tokens=_int(getattr(usage, "completion_tokens", 0)))


def anthropic_usage(provider: str, usage: Any) -> CallUsage:
    """From a Messages ``usage``: ``input_tokens`` excludes the cached part, so the prompt is their sum."""
    if usage is None:
        return CallUsage(provider, reported=False)
    fresh = _int(getattr(usage, "input_tokens", 0))
    read = _int(getattr(usage, "cache_read_input_tokens", 0))
    written = _int(getattr(usage, "cache_creation_input_tokens", 0))
    return CallUsage(provider, reported=True, prompt_tokens=fresh + read + written, cached_tokens=read,
                     completion_tokens=_int(getattr(usage, "output_tokens", 0)), cache_write_tokens=written)
