"""Each Turnframe setting has its default in one place: the ``TURNFRAME`` dict of ``turnframe_web/settings.py``.

The code indexes ``settings.TURNFRAME["X"]``; a ``.get("X", default)`` beside it would be a second default that
can drift from the first (issue 21, 6). These scan the source, so a new read of a key nobody defined, or a new
``.get`` with its own default, fails here rather than in production.
"""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
READ = re.compile(r"""TURNFRAME(?:\[|\.get\()\s*["']([A-Z0-9_]+)["']""")
GET = re.compile(r"""TURNFRAME\.get\(""")


def source_files() -> list[Path]:
    """Every Python file of the project (this one aside: its examples are not reads)."""
    return sorted(p for p in ROOT.rglob("*.py") if p != Path(__file__).resolve()
                  and not {".venv", "node_modules", "migrations"} & set(p.relative_to(ROOT).parts))


def keys_read() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in source_files():
        for key in READ.findall(path.read_text(encoding="utf-8")):
            found.setdefault(key, []).append(str(path.relative_to(ROOT)))
    return found


def test_every_turnframe_key_the_code_reads_is_defined_in_the_settings():
    read = keys_read()
    assert "MAX_CONTEXT_CASES" in read and "OUTBOX_MAX_ATTEMPTS" in read  # the scan sees the engine's reads
    missing = {key: where for key, where in read.items() if key not in settings.TURNFRAME}
    assert missing == {}


def test_no_code_reads_a_turnframe_setting_with_a_default_of_its_own():
    getters = [str(path.relative_to(ROOT)) for path in source_files() if GET.search(path.read_text(encoding="utf-8"))]
    assert getters == []


def test_the_scan_finds_both_ways_of_reading_a_key():
    text = 'a = settings.TURNFRAME["MODE"]; b = settings.TURNFRAME.get("NOT_A_KEY", 3)'
    assert READ.findall(text) == ["MODE", "NOT_A_KEY"]
    assert "NOT_A_KEY" not in settings.TURNFRAME
