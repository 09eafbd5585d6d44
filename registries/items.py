"""Helpers an act handler of any case kind needs (public API, re-exported by ``registries``).

A case kind keeps its items (a claim's lines, a trip's segments) in its state, each with an id the handler mints;
these are the checks and the id scheme every kind would otherwise write again.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from .definitions import CaseSnapshot, CommandRefused


class Item(Protocol):
    id: str


def editable_case(case: CaseSnapshot | None, *, open_status: str, noun: str) -> CaseSnapshot:
    """The case an act changes, when it exists and is still in its open status; otherwise the command is refused
    (``target_not_found``, ``case_locked``)."""
    if case is None:
        raise CommandRefused("target_not_found", f"this act needs an existing {noun}")
    if case.status != open_status:
        raise CommandRefused("case_locked", f"the {noun} is {case.status}")
    return case


def find_item[I: Item](items: Sequence[I], args: Mapping[str, Any], *, key: str, noun: str, case_noun: str
                       ) -> tuple[int, I]:
    """The item the runtime resolved (``args[key]``) and its current 1-based ordinal; else ``<noun>_not_found``."""
    item_id = args.get(key)
    for ordinal, item in enumerate(items, 1):
        if item.id == item_id:
            return ordinal, item
    raise CommandRefused(f"{noun}_not_found", f"the {case_noun} has no {noun} {item_id!r}")


def new_item_id(prefix: str, case_id: str, counter: int, taken: Iterable[str]) -> tuple[str, int]:
    """The next item id after ``counter`` and the counter it used: deterministic (a hash of the case and the
    counter), never reused within the case."""
    taken = set(taken)
    while True:
        counter += 1
        digest = hashlib.sha256(f"{case_id}:{counter}".encode()).digest()
        candidate = f"{prefix}_" + base64.b32encode(digest).decode("ascii")[:6].lower()
        if candidate not in taken:
            return candidate, counter
