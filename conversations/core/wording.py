"""What the TurnReducer says (SPEC §13): the text of each notice it gives, in the case kind's words. Pure.

The reducer decides; this module only words what it decided: a refusal (by its stable code), a selection
that waits on a card, a hold, a retraction, a correction and an undo said back to the user. The nouns and the
descriptions of commands come from the case kind and the act (``noun``, ``item_noun``, ``describe_command``),
never from a domain word here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from registries.definitions import CaseSnapshot

from .plan import CaseRef
from .reduction import ActResult, CaseTarget, Outcome, TurnFacts, ValidatedAct

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
    "no_change": "Nothing changed: that {item} of {case} already has those values.",
    "currency_mismatch": "I did not {act}: the amount you wrote is in another currency than {case} is kept in. "
                         "Tell me the amount in its currency.",
    "currency_not_said": "I did not {act}: the currency I read is not the one you named. Tell me the currency "
                         "again.",
    "acts_not_allowed_in_mode": "In this conversation I can look things up, but I cannot change anything.",
}


def notice_text(code: str, act: str | None, case: CaseSnapshot | None = None, *, noun: str = "case",
                item: str = "item") -> str:
    """A notice's text by its code; an unknown code is still said ("I did not <act> (<code>).")."""
    template = _NOTICE_COPY.get(code) or (_NOTICE_COPY["item_not_found"] if code == f"{item}_not_found" else
                                          "I did not {act} ({code}).")
    return template.format(act=(act or "act").replace("_", " "), code=code, noun=noun, item=item,
                           case=f"“{case.title}”" if case else f"the {noun}",
                           status=case.status if case else "closed")


def refusal_text(code: str, act: str, case: CaseSnapshot | None, facts: TurnFacts, *,
                 reference: CaseRef | None = None) -> str:
    """Why an act was refused, in the words of its case kind."""
    definition = facts.registry.acts.get(act)
    kind = facts.registry.case_kinds.get(definition.case_kind) if definition else None
    noun = kind.noun if kind else "case"
    if code == "currency_mismatch" and case is not None and kind is not None and kind.currency is not None:
        currency = kind.currency(case)
        return (f"I did not {act.replace('_', ' ')}: the amount you wrote is not in {currency}, the currency "
                f"“{case.title}” is kept in, and I do not change money into {currency} on my own. Tell me the "
                f"amount in {currency}.")
    if code == "target_not_found" and reference is not None and (reference.match or reference.id):
        # the user named a case: say which, and that nothing happened to any other (I8)
        named = f"called “{reference.match}”" if reference.match else f"with the id {reference.id}"
        return (f"I could not find a {noun} of yours {named}, so nothing was changed. Which of your {noun}s do you "
                f"mean?")
    return notice_text(code, act, case, noun=noun, item=kind.item_noun if kind else "item")


def noun_of(kind: str, facts: TurnFacts) -> str:
    """What the user calls a case of ``kind`` ("case" for a kind no longer on offer)."""
    definition = facts.registry.case_kinds.get(kind)
    return definition.noun if definition else "case"


def selection_text(noun: str, words: str) -> str:
    """A selection card's notice: the words that named another case, when those were why it was drawn."""
    if words:
        return f"You mentioned “{words}”, so I did not guess which {noun} you mean. Choose one on the card."
    return f"Which {noun} do you mean? Choose one on the card."


UNDO_NOT_FOUND = "I did not undo anything: I could not find that request in your message."


def act_text(act: str, case_id: CaseTarget | None, args: Mapping[str, Any], facts: TurnFacts) -> str:
    """The act in the domain's words ("submit “Berlin trip” (3 lines, 302.50 EUR) for approval")."""
    definition = facts.registry.acts.get(act)
    case = facts.cases.get(case_id) if isinstance(case_id, str) else None  # a case this plan opens has none yet
    what = ""
    if definition is not None and (case is not None or definition.creates_case):
        what = definition.describe_command(case, args or {})
    what = what or act.replace("_", " ")
    return f"{what[:1].lower()}{what[1:]}"


def hold_text(covered: Sequence[ValidatedAct], results: Mapping[str, ActResult], evidence: str,
              facts: TurnFacts) -> str:
    """"I will not submit “Berlin trip” … until you say so": a hold, acknowledged in plain words."""
    whats = [act_text(a.act, results[a.id].case, results[a.id].args or a.args, facts) for a in covered]
    names = ", ".join(sorted({a.act.replace("_", " ") for a in covered}))
    return (f"I will not {' or '.join(whats)} until you say so, as you asked (“{evidence.strip()}”). "
            f"On hold: {names}.")


def unsure_text(unplaced: Sequence[str]) -> str:
    """Acts read with words left over, waiting on a card: what was not placed, and what the person can do."""
    said = ", ".join(f"“{' '.join(words.split())[:120]}”" for words in unplaced)
    return (f"I am not sure I read {said} right, so nothing is done yet: if the card shows what you meant, confirm "
            f"it (you can change its values first); if not, decline it and tell me again.")


def retraction_text(res: ActResult, evidence: str, facts: TurnFacts) -> str:
    """"Not done, as you said (“leave it as is”): change line 2 of “Berlin trip” …": the take-back, acknowledged."""
    what = act_text(res.act, res.case, res.args or {}, facts)
    return f"Not done, as you said (“{evidence.strip()}”): {what}. Nothing was changed."


def correction_text(act: ValidatedAct, res: ActResult, before: Mapping[str, Any]) -> str:
    """A correction said back: what the user changed their mind to, and from what (``before``: the plan's values)."""
    changes = "; ".join(
        f"the {name.replace('_', ' ')} is {res.args.get(name, act.args.get(name))}"
        + (f", not {before[name]}" if before.get(name) not in (None, act.args.get(name)) else "")
        for name in act.corrected_fields)
    return f"Corrected as you said (“{(act.corrected_by or '').strip()}”): {changes}."


def undo_text(act: ValidatedAct, res: ActResult, facts: TurnFacts) -> str:
    """An undo said back: done now, or what the card to confirm will do."""
    what = act_text(act.act, res.case, res.args or act.args, facts)
    if res.outcome == Outcome.EXECUTED:
        return (f"Undone as you asked (“{act.evidence.strip()}”): I reversed your last change. "
                f"{what[:1].upper()}{what[1:]}.")
    return f"To undo your last change as you asked (“{act.evidence.strip()}”), confirm the card: {what}."
