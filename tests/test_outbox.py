"""The outbox (SPEC §19, I15): an external effect is delivered with its idempotency key after commit;
a send that timed out is ``outcome_unknown``, never re-sent blindly, and reconciled from the
destination's own answer.

The approver system is a pytest-httpserver stub at TURNFRAME_APPROVER_URL, or (unset) the built-in demo
approver, which records what it receives. ``tests/test_outbox_run.py`` runs the worker as ``make run`` does.
"""

from __future__ import annotations

import json
import time
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from werkzeug import Response

from conversations.models import Case, CommandJournalEntry, DemoApproverNotification, OutboxEntry
from conversations.outbox import (
    IDEMPOTENCY_HEADER,
    Delivery,
    deliver,
    outbox_dispatch,
    outbox_pass,
    outbox_reconcile,
    outbox_recover,
)

pytestmark = pytest.mark.django_db
Status = OutboxEntry.Status
PATH = "/approvals"



@pytest.fixture
def approver(httpserver, settings):
    """The approver system's stub; the dispatcher is pointed at it with a short timeout."""
    settings.TURNFRAME = {**settings.TURNFRAME, "APPROVER_URL": httpserver.url_for(PATH),
                          "APPROVER_TIMEOUT_S": 0.3}
    return httpserver


@pytest.fixture
def local_approver(settings):
    settings.TURNFRAME = {**settings.TURNFRAME, "APPROVER_URL": None}


@pytest.fixture
def row(django_user_model):
    """A committed submission with its outbox row, as the command bus leaves them."""
    alice = django_user_model.objects.create_user("alice", password="pw-alice-1")
    case = Case.objects.create(id="clm_OUTBOX0001", kind="expense_claim", owner=alice, title="Berlin trip",
                               status="submitted", revision=5, state={})
    command = CommandJournalEntry.objects.create(
        idempotency_key="b" * 64, plan_act_id="a1", act="submit_claim", case=case, expected_revision=4,
        status=CommandJournalEntry.Status.COMMITTED, origin_kind="confirmed_interaction")
    return OutboxEntry.objects.create(destination="approver", idempotency_key=command.idempotency_key, case=case,
                                      command=command, payload={"claim": case.id, "revision": 5, "total": "302.50"})


def posts(server) -> list:
    return [request for request, _ in server.log if request.method == "POST"]


def reload(entry: OutboxEntry) -> OutboxEntry:
    entry.refresh_from_db()
    return entry


# --------------------------------------------------------------------------- delivery


def test_a_pending_row_is_delivered_with_its_idempotency_key(approver, row):
    approver.expect_request(PATH, method="POST").respond_with_json({"status": "received", "id": "apr_1"})
    assert outbox_dispatch() == [(row.pk, Status.DELIVERED)]
    [request] = posts(approver)
    assert request.headers[IDEMPOTENCY_HEADER] == row.idempotency_key
    assert json.loads(request.data) == row.payload
    row = reload(row)
    assert row.status == Status.DELIVERED and row.attempts == 1
    assert row.acknowledgement["status_code"] == 200 and row.acknowledgement["body"]["id"] == "apr_1"
    assert outbox_dispatch() == []  # delivered rows are never sent again
    assert len(posts(approver)) == 1


def test_a_timeout_after_sending_is_outcome_unknown_and_not_sent_again(approver, row):
    def slow(request):
        time.sleep(0.8)
        return Response(json.dumps({"status": "received"}), status=200, content_type="application/json")

    approver.expect_request(PATH, method="POST").respond_with_handler(slow)
    assert outbox_dispatch() == [(row.pk, Status.OUTCOME_UNKNOWN)]
    row = reload(row)
    assert row.status == Status.OUTCOME_UNKNOWN and row.acknowledgement["error"] == "timeout"
    time.sleep(0.6)  # let the stub finish answering the first request
    assert outbox_dispatch() == []
    assert outbox_pass()["sent"] == 0
    assert len(posts(approver)) == 1
    assert reload(row).status == Status.OUTCOME_UNKNOWN


def test_reconcile_settles_an_unknown_row_from_the_approvers_answer(approver, row):
    OutboxEntry.objects.filter(pk=row.pk).update(status=Status.OUTCOME_UNKNOWN, acknowledgement={"error": "timeout"})
    approver.expect_request(f"{PATH}/{row.idempotency_key}", method="GET").respond_with_json(
        {"status": "received", "id": "apr_9"})
    assert outbox_reconcile(settle_after_s=0) == [(row.pk, Status.DELIVERED)]
    row = reload(row)
    assert row.status == Status.DELIVERED and row.acknowledgement["body"]["id"] == "apr_9"
    assert row.acknowledgement["reconciled"] is True and row.acknowledgement["previous"] == {"error": "timeout"}
    assert posts(approver) == []  # learned, not re-sent


