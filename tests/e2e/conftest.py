"""Browser tests: a real Chromium against a live daphne server (its own SQLite file, scripted model).

Run them on their own: ``pytest -m browser tests/e2e`` (they would disturb the event loop of later
async tests). Without a Chromium they skip with a printed reason, unless
``TURNFRAME_REQUIRE_BROWSER=1``, which turns the skip into a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
PASSWORD = "e2e-password-1"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        if path := shutil.which(name):
            return path
    return None


NO_BROWSER = "no Chromium found on PATH (install chromium; TURNFRAME_REQUIRE_BROWSER=1 makes this a failure)"


def _browser_required() -> bool:
    return os.environ.get("TURNFRAME_REQUIRE_BROWSER") == "1"


def pytest_collection_modifyitems(config, items):
    browser_items = [item for item in items if item.get_closest_marker("browser")]
    if not browser_items or _chromium() or _browser_required():
        return  # with TURNFRAME_REQUIRE_BROWSER=1 the ``browser`` fixture fails each test instead
    print(f"\nSKIP browser tests: {NO_BROWSER}")
    for item in browser_items:
        item.add_marker(pytest.mark.skip(reason=NO_BROWSER))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Script:
    """The scripted provider's file (CONTRACT §5); the server re-reads it on every model call."""

    def __init__(self, path: Path):
        self.path = path
        self.messages: dict = {}
        self._write()

    def __call__(self, text: str, *answers: dict) -> str:
        self.messages[text] = {"primary": list(answers)}
        self._write()
        return text

    def _write(self) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"messages": self.messages}))
        tmp.replace(self.path)  # atomic: the server never reads half a file


class Server:
    def __init__(self, base: str, script: Script, log: Path, db: Path | None = None):
        self.base, self.script, self.log = base, script, log
        self.db = db  # the server's SQLite file (a test may age a row the way time would)


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("e2e")
    script = Script(tmp / "script.json")
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp / 'e2e.sqlite3'}", "TURNFRAME_PROVIDER": "scripted",
           "TURNFRAME_SCRIPT": str(script.path), "TURNFRAME_DEMO_PASSWORD": PASSWORD, "DEBUG": "1",
           "ALLOWED_HOSTS": "127.0.0.1,localhost", "TURNFRAME_FALLBACK_PROVIDER": "", "REDIS_URL": "",
           "TURNFRAME_WS_PING_S": "1", "TURNFRAME_DOMAINS": "expenses,trips"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    python = sys.executable
    for command in (["migrate", "--noinput", "-v0"], ["seed_demo"]):
        subprocess.run([python, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True)
    log = tmp / "daphne.log"
    daphne = Path(python).with_name("daphne")
    with open(log, "w") as out:
        proc = subprocess.Popen([str(daphne), "-b", "127.0.0.1", "-p", str(port), "turnframe_web.asgi:application"],
                                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                pytest.fail(f"daphne exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{base}/api/health", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"daphne did not answer on {base}:\n{log.read_text()[-3000:]}")
            time.sleep(0.2)
        yield Server(base, script, log, tmp / "e2e.sqlite3")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)


@pytest.fixture(scope="session")
def browser():
    executable = _chromium()
    if executable is None:
        if _browser_required():
            pytest.fail(f"TURNFRAME_REQUIRE_BROWSER=1 but {NO_BROWSER}")
        pytest.skip(NO_BROWSER)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser, server, request):
    """A fresh browser context per test; console errors (CSP violations among them) fail the test."""
    context = browser.new_context(base_url=server.base, viewport={"width": 1360, "height": 860})
    context.set_default_timeout(10_000)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
    page.on("dialog", lambda d: (problems.append(f"dialog: {d.message}"), d.dismiss()))
    page.problems = problems
    yield page
    ARTIFACTS.mkdir(exist_ok=True)
    if getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed:
        page.screenshot(path=str(ARTIFACTS / f"FAILED-{request.node.name}.png"), full_page=True)
    context.close()
    assert not problems, "the page reported problems:\n" + "\n".join(problems)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


def shot(page, name: str, *, full_page: bool = False) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)
