"""Money as decimal strings (CONTRACT §1): parsing arguments, summing lines, formatting copy.

Amounts never pass through floats. A number a model sends is read through its shortest ``repr``;
anything with more than two decimals is refused rather than rounded, because rounding a sum the
user said would be a guess.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal

from babel.numbers import list_currencies

CENT = Decimal("0.01")
MAX_AMOUNT = Decimal("1000000")  # exclusive

_PLAIN_DECIMAL = re.compile(r"[+-]?\d{1,12}(?:\.\d{1,12})?")
_ISO_CURRENCIES = frozenset(list_currencies())


def parse_amount(value: object) -> Decimal:
    """A positive amount below one million with at most two decimals; ``ValueError`` otherwise."""
    number = _to_decimal(value)
    if number <= 0:
        raise ValueError("an amount must be more than zero")
    if number >= MAX_AMOUNT:
        raise ValueError("an amount must be less than 1,000,000")
    if number != number.quantize(CENT):
        raise ValueError("an amount has at most two decimal places")
    return number.quantize(CENT)


def normalise_amount(value: object) -> str:
    """The canonical decimal string of an amount: ``120`` → ``"120.00"``."""
    return str(parse_amount(value))


def sum_amounts(amounts: Iterable[str | Decimal]) -> Decimal:
    return sum((Decimal(a) for a in amounts), Decimal("0")).quantize(CENT)


def format_money(amount: str | Decimal, currency: str) -> str:
    """Server copy for an amount: ``"180.00 EUR"``."""
    return f"{Decimal(amount).quantize(CENT)} {currency}"


def is_iso_currency(code: str) -> bool:
    """True for an ISO 4217 code babel knows (``EUR``), false for ``XYZ`` or ``eur``."""
    return code in _ISO_CURRENCIES


def _to_decimal(value: object) -> Decimal:
    if isinstance(value, bool):
        raise ValueError("an amount is a number, not true/false")
    if isinstance(value, Decimal):
        number = value
    elif isinstance(value, int):
        number = Decimal(value)
    elif isinstance(value, float):
        number = Decimal(repr(value))
    elif isinstance(value, str):
        text = value.strip()
        if not _PLAIN_DECIMAL.fullmatch(text):
            raise ValueError("an amount is a plain decimal number with a dot, such as 120 or 42.50")
        number = Decimal(text)
    else:
        raise ValueError("an amount is a decimal string such as \"42.50\"")
    if not number.is_finite():
        raise ValueError("an amount must be a finite number")
    return number

