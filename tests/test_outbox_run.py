"""Issue 20 (9): the approver is notified under ``make run``, and the outbox worker is safe to run many times.

``make run`` is started as a person starts it: in a terminal of its own (a pseudo-terminal here, so
Ctrl-C is the terminal's, sent to the whole foreground group), on the test database (SQLite, or
PostgreSQL in that lane) with the scripted model and the demo approver. A submission confirmed over
HTTP must reach the demo approver with nobody running ``run_outbox`` by hand, and Ctrl-C must end the
worker with daphne. No assertion is about a duration: every wait is a bounded poll.
"""

from __future__ import annotations

import json
import os
import pty
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from django.conf import settings
from django.db import transaction
from django.test import Client
from django.urls import reverse

from conversations.models import Case, CommandJournalEntry, DemoApproverNotification, OutboxEntry
from tools.loadbench.servers import child_database_url

pytestmark = pytest.mark.django_db(transaction=True)  # the children must see the rows: committed

ROOT = Path(settings.BASE_DIR)
PYTHON = Path(sys.executable)
VENV = PYTHON.parent.parent
Status = OutboxEntry.Status
PASSWORD = "outbox-run-pw-1"

needs_make = pytest.mark.skipif(shutil.which("make") is None or shutil.which("setsid") is None
                                or not PYTHON.with_name("daphne").exists() or not Path("/proc").is_dir(),
                                reason="needs make, setsid, daphne beside this Python and /proc")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def child_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a process of the served app, on this test's database."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TURNFRAME_TEST_")}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    script = tmp_path / "script.json"
    if not script.exists():
        script.write_text(json.dumps({"messages": {}}))
    env.update({"DATABASE_URL": child_database_url(), "TURNFRAME_PROVIDER": "scripted", "TURNFRAME_SCRIPT": str(script),
                "TURNFRAME_FALLBACK_PROVIDER": "", "TURNFRAME_DEMO_PASSWORD": PASSWORD, "TURNFRAME_APPROVER_URL": "",
                "TURNFRAME_DOMAINS": "expenses,trips", "DEBUG": "1", "ALLOWED_HOSTS": "127.0.0.1,localhost",
                "REDIS_URL": settings.REDIS_URL or "", "PYTHONUNBUFFERED": "1", **extra})
    return env


