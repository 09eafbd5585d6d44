"""The scripted provider (CONTRACT §5): replays answers from a JSON file, re-read on every call.

Every call reads the file; it is parsed again only when its bytes differ from the last ones parsed (a running
server picks up a new entry at once; an unchanged script, as the benchmarks' ``manage.py bench`` has, is not
parsed twice a turn).
"""

from __future__ import annotations

import json
import time
from typing import Any

from conversations.core.context import ModelRequest

from .base import ProviderFailure

_PARSED: dict[str, tuple[bytes, Any]] = {}  # path -> (the bytes last parsed, what they parsed to)


def script_at(path: str) -> Any:
    """The script in ``path`` as it is now (module doc): parsed again unless its bytes are the last ones parsed."""
    with open(path, "rb") as file:
        raw = file.read()
    kept = _PARSED.get(path)
    if kept is not None and kept[0] == raw:
        return kept[1]
    script = json.loads(raw.decode("utf-8"))
    _PARSED[path] = (raw, script)
    return script


class ScriptedProvider:
    """One instance per turn and role; each call consumes the next answer for the message."""

    # answers at once unless a step says ``delay_s`` (it hands the turn's held events over itself before waiting)
    answers_at_once = True

    def __init__(self, path: str | None, role: str = "primary"):
        self.name = "scripted" if role == "primary" else f"scripted:{role}"
        self.path = path
        self.role = role
        self.calls = 0

    def complete(self, request: ModelRequest) -> str:
        index, self.calls = self.calls, self.calls + 1
        if not self.path:
            raise ProviderFailure("unavailable", "TURNFRAME_SCRIPT is not set")
        try:
            script = script_at(self.path)
            answers = script["messages"][request.message][self.role]
        except (OSError, ValueError, KeyError, TypeError):
            raise ProviderFailure("unavailable", "no scripted answer for this message") from None
        if not isinstance(answers, list) or index >= len(answers):
            raise ProviderFailure("unavailable", "the script has no further answer for this message")
        answer = answers[index]
        if isinstance(answer, dict) and "delay_s" in answer:  # a slow model: wait, then answer the rest
            from conversations import stream

            stream.flush_held()  # as before any model call that waits (readloop._complete)
            time.sleep(min(max(float(answer["delay_s"]), 0.0), 60.0))
            answer = {k: v for k, v in answer.items() if k != "delay_s"}
        if isinstance(answer, dict) and set(answer) == {"fail"}:
            kind = answer["fail"] if answer["fail"] in ProviderFailure.KINDS else "unavailable"
            raise ProviderFailure(kind, f"scripted failure: {answer['fail']}")
        if isinstance(answer, dict) and set(answer) == {"raw"}:
            return str(answer["raw"])
        return json.dumps(answer)
