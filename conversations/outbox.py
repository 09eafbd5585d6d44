"""The outbox dispatcher (SPEC §19): external effects delivered after commit, or honestly unknown.

A command with an external effect commits an ``OutboxEntry`` in the same transaction as its
events (``conversations.commands``). This module delivers those rows. It runs in a worker
(``manage.py run_outbox``; ``make run`` starts one beside daphne), never on the request path. Any
number of workers may run at once, in any processes: each row is claimed before it is sent.

- ``outbox_dispatch`` claims each pending row with a conditional UPDATE (``pending`` → ``sending``,
  so two workers never send one row), calls its destination with the row's idempotency key and
  records the answer: ``delivered`` with the acknowledgement; ``failed`` when the destination
  refused it outright; back to ``pending`` when it was certainly never sent (no connection); and
  ``outcome_unknown`` when it was sent but not answered (I15). An unknown row is never re-sent
  blindly.
- ``outbox_reconcile`` asks the destination what became of each unknown row (``GET <url>/<key>``)
  and settles it from that answer: ``delivered`` when the destination has it, ``pending`` (to be
  sent again under the same key) when it authoritatively never received it, unchanged otherwise.
- ``outbox_recover`` turns rows a crashed worker left in ``sending`` into ``outcome_unknown``.

Destinations: a domain registers its own by name (``registries.register_outbox_destination``; the
expense domain's ``approver`` in ``expenses/approver.py``, the trips domain's ``booking``). A factory
that configures no real system (no URL) leaves the rows to the demo inbox (``DemoInbox``), which records
what it receives in the database (the no-network default, shown in the admin as "demo approver
notifications"). A name nobody registered stays pending with ``no_destination``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from registries import IDEMPOTENCY_HEADER as IDEMPOTENCY_HEADER  # re-exported: the header a destination reads
from registries import Delivery, OutboxDestination, outbox_destination

from .models import DemoApproverNotification, OutboxEntry

log = logging.getLogger(__name__)
Status = OutboxEntry.Status


Send = Callable[[OutboxEntry], Delivery]
Lookup = Callable[[OutboxEntry], Delivery | None]


def _now() -> str:
    return timezone.now().isoformat()


class DemoInbox:
    """The receiving side of a destination whose factory configured no real system (the no-network default).

    It behaves as a real system's HTTP side would, with the database as its inbox: every row it receives is
    recorded (``DemoApproverNotification``, in the admin) under its idempotency key, a key received again is
    counted rather than recorded twice, and reconciling asks that record. The record keeps the case the row
    is about and whose case it is; the model keeps the name it was created under (a rename would be a
    migration of its own).
    """

    def __init__(self, name: str):
        self.name = name

    def send(self, entry: OutboxEntry) -> Delivery:
        now = timezone.now()
        owner = entry.case.owner.get_username() if entry.case_id else ""
        received, created = DemoApproverNotification.objects.get_or_create(
            idempotency_key=entry.idempotency_key,
            defaults={"claim": str(entry.case_id or "")[:64], "submitted_by": owner[:150],
                      "payload": entry.payload, "last_received_at": now})
        if not created:  # a re-send under the same key: the receiving system acts on it once
            DemoApproverNotification.objects.filter(pk=received.pk).update(
                times_received=F("times_received") + 1, last_received_at=now)
        return Delivery(Status.DELIVERED, {self.name: "local", "received": entry.idempotency_key,
                                           "id": received.pk, "duplicate": not created,
                                           "status": "received", "at": _now()})

    def lookup(self, entry: OutboxEntry) -> Delivery | None:
        received = DemoApproverNotification.objects.filter(idempotency_key=entry.idempotency_key).first()
        if received is None:
            return Delivery(Status.PENDING, {self.name: "local", "error": "not_received", "at": _now()})
        return Delivery(Status.DELIVERED, {self.name: "local", "received": entry.idempotency_key,
                                           "id": received.pk, "status": "received", "at": _now(),
                                           "reconciled": True})


def destination_for(name: str) -> OutboxDestination | None:
    """The destination a domain registered under ``name`` (``registries.register_outbox_destination``); the
    demo inbox when its factory configured no real system; None when nobody registered the name."""
    try:
        registered = outbox_destination(name)
    except LookupError:
        return None
    return registered if registered is not None else DemoInbox(name)


def deliver(entry: OutboxEntry) -> Delivery:
    destination = destination_for(entry.destination)
    if destination is None:
        return Delivery(Status.PENDING, {"error": "no_destination", "destination": entry.destination, "at": _now()})
    return destination.send(entry)


def reconcile_lookup(entry: OutboxEntry) -> Delivery | None:
    destination = destination_for(entry.destination)
    return destination.lookup(entry) if destination is not None else None


def outbox_dispatch(*, send: Send = deliver, limit: int = 100) -> list[tuple[str, str]]:
    """Deliver pending rows once each. Returns ``(row id, status recorded)`` for the rows this call sent."""
    max_attempts = int(settings.TURNFRAME["OUTBOX_MAX_ATTEMPTS"])
    done: list[tuple[str, str]] = []
    ids = list(OutboxEntry.objects.filter(status=Status.PENDING).order_by("created_at")
               .values_list("pk", flat=True)[:limit])
    for pk in ids:
        claimed = OutboxEntry.objects.filter(pk=pk, status=Status.PENDING).update(
            status=Status.SENDING, attempts=F("attempts") + 1, updated_at=timezone.now())
        if not claimed:  # another worker has it
            continue
        entry = OutboxEntry.objects.get(pk=pk)
        try:
            delivery = send(entry)
        except Exception as exc:  # a broken sender: we cannot tell whether anything left
            log.exception("outbox %s: sending raised", pk)
            delivery = Delivery(Status.OUTCOME_UNKNOWN, {"error": "sender_raised", "detail": str(exc)[:200],
                                                         "at": _now()})
        status = delivery.status
        if status == Status.PENDING and entry.attempts >= max_attempts:
            status = Status.FAILED  # never sent after all these attempts: honestly failed, nothing happened
        if status not in (Status.DELIVERED, Status.FAILED, Status.PENDING, Status.OUTCOME_UNKNOWN):
            log.error("outbox %s: sender answered %r; recording outcome_unknown", pk, status)
            status = Status.OUTCOME_UNKNOWN
        OutboxEntry.objects.filter(pk=pk, status=Status.SENDING).update(
            status=status, acknowledgement=dict(delivery.acknowledgement), updated_at=timezone.now())
        log.info("outbox %s (%s, key %s): %s", pk, entry.destination, entry.idempotency_key[:12], status)
        done.append((pk, status))
    return done


def outbox_reconcile(*, lookup: Lookup = reconcile_lookup, settle_after_s: float | None = None,
                     limit: int = 100) -> list[tuple[str, str]]:
    """Learn the truth about ``outcome_unknown`` rows from their destination; never re-send on a guess."""
    if settle_after_s is None:
        settle_after_s = float(settings.TURNFRAME["OUTBOX_RECONCILE_AFTER_S"])
    cutoff = timezone.now() - timedelta(seconds=settle_after_s)
    done: list[tuple[str, str]] = []
    for entry in OutboxEntry.objects.filter(status=Status.OUTCOME_UNKNOWN, updated_at__lte=cutoff
                                            ).order_by("updated_at")[:limit]:
        try:
            answer = lookup(entry)
        except Exception:
            log.exception("outbox %s: reconcile lookup raised", entry.pk)
            answer = None
        if answer is None or answer.status not in (Status.DELIVERED, Status.PENDING):
            continue
        acknowledgement = {**dict(answer.acknowledgement), "previous": entry.acknowledgement}
        if OutboxEntry.objects.filter(pk=entry.pk, status=Status.OUTCOME_UNKNOWN).update(
                status=answer.status, acknowledgement=acknowledgement, updated_at=timezone.now()):
            log.info("outbox %s reconciled: %s", entry.pk, answer.status)
            done.append((entry.pk, answer.status))
    return done


def outbox_recover(*, stale_after_s: float | None = None) -> int:
    """Rows left ``sending`` by a worker that died mid-call: the request may have left, so unknown."""
    if stale_after_s is None:
        stale_after_s = float(settings.TURNFRAME["OUTBOX_SENDING_LEASE_S"])
    cutoff = timezone.now() - timedelta(seconds=stale_after_s)
    return OutboxEntry.objects.filter(status=Status.SENDING, updated_at__lte=cutoff).update(
        status=Status.OUTCOME_UNKNOWN, acknowledgement={"error": "worker_lost", "at": _now()},
        updated_at=timezone.now())


def outbox_pass(*, send: Send = deliver, lookup: Lookup = reconcile_lookup) -> dict[str, int]:
    """One round of the worker: recover lost sends, deliver, reconcile."""
    recovered = outbox_recover()
    sent = outbox_dispatch(send=send)
    reconciled = outbox_reconcile(lookup=lookup)
    return {"recovered": recovered, "sent": len(sent), "reconciled": len(reconciled),
            "delivered": sum(1 for _, s in sent + reconciled if s == Status.DELIVERED),
            "outcome_unknown": sum(1 for _, s in sent if s == Status.OUTCOME_UNKNOWN)}
