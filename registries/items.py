"""Helpers an act handler of any case kind needs (public API, re-exported by ``registries``).

A case kind keeps its items (a claim's lines, a trip's segments) in its state, each with an id the handler mints;
these are the checks and the id scheme every kind would otherwise write again.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from pydantic import BaseModel

from .definitions import (
    ActDefinition,
    ActMutability,
    CaseSnapshot,
    CommandContext,
    CommandRefused,
    CommandResult,
    DomainEventDraft,
    PolicyDecision,
)


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


type Handler = Callable[[CaseSnapshot | None, Mapping[str, Any], CommandContext], CommandResult]
type Policy = Callable[[CaseSnapshot | None, BaseModel], PolicyDecision]


def act_maker(kind: str, *, card: Callable[[CaseSnapshot | None, Mapping[str, Any], str], str],
              receipt: Callable[[str, Mapping[str, Any]], str]) -> Callable[..., ActDefinition]:
    """The ``ActDefinition`` factory of one kind's act module: ``make(name, description, schema, mutability,
    policy, handler, claim_phrases, **options)``. A card's copy is ``card(case, args, act name)``; a receipt's is
    ``receipt(event type, event data)``, and a receipt never fails: on a key it lacks or a value it cannot word
    it says the event's type ("Line added.")."""

    def describe_event(event: DomainEventDraft) -> str:
        try:
            return receipt(event.type, event.data)
        except (KeyError, TypeError, ValueError):
            return event.type.replace("_", " ").capitalize() + "."

    def make(name: str, description: str, schema: type[BaseModel], mutability: ActMutability, policy: Policy,
             handler: Handler, claim_phrases: tuple[str, ...], **options: Any) -> ActDefinition:
        def describe(case: CaseSnapshot | None, args: Mapping[str, Any]) -> str:
            return card(case, args, name)

        describe.__name__ = describe.__qualname__ = f"describe_{name}"
        return ActDefinition(name=name, case_kind=kind, description=description, args_schema=schema,
                             mutability=mutability, policy=policy, handler=handler, claim_phrases=claim_phrases,
                             describe_command=describe, describe_event=describe_event, **options)

    return make
