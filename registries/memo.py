"""``once``: a table computed once per process, by one thread while the others wait.

``functools.cache`` computes a value as often as threads ask for it before the first has finished: thirty turns
arriving together at a cold process each built the same city and currency tables (about a second of CPU each,
one after another under the GIL: the last turn waited half a minute). ``once`` builds it a single time."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable


def once[T](func: Callable[[], T]) -> Callable[[], T]:
    """Cache a function of no arguments; the first call computes it under a lock, later ones return it."""
    lock = threading.Lock()
    kept: list[T] = []

    @functools.wraps(func)
    def wrapper() -> T:
        if not kept:
            with lock:
                if not kept:
                    kept.append(func())
        return kept[0]

    wrapper.cache_clear = kept.clear  # type: ignore[attr-defined]  # as functools.cache offers it
    return wrapper
