"""Turnframe beside the LangGraph peer in one run, pair by pair (issue 23, targets 1).

One daphne serves this checkout (on the SQLite file of ``DATABASE_URL``, migrated; the scripted model of the bench
scenario) and one uvicorn serves the peer of ``../shared/bench/peer_langgraph_http.py`` (FastAPI + LangGraph with
its SqliteSaver; started with the peer's own Python, ``--peer-python``, as ``scripts/peer_http_load.py`` does, no
access log, as the peer script runs it). One client process then alternates, pair by pair (A B, B A, …):
the peer's message + approve over HTTP, and Turnframe's message + click (``--mode http``: both over HTTP with a
bearer token; ``--mode page``: the message on the WebSocket and the click over HTTP with the session and its CSRF
header, as the chat page does). Both servers meet the same moments of a shared machine, which one run after another
does not give: on these machines the same code's p50 moved by a third from one minute to the next.

Prints p50 / p95 per pair of each, the ratio of the p50s (Turnframe / peer) and each server's CPU per pair.

    DATABASE_URL=sqlite:////tmp/pp.sqlite3 .venv/bin/python manage.py migrate -v0
    DATABASE_URL=sqlite:////tmp/pp.sqlite3 taskset -c 1 .venv/bin/python scripts/peer_paired.py \\
        --peer-python /path/to/peer-venv/bin/python --mode http --pairs 300
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "turnframe_web.settings")

import django  # noqa: E402

django.setup()

import httpx  # noqa: E402

from conversations.management.commands.bench import bench_kind  # noqa: E402
from tools.loadbench import clients  # noqa: E402
from tools.loadbench.fixtures import make_lanes, write_script  # noqa: E402
from tools.loadbench.servers import cpu_seconds, daphnes_of, free_port  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BENCH = next((p for p in (ROOT.parent / "shared" / "bench", ROOT.parent.parent / "shared" / "bench")
              if (p / "peer_langgraph_http.py").exists()), ROOT.parent / "shared" / "bench")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--peer-python", required=True, help="a Python with langgraph, fastapi, uvicorn installed")
    parser.add_argument("--mode", choices=["http", "page"], default="http")
    parser.add_argument("--pairs", type=int, default=300, help="measured pairs on each (after 5 warm-up pairs)")
    parser.add_argument("--bench", type=Path, default=BENCH, help="the directory of peer_langgraph_http.py")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="turnframe-peer-paired-"))
    kind = bench_kind(None)
    write_script(tmp / "script.json", 0, kind.bench)
    lane = make_lanes(1, kind)[0]
    peer = _peer(args.peer_python, args.bench, tmp)
    try:
        with daphnes_of(["."], tmp) as (procs, bases):
            times, cpu = asyncio.run(_drive(bases[0], lane, peer, procs[0].pid, args.pairs, args.mode))
    finally:
        peer[0].send_signal(signal.SIGTERM)
        peer[0].wait(15)
    for name, ms, per_pair in zip(("peer (LangGraph + FastAPI, uvicorn)", f"turnframe ({args.mode}, daphne)"),
                                  times, cpu, strict=True):
        ms = sorted(ms)
        print(f"{name}: p50_ms={statistics.median(ms):.2f} p95_ms={ms[int(0.95 * len(ms))]:.2f} "
              f"cpu_ms_per_pair_server={per_pair:.2f}")
    print(f"ratio p50 turnframe / peer = {statistics.median(times[1]) / statistics.median(times[0]):.3f} "
          f"({args.mode}, {args.pairs} pairs each)")


def _peer(python: str, bench: Path, tmp: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    log = open(tmp / "uvicorn.log", "wb")  # noqa: SIM115 (closed with the process)
    proc = subprocess.Popen([python, "-m", "uvicorn", "--factory", "peer_langgraph_http:make_app", "--app-dir",
                             str(bench), "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning",
                             "--no-access-log"], stdout=log, stderr=subprocess.STDOUT, cwd=tmp)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            httpx.get(f"{base}/docs", timeout=2)
            return proc, base
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"the peer did not answer (log in {tmp})")


async def _peer_pair(client: httpx.AsyncClient, i: int) -> float:
    """The peer's unit as peer_langgraph_http.py sends it (one conversation, ``--threads 1``)."""
    started = time.perf_counter()
    r = await client.post("/threads/t0/messages", json={"text": f"change the amount to 120 ({i})"})
    if not r.json()["interrupts"]:
        raise RuntimeError(r.text)
    r = await client.post("/threads/t0/approve", json={"answer": "yes"})
    if r.json()["reply"] not in ("updated", "conflict"):
        raise RuntimeError(r.text)
    return (time.perf_counter() - started) * 1000


async def _drive(base, lane, peer, pid: int, pairs: int, mode: str) -> tuple[list[list[float]], list[float]]:
    peer_client = httpx.AsyncClient(base_url=peer[1], timeout=30)
    if mode == "http":
        conn = clients.http_client(base, lane)
        ours = clients.http_pair
    else:
        conn = await clients.page_open(base, lane)
        ours = clients.page_pair
    try:
        for i in range(5):
            await _peer_pair(peer_client, i)
            await ours(conn, lane)
        times: list[list[float]] = [[], []]
        pids = [peer[0].pid, pid]
        cpu0 = [cpu_seconds(p) for p in pids]
        for i in range(pairs):
            for j in (0, 1) if i % 2 == 0 else (1, 0):
                times[j].append(await (_peer_pair(peer_client, i) if j == 0 else ours(conn, lane)))
        cpu = [1000 * (cpu_seconds(p) - c0) / pairs for p, c0 in zip(pids, cpu0, strict=True)]
    finally:
        await peer_client.aclose()
        await (conn.aclose() if mode == "http" else conn.close())
    return times, cpu


if __name__ == "__main__":
    main()
