"""The six expense acts (CONTRACT §3): argument schemas, pure handlers and their server copy.

A handler is ``(case | None, args, ctx) -> CommandResult``. It does no I/O and reads no clock or
randomness beyond ``ctx``: given the same state and arguments it returns the same result, so a
recovered command can be re-run safely. Line references arrive resolved: ``args["line_id"]`` is
the stable id the reducer resolved the ordinal ``args["line"]`` to, at the revision the command
was drawn for.
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
from .domain import INITIAL_STATUS, claim_state, claim_total, describe_line
from .exchange import paid_in_claim_currency
from .money import format_money
from .schemas import (
    KIND,
    MAX_LINES,
    AddLineArgs,
    ExpenseClaimState,
    Line,
    LineChanges,
    OpenClaimArgs,
    RemoveLineArgs,
    SubmitClaimArgs,
    UpdateLineArgs,
    WithdrawClaimArgs,
)

RESOLVED_KEYS = ("line", "line_id")  # added or kept by the runtime's line resolution
LINE_FIELDS = ("date", "merchant", "category", "amount", "description")
APPROVER = "approver"  # the outbox destination of a submission (``approver.py``)


# --------------------------------------------------------------------------- helpers


def _parse[M: BaseModel](schema: type[M], args: Mapping[str, Any], drop: Iterable[str] = RESOLVED_KEYS) -> M:
    """Re-validate the arguments the handler relies on, without the keys the line resolution added."""
    return parse_args(schema, args, drop)


def _draft(case: CaseSnapshot | None) -> tuple[CaseSnapshot, ExpenseClaimState]:
    """The case and its state, when it is a draft claim; otherwise the command is refused."""
    case = editable_case(case, open_status=INITIAL_STATUS, noun="claim")
    return case, claim_state(case)


def _find_line(state: ExpenseClaimState, args: Mapping[str, Any]) -> tuple[int, Line]:
    """The line the runtime resolved (``line_id``) and its current 1-based ordinal."""
    return find_item(state.lines, args, key="line_id", noun="line", case_noun="claim")


def new_line_id(case_id: str, counter: int, taken: Iterable[str]) -> tuple[str, int]:
    """The next line id after ``counter`` and the counter it used: deterministic, never reused."""
    return new_item_id("ln", case_id, counter, taken)


def _line_fields(line: Line) -> dict[str, str]:
    """A line's fields as an event records them (a description only when it has one)."""
    fields = {name: value for name in LINE_FIELDS if (value := getattr(line, name)) is not None}
    return {**fields, "quantity": line.quantity} if line.quantity else fields


def _claim_facts(state: ExpenseClaimState) -> dict[str, Any]:
    """What every event of a claim carries so a receipt can be written from the event alone."""
    return {"title": state.title, "currency": state.currency, "total": claim_total(state),
            "line_count": len(state.lines)}


def _result(state: ExpenseClaimState, status: str, event_type: str, data: Mapping[str, Any],
            outbox: Iterable[OutboxDraft] = ()) -> CommandResult:
    return CommandResult(state=state.model_dump(mode="json", exclude_none=True), status=status, title=state.title,
                         events=[DomainEventDraft(type=event_type, data={**_claim_facts(state), **data})],
                         outbox=list(outbox))


def _with_lines(state: ExpenseClaimState, lines: list[Line], counter: int | None = None) -> ExpenseClaimState:
    """A new, validated state with ``lines`` (the counter only ever grows)."""
    return ExpenseClaimState.model_validate({
        "title": state.title, "currency": state.currency, "lines": [line.model_dump(exclude_none=True) for line in lines],
        "line_counter": state.line_counter if counter is None else counter,
    })


# --------------------------------------------------------------------------- handlers


def open_claim(case: CaseSnapshot | None, args: Mapping[str, Any], ctx: CommandContext) -> CommandResult:
    if case is not None:
        raise CommandRefused("invalid_target", "open_claim creates a claim; it takes no case")
    parsed = _parse(OpenClaimArgs, args)
    state = ExpenseClaimState(title=parsed.title, currency=parsed.currency)
    return _result(state, INITIAL_STATUS, "claim_opened", {})


