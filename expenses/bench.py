"""The turn ``manage.py bench`` measures on an expense claim: a look at the policy, then a line changed to an
amount over the confirmation limit (so a card is drawn), confirmed by a click."""

from __future__ import annotations

from typing import Any

from registries import BenchScenario

AMOUNTS = ("1500", "1600")


def seed(title: str) -> list[tuple[str, dict[str, Any]]]:
    return [("open_claim", {"title": title}), ("add_line", {"amount": "10.00", "category": "taxi"})]


def answers(text: str) -> list[dict[str, Any]]:
    amount = text.rsplit(" ", 1)[-1]
    return [
        {"reads": [{"tool": "lookup_policy", "args": {"query": "limit"}}]},
        {"plan": {"acts": [{"id": "a1", "act": "update_line", "args": {"line": 1, "amount": amount},
                            "evidence": text}]}},
    ]


BENCH = BenchScenario(seed=seed, messages=tuple(f"set line 1 to {amount}" for amount in AMOUNTS), answers=answers)
