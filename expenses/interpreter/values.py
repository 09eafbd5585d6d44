"""Values inside a clause: dates, amounts with their currency, line references, categories, merchants.

Every finder returns matches with their position in the text it was given, so the caller can
mask what it has consumed (a date's "20" is not an amount, "line 2" is not one either) and quote
the user's own words. Dates are resolved by code with the user's clock (``today``), never by a
model: ``dateparser`` with ``RELATIVE_BASE`` set to the user's day, weekdays by arithmetic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from decimal import Decimal
from functools import cache
from itertools import pairwise

import dateparser
from babel import Locale
from babel.numbers import get_currency_name
from price_parser import Price
from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein

from registries import evidence_numbers, money_phrases, number_words, quantity_products
from registries.currencies import currencies_named, currency_meant, currency_mentions
from registries.numbers import NumberFound

from ..exchange import reference_currencies
from ..money import is_iso_currency
from ..naming import city_aliases
from . import lexicon
from .english import known_verb_form, known_word
from .normalize import heading_days, slashed_by_weekday, weekdays_with_their_day
from .patterns import word_finditer, word_search

# --------------------------------------------------------------------------- masking


@dataclass(frozen=True, slots=True)
class Found:
    start: int
    end: int
    text: str


def mask(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with every span blanked out (same length, so positions stay valid)."""
    chars = list(text)
    for start, end in spans:
        for i in range(max(start, 0), min(end, len(chars))):
            chars[i] = " "
    return "".join(chars)


# --------------------------------------------------------------------------- dates

_MONTHS = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
           r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
# "3. December": a full stop after a day's number before its month ends no sentence
_MONEY_MARK = r"(?:€|eur\b|euros?\b|czk\b|kč|chf\b|sek\b|nok\b|dkk\b|pln\b|zł|huf\b|ft\b|gbp\b|£|kr\b|usd\b|\$)"
# (the price right after it, or after "was", "paid", "for", …: never another thing's price after more words, as in
# "coffee 3.12 and cake 4,10", where 3.12 is the coffee's)
# a dotted day heading a row whose thing and price are joined by dashes ("27.11 - lunch - 11.20"), after a sentence's end
# or a comma
DASHED_ROW_DAY = (r"(?:(?<=[.!?;,]\s)|^)[ \t]*\d{1,2}\.\d{1,2}\.?(?=[ \t]+[-–][ \t]+[^\W\d_][^,;.!?\n]*?[ \t][-–][ \t]+"
                  r"(?:[€$£]\s?)?\d+(?:[.,]\d\d)?(?![\d.,]\d))")
DOTTED_BESIDE = (r"(?<![\w.,/-])\d{1,2}\.\d{1,2}\.?(?![\d,]|\.\d)(?!\s*" + _MONEY_MARK + r")"
                 r"(?=\s+(?:(?:was|were|is|paid|cost|costs|came\s+to|for|at|total|eur|€)\s+)?(?:[€$£]\s*)?"
                 r"(?:\d+,\d{2}(?![\d,.])|\d[\d.,]*\s?" + _MONEY_MARK + r"))")
# "flight MUC-VIE 23.11 was 289.40": a day of the last two weeks before "was" and the price (an older one may be the
# old amount of a line, corrected: asked)
DOTTED_WAS = (r"(?<![\w.,/-])\d{1,2}\.\d{1,2}\.?(?![\d,]|\.\d)"
              r"(?=\s+(?:was|were|is|cost|costs|came\s+to)\s+(?:[€$£]\s*)?\d)")
# places and visits counted ("uber to the 2nd hospital", "the 3rd site"): which one, never a day of the month
_ORDINAL_PLACES = (r"(?:hospital|clinic|site|office|building|terminal|gate|stop|meeting|visit|location|venue|branch|store|shop|"
                   r"client|customer|appointment|session|leg|plant|factory|warehouse|campus)s?\b")
# a night's count in the languages people mix in: "2 nights", "1 noc", "3 nuits", "2 Nächte" (and "2 n")
_NIGHT_WORDS = lexicon.NIGHTS + r"|nts?|n"
# what follows a dotted day heading a sentence: the thing bought, then its price, with no stop, join or other price
# between (never "… 12.11 for lunch and 3.20 for coffee"); read by the reader and, after the day, by the audit
SENTENCE_LEAD_REST = (r"\.?[ \t]+(?!(?:for|and|more|per|eur|euros?|sek|kr|chf|pln|usd|gbp|each|extra|in|on|at|to|pm|am|h|uhr)\b)"
                      r"[^\W\d_][^;,.\n&+]*?\d(?:[.,]\d\d\b|\s?(?:€|eur\b|euros?\b|sek\b|kr\b|chf\b|gbp\b|£|\$|usd\b|pln\b|zł|"
                      r"czk\b|kč))")
# a message whose first words are a dotted day and what was bought that day ("26.11 lunch 145 kr, …")
DOTTED_HEADING = re.compile(r"\s*\d{1,2}\.\d{1,2}\.?:?[ \t]+[^\W\d_]")
DAY_DOT = re.compile(rf"(?<=\d)\.(?=\s+(?:of\s+)?{_MONTHS}\b)", re.IGNORECASE)
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# "the lunch of day 24", "dia 23", "giorno 9": the day of the month, the way Portuguese, Spanish and Italian say it (in
# English from the 15th on: "on day 10" is as likely the trip's tenth day; abroad after another word, never "Dia 1"
# heading an itinerary), before a price, a place or the sentence's end, with no month after it: never "Dia 9:" heading
# a trip's day, "day 10 of the trip", "el día 28 de octubre" (its month said), "bom dia 15 taxi …", "parking 1 dia 15" (one
# day's), "car rental for the day 29" (a day's hire)
DAY_NUMBERED = (r"(?:\b(?:of|on|from)\s+day\s+(?=(?:1[5-9]|2\d|3[01])\b)|(?<!\bbom\s)(?<!\bbuon\s)(?<!\bbuen\s)"
                r"(?<=[^\W\d]\s)(?:d[ií]a|giorno)\s+)(?P<d>[12]\d|3[01]|0?[1-9])\b(?=\s*(?:$|[,;)!?]|\.(?!\d)|\d|(?:in|at|was|were|with|"
                r"and|e|y|en|em|a|na|no)\b))(?![,\s]*(?:(?:of|de|di|del)\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|"
                r"ene|gen|fev|fév|avr|abr|mai|mag|giu|lug|ago|set|out|okt|ott|dez|déc|dic)[^\W\d_]*\b)")
# "9. 11.", "9. 11. 2026": a day and its month, each closed by a dot, a space between them, where a day is said (at a
# line's start, after a dash, "on", "was", "from", "paid" …): never "1. train 45. 2. taxi 12. 3. lunch 9.", a numbered
# list after a price
SPACED_DOTTED_DAY = (r"(?:^|(?<=\n)|(?<=[–(,:;-])|(?<=[–(,:;-]\s)|(?<=\b(?:on|am|od|do|by)\s)|(?<=\b(?:was|dne)\s)|"
                     r"(?<=\b(?:from|paid|also|till)\s)|(?<=\buntil\s))(?P<d>[12]\d|3[01]|0?[1-9])\.[ \u00a0](?P<m>1[0-2]|0?[1-9])\.(?:[ \u00a0]?(?P<y>20\d\d))?"
                     r"(?![\d]|[.,]\d)")
_COUNT_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
# a weekday said with its week: "Tuesday last week", "last week Tuesday", "on the Tuesday of last week", "this week's
# Monday" (never the latest such weekday, which "last week" may not be)
WEEKDAY_OF_A_WEEK = re.compile(
    r"\b(?:(?:on\s+)?(?:the\s+)?(?P<w>monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|weds?|thu(?:rs?)?|fri|"
    r"sat|sun)\.?\s+(?:of\s+)?(?P<which>last|previous|this|past)\s+week(?!\s+(?:of|before|after|in)\b)"
    r"|(?<!\bthe\s)(?P<which2>last|previous|this|past)\s+week(?:['’]s)?\s*,?\s+(?:on\s+)?(?:the\s+)?(?P<w2>monday|tuesday|"
    r"wednesday|thursday|friday|saturday|sunday|mon|tues?|weds?|thu(?:rs?)?|fri|sat|sun))\b", re.IGNORECASE)


def day_of_a_week(m: re.Match[str], today: date) -> date | None:
    """The day a ``WEEKDAY_OF_A_WEEK`` match names: that weekday of last week (Monday to Sunday) or of this one (None
    when this week's is still to come)."""
    word = (m.group("w") or m.group("w2")).lower()[:3]
    which = (m.group("which") or m.group("which2")).lower()
    monday = today - timedelta(days=today.weekday())
    day = monday + timedelta(days=[d[:3] for d in _WEEKDAYS].index(word))
    if "this" in which:
        return day if day <= today else None
    if today.weekday() == 6:
        return None  # said on a Sunday, "Tuesday last week" may be the week now ending: asked
    return day - timedelta(days=7)


def weekday_within(day: date, span: tuple[date, date]) -> date | None:
    """The one day of ``span`` (a trip's first and last) that falls on ``day``'s weekday, or None."""
    inside = [span[0] + timedelta(days=n) for n in range((span[1] - span[0]).days + 1)
              if (span[0] + timedelta(days=n)).weekday() == day.weekday()]
    return inside[0] if len(inside) == 1 else None


def two_days_only(sentence: str) -> bool:
    """Does the sentence give exactly two days in figures ("from Mon 16 to Wed 18 Nov", "16.11 - 18.11"), as a trip's
    first and last, and no third ("…, I registered on 13 Nov")?"""
    return len(re.findall(r"(?<![\d.,])\d{1,2}(?:[./]\d{1,2}\.?)?(?:st|nd|rd|th)?(?![\d.,]\d)", sentence)) == 2


