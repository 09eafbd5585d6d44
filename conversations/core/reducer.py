"""The TurnReducer (SPEC §13): a pure function from a whole plan to commands, cards and outcomes.

It does no I/O. The runtime loads everything first (cases visible to the actor, the registry on
offer, the actor's clock) and hands it over as plain data. The stages run in the order of §13:

1. schema validation (all-or-nothing, I18)       -> ``validate_plan`` raises ``PlanInvalid``
2. evidence validation against the user's message
3. target resolution (ambiguity -> one selection card per reference, I8)
4. retractions, corrections and holds (before any effect)
5. policy evaluation
6. confirmation derivation
7. exactly one outcome per act (I11)
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from typing import Any

from pydantic import BaseModel, ValidationError

from registries.definitions import (
    ActDefinition,
    ActMutability,
    Actor,
    CaseSnapshot,
    CommandContext,
    CommandRefused,
    Mode,
    PolicyDecision,
    PolicyKind,
    Registry,
)
from registries.numbers import evidence_numbers

from . import grounding
from .plan import SERVER_ACT_ID_PREFIX, CaseRef, UserTurnPlan


class Outcome(enum.StrEnum):
    """What became of one proposed act (CONTRACT §6 ``acts[].outcome``)."""

    UNDECIDED = ""  # not decided yet (while the reducer runs; never an act's final outcome)
    EXECUTED = "executed"
    AWAITING_CONFIRMATION = "awaiting_confirmation"
    AWAITING_SELECTION = "awaiting_selection"
    HELD = "held"
    RETRACTED = "retracted"
    SUPERSEDED = "superseded"
    REFUSED = "refused"
    CONFLICT = "conflict"
    OUTCOME_UNKNOWN = "outcome_unknown"
    DECLINED = "declined"
    STALE = "stale"


ALL_OUTCOMES = frozenset(o for o in Outcome if o is not Outcome.UNDECIDED)


@dataclass(frozen=True, slots=True)
class NewCase:
    """The case an earlier act of the same plan opens: it has no id until that act's command commits."""

    act_id: str

    def __str__(self) -> str:  # how keys and the audit record spell it
        return f"new:{self.act_id}"


type CaseTarget = str | NewCase  # a case id, or the case an act of this plan opens


class PlanInvalid(Exception):
    """Stage 1 failed: the whole plan is rejected, nothing runs."""


@dataclass(frozen=True, slots=True)
class ValidatedAct:
    id: str
    act: str
    ref: CaseRef | None
    args: dict[str, Any]  # validated, JSON form, corrections applied
    evidence: str
    corrected_by: str | None = None  # the correction's evidence, when one replaced arguments
    corrected_fields: tuple[str, ...] = ()
    earlier_evidence: str | None = None  # a quote of the message the pending question was about
    undo_of: str | None = None  # the event this server-derived inverse reverses ("undo that")

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "act": self.act, "ref": self.ref.model_dump(exclude_none=True) if self.ref else None,
                "args": self.args, "evidence": self.evidence, "corrected_by": self.corrected_by,
                "corrected_fields": list(self.corrected_fields), "earlier_evidence": self.earlier_evidence,
                "undo_of": self.undo_of}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ValidatedAct:
        ref = CaseRef.model_validate(data["ref"]) if data.get("ref") else None
        return cls(id=data["id"], act=data["act"], ref=ref, args=dict(data["args"]), evidence=data["evidence"],
                   corrected_by=data.get("corrected_by"), corrected_fields=tuple(data.get("corrected_fields", ())),
                   earlier_evidence=data.get("earlier_evidence"), undo_of=data.get("undo_of"))


@dataclass(frozen=True, slots=True)
class ValidatedPlan:
    plan: UserTurnPlan
    acts: tuple[ValidatedAct, ...]


@dataclass(slots=True)
class ActResult:
    """The reducer's verdict on one proposed act, and the trace of why (I20)."""

    id: str
    act: str
    outcome: str
    code: str | None = None
    case: CaseTarget | None = None
    args: dict[str, Any] = field(default_factory=dict)
    evidence: str = ""
    target: str = ""  # how the case was found: id | active | match | only_open | new | selection
    policy: PolicyDecision | None = None  # what the act's policy decided (its kind and code)
    origin: str | None = None  # direct_user_act for commands that run now


