"""The scripted provider (CONTRACT §5): replays answers from a JSON file, re-read on every call.

"Re-read" is kept as git keeps its index (its "racy" entries): every call looks at the file (``os.stat``), and
reads and parses it again unless the file is exactly the one read before (device, inode, size, change and
modification times) **and** was last written at least ``SETTLED_S`` before it was read. A write after that read
then always changes a time the check compares, however coarse the file system's clock; a file written within
the last seconds is read again on every call, as before. A running server still picks up new entries at once;
an unchanged script (the benchmarks', ``manage.py bench``) is not parsed twice a turn.
"""

from __future__ import annotations

import json
import os
import threading
import time
from typing import Any

from conversations.core.context import ModelRequest

from .base import ProviderFailure

SETTLED_S = 2.0

_READ: dict[str, tuple[tuple[int, ...], Any]] = {}  # path -> (what os.stat said, the script parsed)
_READ_LOCK = threading.Lock()


def script_at(path: str) -> Any:
    """The script in ``path`` as it is now (module doc): parsed again unless certainly unchanged."""
    with open(path, "rb") as file:
        seen = os.fstat(file.fileno())
        key = (seen.st_dev, seen.st_ino, seen.st_size, seen.st_mtime_ns, seen.st_ctime_ns)
        kept = _READ.get(path)
        if kept is not None and kept[0] == key:
            return kept[1]
        read_at = time.time_ns()
        script = json.loads(file.read().decode("utf-8"))
    if read_at - max(seen.st_mtime_ns, seen.st_ctime_ns) >= SETTLED_S * 1e9:
        with _READ_LOCK:
            _READ[path] = (key, script)
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
