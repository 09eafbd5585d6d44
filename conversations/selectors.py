"""Reads: the JSON shapes of CONTRACT §6, built from the database alone."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Exists, F, OuterRef, Q, QuerySet, Subquery

from registries import get_registry

from .fields import Lowered
from .models import Case, CommandJournalEntry, Conversation, DomainEvent, Interaction, ReadRound, Turn

LABEL_CHARS = 60


def conversation_json(c: Conversation) -> dict[str, Any]:
    data = {"id": c.id, "mode": c.mode, "active_case": c.active_case_id, "created_at": c.created_at.isoformat(),
            "title": c.title or None}
    if hasattr(c, "first_text"):
        data["label"] = conversation_label(c)
    return data


def conversations_of(user, *, query: str = "", limit: int = 50) -> list[Conversation]:
    """The first ``limit`` of ``conversations_matching``."""
    return list(conversations_matching(user, query=query)[:limit])


def conversations_matching(user, *, query: str = "") -> QuerySet[Conversation]:
    """The user's conversations that are not deleted, newest first, each with ``first_text`` (its first
    message) for its label; ``query`` keeps those whose name or any message contains it."""
    first_message = Turn.objects.filter(conversation=OuterRef("pk"), kind=Turn.Kind.MESSAGE).order_by("created_at")
    rows = Conversation.objects.filter(owner=user, hidden_at__isnull=True)
    words = " ".join(query.split())
    if words:  # case-insensitive for every script, on both databases (Lowered)
        folded = words.lower()
        said = Turn.objects.annotate(folded=Lowered("text")).filter(conversation=OuterRef("pk"),
                                                                    folded__contains=folded)
        rows = rows.annotate(folded=Lowered("title")).filter(Q(folded__contains=folded) | Q(Exists(said)))
    return rows.order_by("-created_at", "-pk").annotate(first_text=Subquery(first_message.values("text")[:1]),
                                                        case_title=F("active_case__title"))


def conversation_label(c: Conversation) -> str:
    """What the sidebar calls a conversation: the user's name for it, else the case it is working on, else its first
    message, shortened."""
    text = " ".join((c.title or getattr(c, "case_title", None) or getattr(c, "first_text", None) or "").split())
    label = text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1].rstrip() + "…"
    return label or "New conversation"


def conversation_detail_json(c: Conversation) -> dict[str, Any]:
    turns = list(c.turns.order_by("created_at").prefetch_related("read_rounds"))
    for t in turns:
        t.conversation = c  # spare each turn a query for what the page already has
    pending = Interaction.objects.filter(conversation=c, status=Interaction.Status.PENDING).prefetch_related("commands")
    return {**conversation_json(c), "turns": turns_json(turns),
            "pending_interactions": [interaction_json(i) for i in pending]}


def command_json(row: CommandJournalEntry) -> dict[str, Any]:
    origin = {"kind": row.origin_kind, **{k: v for k, v in (row.origin or {}).items() if k != "kind"}}
    return {"id": row.id, "idempotency_key": row.idempotency_key, "act": row.act, "case": row.case_id,
            "status": row.status, "origin": origin, "expected_revision": row.expected_revision, "turn": row.turn_id,
            "interaction": row.interaction_id, "args": public_args(row.args),
            "code": (row.result or {}).get("code"), "created_at": row.created_at.isoformat()}


@dataclass(frozen=True)
class Loaded:
    """Rows the caller already holds, current, for the turn it shapes (the runtime after delivering it):
    each kind given is not loaded again. ``commands`` must hold every command of the turn and of its cards."""

    commands: Sequence[CommandJournalEntry] = ()
    events: Sequence[DomainEvent] = ()
    cards: Sequence[Interaction] = ()
    rounds: Sequence[ReadRound] | None = None  # None: loaded


def turn_json(t: Turn, *, replayed: bool = False, loaded: Loaded | None = None) -> dict[str, Any]:
    """(What a turn was delivered with is used as it is by the caller that delivered it: ``turns.Delivered``.)"""
    if loaded is not None:
        by_card: dict[str, list[CommandJournalEntry]] = {}
        for c in loaded.commands:
            by_card.setdefault(c.interaction_id, []).append(c)
        cards = {i.id: interaction_json(i, commands=by_card.get(i.id, [])) for i in loaded.cards}
        return _turn_json(t, replayed, {c.id: c for c in loaded.commands}, {e.id: e for e in loaded.events}, cards,
                          rounds=loaded.rounds)
    return turns_json([t], replayed=replayed)[0]


def turns_json(turns: list[Turn], *, replayed: bool = False) -> list[dict[str, Any]]:
    """The turn objects of CONTRACT §6; what they refer to is loaded in one query per kind, not per turn."""
    def ids(key: str) -> set[str]:
        return {i for t in turns for i in getattr(t.trace, key)}

    commands = {c.id: c for c in CommandJournalEntry.objects.filter(pk__in=ids("command_ids"))}
    events = {e.id: e for e in DomainEvent.objects.filter(pk__in=ids("event_ids"))}
    cards = {i.id: interaction_json(i) for i in Interaction.objects.filter(
        pk__in=ids("interaction_ids")).prefetch_related("commands")}
    return [_turn_json(t, replayed, commands, events, cards) for t in turns]


def _turn_json(t: Turn, replayed: bool, commands: dict, events: dict, cards: dict,
               rounds: Sequence[ReadRound] | None = None) -> dict[str, Any]:
    trace = t.trace
    own_commands = sorted((commands[i] for i in trace.command_ids if i in commands), key=lambda c: c.sequence)
    own_events = sorted((events[i] for i in trace.event_ids if i in events),
                        key=lambda e: (e.created_at, e.sequence))
    return {
        "id": t.id, "conversation": t.conversation_id, "kind": t.kind,
        "status": t.status if t.status in (Turn.Status.FAILED, Turn.Status.COMPLETED, Turn.Status.QUEUED) else "running",
        "phase": t.phase, "text": t.text, "replayed": replayed, "client_message_id": t.client_message_id,
        "interaction": t.interaction_id, "option": t.option or None,
        "read_rounds": [round_json(r) for r in (t.read_rounds.all() if rounds is None else rounds)],
        "acts": [a.model_dump(mode="json") for a in t.acts], "commands": [{"id": c.id, "act": c.act, "case": c.case_id, "status": c.status,
                                      "origin": {"kind": c.origin_kind, **({"interaction": c.origin.get("interaction")}
                                                                           if c.origin.get("interaction") else {})}}
                                     for c in own_commands],
        "events": [{"id": e.id, "type": e.type, "case": e.case_id, "revision": e.revision} for e in own_events],
        "interactions": [cards[i] for i in trace.interaction_ids if i in cards],
        "notices": [n.model_dump(mode="json") for n in t.notices], "reply": t.reply or {"blocks": []},
        "active_case": trace.end.active_case if trace.end else (
            t.conversation.active_case_id if t.status != Turn.Status.RUNNING else None),
        "created_at": t.created_at.isoformat(),
        "stop_requested": t.stop_requested_at is not None,
        "withdrawn": trace.ending == "withdrawn",  # a queued message stopped (or its conversation deleted): never ran
    }


def case_json(c: Case, *, detail: bool = False) -> dict[str, Any]:
    data = {"id": c.id, "kind": c.kind, "title": c.title, "status": c.status, "revision": c.revision}
    if detail:
        from registries import get_registry

        from .models import snapshot

        kind = get_registry().case_kinds.get(c.kind)
        data["state"] = c.state
        data["view"] = kind.project(snapshot(c)) if kind else {}
        data["panel"] = case_panel(kind, c)
    return data


def case_panel(kind, c: Case) -> dict[str, Any]:
    """How the page shows the case: the kind's ``Panel`` as JSON, with the kind's noun (the page knows no domain)."""
    from registries import Panel

    from .models import snapshot

    panel = kind.panel(snapshot(c)) if kind and kind.panel else Panel()
    return {"noun": kind.noun if kind else "case", "terminal": bool(kind and c.status in kind.terminal_statuses),
            **panel.to_json()}


def event_json(e: DomainEvent) -> dict[str, Any]:
    return {"id": e.id, "type": e.type, "revision": e.revision, "data": e.data, "command": e.command_id,
            "created_at": e.created_at.isoformat()}

def round_json(row: ReadRound) -> dict[str, Any]:
    return {"round": row.round, "status": row.status, "requests": row.requests, "results": row.results,
            "error": row.error or None, "provider": row.provider}


def interaction_json(i: Interaction, *, commands: Sequence[CommandJournalEntry] | None = None) -> dict[str, Any]:
    """``commands``: the card's commands when the caller holds them (current), else loaded."""
    acts = get_registry().acts
    commands = [{"id": c.id, "act": c.act, "args": public_args(c.args), "status": c.status,
                 "editable_fields": list(acts[c.act].editable_fields) if c.act in acts else []}
                for c in sorted(i.commands.all() if commands is None else commands, key=lambda c: c.sequence)]
    expires = card_expires_at(i) if i.status == Interaction.Status.PENDING else None
    return {"id": i.id, "kind": i.kind, "status": i.status, "case": i.case_id, "case_revision": i.case_revision,
            "expires_at": expires.isoformat() if expires else None,
            "prompt": i.prompt, "options": [{"id": o["id"], "label": o["label"],
                                             **({"detail": o["detail"]} if o.get("detail") else {})}
                                            for o in i.options],
            "commands": commands, "candidates": i.candidates, "chosen_option": i.chosen_option or None,
            "conversation": i.conversation_id, "turn": i.turn_id,
            "created_at": i.created_at.isoformat() if i.created_at else None}


def card_expires_at(card: Interaction) -> datetime | None:
    """When an unanswered card expires: ``TURNFRAME_CARD_TTL_MINUTES`` after it was drawn (None: never)."""
    minutes = settings.TURNFRAME["CARD_TTL_MINUTES"]
    if not minutes or minutes <= 0 or card.created_at is None:
        return None
    return card.created_at + timedelta(minutes=minutes)


def public_args(args: dict[str, Any]) -> dict[str, Any]:
    """A command's arguments as the user gave them: the item id the engine resolved (``<item>_id`` beside
    ``<item>``) is the server's, not shown."""
    return {k: v for k, v in args.items() if not (k.endswith("_id") and k.removesuffix("_id") in args)}
