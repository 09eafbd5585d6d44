"""What a turn knows before it acts: the actor and their day, the mode's capabilities, what is offered,
the cases, and the model request (SPEC §23 steps C–F)."""

from __future__ import annotations

import functools
import json
import logging
import threading
from collections import OrderedDict
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone
from pydantic import BaseModel

from conversations.core.context import CaseSummary, ModelRequest, OfferedAct, OfferedTool
from conversations.core.reducer import UNDO_ACT_ID, ValidatedPlan
from registries import Actor, CaseSnapshot, Mode, Registry, get_registry
from registries.models import EntryStatus
from registries.services import entry_statuses

from .. import store
from ..models import Case, CommandJournalEntry, Conversation, Turn, snapshot

log = logging.getLogger(__name__)
Phase, JStatus = Turn.Phase, CommandJournalEntry.Status


def mode_allowed(requested: str, deployment: str) -> bool:
    """A conversation may narrow the deployment's mode, never widen it (SPEC §3)."""
    return requested in Mode.__members__.values() and Mode(requested).narrows(deployment)


def actor_of(user) -> Actor:
    return Actor(user_id=user.pk, username=user.get_username(), timezone=getattr(user, "timezone", None) or "UTC")


def today_for(actor: Actor) -> str:
    try:
        zone = ZoneInfo(actor.timezone)
    except Exception:
        zone = ZoneInfo("UTC")
    return timezone.now().astimezone(zone).date().isoformat()


def offered_registry(mode: str, out_of_service: dict[str, str] | None = None) -> Registry:
    """What this turn may offer: entries the audit mirror has disabled or quarantined are left out.
    ``out_of_service``: those entries (name -> status) as the turn read them when it began (None: read now)."""
    registry = get_registry()
    if out_of_service is None:
        out_of_service = {n: s for n, s in entry_statuses().items() if s != EntryStatus.ACTIVE}
    tools = {n: t for n, t in registry.read_tools.items() if n not in out_of_service and Mode(mode).reads}
    acts = {n: a for n, a in registry.acts.items() if n not in out_of_service}
    return Registry(case_kinds=registry.case_kinds, read_tools=tools, acts=acts)


def context_query(turn: Turn, conversation_id: str, actor: Actor) -> store.ContextQuery:
    """What a message turn's context reads, sent with the statement that begins it (``turn_begin``): the
    actor's recent cases and the active one, the conversation's earlier messages, the last effects, open cards."""
    kinds, terminal = _case_kinds(get_registry())  # (an offered registry keeps every case kind)
    return store.ContextQuery(owner_id=actor.user_id, conversation_id=conversation_id, turn_id=turn.pk,
                              kinds=frozenset(kinds), terminal=frozenset(terminal),
                              limit=settings.TURNFRAME["MAX_CONTEXT_CASES"])


def load_cases(registry: Registry, rows: list[Case], active_case: str | None) -> tuple[dict[str, Any], bool]:
    """The actor's open cases a turn shows the model: the active one and the most recently changed, at most
    ``MAX_CONTEXT_CASES`` (so a turn costs the same for a user with ten cases or ten thousand). ``rows``: as
    ``context_query`` read them (one more than the bound, to know whether there are more). Returns them and
    whether there are more: then a case the plan names by words, or "the only open one", is resolved among all
    of them (``cases_to_resolve_among``), never among the recent ones only (I8)."""
    kinds, terminal = _case_kinds(registry)
    limit = settings.TURNFRAME["MAX_CONTEXT_CASES"]
    others = [c for c in rows if c.id != active_case and c.kind in kinds and c.status not in terminal]
    more = len(others) > limit
    if more:  # one more than the bound was read to know there are more: leave out the least recent
        oldest = min(others, key=lambda c: c.updated_at)
        rows = [c for c in rows if c is not oldest]
    return {c.id: snapshot(c) for c in rows}, more


def cases_to_resolve_among(plan: ValidatedPlan, registry: Registry, active: CaseSnapshot | None) -> set[str]:
    """The case kinds whose acts in ``plan`` are resolved among every open case of the kind: named by words
    ("my Berlin claim"), or by nothing with no active case of the kind (then only a sole open case is taken)."""
    kinds = set()
    for a in plan.acts:
        definition = registry.acts.get(a.act)
        if definition is None or definition.creates_case or (a.ref is not None and a.ref.id):
            continue
        if (a.ref is not None and a.ref.match) or active is None or active.kind != definition.case_kind:
            kinds.add(definition.case_kind)
    return kinds


