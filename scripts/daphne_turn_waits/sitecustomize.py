"""Where a daphne process's turns wait (issue 23, fifth round): put this directory on ``PYTHONPATH`` and set
``TURN_WAITS=/path/out.jsonl`` for a ``manage.py loadbench`` run; its daphne child then times, on their threads,
the socket's message turn (``turn_submit_message``), the click's turn (``interaction_respond``) and the click's
whole request (Django's ``get_response``): the wall time, the thread's CPU time and its time waiting for a CPU
(``/proc/thread-self/schedstat``, Linux), and appends their medians (the first 50 left out) every 200 requests:
``{"msg": [wall_ms, cpu_ms, run_queue_ms, mean_rest_ms, n], ...}`` (rest: off the CPU otherwise, the GIL and I/O).
Nothing happens in any other process, or without ``TURN_WAITS``.

    PYTHONPATH=scripts/daphne_turn_waits TURN_WAITS=/tmp/waits.jsonl .venv/bin/python manage.py loadbench --mode page --turns 400
"""

import json
import os
import statistics
import sys
import threading
import time

if os.environ.get("TURN_WAITS") and "daphne" in sys.argv[0]:
    _timed: dict[str, list[tuple[float, float, float]]] = {"msg": [], "click": [], "get_response": []}

    def _run_queue_ms() -> float:
        with open("/proc/thread-self/schedstat") as fh:
            return int(fh.read().split()[1]) / 1e6

    def _dump() -> None:
        out = {}
        for name, rows in _timed.items():
            rows = rows[50:]
            if len(rows) > 10:
                out[name] = [round(statistics.median(r[i] for r in rows), 2) for i in range(3)] + [
                    round(statistics.fmean(r[0] - r[1] - r[2] for r in rows), 2), len(rows)]
        with open(os.environ["TURN_WAITS"], "a") as fh:
            fh.write(json.dumps({"pid": os.getpid(), **out}) + "\n")

    def _wrap(name, func):
        def timed(*args, **kwargs):
            wall, cpu, queue = time.perf_counter(), time.thread_time(), _run_queue_ms()
            try:
                return func(*args, **kwargs)
            finally:
                _timed[name].append(((time.perf_counter() - wall) * 1000, (time.thread_time() - cpu) * 1000,
                                     _run_queue_ms() - queue))
                if name == "get_response" and len(_timed[name]) % 200 == 0:
                    _dump()
        return timed

    def _patch_when_loaded() -> None:
        while not all(hasattr(sys.modules.get(m), a) for m, a in (
                ("conversations.consumers", "turn_submit_message"), ("conversations.api", "interaction_respond"),
                ("turnframe_web.handler", "ThreadedASGIHandler"))):
            time.sleep(0.05)
        import conversations.api as api
        import conversations.consumers as consumers
        import turnframe_web.handler as handler

        consumers.turn_submit_message = _wrap("msg", consumers.turn_submit_message)
        api.interaction_respond = _wrap("click", api.interaction_respond)
        handler.ThreadedASGIHandler.get_response = _wrap("get_response", handler.ThreadedASGIHandler.get_response)

    threading.Thread(target=_patch_when_loaded, daemon=True, name="turn-waits").start()
