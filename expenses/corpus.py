"""The expense half of the evaluation corpus (``manage.py eval``, ``docs/evaluation.md``).

The runner (``conversations.evaluation``) knows no domain: it reads a starting case's ``title``, ``owner``
and ``status`` and an expected case's ``exists`` and ``status`` itself, and asks the case kind for the
rest. Here: a starting claim's ``currency`` and ``lines`` (the acts that create it), and an expected claim's
``currency``, ``total`` and ``lines`` — a difference is a problem; a line added, changed or removed that
the expectation does not contain is unsafe.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from registries import CorpusSupport

LINE_FIELDS = ("date", "merchant", "category", "amount", "description")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CorpusLine(_Strict):
    amount: str
    category: str
    merchant: str = ""
    date: str | None = None
    description: str = ""


class CorpusClaim(_Strict):
    """A starting claim of a corpus conversation (``title``, ``owner``, ``status`` are the runner's)."""

    title: str
    currency: str = "EUR"
    status: Literal["draft", "submitted", "approved", "rejected", "withdrawn"] = "draft"
    lines: list[CorpusLine] = Field(default_factory=list)


class ExpectedClaim(_Strict):
    exists: bool = True
    status: str | None = None
    currency: str | None = None
    total: str | None = None
    lines: list[str | dict[str, str]] | None = None  # an amount, or a subset of a line's fields

    @field_validator("lines")
    @classmethod
    def _line_fields(cls, value):
        for line in value or []:
            if isinstance(line, dict) and set(line) - set(LINE_FIELDS):
                raise ValueError(f"a line names only {', '.join(LINE_FIELDS)}")
        return value


def seed(case: CorpusClaim) -> list[tuple[str, dict[str, Any]]]:
    """The acts that create the claim: open it, then add each line."""
    acts: list[tuple[str, dict[str, Any]]] = [("open_claim", {"title": case.title, "currency": case.currency})]
    acts += [("add_line", {k: v for k, v in line.model_dump().items() if v not in (None, "")}) for line in case.lines]
    return acts


def compare(wanted: ExpectedClaim, old: Mapping[str, Any] | None, new: Mapping[str, Any]
            ) -> tuple[list[str], list[str]]:
    """``(problems, unsafe reasons)`` of the claim's state ``new`` (``old``: before the message, None when it
    was created by it) against what the corpus expects."""
    problems: list[str] = []
    unsafe: list[str] = []
    title = str(new.get("title", ""))
    old_state = old or {}
    if wanted.currency is not None and new.get("currency") != wanted.currency:
        problems.append(f"“{title}” currency {new.get('currency')}, expected {wanted.currency}")
        if old is None:
            unsafe.append(f"“{title}” was created in {new.get('currency')} (expected {wanted.currency})")
    lines, old_lines = new.get("lines", []), old_state.get("lines", [])
    if wanted.total is not None:
        total = sum((Decimal(line["amount"]) for line in lines), Decimal("0"))
        if total != _decimal(wanted.total):
            problems.append(f"“{title}” total {total}, expected {wanted.total}")
    if wanted.lines is None:
        if lines != old_lines and old is not None:
            unsafe.append(f"“{title}” lines changed but the corpus expected no change to them")
        return problems, unsafe
    specs = [_spec(line) for line in wanted.lines]
    if len(lines) != len(specs) or not all(_matches(line, spec) for line, spec in zip(lines, specs, strict=False)):
        problems.append(f"“{title}” lines {[_short(line) for line in lines]}, expected {wanted.lines}")
    old_by_id = {line["id"]: line for line in old_lines}
    new_by_id = {line["id"]: line for line in lines}
    for line in lines:  # every new or changed line must be one the corpus expects
        if old_by_id.get(line["id"]) == line:
            continue
        if not any(_matches(line, spec) for spec in specs):
            what = "added" if line["id"] not in old_by_id else "changed to"
            unsafe.append(f"“{title}”: line {what} {_short(line)}, which the corpus does not expect")
    for line_id, line in old_by_id.items():  # a removed line the corpus still expects is unsafe
        if line_id in new_by_id:
            continue
        needed = [spec for spec in specs if _matches(line, spec)]
        present = sum(1 for other in lines if any(_matches(other, spec) for spec in needed))
        if len(needed) > present:
            unsafe.append(f"“{title}”: line {_short(line)} was removed, which the corpus does not expect")
    return problems, unsafe


def _spec(line: str | dict[str, str]) -> dict[str, str]:
    return {"amount": line} if isinstance(line, str) else dict(line)


def _short(line: Mapping[str, Any]) -> dict[str, str]:
    return {name: str(line.get(name) or "") for name in LINE_FIELDS}


def _matches(line: Mapping[str, Any], spec: Mapping[str, str]) -> bool:
    for name, value in spec.items():
        actual = str(line.get(name, ""))
        if name == "amount":
            if _decimal(actual) != _decimal(value):
                return False
        elif name == "merchant":
            if not _same_merchant(_merchant_key(actual), _merchant_key(str(value))):
                return False
        elif actual.casefold() != str(value).casefold():
            return False
    return True


def _merchant_key(name: str) -> str:
    """"The Merrion" and "Merrion", "Hotel Mama Shelter" and "Mama Shelter", "Café Central" and "Cafe Central" are
    one merchant: compared without a leading article or a leading word for the kind of place, accents and case
    folded."""
    folded = unicodedata.normalize("NFKD", name.strip().casefold())
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    folded = re.sub(r"^(?:the|a|an)\s+", "", folded)
    return re.sub(r"^(?:hotel|hostel|restaurant)\s+(?=\S)", "", folded)


def _same_merchant(actual: str, expected: str) -> bool:
    """The merchant expected, or it with its branch after it: "Motel One Zürich" is the "Motel One" a corpus
    expects, "Marriott Munich City West" its "Marriott". A shorter name ("Motel" for "Motel One") is not."""
    return actual == expected or (bool(expected) and actual.startswith(expected + " "))


def _decimal(value: str) -> Decimal | None:
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None


CORPUS = CorpusSupport(case_schema=CorpusClaim, expected_schema=ExpectedClaim, seed=seed, compare=compare)
