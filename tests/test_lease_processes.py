"""Restarts are normal (issue 20, 1): with daphne processes serving one database, starting or restarting one
never breaks the turns another is running, and a process killed outright leaves its turns to the others once
their lease expires, and only then. On SQLite, and on PostgreSQL + Redis in the production lane.

The model is the scripted one, slow on the first message (``delay_s``); the leases are short (3 s, renewed
every second) so the test does not wait long. No assertion is about a duration.
"""

from __future__ import annotations

import io
import json
import os
import signal
import sys
import threading
import time
from decimal import Decimal
from pathlib import Path

import httpx
import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from conversations.auth import token_create
from conversations.models import Case, Conversation, Turn
from tests.support import act, plan, seed
from tools.loadbench.servers import Servers

pytestmark = pytest.mark.django_db(transaction=True)  # the daphne children must see the rows: committed

daphne_missing = not Path(sys.executable).with_name("daphne").exists()
LEASE = {"TURNFRAME_TURN_LEASE_S": "3", "TURNFRAME_LEASE_SWEEP": "1"}
MESSAGES = [("slowly add a taxi of 12", "taxi", "12"), ("add a coffee of 3", "meals", "3"),
            ("add a hotel night of 90", "hotel", "90")]


@pytest.fixture
def lane(tmp_path):
    cases = seed()
    alice = get_user_model().objects.get(username="alice")
    conversation = Conversation.objects.create(owner=alice, mode="deterministic")
    token, _ = token_create(user=alice)
    script = tmp_path / "script.json"
    answers = {}
    for text, category, amount in MESSAGES:
        step = plan(act("a1", "add_line", text, case={"id": cases["berlin"].id}, category=category, amount=amount))
        # (slow enough that a restart on a loaded machine, then more than a lease, still finds it running)
        answers[text] = {"primary": [{**step, "delay_s": 12} if text.startswith("slowly") else step]}
    script.write_text(json.dumps({"messages": answers}))
    return type("Lane", (), {"conversation": conversation, "token": token, "script": script,
                             "berlin": cases["berlin"], "logs": tmp_path})


def send(base: str, lane, text: str, results: dict) -> None:
    try:
        response = httpx.post(f"http://{base}/api/conversations/{lane.conversation.id}/messages",
                              json={"text": text, "client_message_id": text},
                              headers={"Authorization": f"Bearer {lane.token}"}, timeout=60)
        results[text] = (response.status_code, response.json())
    except httpx.HTTPError as exc:  # the process was killed under the request
        results[text] = (None, repr(exc))


