"""The engine's one reading of numbers in a user's words (SPEC §13.2), shared by the reducer and any
local interpreter, so an interpreter proposes only amounts the reducer will find in the evidence.

- digits in the usual notations: ``120``, ``42,5``, ``1,200.50``, ``1.250,00``, ``1 200``;
- number words (``fifty``, ``twenty-five``, ``a hundred and twenty``), read by ``text2num``;
- a quantity times a unit price (``2 nights at 150 each``, ``3 x 12``, ``2 nights @ 95``): the
  product is a number the user stated, as arithmetic on their own numbers;
- nights counted by the days named in a row (``Sunday and Monday night`` is 2 nights; ``… at 239/night`` is 478).

Plain Python, no Django: the pure core imports it.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from text_to_num import text2num


def _per_text[T](func: Callable[[str], list[T]]) -> Callable[[str], list[T]]:
    """The reading of the last text asked, kept: the reducer's checks read the same words more than once in a turn
    (``evidence_numbers`` and ``numbers_found`` both read its products, words and money phrases). A new list each
    time (the items are immutable); one text per reading, so nothing accumulates."""
    last: list[tuple[str, tuple[T, ...]]] = []

    @functools.wraps(func)
    def wrapper(text: str) -> list[T]:
        held = last[0] if last else None  # (one read of a list: a thread's writes below replace the whole pair)
        if held is not None and held[0] == text:
            return list(held[1])
        found = func(text)
        last[:] = [(text, tuple(found))]
        return found

    return wrapper


# (a group of thousands never starts right after "/": "12/11 129,80" is a day and 129,80)
_NUMBER = re.compile(r"(?<![\w.])\d{1,3}(?:\.\d{3})+,\d{1,2}(?!\d)|(?<![\w./])\d{1,3}(?: \d{3})+,\d{1,2}(?!\d)"
                     r"|(?<![\w./])\d{1,3}(?:[ ,]\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?")
_EUROPEAN = re.compile(r"\d{1,3}(?:\.\d{3})+,\d{1,2}")
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")

_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
          "seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand").split()
_WORD_RUN = re.compile(rf"\b(?:an?\s+)?(?:{'|'.join(_UNITS)})(?:(?:\s+and\s+|[\s-]+)(?:{'|'.join(_UNITS)}))*\b",
                       re.IGNORECASE)

# what is counted: units of time, people and things, or any plural noun ("3 rides", "2 lunches", "4 boxes")
_PLURAL = r"(?!(?:is|was|has|this|his|its|us|as|yes|plus|less|does|goes|was)\b)[a-z]{2,}s"
_QTY_UNIT = (r"(?:nights?|nites?|nts|n(?=\s)|notti|n[äa]chte|noce|nocy|noci|n[äa]tter|n[æa]tter|natt|nat|netter|noites|noches|nuits|nachten|days?|people|ppl|persons?|pax|guests?|tickets?|rides?|hours?|items?|times|pieces?|rooms?|"
             r"returns?|singles?|passes|pass|journeys?|"
             rf"{_PLURAL}|x|×)")
_PRICE = (r"(?:[€$£¥]\s?|(?:eur|usd|gbp|chf|sek|nok|dkk|pln|czk|cad|jpy)\s)?(?:\d{1,3}(?:[.,]\d{3})+(?:[.,]\d{1,2})?|\d{1,3}(?: \d{3})+(?:[.,]\d{1,2})?(?=\s?[^\W\d_€$£¥])"
          r"|\d+(?:[.,]\d{1,2})?)"
          r"(?![:h/]\d|\s*(?:am|pm|o'?clock)\b|\d|[.,]\d|-[^\W\d_])"  # "at 7:30", "at 6pm": a time; "30/11": a day;
          r"(?:\s?(?:€|eur|euros?|usd|\$|gbp|£|pounds?|dollars?|chf|francs?|sek|nok|dkk|kronor|kroner|krona|krone|kr|pln|złotych|"
          r"zlotych|złoty|zloty|zł|czk|kč|cad|jpy|yen))?")
# ("at a 5-star hotel": part of a word; neither is a price)
# the days of a stay's nights named between the count and the price: "2 nights, Wed and Thu, at $179", "(Mon and Tue)"
_NIGHTS_DAYS = (r"(?:[,\s]*(?:\((?![^()]*\b(?:rooms?|people|persons?|guests?|pax|of\s+us)\b)[^()]{1,40}\)|(?:mon|tue|wed|thu|fri|sat|sun)[a-z]{0,6}\.?(?:\s*(?:,|and|&|\+|/)\s*"
                r"(?:mon|tue|wed|thu|fri|sat|sun)[a-z]{0,6}\.?){1,3})[,\s]*)")
_PRODUCT = re.compile(
    rf"(?<![\w.,])(?P<n>\d{{1,2}}(?!st|nd|rd|th)|{'|'.join(_UNITS[1:13])})\s*(?:(?:[a-z]+\s+)?{_QTY_UNIT}{_NIGHTS_DAYS}?\s*)?(?:(?P<times>x|×|\*)|(?P<at>at|@|à)"
    rf"|(?P<for>for|of))\s*(?P<price>{_PRICE})(?P<each>\s*(?:each|apiece|a\s+piece|per\s+\w+|a\s+(?:night|day|"
    rf"person|head)|/\s?\w+|pp|p\.p\.))?",
    re.IGNORECASE)


# "each" in the languages people mix into their English: "2 noches 139 cada una", "2 nuits 84,50 chaque nuit", "2 Nächte
# je 120", "2 notti 95 a notte"
_EACH_ABROAD = (r"(?:cada|chaque|ogni|jede|je|pro|por|par|la|a|al|per|za|na|pr\.?)\s+(?:noche|nuit|nuitée|notte|nacht|noc|natt|nat|noite|"
                r"night)\b|(?:cada|chaque|ogni)\s+(?:una|uno|une|un)\b|jeweils\b|cada\b|chacune?\b|ciascun[ao]\b")  # (a person's share is no night's price)


# "at" before a price (never before a place: "at the Hilton")
_AT_PRICE = r"(?:at|@|for)\s*(?=[€$£¥]|\d|(?:eur|usd|gbp|chf|sek|nok|dkk|pln|czk|cad|jpy)\s)"
# the days of the month of a stay's nights, in a row: "16 and 17", "the 24th and 25th", "9 and 10 November"
_DAYS_OF_MONTH = (r"(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?(?:\s*(?:,|and|&|\+)\s*(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?){1,3}"
                  r"(?:\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?)?")
# no "at" or "x", but a unit and "each"/"per …": "2 nights 145 per night", "3 rides 12 each"
# the gap may hold a comma ("2 nights, 170 the night"), a place ("2 nights at the Hotel Sacher at 175 per night"), a
# day ("3 nights from 30/11, 139 per night") or the stay's days ("2 nights 23.-25.11, 135 per night")
_PRODUCT_EACH = re.compile(
    rf"(?<![\w.,])(?P<n>\d{{1,2}}(?!st|nd|rd|th)|{'|'.join(_UNITS[1:13])})\s*(?:[a-z]+\s+)?(?!x\b|×){_QTY_UNIT}(?:\s*\([^()]{{1,40}}\))?"
    rf"(?:[,\s]*(?:(?:à|a)\s+(?=\d)|{_AT_PRICE})?|[,\s]+(?:(?:from\s+)?(?:mon|tue|wed|thu|fri|sat|sun)[a-z]{{0,6}}\.?(?:\s*(?:\+|&|and|-|–|/|to|till|until|through|thru)\s*)?){{1,3}}[,\s]+(?:{_AT_PRICE})?"
    rf"|[,\s]+{_DAYS_OF_MONTH}[,\s]+(?:{_AT_PRICE})?"
    rf"|[,\s(]+(?:and|&|\+)[,\s)]+(?:{_AT_PRICE})?"  # (the same with the days read already, blanked: "2 nights,    and   , …")
    rf"|\s+(?:at|in|with|from|on|starting|da|dal|dalla|ab|von|depuis|desde|od|fra|från|vanaf|a\s+partir\s+d[eo]|à\s+partir\s+du|"
    rf"a\s+partire\s+da)\s+(?:(?=[\w'’&./-]*[^\W\d_]|\d{{1,2}}[./]\d|\d{{1,2}},?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))"
    rf"[\w'’&./-]+,?\s+){{0,5}}?,?\s*"
    rf"(?:(?:at|for|@|à|a(?=\s+\d))\s*)?"
    rf"|\s+(?-i:[A-Z][\w'’&.-]*\s+){{1,4}}(?:at|@|à|a(?=\s+\d))\s*"  # ("2 nachten Hotel Alexandra à 1150 kr per nacht")
    rf"|\s+\d{{1,2}}[./](?:\d{{1,2}}\.?)?\s*[-–]\s*\d{{1,2}}[./]\d{{1,2}}\.?,?\s+)(?P<price>{_PRICE})\s*"
    rf"(?:each|ea\b|apiece|a\s+piece|per\s+\w+|pr\.?\s+(?:night|nite|natt|day)|a\s+(?:night|nite|day|person|head)|"
    rf"the\s+(?:night|nite|day)|for\s+(?:each\s+|every\s+|one\s+)?(?:night|nite)|/\s?\w+|pp|p\.p\.|{_EACH_ABROAD})(?!\w)"
    rf"(?!\s*,?\s*(?:per|a|each|for)\s+(?:room|person|head|guest|pax)|\s*,?\s*(?:for\s+)?\d+\s*(?:rooms?|people|persons?|guests?|pax))",
    re.IGNORECASE)
# the Polish "po" before the price of each: "2 noce (nights) po 410 zł"
_PRODUCT_PO = re.compile(rf"(?<![\w.,])(?P<n>\d{{1,2}})\s*{_QTY_UNIT}(?:\s*\([^()]{{1,40}}\))?[,\s]*(?-i:po)\s+(?P<price>{_PRICE})",
                         re.IGNORECASE)
# people counted, then what each one's share was: "for three of us, 22 each", "for four, 18 per person", "5 of us …
# 20 a head" (a count with "for" or said as people; the price said per person)
_PRODUCT_HEADS = re.compile(
    rf"(?<![\w.,])(?:(?P<for>for)\s+)?(?P<n>\d{{1,2}}|{'|'.join(_UNITS[1:13])})(?P<who>\s+(?:of\s+us|people|persons?|pax|"
    rf"guests?|colleagues|ppl))?\s*[,;]?\s+(?:(?:at|for|@)\s*)?(?P<price>{_PRICE})\s*(?:(?P<each>each|apiece)|a\s+(?:person|head)|"
    r"per\s+(?:person|head|pax)|pp|p\.p\.)(?!\w|\s+(?:ways?|legs?|directions?|rides?|times?|nights?|days?))",
    re.IGNORECASE)
# the unit price first: "metro 1,90 x 4", "3.20 × 2"
_PRODUCT_AFTER = re.compile(rf"(?<![\w.,])(?P<price>{_PRICE})\s*(?:x|×|\*)\s*(?P<n>\d{{1,2}})(?![\d\w]|[.,]\d)",
                            re.IGNORECASE)


# the nights of a stay counted by their days, in a row: "Sunday and Monday night", "fri + sat nights", "Tue, Wed and
# Thu nights" (the count is the days named), and the price of each after them ("… at $239/night"): the product
_WEEKDAY = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\.?"
_NIGHTS_LISTED = re.compile(
    rf"(?<![\w])(?P<days>{_WEEKDAY}(?:\s*(?:,|and|&|\+)\s*{_WEEKDAY})+)\s+(?:nights?|nites?|nts?)\b"
    rf"(?P<priced>[,\s]*(?:(?:at|@|for)\s*)?(?P<price>{_PRICE})\s*(?:/\s?(?:night|nite|nt|n)\b|(?:a|per|each|the)\s+"
    rf"(?:night|nite)\b|each\b|pn\b))?", re.IGNORECASE)
_DAY_INDEX = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}


@_per_text
def _nights_listed(text: str) -> list[tuple[re.Match[str], int]]:
    """Each run of days named as a stay's nights, with how many nights: only days in a row, each named once."""
    found = []
    for m in _NIGHTS_LISTED.finditer(text or ""):
        days = [_DAY_INDEX[d[:3].lower()] for d in re.findall(r"[a-z]+", m.group("days"), re.IGNORECASE)
                if d[:3].lower() in _DAY_INDEX]
        if len(days) >= 2 and len(set(days)) == len(days) and all((b - a) % 7 == 1 for a, b in itertools.pairwise(days)):
            found.append((m, len(days)))
    return found


