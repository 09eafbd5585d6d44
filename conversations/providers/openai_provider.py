"""OpenAI-compatible Chat Completions adapter (SPEC §7.4).

Works with OpenAI and with any server speaking the same protocol through ``base_url`` (Azure
OpenAI's v1 endpoint, Ollama, vLLM, llama.cpp's server, llama-cpp-python, LM Studio). Local servers
need no key, but the SDK requires one, so an empty key is sent as a placeholder.

**How the answer's shape is asked for** (issue 22, 1). Servers differ in what they accept as
``response_format``, so the adapter walks down three forms and remembers, per endpoint (base URL +
model, for the life of the process), the first one the endpoint took:

It starts at the first, or at the one ``TURNFRAME["OPENAI_RESPONSE_FORMAT"]`` names (for a server known to
refuse the richer ones, so not even its first request is refused):

1. ``json_schema``: structured output with ``schema.grammar_json_schema`` (``strict: False``);
2. ``json_object`` with the same schema beside it (``{"type": "json_object", "schema": …}``, which
   llama.cpp-style servers turn into a grammar and the others ignore);
3. no ``response_format``: plain JSON, with the schema written into the system prompt.

A form is *refused* when the server answers 4xx/5xx naming ``response_format`` (or the schema, or its
grammar): the next form is tried at once. An HTTP 500 that names nothing (how llama.cpp-style servers
fail on a schema they cannot turn into a grammar) is retried once as usual, and then the next form is
tried once, unretried; a form reached that way is remembered only if it worked (otherwise the server
is simply failing: ``server_error``, after three calls). A step down is logged once per endpoint and
is never a failed turn.

Every call carries ``max_tokens`` (``TURNFRAME["MODEL_MAX_TOKENS"]``), so a runaway answer stops there
(and is ``malformed``: cut off) instead of running until the context is full. OpenAI's reasoning models
refuse ``max_tokens`` and ask for ``max_completion_tokens``: that is switched once and remembered too.

The adapter returns the message text unparsed: parsing is the runtime's job, with the same parser for
every provider. What the call cost (``usage``) goes to ``providers.usage``.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, replace
from typing import Any

import openai

from conversations.core.context import ModelRequest
from conversations.providers.base import ProviderFailure
from conversations.providers.prompting import render_prompt
from conversations.providers.retry import call_with_retry, scrub
from conversations.providers.schema import ANSWER_SCHEMA_NAME, STRICT, grammar_json_schema
from conversations.providers.usage import openai_usage, usage_record

logger = logging.getLogger("turnframe.providers")

PLACEHOLDER_KEY = "not-needed"
DEFAULT_MAX_TOKENS = 1024
FORMATS = ("json_schema", "json_object", "none")
# words of an error body that say the server refused how the answer's shape was asked for
_FORMAT_WORDS = ("response_format", "json_schema", "json schema", "grammar", "schema")
_NOT_A_REFUSAL = frozenset({401, 403, 404, 408, 429})


@dataclass(frozen=True, slots=True)
class EndpointForm:
    """What one endpoint accepts, as learnt from its answers."""

    response_format: str = FORMATS[0]
    token_param: str = "max_tokens"


_forms: dict[tuple[str, str], EndpointForm] = {}
_forms_lock = threading.Lock()


def endpoint_form(base_url: str, model: str) -> EndpointForm:
    with _forms_lock:
        return _forms.get((base_url.rstrip("/"), model), EndpointForm())


def endpoint_forms_forget() -> None:
    """Forget what every endpoint accepts (tests; a process learns it again on its first calls)."""
    with _forms_lock:
        _forms.clear()


class _Refused(Exception):
    """The server refused a part of the request (the response format, or the token parameter)."""


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
        max_tokens: int = DEFAULT_MAX_TOKENS,
        response_format: str | None = None,
        retry_delay_s: float = 0.5,
    ) -> None:
        if response_format is not None and response_format not in FORMATS:
            raise ValueError(f"response_format must be one of {', '.join(FORMATS)}, not {response_format!r}")
        self.model = model
        self.max_tokens = max_tokens
        self._start = EndpointForm(response_format or FORMATS[0])
        self._secret = api_key or PLACEHOLDER_KEY
        self._retry_delay_s = retry_delay_s
        self._client = openai.OpenAI(api_key=self._secret, base_url=base_url or None, timeout=timeout_s, max_retries=0)
        self._endpoint = (str(self._client.base_url).rstrip("/"), model)

    def __repr__(self) -> str:
        return f"OpenAIProvider(model={self.model!r}, base_url={str(self._client.base_url)!r})"

    @property
    def form(self) -> EndpointForm:
        """What the endpoint is known to take; else the configured form to start with."""
        with _forms_lock:
            return _forms.get(self._endpoint, self._start)

    def complete(self, request: ModelRequest) -> str:
        form = self.form
        guessing = False  # trying a lower form after an unexplained 500
        while True:
            try:
                response = self._send(request, form, retry=not guessing)
            except _Refused as refused:
                lower = _lower(form, str(refused))
                if lower is None:
                    raise ProviderFailure("bad_request", f"{self.name} call failed (bad_request): {refused}") from None
                form = self._learn(lower, str(refused))
                continue
            except ProviderFailure as failure:
                if failure.status != 500 or guessing or form.response_format == FORMATS[-1]:
                    raise
                guessing = True  # perhaps the format it cannot say it refuses: the next one, once
                form = replace(form, response_format=FORMATS[FORMATS.index(form.response_format) + 1])
                continue
            if guessing:
                self._learn(form, "HTTP 500 to the richer response_format, then an answer without it")
            usage_record(openai_usage(self.name, getattr(response, "usage", None)))
            return _content(response)

    def _send(self, request: ModelRequest, form: EndpointForm, *, retry: bool) -> Any:
        schema = grammar_json_schema(request)
        # in the system prompt it must be the same every round (the budget left is said at the prompt's end)
        in_prompt = grammar_json_schema(request, steady=True) if form.response_format == "none" else None
        prompt = render_prompt(request, answer_schema=in_prompt)
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": "system", "content": prompt.system}, {"role": "user", "content": prompt.user}],
            form.token_param: self.max_tokens,
        }
        if form.response_format == "json_schema":
            body["response_format"] = {"type": "json_schema",
                                       "json_schema": {"name": ANSWER_SCHEMA_NAME, "strict": STRICT, "schema": schema}}
        elif form.response_format == "json_object":
            body["response_format"] = {"type": "json_object", "schema": schema}
        return call_with_retry(
            lambda: self._client.chat.completions.create(**body),
            provider=self.name,
            sdk=openai,
            base_error=openai.OpenAIError,
            secret=self._secret,
            retry_delay_s=self._retry_delay_s,
            refused=lambda exc: _refusal(exc, form, self._secret),
            retry=retry,
        )

    def _learn(self, form: EndpointForm, why: str) -> EndpointForm:
        with _forms_lock:
            known = _forms.get(self._endpoint, self._start)
            if known == form:
                return form
            _forms[self._endpoint] = form
        logger.warning("%s endpoint %s (model %s): now asks with response_format=%s, %s=…; because: %s",
                       self.name, self._endpoint[0], self.model, form.response_format, form.token_param,
                       scrub(why, self._secret))
        return form


def _refusal(exc: Exception, form: EndpointForm, secret: str) -> Exception | None:
    """A ``_Refused`` when the server refused the response format or the token parameter, else None."""
    if not isinstance(exc, openai.APIStatusError) or exc.status_code in _NOT_A_REFUSAL or exc.status_code < 400:
        return None
    text = f"{exc.message} {exc.body}".lower()
    detail = scrub(f"HTTP {exc.status_code}: {exc.message}", secret)
    if form.token_param == "max_tokens" and "max_completion_tokens" in text:
        return _Refused(f"token parameter: {detail}")
    if form.response_format != "none" and any(word in text for word in _FORMAT_WORDS):
        return _Refused(f"response_format: {detail}")
    return None


def _lower(form: EndpointForm, why: str) -> EndpointForm | None:
    """The form to try after a refusal, or None when there is none left."""
    if why.startswith("token parameter"):
        return replace(form, token_param="max_completion_tokens")
    index = FORMATS.index(form.response_format)
    if index + 1 >= len(FORMATS):
        return None
    return replace(form, response_format=FORMATS[index + 1])


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
