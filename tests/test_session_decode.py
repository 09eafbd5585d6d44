"""A session's signed data is checked and decoded once per process and signing keys (issue 23, fifth round,
``conversations.sessions.SessionStore.decode``): a browser's clicks and every frame of its socket read the same data.
What is kept is only data that decoded and holds plain values; a copy is handed out each time."""

from __future__ import annotations

import logging

import pytest
from django.core import signing

from conversations import sessions
from conversations.sessions import SessionStore


@pytest.fixture(autouse=True)
def nothing_kept():
    sessions._DECODED.clear()
    yield
    sessions._DECODED.clear()


def _counting_loads(monkeypatch) -> list[str]:
    calls: list[str] = []
    loads = signing.loads

    def counting(value, *args, **kwargs):
        calls.append(value)
        return loads(value, *args, **kwargs)

    monkeypatch.setattr(signing, "loads", counting)
    return calls


def test_the_same_data_is_checked_once_and_each_reader_gets_its_own_copy(monkeypatch):
    store = SessionStore()
    data = store.encode({"_auth_user_id": "7", "_auth_user_hash": "abc", "n": 3})
    calls = _counting_loads(monkeypatch)
    first = SessionStore().decode(data)
    first["_auth_user_id"] = "8"  # a request changing its session changes nobody else's
    second = SessionStore().decode(data)
    assert second == {"_auth_user_id": "7", "_auth_user_hash": "abc", "n": 3}
    assert second is not first
    assert len(calls) == 1


def test_data_that_does_not_verify_is_checked_and_logged_every_time(monkeypatch, caplog):
    data = SessionStore().encode({"_auth_user_id": "7"})
    forged = data[:-3] + ("AAA" if not data.endswith("AAA") else "BBB")
    calls = _counting_loads(monkeypatch)
    with caplog.at_level(logging.WARNING, logger="django.security.SuspiciousSession"):
        assert SessionStore().decode(forged) == {}
        assert SessionStore().decode(forged) == {}
    assert len(calls) == 2
    assert sum("Session data corrupted" in r.getMessage() for r in caplog.records) == 2


def test_data_with_nested_values_is_decoded_every_time(monkeypatch):
    data = SessionStore().encode({"_auth_user_id": "7", "cart": ["a"]})
    calls = _counting_loads(monkeypatch)
    SessionStore().decode(data)["cart"].append("b")
    assert SessionStore().decode(data)["cart"] == ["a"]
    assert len(calls) == 2


def test_data_signed_with_a_key_no_longer_used_is_refused(settings):
    data = SessionStore().encode({"_auth_user_id": "7"})
    assert SessionStore().decode(data) == {"_auth_user_id": "7"}
    settings.SECRET_KEY = "another-secret-key-for-this-test-only-" + "x" * 20
    settings.SECRET_KEY_FALLBACKS = []
    assert SessionStore().decode(data) == {}
