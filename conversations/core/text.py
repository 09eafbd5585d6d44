"""Text that no database stores alike, judged in one place for every way text comes in.

The HTTP API (bodies, path and query values), the socket's frames and the model answer parser all
ask this module, so the same text is refused the same way wherever it arrives:

- a NUL (``U+0000``): PostgreSQL refuses it in any text column, SQLite keeps it, so a value would
  round-trip on one database and crash a request on the other;
- a lone UTF-16 surrogate (``U+D800``-``U+DFFF``, e.g. JSON ``"\\ud800"``): no UTF-8 encoding
  exists, so neither database (nor a log line, nor a socket frame) can carry it.

Those are all the code points a Python ``str`` can hold that a UTF-8 database cannot store; every
other code point (controls, private use, non-characters) is stored as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Annotated, Any

from pydantic import AfterValidator

_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def unstorable_reason(text: str) -> str | None:
    """Why ``text`` cannot be stored, or None when it can."""
    found = _UNSTORABLE.search(text)
    if found is None:
        return None
    if found.group() == "\x00":
        return "contains a NUL character (\\u0000)"
    return "contains a lone surrogate (not valid Unicode text)"


def unstorable_parts(value: Any, loc: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """Every string in ``value`` (dict keys and values, list items, nested) that cannot be stored."""
    if isinstance(value, str):
        reason = unstorable_reason(value)
        if reason:
            yield loc, reason
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from unstorable_parts(key, (*loc, "(key)"))
            yield from unstorable_parts(item, (*loc, str(key)))
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from unstorable_parts(item, (*loc, i))


def storable(text: str) -> str:
    """``text`` unchanged, or ``ValueError`` naming what cannot be stored (a pydantic validator)."""
    reason = unstorable_reason(text)
    if reason:
        raise ValueError(reason)
    return text


# a ``str`` field that refuses unstorable text (422 ``invalid_request`` over HTTP, an error event on the socket)
StorableStr = Annotated[str, AfterValidator(storable)]