_DATE_PATTERNS = [
    ("iso", re.compile(r"\b\d{4}-\d{2}-\d{2}\b")),
    ("week_day", WEEKDAY_OF_A_WEEK),
    # "2026.11.16.", "2026/12/02": the year first, dotted as Hungarians write it or slashed as the Japanese do
    ("iso", re.compile(r"(?<![\d.,/])20\d\d([./])(?:1[0-2]|0?[1-9])\1(?:[12]\d|3[01]|0?[1-9])\.?(?![\d]|[.,]\d)")),
    # "1.–3. December", "16-18 Nov": a stay's first and last day before their month's name
    ("named_range", re.compile(rf"(?<![\w.,/-])(\d{{1,2}})\.?[ \t]*[-–][ \t]*(\d{{1,2}})\.?[ \t]+(?:of[ \t]+)?({_MONTHS})\b",
                               re.IGNORECASE)),
    # "3 Dec", "15th of December", "3. December" (the German way: the dot makes the number a day)
    ("absolute", re.compile(rf"(?<![\d.,])\b\d{{1,2}}(?:st|nd|rd|th|\.)?\s+(?:of\s+)?{_MONTHS}\.?(?:,?\s+\d{{4}})?(?![\w])",
                            re.IGNORECASE)),
    # "26-Oct", "3-dec-2026": a day and its month's name joined by a dash, as spreadsheets write them
    ("absolute", re.compile(rf"(?<![\w.,/-])\d{{1,2}}-{_MONTHS}\.?(?:-(?:20)?\d\d)?(?![\w-])", re.IGNORECASE)),
    # "December 3", never "December 23,00" (an amount after the month)
    ("absolute", re.compile(rf"\b{_MONTHS}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?(?![\w]|[.,/]\d)",
                            re.IGNORECASE)),
    # "Mon 30.11: …", "lunch friday 27.11": a dotted day and month beside the weekday it fell on (alone, in a
    # sentence, "27.11" may be a price; a weekday that is not that day's, "monday 74.99", leaves it one)
    ("dotted_weekday", re.compile(r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|wed|"
                                  r"thurs|thur|thu|fri|sat|sun)\.?,?\s+\d{1,2}\.\d{1,2}\.?(?!\d|,\d|\.\d)",
                                  re.IGNORECASE)),
    # "2 nights 30.11-2.12", "29.11. – 1.12.": two dotted days joined by a dash, a stay's first and last day (each half
    # alone may be a price; together, and in order within a month, they are days)
    ("dotted_range", re.compile(r"(?<![\w.,/-])(\d{1,2})\.(?:(\d{1,2})\.?)?[ \t]*(?:[-–]|to|till|until)[ \t]*(\d{1,2})\.(\d{1,2})\.?"
                                r"(?![\w/-]|[.,]\d)", re.IGNORECASE)),
    # "2.12 lunch site canteen 13,20 eur; 3.12 coffee 4,50": a dotted day and month opening a part of the message, before
    # what was bought and its price (a day of the last three months only)
    ("dotted_lead", re.compile(r"(?:^|(?<=[;\n])|(?<=[;,]\s)|(?<=^- )|(?<=\n- )|(?<=^\* )|(?<=\n\* )|(?<=^• )|(?<=\n• ))[ \t]*\d{1,2}\.\d{1,2}\.?(?=[ \t]+[^\W\d_][^;,\n]*?\d(?:[.,]\d\d\b|"
                               r"\s?(?:€|eur\b|euros?\b|sek\b|kr\b|chf\b|gbp\b|£|\$|usd\b|pln\b|zł|czk\b|kč)))", re.IGNORECASE | re.MULTILINE)),
    # "26.11 lunch 145 kr, … dinner 312 kr. 27.11 lunch 135 kr": the same after a sentence's end, in a message whose
    # first words are headed by a dotted day too, a day of the last three weeks only, before the thing bought and its
    # price with nothing else priced or joined between (never "Parking 5 eur. 12.11 for lunch and 3.20 for coffee")
    ("dotted_sentence", re.compile(r"(?<=[.!?]\s)[ \t]*\d{1,2}\.\d{1,2}\.?(?=" + SENTENCE_LEAD_REST + ")", re.IGNORECASE)),
    # "change the date of line 2 to 1.12": a dotted day the date is changed to
    ("dotted_to", re.compile(r"(?<=\bto\s)\d{1,2}\.\d{1,2}\.?(?![\d,]|\.\d)")),
    # "25.11: taxi 31": a dotted day and month heading a line (a day of the last three months only)
    ("dotted_near", re.compile(r"(?:^|(?<=\s[/|]\s))[ \t]*\d{1,2}\.\d{1,2}\.?(?=[ \t]*[:–-][ \t])", re.MULTILINE)),
    # … and after a sentence ("Dzień dobry. 02.12: paliwo …"), a day of the last three weeks only (never "Lunch with
    # client. 12.10 - paid by card, tip 2": the lunch's price)
    ("dotted_dashed", re.compile(r"(?<=[.!?]\s)[ \t]*\d{1,2}\.\d{1,2}\.?(?=[ \t]*[:–-][ \t])")),
    # "… convert. 27.11 - lunch - 11.20, 27.11 - Flixbus back - 34.99": a row of day, thing and price joined by dashes,
    # after a sentence or between commas (the thing's words hold no comma: the price is the row's own)
    ("dotted_near", re.compile(DASHED_ROW_DAY)),
    # "taxi from the airport 23.11 18,50", "border shop 25.11 snacks 320 CZK", "flight 23.11 was 289.40": a dotted day
    # and month beside the price, which is written as money is (a decimal comma, a currency) or said after "was"
    ("dotted_beside", re.compile(DOTTED_BESIDE, re.IGNORECASE)),
    ("dotted_was", re.compile(DOTTED_WAS, re.IGNORECASE)),
    # "03.12 bilet for the meetup, paid online 49 €": a day written with its leading zero heading a line or a sentence,
    # as no price is (never "coffee 03.10 and croissant 2.20": the coffee's price)
    ("dotted_near", re.compile(r"(?:^|(?<=\n)|(?<=[.!?;:]\s))[ \t]*0[1-9]\.(?:1[0-2]|0[1-9])(?![\d.]|,\d)(?!\s*" + _MONEY_MARK + r")(?=[ \t]+[^\W\d_])",
                               re.IGNORECASE)),
    # "hotel ibis 2.12 2 nights 70 each": a dotted day before the count of nights is the stay's first day
    ("dotted_beside", re.compile(r"(?<![\w.,/-])\d{1,2}\.\d{1,2}\.?(?!\d|,\d|\.\d)(?=,?\s+\d{1,2}\s*(?:" + _NIGHT_WORDS + r")\b)",
                                 re.IGNORECASE)),
    # "taxi from Chopin airport 30.11 - 89 zł", "hotel Mercure 30.11, 1 noc, 420,00 zł": a dotted day of the last three
    # weeks, then a dash or a comma, then a price with its currency (a night's count between them): the price is the
    # one with the currency (never "lunch 14.10 - 3.50 € tip", "bus 2.10, 2.10 €": two prices)
    ("dotted_dashed", re.compile(r"(?<![\w.,/-])\d{1,2}\.\d{1,2}\.?(?!\d|,\d|\.\d)(?!\s*" + _MONEY_MARK + r")(?=\s*[-–,]\s*"
                                 r"(?:\d{1,2}\s*(?:" + _NIGHT_WORDS + r")\s*,\s*)?(?:[€$£]\s*\d+(?:,\d\d)?(?![\d.])|\d+(?:,\d\d)?\s?"
                                 + _MONEY_MARK + r"))", re.IGNORECASE)),  # (the price written another way than
    # the day, a whole number or with a decimal comma: never "2 coffees 1.10, 2.30 €", two prices written alike)
    ("slash", re.compile(r"(?<![\w/.])\d{1,2}/\d{1,2}(?:/\d{2,4})?(?![\w/])")),
    # "24-11", "1-12-2026": a day and its month joined by a dash (never "16-18", a range of days, nor "2-3 nights")
    ("dashed", re.compile(r"(?<!between\s)(?<!from\s)(?<![\w/.,-])(?:[12]\d|3[01]|0?[1-9])-(?:1[0-2]|0?[1-9])(?:-(?:\d{4}|\d{2}))?"
                          r"(?![\w/-]|:\d|[.,]\d)(?!\s*(?:nights?|nites?|days?|people|persons?|pax|hours?|hrs?|h\b|times|x\b|%|€|"
                          r"eur|euros?|\$|of\s+(?:us|them)|am\b|pm\b|o'?clock|min))", re.IGNORECASE)),
    ("relative", re.compile(r"\b(?:the\s+)?day\s+before\s+yesterday\b", re.IGNORECASE)),
    ("relative", re.compile(r"\b(?:yesterday|yday|today|tonight|this\s+(?:morning|afternoon|evening|am\b|a\.m(?=\.))|last\s+night|last\s+nite|last\s+nyt|ystrdy|yest|tonite|2nite)\b",
                            re.IGNORECASE)),
    ("ago", re.compile(r"\b(\d{1,2}|a|an|one|two|three|four|five|six|seven)\s+(day|week)s?\s+ago\b", re.IGNORECASE)),
    # "tuesday night", "monday morning": the day, never a hotel night
    ("weekday", re.compile(rf"\b(?:(last|this\s+past|past|on|this)\s+)?({'|'.join(_WEEKDAYS)})\b"
                           r"(?:\s+(?:night|nite|evening|morning|afternoon|lunchtime))?", re.IGNORECASE)),
    ("weekday", re.compile(r"\b(?:(last|this\s+past|past|on|this|from|since|until|till)\s+)(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\b\.?",
                           re.IGNORECASE)),
    # a bare abbreviation: "lunch 46,50 mon"; "wed", "sat", "sun" are words too, so only at the end or after a number
    ("weekday", re.compile(r"\b()(mon|tue|tues|thu|thur|thurs|fri)\b\.?", re.IGNORECASE)),
    ("weekday", re.compile(r"(?:(?<=\d\s)|(?<=\d))()(wed|sat|sun)\b\.?(?=\s*$)|\b()(wed|sat|sun)\.?$|^[ \t]*()(wed|sat|sun)\.?"
                           r"(?=[ \t]*:)|^[ \t]*()(wed)\b\.?(?=[ \t]+\S)|(?<=[.!;]\s)()(wed)\b(?=[ \t]+[a-z])|\b()(wed|sat|sun)\.?(?=\s*(?:\+|&|and|-|–|/)\s*(?:mon|tue|wed|thu|fri|sat|sun))", re.IGNORECASE | re.MULTILINE)),  # "wed: lunch 14", "wed taxi 31": a day
    # between what was bought and its price: "only the lunch wed 285", "dinner sat 45,50"
    ("weekday", re.compile("(?:" + "|".join(rf"(?<=\b{w}\s)" for w in (
        "lunch dinner breakfast brunch coffee drinks taxi cab uber bolt train flight bus metro parking hotel fuel petrol "
        "ferry tram snack snacks ticket tickets").split()) + r")()(wed|sat|sun)\.?(?=\s+(?:[€$£]\s*)?\d)", re.IGNORECASE)),
    # before the part of the day it was: "dinner wed evening", "sat morning" (never "the sun in the evening")
    ("weekday", re.compile(r"(?<!\bthe\s)\b()(wed|sat|sun)\.?(?=\s+(?:evening|morning|afternoon|night|noon|lunchtime)\b)",
                           re.IGNORECASE)),
    # heading what was bought: "sat lunch 12,50", "sun train back 79,90" (never "sat down", "sun was out")
    ("weekday", re.compile(r"(?:^|(?<=[.!;,:]\s))[ \t]*()(sat|sun|wed)\b\.?(?=[ \t]+(?:(?:the|a|my)\s+)?(?:lunch|dinner|breakfast|"
                           r"brunch|brekkie|coffee|drinks|taxi|cab|uber|bolt|lyft|train|flight|bus|metro|tram|parking|hotel|"
                           r"fuel|petrol|ferry|snacks?|tickets?)\b)", re.IGNORECASE | re.MULTILINE)),
    # heading its line
    # the day of a line named to change or remove: "remove Wed taxi", "delete the sat dinner", "fix wed's lunch"
    ("weekday", re.compile("(?:" + "|".join(rf"(?<=\b{w}\s)" for w in (
        "remove delete drop del change fix correct update edit scrap").split()) + r")()(wed|sat|sun)"
                           r"(?:'s|’s)?\.?(?=[ \t]+(?:lunch|dinner|breakfast|brunch|coffee|drinks|taxi|cab|uber|bolt|lyft|train|"
                           r"flight|bus|metro|tram|parking|hotel|fuel|petrol|ferry|snacks?|tickets?)\b)", re.IGNORECASE)),
    ("weekday", re.compile(r"(?:(?<=\bthe\s)|(?<=\bthat\s))()(wed|sat)"  # (never "the sun hotel": a name)
                           r"(?:'s|’s)?\.?(?=[ \t]+(?:lunch|dinner|breakfast|brunch|coffee|drinks|taxi|cab|uber|bolt|lyft|train|"
                           r"flight|bus|metro|tram|parking|hotel|fuel|petrol|ferry|snacks?|tickets?)\b)", re.IGNORECASE)),
    # a dotted day and month after "on" or with a year: "on 28.11", "28.11.2026" (alone, 28.11 is an amount)
    # "od 02.12, 860,00 zł", "am 30.11", "le 30.11", "vom 30.11", "ab 1.12", "dal 2.12", "desde 2.12": after "on" or
    # "from" in the languages people mix in (a comma may follow)
    ("dotted_near", re.compile(r"(?:(?<=\bod\s)|(?<=(?<!\d\s)\bam\s)|(?<=\ble\s)|(?<=\bvom\s)|(?<=\bab\s)|(?<=\bdal\s)|(?<=\bdesde\s))"
                               r"\d{1,2}\.\d{1,2}\.?(?!\d|,\d)(?!\s*" + _MONEY_MARK + r")(?!\s*(?:uhr|h\b|o'?clock|am\b|pm\b))",
                               re.IGNORECASE)),  # (of the last three months: never "Zug ab 9.10 Uhr", "Taxi am 20.12")
    ("dotted", re.compile(r"(?:(?<=\bon\s)|(?<=\bfrom\s)|(?<=\bsince\s)|(?<=\buntil\s)|(?<=\bdate\s)|(?<=\bdated\s))"
                          r"\d{1,2}\.\d{1,2}\.?(?:\d{2,4})?(?![\d,])|"
                          # "checkout 26.11", "checked out 26.11", "bought 24.11": the day something happened on
                          r"(?:(?<=\bcheckout\s)|(?<=\bcheck-out\s)|(?<=\bcheckin\s)|(?<=\bcheck-in\s)|(?<=\bout\s)|"
                          r"(?<=\bbought\s)|(?<=\btill\s))\d{1,2}\.\d{1,2}\.?(?!\d|,\d)(?!\s*" + _MONEY_MARK + r")|"
                          r"(?<![\d.,])\d{1,2}\.\d{1,2}\.\d{4}\b"
                          r"|(?<![\d.,])\d{1,2}\.\d{1,2}\.(?!\d|,\d)"  # "28.11.": the German way, the dot closes it
                          # "1.12 Pierogarnia Mandu 18,40 eur": before a name and then the price, with its cents
                          r"|(?<![\d.,€$£])(?:[12]\d|3[01]|0?[1-9])\.(?:1[0-2]|0?[1-9])(?=\s+(?-i:[A-Z])[^\d,;:.!?]{1,40}?\s"
                          r"(?:[€$£]\s?)?\d{1,5}[.,]\d\d\b)",
                          re.IGNORECASE)),
    # a day named by another: "same day", "the day after" (resolved against the line before, or asked about)
    ("anchored", re.compile(r"\b(?:(?:on\s+)?(?:the\s+)?same\s+day|(?:on\s+|in\s+)?that\s+(?:same\s+)?(?:day|morning|afternoon|evening)|(?:in\s+)?(?:the\s+)?same\s+"
                            r"(?:morning|afternoon|evening|night)|(?:on\s+)?the\s+(?:day|night)\s+"
                            r"(?:after|before)|the\s+(?:next|following|previous)\s+day|the\s+day\s+later)\b", re.IGNORECASE)),
    ("dom", re.compile(r"\b(?:on\s+)?the\s+(\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:line|item|entry|row|one|expense|class|round|attempt|quarter|edition|anniversary|"
                       + _ORDINAL_PLACES + r"))", re.IGNORECASE)),
    # "lnch 18th 38": an ordinal day on its own
    ("dom", re.compile(r"(?<![\w.,/])(\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:" + _ORDINAL_PLACES + r")\b)(?!\s+(?:line|item|entry|row|one|expense|class|round|attempt|quarter|edition|anniversary|night|nite|time|"
                       r"floor|place|day|week|year|person|people|guest)s?\b)(?!\s+of\s+(?!jan|feb|mar|apr|may|jun|jul|aug|"
                       r"sep|oct|nov|dec))", re.IGNORECASE)),
    # "the dinner of the 25", "on the 23", "I paid it the 26": a day of the month said without its suffix (never money:
    # no decimals, no currency after it)
    ("dom", re.compile(r"(?:\b(?:of|on|from)|\bcheck(?:ed)?[\s-]?(?:in|out)(?:\s+on)?|\bpaid\s+(?:it|that|this)(?=\s+the\s+\d{1,2}\s*(?:$|[,.;!?]|(?:when|after|before|as|because)\b)))"
                       r"\s+the\s+(\d{1,2})\b(?![.,]\d|\s*(?:€|eur|euros?|usd|\$|gbp|£|chf|%|x\b|nights?|"
                       r"days?|people|lines?|items?))", re.IGNORECASE)),
    ("dom", re.compile(r"(?:(?<=\band\s)|^)(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:line|item|entry|row|one|expense|class|round|attempt|quarter|edition|anniversary))",
                       re.IGNORECASE)),  # "the 29th and 30th"
    # "The 17 the flight back …": a sentence opened by a day of the month, before what happened that day
    ("dom", re.compile(r"(?:^|(?<=[.:;!]\s))the\s+(\d{1,2})\b(?=,?\s+(?:the|i|we|a|an|my|our)\b)", re.IGNORECASE)),
    ("dom", re.compile(r"(?:(?<=\bon\s)|(?<=\bdate\s)|(?<=\bdated\s))(\d{1,2})(?:st|nd|rd|th)\b"
                       r"(?!\s+(?:line|item|entry|row|one|expense|class|round|attempt|quarter|edition|anniversary))", re.IGNORECASE)),
    ("dom", re.compile(DAY_NUMBERED, re.IGNORECASE)),
]


