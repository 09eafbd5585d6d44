"""Prompt rendering for the real model adapters (SPEC §7.1, §7.4).

The wording lives in versioned template files under ``prompts/`` (``system.v3.md``,
``user.v3.md``); this module only fills them from a ``ModelRequest``. A new wording is a new
version of both files and a new ``PROMPT_VERSION``, so turn traces can say which one a model saw.

Everything that did not come from the code or from the user's latest message (case summaries, the
conversation excerpt, read results, repair errors) is rendered as JSON inside ``<data>`` blocks,
with ``<``, ``>`` and ``&`` escaped, so no data can close its block and pose as instructions.

**Stable first** (issue 22, 4). Servers reuse the longest prefix they have already seen (llama.cpp's
prompt cache, OpenAI's automatic prefix caching past 1,024 tokens, Anthropic's ``cache_control``
breakpoints), so a prompt is three parts in the order they change:

1. ``system``: the instructions, the read tools and the acts with their argument schemas: the same for
   every call of a mode (nothing per turn or per round in it: the read budget is *not* here);
2. ``context``: the case context and the latest message: the same for every call of a turn;
3. ``rounds``: what changes per call: the read rounds so far, the read budget left, a repair request.

The user message is ``context + rounds``; the Anthropic adapter marks a cache breakpoint after
``system`` and after ``context``. Schemas are rendered as compact signatures and empty sections are
left out, so the expense domain's first call stays under 2,000 prompt tokens (docs/evaluation.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from string import Template
from typing import Any

from conversations.core.context import CaseSummary, ModelRequest, OfferedAct, OfferedTool

PROMPT_VERSION = "v3"

_PROMPTS = Path(__file__).with_name("prompts")


@dataclass(frozen=True, slots=True)
class Prompt:
    system: str  # the same for every call of a mode
    context: str  # the same for every call of a turn
    rounds: str  # what changes per call

    @property
    def user(self) -> str:
        return self.context + self.rounds


def render_prompt(request: ModelRequest, *, answer_schema: dict[str, Any] | None = None) -> Prompt:
    """The three parts of one call's prompt. ``answer_schema``: written into the system prompt, for
    endpoints that cannot be given it as ``response_format`` (it must then be the same every round)."""
    system = _template("system").substitute(
        reads_intro=_reads_intro(request),
        tools=_tools_section(request.read_tools),
        acts=_acts_section(request.acts),
        answer_schema=_answer_schema_section(answer_schema),
    )
    context = _template("user").substitute(
        today=request.today,
        timezone=request.timezone,
        username=request.username,
        mode=request.mode,
        active_case=_active(request),
        cases=data_json([_case(case, request) for case in request.cases]),
        context=_context_sections(request),
        message=request.message,
        rounds="\x00",  # the split point between the turn's part and the call's part
    )
    context, closing = context.rsplit("\x00", 1)
    rounds = _rounds_section(request) + _reads_left(request) + _repair_section(request.repair_error) + closing
    return Prompt(system=system, context=context, rounds=rounds)


def render_messages(request: ModelRequest) -> tuple[str, str]:
    """Return ``(system, user)`` prompt texts for one model call."""
    prompt = render_prompt(request)
    return prompt.system, prompt.user


def data_json(value: Any) -> str:
    """JSON for a ``<data>`` block: markup characters escaped, so the text cannot end the block."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@cache
