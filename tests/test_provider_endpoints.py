"""Issue 22: the real adapters against local HTTP servers (real sockets) that answer as the real servers do.

Each stub below speaks the OpenAI chat-completions protocol the way one server family does to what matters
here: ``response_format``, ``max_tokens`` and ``usage``. They are written from the servers' behaviour met
in practice (docs/evaluation.md, *A real local model*):

- **llama-cpp-python** 0.3.36 (its OpenAI-compatible server): answers ``json_schema`` with HTTP 500 (its
  request validation, naming ``response_format``), honours ``{"type": "json_object", "schema": …}`` as a
  grammar, reports usage without cached tokens, and crashes (here: drops the connection) on a schema whose
  length limits unroll into a grammar too large;
- a llama.cpp-style server that answers a schema it cannot take with a 500 that names nothing;
- **llama.cpp** (its own ``llama-server``, older builds): refuses ``json_schema`` with a 400 naming
  ``response_format``; reports cached tokens;
- **vLLM**: takes ``json_schema``; ``prompt_tokens_details`` is null unless enabled;
- **Ollama**: takes ``json_schema``; reports prompt tokens only;
- **OpenAI**: takes ``json_schema``; a reasoning model refuses ``max_tokens`` (400, asks for
  ``max_completion_tokens``); reports cached tokens;
- a server that takes no ``response_format`` at all (the last resort: plain JSON, schema in the prompt).

And the Anthropic Messages adapter: cache breakpoints, ``max_tokens``, usage with the cache's reads.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import jsonschema
import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import CommandError, call_command
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from conversations.core.context import RoundRecord
from conversations.providers.anthropic_provider import AnthropicProvider
from conversations.providers.base import ProviderFailure
from conversations.providers.openai_provider import OpenAIProvider, endpoint_form
from conversations.providers.prompting import render_prompt
from conversations.providers.registry import build_provider
from conversations.providers.schema import MAX_MODEL_LENGTH, grammar_json_schema
from conversations.providers.usage import usage_meter

from .test_provider_adapters import ANTHROPIC_PATH, OPENAI_PATH, PLAN, anthropic_message, make_request, tool_use

ANSWER = json.dumps(PLAN)


# --------------------------------------------------------------------------- the servers


class Server:
    """One server family's behaviour; ``seen`` keeps every request body it received."""

    name = "server"

    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []

    def __call__(self, request: Request) -> Response:
        body = request.get_json()
        self.seen.append(body)
        return self.answer(body)

    def answer(self, body: dict[str, Any]) -> Response:
        return self.completion(body, ANSWER, usage={"prompt_tokens": 900, "completion_tokens": 40})

    @staticmethod
    def completion(body: dict[str, Any], content: str, *, usage: dict[str, Any], finish: str = "stop") -> Response:
        data = {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": body["model"],
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                             "finish_reason": finish, "logprobs": None}],
                "usage": {**usage, "total_tokens": usage["prompt_tokens"] + usage["completion_tokens"]}}
        return Response(json.dumps(data), content_type="application/json")

    @staticmethod
    def error(status: int, message: str) -> Response:
        return Response(json.dumps({"error": {"message": message, "type": "server_error", "code": status}}),
                        status=status, content_type="application/json")

    @property
    def formats(self) -> list[str]:
        return [(b.get("response_format") or {}).get("type", "none") for b in self.seen]


class LlamaCppPython(Server):
    name = "llama-cpp-python"

    def answer(self, body):
        fmt = body.get("response_format") or {}
        if fmt.get("type") == "json_schema":  # as llama-cpp-python 0.3.36 answers it, word for word
            return self.error(500, "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', "
                                   "'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\", "
                                   "'input': 'json_schema'}")
        if fmt.get("type") == "json_object" and "schema" in fmt:
            if _longest(fmt["schema"], "maxLength") > 1000:  # the grammar explodes: the process dies
                raise ConnectionAbortedError("segfault")
        tokens = min(body.get("max_tokens") or 10**6, 10**6)
        return self.completion(body, ANSWER, usage={"prompt_tokens": 1800, "completion_tokens": min(tokens, 60)})


