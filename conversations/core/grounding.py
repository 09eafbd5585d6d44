"""Grounding (SPEC §13, between evidence and targets): is each act grounded in what the user said?

The reducer cannot know what a sentence means, but it can check that an act agrees with the things the
user's words name, whatever provider proposed it (defense in depth against a model's slip and a local
interpreter's guess):

- **cases**: when the words name one of the user's cases ("frnkfurt", "Nürnberg", "the team offsite"),
  an act on a case they do not name does not run; a selection card asks (I8). How a case is named is the
  case kind's (``CaseKindDefinition.mentions``: its distinctive title words and their other spellings);
  matching is accent- and case-insensitive and tolerates a typo (``rapidfuzz``'s Damerau-Levenshtein);
- **money**: an amount written in another currency than the one its case is kept in never runs as if it were
  that currency; a case opened in a currency the words do not name (or name otherwise) does not open;
- **asked and requested**: an act whose words the plan also answers as a question ("whats the total on the
  lisbon one" read as opening a claim) waits for a yes/no card.

Pure: plain data in, plain data out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from rapidfuzz.distance import DamerauLevenshtein
from unidecode import unidecode

from registries.currencies import amount_in_currency, currency_meant, currency_mentions, english_frequency
from registries.definitions import CaseSnapshot

_WORD = re.compile(r"[^\W_][\w'’-]*", re.UNICODE)
FUZZY_MIN_LENGTH = 5  # a misspelling is tolerated in words this long or longer ("frnkfurt" for "Frankfurt")


def fold(text: str) -> str:
    """``Nürnberg`` → ``nurnberg``, ``Zürich`` → ``zurich``: how two spellings of a name are compared."""
    return unidecode(text or "").casefold().replace("’", "'").strip("'-")


@dataclass(frozen=True, slots=True)
class Said:
    """The user's words that name a case, and the cases they name."""

    text: str
    cases: tuple[str, ...]


_TERMS: dict[tuple[int, str, str], list[tuple[str, ...]]] = {}


def _terms(case: CaseSnapshot, mentions: Callable[[CaseSnapshot], Sequence[str]]) -> list[tuple[str, ...]]:
    """Each way of naming the case, as a sequence of folded words (kept per case and title: a bounded memo)."""
    key = (id(mentions), case.id, case.title)
    if key not in _TERMS:
        if len(_TERMS) > 4096:
            _TERMS.clear()
        _TERMS[key] = _fold_terms(case, mentions)
    return _TERMS[key]


def _fold_terms(case: CaseSnapshot, mentions: Callable[[CaseSnapshot], Sequence[str]]) -> list[tuple[str, ...]]:
    out = []
    for term in mentions(case):
        words = tuple(fold(w) for w in _WORD.findall(term))
        if words and all(words):
            out.append(words)
    return out


def _same_word(said: str, term: str) -> bool:
    """One word, or a typo of it: the same first letter and one edit (a letter left out, added, changed or two
    swapped: "frnkfurt", "lisbn", "dubiln"), two in words of eight letters or more."""
    if said == term:
        return True
    if len(term) < FUZZY_MIN_LENGTH or len(said) < FUZZY_MIN_LENGTH - 1 or said[:1] != term[:1]:
        return False
    return DamerauLevenshtein.distance(said, term) <= (1 if len(term) < 8 else 2)


