"""The LangGraph peer under load, as ``manage.py loadbench --mode processes`` loads daphne (issue 23, 3).

N uvicorn processes each serve the app of ``../shared/bench/peer_langgraph_http.py`` (FastAPI, LangGraph with its
SqliteSaver; each process its own files) on a free local port; ``--clients`` asyncio clients, client i on process
i mod N and on its own thread, send message + approve pairs for ``--duration`` seconds after one warm-up pair each.
Prints one line per N: pairs/s, p50/p95 per pair, the machine's CPU busy and the servers' CPU per pair.

Run it in the peer's own virtual environment (langgraph langgraph-checkpoint-sqlite fastapi uvicorn httpx):
    /work/peer-venv/bin/python scripts/peer_http_load.py --processes 1,2 --clients 16 --duration 20
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
# ../shared/bench beside the project (a worktree under ../wt/ looks one level further up); --bench overrides
BENCH = next((p for p in (ROOT.parent / "shared" / "bench", ROOT.parent.parent / "shared" / "bench")
              if (p / "peer_langgraph_http.py").exists()), ROOT.parent / "shared" / "bench")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_busy() -> tuple[int, int]:
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))], 1)


async def drive(bases: list[str], clients: int, duration: float) -> tuple[list[float], int, float]:
    times: list[float] = []
    failures = 0
    ready = asyncio.Event()
    count = 0

    async def client(i: int) -> None:
        nonlocal failures, count
        async with httpx.AsyncClient(base_url=bases[i % len(bases)], timeout=120) as c:
            tid = f"c{i}"

            async def pair() -> None:
                r = await c.post(f"/threads/{tid}/messages", json={"text": "change the amount to 120"})
                assert r.status_code == 200 and r.json()["interrupts"], r.text
                r = await c.post(f"/threads/{tid}/approve", json={"answer": "yes"})
                assert r.status_code == 200 and r.json()["reply"] in ("updated", "conflict"), r.text

            await pair()  # warm-up
            count += 1
            if count == clients:
                ready.set()
            await ready.wait()
            end = time.monotonic() + duration
            while time.monotonic() < end:
                t0 = time.perf_counter()
                try:
                    await pair()
                    times.append((time.perf_counter() - t0) * 1000)
                except Exception:
                    failures += 1

    tasks = [asyncio.create_task(client(i)) for i in range(clients)]
    await ready.wait()
    began = time.perf_counter()
    await asyncio.gather(*tasks)
    return times, failures, time.perf_counter() - began


def run(n: int, clients: int, duration: float, bench: Path) -> str:
    procs, bases = [], []
    for _ in range(n):
        port = free_port()
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--factory", "peer_langgraph_http:make_app", "--app-dir", str(bench),
             "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning", "--no-access-log"]))
        bases.append(f"http://127.0.0.1:{port}")
    try:
        for base in bases:
            for _ in range(300):
                try:
                    httpx.get(f"{base}/docs", timeout=2)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
        busy0 = cpu_busy()
        cpu0 = sum(cpu_seconds(p.pid) for p in procs)
        times, failures, wall = asyncio.run(drive(bases, clients, duration))
        busy1 = cpu_busy()
        cpu1 = sum(cpu_seconds(p.pid) for p in procs)
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
    pairs = max(1, len(times))
    busy = round(100 * (busy1[0] - busy0[0]) / max(1, busy1[1] - busy0[1]))
    return (f"langgraph_http_load processes={n} clients={clients} pairs={len(times)} "
            f"pairs_per_s={len(times) / wall:.1f} p50_ms={pct(times, 0.5)} p95_ms={pct(times, 0.95)} "
            f"cpu_busy_pct={busy} cpu_ms_per_pair_servers={1000 * (cpu1 - cpu0) / pairs:.0f} failures={failures}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--processes", default="1,2")
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--duration", type=float, default=20.0)
    ap.add_argument("--bench", type=Path, default=BENCH, help="the directory of peer_langgraph_http.py")
    a = ap.parse_args()
    for n in [int(p) for p in a.processes.split(",") if p.strip()]:
        print(run(n, a.clients, a.duration, a.bench), flush=True)


if __name__ == "__main__":
    main()