def add_line(case: CaseSnapshot | None, args: Mapping[str, Any], ctx: CommandContext) -> CommandResult:
    case, state = _draft(case)
    parsed = _parse(AddLineArgs, args)
    if len(state.lines) >= MAX_LINES:
        raise CommandRefused("too_many_lines", f"a claim holds at most {MAX_LINES} lines")
    line_id, counter = new_line_id(case.id, state.line_counter, (line.id for line in state.lines))
    day = parsed.date or ctx.today
    amount, paid = _in_claim_currency(parsed.amount, parsed.currency, state.currency, day)
    line = Line(id=line_id, date=day, merchant=parsed.merchant or "", category=parsed.category, amount=amount,
                quantity=parsed.quantity, description=parsed.description or None, **paid)
    after = _with_lines(state, [*state.lines, line], counter)
    return _result(after, INITIAL_STATUS, "line_added",
                   {"line_id": line.id, "ordinal": len(after.lines), **_line_fields(line),
                    **({"quantity": line.quantity} if line.quantity else {}), **paid})


def _in_claim_currency(amount: str, paid_in: str | None, currency: str, day: str) -> tuple[str, dict[str, str]]:
    """The amount in the claim's currency, and what was paid when the user said another currency: converted at the
    company reference rate in force on the line's day (deterministic: the published table, never the model)."""
    if not paid_in or paid_in == currency:
        return amount, {}
    try:
        converted = paid_in_claim_currency(amount, paid_in, currency, day)
    except LookupError as exc:
        raise CommandRefused("currency_not_covered", f"no reference rate converts {paid_in} on {day}") from exc
    return converted, {"paid_amount": amount, "paid_currency": paid_in}


def update_line(case: CaseSnapshot | None, args: Mapping[str, Any], ctx: CommandContext) -> CommandResult:
    _, state = _draft(case)
    ordinal, before = _find_line(state, args)
    changes = _parse(LineChanges, args).changes()
    changed = [name for name, value in changes.items() if getattr(before, name) != value]
    if not changed:
        raise CommandRefused("no_change", f"line {ordinal} already has those values")
    line = Line.model_validate({**before.model_dump(exclude_none=True), **{name: changes[name] for name in changed}})
    after = _with_lines(state, [line if item.id == before.id else item for item in state.lines])
    return _result(after, INITIAL_STATUS, "line_updated", {
        "line_id": line.id, "ordinal": ordinal, "changed": changed,
        "before": _line_fields(before), "after": _line_fields(line), **_line_fields(line),
    })


def remove_line(case: CaseSnapshot | None, args: Mapping[str, Any], ctx: CommandContext) -> CommandResult:
    _, state = _draft(case)
    ordinal, line = _find_line(state, args)
    after = _with_lines(state, [item for item in state.lines if item.id != line.id])
    return _result(after, INITIAL_STATUS, "line_removed",
                   {"line_id": line.id, "ordinal": ordinal, **_line_fields(line),
                    **({"quantity": line.quantity} if line.quantity else {})})


def submit_claim(case: CaseSnapshot | None, args: Mapping[str, Any], ctx: CommandContext) -> CommandResult:
    case, state = _draft(case)
    _parse(SubmitClaimArgs, args)
    if not state.lines:
        raise CommandRefused("claim_empty", "a claim with no lines cannot be submitted")
    payload = {
        "claim": case.id, "revision": case.revision + 1, "submitted_by": ctx.actor.username,
        **_claim_facts(state),
        "lines": [{"ordinal": n, **line.model_dump(mode="json")} for n, line in enumerate(state.lines, 1)],
    }
    return _result(state, "submitted", "claim_submitted", {"submitted_by": ctx.actor.username},
                   outbox=[OutboxDraft(destination=APPROVER, payload=payload)])


def withdraw_claim(case: CaseSnapshot | None, args: Mapping[str, Any], ctx: CommandContext) -> CommandResult:
    _, state = _draft(case)
    _parse(WithdrawClaimArgs, args)
    return _result(state, "withdrawn", "claim_withdrawn", {})


def complete_add_line(args: Mapping[str, Any], ctx: CommandContext) -> dict[str, Any]:
    """A line with no date is dated today in the actor's timezone."""
    completed = dict(args)
    if not completed.get("date"):
        completed["date"] = ctx.today
    return completed


# --------------------------------------------------------------------------- server copy


def _quoted(text: str) -> str:
    return f"“{text}”"


def _count(n: int) -> str:
    return "no lines" if n == 0 else "1 line" if n == 1 else f"{n} lines"


