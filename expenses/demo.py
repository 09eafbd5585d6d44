"""The demo claims ``manage.py seed_demo`` creates (CONTRACT §8): two drafts for alice."""

from __future__ import annotations

from registries import DemoCase

from .schemas import KIND


def _line(day: str, merchant: str, category: str, amount: str) -> tuple[str, dict[str, str]]:
    return "add_line", {"date": day, "merchant": merchant, "category": category, "amount": amount}


def demo_cases() -> list[DemoCase]:
    """Berlin trip (302.50 EUR) and Lisbon conference (448.40 EUR), three lines each."""
    return [
        DemoCase(owner="alice", kind=KIND, title="Berlin trip", acts=[
            ("open_claim", {"title": "Berlin trip", "currency": "EUR"}),
            _line("2026-11-16", "Deutsche Bahn", "travel", "89.90"),
            _line("2026-11-16", "Hotel Adlon", "hotel", "180.00"),
            _line("2026-11-17", "Taxi Berlin", "taxi", "32.60"),
        ]),
        DemoCase(owner="alice", kind=KIND, title="Lisbon conference", acts=[
            ("open_claim", {"title": "Lisbon conference", "currency": "EUR"}),
            _line("2026-11-23", "TAP Air Portugal", "travel", "245.00"),
            _line("2026-11-23", "Hotel Avenida Palace", "hotel", "165.00"),
            _line("2026-11-24", "Time Out Market", "meals", "38.40"),
        ]),
    ]
