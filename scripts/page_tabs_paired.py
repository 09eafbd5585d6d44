"""``page_paired.py`` with more sockets open on each conversation, as other tabs or devices of the user would hold
them (issue 23, sixth round). A daphne from each checkout on one SQLite file, each with its own lane; one client
alternates message + click pairs between them (A B, B A, …), and ``tabs`` more sockets per conversation only read.
Prints the p50 of the pair and of the click alone (its HTTP request to its answer), the daphne CPU per pair, and the
ratios of the p50s (second / first).

Run from a checkout, on a scratch database:
    DATABASE_URL=sqlite:////tmp/p.sqlite3 .venv/bin/python manage.py migrate -v0
    DATABASE_URL=sqlite:////tmp/p.sqlite3 .venv/bin/python scripts/page_tabs_paired.py ../before . --tabs 4
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "turnframe_web.settings")

import django  # noqa: E402

django.setup()
logging.getLogger("httpx").setLevel(logging.WARNING)


from conversations.management.commands.bench import bench_kind  # noqa: E402
from tools.loadbench import clients  # noqa: E402
from tools.loadbench.fixtures import make_lanes, write_script  # noqa: E402
from tools.loadbench.servers import cpu_seconds, daphnes_of  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("checkouts", nargs=2)
    parser.add_argument("--tabs", type=int, default=4, help="sockets per conversation besides the page's own")
    parser.add_argument("--pairs", type=int, default=200, help="measured pairs on each (after 3 warm-up pairs)")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="turnframe-page-tabs-"))
    kind = bench_kind(None)
    write_script(tmp / "script.json", 0, kind.bench)
    lanes = make_lanes(2, kind)
    with daphnes_of(args.checkouts, tmp) as (procs, bases):
        pairs, clicks, cpu = asyncio.run(_drive(bases, lanes, procs, args.tabs, args.pairs))
    for checkout, pair, click, per_pair in zip(args.checkouts, pairs, clicks, cpu, strict=True):
        print(f"{checkout}: pair p50_ms={statistics.median(pair):.2f} click p50_ms={statistics.median(click):.2f} "
              f"cpu_ms_per_pair_server={per_pair:.2f}")
    print(f"ratio p50 (second / first): pair {statistics.median(pairs[1]) / statistics.median(pairs[0]):.3f} "
          f"click {statistics.median(clicks[1]) / statistics.median(clicks[0]):.3f}")


async def _read_all(ws) -> None:
    with contextlib.suppress(Exception):
        async for _ in ws:
            pass


async def _drive(bases, lanes, procs, tabs: int, pairs: int):
    conns = [await clients.page_open(base, lane) for base, lane in zip(bases, lanes, strict=True)]
    others = [await clients.ws_open(base, lane) for base, lane in zip(bases, lanes, strict=True) for _ in range(tabs)]
    readers = [asyncio.create_task(_read_all(ws)) for ws in others]
    try:
        for conn, lane in zip(conns, lanes, strict=True):
            for _ in range(3):
                await clients.page_pair(conn, lane)
        timings: list[list[float]] = [[], []]
        click_timings: list[list[float]] = [[], []]
        cpu0 = [cpu_seconds(proc.pid) for proc in procs]
        for i in range(pairs):
            for j in (0, 1) if i % 2 == 0 else (1, 0):
                conn, lane = conns[j], lanes[j]
                started = time.perf_counter()
                _, card = await clients.ws_message(conn.ws, lane)
                clicked = time.perf_counter()
                r = await conn.http.post(f"/api/interactions/{card}/respond",
                                         json={"option": "confirm", "client_response_id": uuid.uuid4().hex})
                answered = time.perf_counter()
                if r.status_code != 200:
                    raise clients.TurnFailed(f"click: {r.status_code} {r.text[:200]}")
                timings[j].append((answered - started) * 1000)
                click_timings[j].append((answered - clicked) * 1000)
                click = r.json()["turn"]["id"]
                while (await clients.ws_until_done(conn.ws)).get("id") != click:
                    pass
        cpu = [1000 * (cpu_seconds(proc.pid) - c0) / pairs for proc, c0 in zip(procs, cpu0, strict=True)]
    finally:
        for reader in readers:
            reader.cancel()
        for ws in others:
            await ws.close()
        for conn in conns:
            await conn.close()
    return timings, click_timings, cpu


if __name__ == "__main__":
    main()
