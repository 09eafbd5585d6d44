"""The trip read tools: side-effect-free lookups for the read loop.

- ``get_trip``: one of the actor's trips as its kind projects it (through the read context);
- ``search_timetable``: scheduled flight and train services between two places (``data/timetable.json``,
  static reference data);
- ``lookup_fare_rules``: the fare rules (``knowledge/fare-rules.md``), best matching sections first.
"""

from __future__ import annotations

import json
import re
from datetime import date
from functools import cache
from importlib import resources
from typing import Any

from registries import READ_ONLY, ReadContext, ReadToolDefinition

from .domain import project
from .schemas import KIND, FareRulesArgs, GetTripArgs, SearchTimetableArgs

_WORD = re.compile(r"[a-z]+")
_STOP = frozenset("a an and are can do does for how i in is it my of on or the to what when with you".split())


def get_trip(args: GetTripArgs, ctx: ReadContext) -> dict[str, Any]:
    case = ctx.get_case(args.trip)
    if case is None or case.kind != KIND:
        raise LookupError("not_found")
    return project(case)


@cache
def timetable() -> dict[str, Any]:
    return json.loads(resources.files("trips").joinpath("data/timetable.json").read_text("utf-8"))


def search_timetable(args: SearchTimetableArgs, ctx: ReadContext) -> dict[str, Any]:
    """Services from ``origin`` to ``destination`` (on ``date``'s weekday when given), earliest first."""
    weekday = date.fromisoformat(args.date).weekday() if args.date else None
    found = [
        {k: v for k, v in service.items() if k != "days"}
        for service in timetable()["services"]
        if service["origin"].casefold() == args.origin.casefold()
        and service["destination"].casefold() == args.destination.casefold()
        and (args.mode is None or service["mode"] == args.mode)
        and (weekday is None or weekday in service["days"])
    ]
    found.sort(key=lambda s: s["departs"])
    return {"origin": args.origin, "destination": args.destination, "date": args.date, "count": len(found),
            "services": found, "source": timetable()["source"]}


@cache
def fare_sections() -> tuple[tuple[str, str], ...]:
    text = resources.files("trips").joinpath("knowledge/fare-rules.md").read_text("utf-8")
    sections = []
    for block in text.split("\n## ")[1:]:
        heading, _, body = block.partition("\n")
        sections.append((heading.strip(), " ".join(body.split())))
    return tuple(sections)


def _terms(text: str) -> set[str]:
    return {w.rstrip("s") for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 2}


def lookup_fare_rules(args: FareRulesArgs, ctx: ReadContext) -> dict[str, Any]:
    """Sections whose heading (three times) and body share the most words with the query."""
    wanted = _terms(args.query)
    scored = []
    for heading, body in fare_sections():
        score = 3 * len(wanted & _terms(heading)) + len(wanted & _terms(body))
        if score:
            scored.append((score, heading, body))
    scored.sort(key=lambda item: -item[0])
    result: dict[str, Any] = {"query": args.query,
                              "sections": [{"title": h, "text": b} for _, h, b in scored[:3]]}
    if not scored:
        result["note"] = "No section of the fare rules matches this query."
    return result


READ_TOOLS: tuple[ReadToolDefinition, ...] = (
    ReadToolDefinition(
        name="get_trip", kind="case_state", args_schema=GetTripArgs, handler=get_trip,
        description="Read one of the user's trips by id: its segments (with 1-based positions), travellers, "
                    "status and what can be done next.",
        declared_mutability=READ_ONLY, timeout_ms=2000, max_result_bytes=32_000),
    ReadToolDefinition(
        name="search_timetable", kind="reference_data", args_schema=SearchTimetableArgs, handler=search_timetable,
        description="Scheduled flight and train services between two places, optionally on a date and of one "
                    "mode: carrier, number, departure and arrival times.",
        declared_mutability=READ_ONLY, timeout_ms=1000, max_result_bytes=8_000),
    ReadToolDefinition(
        name="lookup_fare_rules", kind="knowledge", args_schema=FareRulesArgs, handler=lookup_fare_rules,
        description="Search the fare rules (changing flights and trains, change fees, cancelling, refunds, "
                    "travellers) and return the best matching sections.",
        declared_mutability=READ_ONLY, timeout_ms=1000, max_result_bytes=8_000),
)