# a stay told by the weekdays of its check-in and check-out, then the price of each night: "checked in Monday, checked
# out Wednesday, €131 a night" (2 × 131: the nights between the two days, within one week)
_STAY_BY_WEEKDAYS = re.compile(
    rf"\bcheck(?:ed|ing)?[\s-]?in\s+(?:on\s+)?(?:the\s+)?(?P<in>{_WEEKDAY})(?![\w])[^.;:!?\d]{{0,40}}?\b(?:check(?:ed|ing)?[\s-]?)?out\s+"
    rf"(?:on\s+)?(?:the\s+)?(?P<out>{_WEEKDAY})(?![\w])[,\s]*(?:(?:at|@|for|and|it\s+was|was)\s*)?(?P<price>{_PRICE})\s*"
    rf"(?:(?:€|eur|euros?|kr|sek|nok|dkk|chf|gbp|usd|\$|£|zł|pln|czk|kč)\s*)?"
    rf"(?:/\s?(?:night|nite|nt|n)\b|(?:a|per|each|the)\s+(?:night|nite)\b|pn\b)", re.IGNORECASE)


def _stays_by_weekdays(text: str) -> list[tuple[re.Match[str], int]]:
    found = []
    for m in _STAY_BY_WEEKDAYS.finditer(text or ""):
        nights = (_DAY_INDEX[m.group("out")[:3].lower()] - _DAY_INDEX[m.group("in")[:3].lower()]) % 7
        if nights >= 2:
            found.append((m, nights))
    return found