def test_a_row_the_approver_never_received_is_sent_again_under_the_same_key(approver, row):
    OutboxEntry.objects.filter(pk=row.pk).update(status=Status.OUTCOME_UNKNOWN)
    approver.expect_request(f"{PATH}/{row.idempotency_key}", method="GET").respond_with_json(
        {"error": "unknown key"}, status=404)
    approver.expect_request(PATH, method="POST").respond_with_json({"status": "received"})
    assert outbox_reconcile(settle_after_s=0) == [(row.pk, Status.PENDING)]
    assert outbox_dispatch() == [(row.pk, Status.DELIVERED)]
    assert [r.headers[IDEMPOTENCY_HEADER] for r in posts(approver)] == [row.idempotency_key]


def test_reconcile_without_an_authoritative_answer_changes_nothing(approver, row):
    OutboxEntry.objects.filter(pk=row.pk).update(status=Status.OUTCOME_UNKNOWN)
    approver.expect_request(f"{PATH}/{row.idempotency_key}", method="GET").respond_with_data("oops", status=500)
    assert outbox_reconcile(settle_after_s=0) == []
    assert reload(row).status == Status.OUTCOME_UNKNOWN


def test_reconcile_waits_until_an_unknown_row_has_settled(approver, row):
    OutboxEntry.objects.filter(pk=row.pk).update(status=Status.OUTCOME_UNKNOWN)
    assert outbox_reconcile(settle_after_s=60) == []
    assert approver.log == []


def test_an_approver_refusal_is_failed_and_a_server_error_is_unknown(approver, row):
    approver.expect_oneshot_request(PATH, method="POST").respond_with_json({"error": "bad payload"}, status=422)
    assert outbox_dispatch() == [(row.pk, Status.FAILED)]
    assert reload(row).acknowledgement["error"] == "refused"
    OutboxEntry.objects.filter(pk=row.pk).update(status=Status.PENDING)
    approver.expect_oneshot_request(PATH, method="POST").respond_with_data("boom", status=500)
    assert outbox_dispatch() == [(row.pk, Status.OUTCOME_UNKNOWN)]


def test_a_busy_approver_gets_the_row_again_later(approver, row):
    approver.expect_oneshot_request(PATH, method="POST").respond_with_data("busy", status=503)
    approver.expect_oneshot_request(PATH, method="POST").respond_with_json({"status": "received"})
    assert outbox_dispatch() == [(row.pk, Status.PENDING)]
    assert outbox_dispatch() == [(row.pk, Status.DELIVERED)]
    assert reload(row).attempts == 2


def test_an_unreachable_approver_leaves_the_row_pending_then_failed(settings, row):
    settings.TURNFRAME = {**settings.TURNFRAME, "APPROVER_URL": "http://127.0.0.1:9/approvals",
                          "APPROVER_TIMEOUT_S": 0.5, "OUTBOX_MAX_ATTEMPTS": 2}
    assert outbox_dispatch() == [(row.pk, Status.PENDING)]
    assert reload(row).acknowledgement["error"] == "not_sent"
    assert outbox_dispatch() == [(row.pk, Status.FAILED)]  # never sent at all: honestly failed


def test_the_local_approver_acknowledges_at_once(local_approver, row):
    assert outbox_dispatch() == [(row.pk, Status.DELIVERED)]
    ack = reload(row).acknowledgement
    assert ack["approver"] == "local" and ack["received"] == row.idempotency_key


def test_the_demo_approver_records_what_it_receives(local_approver, row):
    """Issue 20 (9): the demo approver system keeps what it was sent, as the admin shows it."""
    assert not DemoApproverNotification.objects.exists()
    assert outbox_dispatch() == [(row.pk, Status.DELIVERED)]
    received = DemoApproverNotification.objects.get()
    assert (received.idempotency_key, received.claim, received.payload, received.times_received) == (
        row.idempotency_key, "clm_OUTBOX0001", row.payload, 1)
    assert reload(row).acknowledgement["id"] == received.pk


def test_the_demo_approver_counts_a_resend_under_the_same_key_once(local_approver, row):
    assert outbox_dispatch() == [(row.pk, Status.DELIVERED)]
    OutboxEntry.objects.filter(pk=row.pk).update(status=Status.PENDING)  # as if the answer had been lost
    assert outbox_dispatch() == [(row.pk, Status.DELIVERED)]
    received = DemoApproverNotification.objects.get()
    assert received.times_received == 2 and received.last_received_at >= received.created_at
    assert reload(row).acknowledgement["duplicate"] is True


