"""Stage 3 of the TurnReducer (SPEC §13.3): which case each act is on. Pure.

An explicit id, ``active``, a title match, or nothing (the active case, else the only open one) resolves to a
case the actor may touch; never by recency: several candidates are a selection (I8), offering only the cases
the act can apply to. Grounding (``core/grounding.py``): when the user's words name another of their cases
than the one an act resolved to, the act waits on a selection too.
"""

from __future__ import annotations

from collections.abc import Sequence

from registries.definitions import ActDefinition, CaseSnapshot, PolicyKind

from . import grounding
from .evidence import norm
from .plan import CaseRef
from .reduction import TurnFacts, ValidatedAct
from .validation import args_model


def ref_key(ref: CaseRef | None, definition: ActDefinition) -> str:
    """The reference acts share one selection card by ("match:<kind>:berlin", "active:<kind>", "id:<id>")."""
    if ref is None or ref.active:
        return f"active:{definition.case_kind}"
    if ref.match:
        return f"match:{definition.case_kind}:{norm(ref.match)}"
    return f"id:{ref.id}"


def resolve(ref: CaseRef | None, definition: ActDefinition,
            facts: TurnFacts) -> tuple[str | None, str, list[str]]:
    """(case id, how, candidates). Never picks by recency: several candidates -> a selection."""
    kind = definition.case_kind
    if ref is not None and ref.id:
        case = facts.cases.get(ref.id)
        if case is None or case.kind != kind or case.owner_id != facts.actor.user_id:
            return None, "", []
        return case.id, "id", []
    open_of_kind = [c for c in facts.cases.values() if c.kind == kind and c.owner_id == facts.actor.user_id
                    and _is_open(c, facts)]
    if ref is not None and ref.match:
        needle = norm(ref.match)
        hits = [c for c in open_of_kind if needle in norm(c.title)]
        if not hits:  # "the Poznan claim" for “Poznań warehouse audit”: the same letters, written without accents
            hits = [c for c in open_of_kind if grounding.fold(needle) in grounding.fold(norm(c.title))]
        if not hits:
            words = [w for w in grounding.fold(needle).split() if len(w) > 2]
            hits = [c for c in open_of_kind if words and all(w in grounding.fold(norm(c.title)) for w in words)]
        if len(hits) == 1:
            return hits[0].id, "match", []
        return None, "", sorted(c.id for c in hits) if len(hits) > 1 else []
    active = facts.cases.get(facts.active_case or "")
    if active is not None and active.kind == kind and active.owner_id == facts.actor.user_id:
        return active.id, "active", []
    if len(open_of_kind) == 1:
        return open_of_kind[0].id, "only_open", []
    return None, "", sorted(c.id for c in open_of_kind) if len(open_of_kind) > 1 else []


def applicable(act: ValidatedAct, definition: ActDefinition, candidates: list[str],
               facts: TurnFacts) -> list[str]:
    """A selection offers only the cases the act can apply to: a candidate its policy would refuse (a
    submitted claim for a line edit) is left off, as long as at least two remain. Fewer, and all stay:
    the user still chooses (the one that fits is never picked for them, since they may have meant the
    other), and a refusal is said about the case they pick rather than hidden."""
    if len(candidates) < 2:
        return candidates
    kept = []
    for case_id in candidates:
        case = facts.cases.get(case_id)
        try:
            denied = case is not None and definition.policy(case, args_model(definition, act.args)).kind == \
                PolicyKind.DENY
        except Exception:  # noqa: BLE001 - a policy that cannot judge a candidate does not hide it
            denied = False
        if not denied:
            kept.append(case_id)
    return kept if len(kept) > 1 else candidates


def _is_open(case: CaseSnapshot, facts: TurnFacts) -> bool:
    kind = facts.registry.case_kinds.get(case.kind)
    return kind is None or case.status not in kind.terminal_statuses


def named_elsewhere(act: ValidatedAct, definition: ActDefinition, target: str, facts: TurnFacts,
                    acts: Sequence[ValidatedAct] = ()) -> grounding.Said | None:
    """The words naming another of the user's cases than ``target``, or None when the act is grounded: its own
    words name the target alone; or they name no case and the message names only the target and cases other acts
    of the plan are on ("remove the third line and submit the Berlin trip, and withdraw the Lisbon conference")."""
    kind = facts.registry.case_kinds.get(definition.case_kind)
    if kind is None or kind.mentions is None or act.undo_of is not None:
        return None
    mine = [c for c in facts.cases.values() if c.kind == definition.case_kind and c.owner_id == facts.actor.user_id]
    own = grounding.cases_named(" ".join(filter(None, (act.evidence, act.corrected_by))), mine, kind.mentions)
    if own is not None:
        # the words name the target alone: grounded; they name another case, or several (a trip "Stockholm–
        # Göteborg" with a claim for each): the user chooses among them
        return None if own.cases == (target,) else own
    said = _message_names(facts, definition.case_kind, tuple(mine), kind.mentions)
    if said is None:
        return None
    others = {t for other in acts if other.id != act.id and not facts.registry.acts[other.act].creates_case
              for t in [resolve(other.ref, facts.registry.acts[other.act], facts)[0]] if t}
    if target in said.cases and set(said.cases) - {target} <= others:
        return None
    return said


_MESSAGE_NAMES: dict[tuple[str, str, tuple[tuple[str, str], ...]], grounding.Said | None] = {}


def _message_names(facts: TurnFacts, kind: str, mine: tuple[CaseSnapshot, ...], mentions) -> grounding.Said | None:
    """The cases the whole message names: once per message, not once per act (a small bounded memo, pure)."""
    key = (facts.message, kind, tuple((c.id, c.title) for c in mine))
    if key not in _MESSAGE_NAMES:
        if len(_MESSAGE_NAMES) > 256:
            _MESSAGE_NAMES.clear()
        _MESSAGE_NAMES[key] = grounding.cases_named(facts.message, mine, mentions)
    return _MESSAGE_NAMES[key]


def said_key(said: grounding.Said, definition: ActDefinition) -> str:
    """The selection card of acts whose words named other cases than theirs: one per set of cases named."""
    return f"said:{definition.case_kind}:{','.join(sorted(said.cases))}"