def _change_phrase(name: str, before: str, after: str, currency: str) -> str:
    if name == "amount":
        return f"amount {before} → {format_money(after, currency)}"
    if name in ("merchant", "description"):
        if not after:
            return f"{name} {_quoted(before)} cleared"
        return f"{name} set to {_quoted(after)}" if not before else f"{name} {_quoted(before)} → {_quoted(after)}"
    if name == "quantity":
        return f"quantity {before or 1} → {after}"
    return f"{name} {before} → {after}"


def _change_phrases(before: Mapping[str, Any], after: Mapping[str, Any], changed: Iterable[str],
                    currency: str) -> str:
    return ", ".join(_change_phrase(name, str(before.get(name, "")), str(after[name]), currency)
                     for name in changed)


def _line_for_copy(state: ExpenseClaimState, args: Mapping[str, Any]) -> tuple[int, Line] | None:
    """The line a command names: by resolved id, else by the ordinal the plan gave."""
    try:
        return _find_line(state, args)
    except CommandRefused:
        ordinal = args.get("line")
        if isinstance(ordinal, int) and 1 <= ordinal <= len(state.lines):
            return ordinal, state.lines[ordinal - 1]
        return None


def describe_command(case: CaseSnapshot | None, args: Mapping[str, Any], act: str) -> str:
    """What a confirmation card says a command will do, e.g.
    ``Remove line 2 (Hotel Adlon, 180.00 EUR) from “Berlin trip”``. Never raises."""
    try:
        return _describe_command(case, args, act)
    except (KeyError, TypeError, ValueError, ValidationError):
        return f"{act.replace('_', ' ').capitalize()}" + (f" on {_quoted(case.title)}" if case else "")


def _describe_command(case: CaseSnapshot | None, args: Mapping[str, Any], act: str) -> str:
    if act == "open_claim":
        return f"Open a new claim {_quoted(str(args['title']))} in {args.get('currency', 'EUR')}"
    if case is None:
        raise ValueError("no case")
    state = claim_state(case)
    title, currency = _quoted(state.title), state.currency
    if act == "add_line":
        day = f"on {args['date']}" if args.get("date") else "dated today"
        if args.get("currency") and args["currency"] != currency and args.get("date"):
            amount, paid = _in_claim_currency(str(args["amount"]), str(args["currency"]), currency, str(args["date"]))
            args = {**args, "amount": amount, **paid}
        return f"Add a line to {title}: {describe_line(args, currency)} {day}"
    if act in ("update_line", "remove_line"):
        found = _line_for_copy(state, args)
        if found is None:
            return f"{'Change' if act == 'update_line' else 'Remove'} line {args.get('line')} of {title}"
        ordinal, line = found
        if isinstance(args.get("line"), int) and args.get("line_id") == line.id:
            # the number the user said, on the claim as they saw it (an earlier removal on the same card
            # moves the lines up, but the card speaks of what the user named)
            ordinal = args["line"]
        if act == "remove_line":
            return f"Remove line {ordinal} ({describe_line(line, currency)}) from {title}"
        changes = {name: args[name] for name in LINE_FIELDS if args.get(name) is not None}
        changed = [name for name in changes if getattr(line, name) != changes[name]] or list(changes)
        phrases = _change_phrases(_line_fields(line), changes, changed, currency)
        return f"Change line {ordinal} of {title} ({describe_line(line, currency)}): {phrases}"
    totals = f"{_count(len(state.lines))}, {format_money(claim_total(state), currency)}"
    if act == "submit_claim":
        return f"Submit {title} ({totals}) for approval"
    if act == "withdraw_claim":
        return f"Withdraw {title} ({totals})"
    raise ValueError(act)


def _describe_event(kind: str, data: Mapping[str, Any]) -> str:
    """What a receipt says a committed event did, e.g. ``Added line 4 to “Berlin trip”: Taxi, 42.50 EUR on
    2026-12-01.`` (``registries.act_maker`` words a receipt it cannot write by the event's type.)"""
    title, currency = _quoted(str(data["title"])), str(data["currency"])
    totals = f"{_count(int(data['line_count']))}, {format_money(data['total'], currency)}"
    if kind == "claim_opened":
        return f"Opened claim {title} in {currency}."
    if kind == "line_added":
        return f"Added line {data['ordinal']} to {title}: {describe_line(data, currency)} on {data['date']}."
    if kind == "line_updated":
        phrases = _change_phrases(data["before"], data["after"], data["changed"], currency)
        return f"Updated line {data['ordinal']} of {title}: {phrases}."
    if kind == "line_removed":
        return f"Removed line {data['ordinal']} from {title}: {describe_line(data, currency)} on {data['date']}."
    if kind == "claim_submitted":
        return f"Submitted {title} ({totals}); the approver will be notified."
    if kind == "claim_withdrawn":
        return f"Withdrew {title} ({totals})."
    raise ValueError(kind)