class SilentFiveHundred(LlamaCppPython):
    name = "silent-500"

    def answer(self, body):
        if (body.get("response_format") or {}).get("type") == "json_schema":
            return self.error(500, "Internal Server Error")  # nothing says why
        return super().answer(body)


class LlamaCppServer(Server):
    name = "llama.cpp"

    def answer(self, body):
        fmt = body.get("response_format") or {}
        if fmt.get("type") not in (None, "text", "json_object"):
            return self.error(400, f'response_format type must be one of "text" or "json_object", but got: {fmt["type"]}')
        return self.completion(body, ANSWER, usage={"prompt_tokens": 1700, "completion_tokens": 50,
                                                    "prompt_tokens_details": {"cached_tokens": 1500}})


class VLLM(Server):
    name = "vllm"

    def answer(self, body):
        return self.completion(body, ANSWER, usage={"prompt_tokens": 1600, "completion_tokens": 45,
                                                    "prompt_tokens_details": None})


class Ollama(Server):
    name = "ollama"

    def answer(self, body):
        return self.completion(body, ANSWER, usage={"prompt_tokens": 1650, "completion_tokens": 48})


class OpenAI(Server):
    name = "openai"

    def answer(self, body):
        if body["model"].startswith("o") and "max_tokens" in body:
            return self.error(400, "Unsupported parameter: 'max_tokens' is not supported with this model. "
                                   "Use 'max_completion_tokens' instead.")
        return self.completion(body, ANSWER, usage={"prompt_tokens": 1900, "completion_tokens": 30,
                                                    "prompt_tokens_details": {"cached_tokens": 1024}})


class NoResponseFormat(Server):
    name = "no-response-format"

    def answer(self, body):
        if "response_format" in body:
            return self.error(400, "Unrecognized request argument supplied: response_format")
        return self.completion(body, ANSWER, usage={"prompt_tokens": 2500, "completion_tokens": 50})


def _longest(node: Any, key: str) -> int:
    if isinstance(node, dict):
        return max([node.get(key, 0) if isinstance(node.get(key), int) else 0,
                    *(_longest(v, key) for v in node.values())])
    if isinstance(node, list):
        return max([0, *(_longest(v, key) for v in node)])
    return 0


@pytest.fixture
def endpoint(httpserver: HTTPServer) -> Iterator[HTTPServer]:
    yield httpserver
    httpserver.clear()


def serve(endpoint: HTTPServer, server: Server) -> Server:
    endpoint.expect_request(OPENAI_PATH, method="POST").respond_with_handler(server)
    return server


def provider(endpoint: HTTPServer, *, model: str = "local-model", max_tokens: int = 256) -> OpenAIProvider:
    return OpenAIProvider(model, "", endpoint.url_for("/v1"), 5.0, max_tokens=max_tokens, retry_delay_s=0)


# --------------------------------------------------------------------------- response_format, remembered


@pytest.mark.parametrize(
    ("server", "formats", "learnt"),
    [
        (LlamaCppPython, ["json_schema", "json_object"], "json_object"),
        (SilentFiveHundred, ["json_schema", "json_schema", "json_object"], "json_object"),
        (LlamaCppServer, ["json_schema", "json_object"], "json_object"),
        (VLLM, ["json_schema"], "json_schema"),
        (Ollama, ["json_schema"], "json_schema"),
        (OpenAI, ["json_schema"], "json_schema"),
        (NoResponseFormat, ["json_schema", "json_object", "none"], "none"),
    ],
    ids=lambda v: v.name if isinstance(v, type) else None,
)
def test_each_server_gets_an_answer_and_the_form_it_takes_is_remembered(
    endpoint: HTTPServer, caplog: pytest.LogCaptureFixture, server: type[Server], formats: list[str], learnt: str
) -> None:
    stub = serve(endpoint, server())
    caplog.set_level(logging.WARNING, logger="turnframe.providers")

    first = provider(endpoint).complete(make_request())
    steps_down = [r.getMessage() for r in caplog.records if "now asks with" in r.getMessage()]
    caplog.clear()
    again = provider(endpoint).complete(make_request(rounds_left=2))  # another turn, another provider object

    assert json.loads(first) == json.loads(again) == PLAN  # never a failed turn
    assert stub.formats == [*formats, learnt]  # the second call goes straight to what worked
    assert endpoint_form(endpoint.url_for("/v1"), "local-model").response_format == learnt
    assert len(steps_down) == len(set(formats)) - 1  # each step down logged once, with why
    assert all("because: " in line for line in steps_down)
    assert not caplog.records  # and not again


