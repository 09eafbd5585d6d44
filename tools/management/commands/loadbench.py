"""``manage.py loadbench``: the runtime under load, through real daphne processes (issue 11, 2–5).

Every mode starts its own daphne process(es) on free local ports, on the configured database (the
children get the same database as this command, a scripted model, and ``REDIS_URL`` when it is set),
and drives them with asyncio clients in this process: ``httpx`` over HTTP, ``websockets`` over the
socket. One measured turn is the work of ``manage.py bench``: a message turn in which the scripted
model asks for one read and proposes one act that needs confirmation, then the click that confirms
the card (command, event, reply). Every client works on its own conversation and its own case (the
domain's bench scenario, ``--domain``).

Modes:

- ``http`` / ``ws`` / ``page``: ``--clients`` clients (default 1) run ``--turns`` message + click pairs over
  HTTP, the WebSocket, or as the chat page does (the message on the socket, the click over HTTP with the
  session cookie and its CSRF header); p50/p95 per pair. ``--compare`` also runs ``manage.py bench --threads 1`` here,
  in-process, and reports the ratio.
- ``processes``: for each N of ``--processes`` (default ``1,2,4``), N daphne processes (one port each;
  client i talks to process i mod N) and ``--clients`` concurrent clients for ``--duration`` seconds:
  throughput and p95; and how busy the machine's CPUs were meanwhile (``/proc/stat``).
- ``sockets``: ``--sockets`` open WebSockets on one process (default 500), ``--active`` of them (default
  50) each sending a turn every ``--interval`` seconds for ``--duration`` seconds: p95 turn latency,
  the server's RSS before and after the sockets opened (per socket), and how many sockets dropped.
- ``slow``: ``--slow`` concurrent turns (default 100) on one process whose model waits ``--delay``
  seconds (the scripted provider's ``delay_s``), and meanwhile, half-way through the wait, a fast conversation's
  message + click: how long all the slow turns took, the fast turn's latency, and (PostgreSQL) how
  many database connections were open at the peak and while the model was being waited for.

It writes under a user named ``loadbench``; point DATABASE_URL at a scratch database. No test asserts a
duration: ``tests/test_loadbench.py`` only runs it end to end at a tiny size.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import connection

from conversations.management.commands.bench import bench_kind
from tools.loadbench.clients import (
    http_client,
    http_message,
    http_pair,
    page_open,
    page_pair,
    ws_message,
    ws_open,
    ws_pair,
)
from tools.loadbench.figures import ConnectionSampler, Run, pct, summary, table
from tools.loadbench.fixtures import SLOW, Lane, make_lanes, write_script
from tools.loadbench.servers import Servers, cpu_busy, cpu_seconds, rss_kib


class Command(BaseCommand):
    help = "The runtime under load through daphne: http | ws | page | processes | sockets | slow (issue 11)."

    def add_arguments(self, parser):
        parser.add_argument("--mode", choices=["http", "ws", "page", "processes", "sockets", "slow"], default="http")
        parser.add_argument("--turns", type=int, default=100, help="http/ws: message + click pairs in all")
        parser.add_argument("--clients", type=int, default=None, help="concurrent clients (http/ws 1, processes 16)")
        parser.add_argument("--processes", default="1,2,4", help="processes: the N to run, comma-separated")
        parser.add_argument("--transport", choices=["http", "ws"], default=None,
                            help="processes (default http) and slow (default ws)")
        parser.add_argument("--duration", type=float, default=None, help="seconds of load (processes 20, sockets 30)")
        parser.add_argument("--sockets", type=int, default=500)
        parser.add_argument("--active", type=int, default=50)
        parser.add_argument("--interval", type=float, default=3.0, help="sockets: seconds between an active one's turns")
        parser.add_argument("--slow", type=int, default=100)
        parser.add_argument("--delay", type=float, default=5.0, help="slow: seconds the model waits")
        parser.add_argument("--compare", action="store_true", help="http/ws: also run `bench --threads 1` here")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument("--domain", default=None, help="the case kind whose bench scenario runs (default: the first)")

    def handle(self, *args, mode: str, json: bool, **opts):
        logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line per request
        self.tmp = Path(tempfile.mkdtemp(prefix="turnframe-loadbench-"))
        self.script = self.tmp / "script.json"
        self.kind = bench_kind(opts.get("domain"))
        write_script(self.script, opts["delay"], self.kind.bench)
        rows = getattr(self, f"mode_{mode}")(**opts)
        result = {"mode": mode, "engine": connection.vendor, "cores": os.cpu_count(),
                  "channel_layer": "redis" if settings.REDIS_URL else "in-memory", "rows": rows}
        if json:
            import json as _json

            self.stdout.write(_json.dumps(result))
        else:
            self.stdout.write(f"loadbench {mode}: {result['engine']}, {result['channel_layer']} channel layer, "
                              f"{result['cores']} cores")
            self.stdout.write(table(rows))
        failures = sum(r.get("failures", 0) for r in rows) + sum(r.get("dropped", 0) for r in rows)
        if failures:
            for row in rows:
                for f in row.get("failure_examples", []):
                    self.stderr.write(f"failure: {f}")
            raise SystemExit(1)

    # ---- http / ws: latency per message + click, against the in-process figure

    def mode_http(self, **opts) -> list[dict[str, Any]]:
        return self._latency("http", **{**opts, "transport": None})

    def mode_ws(self, **opts) -> list[dict[str, Any]]:
        return self._latency("ws", **{**opts, "transport": None})

    def mode_page(self, **opts) -> list[dict[str, Any]]:
        return self._latency("page", **{**opts, "transport": None})

    def _latency(self, kind: str, *, turns: int, clients: int | None, compare: bool, **_) -> list[dict]:
        clients, transport = clients or 1, kind
        lanes = make_lanes(clients, self.kind)
        with Servers(1, self.script, self.tmp) as servers:
            pid = servers.procs[0].pid
            cpu: list[float] = []  # the server's CPU seconds when the measured pairs start (after the warm-up)
            run, wall = asyncio.run(self._drive(transport, servers.bases, lanes, turns=turns,
                                                on_start=lambda: cpu.append(cpu_seconds(pid))))
            cpu.append(cpu_seconds(pid))
        how = "ws message + http click" if transport == "page" else transport
        row = {"run": f"{how} via daphne, {clients} client(s)", **summary(run.timings),
               "throughput_per_s": round(len(run.timings) / wall, 1) if wall else None,
               # the daphne process's CPU per measured pair: steadier than the latency on a shared machine
               "cpu_ms_per_pair_server": round(1000 * (cpu[-1] - cpu[0]) / max(1, len(run.timings)), 1),
               "failures": len(run.failures), "failure_examples": run.failures[:3]}
        rows = [row]
        if compare:
            out = io.StringIO()
            call_command("bench", turns=turns, threads=1, json=True, domain=self.kind.name, stdout=out)
            inproc = __import__("json").loads(out.getvalue())
            rows.append({"run": "in-process (bench --threads 1)", "turns": inproc["turns"], "p50_ms": inproc["p50_ms"],
                         "p95_ms": inproc["p95_ms"], "mean_ms": inproc["mean_ms"],
                         "throughput_per_s": inproc["throughput_turns_per_s"], "failures": inproc["failures"]})
            if row["p50_ms"] and inproc["p50_ms"]:
                row["ratio_p50"] = round(row["p50_ms"] / inproc["p50_ms"], 2)
                row["ratio_p95"] = round(row["p95_ms"] / inproc["p95_ms"], 2)
        return rows

    async def _drive(self, transport: str, bases: list[str], lanes: list[Lane], *, turns: int | None = None,
                     duration: float | None = None, on_start=None) -> tuple[Run, float]:
        """Each lane a client on server ``i mod N``: one warm-up pair (not counted), then pairs until
        ``turns`` in all are done or ``duration`` has passed."""
        run = Run()
        left = [turns] if turns is not None else None
        start = asyncio.Event()
        ready = 0
        deadline: list[float] = []

        async def client(i: int, lane: Lane) -> None:
            nonlocal ready
            base = bases[i % len(bases)]
            conn = (http_client(base, lane) if transport == "http" else await page_open(base, lane)
                    if transport == "page" else await ws_open(base, lane))

            async def pair() -> float:
                return await (http_pair(conn, lane) if transport == "http" else page_pair(conn, lane)
                              if transport == "page" else ws_pair(conn, lane))

            try:
                try:
                    await pair()  # warm-up: imports, first connections
                except Exception as exc:
                    run.fail(exc)
                ready += 1
                if ready == len(lanes):
                    deadline.append(time.monotonic() + (duration or 0))
                    if on_start is not None:
                        on_start()
                    start.set()
                await start.wait()
                while True:
                    if left is not None:
                        if left[0] <= 0:
                            return
                        left[0] -= 1
                    elif time.monotonic() >= deadline[0]:
                        return
                    try:
                        run.timings.append(await pair())
                    except Exception as exc:
                        run.fail(exc)
            finally:
                await (conn.aclose() if transport == "http" else conn.close())

        tasks = [asyncio.create_task(client(i, lane)) for i, lane in enumerate(lanes)]
        await start.wait()
        began = time.perf_counter()
        await asyncio.gather(*tasks)
        return run, time.perf_counter() - began

    # ---- processes: throughput against N

    def mode_processes(self, *, processes: str, clients: int | None, duration: float | None,
                       transport: str | None, **_) -> list[dict[str, Any]]:
        clients, duration, transport = clients or 16, duration or 20.0, transport or "http"
        lanes = make_lanes(clients, self.kind)
        rows = []
        for n in [int(p) for p in processes.split(",") if p.strip()]:
            with Servers(n, self.script, self.tmp) as servers:
                busy0, own0 = cpu_busy(), os.times()
                servers0 = sum(cpu_seconds(p.pid) for p in servers.procs)
                run, wall = asyncio.run(self._drive(transport, servers.bases, lanes, duration=duration))
                busy1, own1 = cpu_busy(), os.times()
                servers1 = sum(cpu_seconds(p.pid) for p in servers.procs)
            total = busy1[1] - busy0[1]
            # where the machine's CPU went, per measured pair: the daphne processes, these clients, and
            # the rest (PostgreSQL, Redis, the system); the warm-up pairs are in the CPU figures too
            pairs = max(1, len(run.timings))
            tick = os.sysconf("SC_CLK_TCK")
            busy_s = (busy1[0] - busy0[0]) / tick
            client_s = (own1.user + own1.system) - (own0.user + own0.system)
            rows.append({"run": f"{n} process(es), {clients} {transport} clients", "processes": n, **summary(run.timings),
                         "throughput_per_s": round(len(run.timings) / wall, 1) if wall else None,
                         "cpu_busy_pct": round(100 * (busy1[0] - busy0[0]) / total) if total else None,
                         "cpu_ms_per_pair_servers": round(1000 * (servers1 - servers0) / pairs),
                         "cpu_ms_per_pair_clients": round(1000 * client_s / pairs),
                         "cpu_ms_per_pair_rest": round(1000 * (busy_s - (servers1 - servers0) - client_s) / pairs),
                         "failures": len(run.failures), "failure_examples": run.failures[:3]})
        return rows

    # ---- sockets: many open sockets on one process

    def mode_sockets(self, *, sockets: int, active: int, interval: float, duration: float | None,
                     **_) -> list[dict[str, Any]]:
        duration = duration or 30.0
        active = min(active, sockets)
        lanes = make_lanes(active, self.kind) + make_lanes(sockets - active, self.kind, with_case=False)
        with Servers(1, self.script, self.tmp) as servers:
            pid, base = servers.procs[0].pid, servers.bases[0]
            return [asyncio.run(self._sockets(pid, base, lanes, active, interval, duration))]

    async def _sockets(self, pid: int, base: str, lanes: list[Lane], active: int, interval: float,
                       duration: float) -> dict[str, Any]:
        run = Run()
        warm = await ws_open(base, lanes[0])  # one turn first, so the baseline has everything imported
        try:
            await ws_pair(warm, lanes[0])
        finally:
            await warm.close()
        await asyncio.sleep(1)
        rss_before = rss_kib(pid)
        opened = []
        for i in range(0, len(lanes), 50):  # in batches, as a crowd arriving
            opened += await asyncio.gather(*(ws_open(base, lane) for lane in lanes[i:i + 50]))
        await asyncio.sleep(2)
        rss_open = rss_kib(pid)
        began = time.monotonic()

        async def talker(ws, lane: Lane, offset: float) -> None:
            await asyncio.sleep(offset)
            while time.monotonic() - began < duration:
                t0 = time.monotonic()
                try:
                    run.timings.append(await ws_pair(ws, lane))
                except Exception as exc:
                    run.fail(exc)
                await asyncio.sleep(max(0.0, interval - (time.monotonic() - t0)))

        await asyncio.gather(*(talker(opened[i], lanes[i], interval * i / active) for i in range(active)))
        rss_after = rss_kib(pid)

        async def alive(ws) -> bool:  # the socket still answers: a ping frame gets its pong
            try:
                await ws.send('{"type":"ping"}')
                while True:
                    event = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    if event.get("type") == "pong":
                        return True
            except Exception:
                return False

        answered = sum(await asyncio.gather(*(alive(ws) for ws in opened)))
        await asyncio.gather(*(ws.close() for ws in opened), return_exceptions=True)
        return {"run": f"{len(lanes)} sockets, {active} sending a turn every {interval:g} s for {duration:g} s",
                **summary(run.timings), "sockets": len(lanes), "alive_at_end": answered,
                "dropped": len(lanes) - answered,
                "rss_before_mib": round(rss_before / 1024, 1), "rss_open_mib": round(rss_open / 1024, 1),
                "rss_after_mib": round(rss_after / 1024, 1),
                "kib_per_socket": round((rss_open - rss_before) / len(lanes), 1),
                "failures": len(run.failures), "failure_examples": run.failures[:3]}

    # ---- slow: a slow model holds neither a connection nor the other conversations

    def mode_slow(self, *, slow: int, delay: float, transport: str | None, **_) -> list[dict[str, Any]]:
        transport = transport or "ws"
        lanes = make_lanes(slow + 1, self.kind)
        connection.close()  # this command's own connections are not the server's: counted out below
        if hasattr(connection, "close_pool"):
            connection.close_pool()
        with Servers(1, self.script, self.tmp) as servers:
            pid = servers.procs[0].pid
            return [asyncio.run(self._slow(servers.bases[0], pid, lanes[:-1], lanes[-1], delay, transport))]

    async def _slow(self, base: str, pid: int, lanes: list[Lane], fast: Lane, delay: float,
                    transport: str) -> dict[str, Any]:
        slow_run, fast_run = Run(), Run()
        conns = [http_client(base, lane) if transport == "http" else await ws_open(base, lane)
                 for lane in lanes + [fast]]
        fast_conn = conns[-1]
        # warm up on the fast lane (imports, first connection), not measured
        await (http_pair(fast_conn, fast) if transport == "http" else ws_pair(fast_conn, fast))
        await asyncio.sleep(0.5)
        sampler = ConnectionSampler()
        sampler.start()
        await asyncio.sleep(0.3)
        idle_before = sampler.peak()
        cpu_before = cpu_seconds(pid)
        began = time.monotonic()

        async def one_slow(conn, lane: Lane) -> None:
            try:
                if transport == "http":
                    slow_run.timings.append(await http_message(conn, lane, SLOW))
                else:
                    slow_run.timings.append((await ws_message(conn, lane, SLOW))[0])
            except Exception as exc:
                slow_run.fail(exc)

        async def the_fast_one() -> None:  # while the slow ones wait on their model
            await asyncio.sleep(delay / 2)
            try:
                fast_run.timings.append(await (http_pair(fast_conn, fast) if transport == "http"
                                               else ws_pair(fast_conn, fast)))
            except Exception as exc:
                fast_run.fail(exc)

        await asyncio.gather(the_fast_one(), *(one_slow(c, lane) for c, lane in zip(conns, lanes, strict=False)))
        total = time.monotonic() - began
        cpu_used = cpu_seconds(pid) - cpu_before
        sampler.stop.set()
        sampler.join()
        await asyncio.gather(*((c.aclose() if transport == "http" else c.close()) for c in conns),
                             return_exceptions=True)
        waiting = [s for s in sampler.samples if began + delay / 2 - 0.5 <= s[0] <= began + delay / 2 + 0.5]
        return {"run": f"{len(lanes)} slow turns ({delay:g} s model) + 1 fast, {transport}, one process",
                "slow_turns": len(slow_run.timings), "all_slow_done_s": round(total, 2),
                "slow_p50_ms": pct(slow_run.timings, 0.5), "slow_p95_ms": pct(slow_run.timings, 0.95),
                "fast_pair_ms": round(fast_run.timings[0], 1) if fast_run.timings else None,
                "server_cpu_s": round(cpu_used, 2),
                "db_conns_idle_server": idle_before,
                "db_conns_while_waiting_max": max((s[1] for s in waiting), default=None) if sampler.enabled else None,
                "db_conns_peak": sampler.peak(began) if sampler.enabled else None,
                "failures": len(slow_run.failures) + len(fast_run.failures),
                "failure_examples": (slow_run.failures + fast_run.failures)[:3]}

