"""Reference exchange rates (EUR base), shared by the amount policy and the ``exchange_rate`` tool.

The table ships with the app (``data/exchange_rates.json``): a few published dates, each with the
units of every currency per 1 EUR. A date's rates apply from that date until the next one.
Everything here is pure once the table is loaded, and the table is loaded once per process.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from importlib import resources

from .money import CENT

RATE_DIGITS = 6  # significant digits of a quoted rate


@dataclass(frozen=True, slots=True)
class RateTable:
    base: str
    source: str
    published: tuple[tuple[date, Mapping[str, Decimal]], ...]  # ascending by date; base included at 1

    @property
    def currencies(self) -> tuple[str, ...]:
        return tuple(sorted(self.published[-1][1]))


@dataclass(frozen=True, slots=True)
class RateQuote:
    """Units of ``quote`` for one unit of ``base``, from the rates published on ``effective``."""

    base: str
    quote: str
    rate: Decimal
    effective: date
    source: str

    @property
    def rounded(self) -> str:
        return round_rate(self.rate)


@cache
def reference_table() -> RateTable:
    raw = json.loads(resources.files("expenses").joinpath("data/exchange_rates.json").read_text("utf-8"))
    base = raw["base"]
    published = tuple(
        (date.fromisoformat(day), {base: Decimal(1), **{code: Decimal(v) for code, v in rates.items()}})
        for day, rates in sorted(raw["rates"].items())
    )
    return RateTable(base=base, source=raw["source"], published=published)


def reference_currencies() -> tuple[str, ...]:
    """Every currency the reference table can convert, e.g. ``("CAD", "CHF", …, "USD")``."""
    return reference_table().currencies


def reference_rate(base: str, quote: str, on: date | None = None) -> RateQuote:
    """The reference rate in force on ``on`` (default: the latest published rates).

    Raises ``LookupError("unknown_currency")`` for a currency outside the table and
    ``LookupError("no_rate_for_date")`` for a date before the first published rates.
    """
    table = reference_table()
    base, quote = base.strip().upper(), quote.strip().upper()
    if base not in table.currencies or quote not in table.currencies:
        raise LookupError("unknown_currency")
    effective, rates = _published_on(table, on)
    return RateQuote(base=base, quote=quote, rate=rates[quote] / rates[base], effective=effective,
                     source=table.source)


def convert(amount: Decimal, base: str, quote: str, on: date | None = None) -> Decimal:
    """``amount`` of ``base`` in ``quote`` at the reference rate, rounded to cents."""
    return at_rate(amount, reference_rate(base, quote, on).rate)


def at_rate(amount: Decimal, rate: Decimal) -> Decimal:
    """``amount`` times ``rate`` in cents, a half cent rounded up as money is (25 EUR at 0.861 is 21.53 GBP, never the
    21.52 of Python's default, banker's rounding): the figure the read tool states and the one the line stores."""
    return (amount * rate).quantize(CENT, rounding=ROUND_HALF_UP)


def paid_in_claim_currency(amount: str, paid_in: str, currency: str, day: str | None) -> str:
    """What ``amount`` paid in ``paid_in`` is in the claim's ``currency`` at the reference rate in force on ``day`` (ISO;
    None: the latest published rates), as the claim keeps money ("166.18"). Raises ``LookupError`` (see
    ``reference_rate``) and ``ValueError`` for a day that is no ISO date."""
    return f"{convert(Decimal(amount), paid_in, currency, date.fromisoformat(day) if day else None):.2f}"


def to_reference_base(amount: Decimal, currency: str) -> Decimal:
    """``amount`` in EUR at the latest reference rate (what the 1000 EUR rule compares)."""
    return convert(amount, currency, reference_table().base)


def round_rate(rate: Decimal) -> str:
    """A rate as a string with ``RATE_DIGITS`` significant digits: ``0.00609384``, ``1.106``."""
    rounded = rate.quantize(Decimal(1).scaleb(rate.adjusted() - RATE_DIGITS + 1))
    return format(rounded.normalize(), "f")


def _published_on(table: RateTable, on: date | None) -> tuple[date, Mapping[str, Decimal]]:
    if on is None:
        return table.published[-1]
    usable = [entry for entry in table.published if entry[0] <= on]
    if not usable:
        raise LookupError("no_rate_for_date")
    return usable[-1]