def wait_for(predicate, what: str, timeout: float = 60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := predicate():
            return value
        time.sleep(0.05)
    pytest.fail(f"gave up waiting: {what}")


def the_slow_turn(lane) -> Turn | None:
    return Turn.objects.filter(conversation=lane.conversation, text=MESSAGES[0][0], status="running").first()


def settled(lane) -> bool:
    return not Turn.objects.filter(conversation=lane.conversation, status__in=["running", "queued"]).exists() and \
        Turn.objects.filter(conversation=lane.conversation).count() == len(MESSAGES)


def start_behind(base: str, lane) -> tuple[list[threading.Thread], dict]:
    """The slow message, then (once it runs) the two that queue behind it, each on its own request."""
    results: dict = {}
    first = threading.Thread(target=send, args=(base, lane, MESSAGES[0][0], results))
    first.start()
    wait_for(lambda: the_slow_turn(lane), "the slow turn to run")
    rest = []
    for text, _, _ in MESSAGES[1:]:
        rest.append(threading.Thread(target=send, args=(base, lane, text, results)))
        rest[-1].start()
        wait_for(lambda text=text: Turn.objects.filter(conversation=lane.conversation, text=text).exists(),
                 f"{text!r} to queue")
    return [first, *rest], results


@pytest.mark.skipif(daphne_missing, reason="daphne is not installed beside this Python")
def test_starting_and_restarting_processes_never_breaks_a_turn_another_one_runs(lane):
    with Servers(2, lane.script, lane.logs, extra_env=LEASE) as servers:
        threads, results = start_behind(servers.bases[0], lane)
        slow = the_slow_turn(lane)
        assert slow is not None and f":{servers.procs[0].pid}:" in slow.lease_owner
        # what `make run` does at every start (a second web process starting), while the turn waits on its model
        out = io.StringIO()
        call_command("recover_turns", stdout=out)
        assert "recovered 0 turn(s)" in out.getvalue()
        # and the other process restarts (its sweep runs from the start): neither takes the live turn
        victim = servers.procs[1]
        victim.send_signal(signal.SIGTERM)
        victim.wait(timeout=15)
        with Servers(1, lane.script, lane.logs, extra_env=LEASE):
            time.sleep(3.5)  # more than a lease: a lease that were not renewed would have expired by now
            assert Turn.objects.get(pk=slow.pk).status == "running"
            for thread in threads:
                thread.join(timeout=60)
    wait_for(lambda: settled(lane), "every message to finish")
    turns = list(Turn.objects.filter(conversation=lane.conversation).order_by("created_at"))
    assert [(t.text, t.status) for t in turns] == [(text, "completed") for text, _, _ in MESSAGES]
    lines = Case.objects.get(pk=lane.berlin.pk).state["lines"]
    assert [(line["category"], Decimal(line["amount"])) for line in lines[-3:]] == [
        (c, Decimal(a)) for _, c, a in MESSAGES]
    assert all(status in (200, 202) for status, _ in results.values()), results  # 202: queued, ran later


@pytest.mark.skipif(daphne_missing, reason="daphne is not installed beside this Python")
def test_a_killed_process_turns_are_recovered_by_another_once_their_lease_expires_and_only_then(lane):
    with Servers(2, lane.script, lane.logs, extra_env=LEASE) as servers:
        killed, survivor = servers.procs
        threads, _ = start_behind(servers.bases[0], lane)
        slow = the_slow_turn(lane)
        os.kill(killed.pid, signal.SIGKILL)
        killed.wait(timeout=15)
        held = Turn.objects.get(pk=slow.pk)
        # its lease was renewed by the killed process until it died: the survivor waits for it to expire
        assert held.status == "running" and f":{killed.pid}:" in held.lease_owner
        while (now := time.time()) < held.lease_expires_at.timestamp() - 0.2:
            assert Turn.objects.get(pk=slow.pk).status == "running", "taken before its lease expired"
            time.sleep(0.05)
        assert now < held.lease_expires_at.timestamp()  # checked at least up to the expiry
        recovered = wait_for(lambda: Turn.objects.filter(pk=slow.pk).exclude(status="running").first(),
                             "the survivor to recover the turn")
        assert recovered.status == "failed" and f":{survivor.pid}:" in recovered.lease_owner
        assert [n.code for n in recovered.notices] == ["turn_interrupted"]  # nothing had changed: send it again
        # the messages queued behind it run, in order, on the survivor
        wait_for(lambda: settled(lane), "the queued messages to run")
        for thread in threads:
            thread.join(timeout=5)
    turns = list(Turn.objects.filter(conversation=lane.conversation).order_by("created_at"))
    assert [(t.text, t.status) for t in turns] == [
        (MESSAGES[0][0], "failed"), *[(text, "completed") for text, _, _ in MESSAGES[1:]]]
    lines = Case.objects.get(pk=lane.berlin.pk).state["lines"]
    assert [(line["category"], Decimal(line["amount"])) for line in lines[-2:]] == [
        (c, Decimal(a)) for _, c, a in MESSAGES[1:]]
    assert "taxi" not in [line["category"] for line in lines[-2:]] and len(lines) == 3 + 2  # seeded 3, 2 added
