"""The TurnReducer (SPEC §13): a pure function from a whole plan to commands, cards and outcomes.

It does no I/O. The runtime loads everything first (cases visible to the actor, the registry on
offer, the actor's clock) and hands it over as plain data. The stages run in the order of §13, each
in its own module, and this one runs them:

1. schema validation (all-or-nothing, I18)       -> ``validate_plan`` raises ``PlanInvalid`` (``validation``)
2. evidence validation against the user's message (``evidence``; money grounded there too)
3. target resolution (ambiguity -> one selection card per reference, I8; ``targets``, with ``grounding``)
4. retractions, corrections and holds (before any effect)
5. policy evaluation
6. confirmation derivation
7. exactly one outcome per act (I11)

What it takes and gives is plain data (``reduction``); what it says is worded in ``wording``; "undo that"
is derived in ``undo``. The names other modules use are importable from here (``__all__``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from registries.definitions import (
    ActMutability,
    CaseSnapshot,
    CommandContext,
    CommandRefused,
    Mode,
    PolicyDecision,
    PolicyKind,
)

from . import grounding, wording
from .evidence import evidence_problem, money_problem, occurs
from .plan import CaseRef, UserTurnPlan
from .reduction import (
    ALL_OUTCOMES,
    ActResult,
    CaseTarget,
    NewCase,
    Notice,
    Outcome,
    PlanInvalid,
    PlannedCommand,
    PlannedConfirmation,
    PlannedSelection,
    Reduction,
    TurnFacts,
    ValidatedAct,
    ValidatedPlan,
)
from .targets import applicable, named_elsewhere, ref_key, resolve, said_key
from .undo import UNDO_ACT_ID, undo_act
from .validation import args_model, validate_plan

__all__ = [
    "ALL_OUTCOMES", "UNDO_ACT_ID", "ActResult", "CaseTarget", "NewCase", "Notice", "Outcome", "PlanInvalid",
    "PlannedCommand", "PlannedConfirmation", "PlannedSelection", "Reduction", "TurnFacts", "ValidatedAct",
    "ValidatedPlan", "reduce_selected", "reduce_turn", "validate_plan",
]


# --------------------------------------------------------------------------- stages 2-7


def reduce_turn(validated: ValidatedPlan, facts: TurnFacts) -> Reduction:
    """Stages 2-7 over a plan that passed stage 1.

    Longer than the rest on purpose: it is SPEC §13's stage list, in order, each stage a commented block,
    so a reader checks the order of the checks against the spec in one place (evidence before targets,
    retractions and holds before policy, policy before confirmation)."""
    out = Reduction()
    plan = validated.plan
    if not Mode(facts.mode).acts and validated.acts:
        for a in validated.acts:
            out.acts.append(ActResult(a.id, a.act, Outcome.REFUSED, "acts_not_allowed_in_mode", args=a.args,
                                      evidence=a.evidence))
        out.notices.append(Notice("acts_not_allowed_in_mode", wording.notice_text("acts_not_allowed_in_mode", None)))
        return out

    inverse = undo_act(plan, facts, out)
    if inverse is not None:
        validated = ValidatedPlan(plan, (*validated.acts, inverse))
    results = {a.id: ActResult(a.id, a.act, Outcome.UNDECIDED, args=a.args, evidence=a.evidence) for a in validated.acts}
    acts = {a.id: a for a in validated.acts}

    # stage 2: evidence, against the user's message only (and the earlier message a pending question
    # is about: still the user's own words, held by the server)
    for a in validated.acts:
        code = evidence_problem(a, facts.registry.acts[a.act], facts.message, facts.earlier_message)
        if code:
            _refuse(out, results[a.id], code, facts)
    for r in plan.retractions:
        if not occurs(r.evidence, facts.message) and results[r.act].outcome == Outcome.UNDECIDED:
            _refuse(out, results[r.act], "evidence_not_found", facts)  # fail closed: neither run nor guess

    # stage 3: targets
    new_cases: dict[str, str] = {}  # case kind -> plan act id that creates one
    ambiguous: dict[str, tuple[str, list[str], list[str]]] = {}  # reference -> (kind, candidates, act ids)
    ungrounded: dict[str, str] = {}  # reference -> the words that named another case than the act's (grounding)
    for a in validated.acts:
        definition = facts.registry.acts[a.act]
        res = results[a.id]
        if definition.creates_case:
            res.case, res.target = NewCase(a.id), "new"
            if res.outcome == Outcome.UNDECIDED:
                new_cases[definition.case_kind] = a.id
            continue
        if res.outcome != Outcome.UNDECIDED:
            continue
        if a.ref is None or a.ref.active:
            if definition.case_kind in new_cases:
                res.case, res.target = NewCase(new_cases[definition.case_kind]), "new"
                continue
        target, how, candidates = resolve(a.ref, definition, facts)
        said = named_elsewhere(a, definition, target, facts, validated.acts) if target else None
        if said is not None and target:  # the words name another case than the act's: the user chooses (I8)
            candidates = sorted({target, *said.cases})
            target = None
            ungrounded[said_key(said, definition)] = said.text
        candidates = applicable(a, definition, candidates, facts)
        if target:
            res.case, res.target = target, how
        elif candidates and said is not None:
            key = said_key(said, definition)
            ambiguous.setdefault(key, (definition.case_kind, candidates, []))[2].append(a.id)
            res.target = "selection"
        elif candidates:
            key = ref_key(a.ref, definition)
            kind, cands, ids = ambiguous.setdefault(key, (definition.case_kind, candidates, []))
            ids.append(a.id)
            res.target = "selection"
        else:
            _refuse(out, res, "target_not_found", facts, reference=a.ref)

    # stage 4: retractions, corrections (already merged in stage 1), holds
    for r in plan.retractions:
        res = results[r.act]
        if res.outcome != Outcome.REFUSED:
            res.outcome, res.code = Outcome.RETRACTED, None
            out.notices.append(Notice("retracted", wording.retraction_text(res, r.evidence, facts), act=res.act))
    unsure: dict[str, str] = {}  # act id -> the words its provider could not place (a "confirm" constraint)
    for con in plan.constraints:
        covered = [a for a in validated.acts
                   if ("*" in con.acts or a.act in con.acts) and results[a.id].outcome == Outcome.UNDECIDED]
        if con.kind == "confirm":
            unsure.update((a.id, con.evidence) for a in covered)
            continue
        for a in covered:
            results[a.id].outcome, results[a.id].code = Outcome.HELD, "held_by_constraint"
        if covered:
            out.notices.append(Notice("held_by_constraint", wording.hold_text(covered, results, con.evidence, facts)))
    for key, (kind, candidates, ids) in ambiguous.items():
        waiting = [i for i in ids if results[i].outcome == Outcome.UNDECIDED]
        if not waiting:
            continue
        for i in waiting:
            results[i].outcome = Outcome.AWAITING_SELECTION
        words = ungrounded.get(key, "")
        out.selections.append(PlannedSelection(key, kind, tuple(candidates), tuple(acts[i] for i in waiting), words))
        out.notices.append(Notice("selection_needed", wording.selection_text(wording.noun_of(kind, facts), words)))

    # stages 3b (lines), 5 and 6 for everything still undecided; an act on words the plan also answers as a
    # question waits for a yes/no card (grounding)
    ready = [acts[a.id] for a in validated.acts if results[a.id].outcome == Outcome.UNDECIDED]
    questions = [answer.question for answer in plan.answers if answer.question]
    asked = {a.id: "asked_and_requested" for a in ready
             if questions and grounding.overlaps_question(a.evidence, questions, facts.message)}
    asked.update((a.id, "reading_unsure") for a in ready if a.id in unsure and a.id not in asked)
    _decide(out, ready, results, facts, asked)
    unplaced = dict.fromkeys(unsure[a.id] for a in ready if asked.get(a.id) == "reading_unsure"
                             and results[a.id].outcome == Outcome.AWAITING_CONFIRMATION)
    if unplaced:
        out.notices.append(Notice("reading_unsure", wording.unsure_text(tuple(unplaced))))
    _acknowledge(out, validated.acts, results, plan, facts)
    out.acts = [results[a.id] for a in validated.acts]
    return out


def reduce_selected(held: Sequence[ValidatedAct], case_id: str, facts: TurnFacts) -> Reduction:
    """Resume acts that waited on a selection card, now on the chosen case (SPEC §17)."""
    out = Reduction()
    results = {a.id: ActResult(a.id, a.act, Outcome.UNDECIDED, case=case_id, args=a.args, evidence=a.evidence, target="selection")
               for a in held}
    for a in held:
        snapshot = facts.cases.get(case_id)
        if snapshot is None or snapshot.kind != facts.registry.acts[a.act].case_kind:
            _refuse(out, results[a.id], "target_not_found", facts)
    _decide(out, [a for a in held if results[a.id].outcome == Outcome.UNDECIDED], results, facts)
    out.acts = [results[a.id] for a in held]
    return out


def _decide(out: Reduction, ready: Sequence[ValidatedAct], results: dict[str, ActResult], facts: TurnFacts,
            asked: Mapping[str, str] | None = None) -> None:
    """Line resolution, policy and confirmation derivation, then revisions in plan order.

    One function because each act's preview (the case as its command will find it) feeds the next act's policy
    and the cards' bound revision; split, that running state would travel through every helper."""
    ctx = CommandContext(actor=facts.actor, today=facts.today)
    provisional: dict[CaseTarget, CaseSnapshot] = {}
    creations = {NewCase(a.id): a for a in ready if facts.registry.acts[a.act].creates_case}
    for a in ready:
        definition = facts.registry.acts[a.act]
        res = results[a.id]
        new_case = res.case if isinstance(res.case, NewCase) and not definition.creates_case else None
        if new_case is not None:
            creator = results.get(new_case.act_id)
            if creator is None or creator.outcome != Outcome.EXECUTED or (definition.item_arg in a.args):
                _refuse(out, res, "case_not_created_yet", facts)
                continue
        case = _snapshot(res.case, facts, provisional, creations, ctx)
        if definition.item_arg and definition.item_arg in a.args:
            kind = facts.registry.case_kinds.get(definition.case_kind)
            item_id = kind.resolve_item(case, int(a.args[definition.item_arg])) if (
                kind and kind.resolve_item and case) else None
            if item_id is None:  # the kind's own code ("line_not_found"), so clients keep reading it
                _refuse(out, res, f"{kind.item_noun if kind else 'item'}_not_found", facts, case)
                continue
            res.args = {**a.args, f"{definition.item_arg}_id": item_id}
        code = money_problem(a, definition, case, facts)
        if code:
            _refuse(out, res, code, facts, case)
            continue
        res.args = definition.complete_args(res.args, ctx)
        decision = definition.policy(case, args_model(definition, res.args))
        if decision.kind == PolicyKind.DENY:
            res.policy = decision
            _refuse(out, res, decision.code or "policy_denied", facts, case)
            continue
        if asked and a.id in asked and decision.kind == PolicyKind.ALLOW:  # a yes/no card (grounding, or unsure)
            decision = PolicyDecision.confirm(asked[a.id], decision.notes)
        res.policy = decision
        for code, text in decision.notes:
            out.notices.append(Notice(code, text, act=a.act))
        needs_card = definition.mutability != ActMutability.REVERSIBLE or decision.kind == PolicyKind.CONFIRM
        if needs_card and new_case is not None:
            _refuse(out, res, "case_not_created_yet", facts)
            continue
        if needs_card:
            res.outcome = Outcome.AWAITING_CONFIRMATION
        else:
            res.outcome, res.origin = Outcome.EXECUTED, "direct_user_act"

    # preview, in the order the commands will run (those that run now, then those behind the cards),
    # with the acts' pure handlers: a command its handler would refuse on the state it will find can
    # never commit as planned, so it is refused now and no card is bound to a revision it would
    # have produced; every other command learns the state it will run on
    preview_of: dict[str, CaseSnapshot] = {}
    previews: dict[CaseTarget, CaseSnapshot] = {}
    for wanted in (Outcome.EXECUTED, Outcome.AWAITING_CONFIRMATION):
        for a in ready:
            res = results[a.id]
            definition = facts.registry.acts[a.act]
            if res.outcome != wanted or definition.creates_case:
                continue
            before = previews.get(res.case or "") or _snapshot(res.case, facts, provisional, creations, ctx)
            if before is None:
                continue
            try:
                result = definition.handler(before, res.args, ctx)
            except CommandRefused as refused:
                _refuse(out, res, refused.code, facts, before)
                continue
            except ValueError:  # the handler produced a state its schema refuses
                _refuse(out, res, "invalid_state", facts, before)
                continue
            except Exception:  # a broken handler would fail at commit too: it never gets that far
                _refuse(out, res, "handler_failed", facts, before)
                continue
            preview_of[a.id] = before
            previews[res.case or ""] = replace(before, state=dict(result.state), status=result.status,
                                          title=result.title, revision=before.revision + 1)

    # revisions: per case, commands that run now first (plan order), then those behind the card
    next_revision: dict[CaseTarget, int] = {}
    sequence = 0
    for wanted in (Outcome.EXECUTED, Outcome.AWAITING_CONFIRMATION):
        card_acts: dict[CaseTarget, list[str]] = {}
        card_codes: dict[CaseTarget, list[str]] = {}
        card_revision: dict[CaseTarget, int] = {}
        for a in ready:
            res = results[a.id]
            if res.outcome != wanted:
                continue
            key = res.case or NewCase(a.id)
            if key not in next_revision:
                known = facts.cases.get(key) if isinstance(key, str) else None
                next_revision[key] = known.revision if known is not None else 0
            if wanted == Outcome.AWAITING_CONFIRMATION:
                card_revision.setdefault(key, next_revision[key])
                card_acts.setdefault(key, []).append(a.id)
                if res.policy and res.policy.kind == PolicyKind.CONFIRM and res.policy.code:
                    card_codes.setdefault(key, []).append(res.policy.code)
            sequence += 1
            out.commands.append(PlannedCommand(
                act_id=a.id, act=a.act, case=res.case if facts.registry.acts[a.act].creates_case is False else None,
                args=res.args, expected_revision=next_revision[key], sequence=sequence,
                needs_confirmation=wanted == Outcome.AWAITING_CONFIRMATION, evidence=a.evidence,
                preview=preview_of.get(a.id)))
            next_revision[key] += 1
        for key, ids in card_acts.items():
            out.confirmations.append(PlannedConfirmation(key, card_revision[key], tuple(ids),
                                                         tuple(dict.fromkeys(card_codes.get(key, [])))))


