"""Deterministic idempotency keys (I14): derived from the turn, never from time or randomness."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def idempotency_key(*, conversation: str, turn: str, act_id: str, case: str | None,
                    expected_revision: int, args: Mapping[str, Any]) -> str:
    material = canonical([conversation, turn, act_id, case or "", expected_revision, dict(args)])
    return hashlib.sha256(material.encode()).hexdigest()
