"""Stage 2 of the TurnReducer (SPEC §13.2), and the grounding of money: are an act's words the user's, and do
they say what the act does? Pure.

- an act's evidence (and a correction's, and the quote of the message a pending question is about) must occur
  in the user's own words; an argument declared *quoted* must occur in them too, numbers read as numbers
  (``registries.numbers`` is the engine's one reading of them);
- money (``core/grounding.py``): an amount written in another currency than its case's, or a new case in a
  currency the words do not name, does not run.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from registries.definitions import ActDefinition, CaseSnapshot
from registries.numbers import evidence_numbers

from . import grounding
from .reduction import TurnFacts, ValidatedAct

_SPACE = re.compile(r"\s+")
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "—": "-", "–": "-"})


def norm(text: str) -> str:
    """How two quotes are compared: white space folded, typographic quotes and dashes made plain, case folded."""
    return _SPACE.sub(" ", (text or "").translate(_QUOTES)).strip().casefold()


def occurs(evidence: str, message: str) -> bool:
    """Does the quote ``evidence`` (not empty) stand in ``message``?"""
    needle = norm(evidence)
    return bool(needle) and needle in norm(message)


numbers_in = evidence_numbers  # the engine's one reading of numbers in evidence


def _quoted_in(value: Any, evidence: str) -> bool:
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return norm(str(value)) in norm(evidence)
    return any(n == number for n in numbers_in(evidence))


def evidence_problem(act: ValidatedAct, definition: ActDefinition, message: str,
                     earlier_message: str | None = None) -> str | None:
    """``evidence_not_found`` or ``argument_not_in_evidence`` when the act's words are not the user's, else None."""
    if not occurs(act.evidence, message):
        return "evidence_not_found"
    if act.earlier_evidence is not None and not (earlier_message and occurs(act.earlier_evidence, earlier_message)):
        return "evidence_not_found"  # no pending question, or a quote of something the user did not write
    if act.corrected_by is not None:
        if not all(occurs(part, message) for part in act.corrected_by.split(" / ")):
            return "evidence_not_found"
    if act.undo_of is not None:
        return None  # an inverse's values come from the committed event it reverses, not from the model
    for name in definition.quoted_fields:
        if name not in act.args:
            continue
        if not any(_quoted_in(act.args[name], source) for source in _sources(act, name)):
            return "argument_not_in_evidence"
    return None


def _source(act: ValidatedAct, name: str) -> str:
    """The words the argument ``name`` was read from: the correction's when it corrected it, else the act's."""
    return (act.corrected_by if (act.corrected_by and name in act.corrected_fields) else act.evidence) or ""


def _sources(act: ValidatedAct, name: str) -> list[str]:
    """Where the argument ``name`` may stand: its own words, and the earlier message a pending question is about
    (unless a correction gave the value)."""
    if act.earlier_evidence and name not in act.corrected_fields:
        return [_source(act, name), act.earlier_evidence]
    return [_source(act, name)]


def money_problem(act: ValidatedAct, definition: ActDefinition, case: CaseSnapshot | None,
                  facts: TurnFacts) -> str | None:
    """Grounding of money: an amount written in another currency than its case's (``currency_mismatch``), or a
    new case in a currency the words do not name (``currency_not_said``)."""
    if act.undo_of is not None:
        return None  # an inverse restores what a committed event held
    if definition.creates_case and definition.currency_arg and definition.currency_arg in act.args:
        field = definition.args_schema.model_fields.get(definition.currency_arg)
        default = field.default if field is not None and isinstance(field.default, str) else None
        if not grounding.currency_grounded(str(act.args[definition.currency_arg]), _source(act, definition.currency_arg),
                                           default):
            return "currency_not_said"
        return None
    kind = facts.registry.case_kinds.get(definition.case_kind)
    if not definition.money_fields or case is None or kind is None or kind.currency is None:
        return None
    currency = kind.currency(case)
    if not currency:
        return None
    paid_arg = definition.money_currency_arg
    paid_in = act.args.get(paid_arg) if paid_arg else None
    if paid_arg and paid_in and str(paid_in) != currency:  # "1240 DKK" on a EUR claim: said in DKK, converted
        currency = str(paid_in)
        if not any(grounding.currency_grounded(currency, source, None) for source in _sources(act, paid_arg)):
            return "currency_not_said"
    for name in definition.money_fields:
        if name not in act.args:
            continue
        if not any(grounding.money_grounded(act.args[name], source, currency) for source in _sources(act, name)):
            return "currency_mismatch"
    return None
