"""SPEC §21.4 and §27 (registry tests): only read-only MCP tools enter the read registry."""

import pytest
from pydantic import ValidationError

from registries.definitions import READ_ONLY
from registries.mcp import mcp_read_tools

TOOLS = [
    {"name": "weather", "description": "Current weather", "annotations": {"readOnlyHint": True},
     "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                     "required": ["city"]}},
    {"name": "send_email", "description": "Sends an email", "inputSchema": {"type": "object"}},
    {"name": "delete_file", "annotations": {"readOnlyHint": True, "destructiveHint": True}},
    {"name": "write_row", "annotations": {"readOnlyHint": False}},
    {"name": "bad name!", "annotations": {"readOnlyHint": True}},
]


def split():
    calls = []
    admitted, rejected = mcp_read_tools(TOOLS, call_tool=lambda name, args: calls.append((name, args)) or {"ok": 1})
    return admitted, {r.name: r.reason for r in rejected}, calls


def test_an_mcp_tool_without_read_only_hint_is_rejected_with_its_reason():
    admitted, rejected, _ = split()
    assert [t.name for t in admitted] == ["mcp_weather"]
    assert rejected["send_email"] == "not annotated readOnlyHint: true"
    assert rejected["write_row"] == "not annotated readOnlyHint: true"


def test_a_destructive_mcp_tool_is_rejected_even_when_it_claims_to_be_read_only():
    _, rejected, _ = split()
    assert rejected["delete_file"] == "annotated destructiveHint: true"
    assert rejected["bad name!"] == "invalid name"


def test_an_admitted_mcp_tool_is_a_declared_read_only_tool_with_a_strict_schema():
    admitted, _, calls = split()
    tool = admitted[0]
    assert tool.declared_mutability == READ_ONLY
    args = tool.args_schema.model_validate({"city": "Berlin"})
    assert tool.handler(args, None) == {"ok": 1}
    assert calls == [("weather", {"city": "Berlin"})]
    with pytest.raises(ValidationError):
        tool.args_schema.model_validate({"city": "Berlin", "mode": "write"})
    with pytest.raises(ValidationError):
        tool.args_schema.model_validate({})