# the price of each night first, then how many: "€165 a night for 2 nights", "165 per night x 3 nights", "€90/night, 2 nights"
_PRODUCT_RATE_FIRST = re.compile(
    rf"(?<![\w.,])(?P<price>{_PRICE})\s*(?:/\s?(?:night|nite|nt)|(?:a|per|each|the)\s+(?:night|nite))\b\s*,?\s*"
    rf"(?:for|x|×|over|times)?\s*(?P<n>\d{{1,2}}|{'|'.join(_UNITS[1:13])})\s*(?:nights?|nites?|nts?)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class NumberFound:
    start: int
    end: int
    value: Decimal
    words: bool = False  # written in words ("fifty")
    product: bool = False  # a quantity times a unit price
    count: int | None = None  # the quantity of a product ("2 nights at 150 each": 2)
    hundreds: bool = False  # "one twenty five" read as 125 (it is also 1.25: both readings are the user's)


def _decimal(raw: str) -> Decimal | None:
    token = raw.replace(" ", "")
    if _EUROPEAN.fullmatch(token):
        token = token.replace(".", "").replace(",", ".")
    elif _THOUSANDS.fullmatch(token):
        token = token.replace(",", "")
    else:
        token = token.replace(",", ".")
    try:
        return Decimal(token)
    except InvalidOperation:
        return None


def word_number(text: str) -> int | None:
    """``"twenty-five"`` → 25, ``"a hundred and twenty"`` → 120; None when the words are no one number."""
    words = re.sub(r"^an?\s+", "one ", text.strip().lower())
    try:
        return int(text2num(words, "en"))
    except (ValueError, TypeError):
        return None


@_per_text
def number_words(text: str) -> list[NumberFound]:
    found = []
    for m in _WORD_RUN.finditer(text or ""):
        value = word_number(m.group(0))
        if value is not None:
            found.append(NumberFound(m.start(), m.end(), Decimal(value), words=True))
    return found


# the words that say a price is for all of them: "… at 300 total", "at 179 for both", "at 358 for the stay"
_ALL_OF_IT = re.compile(r"\s*(?:€|eur|euros?|\$|usd|£|gbp|chf|sek|nok|dkk|kr|pln|zł)?\s*(?:,\s*)?(?:(?:in\s+)?total|altogether|"
                        r"together(?=\s*(?:[.,;!?)]|$))|all\s+in\b(?!\w)|for\s+both(?!\s+of\s+us)\b|for\s+(?:the\s+(?:stay|lot|whole\s+stay)|"
                        r"them\s+all|the\s+(?:two|three|\d)\s+nights|all\s+(?:two|three|\d)\s+nights))", re.IGNORECASE)


def _days_agree(gap: str, n: int | None) -> bool:
    """Do the days of the nights listed between a count and its price ("2 nights, 16 and 17, …") number the count? A
    single day or a range ("from mon", "23.-25.11") says when the stay began, not how many nights."""
    days = re.findall(r"\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]{0,6}\b|(?<![\d./])\d{1,2}(?:st|nd|rd|th)?(?![\d./])", gap,
                      re.IGNORECASE)
    if len(days) < 2 or re.search(r"\b(?:to|till|until|through|thru|from)\b|[-–~]", gap, re.IGNORECASE):
        return True
    order = [int(re.match(r"\d+", d).group(0)) if d[:1].isdigit() else _DAY_INDEX[d[:3].lower()] for d in days]  # type: ignore[union-attr]
    in_a_row = all((b - a) % (7 if not days[0][:1].isdigit() else 10**6) == 1 for a, b in itertools.pairwise(order))
    return len(days) == n and in_a_row


@_per_text
def quantity_products(text: str) -> list[NumberFound]:
    """``2 nights at 150 each`` → 300 (the whole phrase); ``for`` needs ``each``/``per …`` to be a unit price."""
    found = []
    for m in _PRODUCT.finditer(text or ""):
        if m.group("for") and not m.group("each") and not (m.group("for").lower() == "of" and re.search(
                r"\b(?:nights?|nites?|nts)\b", text[m.end("n"):m.start("for")], re.IGNORECASE)):
            continue  # ("for 2, 30": two people, or 30 for both?; "2 nights of €124" is two nights at 124)
        raw_n = m.group("n")
        n = int(raw_n) if raw_n.isdigit() else word_number(raw_n)
        if not _days_agree(text[m.end("n"):m.start("price")], n):
            continue
        if not m.group("each") and _ALL_OF_IT.match(text, m.end("price")):
            continue  # "2 nights at 300 total", "… at 179 for both": the stay's sum, not each night's price
        price = _decimal(re.sub(r"[^\d.,]", "", m.group("price")))
        if not n or n < 2 or price is None:
            continue
        found.append(NumberFound(m.start(), m.end(), Decimal(n) * price, product=True, count=n))
    for m in _PRODUCT_EACH.finditer(text or ""):
        if any(m.start() < f.end and f.start < m.end() for f in found):
            continue
        raw_n = m.group("n")
        n = int(raw_n) if raw_n.isdigit() else word_number(raw_n)
        if not _days_agree(text[m.end("n"):m.start("price")], n):
            continue
        price = _decimal(re.sub(r"[^\d.,]", "", m.group("price")))
        if n and n >= 2 and price is not None:
            found.append(NumberFound(m.start(), m.end(), Decimal(n) * price, product=True, count=n))
    for m in _PRODUCT_HEADS.finditer(text or ""):
        if not m.group("who") and (not m.group("for") or m.group("each")):
            continue  # "booked for 7, 30 each": seven o'clock, maybe; only "… for four, 18 per person" says people
        if any(m.start() < f.end and f.start < m.end() for f in found):
            continue
        raw_n = m.group("n")
        n = int(raw_n) if raw_n.isdigit() else word_number(raw_n)
        price = _decimal(re.sub(r"[^\d.,]", "", m.group("price")))
        if n and 2 <= n <= (99 if m.group("who") else 12) and price is not None:
            found.append(NumberFound(m.start(), m.end(), Decimal(n) * price, product=True, count=n))
    for m in [*_PRODUCT_PO.finditer(text or ""), *_PRODUCT_AFTER.finditer(text or "")]:
        if any(m.start() < f.end and f.start < m.end() for f in found):
            continue
        n, price = int(m.group("n")), _decimal(re.sub(r"[^\d.,]", "", m.group("price")))
        if n >= 2 and price is not None:
            found.append(NumberFound(m.start(), m.end(), Decimal(n) * price, product=True, count=n))
    for m in _PRODUCT_RATE_FIRST.finditer(text or ""):  # "€165 a night for 2 nights": 2 × 165
        raw_n = m.group("n")
        n = int(raw_n) if raw_n.isdigit() else word_number(raw_n)
        price = _decimal(re.sub(r"[^\d.,]", "", m.group("price")))
        if n and n >= 2 and price is not None and not any(m.start() < f.end and f.start < m.end() for f in found):
            found.append(NumberFound(m.start(), m.end(), Decimal(n) * price, product=True, count=n))
    for m, nights in _nights_listed(text or ""):  # "Sunday and Monday night at $239/night": 2 × 239
        price = _decimal(re.sub(r"[^\d.,]", "", m.group("price") or ""))
        if price is not None and not any(m.start() < f.end and f.start < m.end() for f in found):
            found.append(NumberFound(m.start(), m.end(), Decimal(nights) * price, product=True, count=nights))
    for m, nights in _stays_by_weekdays(text or ""):  # "checked in Monday, checked out Wednesday, €131 a night": 2 × 131
        price = _decimal(re.sub(r"[^\d.,]", "", m.group("price")))
        if price is not None and not any(m.start() < f.end and f.start < m.end() for f in found):
            found.append(NumberFound(m.start(), m.end(), Decimal(nights) * price, product=True, count=nights))
    found += _spoken_products(text or "", found)
    return sorted(found, key=lambda f: f.start)


_WORD_OR_DIGITS = rf"(?:\d{{1,4}}|(?:{'|'.join(_UNITS)})(?:[\s-]+(?:{'|'.join(_UNITS[:10])}))?)"
_MONEY_WORDS = re.compile(
    rf"(?<![\w.,])(?P<a>{_WORD_OR_DIGITS})\s*(?P<cur>euros?|eur|€|pounds?|£|dollars?|\$|francs?|chf|quid|bucks)\s*"
    rf"(?P<and>and\s+)?(?P<b>{_WORD_OR_DIGITS})(?P<unit>\s*(?:cents?|pence|p|centimes?|rappen))?(?![\w.,])", re.IGNORECASE)


# a price dictated with its cents named: "euro 18 and 40 cents", "18 and 40 cents" (the whole units said first,
# with or without their currency before them; "and" then the cents, named as cents)
_CENTS_SAID = re.compile(
    rf"(?<![\w.,])(?<!\bfor\s)(?<!\bx\s)(?:(?:euros?|eur|€|pounds?|£|dollars?|\$|francs?|chf)\s*)?(?P<a>{_WORD_OR_DIGITS})\s+"
    rf"(?:(?:euros?|pounds?|dollars?|francs?)\s+)?and\s+(?P<b>{_WORD_OR_DIGITS})\s*(?:cents?|pence|centimes?|rappen)(?![\w])"
    # (never "dinner for 4 and 30 cents tip", "18 and 40 cents tip", "12 and 40 cents for the coffee": a count, or two
    # amounts, the cents another thing's)
    r"(?!\s*(?:of\s+)?(?:tip|tips|for|extra|service|change|back|each|per|on\s+top)\b)",
    re.IGNORECASE)


# a number that is a day, a line or a room ("Nov 18 and 40 cents", "line 2 and 40 cents", "room 212 …"): no price
_NOT_A_PRICE_BEFORE = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|"
                                 r"june|july|august|september|october|november|december|line|item|room|no|nr|number)\.?\s*#?\s*$",
                                 re.IGNORECASE)


