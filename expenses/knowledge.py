"""The expense policy as knowledge documents, and the keyword search ``lookup_policy`` runs.

The documents are the Markdown files in ``knowledge/``; each ``##`` section is one searchable
unit. Scoring is deliberately simple and predictable: query words (lower-cased, light plural
stemming, a few synonyms) count three times when they occur in a section's heading and once in
its body; a near-miss spelling (``hotell``) counts half, found with rapidfuzz.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from rapidfuzz import fuzz, process

MAX_SECTION_CHARS = 1500
FUZZY_CUTOFF = 88

_WORD = re.compile(r"[a-z]+|\d+")
_STOPWORDS = frozenset(
    "a an and are as at be by can do does for from how i in is it me my of on or per the to up we what "
    "when where which who why with you your policy rule rules much many claim claims claimed expense expenses "
    "spend spent get allowed".split()
)
_SYNONYMS = {
    "accommodation": "hotel", "lodging": "hotel", "room": "hotel", "overnight": "night", "nightly": "night",
    "food": "meal", "dinner": "meal", "lunch": "meal", "breakfast": "meal", "restaurant": "meal",
    "cab": "taxi", "uber": "taxi", "ride": "taxi",
    "train": "rail", "flight": "air", "plane": "air", "airfare": "air", "mileage": "car",
    "invoice": "receipt", "late": "deadline", "submit": "submission",
    "exchange": "currency", "conversion": "currency", "convert": "currency", "fx": "currency", "foreign": "currency",
    "cap": "limit", "maximum": "limit", "max": "limit", "allowance": "limit",
    "confirm": "confirmed", "confirmation": "confirmed", "large": "1000",
}


@dataclass(frozen=True, slots=True)
class Section:
    document: str  # the document's title
    source: str  # file name in knowledge/
    heading: str
    text: str
    heading_terms: frozenset[str]
    body_terms: frozenset[str]
    all_terms: tuple[str, ...] = ()  # both, for the fuzzy match (built once with the section)


def terms(text: str) -> list[str]:
    """Normalised search terms of ``text``: ``"Hotels per night?"`` → ``["hotel", "night"]``."""
    found = []
    for word in _WORD.findall(text.lower()):
        if word in _STOPWORDS or len(word) < 2:
            continue
        word = _SYNONYMS.get(word, word)
        found.append(_SYNONYMS.get(_stem(word), _stem(word)))
    return found


@cache
def policy_sections() -> tuple[Section, ...]:
    """Every section of every knowledge document, in file and document order."""
    folder = resources.files("expenses").joinpath("knowledge")
    sections: list[Section] = []
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if entry.name.endswith(".md"):
            sections.extend(_split(entry.name, entry.read_text("utf-8")))
    return tuple(sections)


def search_policy(query: str, limit: int = 3) -> list[dict[str, object]]:
    """The best matching sections for ``query``, best first; empty when nothing matches."""
    wanted = list(dict.fromkeys(terms(query)))
    if not wanted:
        return []
    scored = [(_score(section, wanted), index, section) for index, section in enumerate(policy_sections())]
    hits = sorted((item for item in scored if item[0] > 0), key=lambda item: (-item[0], item[1]))[:limit]
    return [{"document": section.document, "section": section.heading, "source": section.source,
             "score": round(score, 2), "text": section.text} for score, _, section in hits]


def _score(section: Section, wanted: list[str]) -> float:
    total = 0.0
    for term in wanted:
        if term in section.heading_terms:
            total += 3
        elif term in section.body_terms:
            total += 1
        elif process.extractOne(term, section.all_terms, scorer=fuzz.ratio,
                                score_cutoff=FUZZY_CUTOFF):
            total += 0.5
    return total / len(wanted)


def _split(source: str, markdown: str) -> list[Section]:
    document, heading, body = source, "", []
    sections: list[Section] = []

    def flush() -> None:
        text = " ".join(" ".join(body).split()).replace("**", "")
        if heading and text:
            heading_terms, body_terms = frozenset(terms(heading)), frozenset(terms(text))
            sections.append(Section(document=document, source=source, heading=heading,
                                    text=text[:MAX_SECTION_CHARS], heading_terms=heading_terms,
                                    body_terms=body_terms, all_terms=tuple(body_terms | heading_terms)))

    for line in markdown.splitlines():
        if line.startswith("## "):
            flush()
            heading, body = line[3:].strip(), []
        elif line.startswith("# "):
            document = line[2:].strip()
        else:
            body.append(line)
    flush()
    return sections


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us")):
        return word[:-1]
    return word