def _snapshot(case_ref: CaseTarget | None, facts: TurnFacts, provisional: dict[CaseTarget, CaseSnapshot],
              creations: Mapping[NewCase, ValidatedAct], ctx: CommandContext) -> CaseSnapshot | None:
    """The case an act's policy sees; a case this plan creates is previewed with its (pure) handler."""
    if case_ref is None:
        return None
    if isinstance(case_ref, str):
        return facts.cases.get(case_ref)
    creator = creations.get(case_ref)
    if creator is None:
        return None
    if case_ref not in provisional:
        definition = facts.registry.acts[creator.act]
        try:
            result = definition.handler(None, definition.complete_args(creator.args, ctx), ctx)
        except CommandRefused:
            return None
        provisional[case_ref] = CaseSnapshot(id=str(case_ref), kind=definition.case_kind, owner_id=facts.actor.user_id,
                                             title=result.title, status=result.status, revision=1,
                                             state=dict(result.state))
    return provisional[case_ref]


# --------------------------------------------------------------------------- helpers


def _refuse(out: Reduction, res: ActResult, code: str, facts: TurnFacts, case: CaseSnapshot | None = None, *,
            reference: CaseRef | None = None) -> None:
    res.outcome, res.code, res.origin = Outcome.REFUSED, code, None
    text = wording.refusal_text(code, res.act, case, facts, reference=reference)
    if any(n.code == code and n.text == text for n in out.notices):
        return  # one notice for every act that failed the same way
    out.notices.append(Notice(code, text, act=res.act))


# what an acknowledged correction or undo had to reach: the act is running, or waits on a card
_GOING_AHEAD = (Outcome.EXECUTED, Outcome.AWAITING_CONFIRMATION, Outcome.AWAITING_SELECTION)


def _acknowledge(out: Reduction, acts: Sequence[ValidatedAct], results: Mapping[str, ActResult],
                 plan: UserTurnPlan, facts: TurnFacts) -> None:
    """A correction and an undo said back in plain words (a retraction and a hold are acknowledged where
    they are decided): what the user changed their mind to, and what undoing will do."""
    said = {a.id: a.args for a in plan.acts}
    for a in acts:
        res = results[a.id]
        if res.outcome not in _GOING_AHEAD:
            continue
        if a.corrected_by is not None and a.corrected_fields:
            out.notices.append(Notice("corrected", wording.correction_text(a, res, said.get(a.id, {})), act=a.act))
        if a.undo_of is not None:
            out.notices.append(Notice("undone", wording.undo_text(a, res, facts), act=a.act))
