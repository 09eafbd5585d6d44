"""Step P: compose the reply (SPEC §18): receipts, notices, cards, guarded prose, the way forward."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from conversations.core.claims import UNBACKED_CLAIM, UNBACKED_CLAIM_TEXT, check_claims
from conversations.core.facts import CaseFacts, check_facts
from conversations.core.record import TurnNotice
from registries import DomainEventDraft, Registry

from .models import Case, CommandJournalEntry, DomainEvent, Interaction, snapshot

PENDING_CARD = {
    Interaction.Kind.CONFIRMATION: "Confirm or decline the card above to go on.",
    Interaction.Kind.SELECTION: "Choose one on the card above to go on.",
}
NOTHING_OPEN = "Tell me what you would like to do, or ask me a question."


def compose_reply(*, registry: Registry, events: Sequence[DomainEvent], notices: Iterable[TurnNotice],
                  interactions: Sequence[Interaction], answers: Sequence[dict[str, Any]], say: str | None,
                  active_case: Case | None, open_cards: Sequence[Interaction],
                  case_facts: Sequence[CaseFacts] = (), command_acts: Mapping[str, str] | None = None
                  ) -> dict[str, Any]:
    """Blocks in order; model prose only after the claim guard let it through (I16), and answers about a
    case only as far as they match its state after this turn (the fact check: a contradicted answer is
    replaced by the case's summary; ``fact_checks`` in the result lists why, for the trace). ``command_acts``:
    the act of each event's command, when the caller holds them."""
    blocks: list[dict[str, Any]] = []
    commands = dict(command_acts or {})
    if missing := {e.command_id for e in events} - set(commands):
        commands.update(CommandJournalEntry.objects.filter(pk__in=missing).values_list("id", "act"))
    backed = {commands[e.command_id] for e in events}
    for event in events:
        act = registry.acts.get(commands[event.command_id])
        text = act.describe_event(DomainEventDraft(event.type, event.data)) if act else event.type
        blocks.append({"kind": "receipt", "text": text, "event": event.id})
    notices = list(notices)
    prose: list[dict[str, Any]] = []
    phrases = {name: act.claim_phrases for name, act in registry.acts.items()}
    fact_checks: list[str] = []
    for kind, text in [("answer", a["text"]) for a in answers] + ([("say", say)] if say else []):
        facts = check_facts(text, case_facts)
        if facts.corrected:
            fact_checks.extend(facts.corrected)
            text = facts.text
        verdict = check_claims(text, phrases, backed)
        if verdict.allowed:
            prose.append({"kind": kind, "text": text})
        else:
            notices.append(TurnNotice(code=UNBACKED_CLAIM, text=UNBACKED_CLAIM_TEXT))
    seen: set[tuple[str, str]] = set()
    for notice in notices:
        key = (notice.code, notice.text)
        if key not in seen:
            seen.add(key)
            blocks.append({"kind": "notice", "code": notice.code, "text": notice.text})
    for interaction in interactions:
        blocks.append({"kind": "interaction", "text": interaction.prompt, "interaction": interaction.id})
    blocks.extend(prose)
    ask = {"kind": "ask", "text": way_forward(registry, active_case, open_cards)}
    if open_cards:  # "confirm or decline the card above": names the cards it waits for, so a page can drop it after
        ask["interactions"] = [card.id for card in open_cards]
    blocks.append(ask)
    return {"blocks": blocks, "fact_checks": fact_checks}


def case_facts_of(registry: Registry, cases: Iterable[Case]) -> list[CaseFacts]:
    """What the fact check compares answers with: the figures each case's kind declares (``facts``) and its
    summary, as the case stands now. A kind that declares none is not checked."""
    found = []
    for case in cases:
        kind = registry.case_kinds.get(case.kind)
        if kind is None or kind.facts is None:
            continue
        snap = snapshot(case)
        figures = kind.facts(snap)
        found.append(CaseFacts(case.id, case.title, figures.item_count, figures.total or "", kind.summarize(snap),
                               figures.item_words))
    return found


def way_forward(registry: Registry, active_case: Case | None, open_cards: Sequence[Interaction]) -> str:
    """I21: the open card, else what can be done next with the active case, else how to start."""
    if open_cards:
        return PENDING_CARD[open_cards[-1].kind]
    if active_case is not None:
        kind = registry.case_kinds.get(active_case.kind)
        if kind and kind.next_steps:
            return kind.next_steps(snapshot(active_case))
    hints = [k.start_hint for k in registry.case_kinds.values() if k.start_hint]  # every domain deployed says how
    return " ".join(hints) if hints else NOTHING_OPEN
