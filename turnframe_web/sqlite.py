"""SQLite's checkpoints, off the request path; a Unicode ``lower`` for case-insensitive search; and cursors that
keep the placeholder rewriting of the statements they run.

In WAL mode a commit appends pages to the write-ahead log, and a checkpoint copies them into the database
file, with an fsync. Left to SQLite (``wal_autocheckpoint``, 1000 pages by default) the commit that crosses
the threshold runs the checkpoint itself: about one message + click in twenty paid 15-20 ms more for it (the
bench's p95 was 28-34 ms against a p50 of 13; with this thread, 15-20 ms against 12-13). So each process that opens a
SQLite database file checkpoints it from a thread of its own, twice a second (``PASSIVE``: it never waits for a
reader or a writer, and they never wait for it); ``wal_autocheckpoint`` stays set, far higher, as a backstop.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time

from django.db.backends.signals import connection_created
from django.db.backends.sqlite3.base import SQLiteCursorWrapper

log = logging.getLogger(__name__)

INTERVAL_S = 0.5
_STARTED: set[str] = set()
_LOCK = threading.Lock()


def checkpoint_in_background() -> None:
    """Start a checkpointing thread for each SQLite database file the first time this process connects to it."""
    connection_created.connect(_started, dispatch_uid="turnframe-sqlite-checkpoint")


def _started(sender, connection, **kwargs) -> None:
    if connection.vendor != "sqlite":
        return
    path = str(connection.settings_dict.get("NAME") or "")
    if not path or path == ":memory:" or "mode=memory" in path:
        return
    with _LOCK:
        if path in _STARTED:
            return
        _STARTED.add(path)
    threading.Thread(target=_checkpoint, args=(path,), name=f"sqlite-checkpoint {path}", daemon=True).start()


def _checkpoint(path: str) -> None:
    db = sqlite3.connect(path, timeout=0, isolation_level=None, check_same_thread=False)
    while True:
        time.sleep(INTERVAL_S)
        try:
            db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error as exc:  # busy, or the file went away (a test database): try again next time
            log.debug("checkpoint of %s: %s", path, exc)


# SQLite's own lower() and LIKE fold ASCII only ("ZÜRICH" would not find "Zürich"): every SQLite connection gets
# ``unicode_lower``, Python's str.lower, which ``conversations.fields.Lowered`` compiles to there (PostgreSQL's
# LOWER folds Unicode already)
def unicode_lower_everywhere() -> None:
    connection_created.connect(_unicode_lower, dispatch_uid="turnframe-sqlite-unicode-lower")


def _unicode_lower(sender, connection, **kwargs) -> None:
    if connection.vendor == "sqlite":
        connection.connection.create_function("unicode_lower", 1, _lower, deterministic=True)


def _lower(value):
    return value.lower() if isinstance(value, str) else value


# Django's SQLite cursor rewrites the ``%s`` placeholders of every statement it runs to ``?`` with a regular
# expression, each time (``SQLiteCursorWrapper.convert_query``); the turn's statements are the same few long strings
# every time (issue 23: 0.4-0.6 ms of a message + click). Every SQLite connection's cursors keep the rewriting of a
# statement once made, per process (at most ``_KEPT`` statements; a statement beyond them is rewritten as before).
def rewritten_placeholders_kept() -> None:
    connection_created.connect(_keeping_cursors, dispatch_uid="turnframe-sqlite-kept-placeholders")


_KEPT = 4096
_REWRITTEN: dict[str, str] = {}


class KeepingCursor(SQLiteCursorWrapper):
    """Django's SQLite cursor whose positional placeholder rewriting is made once per statement text."""

    def convert_query(self, query, *, param_names=None):
        if param_names is not None:  # (named parameters: rewritten as before)
            return super().convert_query(query, param_names=param_names)
        found = _REWRITTEN.get(query)
        if found is None:
            found = super().convert_query(query)
            if len(_REWRITTEN) < _KEPT:
                _REWRITTEN[query] = found
        return found


def _keeping_cursors(sender, connection, **kwargs) -> None:
    if connection.vendor != "sqlite":
        return

    def create_cursor(name=None):  # (as Django's, with the cursor above)
        return connection.connection.cursor(factory=KeepingCursor)

    connection.create_cursor = create_cursor