def test_what_an_endpoint_takes_is_remembered_per_base_url_and_model(endpoint: HTTPServer) -> None:
    stub = serve(endpoint, LlamaCppServer())

    provider(endpoint, model="small").complete(make_request())
    provider(endpoint, model="large").complete(make_request())

    assert stub.formats == ["json_schema", "json_object", "json_schema", "json_object"]


def test_json_object_carries_the_schema_and_plain_json_carries_it_in_a_stable_system_prompt(
    endpoint: HTTPServer,
) -> None:
    llama = serve(endpoint, LlamaCppPython())
    provider(endpoint).complete(make_request())
    json_object = llama.seen[-1]
    endpoint.clear()
    plain = serve(endpoint, NoResponseFormat())
    later = make_request(rounds_left=1, calls_left=2,
                         rounds=[RoundRecord(1, "ok", [{"tool": "get_case", "args": {}}], [{"ok": True}])])
    provider(endpoint, model="other").complete(make_request())
    provider(endpoint, model="other").complete(later)

    assert json_object["response_format"]["schema"] == grammar_json_schema(make_request())
    assert "Answer schema" not in json_object["messages"][0]["content"]
    first, second = plain.seen[-2], plain.seen[-1]
    assert "response_format" not in second and "# Answer schema (JSON Schema)" in second["messages"][0]["content"]
    assert first["messages"][0] == second["messages"][0]  # the schema in the prompt does not change per round


def test_a_server_known_to_refuse_json_schema_is_asked_in_its_form_from_the_first_request(
    endpoint: HTTPServer, settings, monkeypatch
) -> None:
    stub = serve(endpoint, LlamaCppPython())
    monkeypatch.setenv("OPENAI_BASE_URL", endpoint.url_for("/v1"))
    settings.TURNFRAME = {**settings.TURNFRAME, "OPENAI_RESPONSE_FORMAT": "json_object"}

    build_provider("openai").complete(make_request())

    assert stub.formats == ["json_object"]  # not one refused request
    settings.TURNFRAME = {**settings.TURNFRAME, "OPENAI_RESPONSE_FORMAT": "grammar"}
    with pytest.raises(ImproperlyConfigured, match="TURNFRAME_OPENAI_RESPONSE_FORMAT"):
        build_provider("openai")


def test_a_server_that_fails_on_everything_is_a_server_error_and_nothing_is_learnt(endpoint: HTTPServer) -> None:
    class Broken(Server):
        def answer(self, body):
            return self.error(500, "Internal Server Error")

    stub = serve(endpoint, Broken())

    with pytest.raises(ProviderFailure) as failure:
        provider(endpoint).complete(make_request())

    assert failure.value.kind == "server_error"
    assert stub.formats == ["json_schema", "json_schema", "json_object"]
    assert endpoint_form(endpoint.url_for("/v1"), "local-model").response_format == "json_schema"


def test_a_crashing_grammar_is_never_sent(endpoint: HTTPServer) -> None:
    stub = serve(endpoint, LlamaCppPython())
    many = make_request(calls_left=40, rounds_left=4)

    provider(endpoint).complete(many)

    sent = stub.seen[-1]["response_format"]["schema"]
    assert _longest(sent, "maxLength") <= MAX_MODEL_LENGTH
    assert "minProperties" not in json.dumps(sent) and "maxProperties" not in json.dumps(sent)


# --------------------------------------------------------------------------- the schema models see