@dataclass(frozen=True, slots=True)
class PlannedCommand:
    act_id: str
    act: str
    case: CaseTarget | None  # None: the command creates its case
    args: dict[str, Any]
    expected_revision: int
    sequence: int
    needs_confirmation: bool
    evidence: str
    preview: CaseSnapshot | None = None  # the case as this command will find it (cards are described on it)
    # the person's edits this command carries (a card redrawn for edited values): kept on its journal row
    edits: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class PlannedConfirmation:
    case: CaseTarget
    bound_revision: int
    act_ids: tuple[str, ...]
    codes: tuple[str, ...]  # policy codes that asked for it (empty: mutability did)


@dataclass(frozen=True, slots=True)
class PlannedSelection:
    reference: str  # what the user said, e.g. "match:Berlin" or "active"
    case_kind: str
    candidates: tuple[str, ...]
    held_acts: tuple[ValidatedAct, ...]
    said: str = ""  # the user's words that named a case the act did not target (grounding), for the card


@dataclass(frozen=True, slots=True)
class Notice:
    code: str
    text: str
    act: str | None = None


@dataclass(slots=True)
class Reduction:
    acts: list[ActResult] = field(default_factory=list)
    commands: list[PlannedCommand] = field(default_factory=list)
    confirmations: list[PlannedConfirmation] = field(default_factory=list)
    selections: list[PlannedSelection] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class TurnFacts:
    """Everything the reducer needs, loaded beforehand."""

    message: str
    mode: str
    actor: Actor
    today: str
    registry: Registry  # the acts on offer for this turn (disabled ones already removed)
    cases: Mapping[str, CaseSnapshot]  # cases the actor may touch, by id
    active_case: str | None
    # the user's own earlier message that the conversation's pending question is about (server state,
    # never model text): an act's ``earlier_evidence`` must quote it; None when no question is pending
    earlier_message: str | None = None
    # the conversation's last committed command, for "undo that": {"act", "case", "event", "data",
    # "direct"} (direct: it ran under direct_user_act); None when there is none
    last_edit: Mapping[str, Any] | None = None


# --------------------------------------------------------------------------- stage 1


def validate_plan(plan: UserTurnPlan, registry: Registry) -> ValidatedPlan:
    """All-or-nothing schema validation (I18). Raises PlanInvalid naming the first problem."""
    problems: list[str] = []
    ids = [a.id for a in plan.acts]
    if len(ids) != len(set(ids)):
        problems.append("act ids must be unique")
    known = set(ids)
    for r in plan.retractions:
        if r.act not in known:
            problems.append(f"retraction names unknown act id {r.act!r}")
    corrections: dict[str, dict[str, Any]] = {}
    for c in plan.corrections:
        if c.act not in known:
            problems.append(f"correction names unknown act id {c.act!r}")
        corrections.setdefault(c.act, {}).update(c.args)
    for con in plan.constraints:
        for name in con.acts:
            if name != "*" and name not in registry.acts:
                problems.append(f"constraint names unknown act {name!r}")
    validated: list[ValidatedAct] = []
    for a in plan.acts:
        definition = registry.acts.get(a.act)
        if definition is None:
            problems.append(f"act {a.id}: {a.act!r} is not an act on offer")
            continue
        if definition.creates_case and a.case is not None:
            problems.append(f"act {a.id}: {a.act} creates a case and takes no case reference")
        args, error = _validate_args(definition, a.args)
        if error:
            problems.append(f"act {a.id} ({a.act}) arguments: {error}")
            continue
        corrected_by = None
        if a.id in corrections:
            merged, error = _validate_args(definition, {**a.args, **corrections[a.id]})
            if error:
                problems.append(f"correction of act {a.id} ({a.act}): {error}")
                continue
            args = merged
            corrected_by = " / ".join(c.evidence for c in plan.corrections if c.act == a.id)
        validated.append(ValidatedAct(a.id, a.act, a.case, args, a.evidence, corrected_by,
                                      tuple(corrections.get(a.id, {})), a.earlier_evidence))
    if problems:
        raise PlanInvalid("; ".join(problems))
    return ValidatedPlan(plan, tuple(validated))


