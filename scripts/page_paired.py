"""Two checkouts side by side in the page (or ``--mode http``) mode of ``manage.py loadbench`` (issue 23, fourth round).

A daphne process is started from each checkout (each imports its own code: daphne puts its working directory
first on ``sys.path``), both on the SQLite file of ``DATABASE_URL`` (migrated), each with its own lane (user's
conversation and case). One client then alternates message + click pairs between them, pair by pair (A B, B A,
…), so both meet the same load on a shared machine; a run of one after the other does not. Prints p50/p95 per pair
and the daphne CPU per pair of each, and the ratio of the p50s.

Run from a checkout (its settings write the lanes), on a scratch database:
    DATABASE_URL=sqlite:////tmp/p.sqlite3 .venv/bin/python manage.py migrate -v0
    DATABASE_URL=sqlite:////tmp/p.sqlite3 .venv/bin/python scripts/page_paired.py ../before . --pairs 400
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "turnframe_web.settings")

import django  # noqa: E402

django.setup()


from conversations.management.commands.bench import bench_kind  # noqa: E402
from tools.loadbench import clients  # noqa: E402
from tools.loadbench.fixtures import make_lanes, write_script  # noqa: E402
from tools.loadbench.servers import cpu_seconds, daphnes_of  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("checkouts", nargs=2)
    parser.add_argument("--pairs", type=int, default=400, help="measured pairs on each (after 3 warm-up pairs)")
    parser.add_argument("--mode", choices=["page", "http"], default="page",
                        help="page: the message on the socket, the click over HTTP; http: both over HTTP")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="turnframe-page-paired-"))
    kind = bench_kind(None)
    write_script(tmp / "script.json", 0, kind.bench)
    lanes = make_lanes(2, kind)
    with daphnes_of(args.checkouts, tmp) as (procs, bases):
        timings, cpu = asyncio.run(_drive(bases, lanes, procs, args.pairs, args.mode))
    for checkout, times, per_pair in zip(args.checkouts, timings, cpu, strict=True):
        times = sorted(times)
        print(f"{checkout}: p50_ms={statistics.median(times):.2f} p95_ms={times[int(0.95 * len(times))]:.2f} "
              f"cpu_ms_per_pair_server={per_pair:.2f}")
    print(f"ratio p50 (second / first) = {statistics.median(timings[1]) / statistics.median(timings[0]):.3f}")


async def _drive(bases, lanes, procs, pairs: int, mode: str) -> tuple[list[list[float]], list[float]]:
    if mode == "http":
        conns = [clients.http_client(base, lane) for base, lane in zip(bases, lanes, strict=True)]
        pair = clients.http_pair
    else:
        conns = [await clients.page_open(base, lane) for base, lane in zip(bases, lanes, strict=True)]
        pair = clients.page_pair
    try:
        for conn, lane in zip(conns, lanes, strict=True):
            for _ in range(3):
                await pair(conn, lane)
        timings: list[list[float]] = [[], []]
        cpu0 = [cpu_seconds(proc.pid) for proc in procs]
        for i in range(pairs):
            for j in (0, 1) if i % 2 == 0 else (1, 0):
                timings[j].append(await pair(conns[j], lanes[j]))
        cpu = [1000 * (cpu_seconds(proc.pid) - c0) / pairs for proc, c0 in zip(procs, cpu0, strict=True)]
    finally:
        for conn in conns:
            await (conn.aclose() if mode == "http" else conn.close())
    return timings, cpu


if __name__ == "__main__":
    main()