@dataclass(frozen=True, slots=True)
class DateFound(Found):
    value: str | None  # ISO date, or None when the words could not be resolved


def find_dates(text: str, today: date) -> list[DateFound]:
    """Every date phrase in ``text``, resolved against ``today``; overlapping matches keep the first."""
    found: list[DateFound] = []
    taken: list[tuple[int, int]] = []
    for start, end, day in weekdays_with_their_day(text, today):  # "Monday 23", "Tuesday the 24th"
        taken.append((start, end))
        found.append(DateFound(start, end, text[start:end], day.isoformat() if day else None))
    for kind, pattern in _DATE_PATTERNS:
        for m in pattern.finditer(text):
            if any(m.start() < end and start < m.end() for start, end in taken):
                continue
            if kind == "named_range":
                month = next(n for n, name in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep",
                                                          "oct", "nov", "dec"), 1) if m.group(3).lower().startswith(name))
                if (ends := _range_of(int(m.group(1)), month, int(m.group(2)), month, today)) is not None:
                    taken.append((m.start(), m.end()))
                    first_end = m.end(1) + (text[m.end(1):m.end(1) + 1] == ".")  # "1.–3. December": the day's dot
                    found.append(DateFound(m.start(1), first_end, text[m.start(1):first_end], ends[0].isoformat()))
                    found.append(DateFound(m.start(2), m.end(), text[m.start(2):m.end()], ends[1].isoformat()))
                continue
            if kind == "dotted_range":
                if (ends := dotted_range(m, today)) is not None:
                    taken.append((m.start(), m.end()))
                    for n, day in zip((1, 3), ends, strict=True):
                        last = n + 1 if m.group(n + 1) else n  # "23.-25.11": the first day said without its month
                        start, end = m.start(n), m.end(last) + (text[m.end(last):m.end(last) + 1] == ".")
                        found.append(DateFound(start, end, text[start:end], day.isoformat() if day else None))
                continue
            if kind.startswith("dotted") and re.search(r"[€$£¥]\s?$", text[:m.start()]):
                continue  # "Flew easyJet to Edinburgh, £96.40.": a price with its full stop, never a day
            value = _resolve_date("dotted" if kind.startswith("dotted_") else kind, m, today)
            if kind == "slash" and (beside := slashed_by_weekday(text, m.start(), m.end(), today))[0]:
                value = beside[1].isoformat() if beside[1] else None  # "12/9 (Wed)": the reading that was a Wednesday
            if kind == "dotted_to" and not DATE_CHANGED_TO.search(text[:m.start()]):
                continue
            if kind in ("dotted_near", "dotted_lead", "dotted_to", "dotted_beside", "dotted_was", "dotted_dashed",
                        "dotted_sentence") and (value is None or (today - date.fromisoformat(value)).days > (
                            14 if kind == "dotted_was" else 21 if kind in ("dotted_dashed", "dotted_sentence") else 92)):
                continue
            if kind == "dotted_sentence" and (date.fromisoformat(value) > today or not DOTTED_HEADING.match(text)):
                continue
            if kind == "dotted_weekday" and (value is None or not m.group(0).lower().startswith(
                    _WEEKDAYS[date.fromisoformat(value).weekday()][:3])):
                continue  # "monday 74.99", "mon 10.10" on a Saturday: a weekday, then an amount
            taken.append((m.start(), m.end()))
            found.append(DateFound(m.start(), m.end(), m.group(0), value))
    for start, end, day in heading_days(text, today):  # "Mo: ICE … Di: lunch …": other languages' short day names
        if not any(start < e and s < end for s, e in taken):
            taken.append((start, end))
            found.append(DateFound(start, end, text[start:end], day.isoformat() if day else None))
    for m in _SPELLED_DAY.finditer(text):  # "put it on November thirtieth", "the twenty-first of November"
        if any(m.start() < end and start < m.end() for start, end in taken):
            continue
        ordinal = (m.group("o1") or m.group("o2")).lower().replace("-", " ")
        month = _MONTH_NUMBER[(m.group("m1") or m.group("m2")).lower()[:3]]
        day = _past_day(today, _ORDINAL_DAYS[" ".join(ordinal.split())], month)
        taken.append((m.start(), m.end()))
        found.append(DateFound(m.start(), m.end(), m.group(0), day.isoformat() if day else None))
    for m in re.finditer(r"[A-Za-z]{5,}", text):
        # a misspelt day word ("yesteday", "yesterady", "firday") is read as that day, never dropped for today
        if any(m.start() < end and start < m.end() for start, end in taken):
            continue
        word = m.group(0).lower()
        if known_word(word):
            continue  # "monday" is read above; "sunny", "today's" … are words of their own
        distance = {day: DamerauLevenshtein.distance(word, day) for day in _DAY_WORDS if word != day}
        near = [day for day, d in distance.items() if d <= (2 if len(day) >= 8 else 1)]
        if near and word not in lexicon.COMMON_WORDS:
            closest = min(distance[day] for day in near)
            near = [day for day in near if distance[day] == closest]
        if len(near) > 1 and word not in lexicon.COMMON_WORDS:
            # as near to two days ("tusday": tuesday or thursday?): a date the user gave, unreadable, so asked about
            found.append(DateFound(m.start(), m.end(), m.group(0), None))
        elif len(near) == 1 and word not in lexicon.COMMON_WORDS:
            fixed = re.match(r".*", near[0])
            kind = "relative" if near[0] in ("yesterday", "today", "tonight") else "weekday"
            if kind == "weekday":
                fixed = re.match(r"()(\w+)", near[0])
            found.append(DateFound(m.start(), m.end(), m.group(0), _resolve_date(kind, fixed, today)))
    return _weekday_named_twice(sorted(found, key=lambda d: d.start))


# a day of the month written as an ordinal word beside its month: "November thirtieth", "the first of December"
_ORDINAL_UNITS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")
_ORDINAL_DAYS = {**{w: n + 1 for n, w in enumerate(_ORDINAL_UNITS)},
                 **{w: n + 10 for n, w in enumerate(("tenth", "eleventh", "twelfth", "thirteenth", "fourteenth",
                                                       "fifteenth", "sixteenth", "seventeenth", "eighteenth",
                                                       "nineteenth"))},
                 "twentieth": 20, "thirtieth": 30, "thirty first": 31,
                 **{f"twenty {w}": 21 + n for n, w in enumerate(_ORDINAL_UNITS)}}
_MONTH_NUMBER = {m: n + 1 for n, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                                  "nov", "dec"))}
_ORDINAL_WORD = r"(?:thirty[\s-]first|twenty[\s-](?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)|" + "|".join(
    sorted((w for w in _ORDINAL_DAYS if " " not in w), key=len, reverse=True)) + ")"
_MONTH_WORD = r"(?:january|february|march|april|(?-i:May)|june|july|august|september|october|november|december)"  # ("I may
# first need …": a verb, unless written as the month)
_SPELLED_DAY = re.compile(rf"\b(?:(?P<m1>{_MONTH_WORD})\s+(?:the\s+)?(?P<o1>{_ORDINAL_WORD})|(?:the\s+)?(?P<o2>{_ORDINAL_WORD})"
                          rf"\s+(?:of\s+)?(?P<m2>{_MONTH_WORD}))\b", re.IGNORECASE)

# a day of the trip told by its place: "Day 1", "day 2 was all on site", "the last day", "on the second day"
NUMBERED_DAY = re.compile(r"\W*(?:(?:and|so|then|ok|okay|now)\W+)*(?:on\s+)?(?:day\s*(?P<n>[1-9])|(?:the\s+)?(?P<w>first|second|"
                           r"third|fourth|fifth|last|final)\s+day)\b", re.IGNORECASE)


def numbered_day(text: str) -> int | None:
    """The trip's day a heading or a sentence opens with, when it says no figure of its own: 1, 2, … or -1 for the
    last ("Day 2 was all on site", "Last day:"); None otherwise."""
    m = NUMBERED_DAY.match(text)
    if m is None or re.search(r"\d", text[m.end():]):
        return None
    if m.group("n"):
        return int(m.group("n"))
    return {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}.get(m.group("w").lower(), -1)


# the words before the day a line's date is changed to: "change the date of line 2 to", "move the taxi's day to"
DATE_CHANGED_TO = re.compile(r"\b(?:date|day)\b[^.;\n]{0,40}\bto\s+$", re.IGNORECASE)


def dotted_range(m: re.Match[str], today: date) -> tuple[date, date] | None:
    """The first and last day of "30.11-2.12" (groups: day, month, day, month), when both are days, in order, at most a
    month apart, begun within the last three months and ended no later than a week from today; else None."""
    d1, m1, d2, m2 = (int(g) if g else None for g in m.groups()[:4])  # "23.-25.11": the first day in the last's month
    m1 = m1 or m2
    assert d1 is not None and m1 is not None and d2 is not None and m2 is not None
    return _range_of(d1, m1, d2, m2, today)


def _range_of(d1: int, m1: int, d2: int, m2: int, today: date) -> tuple[date, date] | None:
    try:
        first, last = date(today.year, m1, d1), date(today.year, m2, d2)
    except ValueError:
        return None
    if first > today:
        first = first.replace(year=today.year - 1)
    if last < first:
        last = last.replace(year=first.year + 1) if last.year == first.year else last
    if not 0 < (last - first).days <= 31 or (today - first).days > 92 or (last - today).days > 7:
        return None
    return first, last


# the line that closes a list by telling the day of all of it: "that's all for tuesday, thanks!", "all of that was on
# 24.11", "these were from Wednesday"
_CLOSING_DAY = re.compile(r"(?:^|(?<=\n)|(?<=[.!]\s))[ \t]*(?:(?:ok|so|and)\W+)?(?:(?:that'?s|that\s+is|this\s+is|these\s+(?:are|were)|"
                          r"those\s+(?:are|were)|(?:it|they)\s+(?:is|are|was|were))\s+)?(?:all|everything|the\s+lot)(?:\s+of\s+(?:it|them|"
                          r"that|this|these|those))?(?:\s+(?:was|were|is|are))?\s+(?:for|from|on|of)\s+(?P<day>[^\n.!?,;]{2,30}?)"
                          r"\W*(?:(?:thanks?|thank\s+you|thx|ty|cheers|ta)\b\W*)?$", re.IGNORECASE)