# a price said the way people say one, with no currency between: "twelve fifty" (12.50), "eleven sixty", "four
# twenty-five"; never a year ("twenty twenty-six") and never part of a longer number ("one hundred twenty five")
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_SPOKEN_PRICE = re.compile(
    rf"(?<![\w.,-])(?P<a>(?:{'|'.join(_TENS)})(?:[\s-]+(?:{'|'.join(_UNITS[1:10])}))?|{'|'.join(_UNITS[1:20])})\s+"
    rf"(?P<b>(?:{'|'.join(_TENS)})(?:[\s-]+(?:{'|'.join(_UNITS[1:10])}))?)(?![\w-]|\s+(?:{'|'.join(_UNITS)})\b|"
    rf"\s+and\s+(?:{'|'.join(_UNITS)})\b)",
    re.IGNORECASE)


@_per_text
def _spoken_prices(text: str) -> list[NumberFound]:
    found = []
    for m in _SPOKEN_PRICE.finditer(text or ""):
        before = text[:m.start()].rstrip()
        if re.search(rf"\b(?:{'|'.join(_UNITS)}|and|an?)$", before, re.IGNORECASE):
            continue  # "one hundred and twenty five", "a thousand twenty": one longer number
        a, b = m.group("a").lower(), m.group("b").lower()
        whole, cents = word_number(a), word_number(b)
        if whole is None or cents is None or (a == "twenty" and b.startswith("twenty")):
            continue
        found.append(NumberFound(m.start(), m.end(), Decimal(whole) + Decimal(cents) / 100, words=True))
        if 1 <= whole <= 9:  # "one twenty five": 1.25 or 125, as people say both
            found.append(NumberFound(m.start(), m.end(), Decimal(whole * 100 + cents), words=True, hundreds=True))
    return found