def cases_named(text: str, cases: Iterable[CaseSnapshot],
                mentions: Callable[[CaseSnapshot], Sequence[str]] | Mapping[str, Callable[[CaseSnapshot], Sequence[str]]]
                ) -> Said | None:
    """The cases ``text`` names, by their kind's ways of naming them; None when it names none. A typo is tolerated
    against the title's own words only, and never in an everyday word ("room" is not "Rome"); other spellings
    ("Nürnberg") are matched as written. A word several cases share ("Selcard" in "Selcard Oslo", "Selcard Paris")
    names them only when nothing names one of them alone: "submit Selcard Paris" names the Paris case."""
    # ("milan's done, submit it" names Milan: a possessive is the name's)
    words = [(m.group(0), fold(re.sub(r"['’]s$", "", m.group(0)))) for m in _WORD.finditer(text or "")]
    exact: dict[str, list[tuple[str, tuple[str, ...]]]] = {}  # first word of a way of naming -> (case, its words)
    fuzzy: list[tuple[str, str]] = []  # (case, a word of its title): a typo is tolerated only against these
    for case in cases:
        naming = mentions.get(case.kind) if isinstance(mentions, Mapping) else mentions
        if naming is None:
            continue
        titled = {fold(w) for w in _WORD.findall(case.title or "")}
        for term in _terms(case, naming):
            exact.setdefault(term[0], []).append((case.id, term))
            if len(term) == 1 and term[0] in titled and len(term[0]) >= FUZZY_MIN_LENGTH:
                fuzzy.append((case.id, term[0]))
    at: dict[int, set[str]] = {}  # word position -> the cases a way of naming starting there names
    quotes: dict[str, dict[int, str]] = {}
    for i, (_raw, word) in enumerate(words):
        found = [(cid, len(term)) for cid, term in exact.get(word, ())
                 if tuple(w for _, w in words[i:i + len(term)]) == term]
        if not found and len(word) >= FUZZY_MIN_LENGTH - 1 and not _everyday(word):
            found = [(cid, 1) for cid, title_word in fuzzy if _same_word(word, title_word)]
        for cid, n in found:
            at.setdefault(i, set()).add(cid)
            quotes.setdefault(cid, {})[i] = " ".join(w[0] for w in words[i:i + n])
    if not at:
        return None
    alone = {next(iter(ids)) for ids in at.values() if len(ids) == 1}
    named = [c for c in dict.fromkeys(cid for i in sorted(at) for cid in sorted(at[i])) if not alone or c in alone]
    said = {q: None for cid in named for _i, q in sorted(quotes[cid].items())}
    return Said(", ".join(said), tuple(named))


def _everyday(word: str) -> bool:
    """An everyday English word ("room", "line", "port", "main"): a typo of a name is never read into it."""
    return english_frequency(word) > 1e-6


def money_grounded(value: object, source: str, currency: str) -> bool:
    """Is the amount ``value`` stated in ``source`` (the user's words) as money of ``currency``?"""
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return True  # not a number: the schema and the evidence check judge it
    return amount_in_currency(source, number, currency)


def currency_grounded(code: str, source: str, default: str | None) -> bool:
    """Is a case's currency ``code`` what the words name? The default needs no words, unless they name another
    currency ("open it in pounds" opened in EUR); any other needs a mention that means it — alone ("CHF") or as its
    own country says it ("kronor" is Swedish): "in dollars" or "in kr" names no one currency."""
    mentions = currency_mentions(source)
    if not mentions:
        return code == default
    return any(code in m.codes and (len(m.codes) == 1 or currency_meant(m) == code) for m in mentions)


_SPACE = re.compile(r"\s+")


def _span(quote: str, message: str) -> tuple[int, int] | None:
    needle = _SPACE.sub(" ", quote or "").strip().casefold()
    hay = _SPACE.sub(" ", message or "").casefold()
    if not needle:
        return None
    at = hay.find(needle)
    return (at, at + len(needle)) if at >= 0 else None


def overlaps_question(evidence: str, questions: Sequence[str], message: str) -> bool:
    """Do an act's words overlap words the plan answers as a question (both quoted from ``message``)?"""
    act = _span(evidence, message)
    if act is None:
        return False
    for question in questions:
        asked = _span(question, message)
        if asked is not None and asked[0] < act[1] and act[0] < asked[1] and _question_like(question):
            return True
    return False


_QUESTION = re.compile(r"\?|\b(?:what|whats|what's|how|which|when|why|who|whom|whose|where|is|are|am|does|do|did|"
                       r"can|could|may|should|would|will|shall)\b", re.IGNORECASE)


def _question_like(text: str) -> bool:
    return bool(_QUESTION.search(text or ""))
