"""The daphne processes a load run starts on free local ports (only they are stopped, by their pids), and what
it reads of them and of the machine from /proc."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.core.management.base import CommandError


def child_database_url() -> str:
    """The database this command uses, as a URL for the daphne children (the test database too)."""
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    if db["ENGINE"].endswith("postgresql"):
        auth = db.get("USER") or ""
        if db.get("PASSWORD"):
            auth += f":{db['PASSWORD']}"
        return f"postgres://{auth}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"
    raise CommandError(f"loadbench runs on SQLite or PostgreSQL, not {db['ENGINE']}")





def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used, from /proc/<pid>/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_busy() -> tuple[int, int]:
    """(busy, total) jiffies of the whole machine, from /proc/stat (0, 0 where there is none)."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    except (OSError, ValueError, IndexError):
        return 0, 0
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    return sum(values) - idle, sum(values)


def wait_for_health(base: str, deadline: float, proc: subprocess.Popen | None = None) -> str | None:
    """Wait until the daphne at ``base`` answers its health check: None, or why it never will ("exited", "did not
    answer" by ``deadline``, a ``time.monotonic()`` value)."""
    import httpx

    while True:
        if proc is not None and proc.poll() is not None:
            return "exited"
        try:
            if httpx.get(f"http://{base}/api/health", timeout=2).status_code == 200:
                return None
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            return "did not answer"
        time.sleep(0.2)


class Servers:
    """N daphne processes started by this command (and only they are stopped, by their pids)."""

    def __init__(self, count: int, script: Path, logdir: Path, extra_env: dict[str, str] | None = None):
        self.count, self.script, self.logdir = count, script, logdir
        self.extra_env = extra_env or {}
        self.procs: list[subprocess.Popen] = []
        self.bases: list[str] = []

    def __enter__(self) -> Servers:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TURNFRAME_TEST_")}
        env.update({"DATABASE_URL": child_database_url(), "TURNFRAME_PROVIDER": "scripted",
                    "TURNFRAME_SCRIPT": str(self.script), "TURNFRAME_FALLBACK_PROVIDER": "",
                    "LOG_LEVEL": "WARNING", "TURNFRAME_REDIS_PREFIX": "turnframe-loadbench",
                    "DJANGO_SETTINGS_MODULE": "turnframe_web.settings",
                    # as deployed: DEBUG off (no query log), plain HTTP here as behind a TLS-terminating proxy; this
                    # command's key, so the sessions it signs in are valid there
                    "DEBUG": "0", "SECRET_KEY": settings.SECRET_KEY, "SECURE_SSL_REDIRECT": "0",
                    "SESSION_COOKIE_SECURE": "0", "CSRF_COOKIE_SECURE": "0", **self.extra_env})
        if settings.REDIS_URL:
            env["REDIS_URL"] = settings.REDIS_URL
        daphne = Path(sys.executable).with_name("daphne")
        for _ in range(self.count):
            port = free_port()
            log = open(self.logdir / f"daphne-{port}.log", "wb")  # noqa: SIM115 (closed with the process)
            self.procs.append(subprocess.Popen(
                [str(daphne), "-b", "127.0.0.1", "-p", str(port), "turnframe_web.asgi:application"],
                cwd=settings.BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT))
            self.bases.append(f"127.0.0.1:{port}")
        deadline = time.monotonic() + 60
        for proc, base in zip(self.procs, self.bases, strict=True):
            if (failure := wait_for_health(base, deadline, proc)) is not None:
                self.__exit__()
                raise CommandError(f"daphne on {base} {failure}: {self.log_tail(base)}")
        return self

    def log_tail(self, base: str) -> str:
        path = self.logdir / f"daphne-{base.rsplit(':', 1)[1]}.log"
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""

    def __exit__(self, *exc) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()



@contextmanager
def daphnes_of(checkouts: list[str], tmp: Path) -> Iterator[tuple[list[subprocess.Popen], list[str]]]:
    """One daphne from each checkout (each imports its own code), on the scripted provider of ``tmp/script.json``
    and one database: (the processes, their host:port), stopped on leaving (scripts/page_paired.py and its kin)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TURNFRAME_TEST_")}
    env.update({"DATABASE_URL": child_database_url(), "TURNFRAME_PROVIDER": "scripted",
                "TURNFRAME_SCRIPT": str(tmp / "script.json"), "TURNFRAME_FALLBACK_PROVIDER": "", "LOG_LEVEL": "WARNING",
                "DJANGO_SETTINGS_MODULE": "turnframe_web.settings", "DEBUG": "0", "SECRET_KEY": settings.SECRET_KEY,
                "SECURE_SSL_REDIRECT": "0", "SESSION_COOKIE_SECURE": "0", "CSRF_COOKIE_SECURE": "0"})
    daphne = Path(sys.executable).with_name("daphne")
    procs: list[subprocess.Popen] = []
    bases: list[str] = []
    try:
        for checkout in checkouts:
            port = free_port()
            log = open(tmp / f"daphne-{port}.log", "wb")  # noqa: SIM115 (closed with the process)
            procs.append(subprocess.Popen([str(daphne), "-b", "127.0.0.1", "-p", str(port),
                                           "turnframe_web.asgi:application"],
                                          cwd=checkout, env=env, stdout=log, stderr=subprocess.STDOUT))
            bases.append(f"127.0.0.1:{port}")
        for base in bases:
            if wait_for_health(base, time.monotonic() + 60) is not None:
                raise SystemExit(f"daphne on {base} did not answer (logs in {tmp})")
        yield procs, bases
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            proc.wait(15)