# a count, its unit and "at" before a price said in words: "four nights at one twenty five"
_COUNT_AT = re.compile(rf"(?<![\w.,])(?P<n>\d{{1,2}}|{'|'.join(_UNITS[1:13])})\s*(?:[a-z]+\s+)?{_QTY_UNIT}\s*(?:at|@)\s*$",
                       re.IGNORECASE)


def _spoken_products(text: str, taken: list[NumberFound]) -> list[NumberFound]:
    found = []
    for price in _spoken_prices(text) + number_words(text):
        count = _COUNT_AT.search(text[:price.start])
        if count is None or any(count.start() < f.end and f.start < price.end for f in taken):
            continue
        raw_n = count.group("n")
        n = int(raw_n) if raw_n.isdigit() else word_number(raw_n)
        if n and n >= 2:
            found.append(NumberFound(count.start(), price.end, n * price.value, words=True, product=True, count=n,
                                     hundreds=price.hundreds))
    return found


@_per_text
def money_phrases(text: str) -> list[NumberFound]:
    """``two euro forty`` → 2.40, ``12 pounds 50`` → 12.50, ``twelve fifty`` → 12.50: whole units, then the
    hundredths, as people say a price."""
    found = _spoken_prices(text)
    cents_said = []
    for m in _CENTS_SAID.finditer(text or ""):  # "euro 18 and 40 cents", "18 and 40 cents": dictated
        if (value := _units_and_cents(m)) is not None and not _NOT_A_PRICE_BEFORE.search(text[:m.start()]):
            cents_said.append(NumberFound(m.start(), m.end(), value, words=True))
    for m in _MONEY_WORDS.finditer(text or ""):
        if any(c.start <= m.start() < c.end for c in cents_said):
            continue  # (read as a price with its cents named)
        if (value := _units_and_cents(m)) is None:
            continue
        if not m.group("unit") and (m.group("and") or re.match(r"\s+(?:for|of|on|at|in|to)\b", text[m.end():], re.IGNORECASE)):
            continue  # "20 euro and 30 for the tip": two amounts, not 20.30
        found.append(NumberFound(m.start(), m.end(), value, words=True))
    return found + cents_said


