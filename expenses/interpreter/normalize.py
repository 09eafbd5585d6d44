"""Chat shorthand read as the words it stands for, with every position kept.

People type "rm ln 2 dup", "htl 2n 149ea", "new clm Chicago expo usd", "ln2 s/b 179". The
interpreter reads a *spelled-out* copy of the message ("remove line 2 duplicate", …); every
character of the copy remembers the span of the user's text it came from, so each evidence quote
in the plan is mapped back to the user's own words before the plan leaves the interpreter. Only
whole letter tokens are replaced (numbers are never touched), so an amount the reducer must find in
the evidence is the same number in both texts.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from . import lexicon

_TOKEN = re.compile(r"(?<![\w/'’-])(?:(?:s/b|w/o|w/)|[A-Za-z]+(?=\d)|[^\W\d_]+(?![\w'’-]|/\w))")

_ENGLISH_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ENGLISH_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                   "november", "december")
# the languages whose days and months people write among their English ("lunedì: taxi 18,50", "Vy train tirsdag",
# "kolacja środa", "am 3. Dezember")
_CALENDAR_LOCALES = ("de", "fr", "it", "es", "nl", "pl", "sv", "nb", "da", "cs")


@functools.cache
def _pieces() -> re.Pattern[str]:
    """The chat words' tokens, and before them the phrases of several words ("nota spese", "ta bort")."""
    phrases = sorted((p for p in (*lexicon.CHAT_PHRASES, *lexicon.CHAT_WORDS) if re.search(r"[\s'-]", p)), key=len,
                     reverse=True)
    return re.compile(rf"(?<![\w/'’-])(?:{'|'.join(r'\s+'.join(map(re.escape, p.split())) for p in phrases)})(?![\w'’-])|"
                      + _TOKEN.pattern, re.IGNORECASE)


@functools.cache
def calendar_abroad() -> dict[str, str]:
    """Day and month names of other languages (Babel's CLDR data, wide forms, with and without accents), each as the
    English name it stands for; never a word that is English too ("mars", "mayo")."""
    from babel.dates import get_day_names, get_month_names
    from unidecode import unidecode

    from .english import known_word

    names: dict[str, str] = {}
    for locale in _CALENDAR_LOCALES:
        for index, name in get_day_names("wide", locale=locale).items():
            for form in {name.lower(), unidecode(name).lower()}:
                names.setdefault(form, _ENGLISH_DAYS[index])
        for context in ("format", "stand-alone"):
            for number, name in get_month_names("wide", context=context, locale=locale).items():
                for form in {name.lower(), unidecode(name).lower()}:
                    names.setdefault(form, _ENGLISH_MONTHS[number - 1])
    return {form: english for form, english in names.items()
            if form != english and not known_word(form) and re.fullmatch(r"[^\W\d_]+", form) and form not in _NAMES_TOO}


_NAMES_TOO = frozenset({"maj", "maja"})  # May in Polish, and a name ("for Maja: lunch 14")


@dataclass(frozen=True)
class Spelled:
    """The spelled-out text and, for each of its characters, the span of the original it stands for."""

    original: str
    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        if start >= end or not self.text:
            return start, end
        return self.starts[start], self.ends[end - 1]

    def original_quote(self, quote: str) -> str:
        """The user's own words for a quote of the spelled-out text (unchanged when it is not one)."""
        if self.text == self.original:
            return quote
        at = self.text.find(quote)
        if at < 0:
            return quote
        start, end = self.original_span(at, at + len(quote))
        return self.original[start:end]


def spell_out(message: str) -> Spelled:
    """``message`` with the shorthand of ``lexicon.CHAT_WORDS`` replaced by the words it stands for."""
    parts: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    cursor = 0
    for m in _pieces().finditer(message):
        said = m.group(0).lower()
        word = lexicon.CHAT_PHRASES.get(said) or lexicon.CHAT_WORDS.get(said) or calendar_abroad().get(said)
        if word is None:
            continue
        for i in range(cursor, m.start()):
            parts.append(message[i])
            starts.append(i)
            ends.append(i + 1)
        after_digit = m.end() < len(message) and message[m.end()].isdigit()
        replacement = word + (" " if after_digit else "")  # "ln2" → "line 2"
        parts.append(replacement)
        starts.extend([m.start()] * len(replacement))
        ends.extend([m.end()] * len(replacement))
        cursor = m.end()
    for i in range(cursor, len(message)):
        parts.append(message[i])
        starts.append(i)
        ends.append(i + 1)
    return Spelled(message, "".join(parts), tuple(starts), tuple(ends))