def load_open_cases(actor: Actor, registry: Registry, kinds: set[str]) -> dict[str, Any]:
    _, terminal = _case_kinds(registry)
    rows = Case.objects.filter(owner_id=actor.user_id, kind__in=kinds).exclude(status__in=terminal)
    return {c.id: snapshot(c) for c in rows.order_by("created_at")}


def _case_kinds(registry: Registry) -> tuple[set[str], set[str]]:
    kinds = {a.case_kind for a in registry.acts.values()} | set(registry.case_kinds)
    return kinds, {s for k in registry.case_kinds.values() for s in k.terminal_statuses}


# each case as the model is shown it, by value: a case kind's projection and summary are pure functions of the
# case, so a user with fifty open cases does not pay fifty projections per turn (issue 11). The key is the whole
# case (its state as JSON: no reliance on ids being unique across databases or states moving only with revisions)
_SUMMARIES: OrderedDict[tuple, tuple[Any, CaseSummary]] = OrderedDict()
_SUMMARIES_LOCK = threading.Lock()
_SUMMARIES_KEPT = 4096  # (a user with 50 open cases holds 51; a view is a few KiB)


def case_summary(registry: Registry, case: CaseSnapshot) -> CaseSummary:
    kind = registry.case_kinds.get(case.kind)
    if kind is None:
        return CaseSummary(id=case.id, kind=case.kind, title=case.title, status=case.status, revision=case.revision,
                           summary=case.title)
    # (the entry holds the kind, so no other kind object can take its id while the entry is kept)
    key = (id(kind), case.id, case.revision, case.status, case.title,
           json.dumps(case.state, sort_keys=True, default=str))
    with _SUMMARIES_LOCK:
        found = _SUMMARIES.get(key)
        if found is not None:
            _SUMMARIES.move_to_end(key)
            return found[1]
    summary = CaseSummary(id=case.id, kind=case.kind, title=case.title, status=case.status, revision=case.revision,
                          summary=kind.summarize(case), view=kind.project(case))
    with _SUMMARIES_LOCK:
        _SUMMARIES[key] = (kind, summary)
        if len(_SUMMARIES) > _SUMMARIES_KEPT:
            _SUMMARIES.popitem(last=False)
    return summary


def model_request(turn: Turn, conversation: Conversation, actor: Actor, today: str, mode: str, registry: Registry,
                  cases: dict[str, Any], seen: store.Seen) -> ModelRequest:
    summaries = [case_summary(registry, case) for case in cases.values()]
    tools = [OfferedTool(t.name, t.description, json_schema(t.args_schema))
             for t in registry.read_tools.values()] if Mode(mode).reads else []
    acts = [OfferedAct(a.name, a.case_kind, a.description, str(a.mutability), json_schema(a.args_schema),
                       a.creates_case) for a in registry.acts.values()] if Mode(mode).acts else []
    return ModelRequest(message=turn.text, mode=mode, today=today, timezone=actor.timezone, username=actor.username,
                        active_case=conversation.active_case_id, cases=summaries, read_tools=tools, acts=acts,
                        rounds=[], excerpt=[{"role": "user", "text": text} for text in seen.earlier[::-1]],
                        pending=conversation.pending,
                        # what "that one" and "make that 18" mean
                        recent=[{"act": e.command.act, "case": e.case_id, "event": e.type, "data": e.data}
                                for e in seen.effects],
                        open_cards=[{"id": i, "kind": k, "case": c} for i, k, c in seen.open_cards])


def last_edit(conversation: Conversation) -> dict[str, Any] | None:
    """The conversation's last committed command and its event, for "undo that" (the reducer inverts it)."""
    row = (CommandJournalEntry.objects.filter(conversation=conversation, status=JStatus.COMMITTED)
           .order_by("-updated_at", "-sequence").first())
    event = row.events.order_by("-sequence").first() if row is not None else None
    if row is None or event is None:
        return None
    return {"act": row.act, "case": event.case_id, "event": event.id, "data": event.data, "revision": event.revision,
            "direct": row.origin_kind == CommandJournalEntry.Origin.DIRECT_USER_ACT,
            "undo": row.plan_act_id == UNDO_ACT_ID}


@functools.lru_cache(maxsize=256)
def json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """A pydantic model's JSON schema, computed once per class (it is the same for every turn)."""
    return model.model_json_schema()


def noun(registry: Registry, case_kind: str) -> str:
    kind = registry.case_kinds.get(case_kind)
    return kind.noun if kind else "case"
