"""The JSON schema of a model answer (CONTRACT §2), narrowed to what one request offers.

Derived from the pydantic models in ``conversations.core.plan`` (``ReadBatch``, ``PlanAnswer``),
with every ``$ref`` inlined so the schema stands alone (Anthropic tool input schemas, OpenAI-style
servers with grammar-constrained decoding). Narrowing:

- read tool names are an ``enum`` of the offered tools; the ``reads`` branch is left out when the
  request allows no reads, and a batch is capped at the remaining call budget;
- act names (and the names a ``hold`` constraint may cover, plus ``"*"``) are an ``enum`` of the
  offered acts; with no acts on offer, ``acts`` must be empty.

The root is always one object (``{"reads": …}`` or ``{"plan": …}``, exactly one key through
``minProperties``/``maxProperties``), because Anthropic input schemas must be an object at the top.

Strict mode: OpenAI strict structured outputs cannot express this answer. Strict mode requires
``additionalProperties: false`` and every property required on every object, but act and tool
``args`` are free-form objects whose shape depends on the act; it forbids optional plan keys and an
``anyOf``/either-key root. So the adapters send this schema with ``strict: False``: endpoints that
constrain decoding by schema (vLLM, llama.cpp, Ollama) still use it, and the runtime's parser and
the reducer remain the authority on what is valid (I9).
"""

from __future__ import annotations

import copy
from typing import Any

from conversations.core.context import ModelRequest
from conversations.core.plan import PlanAnswer, ReadBatch

ANSWER_SCHEMA_NAME = "turnframe_answer"
STRICT = False  # see the module docstring


def answer_json_schema(request: ModelRequest) -> dict[str, Any]:
    """The JSON schema of an acceptable answer to ``request``."""
    plan = _inline(PlanAnswer.model_json_schema())["properties"]["plan"]
    _narrow_plan(plan, [act.name for act in request.acts])
    properties: dict[str, Any] = {"plan": plan}
    if not request.reads_allowed:
        return {
            "type": "object",
            "description": "Your plan for the user's latest message.",
            "properties": properties,
            "required": ["plan"],
            "additionalProperties": False,
        }
    reads = _inline(ReadBatch.model_json_schema())["properties"]["reads"]
    reads["items"]["properties"]["tool"]["enum"] = [tool.name for tool in request.read_tools]
    reads["maxItems"] = min(reads.get("maxItems", request.calls_left), request.calls_left)
    return {
        "type": "object",
        "description": 'Exactly one key: "reads" (a read batch) or "plan" (your final plan).',
        "properties": {"reads": reads, **properties},
        "minProperties": 1,
        "maxProperties": 1,
        "additionalProperties": False,
    }


def _narrow_plan(plan: dict[str, Any], act_names: list[str]) -> None:
    acts = plan["properties"]["acts"]
    if not act_names:
        acts["maxItems"] = 0
        acts["description"] = "No acts are on offer in this mode: always empty."
        return
    acts["items"]["properties"]["act"]["enum"] = list(act_names)
    held = plan["properties"]["constraints"]["items"]["properties"]["acts"]["items"]
    held["enum"] = [*act_names, "*"]


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
