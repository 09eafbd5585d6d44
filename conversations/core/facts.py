"""The fact check of the claim guard (SPEC §18, issue: answers that match the facts).

An answer about a case must agree with the case as it stands after the turn's commands: a count of
lines, a total, or "no lines" that contradicts the projection is not shown. The whole answer is
replaced by the case's own summary (server copy from the case kind), and the trace says so. Prose
that names no case, or states nothing checkable, passes unchanged.

Pure: plain data in (the answer text and, per case, its title, item count, total and the words its
items are counted with: ``CaseKindDefinition.facts``), plain data out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from registries.numbers import evidence_numbers


@dataclass(frozen=True, slots=True)
class CaseFacts:
    id: str
    title: str
    line_count: int  # how many items the case holds
    total: str  # decimal string; "" when the kind keeps no total
    summary: str  # the case kind's one-line summary: what replaces a contradicted answer
    item_words: tuple[str, ...] = ()  # the kind's words for its items ("segment", "segments"), beside the engine's


@dataclass(frozen=True, slots=True)
class FactVerdict:
    text: str  # the answer as it may be shown
    corrected: tuple[str, ...] = ()  # what was contradicted, for the trace ("“Berlin trip”: total 302.50 ≠ 312.50")


_ITEM_WORDS = ("item", "items", "line", "lines", "entry", "entries")  # "line": a line item of any record


@lru_cache(maxsize=64)
def _counting(words: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """"3 items" and "has no items" in the engine's words and the kind's."""
    nouns = "|".join(re.escape(w) for w in sorted({*_ITEM_WORDS, *words}, key=len, reverse=True))
    count = re.compile(rf"\b(\d{{1,4}})\s+(?:{nouns})\b", re.IGNORECASE)
    none = re.compile(rf"\b(?:has|have|with)\s+no\s+(?:other\s+)?(?:{nouns})\b(?!\s*#?\d)|\bis\s+empty\b",
                      re.IGNORECASE)
    return count, none


_TOTAL = re.compile(r"\b(?:comes?\s+to|totals?|totalling|totaling|total\s+(?:is|of)|sum\s+(?:is|of)|adds?\s+up\s+to)"
                    r"\s*:?\s*(?:[A-Z]{3}\s*)?([€$£¥]?\s?\d[\d.,\s]*\d|\d)", re.IGNORECASE)
_SENTENCE = re.compile(r"[^.;!?\n]+(?:\.(?=\d)[^.;!?\n]*)*")


def check_facts(text: str, cases: Sequence[CaseFacts]) -> FactVerdict:
    """``text`` unchanged when every checkable statement about a named case holds, else the cases' summaries."""
    problems: list[str] = []
    named = [c for c in cases if c.title and _names(text, c.title)]
    for sentence in _SENTENCE.findall(text):
        about = [c for c in named if _names(sentence, c.title)]
        if len(about) != 1:
            continue  # a sentence about no case or several: nothing to pin its figures on
        case = about[0]
        count, none = _counting(case.item_words)
        for m in count.finditer(sentence):
            if int(m.group(1)) != case.line_count and _about_case(sentence, case.title, m.start()):
                problems.append(f"“{case.title}”: {m.group(0)} stated, it has {case.line_count}")
        if none.search(sentence) and case.line_count:
            problems.append(f"“{case.title}”: none stated, it has {case.line_count}")
        for m in _TOTAL.finditer(sentence) if case.total else ():
            if not _about_case(sentence, case.title, m.start()):
                continue  # only "“Berlin trip” comes to …": a total of one category or day is not the case's
            stated = _number(m.group(1))
            if stated is not None and stated != _decimal(case.total):
                problems.append(f"“{case.title}”: total {m.group(1).strip()} stated, it is {case.total}")
    if not problems:
        return FactVerdict(text)
    summaries = " ".join(f"{c.summary}." for c in named)
    return FactVerdict(f"As it stands now: {summaries}", tuple(problems))


def _names(text: str, title: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(title.casefold())}(?!\w)", text.casefold()) is not None


def _about_case(sentence: str, title: str, at: int) -> bool:
    """Does the figure at ``at`` speak of the whole case: its title just before it, with no other figure,
    bracket or narrowing word ("hotel", "on", "for") between ("“Berlin trip” comes to 302.50 EUR over 3 lines")?"""
    before = sentence[:at]
    end = max((m.end() for m in re.finditer(re.escape(title.casefold()), before.casefold())), default=-1)
    if end < 0:
        return False
    between = before[end:]
    rest = re.sub(r"\b(?:comes?\s+to|has|have|holds?|with|is|over|in\s+total|total|of)\b|[€$£¥]?\d[\d.,]*(?:\s?[A-Z]{3})?",
                  " ", between, flags=re.IGNORECASE)
    return len(between) <= 40 and re.fullmatch(r"[\s”\"’'“,:;–—-]*", rest) is not None


def _number(raw: str) -> Decimal | None:
    numbers = evidence_numbers(re.sub(r"[€$£¥\s]", "", raw))
    return numbers[0] if numbers else None


def _decimal(raw: str) -> Decimal | None:
    try:
        return Decimal(raw)
    except InvalidOperation:
        return None