def live_members(pgid: int) -> list[str]:
    """The processes of a process group that are still running (a zombie has ended, only not been reaped)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2:].split()  # after "pid (comm) ": state, ppid, pgrp, ...
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(text[:text.rindex(")") + 1])
    return found


def running(pid: int) -> bool:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return text[text.rindex(")") + 2] != "Z"


def wait_for(what: str, predicate, *, timeout: float = 60.0, log=lambda: ""):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {timeout:g}s\n{log()[-4000:]}")
        time.sleep(0.2)


class MakeRun:
    """``make run`` in a terminal of its own: its output is read from the terminal, Ctrl-C typed into it."""

    def __init__(self, tmp_path: Path, port: int):
        self.port = port
        master, slave = pty.openpty()
        # the shared virtualenv, as it is (`-o`: its stamp is not remade, so nothing is installed)
        command = ["setsid", "--ctty", "make", "--no-print-directory", "-o", str(VENV / ".installed"), "run",
                   f"VENV={VENV}", f"PORT={port}", "OUTBOX_INTERVAL=0.5"]
        env = {k: v for k, v in child_env(tmp_path).items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
        self.proc = subprocess.Popen(command, cwd=ROOT, env=env, stdin=slave, stdout=slave,
                                     stderr=slave, close_fds=True)
        os.close(slave)
        self.master = master
        self.output = bytearray()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except OSError:
                return
            if not chunk:
                return
            self.output += chunk

    def log(self) -> str:
        return self.output.decode(errors="replace")

    def ctrl_c(self) -> None:
        os.write(self.master, b"\x03")

    def stop(self) -> None:
        """Whatever the test did, end this group (only it: its own process group, by its id)."""
        if live_members(self.proc.pid):
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
        try:
            self.proc.wait(timeout=15)
        finally:
            os.close(self.master)


class Api:
    """A client of the served app over HTTP, as a page or smoke.py is (CSRF header from the cookie)."""

    def __init__(self, base: str):
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=60, headers={"Origin": base, "Referer": base + "/"})

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        headers = {}
        if token := self.http.cookies.get("csrftoken"):
            headers["X-CSRFToken"] = token
        response = self.http.request(method, path, json=body, headers=headers)
        return response.status_code, response.json()


def script(tmp_path: Path, text: str, answer: dict) -> str:
    path = tmp_path / "script.json"
    messages = json.loads(path.read_text())["messages"]
    messages[text] = {"primary": [answer]}
    (tmp_path / "script.tmp").write_text(json.dumps({"messages": messages}))
    (tmp_path / "script.tmp").replace(path)
    return text


@needs_make
def test_a_submission_under_make_run_reaches_the_demo_approver_and_ctrl_c_ends_the_worker(tmp_path, django_user_model):
    server = MakeRun(tmp_path, free_port())
    try:
        base = f"http://127.0.0.1:{server.port}"

        def healthy() -> bool:
            assert server.proc.poll() is None, f"make run exited with {server.proc.returncode}:\n{server.log()}"
            try:
                return httpx.get(f"{base}/api/health", timeout=2).status_code == 200
            except httpx.HTTPError:
                return False

        wait_for("make run answers on /api/health", healthy, timeout=120, log=server.log)
        wait_for("the outbox worker is running", lambda: "outbox worker running" in server.log(), log=server.log)

        api = Api(base)
        assert api.call("POST", "/api/auth/login", {"username": "alice", "password": PASSWORD})[0] == 200
        status, conversation = api.call("POST", "/api/conversations", {})
        assert status == 201
        berlin = Case.objects.get(owner__username="alice", title="Berlin trip")
        text = script(tmp_path, "submit the Berlin claim", {"plan": {"acts": [
            {"id": "a1", "act": "submit_claim", "case": {"id": berlin.id}, "args": {},
             "evidence": "submit the Berlin claim"}]}})
        status, turn = api.call("POST", f"/api/conversations/{conversation['id']}/messages", {"text": text})
        assert status == 200, turn
        status, answer = api.call("POST", f"/api/interactions/{turn['interactions'][0]['id']}/respond",
                                  {"option": "confirm"})
        assert status == 200, answer

        command = CommandJournalEntry.objects.get(act="submit_claim", case=berlin)
        entry = wait_for("the submission is delivered", lambda: OutboxEntry.objects.filter(
            command=command, status=Status.DELIVERED).first(), log=server.log)
        assert entry.attempts == 1 and entry.acknowledgement["approver"] == "local"
        received = DemoApproverNotification.objects.get(idempotency_key=command.idempotency_key)
        assert (received.claim, received.submitted_by, received.times_received) == (berlin.id, "alice", 1)
        assert received.payload == entry.payload

        # and the operator sees it in the admin
        staff = Client()
        staff.force_login(django_user_model.objects.get(username="admin"))
        page = staff.get(reverse("admin:conversations_demoapprovernotification_changelist"))
        assert page.status_code == 200 and berlin.id in page.content.decode()

        server.ctrl_c()
        assert server.proc.wait(timeout=60) is not None
        wait_for("Ctrl-C ends daphne and the outbox worker", lambda: not live_members(server.proc.pid),
                 log=lambda: f"{server.log()}\nstill running: {live_members(server.proc.pid)}")
    finally:
        server.stop()


@needs_make
def test_when_daphne_cannot_start_make_run_fails_and_leaves_no_worker_behind(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        server = MakeRun(tmp_path, taken.getsockname()[1])
        try:
            assert server.proc.wait(timeout=120) != 0
            wait_for("no process of make run is left", lambda: not live_members(server.proc.pid),
                     log=lambda: f"{server.log()}\nstill running: {live_members(server.proc.pid)}")
        finally:
            server.stop()


def worker(tmp_path: Path, *args: str, log: str = "worker.log") -> tuple[subprocess.Popen, Path]:
    path = tmp_path / log
    with open(path, "w") as out:
        proc = subprocess.Popen([sys.executable, "manage.py", "run_outbox", *args], cwd=ROOT, env=child_env(tmp_path),
                                stdout=out, stderr=subprocess.STDOUT)
    return proc, path


def stop_worker(proc: subprocess.Popen) -> int:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    return proc.wait(timeout=30)


def submissions(django_user_model, count: int) -> list[OutboxEntry]:
    """``count`` committed submissions with their outbox rows, as the command bus leaves them."""
    alice = django_user_model.objects.create_user("alice-outbox", password="pw-alice-1")
    rows = []
    with transaction.atomic():  # all at once, so the workers contend for them
        for n in range(count):
            case = Case.objects.create(id=f"clm_OUTBOXRUN{n:05d}", kind="expense_claim", owner=alice,
                                       title=f"Trip {n}", status="submitted", revision=2, state={})
            key = f"{n:064x}"
            command = CommandJournalEntry.objects.create(
                idempotency_key=key, plan_act_id="a1", act="submit_claim", case=case, expected_revision=1,
                status=CommandJournalEntry.Status.COMMITTED, origin_kind="confirmed_interaction")
            rows.append(OutboxEntry(destination="approver", idempotency_key=key, case=case, command=command,
                                    payload={"claim": case.id, "revision": 2, "submitted_by": alice.username}))
        return OutboxEntry.objects.bulk_create(rows)


def test_several_workers_at_once_deliver_each_row_exactly_once(tmp_path, django_user_model):
    """As several ``make run`` or production processes would: each row is claimed by one worker only."""
    procs = [worker(tmp_path, "--interval", "0.05", log=f"worker-{n}.log") for n in range(4)]
    try:
        wait_for("the workers are running", lambda: all("outbox worker running" in path.read_text()
                                                        for _, path in procs), timeout=120)
        rows = submissions(django_user_model, 60)
        wait_for("every row is delivered", lambda: not OutboxEntry.objects.exclude(status=Status.DELIVERED).exists(),
                 log=lambda: "\n".join(path.read_text() for _, path in procs))
    finally:
        codes = [stop_worker(proc) for proc, _ in procs]
    assert codes == [0, 0, 0, 0]
    assert sorted(OutboxEntry.objects.values_list("attempts", flat=True)) == [1] * len(rows)
    received = dict(DemoApproverNotification.objects.values_list("idempotency_key", "times_received"))
    assert received == {row.idempotency_key: 1 for row in rows}
    sent = [int(part.split("=")[1]) for _, path in procs for line in path.read_text().splitlines()
            for part in line.split() if part.startswith("sent=")]
    assert sum(sent) == len(rows)


def test_the_worker_ends_when_the_shell_that_started_it_is_killed(tmp_path):
    """``make run``'s worker (``--stop-with-parent``) does not outlive a shell killed outright (kill -9)."""
    log = tmp_path / "worker.log"
    log.write_text("")  # the shell's redirection opens it in the worker's own time
    shell = subprocess.Popen(["bash", "-c", '"$0" manage.py run_outbox --interval 0.2 --stop-with-parent > "$1" 2>&1 &'
                              ' echo $!; wait', sys.executable, str(log)],
                             cwd=ROOT, env=child_env(tmp_path), stdout=subprocess.PIPE, text=True)
    pid = int(shell.stdout.readline())
    try:
        wait_for("the worker is running", lambda: "outbox worker running" in log.read_text(), timeout=120)
        shell.kill()
        shell.wait(timeout=10)
        wait_for("the worker ends", lambda: not running(pid), log=log.read_text)
    finally:
        if running(pid):
            os.kill(pid, signal.SIGTERM)


