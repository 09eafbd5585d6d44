"""SQLite's checkpoints run in a thread of the process, not on the commit that crosses SQLite's threshold
(issue 11: that commit paid an fsync, one message + click in twenty)."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest
from django.db import connection

from turnframe_web import sqlite


def _main_file_has(path, table: str) -> bool:
    """Whether the database file itself (not its write-ahead log) holds ``table``: ``immutable`` reads only it."""
    db = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        return db.execute("SELECT 1 FROM sqlite_master WHERE name = ?", [table]).fetchone() is not None
    finally:
        db.close()


def test_pages_committed_to_the_log_reach_the_database_file_without_a_checkpointing_commit(tmp_path):
    path = tmp_path / "w.sqlite3"
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")  # no commit checkpoints
    writer.execute("CREATE TABLE t (x)")
    writer.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(100)])
    assert not _main_file_has(path, "t")  # in the log only

    fake = type("Connection", (), {"vendor": "sqlite", "settings_dict": {"NAME": str(path)}})()
    sqlite._started(None, fake)

    deadline = time.monotonic() + 10
    while not _main_file_has(path, "t") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _main_file_has(path, "t")
    sqlite._started(None, fake)  # once per file and process
    assert sum(t.name == f"sqlite-checkpoint {path}" for t in threading.enumerate()) == 1
    writer.close()


@pytest.mark.django_db
def test_the_app_s_sqlite_connections_leave_checkpoints_to_that_thread():
    if connection.vendor != "sqlite":
        pytest.skip("SQLite only")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_autocheckpoint")
        assert cursor.fetchone()[0] == 20000
    assert any(t.name == f"sqlite-checkpoint {connection.settings_dict['NAME']}" for t in threading.enumerate())


@pytest.mark.django_db
def test_sqlite_cursors_rewrite_a_statements_placeholders_once_as_django_does(monkeypatch):
    """Django's SQLite cursor rewrites ``%s`` to ``?`` with a regular expression on every statement; the cursors
    keep each statement's rewriting (issue 23), which is Django's own."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's cursors")
    from django.db.backends.sqlite3 import base

    queries = ["SELECT %s, '%%s', '%%' WHERE 1 = %s", "SELECT 1", "SELECT %s AS \"x%%y\""]
    with connection.cursor() as cursor:
        kept = cursor.cursor
        assert isinstance(kept, sqlite.KeepingCursor)
        for query in queries:
            assert kept.convert_query(query) == base.SQLiteCursorWrapper.convert_query(kept, query)
        assert kept.convert_query("SELECT %(a)s", param_names=["a"]) == "SELECT :a"
        cursor.execute("SELECT %s || '%%'", ["50"])
        assert cursor.fetchone() == ("50%",)

    class Refused:
        def sub(self, *args):
            raise AssertionError("rewritten again")

    monkeypatch.setattr(base, "FORMAT_QMARK_REGEX", Refused())
    assert [kept.convert_query(query) for query in queries] == ["SELECT ?, '%s', '%' WHERE 1 = ?", "SELECT 1",
                                                                'SELECT ? AS "x%y"']
    with pytest.raises(AssertionError, match="rewritten again"):
        kept.convert_query("SELECT %s, 'never seen'")