def closing_day(message: str, today: date) -> tuple[int, int, str] | None:
    """(start, end, ISO day) of a last line or sentence that tells the one day of everything before it."""
    m = _CLOSING_DAY.search(message.rstrip())
    if m is None or m.start() == 0 or not re.search(r"\d", message[:m.start()]):
        return None
    found = find_dates(m.group("day"), today)
    days = {d.value for d in found if d.value}
    if len(days) != 1 or mask(m.group("day"), [(d.start, d.end) for d in found]).strip(" ,."):
        return None
    return m.start(), len(message.rstrip()), days.pop()


def heading_day(message: str, today: date) -> str | None:
    """The one day heading a message before a colon ("wed 25th: …", "all on 2-12: …"), as an ISO date."""
    head = re.match(r"^\W*([^:\n]{1,30}):\s", message)
    if head is None or re.search(r"[€$£]", head.group(1)):
        return None
    found = find_dates(head.group(1), today)
    if re.search(r"\d[.,]\d", mask(head.group(1), [(d.start, d.end) for d in found])):
        return None
    days = {d.value for d in found if d.value}
    return days.pop() if len(days) == 1 else None


def _weekday_named_twice(found: list[DateFound]) -> list[DateFound]:
    """"Tuesday the 24th of November", "the Thursday evening (the 19th)": a weekday beside a date that falls on
    it names that date, not the latest such weekday."""
    out = list(found)
    for weekday in found:
        name = weekday.text.lower().split()[-1].rstrip(".")[:3] if weekday.text.strip() else ""
        if not any(name == w[:3] for w in _WEEKDAYS):
            continue
        for other in found:
            if other is weekday or other.value is None or abs(other.start - weekday.end) > 25 and abs(
                    weekday.start - other.end) > 25:
                continue
            if _WEEKDAYS[date.fromisoformat(other.value).weekday()].startswith(name) and weekday in out:
                out.remove(weekday)
    return out


_DAY_WORDS = ("yesterday", "today", "tonight", *_WEEKDAYS)


def _settings(today: date, order: str = "DMY") -> dict:
    return {"RELATIVE_BASE": datetime(today.year, today.month, today.day, 12, 0), "PREFER_DATES_FROM": "past",
            "DATE_ORDER": order, "RETURN_AS_TIMEZONE_AWARE": False, "STRICT_PARSING": False}


def _parse(text: str, today: date, order: str = "DMY") -> date | None:
    parsed = dateparser.parse(text, languages=["en"], settings=_settings(today, order))
    return parsed.date() if parsed else None


def _resolve_date(kind: str, m: re.Match[str], today: date) -> str | None:
    words = m.group(0).lower()
    value: date | None
    if kind == "week_day":
        return (found := day_of_a_week(m, today)) and found.isoformat()
    if kind == "iso":
        try:
            year, month, day = (int(n) for n in re.findall(r"\d+", m.group(0)))
            value = date(year, month, day)
        except ValueError:
            value = None
    elif kind == "relative":
        if "before" in words:
            value = today - timedelta(days=2)
        elif words in ("yesterday", "yday", "yest", "ystrdy") or words.startswith("last"):
            value = _parse("yesterday", today)
        else:
            value = _parse("today", today)
    elif kind == "ago":
        count = _COUNT_WORDS.get(m.group(1).lower()) or int(m.group(1))
        unit = m.group(2).lower()
        value = _parse(f"{count} {unit}{'s' if count > 1 else ''} ago", today)
    elif kind == "anchored":
        value = None  # the reader resolves it against the day it refers to
    elif kind == "dotted":
        parts = [int(p) for p in re.findall(r"\d+", m.group(0))]
        year = (parts[2] + 2000 if parts[2] < 100 else parts[2]) if len(parts) > 2 else None
        try:
            value = date(year or today.year, parts[1], parts[0])
        except ValueError:
            value = None
        if value is not None and year is None and value > today:
            value = value.replace(year=today.year - 1)
    elif kind == "weekday":
        groups = [g for g in m.groups() if g is not None]
        qualifier = (groups[0] if len(groups) > 1 else "").lower()
        word = groups[-1].lower()
        wanted = next(n for n, name in enumerate(_WEEKDAYS) if name.startswith(word[:3]))
        back = (today.weekday() - wanted) % 7
        if back == 0 and qualifier in ("last", "this past", "past"):
            back = 7
        value = today - timedelta(days=back)
    elif kind == "dom":
        day = int(m.group(1))
        value = day_of_month(today, day)
    elif kind == "slash":
        value = _slash_date(m.group(0), today)
    elif kind == "dashed":
        value = _slash_date(m.group(0).replace("-", "/"), today, day_first=True)
        if value is not None and abs((today - value).days) > 92:
            value = None  # "4-5" read as 4 May in a November claim: no day of this trip, so asked about
    else:
        cleaned = re.sub(r"(\d)(?:(?:st|nd|rd|th)\b|\.(?=\s))", r"\1", m.group(0), flags=re.IGNORECASE).replace(" of ", " ")
        cleaned = re.sub(r"^(\d{1,2})-([A-Za-z]+)\.?(?:-((?:20)?\d\d))?$", lambda d: f"{d.group(1)} {d.group(2)}" + (
            f" {d.group(3) if len(d.group(3)) == 4 else '20' + d.group(3)}" if d.group(3) else ""), cleaned)  # "26-Oct"
        value = _parse(cleaned, today)
    return value.isoformat() if value else None


def _slash_date(text: str, today: date, *, day_first: bool = False) -> date | None:
    """"28/11", "11/28" (a month is at most 12, so the other order), "17/11/2026": day first when both fit."""
    parts = [int(p) for p in re.findall(r"\d+", text)]
    first, second = parts[0], parts[1]
    day, month = (second, first) if first <= 12 < second and not day_first else (first, second)
    if not day_first and len(parts) == 2 and first != second and first <= 12 and second <= 12:
        # "12/2" on 3 December: 2 December, not 12 February (the audit's reading too: the one near today, when the
        # other is far; else the day first)
        near = [(d, mo) for d, mo in ((first, second), (second, first)) if (r := _past_day(today, d, mo)) is not None
                and (today - r).days <= 120]
        if len(near) == 1:
            day, month = near[0]
    year = parts[2] if len(parts) > 2 else today.year
    year = year + 2000 if year < 100 else year
    try:
        value = date(year, month, day)
    except ValueError:
        return None
    if len(parts) == 2 and value > today:
        value = value.replace(year=year - 1)
    return value if abs((today - value).days) <= 730 else None


def _past_day(today: date, day: int, month: int) -> date | None:
    try:
        guess = date(today.year, month, day)
    except ValueError:
        return None
    return guess if guess <= today else guess.replace(year=today.year - 1)


def day_of_month(today: date, day: int) -> date | None:
    """"on the 20th": this month's 20th when it is not in the future, else last month's."""
    year, month = today.year, today.month
    if day > today.day:
        month -= 1
        if month == 0:
            year, month = year - 1, 12
    try:
        return date(year, month, day)
    except ValueError:
        return None


# --------------------------------------------------------------------------- amounts

_NUMBER = re.compile(r"(?<![\w.,/:-])(\d{1,3}(?:\.\d{3})+,\d{1,2}|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?)"
                     # a currency may be glued on ("12.50eur", "30€"), no other letter
                     # ("239/night": a price for each night; "12/11" is a day)
                     r"(?!(?!(?:eur|euros?|usd|gbp|chf|sek|nok|dkk|pln|czk|jpy)\b)[\w:]|/(?!\s?(?:nights?|nites?|nts?|n|"
                     r"days?|person|pax|head|ride)\b)|[.,]\d)", re.IGNORECASE)
SPACED_THOUSANDS = re.compile(r"(?<![\w.,/:-])\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d{1,2})?(?![\d]|[.,]\d)")
_SPACED_CURRENCY = re.compile(r"kr|kn|zł|zl|kč|ft|kronor|kroner|kronur|crowns?|korun[ay]?|złoty|zloty|forint", re.IGNORECASE)
# with no currency beside it, thousands grouped by a space are one price only where a price stands: after "was", a
# comma or a dash ("Hotel Oleana, 2 150", "it was 1 120 no sorry 1 210"), or before "in total", "all in", "for both"
_PRICE_SLOT_BEFORE = re.compile(r"(?:[,:–—=]|\s-|\b(?:was|were|is|paid|cost|costs|came\s+to|so|again|total|makes?)|"
                                r"\b(?:about|around|roughly)|\b(?:sorry|no|or))\s*$", re.IGNORECASE)
_TOTAL_AFTER = re.compile(r"\s*(?:in\s+total|total|all\s+in|altogether|together|for\s+(?:both|the\s+two|all|the\s+lot|"
                          r"the\s+(?:two|three|four)\s+(?:nights|days))\b)", re.IGNORECASE)


def spaced_thousands(text: str) -> list[tuple[int, int, Decimal, str | None]]:
    """Prices written with their thousands grouped by a space ("3 480 kr", "€ 1 250", "Hotel Oleana, 2 150", "3 890 in
    total"): (start, end, value, currency) of the digits, each beside a currency or where a price stands; never a
    count and its price ("dinner for 4 980 kr", "beers 4 240 kr", "3 nights 1 240 kr/night")."""
    found = []
    for m in SPACED_THOUSANDS.finditer(text):
        before, after = _SYMBOL_BEFORE.search(text[:m.start()]), _AFTER.match(text[m.end():])
        code = (lexicon.CURRENCY_SYMBOLS[before.group(1)] if before else None) or (after and (
            lexicon.CURRENCY_SYMBOLS.get(after.group(1)) or _currency_word(after.group(1), strict_case=False))) or (
            _currency_word(coded.group(1), strict_case=True) if (coded := _CODE_BEFORE.search(text[:m.start()])) else None) \
            or None  # ("NOK 1 249,00": the code before it, in capitals)
        if re.search(r"(?:\b(?i:for)|\b[a-z]{3,}(?<!s)s|\b(?i:x))\s+$", text[:m.start()]):
            continue  # (a name in capitals is no count: "hotel Nobis 3 890 in total")
        close = m.end() + (after.end(1) if after else 0)
        if re.match(r"\s*(?:/|a\s|per\b|each\b|ea\b|pp\b|x\b)", text[close:], re.IGNORECASE):
            continue
        if code or (after and _SPACED_CURRENCY.fullmatch(after.group(1))) or _PRICE_SLOT_BEFORE.search(
                text[:m.start()]) or _TOTAL_AFTER.match(text, m.end()):
            found.append((m.start(), m.end(), _amount_of(re.sub(r"\s", "", m.group(0))) or Decimal(0), code))
    return found
_SYMBOL_BEFORE = re.compile(r"([€$£¥])\s?$")
_CODE_BEFORE = re.compile(r"\b([A-Za-z]{3})\s?$")
_FRANCS_BEFORE = re.compile(r"\b(?-i:S?Fr|SFR)\.\s?$|\b(?-i:SFr|SFR)\s?$")  # the Swiss "Fr. 34.-", written with its dot
_AFTER = re.compile(r"^\s?([€$£¥]|[A-Za-z]+)")


@dataclass(frozen=True, slots=True)
class AmountFound(Found):
    amount: Decimal | None  # None when the number is not a usable amount (more than two decimals, …)
    currency: str | None  # ISO code the user wrote next to it, or an unknown three-letter code
    marked: bool  # a currency or a word like "for"/"of" points at it as money
    counted: bool = False  # a small whole number before a noun ("3 coffees"): likely a count
    quantity: int | None = None  # a product's count ("2 nights at 150 each": 2; the amount is the total)


# what a price said as "four eighty" is for: small things (4.80), or things that cost hundreds ("one twenty five" a
# night: 125); anything else keeps both readings, and two amounts are asked about
_SMALL_THINGS = re.compile(r"\b(?:coffees?|espressos?|cappuccinos?|teas?|snacks?|water|sandwich(?:es)?|croissants?|pastr(?:y|ies)|"
                           r"beers?|breakfast|lunch|brunch|bakery|metro|tube|bus|tram|subway|underground|u-?bahn|s-?bahn|"
                           r"tolls?|tips?|lockers?|newspapers?|parking)\b", re.IGNORECASE)
_LARGE_THINGS = re.compile(r"\b(?:hotels?|hotel|nights?|nites?|flights?|flew|fly|airline|airlines|airways|airfare|plane|"
                           r"registration|conference\s+fee|course\s+fee|rent|rental|car\s+hire|eurostar|tgv|ice|thalys|"
                           r"frecciarossa|italo|intercity|ryanair|easyjet|klm|lufthansa|iberia|vueling|ita)\b", re.IGNORECASE)


