"""What the registries' HTTP API answers (CONTRACT §6)."""

from __future__ import annotations

from turnframe_web.schemas import Out


class ReadToolOut(Out):
    name: str
    description: str
    mutability: str
    timeout_ms: int
    max_result_bytes: int
    purposes: list[str]
    kind: str
    status: str


class ActOut(Out):
    name: str
    case_kind: str
    mutability: str
    description: str
    claim_phrases: list[str]
    quoted_fields: list[str]
    status: str
