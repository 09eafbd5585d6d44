"""The demo trip ``manage.py seed_demo`` creates when the trips domain is enabled: alice's Lisbon offsite."""

from __future__ import annotations

from registries import DemoCase

from .schemas import KIND


def demo_cases() -> list[DemoCase]:
    return [
        DemoCase(owner="alice", kind=KIND, title="Lisbon offsite", acts=[
            ("open_trip", {"title": "Lisbon offsite"}),
            ("add_traveller", {"name": "Alice Martin"}),
            ("add_segment", {"mode": "flight", "origin": "Frankfurt", "destination": "Lisbon", "date": "2026-12-03",
                             "carrier": "Lufthansa", "number": "LH1172", "departs": "09:40"}),
            ("add_segment", {"mode": "flight", "origin": "Lisbon", "destination": "Frankfurt", "date": "2026-12-06",
                             "carrier": "Lufthansa", "number": "LH1173", "departs": "12:45"}),
        ]),
    ]