def one_reading(text: str, found: list[NumberFound]) -> list[NumberFound]:
    """Of a price said in words that reads two ways ("four eighty": 4.80 or 480), the one the thing it is for
    fits; both when nothing says which (the reader then asks)."""
    kept = []
    for f in found:
        if not any(g is not f and (g.start, g.end) == (f.start, f.end) for g in found):
            kept.append(f)
            continue
        # the words of its own clause: "I flew …, and then the train … five sixty" is a train's price
        begun = max((m.end() for m in _CLAUSE_BREAK.finditer(text, 0, f.start)), default=0)
        ended = next((m.start() for m in _CLAUSE_BREAK.finditer(text, f.end)), len(text))
        own = text[begun:ended]
        # where a ride went is not what was bought: "taxi to the hotel six twenty" is a taxi's price
        own = _PLACE_WORDS.sub(" ", own)
        large, small = bool(_LARGE_THINGS.search(own)), bool(_SMALL_THINGS.search(own))
        if _RIDES.search(own) or large == small or f.hundreds == large:
            kept.append(f)  # a ride's price in words ("taxi six twenty") is asked: 6.20 and 620 are both fares
    return kept


_PLACE_WORDS = re.compile(r"\b(?:to|from|for|at|into|towards|via|near)\s+(?:the\s+|my\s+|our\s+|a\s+)?(?:[^\W\d_]+\s+){0,2}"
                          r"[^\W\d_]+", re.IGNORECASE)
_RIDES = re.compile(r"\b(?:taxi|taxis|cab|cabs|uber|lyft|bolt|ride|rides|minicab|freenow)\b", re.IGNORECASE)
_CLAUSE_BREAK = re.compile(r"[.;!?\n]|,\s*(?:and\s+)?(?:then\s+)?(?=(?:i|we|a|an|the|my|our)\b)|\band\s+then\b|\bthen\b",
                           re.IGNORECASE)


# what happened at an hour: "the flight was at 6", "the train left at 5", "boarding at 7"
_AT_THE_HOUR = re.compile(r"\b(?:flight|train|bus|plane|boarding|departure|arrival|meeting|it|that|which|we|i|was|were|left|"
                          r"leaves|leaving|departed|departs|boarded|landed|arrived|arrives|started|starts|ended|ends|"
                          r"finished|woke|got\s+up)\s+(?:was\s+|is\s+)?(?:at|around|about)\s+$", re.IGNORECASE)


def priced_alike(price: Decimal, before: Decimal) -> bool:
    """Is ``price`` like the ``before`` it follows (half to one and a half of it), as the next night of a stay or the
    same kind of expense on the next day is? ("… and tuesday 292": the stay's total, not a night)"""
    return bool(before) and Decimal("0.5") <= price / before <= Decimal("1.5")


def find_amounts(text: str) -> list[AmountFound]:
    """Numbers that may be money in ``text`` (already masked of dates and line references).

    A quantity times a unit price ("2 nights at 150 each") is one amount, the product; numbers in
    words ("fifty euros", "twenty-five") count like digits. Both are read the way the reducer reads
    evidence (``registries.numbers``), so a proposed amount is always one it finds.
    """
    said = text
    found: list[AmountFound] = []
    for product in one_reading(text, quantity_products(text)):
        raw = text[product.start:product.end]
        code = next((lexicon.CURRENCY_SYMBOLS[ch] for ch in raw if ch in lexicon.CURRENCY_SYMBOLS), None)
        for word in re.findall(r"[A-Za-z]+", raw):
            code = code or (_currency_word(word, strict_case=False) if word.lower() in lexicon.CURRENCY_WORDS else None)
        found.append(AmountFound(product.start, product.end, raw, _amount_of(str(product.value)), code, True,
                                 quantity=product.count))
    for phrase in one_reading(text, money_phrases(mask(text, [(f.start, f.end) for f in found]))):
        raw = text[phrase.start:phrase.end]
        code = next((lexicon.CURRENCY_SYMBOLS[ch] for ch in raw if ch in lexicon.CURRENCY_SYMBOLS), None)
        for word in re.findall(r"[A-Za-z]+", raw):
            code = code or (_currency_word(word, strict_case=False) if word.lower() in lexicon.CURRENCY_WORDS else None)
        found.append(AmountFound(phrase.start, phrase.end, raw, _amount_of(str(phrase.value)), code, True))
    text = mask(text, [(f.start, f.end) for f in found])
    for number in number_words(text):
        raw = text[number.start:number.end]
        currency = None
        if am := _AFTER.match(text[number.end:]):
            currency = lexicon.CURRENCY_SYMBOLS.get(am.group(1)) or _currency_word(am.group(1), strict_case=False)
        before = text[:number.start]
        marked = currency is not None or bool(re.search(
            r"\b(?:for|of|costing|cost|costs|was|is|be|to|paid|spent|total|came\s+to)\s*:?\s*$", before, re.IGNORECASE))
        following = re.match(r"\s*([A-Za-z]+)", text[number.end:])
        if following and following.group(1).lower() in lexicon.QUANTITY_UNITS:
            continue  # "four nights": a count
        if not marked and (number.value < 10 or (following and following.group(1).lower() not in ("for", "and",
                                                                                                "yesterday", "today"))):
            continue  # "two coffees", "one taxi": a count, not money
        end = number.end + (am.end(1) if currency and am else 0)
        found.append(AmountFound(number.start, end, text[number.start:end], _amount_of(str(number.value)),
                                 currency, marked))
    spaced = []
    for at, to, _, code in spaced_thousands(text):  # "3 480 kr" ("kr": crowns, which ones the claim says), "€ 1 250"
        before, after = _SYMBOL_BEFORE.search(text[:at]), _AFTER.match(text[to:])
        if before is None and (coded := _CODE_BEFORE.search(text[:at])) and _currency_word(coded.group(1), strict_case=True):
            before = coded  # "NOK 1 249,00"
        named = bool(code or (after and _SPACED_CURRENCY.fullmatch(after.group(1))))
        start, end = (before.start(1) if before else at), (to + after.end(1) if named and after and not before else to)
        found.append(AmountFound(start, end, text[start:end], _amount_of(re.sub(r"\s", "", text[at:to])), code, True))
        spaced.append((start, end))
    text = mask(text, spaced)
    for m in _NUMBER.finditer(text):
        start, end = m.start(), m.end()
        currency, marked = None, False
        before = text[:start]
        if sm := _SYMBOL_BEFORE.search(before):
            currency, start, marked = lexicon.CURRENCY_SYMBOLS[sm.group(1)], sm.start(1), True
        elif (cm := _CODE_BEFORE.search(before)) and _currency_word(cm.group(1), strict_case=True):
            currency, start, marked = _currency_word(cm.group(1), strict_case=True), cm.start(1), True
        elif fm := _FRANCS_BEFORE.search(before):
            currency, start, marked = "CHF", fm.start(), True  # "Fr. 34.-", "SFr. 27.50": Swiss francs
        if currency is None and (am := _AFTER.match(text[end:])):
            word = am.group(1)
            code = lexicon.CURRENCY_SYMBOLS.get(word) or _currency_word(word, strict_case=False)
            if code:
                currency, end, marked = code, end + am.end(1), True
        following = re.match(r"\s*([A-Za-z%]+)", text[end:])
        if not marked and re.search(r"\bday\s*$", before, re.IGNORECASE) and m.group(0).isdigit() and int(m.group(0)) <= 31:
            continue  # "Day 2 (Tue 24.11.): lunch …": which day of the trip, never a price
        if not marked and re.match(r"\s*of\s+(?:us|them|you)\b", text[end:], re.IGNORECASE):
            continue  # "4 of us": how many ate, not what it cost
        if not marked and m.group(0).isdigit() and int(m.group(0)) <= 12 and _AT_THE_HOUR.search(before) and not re.match(
                r"\s*(?:each|a\s+night|per|x\b|/)", text[end:], re.IGNORECASE):
            continue  # "flight was at 6 so no buses": the hour, never a price
        if not marked and re.match(r"-[^\W\d_]", text[end:]) and m.group(0).isdigit():
            continue  # "7-Eleven", "a 3-day pass": part of a name or a count, never a price
        if not marked and following and (following.group(1).lower() in lexicon.QUANTITY_UNITS
                                         or following.group(1) in ("%", "x")):
            continue  # a count ("2 nights"), not money
        if not marked and re.search(r"\b(?:for|of|costing|cost|costs|was|is|be|to|at|paid|spent|by|total|"
                                    r"totalling|totaling|came to)\s*:?\s*$|[:=]\s*$", before, re.IGNORECASE):
            marked = True
        raw = text[start:end]
        counted = (not marked and m.group(1).isdigit() and int(m.group(1)) < 100 and following is not None
                   and following.group(1).isalpha())
        found.append(AmountFound(start, end, raw, _amount_of(raw), currency, marked, counted))
    if any(f.currency is None for f in found) and _NON_ASCII_BESIDE.search(text):
        found = _named_beside(text, found)  # "95 zł", "340 Kč": a currency written in its own letters
    return _names_with_numbers(said, sorted(found, key=lambda f: f.start))


# a whole number right after a name said after "at" ("dinner at Curry 36", "lunch at Café 1900"): part of the name
_NAME_BEFORE = re.compile(r"(?i:\b(?:(?:breakfast|brunch|lunch|dinner|supper|drinks|coffee|meal)\s+(?:at|@)|hotel|hostel|"
                          r"restaurant|caf[eé]|bar))\s+(?:the\s+)?[A-Z][^\W\d_]*(?:['’][^\W\d_]+)?\s+$")


# "89 per night", "89 a night", "89/night", "89 each": a rate, never a name's figure
_A_RATE_AFTER = re.compile(r"\s*(?:per|a|an|each|/|pro|la)\s*(?:night|nite|nt|day|person)?\b|\s*each\b", re.IGNORECASE)


def _names_with_numbers(text: str, found: list[AmountFound]) -> list[AmountFound]:
    """"dinner at Curry 36 yesterday, 12,50": the 36 is the place's name when the one other amount of the words is
    written as money (decimals or a currency) and nothing but a day or a comma stands between them; "dinner at Vapiano
    36" alone keeps its 36 as the price."""
    named = [f for f in found if not f.marked and f.text.isdigit() and _NAME_BEFORE.search(text[:f.start]) and not
             _A_RATE_AFTER.match(text[f.end:]) and (not re.search(r"(?i)\b(?:hotel|hostel)\s+\S+\s+$", text[:f.start])
                                                      or re.search(r"(?i)\b\d+\s*(?:nights?|nts?|nites?)\b", text))]
    if len(named) != 1:
        return found
    others = [f for f in found if f is not named[0]]
    if len(others) != 1 or others[0].start < named[0].end or not (others[0].currency or re.search(r"\d[.,]\d{2}$", others[0].text.strip())):
        return found
    nights = [int(n) for n in re.findall(r"\b(\d{1,2})\s*(?:nights?|nts?|nites?|x)\b", text, re.IGNORECASE)]
    if any(others[0].amount is not None and Decimal(named[0].text) * n == others[0].amount for n in nights):
        return found  # "hotel Ibis 89, 2 nights 178.00 total": a night's price and the stay's, never a name
    if re.search(r"[^\W\d_]{2,}", re.sub(r"(?i)\b(?:eur|euros?|total|in\s+total|chf|sek|dkk|nok|gbp|usd|pln|czk|kr|zł|kč)\b",
                                         "", text[others[0].end:])) and not re.match(r"\W*$", text[others[0].end:]):
        return found  # "lunch at Vapiano 14 yesterday, 2.50 tip": the figure after is something else's
    between = text[named[0].end:others[0].start]
    if re.search(r"\b(?:and|plus|also|then|tip|tips|\w+ing)\b|[+;&]", between, re.IGNORECASE) or len(between) > 40:
        return found
    return others


_NON_ASCII_BESIDE = re.compile(r"\d\s?[A-Za-z]*[^\x00-\x7f\d\s]|[^\x00-\x7f\d\s][A-Za-z]*\s?\d")


def _named_beside(text: str, found: list[AmountFound]) -> list[AmountFound]:
    """Each amount with no currency read gets the one currency written right beside it (Babel's names and symbols,
    ``registries.currencies``), when that names exactly one."""
    mentions = currency_mentions(text)
    out = []
    for f in found:
        beside = [m for m in mentions if f.currency is None and (
            (m.start >= f.end and not text[f.end:m.start].strip()) or (m.end <= f.start and not text[m.end:f.start].strip()))]
        code = currency_meant(beside[0]) if len(beside) == 1 else None
        out.append(replace(f, currency=code, marked=True, start=min(f.start, beside[0].start), end=max(f.end, beside[0].end))
                   if code else f)
    return out


def _currency_word(word: str, *, strict_case: bool) -> str | None:
    lowered = word.lower()
    if lowered in lexicon.CURRENCY_WORDS:
        if strict_case and len(word) == 3 and not word.isupper() and lowered not in ("eur", "usd", "gbp", "chf"):
            return None
        return lexicon.CURRENCY_WORDS[lowered]
    if strict_case and len(word) == 3 and word.isupper() and is_iso_currency(word):
        return word  # an ISO code the reference table may not know: kept, so the refusal is honest
    return None