def test_reconciling_asks_the_demo_approvers_record(local_approver, row):
    """An unknown row the demo approver has is delivered without a re-send; one it never saw is sent again."""
    OutboxEntry.objects.filter(pk=row.pk).update(status=Status.OUTCOME_UNKNOWN)
    assert outbox_reconcile(settle_after_s=0) == [(row.pk, Status.PENDING)]
    assert not DemoApproverNotification.objects.exists()
    assert outbox_dispatch() == [(row.pk, Status.DELIVERED)]
    OutboxEntry.objects.filter(pk=row.pk).update(status=Status.OUTCOME_UNKNOWN)
    assert outbox_reconcile(settle_after_s=0) == [(row.pk, Status.DELIVERED)]
    assert reload(row).acknowledgement["reconciled"] is True
    assert outbox_dispatch() == []
    assert DemoApproverNotification.objects.get().times_received == 1


def test_two_workers_never_send_one_row(local_approver, row):
    inner: list = []

    def send(entry):
        inner.append(outbox_dispatch(send=send))  # a second worker, while the first is mid-send
        return deliver(entry)

    assert outbox_dispatch(send=send) == [(row.pk, Status.DELIVERED)]
    assert inner == [[]]
    assert reload(row).attempts == 1


def test_a_sender_that_raises_leaves_the_row_unknown(row):
    def broken(entry):
        raise RuntimeError("socket exploded")

    assert outbox_dispatch(send=broken) == [(row.pk, Status.OUTCOME_UNKNOWN)]
    assert outbox_dispatch(send=lambda entry: Delivery(Status.DELIVERED)) == []


def test_a_row_left_sending_by_a_dead_worker_becomes_unknown(approver, row):
    OutboxEntry.objects.filter(pk=row.pk).update(status=Status.SENDING,
                                                 updated_at=timezone.now() - timedelta(hours=1))
    assert outbox_recover(stale_after_s=60) == 1
    assert reload(row).status == Status.OUTCOME_UNKNOWN
    assert outbox_dispatch() == [] and posts(approver) == []


def test_a_recent_sending_row_is_left_to_its_worker(row):
    OutboxEntry.objects.filter(pk=row.pk).update(status=Status.SENDING)
    assert outbox_recover(stale_after_s=60) == 0
    assert reload(row).status == Status.SENDING


# --------------------------------------------------------------------------- the worker command


def test_run_outbox_once_delivers_and_reports(local_approver, row, capsys):
    call_command("run_outbox", "--once")
    out = capsys.readouterr().out
    assert "sent=1" in out and "delivered=1" in out and "outcome_unknown=0" in out
    assert reload(row).status == Status.DELIVERED


def test_a_confirmed_submission_reaches_the_approver_through_the_api(approver, script, client, settings):
    from conversations.services import demo_seed

    demo_seed(password="pw-demo-1")
    berlin = Case.objects.get(owner__username="alice", title="Berlin trip")
    text = script("submit the claim", {"plan": {"acts": [{"id": "a1", "act": "submit_claim",
                                                           "case": {"id": berlin.id}, "args": {},
                                                           "evidence": "submit the claim"}]}})
    assert client.post("/api/auth/login", {"username": "alice", "password": "pw-demo-1"},
                       content_type="application/json").status_code == 200
    cid = client.post("/api/conversations", {}, content_type="application/json").json()["id"]
    turn = client.post(f"/api/conversations/{cid}/messages", {"text": text}, content_type="application/json").json()
    card = turn["interactions"][0]["id"]
    assert not OutboxEntry.objects.exists()  # nothing leaves before the click
    assert client.post(f"/api/interactions/{card}/respond", {"option": "confirm"},
                       content_type="application/json").status_code == 200
    entry = OutboxEntry.objects.get()
    command = CommandJournalEntry.objects.get(act="submit_claim")
    assert (entry.status, entry.idempotency_key, entry.command_id) == (Status.PENDING, command.idempotency_key,
                                                                        command.id)

    approver.expect_request(PATH, method="POST").respond_with_json({"status": "received"})
    call_command("run_outbox", "--once")
    [request] = posts(approver)
    assert request.headers[IDEMPOTENCY_HEADER] == command.idempotency_key
    assert json.loads(request.data)["claim"] == berlin.id and json.loads(request.data)["submitted_by"] == "alice"
    assert reload(entry).status == Status.DELIVERED
