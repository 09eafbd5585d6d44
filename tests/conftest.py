"""Shared fixtures. The PostgreSQL lane runs the same suite with TURNFRAME_TEST_POSTGRES=1."""

from __future__ import annotations

import json
import os
import socket

import pytest
from django.conf import settings


def _reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def pytest_report_header(config):
    db = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
    return f"turnframe: database={db} channel_layer={layer}"


def pytest_unconfigure(config):
    """The SQLite test database is a per-process file in WAL mode: Django removes the file, not the
    write-ahead log and shared-memory files beside it."""
    db = settings.DATABASES["default"]
    name = str((db.get("TEST") or {}).get("NAME") or "")
    if db["ENGINE"].endswith("sqlite3") and name:
        for leftover in (f"{name}-wal", f"{name}-shm"):
            if os.path.exists(leftover) and not os.path.exists(name):
                os.remove(leftover)


def pytest_collection_modifyitems(config, items):
    if os.environ.get("TURNFRAME_TEST_POSTGRES") == "1" and not _reachable("127.0.0.1", 5432):
        reason = "TURNFRAME_TEST_POSTGRES=1 but PostgreSQL is not reachable at 127.0.0.1:5432"
        print(f"\nSKIP: {reason}")
        for item in items:
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Hashing is not under test here; the real hasher only slows seeding down (subprocesses keep it)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def endpoints_unlearned():
    """What an OpenAI-compatible endpoint accepts is learnt per process (providers/openai_provider.py): each
    test meets its stub endpoints as new, however the stubs' addresses repeat."""
    from conversations.providers.openai_provider import endpoint_forms_forget

    endpoint_forms_forget()
    yield
    endpoint_forms_forget()


@pytest.fixture(autouse=True)
def api_answers_match_the_openapi(monkeypatch):
    """Every answer under /api/ that a test receives through Django's ``Client`` matches the OpenAPI the
    server serves (tests/openapi_check.py): a key the docs do not declare, or one they require and the answer
    lacks, fails the test that made the request."""
    from django.test import Client

    from .openapi_check import check_answer

    send = Client.request

    def request(self, **environ):
        response = send(self, **environ)
        check_answer(environ, response)
        return response

    monkeypatch.setattr(Client, "request", request)


@pytest.fixture
def script(tmp_path, settings):
    """Drive the model exactly: the scripted provider (CONTRACT §5), re-read on every call."""
    path = tmp_path / "script.json"
    messages: dict = {}
    settings.TURNFRAME = {**settings.TURNFRAME, "PROVIDER": "scripted", "SCRIPT": str(path)}

    class Script:
        def __call__(self, text: str, *primary, fallback=None):
            messages[text] = {"primary": list(primary)}
            if fallback is not None:
                messages[text]["fallback"] = list(fallback)
            path.write_text(json.dumps({"messages": messages}))
            return text

        def with_fallback(self):
            settings.TURNFRAME = {**settings.TURNFRAME, "FALLBACK_PROVIDER": "scripted"}

    path.write_text(json.dumps({"messages": {}}))
    return Script()


@pytest.fixture
def mode(settings):
    def set_mode(name: str):
        settings.TURNFRAME = {**settings.TURNFRAME, "MODE": name}
    return set_mode


@pytest.fixture(scope="session", autouse=True)
def _end_stray_postgres_sessions(django_db_setup, django_db_blocker):
    """Worker threads (the socket's turn pool) can outlive their test with a session open; end those
    sessions so pytest-django can drop this run's PostgreSQL test database instead of leaving it."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                       "WHERE datname = current_database() AND pid <> pg_backend_pid()")
