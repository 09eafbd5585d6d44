"""Import tools from an MCP server into the read registry (SPEC §21.4), read-only ones only.

A tool is admitted only when its annotations say ``readOnlyHint: true`` and not
``destructiveHint: true``; anything else is listed as rejected with its reason. Admitted tools
still run under the read loop's write guard, budgets and caps like any read tool; write
authorization stays in the command bus, which MCP never reaches.

``tools`` are the entries of an MCP ``tools/list`` result (``name``, ``description``,
``inputSchema``, ``annotations``); ``call_tool(name, arguments)`` performs ``tools/call`` with
whatever client the adopter uses.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, create_model

from .definitions import ReadToolDefinition
from .registry import register_read_tool

_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_\-]{0,63}$")
_TYPES: dict[str, Any] = {"string": str, "integer": int, "number": float, "boolean": bool, "array": list,
                          "object": dict}


@dataclass(frozen=True, slots=True)
class RejectedTool:
    name: str
    reason: str


def admit_reason(tool: Mapping[str, Any]) -> str | None:
    """None when the tool may be a read tool, else why not."""
    name = tool.get("name")
    if not isinstance(name, str) or not _NAME.match(name):
        return "invalid name"
    annotations = tool.get("annotations") or {}
    if not isinstance(annotations, Mapping):
        return "annotations are not an object"
    if annotations.get("destructiveHint") is True:
        return "annotated destructiveHint: true"
    if annotations.get("readOnlyHint") is not True:
        return "not annotated readOnlyHint: true"
    schema = tool.get("inputSchema") or {"type": "object"}
    if not isinstance(schema, Mapping) or schema.get("type", "object") != "object":
        return "inputSchema is not an object schema"
    return None


def args_model_for(name: str, schema: Mapping[str, Any]) -> type[BaseModel]:
    """A strict pydantic model for the tool's JSON schema (top-level properties and required)."""
    required = set(schema.get("required") or ())
    fields: dict[str, Any] = {}
    for prop, spec in (schema.get("properties") or {}).items():
        kind = _TYPES.get((spec or {}).get("type", ""), Any)
        fields[prop] = (kind, ...) if prop in required else (kind | None, None)
    return create_model(f"Mcp_{name}_Args", __config__=ConfigDict(extra="forbid"), **fields)


def mcp_read_tools(tools: Iterable[Mapping[str, Any]], *, call_tool: Callable[[str, dict[str, Any]], Any],
                   prefix: str = "mcp_", timeout_ms: int = 5000,
                   max_result_bytes: int = 16_000) -> tuple[list[ReadToolDefinition], list[RejectedTool]]:
    """Split an MCP tool list into admitted read tools and rejected tools with reasons."""
    admitted: list[ReadToolDefinition] = []
    rejected: list[RejectedTool] = []
    for tool in tools:
        reason = admit_reason(tool)
        if reason:
            rejected.append(RejectedTool(str(tool.get("name", "?")), reason))
            continue
        remote = tool["name"]
        model = args_model_for(remote, tool.get("inputSchema") or {})

        def handler(args: BaseModel, ctx: Any, remote: str = remote) -> Any:
            return call_tool(remote, args.model_dump(exclude_none=True))

        admitted.append(ReadToolDefinition(
            name=f"{prefix}{remote}", description=str(tool.get("description") or remote), args_schema=model,
            handler=handler, timeout_ms=timeout_ms, max_result_bytes=max_result_bytes, kind="mcp"))
    return admitted, rejected


def register_mcp_tools(tools: Iterable[Mapping[str, Any]], **options: Any) -> list[RejectedTool]:
    """Register the admissible tools (call from ``AppConfig.ready()``); returns what was rejected."""
    admitted, rejected = mcp_read_tools(tools, **options)
    for definition in admitted:
        register_read_tool(definition)
    return rejected
