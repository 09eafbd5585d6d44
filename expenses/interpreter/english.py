"""Is a word everyday English? (pyspellchecker's English word frequencies.)

The fuzzy matchers (categories, verbs, merchants, day words) correct only words that are not English
as they stand: "hotell", "taxii", "yesterady" are near-misses, while "came", "fine" and "been" are
words of their own and are never read as "cafe", "wine" or "beer".
"""

from __future__ import annotations

from functools import cache

from spellchecker import SpellChecker

# occurrences in the library's English corpus above which a word is taken as spelt right
_KNOWN = 200


@cache
def _frequencies():
    return SpellChecker(language="en", distance=1).word_frequency


def known_word(word: str) -> bool:
    """True when ``word`` (lower case) is an English word in its own right."""
    return _frequencies()[word.lower()] >= _KNOWN