def _amount_of(raw: str) -> Decimal | None:
    """The amount price-parser reads in ``raw``; None past two decimals or out of range."""
    price = Price.fromstring(raw)
    if price.amount is None:
        return None
    amount = Decimal(str(price.amount))
    if amount <= 0 or amount >= Decimal("1000000") or amount != amount.quantize(Decimal("0.01")):
        return None
    return amount


reducer_numbers = evidence_numbers  # the engine's own reading, shared through the registries API


def things_counted(text: str, start: int, end: int) -> bool:
    """"we scanned like 200 badges at the booth": a number of things that are no expense and no unit of one (a plural
    noun right after it, no currency, no kind of expense), not said as what something cost."""
    m = re.match(r"\s*([^\W\d_]{4,})\b", text[end:])
    if m is None or not text[start:end].isdigit() or re.search(r"[€$£¥]\s?$", text[max(0, start - 2):start]):
        return False
    noun = m.group(1).lower()
    if not noun.endswith("s") or noun in lexicon.CURRENCY_WORDS or noun in _UNITS_OF_EXPENSES or any(
            c.category != "other" for c in find_categories(noun)):  # ("200 badges": things, "other" if bought)
        return False
    return not re.search(r"\b(?:for|at|@|each|per|cost|costs|was|were|paid|total|of)\s*$", text[max(0, start - 16):start],
                         re.IGNORECASE)


# what an expense may be counted in ("2 nights", "3 rides", "4 coffees"): never a count of something else
_UNITS_OF_EXPENSES = frozenset("nights nites rides tickets returns singles passes journeys items pieces rooms times units "
                               "drinks coffees beers meals lunches dinners breakfasts sandwiches fares trips legs ways "
                               "persons people guests pax heads euros dollars pounds francs".split())


def counts_only(text: str) -> bool:
    """Does ``text`` tell numbers of things only ("we scanned like 200 badges at the booth"): no currency, no kind of
    expense, and each figure a count of things?"""
    atoms = list(re.finditer(r"\d+(?:[.,]\d+)?", text))
    return bool(atoms) and not currencies_named(text) and not [
        c for c in find_categories(text) if not c.weak and c.category != "other"] and all(
        things_counted(text, m.start(), m.end()) for m in atoms)


def quotable(amount: Decimal, evidence: str) -> bool:
    """Will the reducer find ``amount`` in ``evidence``? (Numbers compare numerically.)"""
    return any(n == amount for n in reducer_numbers(evidence))


def money_text(amount: Decimal) -> str:
    """The canonical argument form: ``Decimal('42.5')`` → ``"42.50"``."""
    return str(amount.quantize(Decimal("0.01")))


# --------------------------------------------------------------------------- currency names


@cache
def _currency_names() -> tuple[tuple[str, str], ...]:
    """(lower-case English name, ISO code), longest first: "egyptian pounds", "swiss franc", … (babel's CLDR data)."""
    names: dict[str, str] = {}
    for code in Locale.parse("en").currencies:
        for count in (1, 2):
            name = get_currency_name(code, count=count, locale="en").lower()
            if " " in name:  # single words ("euro", "pound") are the lexicon's: they name the common currency
                names.setdefault(name, code)
                # the crowns in English ("Czech crowns", "Swedish crowns"): koruna, krona and krone translated
                names.setdefault(re.sub(r"\b(?:korun(?:a|as|y)?|kron(?:a|e|or|er))\b", "crowns" if count == 2 else "crown",
                                        name), code)
    return tuple(sorted(names.items(), key=lambda item: -len(item[0])))


def currency_named(text: str) -> tuple[str, int, int] | None:
    """A currency the text names in words or as a code in brackets: ("EGP", start, end) for "Egyptian pounds"."""
    lowered = text.lower()
    # a currency's word set apart at the end: "Lisboa festival scouting, euros", "Rotterdam hull survey, euro please",
    # "Salon des vins Bordeaux, en euros" (said last, it is the claim's, whatever the title names)
    words = "|".join(sorted((w for w in lexicon.CURRENCY_WORDS if len(w) > 3), key=len, reverse=True))
    if m := re.search(rf"(?:,|\s[-–—])\s*(?:(?:in|en|em|auf)\s+)?({words})\s*(?:,?\s*(?:{lexicon.PLEASE}))?\W*$", lowered):
        return lexicon.CURRENCY_WORDS[m.group(1)], m.start(1), m.end(1)
    for name, code in _currency_names():
        if (m := word_search(name, lowered)):
            return code, m.start(), m.end()
    if m := re.search(rf"\bin\s+({'|'.join(lexicon.OTHER_CURRENCY_WORDS)})\b", lowered):
        return lexicon.OTHER_CURRENCY_WORDS[m.group(1)], m.start(1), m.end(1)
    if m := re.search(r"\(\s*([A-Z]{3})\s*\)", text):
        if is_iso_currency(m.group(1)):
            return m.group(1), m.start(), m.end()
    # any other name or symbol of a currency, in any language (Babel's CLDR data): "in kronor", "in złoty", "in korun"
    for mention in currency_mentions(text):
        if mention.kind != "code" and (code := currency_meant(mention, reference_currencies())):
            return code, mention.start, mention.end
    # a code set apart between commas: "New claim, SEK, \"Stockholm partner summit\"", "new claim (NOK) for Oslo"
    if (m := re.search(r"(?:[,;(]|\s[-–—])\s*([A-Z]{3})\s*(?=[,;)]|\s[-–—])", text)) and is_iso_currency(m.group(1)):
        return m.group(1), m.start(1), m.end(1)
    # a code set apart at the end: "Sao Paulo visit, BRL pls", "Oslo trip - NOK", "'Stockholm kickoff' SEK",
    # "Chicago expo usd"
    if m := re.search(rf"(?:,|\s[-–—]|\bin|[\"”’'\s])\s*([A-Z]{{3}}|[a-z]{{3}})\s*(?:,?\s*(?:{lexicon.PLEASE}))?\W*$", text):
        code = m.group(1)
        if code.isupper() and is_iso_currency(code):
            return code, m.start(1), m.end(1)
        if code.islower() and code in lexicon.CURRENCY_WORDS:  # "… usd", "Currency is yen."
            return lexicon.CURRENCY_WORDS[code], m.start(1), m.end(1)
    return None


# --------------------------------------------------------------------------- line references

_ORDINAL_WORD = "|".join(lexicon.ORDINAL_WORDS)
_NUMBER_WORD = "|".join(lexicon.NUMBER_WORDS)
_LINE_PATTERNS = [
    re.compile(r"\b(?:line|item|entry|row)\s*(?:#|no\.?\s*|number\s+)?(\d{1,3})\b", re.IGNORECASE),
    re.compile(rf"\b(?:line|item|entry|row)\s+({_NUMBER_WORD})\b", re.IGNORECASE),
    re.compile(rf"\b(?:the\s+)?({_ORDINAL_WORD}|last|final|\d{{1,2}}(?:st|nd|rd|th))\s+"
               rf"(?:line|item|entry|row|expense|one)s?\b", re.IGNORECASE),
    re.compile(r"(?<![\w&])#(\d{1,3})\b"),
]


@dataclass(frozen=True, slots=True)
class LineFound(Found):
    ordinal: int | None  # None means "the last line"


def find_line_refs(text: str) -> list[LineFound]:
    found: list[LineFound] = []
    for pattern in _LINE_PATTERNS:
        for m in pattern.finditer(text):
            if any(m.start() < f.end and f.start < m.end() for f in found):
                continue
            word = m.group(1).lower()
            if word in ("last", "final"):
                ordinal = None
            elif word in lexicon.ORDINAL_WORDS:
                ordinal = lexicon.ORDINAL_WORDS[word]
            elif word in lexicon.NUMBER_WORDS:
                ordinal = lexicon.NUMBER_WORDS[word]
            else:
                ordinal = int(re.sub(r"\D", "", word))
            found.append(LineFound(m.start(), m.end(), m.group(0), ordinal))
    return sorted(found, key=lambda f: f.start)


# --------------------------------------------------------------------------- words, categories, merchants

