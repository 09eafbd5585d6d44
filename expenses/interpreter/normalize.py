"""Chat shorthand read as the words it stands for, with every position kept.

People type "rm ln 2 dup", "htl 2n 149ea", "new clm Chicago expo usd", "ln2 s/b 179". The
interpreter reads a *spelled-out* copy of the message ("remove line 2 duplicate", …); every
character of the copy remembers the span of the user's text it came from, so each evidence quote
in the plan is mapped back to the user's own words before the plan leaves the interpreter. Only
whole letter tokens are replaced (numbers are never touched), so an amount the reducer must find in
the evidence is the same number in both texts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import lexicon

_TOKEN = re.compile(r"(?<![\w/'’-])(?:(?:s/b|w/o|w/)|[A-Za-z]+(?=\d)|[A-Za-z]+(?![\w'’-]|/\w))")


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
    for m in _TOKEN.finditer(message):
        word = lexicon.CHAT_WORDS.get(m.group(0).lower())
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
