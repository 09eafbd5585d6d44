"""The ``trip`` case kind: statuses and the pure views of a trip (what a person and the model see).

A trip is booked until it is cancelled (terminal). Its items are its segments — flight and train legs —
addressed by their 1-based position ("the second segment", "the return flight" resolved by the model to 2).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from registries import BenchScenario, CaseKindDefinition, CaseSnapshot, Panel, PanelField, PanelItem

from .schemas import (
    ID_PREFIX,
    INITIAL_STATUS,
    KIND,
    MAX_SEGMENTS,
    MAX_TRAVELLERS,
    STATUSES,
    TERMINAL_STATUSES,
    Segment,
    TripState,
)

LOCKED_STATUSES = TERMINAL_STATUSES


def trip_state(case: CaseSnapshot) -> TripState:
    return TripState.model_validate(dict(case.state))


def describe_segment(segment: Segment | Mapping[str, Any]) -> str:
    """``"LH1172 Frankfurt → Lisbon on 2026-12-03 at 09:40"``."""
    s = segment if isinstance(segment, Mapping) else segment.model_dump()
    at = f" at {s['departs']}" if s.get("departs") else ""
    return f"{s['number']} {s['origin']} → {s['destination']} on {s['date']}{at}"


def next_acts(case: CaseSnapshot) -> list[str]:
    if case.status != INITIAL_STATUS:
        return []
    state = trip_state(case)
    acts = ["add_segment"] if len(state.segments) < MAX_SEGMENTS else []
    if state.segments:
        acts.append("rebook_segment")
    if len(state.travellers) < MAX_TRAVELLERS:
        acts.append("add_traveller")
    return [*acts, "cancel_trip"]


def project(case: CaseSnapshot) -> dict[str, Any]:
    """The trip's view: segments with 1-based ordinals, travellers, status and what may be done next."""
    state = trip_state(case)
    return {
        "id": case.id,
        "kind": KIND,
        "title": state.title,
        "status": case.status,
        "revision": case.revision,
        "travellers": [t.name for t in state.travellers],
        "segments": [{"ordinal": n, **s.model_dump(mode="json", exclude_none=True)}
                     for n, s in enumerate(state.segments, 1)],
        "segment_count": len(state.segments),
        "locked": case.status in LOCKED_STATUSES,
        "terminal": case.status in TERMINAL_STATUSES,
        "next_acts": next_acts(case),
        "next_steps": next_steps(case),
    }


def summarize(case: CaseSnapshot) -> str:
    """``'“Lisbon offsite” · booked · 2 segments · 2 travellers'``."""
    state = trip_state(case)
    return (f"“{state.title}” · {case.status} · {_count(len(state.segments), 'segment')} · "
            f"{_count(len(state.travellers), 'traveller')}")


def panel(case: CaseSnapshot) -> Panel:
    """The trip on the chat page: travellers, then each leg (carrier and number, route, day and time)."""
    state = trip_state(case)
    travellers = ", ".join(t.name for t in state.travellers) or "none yet"
    items = [PanelItem(ordinal=n, label=f"{s.origin} → {s.destination}",
                       meta=" · ".join(p for p in (s.mode, s.carrier, s.departs or "") if p),
                       value=f"{s.number} · {s.date}")
             for n, s in enumerate(state.segments, 1)]
    return Panel(fields=[PanelField("Travellers", travellers)], items=items, item_heading="Segment",
                 value_heading="Service", empty="No segments yet.", summary=_count(len(state.segments), "segment"))


def resolve_segment(case: CaseSnapshot, ordinal: int) -> str | None:
    """The stable id of the segment at 1-based ``ordinal``, or None when there is no such segment."""
    segments = trip_state(case).segments
    if isinstance(ordinal, bool) or not 1 <= ordinal <= len(segments):
        return None
    return segments[ordinal - 1].id


def next_steps(case: CaseSnapshot) -> str:
    if case.status != INITIAL_STATUS:
        return "The trip was cancelled and is closed; you can plan a new trip."
    if not trip_state(case).segments:
        return "You can add flight or train segments and travellers, or cancel the trip."
    return "You can rebook a segment, add segments or travellers, or cancel the trip."


def suggestions(cases: Sequence[CaseSnapshot]) -> list[str]:
    """Only about the user's own booked trips: none, nothing to suggest (the page keeps other domains' ideas)."""
    booked = [c for c in cases if c.status == INITIAL_STATUS]
    if not booked:
        return []
    return [f"Move the first segment of {booked[0].title} to a day later"]


def _count(n: int, noun: str) -> str:
    return f"no {noun}s" if n == 0 else f"1 {noun}" if n == 1 else f"{n} {noun}s"


# --------------------------------------------------------------------------- the bench scenario


def _bench_seed(title: str) -> list[tuple[str, dict[str, Any]]]:
    return [("open_trip", {"title": title}),
            ("add_segment", {"mode": "train", "origin": "Frankfurt", "destination": "Cologne", "date": "2026-12-03",
                             "carrier": "Deutsche Bahn", "number": "ICE 123"})]


def _bench_answers(text: str) -> list[dict[str, Any]]:
    day = text.rsplit(" ", 1)[-1]
    return [
        {"reads": [{"tool": "search_timetable", "args": {"origin": "Frankfurt", "destination": "Cologne", "date": day}}]},
        {"plan": {"acts": [{"id": "a1", "act": "rebook_segment", "args": {"segment": 1, "date": day},
                            "evidence": text}]}},
    ]


BENCH = BenchScenario(seed=_bench_seed, messages=("move segment 1 to 2026-12-04", "move segment 1 to 2026-12-05"),
                      answers=_bench_answers)


_GENERIC = frozenset("the a an my our of for and to in on at with from by trip trips travel journey offsite team "
                     "visit conference week business flight flights train trains".split())


def trip_mentions(case: CaseSnapshot) -> list[str]:
    """How a person names a trip (SPEC §13 grounding): the distinctive words of its title."""
    return list(dict.fromkeys(w for w in re.findall(r"[^\W\d_][\w'’-]*", case.title)
                              if len(w) >= 3 and w.casefold() not in _GENERIC))


TRIP = CaseKindDefinition(
    name=KIND,
    id_prefix=ID_PREFIX,
    state_schema=TripState,
    statuses=STATUSES,
    initial_status=INITIAL_STATUS,
    terminal_statuses=TERMINAL_STATUSES,
    locked_statuses=LOCKED_STATUSES,
    project=project,
    summarize=summarize,
    resolve_item=resolve_segment,
    item_noun="segment",
    next_steps=next_steps,
    noun="trip",
    start_hint="You can plan a trip (“open a trip called Lisbon offsite”), add flight or train segments and "
               "travellers, rebook a segment, or ask me about the fare rules.",
    reason_copy={"flight_change": "flight changes may carry a fee under the fare rules"},
    suggestions=suggestions,
    panel=panel,
    bench=BENCH,
    mentions=trip_mentions,
)