def _validate_args(definition: ActDefinition, args: Mapping[str, Any]) -> tuple[dict[str, Any], str | None]:
    try:
        model = definition.args_schema.model_validate(dict(args))
    except ValidationError as exc:
        return {}, "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}"
                             for e in exc.errors(include_url=False))
    return model.model_dump(mode="json", exclude_none=True), None


def args_model(definition: ActDefinition, args: Mapping[str, Any]) -> BaseModel:
    resolved = f"{definition.item_arg}_id" if definition.item_arg else None
    return definition.args_schema.model_validate({k: v for k, v in args.items() if k != resolved})


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
        out.notices.append(Notice("acts_not_allowed_in_mode",
                                  "In this conversation I can look things up, but I cannot change anything."))
        return out

    inverse = _undo_act(plan, facts, out)
    if inverse is not None:
        validated = ValidatedPlan(plan, (*validated.acts, inverse))
    results = {a.id: ActResult(a.id, a.act, Outcome.UNDECIDED, args=a.args, evidence=a.evidence) for a in validated.acts}
    acts = {a.id: a for a in validated.acts}

    # stage 2: evidence, against the user's message only (and the earlier message a pending question
    # is about: still the user's own words, held by the server)
    for a in validated.acts:
        code = _evidence_problem(a, facts.registry.acts[a.act], facts.message, facts.earlier_message)
        if code:
            _refuse(out, results[a.id], code, facts)
    for r in plan.retractions:
        if not _occurs(r.evidence, facts.message) and results[r.act].outcome == Outcome.UNDECIDED:
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
        target, how, candidates = _resolve(a.ref, definition, facts)
        said = _named_elsewhere(a, definition, target, facts, validated.acts) if target else None
        if said is not None and target:  # the words name another case than the act's: the user chooses (I8)
            candidates = sorted({target, *said.cases})
            target = None
            ungrounded[_said_key(said, definition)] = said.text
        candidates = _applicable(a, definition, candidates, facts)
        if target:
            res.case, res.target = target, how
        elif candidates and said is not None:
            key = _said_key(said, definition)
            ambiguous.setdefault(key, (definition.case_kind, candidates, []))[2].append(a.id)
            res.target = "selection"
        elif candidates:
            key = _ref_key(a.ref, definition)
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
            out.notices.append(Notice("retracted", _retraction_text(res, r.evidence, facts), act=res.act))
    for con in plan.constraints:
        covered = [a for a in validated.acts
                   if ("*" in con.acts or a.act in con.acts) and results[a.id].outcome == Outcome.UNDECIDED]
        for a in covered:
            results[a.id].outcome, results[a.id].code = Outcome.HELD, "held_by_constraint"
        if covered:
            out.notices.append(Notice("held_by_constraint", _hold_text(covered, results, con.evidence, facts)))
    for key, (kind, candidates, ids) in ambiguous.items():
        waiting = [i for i in ids if results[i].outcome == Outcome.UNDECIDED]
        if not waiting:
            continue
        for i in waiting:
            results[i].outcome = Outcome.AWAITING_SELECTION
        words = ungrounded.get(key, "")
        out.selections.append(PlannedSelection(key, kind, tuple(candidates), tuple(acts[i] for i in waiting), words))
        noun = facts.registry.case_kinds[kind].noun if kind in facts.registry.case_kinds else "case"
        if words:
            out.notices.append(Notice("selection_needed", f"You mentioned “{words}”, so I did not guess which {noun} "
                                                          f"you mean. Choose one on the card."))
        else:
            out.notices.append(Notice("selection_needed", f"Which {noun} do you mean? Choose one on the card."))

    # stages 3b (lines), 5 and 6 for everything still undecided; an act on words the plan also answers as a
    # question waits for a yes/no card (grounding)
    ready = [acts[a.id] for a in validated.acts if results[a.id].outcome == Outcome.UNDECIDED]
    questions = [answer.question for answer in plan.answers if answer.question]
    asked = frozenset(a.id for a in ready if questions and grounding.overlaps_question(a.evidence, questions,
                                                                                        facts.message))
    _decide(out, ready, results, facts, asked)
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
            asked: frozenset[str] = frozenset()) -> None:
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
        code = _money_problem(a, definition, case, facts)
        if code:
            _refuse(out, res, code, facts, case)
            continue
        res.args = definition.complete_args(res.args, ctx)
        decision = definition.policy(case, args_model(definition, res.args))
        if decision.kind == PolicyKind.DENY:
            res.policy = decision
            _refuse(out, res, decision.code or "policy_denied", facts, case)
            continue
        if a.id in asked and decision.kind == PolicyKind.ALLOW:
            decision = PolicyDecision.confirm("asked_and_requested", decision.notes)
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
    definition = facts.registry.acts.get(res.act)
    kind = facts.registry.case_kinds.get(definition.case_kind) if definition else None
    noun = kind.noun if kind else "case"
    text = notice_text(code, res.act, case, noun=noun, item=kind.item_noun if kind else "item")
    if code == "currency_mismatch" and case is not None and kind is not None and kind.currency is not None:
        currency = kind.currency(case)
        text = (f"I did not {res.act.replace('_', ' ')}: the amount you wrote is not in {currency}, the currency "
                f"“{case.title}” is kept in, and I do not change money into {currency} on my own. Tell me the "
                f"amount in {currency}.")
    if code == "target_not_found" and reference is not None and (reference.match or reference.id):
        # the user named a case: say which, and that nothing happened to any other (I8)
        named = f"called “{reference.match}”" if reference.match else f"with the id {reference.id}"
        text = (f"I could not find a {noun} of yours {named}, so nothing was changed. Which of your {noun}s do you "
                f"mean?")
    if any(n.code == code and n.text == text for n in out.notices):
        return  # one notice for every act that failed the same way
    out.notices.append(Notice(code, text, act=res.act))


