"""``python manage.py run_outbox [--once]``: the outbox worker (SPEC §19, CONTRACT §8).

``make run`` starts it beside daphne (``--stop-with-parent``, so it ends with the server's shell);
in production it is a service of its own, and several may run: each row is claimed with a conditional
UPDATE before it is sent, so no two workers deliver one row.
"""

from __future__ import annotations

import logging
import os
import signal
import time

from django.core.management.base import BaseCommand
from django.db import close_old_connections, connections

from conversations.outbox import outbox_pass

log = logging.getLogger(__name__)


class Command(BaseCommand):
    help = ("Deliver committed external effects (e.g. a notification to another system) with their idempotency keys; "
            "a send that timed out is outcome_unknown and reconciled, never blindly re-sent.")

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="run one pass and exit")
        parser.add_argument("--interval", type=float, default=2.0, help="seconds between passes (default 2)")
        parser.add_argument("--stop-with-parent", action="store_true",
                            help="exit when the process that started this one is gone (make run uses it)")

    def handle(self, *args, once: bool = False, interval: float = 2.0, stop_with_parent: bool = False,
               **options):
        stopping = False
        parent = os.getppid()

        def stop(signum, frame):
            nonlocal stopping
            stopping = True

        def orphaned() -> bool:
            return stop_with_parent and os.getppid() != parent

        if not once:
            signal.signal(signal.SIGTERM, stop)
            signal.signal(signal.SIGINT, stop)
            self.say(f"outbox worker running (every {interval:g}s); Ctrl-C to stop")
        while True:
            if once:
                summary = outbox_pass()
            else:
                try:
                    close_old_connections()
                    summary = outbox_pass()
                except Exception:
                    # a long-lived worker outlives a database hiccup (a lock timeout, a restarted server):
                    # whatever it claimed stays ``sending`` and is settled by recovery, never sent twice
                    log.exception("outbox pass failed; trying again in %gs", interval)
                    connections.close_all()
                    summary = {}
            if once or any(summary.values()):
                self.say(" ".join(f"{k}={v}" for k, v in summary.items()))
            if once or stopping or orphaned():
                return
            deadline = time.monotonic() + interval
            while not stopping and not orphaned() and time.monotonic() < deadline:
                time.sleep(min(0.2, interval))
            if stopping or orphaned():
                return

    def say(self, line: str) -> None:
        self.stdout.write(line)
        self.stdout.flush()