@pytest.mark.parametrize(
    ("answer", "valid"),
    [
        (PLAN, True),
        ({"reads": [{"tool": "get_case", "args": {"case": "clm_7Q2KBERLIN"}}]}, True),
        ({}, False),
        ({"reads": [{"tool": "get_case", "args": {}}], **PLAN}, False),
        ({"reads": [{"tool": "delete_everything", "args": {}}]}, False),
        ({"plan": {"acts": [{"id": "a1", "act": "drop_table", "evidence": "x"}]}}, False),
        ({"plan": {}, "extra": 1}, False),
    ],
    ids=["plan", "reads", "empty", "both", "unknown-tool", "unknown-act", "extra-key"],
)
def test_the_grammar_schema_allows_exactly_one_of_reads_or_plan(answer: dict[str, Any], valid: bool) -> None:
    schema = grammar_json_schema(make_request())

    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(answer))

    assert (not errors) is valid


def test_the_grammar_schema_has_no_reads_once_the_budget_is_spent() -> None:
    schema = grammar_json_schema(make_request(rounds_left=0))

    assert schema["required"] == ["plan"] and set(schema["properties"]) == {"plan"}
    assert list(jsonschema.Draft202012Validator(schema).iter_errors({"reads": [{"tool": "get_case"}]}))


def test_our_parser_keeps_the_strict_limits_the_model_schema_leaves_out() -> None:
    from conversations.core.plan import PlanSchemaError, parse_model_answer

    too_long = {"plan": {"acts": [], "say": "x" * 8001}}
    assert not list(jsonschema.Draft202012Validator(grammar_json_schema(make_request())).iter_errors(too_long))
    with pytest.raises(PlanSchemaError):
        parse_model_answer(json.dumps(too_long))


# --------------------------------------------------------------------------- max_tokens


def test_every_call_carries_the_configured_bound_and_a_reasoning_model_gets_it_its_way(endpoint: HTTPServer) -> None:
    stub = serve(endpoint, OpenAI())

    provider(endpoint, model="gpt-test", max_tokens=300).complete(make_request())
    provider(endpoint, model="o3-test", max_tokens=300).complete(make_request())
    provider(endpoint, model="o3-test", max_tokens=300).complete(make_request())

    assert stub.seen[0]["max_tokens"] == 300
    assert "max_tokens" in stub.seen[1] and stub.seen[2]["max_completion_tokens"] == 300
    assert stub.seen[3]["max_completion_tokens"] == 300 and "max_tokens" not in stub.seen[3]  # remembered


def test_an_answer_cut_off_at_the_bound_is_malformed_not_retried(endpoint: HTTPServer) -> None:
    class Runaway(Server):
        def answer(self, body):
            return self.completion(body, '{"plan": {"say": "aaaa', usage={"prompt_tokens": 10,
                                                                         "completion_tokens": body["max_tokens"]},
                                   finish="length")

    stub = serve(endpoint, Runaway())

    with pytest.raises(ProviderFailure) as failure:
        provider(endpoint, max_tokens=64).complete(make_request())

    assert failure.value.kind == "malformed" and len(stub.seen) == 1


def test_the_registry_passes_the_bound_and_each_provider_its_own_timeout(settings, monkeypatch) -> None:
    settings.TURNFRAME = {**settings.TURNFRAME, "PROVIDER_TIMEOUT_S": 60.0, "OPENAI_TIMEOUT_S": 600.0,
                          "ANTHROPIC_TIMEOUT_S": None, "MODEL_MAX_TOKENS": 333}
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")

    openai_side, anthropic_side = build_provider("openai"), build_provider("anthropic", role="fallback")

    assert openai_side._client.timeout == 600.0 and openai_side.max_tokens == 333
    assert anthropic_side._client.timeout == 60.0 and anthropic_side.max_tokens == 333


# --------------------------------------------------------------------------- usage


@pytest.mark.parametrize(
    ("server", "prompt", "cached"),
    [(LlamaCppPython, 1800, None), (LlamaCppServer, 1700, 1500), (VLLM, 1600, None), (Ollama, 1650, None),
     (OpenAI, 1900, 1024)],
    ids=lambda v: v.name if isinstance(v, type) else None,
)
def test_usage_is_read_as_each_server_reports_it(endpoint: HTTPServer, server: type[Server], prompt: int,
                                                 cached: int | None) -> None:
    serve(endpoint, server())

    with usage_meter() as meter:
        provider(endpoint).complete(make_request())

    (call,) = meter.calls
    # a server that does not say what came from its cache is not said to have cached nothing
    assert (call.reported, call.prompt_tokens, call.cached_tokens) == (True, prompt, cached)
    assert meter.summary(turns=1)["cached_tokens_per_call"] == cached


