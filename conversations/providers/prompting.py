"""Prompt rendering for the real model adapters (SPEC §7.1, §7.4).

The wording lives in versioned template files under ``prompts/`` (``system.v2.md``,
``user.v2.md``); this module only fills them from a ``ModelRequest``. A new wording is a new
version of both files and a new ``PROMPT_VERSION``, so turn traces can say which one a model saw.

Everything that did not come from the code or from the user's latest message (case summaries, the
conversation excerpt, read results, repair errors) is rendered as JSON inside ``<data>`` blocks,
with ``<``, ``>`` and ``&`` escaped, so no data can close its block and pose as instructions.
"""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from pathlib import Path
from string import Template
from typing import Any

from conversations.core.context import ModelRequest, OfferedAct, OfferedTool

PROMPT_VERSION = "v2"

_PROMPTS = Path(__file__).with_name("prompts")


def render_messages(request: ModelRequest) -> tuple[str, str]:
    """Return ``(system, user)`` prompt texts for one model call."""
    system = _template("system").substitute(
        reads_rule=_reads_rule(request),
        tools=_tools_section(request.read_tools),
        acts=_acts_section(request.acts),
    )
    user = _template("user").substitute(
        today=request.today,
        timezone=request.timezone,
        username=request.username,
        mode=request.mode,
        active_case=request.active_case or "none",
        cases=data_json([dataclasses.asdict(case) for case in request.cases]),
        history=data_json(request.excerpt),
        pending=data_json(request.pending),
        recent=data_json(request.recent),
        open_cards=data_json(request.open_cards),
        rounds=data_json([dataclasses.asdict(record) for record in request.rounds]),
        repair=_repair_section(request.repair_error),
        message=request.message,
    )
    return system, user


def data_json(value: Any) -> str:
    """JSON for a ``<data>`` block: markup characters escaped, so the text cannot end the block."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@cache
def _template(role: str) -> Template:
    return Template((_PROMPTS / f"{role}.{PROMPT_VERSION}.md").read_text(encoding="utf-8"))


def _reads_rule(request: ModelRequest) -> str:
    if request.reads_allowed:
        return (
            "# Reads\n\n"
            f"You may send read batches: at most {request.rounds_left} more round(s) and "
            f"{request.calls_left} more read call(s) in total this turn. Use only the read tools "
            "listed below, with arguments that match their schema. Every request of a batch is "
            "checked before any runs; if one is invalid, none runs. Reads never change anything. "
            "When you know enough, answer with a plan."
        )
    if request.read_tools:
        return (
            "# Reads\n\n"
            "The read budget of this turn is spent: answer with a plan now. Another read batch "
            "ends the turn without doing anything."
        )
    return "# Reads\n\nNo read tools are available in this mode: answer with a plan."


def _tools_section(tools: list[OfferedTool]) -> str:
    if not tools:
        return "None."
    return "\n".join(
        f"- `{tool.name}`: {tool.description}\n  args schema: {_schema(tool.args_schema)}" for tool in tools
    )


def _acts_section(acts: list[OfferedAct]) -> str:
    if not acts:
        return (
            "None: acts are not available in this mode. Your plan must have no acts; answer the "
            "user's questions in `answers` and say in `say` what you cannot do here."
        )
    return "\n".join(
        f"- `{act.name}` (case kind `{act.case_kind}`, {act.mutability}"
        f"{', creates a case: omit `case`' if act.creates_case else ''}): {act.description}\n"
        f"  args schema: {_schema(act.args_schema)}"
        for act in acts
    )


def _repair_section(error: str | None) -> str:
    if not error:
        return ""
    return (
        "\n# Your previous answer was rejected\n"
        "The server could not accept your previous answer. Its validation error:\n"
        f'<data kind="repair_error">\n{data_json(error)}\n</data>\n'
        "Answer again with one corrected JSON object of the same shape; fix what the error names.\n"
    )


def _schema(schema: dict[str, Any]) -> str:
    return json.dumps(schema, ensure_ascii=False, sort_keys=True)
