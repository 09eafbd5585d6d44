"""The ``booking`` outbox destination: where a committed rebooking or cancellation is sent.

The example ships a local booking system that confirms every request at once and remembers the keys it
has seen in this process (so a reconciliation can answer for them): the no-network default. A real
deployment registers its agency's client under the same name instead.
"""

from __future__ import annotations

from datetime import UTC, datetime

from registries import Delivery, OutboxMessage

NAME = "booking"


class LocalBookingSystem:
    name = NAME
    received: dict[str, str] = {}  # idempotency key -> booking reference (this process)

    def send(self, message: OutboxMessage) -> Delivery:
        reference = self.received.setdefault(message.idempotency_key, f"BK-{message.id[-8:].upper()}")
        return Delivery("delivered", {"booking_system": "local", "reference": reference,
                                      "at": datetime.now(UTC).isoformat()})

    def lookup(self, message: OutboxMessage) -> Delivery | None:
        reference = self.received.get(message.idempotency_key)
        if reference is None:  # never received: sending again under the same key is safe
            return Delivery("pending", {"booking_system": "local", "error": "not_received"})
        return Delivery("delivered", {"booking_system": "local", "reference": reference, "reconciled": True})