_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['’&.-])*[^\W\d_]|[^\W\d_]")  # letters of any alphabet ("śniadanie")
# short words one letter from everyday ones ("wine"/"fine", "beer"/"been", "tube"/"tune") are matched as written only
# (and place names: "basel"/"bagel")
_EXACT_ONLY = frozenset("wine beer beers tube teas bagel pizza sushi salad wifi scooter diesel".split())
_FUZZY_CATEGORY_WORDS = [w for w in lexicon.CATEGORY_WORDS if len(w) >= 4 and w not in _EXACT_ONLY
                         and w not in lexicon.ABROAD_WORDS]
# words that are spelt right as they are: never "corrected" into a category noun ("cafe" stays, "tax" too)
_KNOWN_WORDS = frozenset(
    set(lexicon.FILLER) | set(lexicon.CURRENCY_WORDS) | set(lexicon.QUANTITY_UNITS) | set(lexicon.ORDINAL_WORDS)
    | set(lexicon.NUMBER_WORDS) | {w for verbs in lexicon.VERBS.values() for v in verbs for w in v.split()}
    | set(lexicon.COMMON_WORDS) | set(lexicon.FUNCTION_WORDS_ABROAD))


def plain(word: str) -> str:
    """A word as the lexicon spells it: lower case, no possessive ("taxi's" → "taxi")."""
    return re.sub(r"['’]s$", "", word.lower()).strip(".'’-")


def words(text: str) -> list[Found]:
    return [Found(m.start(), m.end(), m.group(0)) for m in _WORD.finditer(text)]


@dataclass(frozen=True, slots=True)
class CategoryFound(Found):
    category: str
    weak: bool


_INCLUDED = re.compile(r"\b(?:incl\.?|including|inc\.?|included)\s*(?:the\s+)?$", re.IGNORECASE)


# after "travel": who booked or pays ("our travel desk", "the travel agency"), never a journey bought
TRAVEL_BOOKER = re.compile(r"\s+(?:desk|agency|agent|agents|office|team|department|dept|management|manager|booking\s+tool|"
                           r"tool|portal|policy|app)\b", re.IGNORECASE)


def find_categories(text: str, known: frozenset[str] = frozenset()) -> list[CategoryFound]:
    """Category nouns in ``text`` (synonyms, and near-miss spellings of longer ones)."""
    found = []
    for w in words(text):
        word = plain(w.text)
        if (elided := re.match(r"(?:l|d|dell|dall|all|nell|sull)['’](?=\w{3})", word)) and elided.end() < len(word) and \
                lexicon.CATEGORY_WORDS.get(word[elided.end():]):
            word = word[elided.end():]  # "l'hôtel", "dell'albergo": the French and Italian article joined to the noun
        category = lexicon.CATEGORY_WORDS.get(word) or ("travel" if w.text in lexicon.TRAIN_SERVICES and not re.match(
            r"\s+[A-Z]{2,}\b", text[w.end:]) else None) or (  # ("ICE LATTE 5,40": a statement row in capitals)
            "travel" if w.text == "IC" and _intercity(text, w.end) else None)
        if word in ("park", "parked") and re.match(r"\s+(?:the|my|our|a|his|her)\s+(?:rental\s+)?(?:car|van|vehicle|truck|"
                                                   r"motorbike|bike)\b", text[w.end:], re.IGNORECASE):
            category = "travel"  # "paid $25 to park the van": parking, said as a verb
        if word in ("room", "rooms") and re.search(r"\b(?:meeting|conference|seminar|workshop|event|function)\s+$",
                                                    text[:w.start], re.IGNORECASE):
            category = "other"  # "the meeting room at Dogpatch Labs": hired for a meeting, no night's stay
        if category is None and len(word) >= 4 and word not in known and word not in _KNOWN_WORDS and not (
                known_word(word)) and not known_verb_form(word):
            category = _near_category(word)
        if category and (_INCLUDED.search(text[:w.start]) or word in ("breakfast", "bfast") and re.search(
                r"\bw(?:ith|/)\s*$", text[:w.start], re.IGNORECASE)):
            continue  # "hotel 120 incl breakfast", "room with breakfast": what came with it, not what was bought
        if category == "travel" and word == "travel" and TRAVEL_BOOKER.match(text, w.end):
            continue  # "booked by the travel desk", "our travel agency": who booked it, not a journey bought
        if category and word in ("stay", "stays") and re.search(
                r"\b(?:we|they|you|to|would|could|should|must|'d)\s+$", text[:w.start], re.IGNORECASE) and not re.search(
                    r"\d", text[w.end:w.end + 40]):
            continue  # "the client insisted we stay near Holborn": staying told as a verb, no stay bought
        if category:
            found.append(CategoryFound(w.start, w.end, w.text, category, word in lexicon.WEAK_CATEGORY_WORDS))
    return found


# a journey said as when something else was bought ("lunch before the flight", "a sandwich after the train"): the
# journey is no expense of its own there
TRAVEL_TIME = re.compile(r"\b(?:before|after|during)\s+(?:the|my|our|a)\s+(?P<place>flights?|plane|trains?|bus|"
                         r"coach|ferry|tram|metro|zug|treno)\b(?!\s*(?:ticket|fare|pass)s?\b)", re.IGNORECASE)
# a journey said as where something was bought ("Kafi und Gipfeli in the train"): no expense of its own when the words
# before it say a thing the interpreter does not know (it is asked what kind it was, never filed as the journey)
ABOARD = re.compile(r"\b(?:in|on|aboard)\s+(?:the\s+|a\s+)?(?P<place>flights?|plane|trains?|bus|coach|ferry|tram|zug|treno)\b"
                    r"(?!\s*(?:ticket|fare|pass)s?\b)", re.IGNORECASE)


def bought_aboard(words: str, at: int) -> bool:
    """Do the words before ``at`` (where "in the train" starts) name something unknown that was bought there: a word
    that is no English word, no city, no name the interpreter knows and no kind of expense ("Kafi und Gipfeli")?"""
    told = re.findall(r"[^\W\d_]{3,}", words[:at])
    return bool(told) and any(not known_word(w.lower()) and not city_aliases(w) and w.lower() not in lexicon.MERCHANTS
                              and w.lower() not in lexicon.CATEGORY_WORDS and not re.fullmatch(r"[A-Z]{2,}", w)
                              for w in told)


# an InterCity train named by its letters, told with its number or its route: "IC 2413", "IC utrecht-berlin", "IC to
# Brussels" (never "IC Hotels", "IC card reader")
INTERCITY = re.compile(r"\s*\d{2,5}\b|\s+(?P<a>[^\W\d_]+)\s*[-–]\s*(?P<b>[^\W\d_]+)|\s+(?:to|from)\s+(?P<c>[A-Z][^\W\d_]+)")


def _intercity(text: str, at: int) -> bool:
    m = INTERCITY.match(text, at)
    if m is None:
        return False
    return all(city_aliases(p) for p in (m.group("a"), m.group("b"), m.group("c")) if p)
# where an expense went to or came from ("to the hotel", "site→hotel", "gare -> site"): a place, not what was bought
_TOWARDS = re.compile(r"(?:\b(?:to|from|into|towards|near|beside|opposite|outside|next\s+to|across\s+from)\s+(?:the\s+|my\s+|our\s+)?|(?:→|->|=>|⇒|➔|➝)\s*|[^\W\d_]\s[-–]\s)$",
                      re.IGNORECASE)  # ("client office - hotel": a route's end)


def is_destination(text: str, found: Found) -> bool:
    """Is the category word ``found`` of ``text`` the place a ride went to or came from ("taxi back to the hotel"), or
    where something was bought ("dinner near the hotel")?
    A meal one goes to is the meal ("I invited the partners to dinner")."""
    if plain(text[found.start:found.end]) in lexicon.MEALS:
        return False
    return bool(_TOWARDS.search(text[:found.start]))


def _near_category(word: str) -> str | None:
    """A category noun misspelt by one edit ("taxii", "hotell", "dinnr"; two for long words), when only one
    category's words are that near: a known word is never read as another one."""
    limit = 1 if len(word) < 8 else 2
    hits = process.extract(word, _FUZZY_CATEGORY_WORDS, scorer=DamerauLevenshtein.distance, score_cutoff=limit,
                           limit=None)
    categories = {lexicon.CATEGORY_WORDS[hit[0]] for hit in hits}
    return categories.pop() if len(categories) == 1 else None


def best_category(found: list[CategoryFound]) -> str | None:
    """The most specific category named; weak words count only when nothing else is said."""
    strong = {f.category for f in found if not f.weak}
    pool = strong or {f.category for f in found}
    for category in lexicon.PRIORITY:
        if category in pool:
            return category
    return None


@dataclass(frozen=True, slots=True)
class MerchantFound(Found):
    name: str
    category: str | None  # what a well-known merchant is (Uber → taxi)


_KNOWN = sorted(lexicon.MERCHANTS, key=len, reverse=True)
_CONNECTORS = {"de", "del", "da", "di", "du", "la", "le", "von", "van", "der", "den", "of", "and", "&", "zur", "zum",
               "dos", "das", "do", "des", "au", "aux", "della", "delle", "dei", "am", "im", "y", "e"}
_NOT_NAMES = frozenset(
    {"i", "eur", "usd", "gbp", "chf", "jpy", "sek", "nok", "dkk", "pln", "czk", "cad", "ok", "okay", "please",
     "thanks", "line", "item", "claim", "the", "a", "an", "my", "and", "also", "then", "but", "it", "expenses",
     "expense", "costs", "receipts", "items", "total", "work", "personal", "statement", "details", "summary",
     "midday", "noon", "lunchtime", "night", "evening", "morning", "afternoon", "midnight", "dawn", "dusk"}
    | lexicon.SPOKEN_NUMBERS | lexicon.FILLER | lexicon.GREETINGS | {w.lower() for w in lexicon.TRAIN_SERVICES}
    | set(_WEEKDAYS) | {m.lower() for m in ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
                                            "Nov", "Dec")}
)


def everyday_name_meant(text: str, start: int, end: int) -> bool:
    """Is a merchant's name that is an everyday word too ("Enterprise") meant as the name: written with a capital, or
    right before what it rents ("enterprise car")?"""
    said = text[start:end]
    if said.lower() not in lexicon.CAPITALISED_ONLY:
        return True
    if said.lower() == "united":  # the airline only as flown: "flew United", "on United", "United flight 918"
        return said == "United" and (bool(re.search(r"\b(?:flew|fly|flying|flights?|on|with|via|booked)\s+(?:(?-i:[A-Z]{3})\s*"
                                                    r"(?:->|[-–→]|to)\s*(?-i:[A-Z]{3})\s+)?$", text[:start],
                                                    re.IGNORECASE)) or bool(re.match(r"\s+(?:flight|fare|ticket)\b",
                                                                                       text[end:], re.IGNORECASE))) and \
            not re.match(r"\s+[A-Z]", text[end:])  # ("United Kingdom", "United Club", "United Colors of Benetton")
    if re.match(r"\s+(?:car|cars|rental|van|suv)\b", text[end:], re.IGNORECASE):
        return True
    if " " in said:  # "VIA Rail": every word capitalised, never "via rail" (by rail)
        return all(w[:1].isupper() for w in said.split())
    sentence_start = not text[:start].strip() or re.search(r"[.!?:;\n]\s*$", text[:start]) is not None
    return said[:1].isupper() and not sentence_start  # ("Enterprise architecture conference fee": a word)


# the words that lead to a day ("On Monday", "By Friday"): with a day, no name
_DAY_LEADS = frozenset("on in at by from since until till last next this every".split())


_KIND_NOUNS = {"travel": frozenset("airlines airways air rail railways express bahn".split()),
               "hotel": frozenset("hotel hotels inn hostel suites".split()), "taxi": frozenset("taxi taxis cabs".split())}
# the words of a request that may head a sentence, capitalised ("Add Hotel Motto, 356,00"): never part of a name
_REQUEST_WORDS = "Add|Put|Enter|Log|Record|Include|Claim|Book|Please|Pls|And|Also|Plus|Then|Ok|Okay"
_KIND_NAME = re.compile(rf"^\W*((?!(?:The|A|An|My|Our|This|That|Your|His|Her|{_REQUEST_WORDS})\s)(?:[A-Z][\w'’&.-]*\s+){{1,3}}(" + "|".join(
    sorted({n.capitalize() for nouns in _KIND_NOUNS.values() for n in nouns})) + r"))\b")
_NAMING_NOUNS = ("restaurant", "hotel", "cafe", "café", "bar", "bistro", "pub", "hostel", "motel")


# "at" in the languages people mix in, before a place's name: "in der Kronenhalle", "bei Hiltl", "chez Paul", "på Bryggeloftet"
_AT_ABROAD = ("der", "dem", "im", "bei", "chez", "hos", "på", "nel", "nella")


