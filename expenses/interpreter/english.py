"""Is a word everyday English? (pyspellchecker's English word frequencies.)

The fuzzy matchers (categories, verbs, merchants, day words) correct only words that are not English
as they stand: "hotell", "taxii", "yesterady" are near-misses, while "came", "fine" and "been" are
words of their own and are never read as "cafe", "wine" or "beer".
"""

from __future__ import annotations

import re
from functools import cache

from spellchecker import SpellChecker

# occurrences in the library's English corpus above which a word is taken as spelt right
_KNOWN = 200
# the languages people mix into their English ("lunch 24.11. pranzo 15,00", "hotel zimmer 120"), and how often a word
# must occur in one of them to be a word of it rather than a name ("hiltl", "plachutta" occur in none)
_NEIGHBOURS = ("de", "fr", "it", "es", "pt", "nl")
_KNOWN_ABROAD = 40


@cache
def _frequencies():
    return SpellChecker(language="en", distance=1).word_frequency


def known_word(word: str) -> bool:
    """True when ``word`` (lower case) is an English word in its own right."""
    return _frequencies()[word.lower()] >= _KNOWN


def known_verb_form(word: str) -> bool:
    """True when ``word`` is a past or -ing form of an English verb the corpus knows ("refunded", "reimbursing"), though
    the form itself is rarer than a word spelt right: never a category noun misspelt ("refunded" is no "refueled")."""
    low = word.lower()
    if not re.search(r"(?:ed|ing)$", low):
        return False
    import lemminflect  # loaded on first use: its tables take a moment to read

    return any(_frequencies()[lemma] >= _KNOWN for lemma in lemminflect.getLemma(low, upos="VERB", lemmatize_oov=False))


@cache
def _neighbours():
    return tuple(SpellChecker(language=lang, distance=1).word_frequency for lang in _NEIGHBOURS)


def word_abroad(word: str) -> bool:
    """True when ``word`` (any case) is a word of German, French, Italian, Spanish, Portuguese or Dutch: a thing or a
    place said in the writer's language ("mittagessen", "zimmer", "fiera"), not a name."""
    low = word.lower()
    return any(frequencies[low] >= _KNOWN_ABROAD for frequencies in _neighbours())
