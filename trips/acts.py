"""The trip acts: argument schemas, pure handlers and their server copy.

- ``open_trip`` (reversible, creates the case) and ``add_segment`` / ``add_traveller`` (reversible);
- ``rebook_segment`` (consequential: a confirmation card; external: the booking system is told through the
  outbox after commit); the segment arrives resolved as ``segment_id``;
- ``cancel_trip`` (irreversible: a card; the trip becomes ``cancelled``, which is terminal).

A handler does no I/O and reads no clock: the same state and arguments give the same result.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from registries import (
    ActDefinition,
    ActMutability,
    CaseSnapshot,
    CommandContext,
    CommandRefused,
    CommandResult,
    DomainEventDraft,
    OutboxDraft,
    act_maker,
    editable_case,
    find_item,
    new_item_id,
    parse_args,
)

from . import policies
from .booking import NAME as BOOKING_SYSTEM
from .domain import INITIAL_STATUS, describe_segment, trip_state
from .schemas import (
    KIND,
    MAX_SEGMENTS,
    MAX_TRAVELLERS,
    AddSegmentArgs,
    AddTravellerArgs,
    CancelTripArgs,
    OpenTripArgs,
    RebookSegmentArgs,
    Segment,
    TripState,
)

RESOLVED_KEYS = ("segment_id",)
BOOKING = BOOKING_SYSTEM  # the outbox destination: the travel agency's booking system
SEGMENT_FIELDS = ("mode", "origin", "destination", "date", "carrier", "number", "departs")


def _parse[M: BaseModel](schema: type[M], args: Mapping[str, Any]) -> M:
    return parse_args(schema, args, RESOLVED_KEYS)


def _booked(case: CaseSnapshot | None) -> tuple[CaseSnapshot, TripState]:
    case = editable_case(case, open_status=INITIAL_STATUS, noun="trip")
    return case, trip_state(case)


def _find_segment(state: TripState, args: Mapping[str, Any]) -> tuple[int, Segment]:
    return find_item(state.segments, args, key="segment_id", noun="segment", case_noun="trip")


def _taken(state: TripState) -> list[str]:
    return [s.id for s in state.segments] + [t.id for t in state.travellers]


def _fields(segment: Segment) -> dict[str, Any]:
    return segment.model_dump(mode="json", exclude={"id"}, exclude_none=True)


def _result(state: TripState, status: str, event_type: str, data: Mapping[str, Any],
            outbox: Iterable[OutboxDraft] = ()) -> CommandResult:
    facts = {"title": state.title, "segment_count": len(state.segments), "traveller_count": len(state.travellers)}
    return CommandResult(state=state.model_dump(mode="json", exclude_none=True), status=status, title=state.title,
                         events=[DomainEventDraft(type=event_type, data={**facts, **data})], outbox=list(outbox))


def _with(state: TripState, **changes: Any) -> TripState:
    return TripState.model_validate({**state.model_dump(mode="json", exclude_none=True), **changes})


# --------------------------------------------------------------------------- handlers


def open_trip(case: CaseSnapshot | None, args: Mapping[str, Any], ctx: CommandContext) -> CommandResult:
    if case is not None:
        raise CommandRefused("invalid_target", "open_trip creates a trip; it takes no case")
    parsed = _parse(OpenTripArgs, args)
    return _result(TripState(title=parsed.title), INITIAL_STATUS, "trip_opened", {})


def add_segment(case: CaseSnapshot | None, args: Mapping[str, Any], ctx: CommandContext) -> CommandResult:
    case, state = _booked(case)
    parsed = _parse(AddSegmentArgs, args)
    if len(state.segments) >= MAX_SEGMENTS:
        raise CommandRefused("too_many_segments", f"a trip holds at most {MAX_SEGMENTS} segments")
    segment_id, counter = new_item_id("sg", case.id, state.counter, _taken(state))
    segment = Segment(id=segment_id, **parsed.model_dump(exclude_none=True))
    after = _with(state, segments=[*[s.model_dump(mode="json", exclude_none=True) for s in state.segments],
                                   segment.model_dump(mode="json", exclude_none=True)], counter=counter)
    return _result(after, INITIAL_STATUS, "segment_added",
                   {"segment_id": segment.id, "ordinal": len(after.segments), **_fields(segment)})


def rebook_segment(case: CaseSnapshot | None, args: Mapping[str, Any], ctx: CommandContext) -> CommandResult:
    case, state = _booked(case)
    ordinal, before = _find_segment(state, args)
    changes = _parse(RebookSegmentArgs, args).changes()
    changed = [name for name, value in changes.items() if getattr(before, name) != value]
    if not changed:
        raise CommandRefused("no_change", f"segment {ordinal} is already booked like that")
    segment = Segment.model_validate({**before.model_dump(exclude_none=True), **{n: changes[n] for n in changed}})
    after = _with(state, segments=[(segment if s.id == before.id else s).model_dump(mode="json", exclude_none=True)
                                   for s in state.segments])
    payload = {"trip": case.id, "revision": case.revision + 1, "requested_by": ctx.actor.username,
               "segment": segment.id, "before": _fields(before), "after": _fields(segment),
               "travellers": [t.name for t in state.travellers]}
    return _result(after, INITIAL_STATUS, "segment_rebooked",
                   {"segment_id": segment.id, "ordinal": ordinal, "changed": changed, "before": _fields(before),
                    "after": _fields(segment)},
                   outbox=[OutboxDraft(destination=BOOKING, payload=payload)])


def add_traveller(case: CaseSnapshot | None, args: Mapping[str, Any], ctx: CommandContext) -> CommandResult:
    case, state = _booked(case)
    parsed = _parse(AddTravellerArgs, args)
    if any(t.name.casefold() == parsed.name.casefold() for t in state.travellers):
        raise CommandRefused("traveller_exists", f"{parsed.name} already travels on this trip")
    if len(state.travellers) >= MAX_TRAVELLERS:
        raise CommandRefused("too_many_travellers", f"a trip holds at most {MAX_TRAVELLERS} travellers")
    traveller_id, counter = new_item_id("tv", case.id, state.counter, _taken(state))
    after = _with(state, travellers=[*[t.model_dump() for t in state.travellers],
                                     {"id": traveller_id, "name": parsed.name}], counter=counter)
    return _result(after, INITIAL_STATUS, "traveller_added", {"traveller_id": traveller_id, "name": parsed.name})


def cancel_trip(case: CaseSnapshot | None, args: Mapping[str, Any], ctx: CommandContext) -> CommandResult:
    case, state = _booked(case)
    _parse(CancelTripArgs, args)
    payload = {"trip": case.id, "revision": case.revision + 1, "requested_by": ctx.actor.username,
               "cancel": [s.id for s in state.segments]}
    return _result(state, "cancelled", "trip_cancelled", {},
                   outbox=[OutboxDraft(destination=BOOKING, payload=payload)] if state.segments else [])


# --------------------------------------------------------------------------- server copy


def _quoted(text: str) -> str:
    return f"“{text}”"


def _changes(before: Mapping[str, Any], after: Mapping[str, Any], changed: Iterable[str]) -> str:
    return ", ".join(f"{name} {before.get(name, '—')} → {after[name]}" for name in changed)


def describe_command(case: CaseSnapshot | None, args: Mapping[str, Any], act: str) -> str:
    """What a card says a command will do, e.g. ``Rebook segment 1 of “Lisbon offsite” (LH1172 Frankfurt →
    Lisbon on 2026-12-03): date 2026-12-03 → 2026-12-04``. Never raises."""
    try:
        return _describe_command(case, args, act)
    except (KeyError, TypeError, ValueError, ValidationError):
        return act.replace("_", " ").capitalize() + (f" on {_quoted(case.title)}" if case else "")


def _describe_command(case: CaseSnapshot | None, args: Mapping[str, Any], act: str) -> str:
    if act == "open_trip":
        return f"Open a new trip {_quoted(str(args['title']))}"
    if case is None:
        raise ValueError("no case")
    state = trip_state(case)
    title = _quoted(state.title)
    if act == "add_segment":
        return f"Add a {args['mode']} to {title}: {describe_segment({'departs': None, **args})}"
    if act == "add_traveller":
        return f"Add {args['name']} as a traveller on {title}"
    if act == "cancel_trip":
        return f"Cancel {title} ({len(state.segments)} segments); this cannot be undone"
    if act == "rebook_segment":
        ordinal = args.get("segment")
        try:
            _, segment = _find_segment(state, args)
        except CommandRefused:
            if not (isinstance(ordinal, int) and 1 <= ordinal <= len(state.segments)):
                return f"Rebook segment {ordinal} of {title}"
            segment = state.segments[ordinal - 1]
        changes = {name: args[name] for name in ("date", "carrier", "number", "departs") if args.get(name)}
        return (f"Rebook segment {ordinal} of {title} ({describe_segment(segment)}): "
                f"{_changes(segment.model_dump(), changes, changes)}")
    raise ValueError(act)


def _describe_event(kind: str, data: Mapping[str, Any]) -> str:
    title = _quoted(str(data["title"]))
    if kind == "trip_opened":
        return f"Opened trip {title}."
    if kind == "segment_added":
        return f"Added segment {data['ordinal']} to {title}: {describe_segment(data)}."
    if kind == "segment_rebooked":
        return (f"Rebooked segment {data['ordinal']} of {title}: {_changes(data['before'], data['after'], data['changed'])}"
                "; the booking system will be told.")
    if kind == "traveller_added":
        return f"Added {data['name']} as a traveller on {title}."
    if kind == "trip_cancelled":
        return f"Cancelled {title}."
    raise ValueError(kind)


_act = act_maker(KIND, card=describe_command, receipt=_describe_event)


ACTS: tuple[ActDefinition, ...] = (
    _act("open_trip", "Open a new trip with a title. Takes no case.", OpenTripArgs, ActMutability.REVERSIBLE,
         policies.open_trip_policy, open_trip, ("opened", "created"), creates_case=True),
    _act("add_segment",
         "Add a flight or train segment to a booked trip: mode, origin, destination, date, carrier, number, "
         "optionally the departure time.",
         AddSegmentArgs, ActMutability.REVERSIBLE, policies.open_only_policy, add_segment, ("added",)),
    _act("rebook_segment",
         "Rebook one segment (its 1-based position in the trip) to another date, carrier, service number or "
         "departure time. The user confirms it on a card; the booking system is told.",
         RebookSegmentArgs, ActMutability.CONSEQUENTIAL, policies.rebook_segment_policy, rebook_segment,
         ("rebooked",), external=True, item_arg="segment"),
    _act("add_traveller", "Add a traveller (full name) to a booked trip.", AddTravellerArgs,
         ActMutability.REVERSIBLE, policies.add_traveller_policy, add_traveller, ("added",)),
    _act("cancel_trip", "Cancel a trip: every segment is given up and the trip is closed for good. The user "
                        "confirms it on a card.",
         CancelTripArgs, ActMutability.IRREVERSIBLE, policies.open_only_policy, cancel_trip,
         ("cancelled", "canceled"), external=True),
)