def test_the_worker_outlives_a_database_it_cannot_use_yet_and_delivers_once_it_can(tmp_path):
    """A long-running worker does not die of one failed pass (here: started before the migrations ran)."""
    database = f"sqlite:///{tmp_path / 'late.sqlite3'}"
    env = {**child_env(tmp_path), "DATABASE_URL": database}
    log = tmp_path / "worker.log"
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, "manage.py", "run_outbox", "--interval", "0.2"], cwd=ROOT, env=env,
                                stdout=out, stderr=subprocess.STDOUT)
    def failed_and_running() -> bool:
        assert proc.poll() is None, f"the worker exited with {proc.returncode}:\n{log.read_text()[-3000:]}"
        return "outbox pass failed" in log.read_text()

    try:
        wait_for("a pass fails and the worker keeps running", failed_and_running, timeout=120, log=log.read_text)
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
        subprocess.run([sys.executable, "manage.py", "shell", "-c", "\n".join([
            "from django.contrib.auth.models import User",
            "from conversations.models import Case, CommandJournalEntry, OutboxEntry",
            "alice = User.objects.create_user('alice')",
            "case = Case.objects.create(id='clm_LATE00001', kind='expense_claim', owner=alice, title='Late',"
            " status='submitted', revision=2, state={})",
            "command = CommandJournalEntry.objects.create(idempotency_key='c' * 64, plan_act_id='a1',"
            " act='submit_claim', case=case, expected_revision=1, status='committed',"
            " origin_kind='confirmed_interaction')",
            "OutboxEntry.objects.create(destination='approver', idempotency_key='c' * 64, case=case, command=command,"
            " payload={'claim': case.id})"])], cwd=ROOT, env=env, check=True)
        wait_for("the row is delivered", lambda: "delivered=1" in log.read_text(), log=log.read_text)
        assert proc.poll() is None  # still running
    finally:
        code = stop_worker(proc)
    assert code == 0