def _units_and_cents(m: re.Match[str]) -> Decimal | None:
    """The price a match's whole units (group ``a``) and hundredths (group ``b``) say, in digits or words; None when
    either is no number or the hundredths are not 1–99."""
    whole = int(m.group("a")) if m.group("a").isdigit() else word_number(m.group("a"))
    cents = int(m.group("b")) if m.group("b").isdigit() else word_number(m.group("b"))
    if whole is None or cents is None or not 0 < cents < 100:
        return None
    return Decimal(whole) + Decimal(cents) / 100


def evidence_numbers(text: str) -> list[Decimal]:
    """The numbers the engine reads in an evidence quote ("1,200.50", "42,5", "fifty", "2 nights at 150 each").

    A quoted argument matches its evidence when one of these equals it numerically (SPEC §13.2);
    a local interpreter uses the same reading to propose only amounts the reducer will accept.
    """
    found = []
    for raw in _NUMBER.findall(text or ""):
        # "1 200" may be one number or two ("make line 2 120"): the user wrote both readings
        for token in (raw, *raw.split(" ")) if " " in raw else (raw,):
            if (value := _decimal(token)) is not None:
                found.append(value)
    found += [n.value for n in number_words(text)]
    found += [n.value for n in quantity_products(text)]
    found += [n.value for n in money_phrases(text)]
    found += [Decimal(nights) for _, nights in _nights_listed(text)]  # "Sunday and Monday night": 2 nights, counted
    found += [Decimal(nights) for _, nights in _stays_by_weekdays(text)]  # "checked in Mon, out Wed, 131 a night": 2
    return found


def numbers_found(text: str) -> list[NumberFound]:
    """Every number ``evidence_numbers`` reads, with where it stands in ``text`` (digits, words, quantity
    products, money phrases), in order of position."""
    found = []
    for m in _NUMBER.finditer(text or ""):
        raw = m.group(0)
        if " " in raw:  # "1 200": one number, and each part ("make line 2 120")
            offset = m.start()
            for part in raw.split(" "):
                if (value := _decimal(part)) is not None:
                    found.append(NumberFound(offset, offset + len(part), value))
                offset += len(part) + 1
        if (value := _decimal(raw)) is not None:
            found.append(NumberFound(m.start(), m.end(), value))
    found += number_words(text) + quantity_products(text) + money_phrases(text)
    return sorted(found, key=lambda f: (f.start, -f.end))
