"""A turn's "why did this run" section (I20): per act the user's words that licensed it, how its case was found,
the policy decision and the outcome; per journaled command the origin that authorized it. ``why_context`` reads it
from the turn's trace and the ledger; ``templates/admin/conversations/turn/why.html`` shows it."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.template.loader import render_to_string

from ..core.record import ActWhy
from ..models import (
    Case,
    CommandJournalEntry,
    DomainEvent,
    Interaction,
    Turn,
)
from .display import NOTHING, admin_link, inline_json

# how the reducer found an act's case (``ActResult.target``), in words
TARGET_WORDS = {
    "id": "named by its id",
    "active": "the conversation's active case",
    "match": "matched by its title",
    "only_open": "the only open case of its kind",
    "selection": "chosen on a selection card",
}


def _shown(value: Any) -> Any:
    """A table cell: the dash for nothing (an empty text, None), the value otherwise (0 and False are values)."""
    return NOTHING if value is None or value == "" else value


def _target(act: ActWhy) -> dict[str, Any]:
    """How the act's case was found: a case this turn opens, or a case (a link) and how it was found in words."""
    return {"new_case_of": act.new_case_of, "opens_itself": act.new_case_of == act.id,
            "case": admin_link(Case, act.case) if act.case else None,
            "how": TARGET_WORDS.get(act.target, act.target)}


def _raw_blocks(raw: Any) -> list[str]:
    """The model's answers as received, one block per call, indented when they parse as JSON."""
    blocks = []
    for text in raw if isinstance(raw, list) else [raw]:
        try:
            shown = json.dumps(json.loads(text), indent=2, ensure_ascii=False) if isinstance(text, str) else \
                inline_json(text)
        except ValueError:
            shown = text
        blocks.append(shown)
    return blocks


def _origin(row: CommandJournalEntry, usernames: dict[Any, str]) -> dict[str, Any]:
    """Which origin authorized a journaled command (SPEC §16), or why it has none yet."""
    if row.origin_kind == CommandJournalEntry.Origin.NONE:
        return {"none": True, "status": row.status, "card": admin_link(Interaction, row.interaction_id),
                "awaiting": row.status == CommandJournalEntry.Status.AWAITING_CONFIRMATION}
    details = {k: v for k, v in (row.origin or {}).items() if k != "kind"}
    parts = []
    for key in sorted(details):
        value = details[key]
        if key == "interaction":
            shown = admin_link(Interaction, value)
        elif key == "user":
            shown = f"{usernames.get(value, '?')} (#{value})"
        else:
            shown = inline_json(value)
        parts.append((key, shown))
    return {"none": False, "kind": row.origin_kind, "parts": parts}


def turn_commands(turn: Turn) -> list[CommandJournalEntry]:
    """Every journal row this turn journaled or ran (a click runs rows an earlier turn journaled)."""
    return list(CommandJournalEntry.objects.filter(Q(pk__in=turn.trace.command_ids) | Q(turn=turn))
                .select_related("case", "interaction").order_by("created_at", "sequence"))


def _clicked_acts(turn: Turn) -> list[ActWhy]:
    """A click turn has no reducer trace: take evidence, target and policy from the turn that drew the card,
    and the outcome from the click."""
    drawn: dict[str, ActWhy] = {}
    if turn.interaction_id:
        origin = Turn.objects.filter(interactions=turn.interaction_id).values_list("trace", flat=True).first()
        drawn = {a.id: a for a in origin.acts} if origin else {}
    return [drawn[a.id].model_copy(update={"outcome": a.outcome, "code": a.code, "case": a.case or drawn[a.id].case})
            if a.id in drawn else ActWhy(**a.model_dump()) for a in turn.acts]


def why_context(turn: Turn) -> dict[str, Any]:
    """What the "why did this run" section shows (templates/admin/conversations/turn/why.html): per act its
    evidence, resolved target, policy decision and outcome; per command its origin; the events and cards."""
    trace = turn.trace
    commands = turn_commands(turn)
    by_act: dict[str, list[CommandJournalEntry]] = defaultdict(list)
    for row in commands:
        by_act[row.plan_act_id].append(row)
    acts = trace.acts
    if turn.kind == Turn.Kind.CLICK and not acts:  # confirm/decline: the acts of the turn that drew the card
        acts = _clicked_acts(turn)
    user_ids = {(r.origin or {}).get("user") for r in commands} - {None}
    usernames = dict(get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username")) if user_ids \
        else {}
    events = DomainEvent.objects.filter(pk__in=trace.event_ids).order_by("created_at", "sequence")
    return {
        "click": turn.kind == Turn.Kind.CLICK, "card": admin_link(Interaction, turn.interaction_id),
        "option": turn.option or NOTHING, "text": turn.text, "mode": turn.mode, "rounds": len(trace.rounds),
        "endings": [(words, inline_json(getattr(trace, key))) for key, words in (
            ("ending", "Ended without a plan"), ("provider_failure", "Provider failure"),
            ("recovered", "Finished by crash recovery")) if getattr(trace, key)],
        "notices": trace.notices or [n.code for n in turn.notices],
        "acts": [{"id": _shown(a.id), "act": _shown(a.act), "evidence": _shown(a.evidence), "target": _target(a),
                  "policy": a.policy, "outcome": a.outcome or NOTHING, "code": a.code,
                  "args": inline_json(a.args) if a.args else NOTHING,
                  "journaled": [(admin_link(CommandJournalEntry, r.pk), r.status) for r in by_act.get(a.id, [])]}
                 for a in acts],
        "commands": [{"link": admin_link(CommandJournalEntry, r.pk), "act": _shown(r.act),
                      "plan_act": _shown(r.plan_act_id), "case": admin_link(Case, r.case_id),
                      "expected_revision": _shown(r.expected_revision), "status": _shown(r.status),
                      "origin": _origin(r, usernames), "code": _shown((r.result or {}).get("code"))}
                     for r in commands],
        "events": [{"link": admin_link(DomainEvent, e.pk), "type": _shown(e.type), "case": admin_link(Case, e.case_id),
                    "revision": _shown(e.revision), "command": admin_link(CommandJournalEntry, e.command_id)}
                   for e in events],
        "cards": [{"link": admin_link(Interaction, c.pk), "kind": _shown(c.kind), "status": _shown(c.status),
                   "prompt": _shown(c.prompt)} for c in Interaction.objects.filter(pk__in=trace.interaction_ids)],
        "raw": _raw_blocks(trace.plan_raw) if trace.plan_raw else [],
    }


def why_trace(turn: Turn) -> str:
    """The "why did this run" section of a turn's page, rendered (everything in it escaped by the template)."""
    return render_to_string("admin/conversations/turn/why.html", why_context(turn))

