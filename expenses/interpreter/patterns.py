"""Whole-word patterns for the lexicon's tables, compiled once.

The interpreter looks for hundreds of table words in every clause (merchants, currency names, verbs). Built as
f-strings on each call, they overflow ``re``'s own cache of 512 patterns, and every search compiles again: the
compiling cost more than the reading. Here a word's pattern is compiled once, and a word that is not in the text
at all is not searched for."""

from __future__ import annotations

import functools
import re


@functools.lru_cache(maxsize=8192)
def word_pattern(word: str, edge: str = r"\w") -> re.Pattern[str]:
    """``word`` standing alone: no character of the class ``edge`` (e.g. ``\\w'-``) right before or after it."""
    return re.compile(rf"(?<![{edge}]){re.escape(word)}(?![{edge}])")


def word_search(word: str, text: str, edge: str = r"\w") -> re.Match[str] | None:
    """The first place ``word`` stands alone in ``text`` (case-sensitive: lower both to ignore case)."""
    return word_pattern(word, edge).search(text) if word and word in text else None


def word_finditer(word: str, text: str, edge: str = r"\w") -> list[re.Match[str]]:
    """Every place ``word`` stands alone in ``text``."""
    return list(word_pattern(word, edge).finditer(text)) if word and word in text else []
