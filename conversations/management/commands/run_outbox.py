"""``python manage.py run_outbox [--once]``: the outbox worker (SPEC §19, CONTRACT §8)."""

from __future__ import annotations

import signal
import time

from django.core.management.base import BaseCommand

from conversations.outbox import outbox_pass


class Command(BaseCommand):
    help = ("Deliver committed external effects (the approver notification) with their idempotency keys; "
            "a send that timed out is outcome_unknown and reconciled, never blindly re-sent.")

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="run one pass and exit")
        parser.add_argument("--interval", type=float, default=2.0, help="seconds between passes (default 2)")

    def handle(self, *args, once: bool = False, interval: float = 2.0, **options):
        stopping = False

        def stop(signum, frame):
            nonlocal stopping
            stopping = True

        if not once:
            signal.signal(signal.SIGTERM, stop)
            signal.signal(signal.SIGINT, stop)
            self.stdout.write(f"outbox worker running (every {interval:g}s); Ctrl-C to stop")
        while True:
            summary = outbox_pass()
            if once or any(summary.values()):
                self.stdout.write(" ".join(f"{k}={v}" for k, v in summary.items()))
            if once or stopping:
                return
            deadline = time.monotonic() + interval
            while not stopping and time.monotonic() < deadline:
                time.sleep(min(0.2, interval))
            if stopping:
                return
