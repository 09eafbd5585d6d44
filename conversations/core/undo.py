""""Undo that" (SPEC §13): the inverse of the conversation's last committed edit, derived by the server from
the committed event (never from the model's arguments), then reduced like any other act. Pure.
"""

from __future__ import annotations

from .evidence import occurs
from .plan import SERVER_ACT_ID_PREFIX, CaseRef, UserTurnPlan
from .reduction import Notice, Reduction, TurnFacts, ValidatedAct
from .validation import validate_args
from .wording import UNDO_NOT_FOUND, notice_text, noun_of

# the act id of a server-derived inverse: its journal row says it was an undo (a plan's act ids cannot take it)
UNDO_ACT_ID = SERVER_ACT_ID_PREFIX + "undo"


def undo_act(plan: UserTurnPlan, facts: TurnFacts, out: Reduction) -> ValidatedAct | None:
    """The inverse act the plan's ``undo`` asks for, or None with a notice saying why there is none."""
    if plan.undo is None:
        return None
    last = facts.last_edit
    definition = facts.registry.acts.get(last["act"]) if last else None
    noun = noun_of(definition.case_kind, facts) if definition else "case"
    if not occurs(plan.undo.evidence, facts.message):
        out.notices.append(Notice("evidence_not_found", UNDO_NOT_FOUND))
        return None
    if last is None or definition is None:
        out.notices.append(Notice("nothing_to_undo", notice_text("nothing_to_undo", None, noun=noun)))
        return None
    if last.get("undo"):  # a second "undo that" would redo: refused, and said so
        out.notices.append(Notice("undo_of_undo", notice_text("undo_of_undo", None, noun=noun)))
        return None
    case = facts.cases.get(str(last.get("case")))
    # the last edit, direct or confirmed on a card, as long as nothing changed the case since; its inverse then
    # goes through policy and confirmation like any act (putting back a removed line is a direct edit)
    inverse = definition.invert(case, last.get("data") or {}) if (definition.invert and case
                                                                  and last.get("revision") == case.revision) else None
    if inverse is None or case is None or inverse[0] not in facts.registry.acts:
        out.notices.append(Notice("cannot_undo", notice_text("cannot_undo", None, case, noun=noun)))
        return None
    name, args = inverse
    args, error = validate_args(facts.registry.acts[name], args)
    if error:
        out.notices.append(Notice("cannot_undo", notice_text("cannot_undo", None, case, noun=noun)))
        return None
    return ValidatedAct(UNDO_ACT_ID, name, CaseRef(id=case.id), args, plan.undo.evidence,
                        undo_of=str(last.get("event") or ""))
