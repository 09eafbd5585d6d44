"""The scripted provider re-reads its script on every call (CONTRACT §5), parsing it again unless it is certainly
unchanged: the same file, and last written long enough before it was read that any later write shows."""

from __future__ import annotations

import json
import os
import time

import pytest

from conversations.core.context import ModelRequest
from conversations.providers import scripted
from conversations.providers.base import ProviderFailure
from conversations.providers.scripted import ScriptedProvider, script_at


def _write(path, answer: str) -> None:
    path.write_text(json.dumps({"messages": {"hi": {"primary": [{"raw": answer}]}}}))


def _answer(path) -> str:
    request = ModelRequest(message="hi", mode="controlled_agentic", today="2026-12-06", timezone="UTC", username="u",
                           active_case=None, cases=[], read_tools=[], acts=[], rounds=[])
    return ScriptedProvider(str(path)).complete(request)


@pytest.fixture(autouse=True)
def _nothing_kept():
    scripted._READ.clear()
    yield
    scripted._READ.clear()


def test_a_script_rewritten_at_once_with_the_same_size_is_read_again(tmp_path):
    path = tmp_path / "script.json"
    for answer in ("aaaa", "bbbb", "cccc", "dddd"):
        _write(path, answer)
        assert _answer(path) == answer
    assert not scripted._READ  # written just now: never kept


def test_a_settled_script_is_parsed_once_and_a_later_write_is_seen(tmp_path, monkeypatch):
    path = tmp_path / "script.json"
    _write(path, "old")
    settled = time.time() - 60
    os.utime(path, (settled, settled))
    monkeypatch.setattr(scripted, "SETTLED_S", 0.0)  # the ctime is now; what is tested is the key, not the clock
    parsed = []
    loads = json.loads
    monkeypatch.setattr(scripted.json, "loads", lambda text: parsed.append(1) or loads(text))
    assert [_answer(path) for _ in range(3)] == ["old"] * 3
    assert len(parsed) == 1
    _write(path, "newer")
    assert _answer(path) == "newer"
    assert len(parsed) == 2


def test_a_file_put_back_with_its_old_modification_time_is_read_again(tmp_path, monkeypatch):
    """cp -p / rsync -t: the modification time goes back, the change time does not."""
    path = tmp_path / "script.json"
    _write(path, "one")
    settled = time.time() - 60
    os.utime(path, (settled, settled))
    monkeypatch.setattr(scripted, "SETTLED_S", 0.0)
    assert script_at(str(path))["messages"]["hi"]["primary"] == [{"raw": "one"}]
    assert scripted._READ  # kept
    stat = path.stat()
    _write(path, "two")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert _answer(path) == "two"


def test_a_missing_or_broken_script_is_still_a_provider_failure(tmp_path):
    path = tmp_path / "script.json"
    with pytest.raises(ProviderFailure):
        _answer(path)
    path.write_text("{not json")
    with pytest.raises(ProviderFailure):
        _answer(path)