def _what(act: str, case_id: CaseTarget | None, args: Mapping[str, Any], facts: TurnFacts) -> str:
    """The act in the domain's words ("submit “Berlin trip” (3 lines, 302.50 EUR) for approval")."""
    definition = facts.registry.acts.get(act)
    case = facts.cases.get(case_id) if isinstance(case_id, str) else None  # a case this plan opens has none yet
    what = ""
    if definition is not None and (case is not None or definition.creates_case):
        what = definition.describe_command(case, args or {})
    what = what or act.replace("_", " ")
    return f"{what[:1].lower()}{what[1:]}"


def _hold_text(covered: Sequence[ValidatedAct], results: Mapping[str, ActResult], evidence: str,
               facts: TurnFacts) -> str:
    """"I will not submit “Berlin trip” … until you say so": a hold, acknowledged in plain words."""
    whats = [_what(a.act, results[a.id].case, results[a.id].args or a.args, facts) for a in covered]
    names = ", ".join(sorted({a.act.replace("_", " ") for a in covered}))
    return (f"I will not {' or '.join(whats)} until you say so, as you asked (“{evidence.strip()}”). "
            f"On hold: {names}.")


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
            before = said.get(a.id, {})
            changes = "; ".join(
                f"the {name.replace('_', ' ')} is {res.args.get(name, a.args.get(name))}"
                + (f", not {before[name]}" if before.get(name) not in (None, a.args.get(name)) else "")
                for name in a.corrected_fields)
            out.notices.append(Notice("corrected", f"Corrected as you said (“{a.corrected_by.strip()}”): {changes}.",
                                      act=a.act))
        if a.undo_of is not None:
            what = _what(a.act, res.case, res.args or a.args, facts)
            if res.outcome == Outcome.EXECUTED:
                text = (f"Undone as you asked (“{a.evidence.strip()}”): I reversed your last change. "
                        f"{what[:1].upper()}{what[1:]}.")
            else:
                text = f"To undo your last change as you asked (“{a.evidence.strip()}”), confirm the card: {what}."
            out.notices.append(Notice("undone", text, act=a.act))


