"""Helpers for a domain's argument schemas and handlers (public API): what every domain's acts need the same way.

Pure: no Django. ``clean_text`` and ``iso_date`` are pydantic ``BeforeValidator`` functions; ``parse_args``
re-validates a command's arguments inside a handler, refusing the command when they no longer fit.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

from pydantic import BaseModel, ValidationError

from .definitions import CommandRefused

_SPACES = re.compile(r"\s+")


def clean_text(value: object) -> object:
    """Drop control and invisible format characters, collapse whitespace, strip the ends."""
    if not isinstance(value, str):
        return value
    # (printable text has no control or format character: the character walk only for text that may)
    visible = value if value.isprintable() else "".join(
        ch for ch in value if unicodedata.category(ch) not in ("Cc", "Cf") or ch in "\t\n")
    return _SPACES.sub(" ", visible).strip()


def iso_date(value: object) -> object:
    """``date`` or an ISO string → ``"YYYY-MM-DD"``; anything else is left for the type to refuse."""
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, str):
        text = value.strip()
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            raise ValueError("a date is written YYYY-MM-DD, e.g. 2026-12-01")
        return date.fromisoformat(text).isoformat()
    return value


def parse_args[M: BaseModel](schema: type[M], args: Mapping[str, Any], drop: Iterable[str] = ()) -> M:
    """Re-validate the arguments a handler relies on (``drop``: keys the runtime added, such as a resolved
    item id); a mismatch refuses the command (``invalid_arguments``)."""
    skipped = set(drop)
    try:
        return schema.model_validate({k: v for k, v in args.items() if k not in skipped})
    except ValidationError as exc:
        raise CommandRefused("invalid_arguments", str(exc)) from exc
