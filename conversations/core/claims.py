"""The claim guard (SPEC §18, I16): model prose may not claim an effect no committed event backs.

A model-written block that contains any act's claim phrase, when that act committed no event in
this turn, is refused whole and replaced by a notice. It is never edited.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

UNBACKED_CLAIM = "unbacked_claim_removed"
UNBACKED_CLAIM_TEXT = "A sentence of the assistant's reply was removed: it described a change that did not happen."


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    allowed: bool
    act: str | None = None
    phrase: str | None = None


@lru_cache(maxsize=512)
def _pattern(phrase: str) -> re.Pattern[str]:
    words = r"[\s\-\u2010\u2011]+".join(re.escape(w) for w in phrase.split())  # "sent-for-approval" too
    # a whole word, also inside a hyphenated compound ("submitted-and-approved" still says submitted):
    # refusing an innocent "added-value" costs a notice, letting a claim through costs the user's trust
    return re.compile(rf"(?<!\w){words}(?!\w)", re.IGNORECASE)


def as_read(text: str) -> str:
    """The text as a person reads it: compatibility forms folded (NFKC: fullwidth letters, ligatures)
    and invisible format characters (soft hyphen, zero-width space and joiners) removed, so a claim
    cannot hide from the guard behind characters the browser does not show."""
    folded = unicodedata.normalize("NFKC", text or "")
    return "".join(ch for ch in folded if unicodedata.category(ch) != "Cf")


def check_claims(text: str, claim_phrases: Mapping[str, Iterable[str]], backed_acts: Iterable[str]) -> ClaimCheck:
    """Is ``text`` free of unbacked claims? ``backed_acts``: acts with a committed event this turn."""
    backed = set(backed_acts)
    text = as_read(text)
    for act, phrases in claim_phrases.items():
        if act in backed:
            continue
        for phrase in phrases:
            if _pattern(phrase).search(text):
                return ClaimCheck(False, act, phrase)
    return ClaimCheck(True)