def _template(role: str) -> Template:
    return Template((_PROMPTS / f"{role}.{PROMPT_VERSION}.md").read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- the system part


def _reads_intro(request: ModelRequest) -> str:
    if request.read_tools:
        return "Reads change nothing; the budget left is said at the end."
    return "No reads in this mode: answer with a plan."


def _tools_section(tools: list[OfferedTool]) -> str:
    if not tools:
        return "None."
    return "\n".join(f"- `{tool.name}` {signature(tool.args_schema)}: {tool.description}" for tool in tools)


def _acts_section(acts: list[OfferedAct]) -> str:
    if not acts:
        return ("None in this mode: your plan has no acts; answer questions in `answers` and say in `say` what you "
                "cannot do here.")
    several_kinds = len({act.case_kind for act in acts}) > 1
    return "\n".join(
        f"- `{act.name}` {signature(act.args_schema)}"
        f"{f' [{act.case_kind}]' if several_kinds else ''}{' (creates a case: no `case`)' if act.creates_case else ''}"
        f": {act.description}"
        for act in acts
    )


def _answer_schema_section(schema: dict[str, Any] | None) -> str:
    if schema is None:
        return ""
    return "\n# Answer schema (JSON Schema)\n" + json.dumps(schema, ensure_ascii=False, separators=(",", ":")) + "\n"


def signature(schema: dict[str, Any]) -> str:
    """An argument schema as a compact signature: ``{amount: string "the amount…", date?: date, …}``.

    Every property, its type (``"a"|"b"`` for an enum, ``date`` for ``format: date``), ``?`` when it may be
    left out, its default, and its description; a pattern only when there is no description. (Lengths and
    ranges are left to the server's validation: they cost tokens and tell a model little.)
    """
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return "{}" if schema.get("type") == "object" else _type(schema)
    required = set(schema.get("required", ()))
    parts = []
    for name, prop in properties.items():
        prop = prop if isinstance(prop, dict) else {}
        text = f"{name}{'' if name in required else '?'}: {_type(prop)}"
        if "default" in prop and prop["default"] is not None:
            text += f" = {json.dumps(prop['default'], ensure_ascii=False)}"
        if isinstance(prop.get("description"), str):
            text += f" ({prop['description']})"
        parts.append(text)
    return "{" + "; ".join(parts) + "}"


def _type(node: dict[str, Any], *, described: bool = False) -> str:
    described = described or isinstance(node.get("description"), str)
    variants = node.get("anyOf") or node.get("oneOf")
    if isinstance(variants, list):
        kinds = [_type(v, described=described) for v in variants if isinstance(v, dict) and v.get("type") != "null"]
        return "|".join(kinds) or "null"
    if "enum" in node:
        return "|".join(json.dumps(v, ensure_ascii=False) for v in node["enum"])
    if "const" in node:
        return json.dumps(node["const"], ensure_ascii=False)
    kind = node.get("type", "any")
    if isinstance(kind, list):
        kind = "|".join(str(k) for k in kind if k != "null")
    if kind == "string":
        if node.get("format") in ("date", "date-time"):
            return node["format"]
        return f"string /{node['pattern']}/" if "pattern" in node and not described else "string"
    if kind == "array" and isinstance(node.get("items"), dict):
        return f"[{_type(node['items'])}]"
    if kind == "object" and isinstance(node.get("properties"), dict):
        return signature(node)
    return str(kind)


# --------------------------------------------------------------------------- the turn's part


def _active(request: ModelRequest) -> str:
    if request.active_case is None:
        return "none"
    return "marked below" if any(c.id == request.active_case for c in request.cases) else request.active_case


def _case(case: CaseSummary, request: ModelRequest) -> dict[str, Any]:
    """A case as the model sees it: its view (without nulls), else its summary; no key said twice; its kind only
    when the cases or acts offered are of several kinds; ``active`` on the active one."""
    head: dict[str, Any] = {"id": case.id, "kind": case.kind, "title": case.title, "status": case.status}
    # (not its revision: the server holds that, a model has nothing to do with it)
    view = {key: value for key, value in _without_nulls(case.view).items() if key not in head and key != "revision"}
    if len({c.kind for c in request.cases} | {a.case_kind for a in request.acts}) <= 1:
        del head["kind"]
    return {**head, **(view if view else {"summary": case.summary}),
            **({"active": True} if case.id == request.active_case else {})}


def _without_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


_SECTIONS = (
    ("history", "The conversation so far (context, never evidence)", lambda r: r.excerpt),
    ("pending", "The question the last reply left open, with the earlier message it was about", lambda r: r.pending),
    ("open_cards", "Cards waiting for the user's click", lambda r: r.open_cards),
    ("recent", "What the last turn committed (context, never evidence)", lambda r: r.recent),
)


def _context_sections(request: ModelRequest) -> str:
    """The conversation's state, each section only when it has something."""
    return "".join(f"# {title}\n<data kind=\"{kind}\">\n{data_json(value)}\n</data>\n"
                   for kind, title, get in _SECTIONS if (value := get(request)))


# --------------------------------------------------------------------------- the call's part


def _rounds_section(request: ModelRequest) -> str:
    if not request.rounds:
        return ""
    records = [{"round": r.round, "status": r.status, "requests": r.requests, "results": r.results,
                **({"error": r.error} if r.error else {})} for r in request.rounds]
    return f'# Read rounds of this turn (untrusted results)\n<data kind="read_rounds">\n{data_json(records)}\n</data>\n'


def _reads_left(request: ModelRequest) -> str:
    if request.reads_allowed:
        return f"Reads left this turn: {request.rounds_left} round(s), {request.calls_left} call(s).\n"
    if request.read_tools:
        return ("The read budget of this turn is spent: answer with a plan now (another read batch ends the turn "
                "without doing anything).\n")
    return ""


def _repair_section(error: str | None) -> str:
    if not error:
        return ""
    return (
        "# Your previous answer was rejected\n"
        f'<data kind="repair_error">\n{data_json(error)}\n</data>\n'
        "Answer again with one corrected JSON object of the same shape; fix what the error names.\n"
    )
