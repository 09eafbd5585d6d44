"""``manage.py loadbench`` runs end to end at a tiny size (issue 11), so the load command does not rot.

It starts a real daphne process on the test database and drives it over HTTP and the WebSocket. No
assertion here is about a duration: the figures are in docs/performance.md.
"""

from __future__ import annotations

import json
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db(transaction=True)  # the daphne child must see the rows: committed

daphne_missing = not Path(sys.executable).with_name("daphne").exists()  # the command starts this one


@pytest.mark.skipif(daphne_missing, reason="daphne is not installed beside this Python")
@pytest.mark.parametrize("mode", ["http", "ws"])
def test_two_message_and_click_pairs_through_daphne(mode):
    out = StringIO()
    call_command("loadbench", mode=mode, turns=2, json=True, stdout=out)
    result = json.loads(out.getvalue())
    (row,) = result["rows"]
    assert (row["turns"], row["failures"]) == (2, 0)
    assert row["p50_ms"] is not None and row["p95_ms"] is not None


@pytest.mark.skipif(daphne_missing, reason="daphne is not installed beside this Python")
def test_slow_and_sockets_modes_run_at_a_tiny_size():
    out = StringIO()
    call_command("loadbench", mode="slow", slow=2, delay=0.2, json=True, stdout=out)
    (row,) = json.loads(out.getvalue())["rows"]
    assert (row["slow_turns"], row["failures"]) == (2, 0) and row["fast_pair_ms"] is not None
    out = StringIO()
    call_command("loadbench", mode="sockets", sockets=3, active=1, interval=0.2, duration=0.5, json=True, stdout=out)
    (row,) = json.loads(out.getvalue())["rows"]
    assert (row["sockets"], row["alive_at_end"], row["dropped"], row["failures"]) == (3, 3, 0, 0)
    assert row["turns"] >= 1
