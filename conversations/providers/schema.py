"""The JSON schema of a model answer (CONTRACT §2), narrowed to what one request offers.

Derived from the pydantic models in ``conversations.core.plan`` (``ReadBatch``, ``PlanAnswer``),
with every ``$ref`` inlined so the schema stands alone (Anthropic tool input schemas, OpenAI-style
servers with grammar-constrained decoding). Narrowing:

- read tool names are an ``enum`` of the offered tools; the ``reads`` branch is left out when the
  request allows no reads, and a batch is capped at the remaining call budget;
- act names (and the names a ``hold`` constraint may cover, plus ``"*"``) are an ``enum`` of the
  offered acts; with no acts on offer, ``acts`` must be empty.

**A schema for models, not the parser's** (issue 22, 2). Servers that constrain decoding by schema
(llama.cpp and llama-cpp-python, vLLM, Ollama) turn it into a grammar, and a grammar enforces only what
it can express: ``minProperties``/``maxProperties`` are dropped (so ``{}`` and both keys together
passed), and a ``maxLength`` of 2,000 or 8,000 unrolls into a grammar that exceeds llama.cpp's limits
(the server crashed). So the schema models see has:

- an ``anyOf`` of two self-contained objects, ``{"reads": …}`` and ``{"plan": …}``, each with its one
  key required and no other allowed (``grammar_json_schema``, sent as ``response_format``); Anthropic's
  tool input must be one object at the top, so it gets the two keys as properties of one object
  (``answer_json_schema``);
- no length limit above ``MAX_MODEL_LENGTH`` characters and no item limit above ``MAX_MODEL_ITEMS``.

The strict limits stay where they belong: the runtime's parser (``core.plan``) and the reducer are the
authority on what is valid (I9), for every provider.

Strict mode: OpenAI strict structured outputs cannot express this answer (it requires
``additionalProperties: false`` and every property required everywhere, but act and tool ``args``
are free-form objects whose shape depends on the act), so the schema is sent with ``strict: False``.
"""

from __future__ import annotations

import copy
from typing import Any

from conversations.core.context import ModelRequest
from conversations.core.plan import PlanAnswer, ReadBatch

ANSWER_SCHEMA_NAME = "turnframe_answer"
STRICT = False  # see the module docstring
MAX_MODEL_LENGTH = 200  # a longer maxLength is left out of what models see (the parser keeps it)
MAX_MODEL_ITEMS = 8  # likewise for maxItems (the read batch's own cap, the calls left, is kept)


def answer_json_schema(request: ModelRequest, *, steady: bool = False) -> dict[str, Any]:
    """One object with ``reads`` and ``plan`` as properties (Anthropic's tool input): what ``request`` accepts.

    ``steady``: the same schema on every round of a turn, for a place that is part of a cached prompt prefix:
    reads are in it whenever read tools are offered, uncapped by the budget left (the prompt says what is left
    at its end; the read loop enforces it)."""
    reads, plan = _branches(request, steady=steady)
    if reads is None:
        return {"type": "object", "description": "Your plan for the user's latest message.",
                "properties": {"plan": plan}, "required": ["plan"], "additionalProperties": False}
    return {"type": "object", "description": 'Exactly one key: "reads" (a read batch) or "plan" (your final plan).',
            "properties": {"reads": reads, "plan": plan}, "additionalProperties": False}


def grammar_json_schema(request: ModelRequest, *, steady: bool = False) -> dict[str, Any]:
    """The schema grammar engines enforce: ``{"reads": …}`` or ``{"plan": …}``, exactly one key (``steady``: as
    for ``answer_json_schema``)."""
    reads, plan = _branches(request, steady=steady)
    only_plan = _one_key("plan", plan)
    if reads is None:
        return only_plan
    return {"anyOf": [_one_key("reads", reads), only_plan]}


def _one_key(key: str, value: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": {key: value}, "required": [key], "additionalProperties": False}


def _branches(request: ModelRequest, *, steady: bool) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    plan = _for_models(_inline(PlanAnswer.model_json_schema())["properties"]["plan"])
    _narrow_plan(plan, [act.name for act in request.acts])
    if not (request.read_tools if steady else request.reads_allowed):
        return None, plan
    full = _inline(ReadBatch.model_json_schema())["properties"]["reads"]
    reads = _for_models(full)
    reads["items"]["properties"]["tool"]["enum"] = [tool.name for tool in request.read_tools]
    if not steady:
        reads["maxItems"] = min(full.get("maxItems", request.calls_left), request.calls_left)
    return reads, plan


def _narrow_plan(plan: dict[str, Any], act_names: list[str]) -> None:
    acts = plan["properties"]["acts"]
    if not act_names:
        acts["maxItems"] = 0
        acts["description"] = "No acts are on offer in this mode: always empty."
        return
    acts["items"]["properties"]["act"]["enum"] = list(act_names)
    held = plan["properties"]["constraints"]["items"]["properties"]["acts"]["items"]
    held["enum"] = [*act_names, "*"]


def _for_models(node: Any) -> Any:
    """``node`` without what grammar engines cannot or should not enforce (see the module docstring):
    long length and item limits, property counts, and the titles and descriptions pydantic adds."""
    if isinstance(node, list):
        return [_for_models(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key in ("title", "minProperties", "maxProperties") and not isinstance(value, dict):
            continue
        if key == "description" and isinstance(value, str):
            continue
        if key == "maxLength" and isinstance(value, int) and value > MAX_MODEL_LENGTH:
            continue
        if key == "maxItems" and isinstance(value, int) and value > MAX_MODEL_ITEMS:
            continue
        out[key] = value if key in ("enum", "const", "default") else _for_models(value)
    return out


def _inline(schema: dict[str, Any]) -> dict[str, Any]:
    """Replace every local ``#/$defs/<Name>`` reference by a copy of its definition."""
    defs = schema.get("$defs", {})

    def resolve(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                return resolve(copy.deepcopy(defs[ref.removeprefix("#/$defs/")]))
            return {key: resolve(value) for key, value in node.items() if key != "$defs"}
        if isinstance(node, list):
            return [resolve(item) for item in node]
        return node

    return resolve(schema)
