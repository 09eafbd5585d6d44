"""The scripted provider re-reads its script on every call (CONTRACT §5), and parses it again only when the bytes
changed."""

from __future__ import annotations

import json

import pytest

from conversations.core.context import ModelRequest
from conversations.providers import scripted
from conversations.providers.base import ProviderFailure
from conversations.providers.scripted import ScriptedProvider


def _write(path, answer: str) -> None:
    path.write_text(json.dumps({"messages": {"hi": {"primary": [{"raw": answer}]}}}))


def _answer(path) -> str:
    request = ModelRequest(message="hi", mode="controlled_agentic", today="2026-12-06", timezone="UTC", username="u",
                           active_case=None, cases=[], read_tools=[], acts=[], rounds=[])
    return ScriptedProvider(str(path)).complete(request)


@pytest.fixture(autouse=True)
def _nothing_kept():
    scripted._PARSED.clear()
    yield
    scripted._PARSED.clear()


def test_a_script_rewritten_at_once_with_the_same_size_is_read_again(tmp_path):
    path = tmp_path / "script.json"
    for answer in ("aaaa", "bbbb", "cccc", "dddd"):
        _write(path, answer)
        assert _answer(path) == answer


def test_an_unchanged_script_is_parsed_once_and_a_change_is_seen(tmp_path, monkeypatch):
    path = tmp_path / "script.json"
    _write(path, "old")
    parsed = []
    loads = json.loads
    monkeypatch.setattr(scripted.json, "loads", lambda text: parsed.append(1) or loads(text))
    assert [_answer(path) for _ in range(3)] == ["old"] * 3
    assert len(parsed) == 1
    _write(path, "new")
    assert _answer(path) == "new"
    assert len(parsed) == 2


def test_a_missing_or_broken_script_is_still_a_provider_failure(tmp_path):
    path = tmp_path / "script.json"
    with pytest.raises(ProviderFailure):
        _answer(path)
    path.write_text("{not json")
    with pytest.raises(ProviderFailure):
        _answer(path)
    _write(path, "fine")
    assert _answer(path) == "fine"
