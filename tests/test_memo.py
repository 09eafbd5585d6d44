"""``registries.memo.once``: a cold process's first turns arriving together build a heavy table once (with
``functools.cache`` thirty threads each built the city and currency tables, one after another)."""

from __future__ import annotations

import threading
import time

from registries.memo import once


def test_threads_asking_together_compute_the_table_once_and_all_get_it():
    built = []

    @once
    def table() -> dict[str, int]:
        built.append(1)
        time.sleep(0.2)  # long enough for every thread to ask before it is done
        return {"built": len(built)}

    start, got = threading.Barrier(16), []

    def ask() -> None:
        start.wait()
        got.append(table())

    threads = [threading.Thread(target=ask) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(built) == 1 and len(got) == 16 and all(value is got[0] for value in got)
    table.cache_clear()
    assert table() == {"built": 2}