def find_merchants(text: str, *, skip: list[tuple[int, int]] = ()) -> list[MerchantFound]:
    """Who was paid: well-known names anywhere, and capitalised names the user wrote.

    A capitalised name counts when it follows "at", "from", "with" or "by", when it stands right
    before a category noun ("the Adlon hotel"), or when it holds a category noun itself ("Hotel
    Adlon"). Names after "in", "to" or "for" are places or claims, not merchants. The clause's
    first word is sentence case, not a name.
    """
    found: list[MerchantFound] = []
    lowered = text.lower()
    for key in _KNOWN:
        for m in word_finditer(key, lowered, r"\w'"):
            if len(key) <= 3 and text[m.start():m.end()] != text[m.start():m.end()].upper():
                continue
            if not everyday_name_meant(text, m.start(), m.end()):
                continue  # "enterprise software": a word, not the car rental
            if any(m.start() < e and s < m.end() for s, e in skip) or any(
                    m.start() < f.end and f.start < m.end() for f in found):
                continue
            name, category = lexicon.MERCHANTS[key]
            end = m.end()
            if (aside := re.match(r"((?:\s+[^\W\d_][\w'’&.-]*){1,3})\s*\)", text[end:])) and re.search(
                    r"\b(?:hotel|hostel|restaurant|bar|caf[eé])\s*\(\s*$", text[:m.start()], re.IGNORECASE) \
                    and not any(end < e and s < end + aside.end(1) for s, e in skip) and not re.search(
                        r"\b(?:to|from|near|at|in|by|via|and|or|class|economy|business|airport|station|rental)\b", aside.group(1),
                        re.IGNORECASE):
                # "the hotel (hyatt regency)": the whole name in the brackets after the kind, the known one its first word
                end += aside.end(1)
                said = text[m.start():end]
                name = said if said != said.lower() else said.title()
            elif category == "travel" and (own := re.match(r"\s+((?-i:[A-Z])[a-z]+(?:\s+(?-i:[A-Z])[a-z]+)?)\b", text[end:])) and \
                    re.fullmatch(r"(?:Air(?:lines?|ways)?|Air\s+Shuttle|Rail(?:ways)?|Express|Lines?|Ferries)", own.group(1)) and \
                    not any(end < e and s < end + own.end(1) for s, e in skip):
                end += own.end(1)  # "Norwegian Air Shuttle": the carrier's full name, as written
                name = text[m.start():end]
            found.append(MerchantFound(m.start(), end, text[m.start():end], name, category))
    for m in re.finditer(r"(?:^|(?<=[,;:]))\s*([A-Z][\w'’&.-]*(?:\s+(?:[A-Z][\w'’&.-]*|de|del|la|le|von|van|der|of|&))*)"
                         r"(?:\s+(?:again|too|also|as\s+well))?\s*(?=[,;]|$)", text):
        # a field of a list the user typed: "2026-11-18, Hotel Amigo, hotel, 1 night, 179.00 EUR"
        name = m.group(1).strip(" .")
        lowered_words = [w.lower() for w in name.split()]
        if (not name or (len(lowered_words) == 1 and lowered_words[0] in _NOT_NAMES)
                or all(w in lexicon.CATEGORY_WORDS for w in lowered_words)
                or all(w in _NOT_NAMES or w in _DAY_LEADS for w in lowered_words)  # "On Monday, 16 March, …"
                or any(m.start(1) < f.end and f.start < m.end(1) for f in found)
                or any(m.start(1) < e and s < m.end(1) for s, e in skip) or text.count(",") < 2):
            continue
        key = name.lower()
        known = lexicon.MERCHANTS.get(key)
        found.append(MerchantFound(m.start(1), m.start(1) + len(name), name, known[0] if known else name,
                                   known[1] if known else None))
    tokens = words(text)
    i = 0
    while i < len(tokens):
        token = tokens[i]
        initials = (token.text.isupper() and 2 <= len(token.text) <= 4 and token.text.isalpha() and i + 1 < len(tokens)
                    and _capitalised(tokens[i + 1].text) and _adjacent(text, token, tokens[i + 1]))  # "NH Eurobuilding"
        if not (_capitalised(token.text) or initials) or (i == 0 and not initials) or token.text.lower() in _NOT_NAMES or _verb_like(
                token.text) or any(
                token.start < e and s < token.end for s, e in skip) or any(
                token.start < f.end and f.start < token.end for f in found):
            i += 1
            continue
        j = i
        while j + 1 < len(tokens) and _adjacent(text, tokens[j], tokens[j + 1]) and (
                (_capitalised(tokens[j + 1].text) and tokens[j + 1].text.lower() not in _NOT_NAMES
                 and not any(tokens[j + 1].start < e and s < tokens[j + 1].end for s, e in skip))
                or (tokens[j + 1].text.lower() in _CONNECTORS and j + 2 < len(tokens)
                    and _capitalised(tokens[j + 2].text) and _adjacent(text, tokens[j + 1], tokens[j + 2]))):
            j += 1
        if (j + 3 < len(tokens) and tokens[j + 1].text.lower() in ("in", "on", "of", "by", "at") and tokens[
                j + 2].text.lower() == "the" and _capitalised(tokens[j + 3].text) and tokens[j + 3].text.lower() not in
                _NOT_NAMES and re.search(r"\b(?:at|from)\s+$", text[:tokens[i].start], re.IGNORECASE) and all(
                    _adjacent(text, a, b) for a, b in pairwise(tokens[j:j + 4]))):
            j += 3  # "at Whiskey in the Jar", "at Bar on the Pier": a name with its small words inside
        start, end = tokens[i].start, tokens[j].end
        name = text[start:end].strip(".'’-")
        before = text[:start].rstrip().lower()
        prev_word = before.split()[-1] if before.split() else ""
        determiner = prev_word in ("a", "an", "add", "the", "my", "our", "some")
        if prev_word == "the":
            rest = before[:-3].rstrip()
            prev_word = rest.split()[-1] if rest.split() else ""
        name_words = [w.lower() for w in name.split()]
        holds_category = any(w in lexicon.CATEGORY_WORDS for w in name_words)
        only_category = all(w in lexicon.CATEGORY_WORDS or w in _CONNECTORS for w in name_words)
        next_word = text[end:].strip().split()[0].lower().strip(",.;:") if text[end:].strip() else ""
        before_category = next_word in lexicon.CATEGORY_WORDS
        place = prev_word in ("in", "to", "for", "into", "on", "of") or next_word in ("airport", "station", "hbf") or \
            name.lower() in _PLACES
        # ("at Lisbon airport": where it was, nobody paid)
        if place and re.search(r"\b(?:check(?:ed)?\s+in(?:to)?(?:\s+at)?|paid\b[^.;!?]{0,40}?\bto|stay(?:ed)?\s+(?:at|in))"
                               r"(?:\s+the)?$", before):
            place, determiner = False, True  # "checked into the Clarion Post", "paid … to ESC Congress Services"
        if prev_word == "from" and city_aliases(name.split()[0]):
            i = j + 1
            continue  # "flight from Munich": a place
        if prev_word in _NAMING_NOUNS and (noun := re.search(r"(?<![\w'])([A-Za-z][a-zé]+)\s+$", text[:start])) and \
                noun.group(1).lower() == prev_word and (noun.group(1)[0].isupper() or (
                    prev_word in ("hotel", "hostel", "motel") and noun.start(1) == len(text[:noun.start(1)].rstrip()) == 0)):
            # "Hotel Amigo": the whole name; "hotel Berna" heading the message too
            start, name = noun.start(1), text[noun.start(1):end].strip(".'’-")
            name = name[:1].upper() + name[1:]
        # a field of a list the user typed: "2026-11-18, Steigenberger Frankfurter Hof, hotel, 179.00 EUR"
        field = (re.search(r"[,;:]\s*$", text[:start]) is not None and re.match(r"\s*[,;]", text[end:]) is not None
                 and (len(name.split()) >= 2 or not known_word(name.lower())))
        if not only_category and not place and (
                prev_word in ("at", "from", "with", "by", *_AT_ABROAD, *_NAMING_NOUNS) or before_category or holds_category
                or determiner or field):
            if (the := re.search(r"(?<=[a-z,] )The\s+$", text[:start])) is not None:
                start, name = the.start(), text[the.start():end].strip(".'’-")  # "at The Witchery": part of the name
            found.append(MerchantFound(start, end, name, name, None))
        i = j + 1
    for w in words(text):
        # a well-known name misspelt ("ubr", "marriot", "ryanar"): near exactly one of them, no word of its own
        if any(w.start < f.end and f.start < w.end for f in found) or any(w.start < e and s < w.end for s, e in skip):
            continue
        if re.search(r"\b(?:mr|mrs|ms|miss|dr|prof|herr|frau|sir|madam)\.?\s+$", text[:w.start], re.IGNORECASE) or (
                w.text[:1].isupper() and len(w.text) >= 5) or (w.text.isupper() and len(w.text) > 1):
            continue  # "Mr Huber" is a person, "Huber" a name of its own: a typo is read into lower-case words only
            # ("BER", "LHR": an airport's code, never "uber" misspelt)
        key = _near_merchant(plain(w.text))
        if key is not None:
            name, category = lexicon.MERCHANTS[key]
            found.append(MerchantFound(w.start, w.end, w.text, name, category))
    if (head := _KIND_NAME.match(text)) and not any(head.start(1) < f.end and f.start < head.end(1) for f in found) \
            and not any(head.start(1) < e and s < head.end(1) for s, e in skip):
        # "Austrian Airlines on monday …": a name heading the message that says what it is
        kind = head.group(2).lower()
        category = next(c for c, nouns in _KIND_NOUNS.items() if kind in nouns)
        found.append(MerchantFound(head.start(1), head.end(1), head.group(1), head.group(1), category))
    for start, end, name in venue_names(text):
        if not any(start < f.end and f.start < end for f in found) and not any(start < e and s < end for s, e in skip):
            found.append(MerchantFound(start, end, text[start:end], name, None))
    for m in re.finditer(r"\b(?:at|from)\s+([a-zà-ÿ][a-zà-ÿ'&-]{3,})\b(?!\s+(?:airport|station|hotel|office))", text):
        # "dinner at borchardt": a name typed in lower case, when it is no word the interpreter knows
        word = m.group(1)
        if (word in _KNOWN_WORDS or word in lexicon.CATEGORY_WORDS or word in _NOT_NAMES or word in _PLACES
                or _near_category(word) or any(m.start(1) < f.end and f.start < m.end(1) for f in found)
                or any(m.start(1) < e and s < m.end(1) for s, e in skip)):
            continue
        found.append(MerchantFound(m.start(1), m.end(1), word, word[0].upper() + word[1:], None))
    return sorted((_without_request_verb(f) for f in found if not a_route(f.text)), key=lambda f: f.start)


def a_route(name: str) -> bool:
    """"LHR-MXP", "Amsterdam-Hamburg": where a journey went, never who was paid."""
    parts = re.split(r"\s*[-–→>]+\s*", name.strip())
    return len(parts) == 2 and all(parts) and all(
        re.fullmatch(r"[A-Z]{3}", p) or city_aliases(p) for p in parts)


REQUEST_HEAD = re.compile(rf"^(?:(?:{_REQUEST_WORDS}|Breakfast|Lunch|Dinner|Brunch|Supper|Flew|Took|Caught|Grabbed|Rode|"
                          r"Drove|Booked)\s+)+(?=\S)")  # "Dinner Le Comptoir", "Flew United out of Newark"


def _without_request_verb(found: MerchantFound) -> MerchantFound:
    """"Add Hotel Motto, 356,00": the request's verb heading the sentence is never part of who was paid."""
    head = REQUEST_HEAD.match(found.text)
    if head is None or found.name != found.text:
        return found
    name = found.text[head.end():]
    return MerchantFound(found.start + head.end(), found.end, name, name, found.category)



_VENUE = re.compile(r"\b(?:at|from|in)\s+(?:the\s+)?(?P<name>[a-zà-ÿ][a-zà-ÿ'&-]{2,})\s+(?P<kind>canteen|cafeteria|cafe|café|"
                    r"restaurant|bar|bistro|brasserie|trattoria|pizzeria|kitchen|deli|bakery|pub|grill|diner)\b")


def venue_names(text: str) -> list[tuple[int, int, str]]:
    """"lunch at the polbud canteen": a place named in lower case by a word no dictionary knows and the kind of
    place it is ("Polbud canteen"), with where it stands."""
    found = []
    for m in _VENUE.finditer(text):
        word = m.group("name")
        if word in _KNOWN_WORDS or word in _NOT_NAMES or word in _PLACES or known_word(word):
            continue
        found.append((m.start("name"), m.end("kind"), f"{word[0].upper()}{word[1:]} {m.group('kind')}"))
    return found


_FUZZY_MERCHANTS = [key for key in lexicon.MERCHANTS if " " not in key and len(key) >= 4]


def _near_merchant(word: str) -> str | None:
    """One well-known merchant ``word`` misspells: one letter left out of a short name ("ubr"), one edit
    of a longer one, two of a long one; never a word the interpreter knows as something else."""
    if len(word) < 3 or word in lexicon.MERCHANTS or word in _KNOWN_WORDS or word in lexicon.CATEGORY_WORDS or (
            word in _NOT_NAMES or word in _PLACES or known_word(word)):
        return None
    if len(word) < 5:
        hits = [key for key in _FUZZY_MERCHANTS if len(key) == len(word) + 1
                and any(key[:i] + key[i + 1:] == word for i in range(len(key)))]
    else:
        limit = 1 if len(word) < 8 else 2
        hits = [hit[0] for hit in process.extract(word, _FUZZY_MERCHANTS, scorer=DamerauLevenshtein.distance,
                                                  score_cutoff=limit, limit=None)]
    return hits[0] if len(hits) == 1 else None


_PLACES: frozenset[str] = frozenset("home work airport station office hotel venue conference event client clients customer site "
                    "night noon lunchtime breakfast dinner lunch morning evening weekend least most first last all "
                    "once least about around approx approximately roughly".split())
# airports named alone ("maccas at schiphol", "lunch at Heathrow"): where it was, nobody paid
AIRPORTS = frozenset("schiphol heathrow gatwick stansted luton zaventem fiumicino malpensa linate orly barajas kastrup "
                     "arlanda gardermoen vantaa okecie o'hare ohare jfk".split())
_PLACES |= AIRPORTS


def _capitalised(word: str) -> bool:
    return word[:1].isupper() or (word[:1].isdigit())


def _adjacent(text: str, a: Found, b: Found) -> bool:
    gap = text[a.end:b.start]
    return gap.strip() in ("", "&") and "\n" not in gap


def _verb_like(word: str) -> bool:
    lowered = word.lower()
    return any(lowered == v for verbs in lexicon.VERBS.values() for v in verbs)


# --------------------------------------------------------------------------- rows kept by their place in a paste

_ORDINAL_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
                  "eighth": 8, "ninth": 9, "tenth": 10, "last": -1}
_ORD = r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|(?:[1-9]|1[0-9])(?:st|nd|rd|th))"
# (never "First day:", "the second night": which day of the trip, no row of a list)
_ORDINAL_LIST = re.compile(rf"\b(?:the\s+)?{_ORD}(?:\s*(?:,|\band\b|&)\s*(?:the\s+)?{_ORD})*\b(?!\s+(?:days?|nights?|nites?|"
                           r"mornings?|evenings?|afternoons?|weeks?|time|class|round|stop|floor|leg)\b)", re.IGNORECASE)
_KEEP_CUE = re.compile(r"\b(?:work|business|keep|only|claim|claimable|company|job|add)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class RowsKept:
    """"Work: the first, second and fourth." over pasted rows: the sentence that says it, every row, the rows kept."""

    said: tuple[int, int]
    rows: tuple[tuple[int, int], ...]
    kept: tuple[tuple[int, int], ...]


def rows_kept_by_place(message: str) -> RowsKept | None:
    """The pasted rows (lines with a figure) a sentence without figures keeps by their place ("the first, second
    and fourth are work"); None when no sentence does, or a place names no row."""
    lines = [(m.start(), m.end()) for m in re.finditer(r"[^\n]+", message)]
    for start, end in lines:
        text = message[start:end]
        if re.search(r"\d(?!(?:st|nd|rd|th)\b)", text) or not _KEEP_CUE.search(text) or re.search(
                r"\b(?:open|start|create|make|new)\b[^.!?\n]{0,30}\b(?:claim|report)\b", text, re.IGNORECASE):
            continue  # ("Please open claim "…", currency PLN. …": a request of its own, no filter of the rows)
        found = _ORDINAL_LIST.search(text)
        if found is None:
            continue
        rows = tuple((s, e) for s, e in lines if (s, e) != (start, end) and re.search(r"\d", message[s:e]))
        places = [_ORDINAL_WORDS.get(w.lower()) or int(re.match(r"\d+", w).group(0)) if w.lower() in _ORDINAL_WORDS
                  or w[0].isdigit() else None for w in re.findall(rf"{_ORD}", found.group(0), re.IGNORECASE)]
        if len(rows) < 2 or any(p is None or p > len(rows) for p in places):
            return None
        kept = tuple(rows[p - 1] if p > 0 else rows[-1] for p in places if p is not None)
        return RowsKept((start, end), rows, tuple(sorted(set(kept))))
    return None


# words that put an expense on another day than the one said before it ("the following evening", "the return ticket")
ANOTHER_DAY = re.compile(r"\b(?:following|next|return|returning|way\s+(?:home|back)|day\s+after|after\s+that\s+day|"
                         r"the\s+day\s+before|previous|earlier\s+that\s+week)\b", re.IGNORECASE)
