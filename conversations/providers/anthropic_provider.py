"""Anthropic Messages API adapter (SPEC §7.4).

The answer is obtained through one forced tool: a tool named ``answer`` whose ``input_schema`` is
the answer schema (``schema.answer_json_schema``), with ``tool_choice`` naming it. The model's
tool input is returned as JSON text, so the runtime parses it like any other provider's answer.
Forcing a tool is more robust than asking for bare JSON in prose (no preamble, no code fence).

**Caching** (issue 22, 4). Anthropic caches a prompt's prefix up to each ``cache_control`` breakpoint
(tools, then system, then messages). The request is ordered stable-first and marks two breakpoints:
after the system prompt (the instructions, read tools and acts: the same for every call of a mode; the
tool's schema before it is the same on every round of a turn, the budget left being said at the end of
the user message), and after the turn's context (cases, conversation, the latest message), so each read
round of a turn re-reads everything but the rounds from the cache. ``max_tokens`` is
``TURNFRAME["MODEL_MAX_TOKENS"]``; ``usage`` (with the cache's reads and writes) goes to ``providers.usage``.
"""

from __future__ import annotations

import json
from typing import Any

import anthropic

from conversations.core.context import ModelRequest
from conversations.providers.base import ProviderFailure
from conversations.providers.prompting import render_prompt
from conversations.providers.retry import call_with_retry
from conversations.providers.schema import answer_json_schema
from conversations.providers.usage import anthropic_usage, usage_record

PLACEHOLDER_KEY = "not-needed"
TOOL_NAME = "answer"
DEFAULT_MAX_TOKENS = 1024
CACHE = {"type": "ephemeral"}


class AnthropicProvider:
    name = "anthropic"
    retries_internally = True  # the runtime does not add its own retry on top

    def __init__(
        self,
        model: str,
        api_key: str,
        base_url: str | None,
        timeout_s: float,
        *,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        retry_delay_s: float = 0.5,
    ) -> None:
        self.model = model
        self.max_tokens = max_tokens
        self._secret = api_key or PLACEHOLDER_KEY
        self._retry_delay_s = retry_delay_s
        self._client = anthropic.Anthropic(
            api_key=self._secret, base_url=base_url or None, timeout=timeout_s, max_retries=0
        )

    def __repr__(self) -> str:
        return f"AnthropicProvider(model={self.model!r}, base_url={str(self._client.base_url)!r})"

    def complete(self, request: ModelRequest) -> str:
        prompt = render_prompt(request)
        tool = {
            "name": TOOL_NAME,
            "description": "Give your answer for the user's latest message: a read batch or a plan.",
            # the same on every round of a turn (the budget left is said in the prompt), so the cache holds
            "input_schema": answer_json_schema(request, steady=True),
        }
        response = call_with_retry(
            lambda: self._client.messages.create(
                model=self.model,
                max_tokens=self.max_tokens,
                system=[{"type": "text", "text": prompt.system, "cache_control": CACHE}],
                messages=[{"role": "user", "content": [
                    {"type": "text", "text": prompt.context, "cache_control": CACHE},
                    {"type": "text", "text": prompt.rounds},
                ]}],
                tools=[tool],
                tool_choice={"type": "tool", "name": TOOL_NAME},
            ),
            provider=self.name,
            sdk=anthropic,
            base_error=anthropic.AnthropicError,
            secret=self._secret,
            retry_delay_s=self._retry_delay_s,
        )
        usage_record(anthropic_usage(self.name, getattr(response, "usage", None)))
        return _answer_text(response)


def _answer_text(response: Any) -> str:
    """The ``answer`` tool input as JSON, else the first non-empty text block."""
    stop_reason = getattr(response, "stop_reason", None)
    if stop_reason == "max_tokens":
        raise ProviderFailure("malformed", "anthropic: the answer was cut off at the token limit")
    if stop_reason == "refusal":
        raise ProviderFailure("malformed", "anthropic: the model refused to answer")
    blocks = getattr(response, "content", None) or []
    for block in blocks:
        if getattr(block, "type", None) == "tool_use" and getattr(block, "name", None) == TOOL_NAME:
            if not isinstance(block.input, dict):
                raise ProviderFailure("malformed", "anthropic: the answer tool input is not an object")
            return json.dumps(block.input, ensure_ascii=False)
    for block in blocks:
        text = getattr(block, "text", None) if getattr(block, "type", None) == "text" else None
        if isinstance(text, str) and text.strip():
            return text
    raise ProviderFailure("malformed", "anthropic: the answer is empty")
