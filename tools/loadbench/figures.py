"""What a load run reports: percentiles, the failures, PostgreSQL's connections meanwhile, a plain table."""

from __future__ import annotations

import math
import statistics
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))], 1)


def summary(timings: list[float]) -> dict[str, Any]:
    return {"turns": len(timings), "p50_ms": pct(timings, 0.5), "p95_ms": pct(timings, 0.95),
            "mean_ms": round(statistics.fmean(timings), 1) if timings else None}


@dataclass
class Run:
    timings: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def fail(self, exc: BaseException) -> None:
        self.failures.append(f"{type(exc).__name__}: {exc}"[:300])


class ConnectionSampler(threading.Thread):
    """Counts the database's connections (PostgreSQL's ``pg_stat_activity``, this sampler's own left
    out) every ``every`` seconds; ``samples`` are (time, total, waiting-idle)."""

    def __init__(self, every: float = 0.05):
        super().__init__(daemon=True)
        self.every, self.samples, self.stop = every, [], threading.Event()
        self.enabled = connection.vendor == "postgresql"

    def run(self) -> None:
        if not self.enabled:
            return
        import psycopg

        db = settings.DATABASES["default"]
        with psycopg.connect(host=db.get("HOST") or "127.0.0.1", port=db.get("PORT") or 5432, user=db.get("USER"),
                             password=db.get("PASSWORD") or None, dbname=db["NAME"], autocommit=True) as conn:
            while not self.stop.is_set():
                row = conn.execute("select count(*), count(*) filter (where state like 'idle%%') from "
                                   "pg_stat_activity where datname = %s and pid <> pg_backend_pid()",
                                   [db["NAME"]]).fetchone()
                self.samples.append((time.monotonic(), row[0], row[1]))
                time.sleep(self.every)

    def peak(self, start: float = 0.0, end: float = float("inf")) -> int | None:
        counts = [total for t, total, _ in self.samples if start <= t <= end]
        return max(counts) if counts else None



def table(rows: list[dict[str, Any]]) -> str:
    keys: list[str] = []
    for row in rows:
        keys += [k for k in row if k not in keys and k != "failure_examples"]
    cells = [[str(row.get(k, "")) for k in keys] for row in rows]
    widths = [max(len(k), *(len(c[i]) for c in cells)) for i, k in enumerate(keys)]
    lines = [" | ".join(k.ljust(w) for k, w in zip(keys, widths, strict=True)),
             "-+-".join("-" * w for w in widths)]
    lines += [" | ".join(c.ljust(w) for c, w in zip(cell, widths, strict=True)) for cell in cells]
    return "\n".join(lines)
