"""Step G-H: the bounded, read-only loop that ends in exactly one UserTurnPlan (SPEC §8, §13.1).

One code path for ``read_agentic`` and ``controlled_agentic``; ``deterministic`` offers no tools,
so its one call must be a plan. Nothing here can reach an act, a command handler or the journal:
read tools get a ``ReadContext`` that only looks things up, and every read runs twice guarded: in a
transaction the database itself keeps read-only (``SET TRANSACTION READ ONLY`` on PostgreSQL,
``PRAGMA query_only`` on SQLite) and under a guard on the SQL text that refuses INSERT/UPDATE/DELETE.
Either refusal quarantines the tool that tried, and the transaction is rolled back whatever happened.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import sqlparse
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, connection, transaction
from pydantic import ValidationError

from conversations.core.context import ModelRequest, RoundRecord
from conversations.core.plan import (
    MalformedAnswer,
    PlanSchemaError,
    ReadBatch,
    UserTurnPlan,
    parse_model_answer,
    refuse_unstorable,
)
from conversations.core.reducer import PlanInvalid, ValidatedPlan, validate_plan
from conversations.providers.base import Provider, ProviderFailure
from registries import Actor, CaseSnapshot, ReadToolDefinition, Registry
from registries.services import entry_quarantine

from . import store, stream
from .models import Case, snapshot

log = logging.getLogger(__name__)


# --------------------------------------------------------------------------- the write guard


class ReadToolWrote(Exception):
    pass


class ReadDeadline(Exception):
    pass


_ALLOWED = re.compile(r"^\s*(SELECT|SAVEPOINT|RELEASE|ROLLBACK)\b", re.IGNORECASE)
_WITH = re.compile(r"^\s*WITH\b", re.IGNORECASE)
_WRITE_WORD = re.compile(r"\b(INSERT|UPDATE|DELETE|REPLACE|UPSERT|CREATE|DROP|ALTER|TRUNCATE)\b", re.IGNORECASE)


def _several(text: str) -> bool:
    """More than one statement in one string (``SELECT 1; UPDATE …``): PostgreSQL runs them all when no
    parameters are passed, so only the first would have been judged."""
    return ";" in text and len([s for s in sqlparse.split(text) if s.strip().strip(";").strip()]) > 1


def refused_as_read_only(exc: BaseException) -> bool:
    """Whether the database refused a statement because the transaction is read-only."""
    cause = exc.__cause__ or exc
    return (getattr(cause, "sqlstate", None) == "25006"  # PostgreSQL: read_only_sql_transaction
            or getattr(cause, "sqlite_errorcode", None) == sqlite3.SQLITE_READONLY)


@dataclass
class WriteGuard:
    """A connection ``execute_wrapper`` that lets only reads through, until a deadline; it also notes a
    write the read-only transaction refused, so a tool that swallows the error is still caught."""

    deadline: float
    attempted: str | None = None

    def __call__(self, execute, sql, params, many, context):
        text = sql if isinstance(sql, str) else str(sql)
        if not (_ALLOWED.match(text) or (_WITH.match(text) and not _WRITE_WORD.search(text))) or _several(text):
            self.attempted = text[:200]
            raise ReadToolWrote(text[:200])
        if time.monotonic() > self.deadline:
            raise ReadDeadline()
        try:
            return execute(sql, params, many, context)
        except DatabaseError as exc:
            if refused_as_read_only(exc):
                self.attempted = f"{text[:200]} (refused by the read-only transaction)"
                raise ReadToolWrote(self.attempted) from exc
            raise


@contextmanager
def read_only_transaction() -> Iterator[None]:
    """A transaction (or a savepoint) the database keeps read-only, always rolled back.

    PostgreSQL: ``SET TRANSACTION READ ONLY``, allowed at any point of a transaction and undone by the
    rollback (of the savepoint, when nested); and the session's default, so that a transaction a
    smuggled ``COMMIT`` would start is read-only too (put back after). SQLite: ``PRAGMA query_only``
    belongs to the connection: outside a transaction the read runs on the thread's read connection, where it
    is always on (``store.read_connection``); inside one, it is set and its previous value put back after the
    rollback. Other databases get the rollback only.
    """
    restore = None
    with store.read_connection():  # (SQLite: one kept read-only, so no statement is prepared again)
        try:
            with transaction.atomic():
                restore = store.read_only()  # (the settings' statements are the store's)
                try:
                    yield
                finally:
                    transaction.set_rollback(True)  # a read leaves nothing behind, whatever it tried
        finally:
            if restore is not None:
                restore()


# --------------------------------------------------------------------------- what a read tool sees


class ActorReadContext:
    """Lookups scoped to the actor (I19). Read-only by construction and by the guard."""

    def __init__(self, actor: Actor, today: str, registry: Registry):
        self.actor, self.today, self._registry = actor, today, registry

    def get_case(self, case_id: str) -> CaseSnapshot | None:
        case = store.own_case(str(case_id), self.actor.user_id)
        return snapshot(case) if case else None

    def search_cases(self, *, kind: str | None, query: str, status: str | None) -> list[CaseSnapshot]:
        qs = Case.objects.filter(owner_id=self.actor.user_id)
        if kind:
            qs = qs.filter(kind=kind)
        if status:
            qs = qs.filter(status=status)
        if query:
            qs = qs.filter(title__icontains=query)
        return [snapshot(c) for c in qs.order_by("created_at")[:50]]


# --------------------------------------------------------------------------- one read


def run_read(tool: ReadToolDefinition, args: Any, ctx: ActorReadContext) -> dict[str, Any]:
    """Run one validated read under its timeout, size cap and the write guard. Never raises."""
    started = time.monotonic()
    guard = WriteGuard(deadline=started + tool.timeout_ms / 1000)
    try:
        # the transaction opens before the guard (SQLite's BEGIN IMMEDIATE is not the tool's write)
        with read_only_transaction(), connection.execute_wrapper(guard):
            value = tool.handler(args, ctx)
    except ReadToolWrote:
        value = None
    except ReadDeadline:
        return {"tool": tool.name, "ok": False, "error": "read_timeout"}
    except LookupError:
        return {"tool": tool.name, "ok": False, "error": "not_found"}
    except (ValueError, ValidationError) as exc:
        return {"tool": tool.name, "ok": False, "error": "invalid_arguments", "detail": str(exc)[:300]}
    except Exception:  # a broken tool is an error result, never a crashed turn
        log.exception("read tool %s failed", tool.name)
        return {"tool": tool.name, "ok": False, "error": "read_failed"}
    if guard.attempted is not None:
        entry_quarantine(name=tool.name, reason=f"tried to write during a read: {guard.attempted}")
        log.warning("read tool %s tried to write and was quarantined", tool.name)
        return {"tool": tool.name, "ok": False, "error": "read_tool_wrote"}
    if time.monotonic() - started > tool.timeout_ms / 1000:
        return {"tool": tool.name, "ok": False, "error": "read_timeout"}
    try:
        encoded = json.dumps(value, cls=DjangoJSONEncoder)
    except (TypeError, ValueError):
        return {"tool": tool.name, "ok": False, "error": "read_failed"}
    if len(encoded.encode()) > tool.max_result_bytes:
        return {"tool": tool.name, "ok": False, "error": "read_too_large"}
    return {"tool": tool.name, "ok": True, "result": json.loads(encoded)}


# --------------------------------------------------------------------------- the loop


@dataclass
class LoopOutcome:
    """How the loop ended: a valid plan, or one of the fail-closed endings (no plan, nothing runs)."""

    validated: ValidatedPlan | None = None
    ending: str | None = None  # plan_rejected | read_budget_exhausted
    detail: str = ""
    raw: list[str] = field(default_factory=list)  # every model text of the successful attempt


@dataclass
class LoopSettings:
    max_rounds: int
    max_calls: int


def acquire_plan(*, providers: Sequence[Provider], base: ModelRequest, tools: dict[str, ReadToolDefinition],
                 registry: Registry, ctx: ActorReadContext, limits: LoopSettings,
                 on_round: Callable[[RoundRecord, str], None]) -> LoopOutcome:
    """Steps G-H with retry (once) and fallback; raises ProviderFailure when every provider failed."""
    last_failure: ProviderFailure | None = None
    for provider in providers:  # the primary, then the fallback: each restarts the loop (reads are safe)
        try:
            return _attempt(provider, base, tools, registry, ctx, limits, on_round)
        except ProviderFailure as failure:
            last_failure = failure
            log.warning("provider %s failed: %s (%s)", provider.name, failure.kind, failure)
            continue
    raise last_failure or ProviderFailure("unavailable", "no provider configured")


def _attempt(provider: Provider, base: ModelRequest, tools: dict[str, ReadToolDefinition], registry: Registry,
             ctx: ActorReadContext, limits: LoopSettings,
             on_round: Callable[[RoundRecord, str], None]) -> LoopOutcome:
    rounds: list[RoundRecord] = []
    rounds_left, calls_left = limits.max_rounds, limits.max_calls
    repair_error: str | None = None
    repaired = False
    raw: list[str] = []
    # a hard cap on model calls: every round, one repair, and the closing plan
    for _ in range(limits.max_rounds + 3):
        request = replace(base, rounds=list(rounds), rounds_left=rounds_left, calls_left=calls_left,
                          repair_error=repair_error,
                          read_tools=base.read_tools if (tools and base.read_tools) else [])
        text = _call_with_retry(provider, request)
        raw.append(text)
        try:
            answer = parse_model_answer(text)
            refuse_unstorable(answer)
        except MalformedAnswer as exc:
            raise ProviderFailure("malformed", str(exc)) from None
        except PlanSchemaError as exc:
            if exc.kind == "reads" and base.read_tools:
                if rounds_left <= 0:
                    return LoopOutcome(ending="read_budget_exhausted", raw=raw)
                record = RoundRecord(len(rounds) + 1, "rejected", [], [], error=str(exc))
                rounds.append(record)
                rounds_left -= 1
                on_round(record, provider.name)
                continue
            if repaired:
                return LoopOutcome(ending="plan_rejected", detail=str(exc), raw=raw)
            repaired, repair_error = True, str(exc)
            continue
        if isinstance(answer, ReadBatch):
            if not base.read_tools:
                message = "read requests are not allowed here: answer with a plan"
                if repaired:
                    return LoopOutcome(ending="plan_rejected", detail=message, raw=raw)
                repaired, repair_error = True, message
                continue
            if rounds_left <= 0:
                return LoopOutcome(ending="read_budget_exhausted", raw=raw)
            record = _run_batch(answer, len(rounds) + 1, tools, calls_left, ctx)
            rounds.append(record)
            rounds_left -= 1
            if record.status == "ok":
                calls_left -= len(record.requests)
            on_round(record, provider.name)
            repair_error = None
            continue
        assert isinstance(answer, UserTurnPlan)
        try:
            validated = validate_plan(answer, registry)
        except PlanInvalid as exc:
            if repaired:
                return LoopOutcome(ending="plan_rejected", detail=str(exc), raw=raw)
            repaired, repair_error = True, str(exc)
            continue
        return LoopOutcome(validated=validated, raw=raw)
    return LoopOutcome(ending="read_budget_exhausted", raw=raw)


def _call_with_retry(provider: Provider, request: ModelRequest) -> str:
    try:
        return _complete(provider, request)
    except ProviderFailure:
        if getattr(provider, "retries_internally", False):
            raise  # the adapter already retried once on transport errors
        return _complete(provider, request)  # one retry; a second failure goes to the fallback


def _complete(provider: Provider, request: ModelRequest) -> str:
    """One model call, holding no database connection while it waits (issue 11, 5).

    A model answers in seconds, sometimes a minute; the turn's thread would otherwise keep its
    connection open (idle) all that time, so a hundred turns waiting on a model held a hundred
    PostgreSQL connections and the next request met "too many clients". Nothing of the turn is open
    on the connection here: the loop runs between transactions (each read's transaction is rolled back
    before the next call, every write so far committed), so the connection is given back (to the pool
    when one is configured) and the next statement of the turn takes one again. Inside a transaction
    (a test's, or a caller's ``atomic``) it is kept: closing would end that transaction.
    """
    if not (connection.in_atomic_block or getattr(provider, "in_process", False) or connection.vendor == "sqlite"):
        connection.close()  # (SQLite's connection is a file handle of this process: nothing to give back)
    if not getattr(provider, "answers_at_once", False):
        stream.flush_held()  # the page sees what the turn published so far while the model is asked (stream.held)
    return provider.complete(request)


def _run_batch(batch: ReadBatch, number: int, tools: dict[str, ReadToolDefinition], calls_left: int,
               ctx: ActorReadContext) -> RoundRecord:
    """Validate every request first (I18); run all of them, or none."""
    requests = [{"tool": r.tool, "args": r.args} for r in batch.reads]
    prepared: list[tuple[ReadToolDefinition, Any]] = []
    problems: list[str] = []
    if len(batch.reads) > calls_left:
        problems.append(f"the batch asks for {len(batch.reads)} reads but only {calls_left} remain")
    for i, r in enumerate(batch.reads):
        tool = tools.get(r.tool)
        if tool is None:
            problems.append(f"reads[{i}]: {r.tool!r} is not a read tool on offer")
            continue
        try:
            args = tool.args_schema.model_validate(r.args)
        except ValidationError as exc:
            problems.append(f"reads[{i}] ({r.tool}): " + "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}" for e in exc.errors(include_url=False)))
            continue
        if not tool.authorize(ctx.actor, args):
            problems.append(f"reads[{i}] ({r.tool}): not authorized")
            continue
        prepared.append((tool, args))
    if problems:
        return RoundRecord(number, "rejected", requests, [], error="; ".join(problems))
    results = []
    for tool, args in prepared:
        result = run_read(tool, args, ctx)
        if result.get("error") == "read_tool_wrote":
            tools.pop(tool.name, None)
        results.append(result)
    return RoundRecord(number, "ok", requests, results)
