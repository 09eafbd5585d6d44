"""SQLite's checkpoints, off the request path; and a Unicode ``lower`` for case-insensitive search.

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
