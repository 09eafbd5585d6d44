"""OpenAI-compatible Chat Completions adapter (SPEC §7.4).

Works with OpenAI and with any server speaking the same protocol through ``base_url`` (Azure
OpenAI's v1 endpoint, Ollama, vLLM, llama.cpp server, LM Studio). Local servers need no key, but
the SDK requires one, so an empty key is sent as a placeholder.

The answer is requested as JSON-schema structured output (``schema.answer_json_schema``, sent with
``strict: False``, see ``schema``). The adapter returns the message text unparsed: parsing is the
runtime's job, with the same parser for every provider.
"""

from __future__ import annotations

from typing import Any

import openai

from conversations.core.context import ModelRequest
from conversations.providers.base import ProviderFailure
from conversations.providers.prompting import render_messages
from conversations.providers.retry import call_with_retry
from conversations.providers.schema import ANSWER_SCHEMA_NAME, STRICT, answer_json_schema

PLACEHOLDER_KEY = "not-needed"


class OpenAIProvider:
    name = "openai"
    retries_internally = True  # the runtime does not add its own retry on top

    def __init__(
        self,
        model: str,
        api_key: str,
        base_url: str | None,
        timeout_s: float,
        *,
        retry_delay_s: float = 0.5,
    ) -> None:
        self.model = model
        self._secret = api_key or PLACEHOLDER_KEY
        self._retry_delay_s = retry_delay_s
        self._client = openai.OpenAI(api_key=self._secret, base_url=base_url or None, timeout=timeout_s, max_retries=0)

    def __repr__(self) -> str:
        return f"OpenAIProvider(model={self.model!r}, base_url={str(self._client.base_url)!r})"

    def complete(self, request: ModelRequest) -> str:
        system, user = render_messages(request)
        response = call_with_retry(
            lambda: self._client.chat.completions.create(
                model=self.model,
                messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
                response_format={
                    "type": "json_schema",
                    "json_schema": {
                        "name": ANSWER_SCHEMA_NAME,
                        "strict": STRICT,
                        "schema": answer_json_schema(request),
                    },
                },
            ),
            provider=self.name,
            sdk=openai,
            base_error=openai.OpenAIError,
            secret=self._secret,
            retry_delay_s=self._retry_delay_s,
        )
        return _content(response)


def _content(response: Any) -> str:
    """The message text of the first choice; an empty, refused or truncated answer is malformed."""
    choices = getattr(response, "choices", None) or []
    message = getattr(choices[0], "message", None) if choices else None
    if message is None:
        raise ProviderFailure("malformed", "openai: the response has no message")
    if getattr(message, "refusal", None):
        raise ProviderFailure("malformed", "openai: the model refused to answer")
    if getattr(choices[0], "finish_reason", None) == "length":
        raise ProviderFailure("malformed", "openai: the answer was cut off at the token limit")
    content = getattr(message, "content", None)
    if not isinstance(content, str) or not content.strip():
        raise ProviderFailure("malformed", "openai: the answer is empty")
    return content