def _retraction_text(res: ActResult, evidence: str, facts: TurnFacts) -> str:
    """"Not done, as you said (“leave it as is”): change line 2 of “Berlin trip” …": the take-back, acknowledged."""
    what = _what(res.act, res.case, res.args or {}, facts)
    return f"Not done, as you said (“{evidence.strip()}”): {what}. Nothing was changed."


_NOTICE_COPY = {
    "evidence_not_found": "I did not {act}: I could not find that request in your message.",
    "argument_not_in_evidence": "I did not {act}: a value I read is not in what you wrote.",
    "target_not_found": "I did not {act}: I could not find the {noun} you mean.",
    "item_not_found": "I did not {act}: {case} has no such {item}.",
    "case_locked": "I did not {act}: {case} is {status} and can no longer be changed.",
    "case_not_created_yet": "I did not {act}: open the {noun} first, then ask again.",
    "nothing_to_undo": "There is nothing in this conversation I can undo.",
    "undo_of_undo": "Your last change was already an undo; undoing it again would redo what you took back, so I "
                    "did not. Tell me what you want the {noun} to say instead.",
    "cannot_undo": "I cannot undo that: that change cannot be reversed, or the {noun} changed since.",
    "no_change": "I did not {act}: {case} already has those values.",
    "currency_mismatch": "I did not {act}: the amount you wrote is in another currency than {case} is kept in. "
                         "Tell me the amount in its currency.",
    "currency_not_said": "I did not {act}: the currency I read is not the one you named. Tell me the currency "
                         "again.",
    "acts_not_allowed_in_mode": "In this conversation I can look things up, but I cannot change anything.",
}


def notice_text(code: str, act: str | None, case: CaseSnapshot | None = None, *, noun: str = "case",
                item: str = "item") -> str:
    template = _NOTICE_COPY.get(code) or (_NOTICE_COPY["item_not_found"] if code == f"{item}_not_found" else
                                          "I did not {act} ({code}).")
    return template.format(act=(act or "act").replace("_", " "), code=code, noun=noun, item=item,
                           case=f"“{case.title}”" if case else f"the {noun}",
                           status=case.status if case else "closed")


def _named_elsewhere(act: ValidatedAct, definition: ActDefinition, target: str, facts: TurnFacts,
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
              for t in [_resolve(other.ref, facts.registry.acts[other.act], facts)[0]] if t}
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


def _said_key(said: grounding.Said, definition: ActDefinition) -> str:
    return f"said:{definition.case_kind}:{','.join(sorted(said.cases))}"


def _money_problem(act: ValidatedAct, definition: ActDefinition, case: CaseSnapshot | None,
                   facts: TurnFacts) -> str | None:
    """Grounding of money: an amount written in another currency than its case's (``currency_mismatch``), or a
    new case in a currency the words do not name (``currency_not_said``)."""
    if act.undo_of is not None:
        return None  # an inverse restores what a committed event held
    if definition.creates_case and definition.currency_arg and definition.currency_arg in act.args:
        field = definition.args_schema.model_fields.get(definition.currency_arg)
        default = field.default if field is not None and isinstance(field.default, str) else None
        source = act.corrected_by if definition.currency_arg in act.corrected_fields and act.corrected_by else act.evidence
        if not grounding.currency_grounded(str(act.args[definition.currency_arg]), source, default):
            return "currency_not_said"
        return None
    kind = facts.registry.case_kinds.get(definition.case_kind)
    if not definition.money_fields or case is None or kind is None or kind.currency is None:
        return None
    currency = kind.currency(case)
    if not currency:
        return None
    for name in definition.money_fields:
        if name not in act.args:
            continue
        sources = [act.corrected_by if (act.corrected_by and name in act.corrected_fields) else act.evidence]
        if act.earlier_evidence and name not in act.corrected_fields:
            sources.append(act.earlier_evidence)
        if not any(grounding.money_grounded(act.args[name], source or "", currency) for source in sources):
            return "currency_mismatch"
    return None