# --------------------------------------------------------------------------- undo ("undo that")


def _ordinal_of(case: CaseSnapshot, line_id: object) -> int | None:
    ids = [line.get("id") for line in case.state.get("lines") or []]
    return ids.index(line_id) + 1 if line_id in ids else None


def invert_line_added(case: CaseSnapshot, data: Mapping[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """An added line is undone by removing it (consequential: the user confirms it on a card)."""
    ordinal = _ordinal_of(case, data.get("line_id"))
    return ("remove_line", {"line": ordinal}) if ordinal else None


def invert_line_removed(case: CaseSnapshot, data: Mapping[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """A removed line is undone by adding it back as it was (a new line at the end, with its own id)."""
    args = {name: data[name] for name in ("amount", "category", "date") if data.get(name)}
    if len(args) < 3:
        return None
    for name in ("merchant", "quantity", "description"):
        if data.get(name):
            args[name] = data[name]
    return "add_line", args


def invert_line_updated(case: CaseSnapshot, data: Mapping[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """A changed line is undone by changing back the fields that changed, to their values before."""
    ordinal = _ordinal_of(case, data.get("line_id"))
    before = data.get("before") or {}
    changed = {name: before[name] for name in data.get("changed") or () if name in before}
    if ordinal is None or not changed:
        return None
    if changed.get("merchant") == "":
        return None  # a merchant that was empty cannot be set back to empty by an update
    return "update_line", {"line": ordinal, **changed}


# --------------------------------------------------------------------------- definitions


_act = act_maker(KIND, card=describe_command, receipt=_describe_event)


ACTS: tuple[ActDefinition, ...] = (
    _act("open_claim",
         "Open a new draft expense claim with a title and a currency (default EUR). Takes no case.",
         OpenClaimArgs, ActMutability.REVERSIBLE, policies.open_claim_policy, open_claim,
         ("opened", "created"), creates_case=True, currency_arg="currency"),
    _act("add_line",
         "Add an expense line to a draft claim: the amount exactly as the user said it, a category, "
         "optionally the merchant and the date (default: today).",
         AddLineArgs, ActMutability.REVERSIBLE, policies.line_amount_policy, add_line,
         ("added",), quoted_fields=("amount", "quantity", "description"), complete_args=complete_add_line,
         invert=invert_line_added,
         money_fields=("amount",), money_currency_arg="currency", editable_fields=("amount", "date")),
    _act("update_line",
         "Change the date, merchant, category or amount of one line of a draft claim. The line is its "
         "1-based position as shown in the claim ('the second line' is 2).",
         UpdateLineArgs, ActMutability.REVERSIBLE, policies.line_amount_policy, update_line,
         ("updated", "changed"), quoted_fields=("amount", "quantity", "description"), invert=invert_line_updated,
         item_arg="line",
         money_fields=("amount",), editable_fields=("amount", "date")),
    _act("remove_line",
         "Remove one line (its 1-based position) from a draft claim. The user confirms it on a card.",
         RemoveLineArgs, ActMutability.CONSEQUENTIAL, policies.draft_only_policy, remove_line,
         ("removed", "deleted"), invert=invert_line_removed, item_arg="line"),
    _act("submit_claim",
         "Submit a draft claim for approval; the approver system is notified. The user confirms it on a card.",
         SubmitClaimArgs, ActMutability.CONSEQUENTIAL, policies.submit_claim_policy, submit_claim,
         ("submitted", "sent for approval"), external=True),
    _act("withdraw_claim",
         "Withdraw a draft claim: it is closed without approval. The user confirms it on a card.",
         WithdrawClaimArgs, ActMutability.CONSEQUENTIAL, policies.draft_only_policy, withdraw_claim,
         ("withdrawn",)),
)