def test_a_server_without_usage_is_counted_as_a_call_of_unknown_cost(endpoint: HTTPServer) -> None:
    class Silent(Server):
        def answer(self, body):
            response = self.completion(body, ANSWER, usage={"prompt_tokens": 0, "completion_tokens": 0})
            data = json.loads(response.get_data())
            del data["usage"]
            return Response(json.dumps(data), content_type="application/json")

    serve(endpoint, Silent())

    with usage_meter() as meter:
        provider(endpoint).complete(make_request())

    assert [c.reported for c in meter.calls] == [False]
    assert meter.summary(turns=1) == {"model_calls": 1, "calls_per_turn": 1.0}


# --------------------------------------------------------------------------- stable first


def test_the_prompt_is_ordered_stable_first_so_a_read_round_keeps_the_prefix() -> None:
    first = render_prompt(make_request())
    round_two = render_prompt(make_request(
        rounds_left=2, calls_left=5, repair_error="acts.0.args.line: required",
        rounds=[RoundRecord(1, "ok", [{"tool": "get_case", "args": {}}], [{"tool": "get_case", "ok": True}])]))
    spent = render_prompt(make_request(rounds_left=0, calls_left=0))

    assert first.system == round_two.system == spent.system  # no budget, no round in the instructions
    assert first.context == round_two.context == spent.context  # the case context and the message
    assert round_two.user.startswith(first.context)
    assert "Reads left this turn: 3 round(s), 6 call(s)" in first.rounds
    assert "Reads left this turn: 2 round(s), 5 call(s)" in round_two.rounds
    assert "read budget of this turn is spent" in spent.rounds
    order = [first.user.index(part) for part in ('<data kind="cases">', "<message>", "Reads left")]
    assert order == sorted(order)
    assert first.system.index("# Read tools") < first.system.index("# Acts")


def test_empty_context_sections_are_left_out_and_nulls_dropped() -> None:
    request = make_request()
    bare = render_prompt(request).context
    busy = render_prompt(replace(request, excerpt=[{"role": "user", "text": "earlier"}],
                                 pending={"question": "How much?"}, recent=[{"act": "add_line"}],
                                 open_cards=[{"id": "int_1"}])).context

    for kind in ("history", "pending", "open_cards", "recent"):
        assert f'<data kind="{kind}">' not in bare and f'<data kind="{kind}">' in busy
    assert "null" not in bare


# --------------------------------------------------------------------------- Anthropic


@pytest.fixture
def anthropic_endpoint(httpserver: HTTPServer) -> Iterator[tuple[HTTPServer, list[dict[str, Any]]]]:
    seen: list[dict[str, Any]] = []

    def handler(request: Request) -> Response:
        seen.append(request.get_json())
        data = anthropic_message([tool_use(PLAN)])
        data["usage"] = {"input_tokens": 40, "output_tokens": 30, "cache_read_input_tokens": 1500,
                         "cache_creation_input_tokens": 200}
        return Response(json.dumps(data), content_type="application/json")

    httpserver.expect_request(ANTHROPIC_PATH, method="POST").respond_with_handler(handler)
    yield httpserver, seen
    httpserver.clear()


def test_anthropic_marks_cache_breakpoints_after_the_system_prompt_and_the_turn_context(anthropic_endpoint) -> None:
    server, seen = anthropic_endpoint
    adapter = AnthropicProvider("claude-test", "sk-ant", server.url_for(""), 5.0, max_tokens=512, retry_delay_s=0)
    round_two = make_request(rounds_left=1, calls_left=2,
                             rounds=[RoundRecord(1, "ok", [{"tool": "get_case", "args": {}}], [{"ok": True}])])

    with usage_meter() as meter:
        adapter.complete(make_request())
        adapter.complete(round_two)

    first, second = seen
    assert first["max_tokens"] == second["max_tokens"] == 512
    assert first["system"][0]["cache_control"] == {"type": "ephemeral"}
    context, rounds = first["messages"][0]["content"]
    assert context["cache_control"] == {"type": "ephemeral"} and "cache_control" not in rounds
    assert "<message>" in context["text"] and "Reads left" in rounds["text"]
    # everything up to the second breakpoint is the same on the next round: tools, system, context
    assert first["tools"] == second["tools"] and first["system"] == second["system"]
    assert second["messages"][0]["content"][0] == context
    assert [(c.prompt_tokens, c.cached_tokens, c.cache_write_tokens) for c in meter.calls] == [(1740, 1500, 200)] * 2