def _ref_key(ref: CaseRef | None, definition: ActDefinition) -> str:
    if ref is None or ref.active:
        return f"active:{definition.case_kind}"
    if ref.match:
        return f"match:{definition.case_kind}:{_norm(ref.match)}"
    return f"id:{ref.id}"


def _resolve(ref: CaseRef | None, definition: ActDefinition,
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
        needle = _norm(ref.match)
        hits = [c for c in open_of_kind if needle in _norm(c.title)]
        if not hits:
            words = [w for w in needle.split() if len(w) > 2]
            hits = [c for c in open_of_kind if words and all(w in _norm(c.title) for w in words)]
        if len(hits) == 1:
            return hits[0].id, "match", []
        return None, "", sorted(c.id for c in hits) if len(hits) > 1 else []
    active = facts.cases.get(facts.active_case or "")
    if active is not None and active.kind == kind and active.owner_id == facts.actor.user_id:
        return active.id, "active", []
    if len(open_of_kind) == 1:
        return open_of_kind[0].id, "only_open", []
    return None, "", sorted(c.id for c in open_of_kind) if len(open_of_kind) > 1 else []


def _applicable(act: ValidatedAct, definition: ActDefinition, candidates: list[str],
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


_SPACE = re.compile(r"\s+")
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "—": "-", "–": "-"})


def _norm(text: str) -> str:
    return _SPACE.sub(" ", (text or "").translate(_QUOTES)).strip().casefold()


def _occurs(evidence: str, message: str) -> bool:
    needle = _norm(evidence)
    return bool(needle) and needle in _norm(message)


numbers_in = evidence_numbers  # the engine's one reading of numbers in evidence


def _quoted_in(value: Any, evidence: str) -> bool:
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return _norm(str(value)) in _norm(evidence)
    return any(n == number for n in numbers_in(evidence))


def _evidence_problem(act: ValidatedAct, definition: ActDefinition, message: str,
                      earlier_message: str | None = None) -> str | None:
    if not _occurs(act.evidence, message):
        return "evidence_not_found"
    if act.earlier_evidence is not None and not (earlier_message and _occurs(act.earlier_evidence, earlier_message)):
        return "evidence_not_found"  # no pending question, or a quote of something the user did not write
    if act.corrected_by is not None:
        if not all(_occurs(part, message) for part in act.corrected_by.split(" / ")):
            return "evidence_not_found"
    if act.undo_of is not None:
        return None  # an inverse's values come from the committed event it reverses, not from the model
    for name in definition.quoted_fields:
        if name not in act.args:
            continue
        source = act.corrected_by if (act.corrected_by and name in act.corrected_fields) else act.evidence
        if not _quoted_in(act.args[name], source or "") and not (
                act.earlier_evidence and name not in act.corrected_fields
                and _quoted_in(act.args[name], act.earlier_evidence)):
            return "argument_not_in_evidence"
    return None


# the act id of a server-derived inverse: its journal row says it was an undo (a plan's act ids cannot take it)
UNDO_ACT_ID = SERVER_ACT_ID_PREFIX + "undo"


def _undo_act(plan: UserTurnPlan, facts: TurnFacts, out: Reduction) -> ValidatedAct | None:
    """"undo that": the inverse of the conversation's last committed direct edit, derived by the server
    from its committed event (never from the model's arguments), then reduced like any other act."""
    if plan.undo is None:
        return None
    last = facts.last_edit
    definition = facts.registry.acts.get(last["act"]) if last else None
    kind = facts.registry.case_kinds.get(definition.case_kind) if definition else None
    noun = kind.noun if kind else "case"
    if not _occurs(plan.undo.evidence, facts.message):
        out.notices.append(Notice("evidence_not_found", "I did not undo anything: I could not find that request "
                                                        "in your message."))
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
    args, error = _validate_args(facts.registry.acts[name], args)
    if error:
        out.notices.append(Notice("cannot_undo", notice_text("cannot_undo", None, case, noun=noun)))
        return None
    return ValidatedAct(UNDO_ACT_ID, name, CaseRef(id=case.id), args, plan.undo.evidence,
                        undo_of=str(last.get("event") or ""))