# --------------------------------------------------------------------------- eval counts them


CORPUS = "tests/corpus/010-add-taxi-yesterday.json"


def _eval(capsys, *args: str) -> tuple[dict[str, Any], str | None]:
    try:
        call_command("eval", CORPUS, "--provider", "openai", "--json", *args)
        error = None
    except CommandError as exc:
        error = str(exc)
    return json.loads(capsys.readouterr().out), error


@pytest.mark.django_db
def test_eval_reports_calls_per_turn_and_tokens_per_call(endpoint: HTTPServer, settings, monkeypatch, capsys) -> None:
    stub = serve(endpoint, LlamaCppServer())
    monkeypatch.setenv("OPENAI_BASE_URL", endpoint.url_for("/v1"))
    settings.TURNFRAME = {**settings.TURNFRAME, "MODEL_MAX_TOKENS": 200}

    report, error = _eval(capsys)

    totals = report["totals"]
    assert error is None and totals["provider_failures"] == 0 and totals["provider_failure_kinds"] == {}
    # one answered call (the refused json_schema request did no model work, and is not one), on two requests
    assert totals["calls_per_turn"] == 1.0 and totals["max_calls_per_turn"] == 1 and len(stub.seen) == 2
    assert totals["prompt_tokens_per_call"] == 1700.0 and totals["cached_tokens_per_call"] == 1500.0
    assert all(body["max_tokens"] == 200 for body in stub.seen)
    system, user = (m["content"] for m in stub.seen[0]["messages"])
    # the lean prompt (issue 22, 4; the figures in docs/evaluation.md): signatures, not JSON schemas
    assert "additionalProperties" not in system and '"title":' not in system and len(user) < 1500


@pytest.mark.django_db
def test_eval_counts_provider_failures_apart_and_fails_a_run_of_mostly_failures(endpoint: HTTPServer, monkeypatch,
                                                                                capsys) -> None:
    class Garbage(Server):
        def answer(self, body):
            return self.completion(body, "Sure! I added it.", usage={"prompt_tokens": 1, "completion_tokens": 1})

    serve(endpoint, Garbage())
    monkeypatch.setenv("OPENAI_BASE_URL", endpoint.url_for("/v1"))

    report, error = _eval(capsys)

    totals = report["totals"]
    assert totals["provider_failures"] == totals["items"] == 1
    assert totals["provider_failure_kinds"] == {"malformed": 1}
    assert totals["failed"] == totals["not_understood"] == 0 and totals["unsafe"] == 0
    (item,) = report["conversations"][0]["items"]
    assert item["verdict"] == "provider_failure" and item["provider_failure"] == "malformed"
    assert error is not None and "provider failure" in error


@pytest.mark.django_db(transaction=True)
def test_bench_with_a_real_provider_reports_calls_and_tokens(endpoint: HTTPServer, monkeypatch, capsys) -> None:
    serve(endpoint, LlamaCppServer())
    monkeypatch.setenv("OPENAI_BASE_URL", endpoint.url_for("/v1"))

    call_command("bench", turns=2, threads=1, provider="openai", json=True)

    result = json.loads(capsys.readouterr().out)
    assert result["provider"] == "openai" and result["turns"] == 2 and result["failures"] == 0
    assert result["no_card"] == 2  # the stub's plan needs no card: counted, not a failure
    assert result["calls_per_turn"] == 1.0
    assert result["prompt_tokens_per_call"] == 1700.0 and result["cached_tokens_per_call"] == 1500.0
