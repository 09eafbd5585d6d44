"""From clauses to intents: what each clause asks for, with the values read from the user's words.

An intent that lacks something it needs (an amount, a category, which line) carries a
``problem``: the question to ask back. It never becomes an act: the interpreter asks instead of
guessing.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from decimal import Decimal
from itertools import pairwise
from typing import Any

from rapidfuzz.distance import DamerauLevenshtein

from registries import evidence_numbers, quantity_products
from registries.currencies import currencies_named, currency_meant, currency_mentions

from ..exchange import reference_currencies
from ..money import format_money
from . import lexicon
from .clauses import (
    HOLD,
    MARKER,
    RECEIPTS_OF_A_DAY,
    REQUEST_START,
    RETURN_LEG,
    SHOULD,
    STRONG_UPDATE,
    TRAVELLED_DAYS,
    Clause,
    _near_verb,
    conflicting_verbs,
    day_told,
    evidence_bounds,
    headed_as_receipts,
    line_by_its_amount,
    sentences,
    strip_leading,
    verb_of,
)
from .context import (
    Claim,
    Context,
    Mention,
    another_meal,
    case_ref,
    claim_addressed,
    find_mention,
    first_day_answered,
    in_the_trip,
    line_days,
    named_reference,
    other_claim,
    thing_unmatched,
    todays_weekday_unsure,
)
from .english import known_word, word_abroad
from .normalize import ORIGINAL_ASIDE, weekday_not_that_day
from .patterns import word_search
from .values import (
    ANOTHER_DAY,
    TRAVEL_BOOKER,
    AmountFound,
    DateFound,
    MerchantFound,
    best_category,
    bought_aboard,
    closing_day,
    counts_only,
    currency_named,
    find_amounts,
    find_categories,
    find_dates,
    find_line_refs,
    find_merchants,
    heading_day,
    is_destination,
    mask,
    money_text,
    numbered_day,
    plain,
    quotable,
    two_days_only,
    weekday_within,
    words,
)

# --------------------------------------------------------------------------- intents


@dataclass
class Intent:
    start: int
    end: int

    def quote(self, message: str) -> str:
        return message[self.start:self.end]


@dataclass
class ActIntent(Intent):
    act: str = ""
    args: dict[str, Any] = field(default_factory=dict)
    ref: dict[str, Any] | None = None
    problem: str | None = None
    read: dict[str, Any] | None = None  # a lookup the problem's answer uses (an exchange rate)
    label: str = ""  # words naming what the act is about ("taxi", "hotel adlon"), for "forget the taxi"
    claim: Claim | None = None  # the claim it lands on, when known
    currency: str | None = None  # a currency the user wrote next to the amount
    id: str | None = None
    retracted: bool = False
    missing: str | None = None  # what the problem asks for ("amount", "category", "line", "title", "currency")
    options: list[int] = field(default_factory=list)  # the lines a "which line?" question lists
    paid_in: str | None = None  # the other currency the amount was said in (asked: "add it converted?")


@dataclass
class QuestionIntent(Intent):
    topic: str = ""
    reads: list[dict[str, Any]] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class RetractIntent(Intent):
    hint: str = ""


@dataclass
class CorrectIntent(Intent):
    aim: ActIntent | None = None  # the act of the message it corrects, when not the one told just before it
    counted: bool = False  # it changes a count ("no, 2 nights"): the total is not the user's number, so it is asked
    amount: AmountFound | None = None
    date: str | None = None
    category: str | None = None
    currency: str | None = None
    merchant: str | None = None  # "… 112 no sorry 121 at Pelikan": who was paid, said after the new price
    problem: str | None = None


@dataclass
class HoldIntent(Intent):
    acts: tuple[str, ...] = ()


@dataclass
class UnknownIntent(Intent):
    pass


@dataclass
class NegatedIntent(Intent):
    """"no need to add the coffee", "don't add the parking": a request the user says not to make."""

    verb: str = ""


@dataclass
class ContextIntent(Intent):
    greeting: bool = False
    thanks: bool = False


@dataclass
class SkippedIntent(Intent):
    """"a scarf for my wife 45 (this one is private, don't put it please)": a thing told with its price and said, in
    the same words, not to be claimed."""


# a new user saying so: "hey! brand new on here", "first time using this", "I am new in the company and this is my first
# expense claim"
NEWCOMER = re.compile(r"\W*(?:(?:hi|hello|hey|hiya|morning|good\s+(?:morning|afternoon|evening))\W+)*(?:(?:i'?m|i\s+am|im)\s+)?"
                       r"(?:(?:brand\s+|quite\s+|very\s+|pretty\s+)?new(?:\s+(?:on\s+here|here|to\s+(?:this|the\s+app|the\s+company|the\s+team)|"
                       r"in\s+the\s+(?:company|team|firm)|at\s+the\s+company|starter))?|first\s+time(?:\s+(?:here|using\s+(?:this|the\s+app|it)))?)"
                       r"(?:\W+(?:and\s+)?this\s+is\s+my\s+first\s+(?:expense\s+)?(?:claim|report|time)(?:\s+(?:here|ever))?)?"
                       # ("…, so sorry if I do something wrong", "please bear with me")
                       r"(?:\W+(?:so\s+)?(?:(?:i'?m\s+)?sorry|apologies|excuse\s+me)\s+if\s+i\s+(?:do|get|make)\s+(?:something|anything|"
                       r"it|things?|a\s+mistake|mistakes)(?:\s+wrong)?|\W+(?:please\s+)?bear\s+with\s+me)?\W*", re.IGNORECASE)
# the words of an expense that say it is not to be claimed: "(private, don't put it please)", "- that's personal, skip it"
_NOT_FOR_THE_CLAIM = re.compile(r"(?:\(|,|\s[-–—]|;)\s*(?:but\s+)?(?:(?:this|that|it)(?:\s+one)?\s*(?:is|was|'s)\s+)?"
                                r"(?:(?:private|personal)(?:\s+(?:purchase|thing|expense))?|for\s+myself(?=\s*(?:\)|$))|not\s+for\s+(?:work|"
                                r"the\s+claim|business))\b[^()\d]{0,40}?(?:\)|$)|(?:\(|,|\s[-–—])\s*(?:please\s+)?(?:don'?t|do\s+not)\s+"
                                r"(?:put|add|claim|include)\s+(?:it|that|this)\b[^()\d]{0,30}?(?:\)|$)", re.IGNORECASE)


# --------------------------------------------------------------------------- shared patterns

# words by which a price said after a take-back is of something more, not the price said again
_MORE_NOT_INSTEAD = re.compile(rf"\b(?:{lexicon.SOMETHING_MORE})\b", re.IGNORECASE)

_NOT_VALUE = re.compile(r"(?:\b(?:not|instead\s+of|rather\s+than)|(?:(?<=\bis)|(?<=\bwas)|(?<=\bare)|(?<=\bwere))n['’]?t)\s+[^,;]*?(?=,|;|$|\s+(?:to|but|and)\b)",
                        re.IGNORECASE)
_VALUE_MARK = re.compile(
    rf"\s(?:to|{SHOULD}\s+(?:be|b|say|read)|{SHOULD}\s+have\s+been|{SHOULD}(?:['’]?ve|a)\s+been|needs\s+to\s+be|must\s+be|is\s+actually|"
    r"was\s+actually|is\s+really|was\s+really|is|was|says|said|shows|showed|reads|=|as|into)\s|\s*[:=]\s",
    re.IGNORECASE)
_FIELDS = {
    "description": r"description|descr|note|notes|memo|comment|reason|justification",
    "amount": r"amount|price|cost|sum|value|figure",
    "date": r"date|day",
    "merchant": r"merchant|vendor|shop|store|supplier|payee|name|place",
    "category": r"category|type|kind|class",
}
_NEW_ITEM = re.compile(r"^\s*(?:(?:oh|ok|okay|so|and|also|plus)[\s,]+)*(?:(?:and|also|plus|another|one\s+more)\b|[+&]\s)|"
                       r"^\s*(?:(?:oh|ok|okay|so)[\s,]+)*(?:and\s+)?(?:a|an)\s", re.IGNORECASE)
# words beside "submit" / "withdraw" that may change what is asked or when, whatever else is said: a time, a
# condition, a doubt, a part of the claim, a take-back ("submit it, except the taxi", "send it once I'm back")
_NOT_IDLE = frozenset("not no never nothing but except excluding without only just instead actually sorry wrong forget wait "
                      "hold yet later tomorrow tonight morning evening afternoon week month if unless when whenever once "
                      "after before until till maybe perhaps might may think guess unsure sure first second third last "
                      "other another either neither half part some rest each any anyone someone him her them they he she "
                      "boss manager approver team colleague colleagues copy cc instead again twice draft keep open "
                      "pending leave check soon eventually bit while moment minute time times next weeks days months "
                      "suppose probably ones one old new complete completed finished".split())


def _only_idle_talk(words: list[str], text: str, today: date) -> bool:
    """Words outside a submission's grammar that say nothing about it ("submit pls im going to bed", "ok send it, long
    day"): everyday lower-case English words with no time, condition, doubt, part or person among them, in a clause
    with no figure, day, currency, kind of expense or question. Anything else keeps the request not understood."""
    if re.search(r"[\d?]", text) or find_dates(text, today) or currencies_named(text) or find_categories(text):
        return False
    for w in words:
        low = w.lower().replace("’", "'")
        if w != low and low not in ("i", "im", "i'm"):
            return False  # a name ("submit it for Paris"): which claim, or whose, is never guessed
        if low in _NOT_IDLE or low.endswith("n't") or low in lexicon.UNKNOWN_ACTION_VERBS or low in lexicon.CATEGORY_WORDS:
            return False
        if not known_word(low) and low not in ("im", "pls", "plz", "thx", "ty", "lol", "k", "kk", "okey", "oki", "okie",
                                               "pliz", "ya", "yup", "yep"):
            return False
    return True


_PLAIN_WORDS = frozenset(
    "it this that these them the a an my our your claim claims report expense expenses approval approver manager "
    "boss for to of off out in on from now please also then and finally ok okay go ahead can could would will you "
    "u i i'd i'm id want like need let's lets let us both all every one whole entire right away today thanks line "
    "lines item items entry entries trip conference be done at with by duplicate twice double again approve approved "
    "review finished finish ready fine good great thats that's everything complete is we're were we are it's its "
    "all set sorted go thing things lot stuff".split()
) | frozenset(  # the same small words in the languages people mix in ("dann einreichen bitte", "Indsend den", "skicka in
    # den sen", "Dank je, indienen maar", "Vous pouvez soumettre ensuite", "e depois submete tudo", "poi inviala")
    "den det die das es sie ihn la le lo ji to het dann danach jetzt nun poi ora adesso ensuite maintenant depois agora "
    "luego ahora sen sedan nu så daarna maar nou potem teraz pak nyní tudo todo tutto tout alles allt alt wszystko vše "
    "vous pouvez tu peux peux pode puoi kannst du kun je kan du bitte proszę prosím prosze tack takk tak dank je merci "
    "grazie diolch "
    "gracias obrigado obrigada danke e y og och und et en i a".split())
_LINE_WORDS = frozenset("line lines item items entry entries row one expense receipt ticket".split())
# words that leave a request open: the interpreter asks rather than picks ("a taxi for 20 or 30", "maybe")
_UNSURE = re.compile(r"\b(?:or(?!\s+rather)|maybe|perhaps|probably|might|not\s+sure|unsure|either|scratch|"
                     r"forget|ignore|undo|skip|wait|nope)\b|(?<=\s)no(?=\s+\d)", re.IGNORECASE)
_NEGATED = re.compile(r"^\s*(?:(?:oh|ok|okay|and|but|so|please|pls)[\s,]+)*(?:there\s+is\s+)?(?:no\s+need\s+(?:to|for)|"
                      r"don'?t|dont|do\s+not|never|you\s+(?:don'?t|do\s+not)\s+(?:need|have)\s+to|"
                      r"i\s+(?:don'?t|do\s+not)\s+(?:want|need)\s+(?:you\s+)?to|no\s+(?=add|submit|remove|delete))\s*",
                      re.IGNORECASE)
# (a time told in the past, "when I got back", "after we landed", is when it was paid, no condition)
_TOLD_PAST = r"(?!\s+(?:got|came|was|were|arrived|left|landed|returned|did|had|paid|went|flew|drove|checked|finished))"
# "If that looks right please submit it", "if all is fine, send it": before a submit, the user's own check, no
# condition (the card shows what is submitted, and its click decides)
_OWN_CHECK = re.compile(r"\bif\s+(?:that|it|this|everything|all|the\s+total)(?:'s|\s+is|\s+looks?|"
                        r"\s+seems?)?\s+(?:right|ok|okay|good|fine|correct|in\s+order)\b,?(?=\s*(?:then\b|please\b|pls\b|"
                        r"submit|send|file|go\s+ahead|$))", re.IGNORECASE)  # (never "if it's ok with my manager")
_CONDITION = re.compile(rf"\b(?:not\s+(?:before|until|till)|once\s+(?:i|you|we|it|the)\b{_TOLD_PAST}|after\s+(?:i|we)\b{_TOLD_PAST}|"
                        rf"when\s+(?:i|we)\b{_TOLD_PAST}|unless|only\s+if|if\s+(?:i|it|it'?s|its|the|that|this|you|we|there)\b|"
                        r"as\s+soon\s+as|tomorrow|next\s+(?:week|month))", re.IGNORECASE)
_EVERY_CLAIM = re.compile(r"\b(?:both|all|every)\s+(?:of\s+)?(?:my\s+|the\s+|our\s+)?(?:\w+\s+)?claims?\b|"
                          r"\b(?:them\s+all|all\s+of\s+them|both\s+of\s+them)\b", re.IGNORECASE)
_TO_IT = re.compile(r"\b(?:to|on|onto|into|in|for)\s+(?:it|that(?:\s+(?:one|claim))?|this\s+(?:one|claim)|the\s+same\s+"
                    r"(?:one|claim))\b", re.IGNORECASE)
_IT = re.compile(r"\b(?:it|that|this)(?:\s+one)?\b", re.IGNORECASE)
_MERCHANT_COMMON = frozenset(
    "time out market bar cafe café restaurant hotel taxi inn house city central station grand palace new old best "
    "king the and air line lines express international group company store shop berlin paris london".split()
)
# the words that tell a claim's currency after its name: "in", "with currency", ", and the currency is", ", currency"
_CURRENCY_TOLD = (r"(?:\s*,?\s+(?:and\s+)?(?:the\s+)?(?=currency)|\s+)(?:in|with\s+currency|currency(?:\s+(?:is|will\s+be|"
                  r"should\s+be))?)")
_TITLE_CUT = re.compile(
    # ("… workshop and the currency SEK because …": the currency, told after the name)
    rf"{_CURRENCY_TOLD}\s*:?\s+"
    r"(?!(?:the|our|any|its|one|all|not|tbd|same|a|an)\b)(?:us\s+|u\.s\.\s+|swiss\s+|british\s+)?"
    r"(?:[A-Za-z]{3}|euros?|dollars?|pounds?|francs?|yen|zloty|[€$£¥])\b.*$"
    rf"|(?:\s*,?\s*\b(?:{lexicon.PLEASE})\b|\s+(?:last|this|next)\s+(?:week|month|year)|"
    r"\s+(?:tomorrow|today|yesterday))+\s*$",
    re.IGNORECASE)
# a currency agreed to after a claim's name: "…, euros is fine", "…, dollars would be ok"
_CURRENCY_AGREED = re.compile(r"\s*,\s*(?P<money>(?:in\s+)?(?:euros?|eur|(?:us\s+|canadian\s+)?dollars?|usd|cad|pounds?(?:\s+sterling)?|"
                              r"sterling|gbp|(?:swiss\s+)?francs?|chf|kronor|kroner|krona|sek|nok|dkk|z[łl]oty|pln|yen|jpy|czk|"
                              r"korun[ay]?))\s+(?:is|are|would\s+be|will\s+do)\s+(?:fine|ok|"
                              r"okay|good|great|perfect|alright)\b(?:\s+(?:too|then|for\s+me))?[\s.!]*$", re.IGNORECASE)
_CURRENCY_PHRASE = re.compile(
    # "in USD", and the same in the languages people mix in ("w PLN", "v CZK", "i SEK", "en EUR", "em BRL")
    r"(?:\bin\s+|\bcurrency\s*:?\s*)(?:us\s+|u\.s\.\s+|swiss\s+|british\s+)?([A-Za-z]{3,9}|[€$£¥])(?![\w])"
    # (the others only before a currency set apart: "w PLN: …", never "Szkolenie w CAD Kraków", design software)
    r"|\b(?:w|v|i|en|em)\s+([A-Za-z]{3,9}|[€$£¥])(?![\w])(?=\s*(?:[:,.!?;\"“„'‘«(\-–—]|$|please\b|pls\b|prosím\b|prosim\b|"
    r"proszę\b|prosze\b|tack\b|takk\b|bitte\b|svp\b))",
    re.IGNORECASE)


_ANCHORED = re.compile(r"(?:on\s+|in\s+)?(?:the\s+)?(?:same\s+(?:day|morning|afternoon|evening|night)|that\s+(?:same\s+)?(?:day|morning|afternoon|evening)|(?:day|night)\s+(?:(?P<after>after|later)|"
                       r"(?P<before>before))|(?:(?P<next>next|following)|previous)\s+day)", re.IGNORECASE)


# "Scandic, 3 nights at 142": a name heading the clause, before its comma, under a heading that says what it is
_NAME_LEADS = re.compile(r"^\s*((?:[A-Z][\w'’&.-]*)(?:\s+(?:[A-Z][\w'’&.-]*|\d[\w'’&.-]*|de|la|le|del|am|im|of|the)){0,3}),(?!\d)")


# a last word of a shorthand expense, after its amount: "schnitzel dinner 34 tue figlmüller"
_NAME_LAST = re.compile(r"\d[\d.,]*\s*(?:€|eur|euros?)?\s+(?:[a-z]{3,5}\.?\s+)?(?:at\s+)?([^\W\d_][\w'’&-]{4,})\s*[.!]?\s*$",
                        re.IGNORECASE)


_DAY_NAMES = ("today", "tomorrow", "yesterday", "tonight", "monday", "tuesday", "wednesday", "thursday", "friday",
              "saturday", "sunday")


# right after an expense's day, the words before its price: "lunch 17.11. hiltl 34,50", "… 8.12. de koninck 56,40"
_BEFORE_PRICE = re.compile(r"\s+(?P<name>[^\W\d_][\w'’&-]*(?:\s+[^\W\d_][\w'’&-]*){0,2})\s+(?:[€$£]\s*)?\d")
_NAME_JOINS = frozenset("de del della la le les am an au du des di da van von der den zum zur y e et".split())


def name_before_price(after_day: str) -> str | None:
    """Who was paid, written between an expense's day and its price the way a phone types it, as a name is
    capitalised: one to three words (joined by "de", "van" …), each no English word, kind, day, currency or city
    (then it is where, not who); None otherwise."""
    from ..naming import city_aliases

    m = _BEFORE_PRICE.match(after_day)
    if m is None:
        return None
    tokens = m.group("name").split()
    words = [t for t in tokens if t.casefold() not in _NAME_JOINS]
    if not words or not all(len(t) >= 3 and _unknown_name(t) and not city_aliases(t) and t.casefold() not in
                            lexicon.PLACE_NOUNS and not word_abroad(t) and not re.search(r"[\d-]", t)
                            and not (t.isupper() and len(t) <= 4) and not currencies_named(t) for t in words):
        return None  # ("pranzo", "Zimmer": a word of the writer's language; "CDG", "LH1234", "muc-hh": codes, routes;
        # "289 korun": the money's name)
    return " ".join(t if (k and t.casefold() in _NAME_JOINS) or not t.islower() else t[0].upper() + t[1:]
                    for k, t in enumerate(tokens))


# "hampton inn", "residence inn", "staybridge suites": a stay's house named by a name and the kind word after it
_HOTEL_NAMED = re.compile(r"\b(?P<before>[^\W\d_][\w'’&-]+(?:\s+[^\W\d_][\w'’&-]+)?)\s+(?P<trail>inn|suites|lodge)\b",
                          re.IGNORECASE)
# words before "inn" or "suites" that say which stay or what of it, never its name
_NOT_A_HOUSE = frozenset("the a an my our your this that same other another one two three four five in at for near by on "
                         "of from to with and or but was is were are be been bill invoice stay stays room rooms night "
                         "nights nite nites nts nt per each total incl including tax taxes city breakfast parking wifi "
                         "booking booked reservation cost costs came price paid pay airport cheap nice small big budget "
                         "business conference station centre center close next there here then also too just only both "
                         "all every last first second third extra again back home it its which checked check "
                         "hotel hotels".split())


def _merchant_of_the_claim(text: str, claim: Claim, category: str | None) -> str | None:
    """A merchant a line of the claim has, named in lower case by its first word ("wizz" for Wizz Air, "ryanair"): a
    word of its own (no English word) that no other merchant of the claim starts with."""
    said = {m.group(1).casefold() for m in re.finditer(r"(?<![\w'’-])(?<!\ba\s)(?<!\ban\s)(?<!another\s)(?<!different\s)"
                                                     r"(?<!\bsome\s)(?<!\bother\s)([^\W\d_][\w'’-]{3,})(?!\s+style)", text,
                                                     re.IGNORECASE)}
    found = {str(line.get("merchant")) for line in claim.lines if line.get("merchant") and line.get("category") == category
             and (first := str(line["merchant"]).split()[0].casefold()) in said and len(first) >= 4 and not known_word(first)}
    return found.pop() if len(found) == 1 else None


def _hotel_named(text: str, today: date) -> str | None:
    """The name of a stay's house written in lower case before its kind ("hampton inn 389.20", "2 nts at the residence
    inn"): words that are none of the everyday words around a stay, nor a day, month, figure or kind of expense."""
    for m in _HOTEL_NAMED.finditer(text):
        words_ = m.group("before").split()
        words_ = words_[-2:] if len(words_) == 2 and words_[0].lower() not in _NOT_A_HOUSE else words_[-1:]
        if not words_ or any(w.lower() in _NOT_A_HOUSE or w.lower() in lexicon.CATEGORY_WORDS or w.lower() in
                             lexicon.FILLER or w.lower() in lexicon.STAY_MOMENTS or find_dates(w, today)
                             or currencies_named(w) or w.lower() in lexicon.SPOKEN_NUMBERS for w in words_):
            continue
        if any(w[:1].isupper() for w in words_):
            continue  # a name written with its capitals is read as written, by the merchant finder
        if any(known_word(w.lower()) for w in words_):
            continue  # "a lovely little inn", "family suites", "the ski lodge": words of English, no house's name
        return " ".join(w.capitalize() for w in [*words_, m.group("trail")])
    return None


def _unknown_name(word: str) -> bool:
    """A word that is no English word, day, kind of expense or shorthand: a name ("figlmüller", "dishoom")."""
    low = word.casefold()
    if any(DamerauLevenshtein.distance(low, day) <= 2 for day in _DAY_NAMES):
        return False  # "tmorow", "yestrday": a day misspelt
    return not (known_word(low) or low in lexicon.CATEGORY_WORDS or low in lexicon.CHAT_WORDS or low in lexicon.FILLER
                or low in lexicon.STAY_MOMENTS or low in ("roundtrip", "round-trip", "oneway", "one-way", "rtn", "r/t", "o/w")  # ("$318 roundtrip")
                or find_categories(word) or find_dates(word, date(2026, 1, 1)) or low in lexicon.CURRENCY_WORDS
                or _currency_code(word) or re.search(r"(?:day|days|ly|ing|ed)$", low))


def _only_where_one_went(text: str, today: date) -> bool:
    """No amount, no name, and every kind of expense it names is a place gone to or from ("I go back to the hotel")."""
    masked = mask(text, [(d.start, d.end) for d in find_dates(text, today)])
    said = find_categories(masked)
    return bool(said) and not find_amounts(masked) and not re.search(r"\d", masked) and all(
        is_destination(masked, c) or re.search(r"\b(?:to|from|into|at|in)\s+(?:the\s+|my\s+|our\s+)?$", masked[:c.start],
                                               re.IGNORECASE) for c in said) and not find_merchants(masked)


_BARE_WEEKDAY_SAID = re.compile(r"(?:on\s+)?(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\.?", re.IGNORECASE)


def _day_only(text: str, today: date) -> str | None:
    """The one day a lead-in tells and nothing else ("On the last day, 2/12", "On the 2/12", "Receipts for Monday"), as an
    ISO date."""
    days = find_dates(text, today)
    if not days or len({d.value for d in days}) != 1 or not days[0].value:
        return None  # "Day 1, Monday 16th": two words for one day
    return days[0].value if _only_days(text, days) else None


def _only_days(text: str, days: list[DateFound]) -> bool:
    rest = mask(text, [(d.start, d.end) for d in days])
    return not re.sub(r"\b(?:on|the|last|first|second|third|final|next|day(?:\s*\d)?|and|so|then|now|ok|okay|right|well|receipts?|"
                      r"expenses?|costs?|items|for|from|of|my|i|we|arrived|arrive|landed|got\s+in|got\s+there|came\s+in|"
                      r"started|there|in|(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?|"
                      # the short weekdays of other languages, beside the date they go with ("wo 18/11", "mer. 25.11")
                      r"ma|di|wo|do|vr|za|zo|mo|mi|fr|sa|so|lu|me|je|ve|lun|mar|mer|jeu|ven|sam|dim|mié|mie|jue|vie|sáb|"
                      r"sab|dom|gio|seg|ter|qua|qui|sex)"
                      r"\b|[\s,.:;()-]", "", rest, flags=re.IGNORECASE)


def a_day_named(name: str) -> bool:
    """Does a name start with a weekday of another language ("Montag Taxi", "Mittwoch Kantine")?"""
    from .normalize import calendar_abroad

    first = name.split()[0].lower() if name.split() else ""
    return calendar_abroad().get(first) in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def with_carrier_word(name: str, words: str) -> str:
    """A carrier's whole name, when ``words`` say "Airlines" after it ("Aegean Airlines ATH-AMS": Aegean Airlines)."""
    said = re.search(rf"(?<!\w){re.escape(name)}\s+(?:Airlines|Airways|Airline|Air\s+Lines)\b", words)
    return said.group(0) if said else name


def _same_amount(amount: Any, said: str) -> bool:
    """Is a line's ``amount`` the figure ``said`` ("34,10" or "34.10")?"""
    try:
        return Decimal(str(amount)) == Decimal(said.replace(",", "."))
    except (ArithmeticError, ValueError):
        return False


# "22 back on wednesday": the price of the way back, then "back"
_PRICED_BACK = re.compile(r"^\s*(?:and\s+)?(?:[€$£]\s*)?\d[\d.,]*\s*(?:€|eur|euros?)?\s+back\b", re.IGNORECASE)


# a statement row after its day: the payee's name, then the amount
_ROW_NAME = re.compile(r"^\s+([A-Z][\w&'’.-]+(?:\s(?:[A-Z][\w&'’.-]*|(?!\d+[.,]\d)\d[\w&'’.-]*)){0,3})\s+(?:[€$£]\s*)?\d")


# two amounts offered as alternatives: "20 or 25", "€35 or €38"
_AMOUNT_OR = re.compile(r"(?<![\w.,])(?:[€$£]\s*)?(\d+(?:[.,]\d{1,2})?)\s*(?:€|eur|euros?)?\s+or\s+(?:[€$£]\s*)?(\d+(?:[.,]\d{1,2})?)"
                        r"(?![\w.,])", re.IGNORECASE)


def _digits_only(text: str) -> str:
    return re.sub(r"[^\d.,\s]", " ", text)


def _blank_not_values(text: str) -> str:
    """Blank "not 180", "instead of 180": what a line is not, is not its new value."""
    return mask(text, [(m.start(), m.end()) for m in _NOT_VALUE.finditer(text)])


def _currency_code(word: str) -> str | None:
    if word in lexicon.CURRENCY_SYMBOLS:
        return lexicon.CURRENCY_SYMBOLS[word]
    lowered = word.lower()
    if lowered in lexicon.CURRENCY_WORDS:
        return lexicon.CURRENCY_WORDS[lowered]
    if len(word) == 3 and word.isupper() and word.isalpha():
        return word
    return None


def line_text(line: dict[str, Any], currency: str) -> str:
    label = line.get("merchant") or str(line.get("category", "other")).capitalize()
    return f"{label}, {format_money(line['amount'], currency)}"


def list_lines(claim: Claim, ordinals: list[int] | None = None) -> str:
    lines = [ln for ln in claim.lines if ordinals is None or ln["ordinal"] in ordinals]
    return "; ".join(f"{ln['ordinal']}. {line_text(ln, claim.currency)}" for ln in lines)


# --------------------------------------------------------------------------- the reader


def _checked_out_on(text: str, dates: list[DateFound], value: Any) -> date | None:
    """The day a stay ended, when it is the one day said of it ("check-out 27.11", "checked out on the 20th")."""
    said = [d for d in dates if d.value is not None]
    if len(said) != 1 or str(said[0].value) != str(value) or re.search(
            r"check(?:ed|ing)?[\s-]*in|\bfrom\b|\barriv", text, re.IGNORECASE):
        return None
    digit = re.search(r"\d", text[said[0].start:said[0].end])
    before = text[:said[0].start + (digit.start() if digit else 0)]  # ("check-out the 20": the day's words)
    if re.search(r"\bpaid\b", text, re.IGNORECASE):
        return None  # "2 nights, paid at checkout Wednesday": the day it was paid, the expense's day
    if not re.search(r"(?:check(?:ed|ing)?[\s-]*out|\bleft)(?:\s+(?:on|was|is|date|day|:))?\s*(?:the\s+)?:?\s*$", before,
                     re.IGNORECASE):
        return None
    return date.fromisoformat(str(value))


_STAY_SPAN = re.compile(r"^\s*(?:[-–]|to|until|till|through|thru)\s*$|check(?:ed|ing)?[\s-]*(?:in|out)", re.IGNORECASE)


# what happened to a trip, told as the reason for a request: no expense of its own
_WHAT_HAPPENED = re.compile(r"\b(?:got|was|were|is|are|has\s+been|have\s+been|been)\s+(?:cancell?ed|called\s+off|postponed|"
                            r"delayed|rescheduled)\b", re.IGNORECASE)
def _stay_span(text: str, dates: list[DateFound]) -> bool:
    """Two days said as the stay's ends: check-in and check-out, or a range ("1-3 dec", "29 nov to 1 dec")."""
    ordered = sorted(dates, key=lambda d: d.start)
    if re.search(r"check(?:ed|ing)?[\s-]*(?:in|out)", text, re.IGNORECASE):
        return True
    # the range's two days side by side ("30.11.2026 | Hotel Bristol | 2 nights (30.11.-02.12.)": the row's day is its
    # first)
    return any(a.value != b.value and _STAY_SPAN.match(text[a.end:b.start]) for a, b in pairwise(ordered))


# the claim currencies whose prices people group by thousands with a space ("3 890 kr", "1 080,00 zł")
_SPACE_GROUPED = frozenset({"SEK", "NOK", "DKK", "CZK", "PLN", "HUF"})
# a price taken back as it is said: "no sorry 26 …", the new price first after the words that take it back
_PRICE_TAKEN_BACK = re.compile(r"^\W*(?:no|nope|sorry|sry|oops|wait|no\s+sorry|sorry\s+no|no\s+no|no\s+wait)\W+"
                               r"(?P<price>(?:[€$£]\s?)?\d)", re.IGNORECASE)


def _new_noun_quoted(text: str) -> bool:
    """'bitte a new Spesenabrechnung "Paris Kundentermin" in CHF': a claim asked for by a word of the user's own
    language, its title quoted; never "new lunch "Pelikan" 40" or "new entry "…"" (an expense, told with its price)."""
    m = re.search(r"\bnew\s+([^\W\d_]{4,})\s+[\"“][^\"”]+[\"”]", text, re.IGNORECASE)
    if m is None:
        return False
    noun = m.group(1).lower()
    outside = text[:m.start()] + text[m.end():]
    return not (noun in lexicon.CATEGORY_WORDS or noun in _LINE_WORDS or noun in ("entry", "entries", "expense", "cost",
                                                                                   "receipt", "purchase", "charge")
                or find_categories(noun) or re.search(r"\d", re.sub(r"\b(?:in|\()\s*[A-Z]{3}\b", "", outside)))


# the nights of a stay told by their days: "Sunday and Monday night(s)", "fri + sat nite", "2 nights (sun and mon)",
# "the nights of Tuesday and Wednesday" (the days themselves are blanked)
_NIGHTS_OF_DAYS = re.compile(rf"\x00+(?:\s*(?:,|and|&|\+|und|et|y|e|en|og|och|i)\s*\x00+)+\s*(?:s?\s*(?:{lexicon.NIGHTS}|night|nite|nt)\b|"
                             r"(?<=\x00)s?(?=\W*$|\W*[,;.(]|\s+(?:at|for|@)\b))|"
                             rf"\b(?:{lexicon.NIGHTS}|night|nite)\s*(?:of\s+)?\(?\s*\x00+(?:\s*(?:,|and|&|\+)\s*\x00+)+\s*\)?",
                             re.IGNORECASE)
# a price for each night, said after it: "$239/night", "172 a night", "95 per nite", "110 pn", "80 each"
_PER_NIGHT_AFTER = re.compile(r"\s*(?:[€$£]|eur\b|euros?\b|usd\b|gbp\b|chf\b|cad\b|kr\b|zł)?\s*(?:/\s*(?:night|nite|nt|n)\b|"
                              r"(?:a|per|each|every|the|pro|par)\s+(?:night|nite|nt)\b|pn\b|p/n\b|each\b)", re.IGNORECASE)


def _nights_named(text: str, dates: list[DateFound]) -> int:
    """How many nights a stay is told by the days of its nights ("Sunday and Monday night at $239/night": 2), when
    those days are in a row and said as nights; 0 when they are not."""
    days = [d for d in dates if d.value]
    ordered = sorted({date.fromisoformat(str(d.value)) for d in days})
    if not all(_BARE_DAY_WORD.search(d.text) for d in days):
        return 0  # ("the hotel is 2 nights (6th + 7th)" beside a pasted row: that row's nights, not a stay of its own)
    if re.search(r"\brooms?\b|\bper\s+(?:room|person|head)\b|\bfor\s+(?:me\s+and|us\s+(?:two|both)|both\s+of\s+us)\b", text,
                 re.IGNORECASE):
        return 0  # ("… at 239/night for me and my colleague, 2 rooms": how many rooms a night? asked)
    if len(ordered) < 2 or len(ordered) != len(days) or any((b - a).days != 1 for a, b in pairwise(ordered)):
        return 0
    blanked = "".join("\x00" if any(d.start <= n < d.end for d in days) else ch for n, ch in enumerate(text))
    said_night = re.search(r"\b(?:night|nite)s?\b", max(days, key=lambda d: d.start).text, re.IGNORECASE)
    if not (m := _NIGHTS_OF_DAYS.search(blanked)) or not (said_night or re.search(
            rf"\b(?:{lexicon.NIGHTS}|night|nite|nt)\b", m.group(0), re.IGNORECASE)):
        return 0  # ("hotel 2 nights at 150 each, the 29th and 30th": a line a night, as the corpus reads it)
    counts = {int(n.group(1)) if n.group(1).isdigit() else lexicon.NUMBER_WORDS[n.group(1).lower()] for n in re.finditer(
        rf"\b(\d{{1,2}}|{'|'.join(lexicon.NUMBER_WORDS)})\s*(?:{lexicon.NIGHTS})\b", blanked, re.IGNORECASE)}
    return len(ordered) if counts <= {len(ordered)} else 0


# a count of nights, then the days of the month they were, in a row: "2 nights, 16 and 17", "2 nights (9 and 10 November)",
# "two nights, the 24th and 25th"
_NIGHTS_THEN_DAYS = re.compile(
    rf"\b(?:\d{{1,2}}|{'|'.join(lexicon.NUMBER_WORDS)})\s*(?:{lexicon.NIGHTS})\b[,\s]*\(?\s*(?P<run>(?:the\s+)?(?P<a>\d{{1,2}})"
    r"(?:st|nd|rd|th)?(?:\s*(?:,|and|&|\+)\s*(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?){1,3})(?P<month>\s+(?:jan|feb|mar|apr|may|jun|"
    r"jul|aug|sep|oct|nov|dec)[a-z]*\.?)?(?![\d./:])", re.IGNORECASE)


# the same with each day dotted with its month: "2 nights (25.11 and 26.11)", "2 nts 25.11 + 26.11"
_NIGHTS_THEN_DOTTED = re.compile(
    rf"\b(?:\d{{1,2}}|{'|'.join(lexicon.NUMBER_WORDS)})\s*(?:{lexicon.NIGHTS})\b[,\s]*\(?\s*(?P<run>\d{{1,2}}\.\d{{1,2}}\.?"
    r"(?:\s*(?:,|and|&|\+)\s*\d{1,2}\.\d{1,2}\.?){1,3})(?![\d/:]|[.,]\d)", re.IGNORECASE)


def _nights_dotted(text: str, dates: list[DateFound], today: date) -> list[DateFound] | None:
    """"2 nights (25.11 and 26.11)": each dotted day of the run a day (alone, "25.11" may be a price); None when the
    message has no such run, or a day of it is none of the last three months."""
    m = _NIGHTS_THEN_DOTTED.search(text)
    if m is None:
        return None
    days: list[DateFound] = []
    for n in re.finditer(r"(\d{1,2})\.(\d{1,2})\.?", m.group("run")):
        try:
            day = date(today.year, int(n.group(2)), int(n.group(1)))
        except ValueError:
            return None
        day = day if day <= today else day.replace(year=day.year - 1)
        if (today - day).days > 92:
            return None
        start, end = m.start("run") + n.start(), m.start("run") + n.end()
        days.append(DateFound(start, end, text[start:end], day.isoformat()))
    return sorted([d for d in dates if d.end <= m.start("run") or d.start >= m.end("run")] + days, key=lambda d: d.start)


def _nights_days_of_month(text: str, dates: list[DateFound], today: date) -> list[DateFound]:
    """The days of a stay's nights said by the day of the month after their count ("2 nights, 16 and 17", "2 nights
    (9 and 10 November)"): each a day, instead of what was read of them alone ("10 November", nothing)."""
    if (dotted := _nights_dotted(text, dates, today)) is not None:
        return dotted
    m = _NIGHTS_THEN_DAYS.search(text)
    if m is None:
        return dates
    month = (m.group("month") or "").strip()
    days: list[DateFound] = []
    for n in re.finditer(r"\d{1,2}(?:st|nd|rd|th)?", m.group("run")):
        start, end = m.start("run") + n.start(), m.start("run") + n.end()
        number = re.match(r"\d+", n.group(0)).group(0)  # type: ignore[union-attr]
        said = f"{number} {month}" if month else f"the {number}th"
        found = find_dates(said, today)
        if len(found) != 1 or not found[0].value:
            return dates
        days.append(DateFound(start, end, text[start:end], found[0].value))
    end = m.end("month") if month else m.end("run")
    return sorted([d for d in dates if d.end <= m.start("run") or d.start >= end] + days, key=lambda d: d.start)


def _nights_by_their_days(masked: str, days: set) -> bool:
    """"two nights Monday and Tuesday", "Sunday and Monday night, so 2 nights": the nights counted, and as many days
    in a row named, are one stay (the days named with no count may be a line a night: asked)."""
    counted = {int(n.group(1)) if n.group(1).isdigit() else lexicon.NUMBER_WORDS[n.group(1).lower()] for n in re.finditer(
        rf"\b(\d{{1,2}}|{'|'.join(lexicon.NUMBER_WORDS)})\s*(?:{lexicon.NIGHTS})\b", masked, re.IGNORECASE)}
    ordered = sorted(date.fromisoformat(str(d)) for d in days)
    return counted == {len(ordered)} and all((b - a).days == 1 for a, b in pairwise(ordered))


# a dotted or slashed day and month heading a group, not read as a day ("… / 2.12: lunch 11,40"): the days after it
# are not the one said before it
_BARE_DAY_WORD = re.compile(r"(?:(?:on|from|since|until|till)\s+)?(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\.?",
                            re.IGNORECASE)
# a day named without a date: "Day 2", "the next day", "the day after"
_ANOTHER_DAY_SAID = re.compile(r"\bday\s*\d{1,2}\b|\b(?:next|following|other)\s+day\b|\bday\s+(?:after|before|later)\b",
                               re.IGNORECASE)
_BOTH_ON = re.compile(r"\b(?:both|all(?:\s+(?:three|four|of\s+them|of\s+these|of\s+it))?)\s+(?:were\s+|was\s+|are\s+)?"
                      r"(?:on\s+|from\s+)?(?:the\s+)?$", re.IGNORECASE)
# a sentence that goes on with the story of the one before, in time: "Then I paid the taxi …", "After that the metro …"
# ("Also …", "And parking at the station, £38" add to the list, not to the day: which day is asked)
# the words of an expense that say its day may be another than the ones told around it
_ANOTHER_DAYS_WORDS = re.compile(r"\b(?:check[\s-]?(?:out|in)|checkout|checkin|week|weekend|night\s+before|before|after|earlier|"
                                 r"later|previous|next|following|whole|way\s+(?:home|back|out)|back|home|return\w*|day|days|"
                                 r"tonight|yesterday|today|tomorrow|airbnb)\b", re.IGNORECASE)
_GOES_ON_STORY = re.compile(r"\W*(?:(?:and\s+|also\s+)?then|(?:and\s+)?after\s+that|afterwards|later(?:\s+on)?)\b", re.IGNORECASE)
# the day of the expense before it, said in its own words: "I also took a taxi back to the hotel afterwards, …"
_AFTER_IT = re.compile(r"\b(?:afterwards?|after\s+that|later\s+that\s+(?:day|evening|night))\b", re.IGNORECASE)
_UNREAD_DAY = re.compile(r"(?<![\d.,])\d{1,2}[./]\d{1,2}\.?\s*[:–-]")
# where the user has just come back from, told before what they ask: "back from 3 days in Gothenburg for the site visit"
_BACK_FROM = re.compile(r"^\W*(?:(?:hi|hey|hello|so|ok|okay|right)\W+)*(?:i'?m\s+|i\s+am\s+|we'?re\s+|just\s+|finally\s+)*"
                        r"(?:back|returned|home|got\s+back)\s+from\b", re.IGNORECASE)
_TOTAL_AGREED = re.compile(r"^\W*(?:(?:yes|yep|yeah|ok|okay|great|perfect|good|so)\W+)*(?:the\s+)?(?:total\s+(?:of\s+|is\s+|=\s*)?)?"
                           r"(?P<amount>(?:€|eur\s)?\s?\d[\d.,]*\s?(?:€|eur|euros?)?)\s*(?:total\s+)?(?:is|looks|sounds|seems|=)?\s*"
                           r"(?:right|correct|ok|okay|fine|good|about\s+right|spot\s+on)\W*$", re.IGNORECASE)


# the reason told after what a request names ("…, it was in the hotel rate after all", "…, because the client paid")
_WHY_AFTER = re.compile(r"\s*[,;(–-]\s*(?:(?:it|that|this|they|he|she|we|i)\s+(?:was|were|is|are|had|has|got|paid|did|didn'?t|"
                        r"wasn'?t|isn'?t)\b|(?:because|since|as|cause|coz|cos)\b|(?:the|my|our|a|one\s+of\s+the)\s+(?:client|"
                        r"customer|company|colleague|boss|host|partner|organi[sz]er)s?\s+(?:paid|covered|bought|got|took\s+care)|"
                        r"(?:client|customer|company|colleague|boss|host|organi[sz]er)s?\s+(?:gave|paid|covered|bought|provided|"
                        r"booked|reimbursed)\b)", re.IGNORECASE)  # ("remove the CAT train, client gave me a ticket for it")


class Reader:
    """Reads the clauses of one message in order, carrying what earlier clauses established."""

    def __init__(self, ctx: Context, overrides: dict[str, Any] | None = None):
        self.ctx = ctx
        # the answer to a pending question, filling what the earlier message lacked ({"amount": AmountFound})
        self.overrides = overrides or {}
        self.message = ctx.message
        self.mention: Mention | None = None  # the claim named earlier in the message
        self.opened: ActIntent | None = None  # an open_claim earlier in the message
        self.last_act: ActIntent | None = None
        self.heading: str | None = None
        self.heading_at = 0
        self._sentence_ends: list[int] | None = None
        self.day_heading: str | None = None  # "": a day told whose week is unsure
        self._day_heading_end = 0
        self._receipts_heading = False  # the day heading is "Here are the receipts from <day>:" (never a stay's day)
        self._day_heading_text = ""
        self._trip_told: list[date] | None = None  # the days earlier messages of the conversation told
        self.told: list[Intent] = []
        self._clause_at = 0  # where the clause being read starts in the message
        self._clause_text = ""  # the clause being read, whole (a line's day or old amount may stand after its name)

    def read(self, clauses: list[Clause]) -> list[Intent]:
        intents: list[Intent] = []
        self.told = intents  # what this message told so far, for a correction of one of them
        for clause in clauses:
            start, end = evidence_bounds(self.message, clause.start, clause.end)
            if start >= end:  # only politeness ("thanks!", "hi")
                intents.append(_politeness(clause.start, clause.end, clause.text))
                continue
            if _BACK_FROM.match(self.message[start:end]) and not find_amounts(self.message[start:end]) and not \
                    find_categories(self.message[start:end]):
                intents.append(_politeness(clause.start, clause.end, clause.text))  # "back from 3 days in Gothenburg"
                continue
            if self._total_agreed(self.message[start:end]):
                intents.append(_politeness(clause.start, clause.end, clause.text))  # "539,60 is right, submit it pls"
                continue
            self._clause_at = start
            if self.day_heading is not None and (find_dates(self.message[self._day_heading_end:end], self.ctx.today) or
                                                 _ANOTHER_DAY_SAID.search(self.message, self._day_heading_end, end)):
                self.day_heading = None  # "Day 1, Monday 30th. … Day 2, Tuesday: lunch 14", "… Next day lunch 14": a
                # day said after the heading ends it
            opening = next((i for i in reversed(intents) if not isinstance(i, ContextIntent)), None)
            if isinstance(opening, ActIntent) and opening.act == "open_claim" and opening.missing == "title" and \
                    _NAMES_IT.match(self.message[start:end]) and not _ANOTHER_CLAIM.search(self.message[start:end]):
                # "new claim pls in GBP - call it 'Amsterdam hackathon'. flew out sunday, …": the claim named at once,
                # so what the message tells after it is told on the new claim
                merged = self._open(self.message[opening.start:end], opening.start, end)
                if not merged.problem:
                    intents[intents.index(opening)] = merged
                    self.opened = self.last_act = merged
                    continue
            intent = self._read(clause, start, end)
            if isinstance(intent, list):
                intents.extend(intent)
            elif intent is not None:
                intents.append(intent)
        if (closing := closing_day(self.message, self.ctx.today)) is not None:
            for intent in intents:  # "… that's all for tuesday, thanks!": the day of every expense told without its own
                if isinstance(intent, ActIntent) and intent.act == "add_line" and "date" not in intent.args and \
                        not intent.problem and intent.end <= closing[0] and intent.args.get("category") != "hotel":
                    intent.args["date"] = closing[2]  # (a stay's day is its check-in or its check-out: asked)
        self._date_said_elsewhere(intents)
        listed = closing is not None or headed_as_receipts(self.message)
        days = line_days(self.ctx.default_claim())
        first = min(days) if days else (trip[0] if (trip := self._trip_of_the_conversation()) else None)
        for intent in intents if listed else []:
            if isinstance(intent, ActIntent) and intent.act == "add_line" and intent.args.get("category") == "hotel" and \
                    not intent.problem and not find_dates(intent.quote(self.message), self.ctx.today) and not (
                        first is not None and intent.args.get("date") == first.isoformat()):
                # (the list of the trip's first day: the stay began that day, whichever way it is dated)
                # "- hotel Ibis 3 nights 360 … that's all for friday": the list's day, or the stay's check-in? Asked
                intent.args.pop("date", None)
                intent.problem = (f"Which day was the stay “{intent.quote(self.message)[:80]}”: the night it began, or the "
                                  "day you paid? Tell me its date; I did not add it yet.")
                intent.missing = "date"
        return self._one_claim_named(intents)

    def _total_agreed(self, text: str) -> bool:
        """"539,60 is right", "ok total 501 looks correct": the user agrees with the total of the claim the message is
        on (another figure is no agreement: read as it is, and asked about)."""
        m = _TOTAL_AGREED.match(text)
        claim = claim_addressed(self.message, self.ctx) or self.ctx.default_claim()
        if m is None or claim is None:
            return False
        said = [a.amount for a in find_amounts(m.group("amount"))]
        try:
            total = Decimal(str(claim.view.get("total")))
        except ArithmeticError:
            return False
        return said == [total]

    def _one_claim_named(self, intents: list[Intent]) -> list[Intent]:
        """A claim asked for, then named in a later clause of the same message ("a claim for my conference trip, can
        you create one called “ECIR 2026”?", "… for my travel to Milano, please call it Milano fair"): one claim,
        read from the words of both, the name given winning over what it is for. Two names given for it: asked."""
        opens = [n for n, i in enumerate(intents) if isinstance(i, ActIntent) and i.act == "open_claim"]
        if not opens:
            return intents
        first = opens[0]
        for n in range(first + 1, len(intents)):
            later = intents[n]
            words = later.quote(self.message)
            if isinstance(later, ActIntent) and later.act != "open_claim" or isinstance(later, (QuestionIntent,
                                                                                                 RetractIntent)):
                return intents
            if not _NAMES_IT.search(words) or _ANOTHER_CLAIM.search(words):
                continue
            if any(isinstance(i, ActIntent) and i.act != "open_claim" for i in intents[first + 1:n]):
                return intents
            opening = intents[first]
            start, end = opening.start, later.end
            merged = self._open(self.message[start:end], start, end)
            if self.overrides.get("title") and not merged.problem:  # the answer to "which one should it be called?"
                merged.args["title"] = self.overrides["title"]
                merged.label = str(self.overrides["title"]).lower()
            elif _NAMING.search(opening.quote(self.message)) and not merged.problem:
                merged.problem = ("You gave the new claim two names; which one should it be called? I did not open "
                                  "it yet.")
                merged.missing = "title"
            return [*intents[:first], merged, *intents[n + 1:]]
        return intents

    def _unsure(self, intent: ActIntent, problem: str | None, line_problem: str | None) -> bool:
        """Record what keeps the act from being read (the claim, or which line: asked with the lines as options)."""
        if not (problem or line_problem):
            return False
        intent.problem = problem or line_problem
        intent.missing = "line" if line_problem and not problem else None
        intent.options = list(getattr(self, "options", []) or [])
        return True

    def _same_weekday_named(self, day: DateFound) -> DateFound:
        """"mon 23/11 fuel 78.30, …, ibis budget 2 nites from mon 138": a bare weekday is the day of that name the
        message gave with its date (one only), not the latest such weekday."""
        if not day.value or not _BARE_DAY_WORD.fullmatch(day.text.strip()):
            return day
        weekday = date.fromisoformat(day.value).weekday()
        named = {d.value for d in find_dates(self.message, self.ctx.today) if d.value and not _BARE_DAY_WORD.fullmatch(
            d.text.strip()) and date.fromisoformat(d.value).weekday() == weekday and (
            _BARE_DAY_WORD.search(d.text) or re.search(r"\b[a-z]{3,9}\.?,?\s*$", self.message[max(0, d.start - 12):d.start])
            and _BARE_DAY_WORD.fullmatch(re.search(r"[a-z]{3,9}\.?,?\s*$", self.message[max(0, d.start - 12):d.start],
                                                   re.IGNORECASE).group(0).strip(" ,")))}  # said with its weekday
        return replace(day, value=named.pop()) if len(named) == 1 else day

    @property
    def _ends(self) -> list[int]:
        """Where each sentence of the message ends (read once)."""
        if self._sentence_ends is None:
            self._sentence_ends = [end for _, end, _ in sentences(self.message)]
        return self._sentence_ends

    def _sentence_start_of(self, at: int) -> int:
        """Where the sentence holding ``at`` starts."""
        return max((end for end in self._ends if end < at), default=0)

    def _day_told(self, text: str) -> str | None:
        return day_told(text, self.ctx.today)

    def _day_heads_sentence(self, at: int) -> bool:
        """Does the sentence holding ``at`` open with its one day ("Tuesday I go …", "The wednesday 4 I take …")?"""
        start, end = self._sentence_start_of(at), self._sentence_end(at)
        days = [d for d in find_dates(self.message[start:end], self.ctx.today) if d.value]
        if re.search(r"\b(?:back|home|return\w*|left|leaving|check(?:ed)?[\s-]?out|before\s+that|zurück\w*|heim|retour|"
                     r"rentr\w*|ritorno|tornat\w*|regres\w*|volta|voltei|powr\w*|terug|tilbage|hjem|hem)\b",
                     self.message[start:end], re.IGNORECASE):
            return False  # "Saturday I came back, …, the hotel 3 nights": the day of leaving, not of the first night
        return len(days) == 1 and bool(re.fullmatch(r"\W*(?:(?:so|and|then|ok|okay|right|well|on|the)\W+)*",
                                                     self.message[start:start + days[0].start], re.IGNORECASE))

    def _sentence_end(self, at: int) -> int:
        """Where the sentence holding ``at`` ends."""
        return next((end for end in self._ends if end >= at), len(self.message))

    def _sentence_of(self, at: int) -> int:
        """The index of the sentence of the message that holds position ``at``."""
        return sum(1 for end in self._ends if end <= at)

    def _home_on_the_last_day(self, act: ActIntent, before: ActIntent) -> bool:
        """"wednesday lunch 11,20 and the return flight …" when Wednesday was the trip's last day: the way home that
        day (never "the next day", "the day after")."""
        trip = self._trip_span_told() or self._trip_of_the_conversation()
        said = act.quote(self.message)
        return trip is not None and before.args.get("date") == trip[1].isoformat() and bool(re.search(
            r"\b(?:return|returning|way\s+(?:home|back))\b", said, re.IGNORECASE)) and not re.search(
                r"\b(?:following|next|day\s+after|after\s+that\s+day|the\s+day\s+before|previous|earlier)\b", said, re.IGNORECASE)

    def _date_said_elsewhere(self, intents: list[Intent]) -> None:
        """A day said outside the expense's own clause ("on the Thursday evening (the 19th) I took the team out
        … it came to 342 euros, can you put that on the claim?") is its day, never today: one add without a
        date takes the message's one day; with several days, or one it cannot read, it asks."""
        adds = [i for i in intents if isinstance(i, ActIntent) and i.act == "add_line" and not i.problem]
        if "date" in self.overrides:
            return
        for day in [d for d in find_dates(self.message, self.ctx.today) if d.value and _BOTH_ON.search(
                self.message[max(0, d.start - 30):d.start])]:
            # "airport bus 11.68 EUR and dinner … 34.87 EUR, both on 1.12": the day of every expense of the sentence
            start, end = self._sentence_start_of(day.start), self._sentence_end(day.end)
            for act in adds:
                if start <= act.start < end and "date" not in act.args:
                    act.args["date"] = day.value
        for act in [i for i in adds if "date" not in i.args]:
            # "On Tuesday I had lunch, 14.60, and later a taxi to the university, 9.80": the sentence's day carries on
            before = [i for i in intents if isinstance(i, ActIntent) and i.act == "add_line" and (
                          not i.problem or i.paid_in) and i.end <= act.start and i.args.get("date")
                      and not re.search(r"[.!?\n;]", self.message[i.end:act.start])]  # (also one offered converted)
            if not before or (ANOTHER_DAY.search(act.quote(self.message)) and not self._home_on_the_last_day(
                    act, before[-1])) or (
                    act.args.get("category") == "hotel" and not self._day_heads_sentence(act.start)):
                continue  # (a stay takes the sentence's day only from a day that opens it: "Tuesday I go with the
                # train …, the hotel Leonardo 2 nights …": the night of the day told)
            gap = self.message[before[-1].end:act.start]
            days = find_dates(gap, self.ctx.today)
            # a day heading an expense's own words ("…, tue a Käsekrainer … 6,80 and dinner … 34") is the day of what
            # follows it too; one inside other words ("… two nights from Tuesday …") is theirs alone
            heads = [d for d in days if any(i.start <= before[-1].end + d.start < i.end and not self.message[
                i.start:before[-1].end + d.start].strip() for i in intents if isinstance(i, ActIntent))]
            if not heads:
                act.args["date"] = before[-1].args["date"]  # "Flight … on Monday, and the Uber … 38.25": the day
                # said once covers the sentence
            elif len(days) == 1 and heads[0].value:
                act.args["date"] = heads[0].value  # "Mon lunch … 13,50, tue a Käsekrainer … and dinner … 34": Tuesday
        self._day_said_apart(intents, adds)
        undated = [i for i in adds if "date" not in i.args and not i.problem]
        if not undated or not any(i.args.get("date") for i in adds) or self.day_heading is not None or heading_day(
                self.message, self.ctx.today) is not None:
            return
        said = [d for d in self._anchored(find_dates(self.message, self.ctx.today)) if d.value]
        for act in undated:
            sentence_end = self._sentence_end(act.end)
            spans = [(i.start, i.end) for i in intents if isinstance(i, ActIntent) and i is not act]
            # a day said after it in the sentence, apart from the other expenses' words or closing the sentence ("oyster
            # 12,40 and lunch 14 today"); never one said inside another expense's words before its price ("…, and a
            # taxi out to the venue on Monday for 385 kronor")
            later = [d for d in said if act.end <= d.start < sentence_end and (
                not any(s <= d.start < e for s, e in spans) or (
                    act.args.get("category") != "hotel" and not re.search(r"\d", self.message[d.end:sentence_end])))]
            if later:
                act.args["date"] = later[0].value  # "oyster 12,40 and lunch 14 today": the day said after both
                continue
            before = [d for d in said if d.end <= act.start]
            if before and not ANOTHER_DAY.search(act.quote(self.message)) and act.args.get("category") != "hotel" and \
                    not _UNREAD_DAY.search(self.message, before[-1].end, act.start) and (_GOES_ON_STORY.match(
                        self.message, self._sentence_start_of(act.start)) or _AFTER_IT.search(act.quote(self.message))):
                act.args["date"] = before[-1].value  # "Tuesday I flew … . Also the metro from the airport, 2,60"
                continue
            if (between := self._day_on_both_sides(act, adds)) is not None:
                act.args["date"] = between  # "taxi from airport wed 18th 58.90, hotel 2 nights 198, dinner wed 34.50":
                continue  # the expenses told around it, in the same sentence, fell on one day: so did it
            # "hotel …, 2 nights, $489.20. lunch at the show tuesday $22.40": the days of the others are said, this
            # one's is not (nor any before it); today is a guess
            act.problem = (f"Which day was “{act.quote(self.message)[:80]}”? You gave the days of the others, not "
                           "of this one, so I did not add it yet.")
            act.missing = "date"

    def _day_on_both_sides(self, act: ActIntent, adds: list[ActIntent]) -> str | None:
        """The day of the expenses told just before and just after ``act`` in its sentence, when it is one day."""
        dated = [i for i in adds if i is not act and i.args.get("date") and not i.problem]
        before = [i for i in dated if i.end <= act.start]
        after = [i for i in dated if i.start >= act.end]
        if not before or not after or before[-1].args["date"] != after[0].args["date"]:
            return None
        words = act.quote(self.message)
        if re.search(r"[!?\n;]|\.(?!\d)", self.message[before[-1].end:after[0].start]) or any(
                before[-1].end <= i.start < after[0].start for i in adds if i is not act) or ANOTHER_DAY.search(words) or \
                _ANOTHER_DAYS_WORDS.search(words):
            return None  # ("… previous day lunch 16, …", "… hotel checkout bill 2 nights …", "… return train 79 …")
        return str(before[-1].args["date"])

    def _day_said_apart(self, intents: list[Intent], adds: list[ActIntent]) -> None:
        undated = [i for i in adds if "date" not in i.args]
        if len(undated) != 1:
            return
        spans = [(i.start, i.end) for i in intents if isinstance(i, ActIntent)]  # its own words were read for days
        act = undated[0]
        found = [d for d in self._anchored(find_dates(self.message, self.ctx.today))
                 if not any(s <= d.start < e for s, e in spans) and not (
                     d.end <= act.start and _ANOTHER_DAY_SAID.search(self.message, d.end, act.end)) and not (
                     d.start >= self._sentence_end(act.end) and any(
                         d.end <= i.start < self._sentence_end(d.end) for i in adds if i is not act))]
        # ("hotel, 2 nights à 94. / wo 18/11: diner 31.50, …", "two nights at 112. Thursday was the fair - lunch
        # 16.50": a day that heads a later sentence's expenses is theirs, not the stay's before it)
        if not found:
            return  # ("Day 1, Monday. Taxi 20. Day 2. Dinner 30.": Monday is not the dinner's day)
        days = {d.value for d in found}
        if None in days or len(days) > 1:
            act.problem = (f"Which day was “{act.quote(self.message)[:80]}”? I read "
                           f"{', '.join(repr(d.text) for d in found)} in your message. I did not add it yet.")
            act.missing = "date"
            return
        act.args["date"] = days.pop()

    def _trip_of_the_conversation(self) -> tuple[date, date] | None:
        """The first and last day of the trip earlier messages told by its days ("The trip was Mon 16th to Wed 18th
        Nov", "trip 16-18.11"): at most two weeks, in the past."""
        told = self._days_told_before()
        if len(told) < 2 or told[0] == told[-1] or (told[-1] - told[0]).days > 14 or told[-1] > self.ctx.today:
            return None
        return told[0], told[-1]

    def _read(self, clause: Clause, start: int, end: int) -> Intent | list[Intent] | None:
        text = self.message[start:end]
        self._clause_text = text
        kind = clause.kind
        if NEWCOMER.fullmatch(text):
            return _politeness(start, end, text)  # "I am new in the company and this is my first expense claim"
        if kind in ("item", "act", "value") and (aside := _NOT_FOR_THE_CLAIM.search(text)) is not None and len(
                find_amounts(text[:aside.start()])) == 1 and not find_amounts(text[aside.start():]) and not re.search(
                    r"\b(?:remove|delete|drop|change|update|correct|fix)\b", text, re.IGNORECASE):
            return SkippedIntent(start, end)  # "a scarf for my wife 45 (this one is private, don't put it please)"
        if kind in ("value", "context") and (nth := numbered_day(text)) is not None and (
                trip := self._trip_of_the_conversation()) is not None:
            # "Day 1: LNER …", "Day 2 was all on site.", "Last day:" after "The trip was Mon 16th to Wed 18th Nov": the
            # trip's first, second, last day
            day = trip[1] if nth < 0 else trip[0] + timedelta(days=nth - 1)
            if trip[0] <= day <= trip[1]:
                self.day_heading, self._day_heading_end = day.isoformat(), end
                return _politeness(start, end, clause.text)
        if kind in ("value", "context") and (nth := numbered_day(text)) is not None and nth >= 2 and \
                self._trip_of_the_conversation() is None and (first := first_day_answered(
                    self.ctx.earlier, self.ctx.today, line_days(self.ctx.default_claim()))) is not None and \
                first + timedelta(days=nth - 1) <= self.ctx.today:
            # "Day 2 — lunch …" after "Day 1 — …" and "Monday 30th" (which day that was): the day after it
            self.day_heading, self._day_heading_end = (first + timedelta(days=nth - 1)).isoformat(), end
            return _politeness(start, end, clause.text)
        if kind in ("value", "context") and (day := _day_only(text, self.ctx.today) or self._day_told(text)) is not None:
            self.day_heading = day  # "On the last day, 2/12, …": the day of what the message tells after it
            self._day_heading_end = end
            self._receipts_heading = bool(RECEIPTS_OF_A_DAY.fullmatch(text))
            days = find_dates(text, self.ctx.today)
            if len(days) == 1 and _BARE_WEEKDAY_SAID.fullmatch(days[0].text.strip()) and (
                    trip := self._in_the_trip(days[0], None)).value != day:
                # "I was in Lyon from Mon 16 to Wed 18 Nov. Tuesday: lunch 22": the trip's Tuesday (asked when none)
                self.day_heading, self._day_heading_text = trip.value or "", days[0].text
            elif len(days) == 1 and _BARE_WEEKDAY_SAID.fullmatch(days[0].text.strip()) and \
                    self._a_week_after_the_trip_told(date.fromisoformat(day)):
                self.day_heading, self._day_heading_text = "", days[0].text  # which week's? asked
            return _politeness(start, end, clause.text)
        if kind == "value" and re.match(r"[ \t]*:[ \t]*\n", self.message[end:]) and (
                days := find_dates(text, self.ctx.today)) and _only_days(text, days):
            return _politeness(start, end, clause.text)  # "Tuesday and Wednesday:" over rows that each say their day
        if kind == "heading":
            self.heading = clause.verb  # "oh the dinners.": the kind of the expenses after it that name none
            self.heading_at = self._sentence_of(clause.start)
            return _politeness(start, end, clause.text)
        if kind == "context":
            mention = find_mention(text, self.ctx.claims)
            if mention is not None:
                self.mention = self._shift(mention, start)
            return _politeness(start, end, clause.text)
        if kind == "hold":
            return self._hold(text, start, end)
        if kind == "retract":
            if (named := _NOT_TO_ADD.match(text)) is not None:
                # "Sorry, the lunch please do not add": the one expense told here that the thing names, else asked
                return RetractIntent(start, end, hint=f"not the {named.group('thing').lower()}")
            return RetractIntent(start, end, hint=text.lower())
        corrects = kind == "correction" or (kind == "act" and clause.verb == "update" and self.last_act is not None
                                            and bool(MARKER.match(text)))
        if corrects and not (_PRICE_TAKEN_BACK.match(text) and self.last_act is not None) and (
                aim := self._corrected(text))[0] != "last":  # ("Breakfast 12 no sorry 21 at Hotel 7": the breakfast's)
            if aim[0] == "claim":
                # "… printing 12,00 / Corr: 25/11 Lunch 19,20": another expense than any told here is changed, the
                # way an edit changes it (or asked about), never the one just told
                marker = MARKER.match(text)
                return self._update(" " * marker.end() + text[marker.end():] if marker else text, start, end)
            intent = self._correction(text, start, end)
            intent.aim = aim[1]  # "taxi 30, lunch 21,90. Sorry, the taxi was 32": the taxi told here
            if aim[0] == "ask":
                intent.problem = (f"I was not sure which expense “{intent.quote(self.message)}” corrects, so I left "
                                  "them as they are. Could you say it again in one go?")
            return intent
        if kind == "correction":
            return self._correction(text, start, end)
        if kind == "question":
            from .questions import read_question

            intent = read_question(self, text, start, end)
            if isinstance(intent, UnknownIntent) and len(text.split()) <= 3 and not re.search(r"[\d?]", text):
                return _politeness(start, end, text)  # "quick question: …" introduces, it does not ask
            return intent
        if (kind == "item" or (kind == "act" and clause.verb == "add")) and _WHAT_HAPPENED.search(text) and not (
                find_amounts(text)) and not find_categories(text) and not any(m.category for m in find_merchants(text)):
            # (a line's thing that got cancelled, "the Sixt rental got cancelled", is a request, not the reason)
            self._mention_in(text, start)  # "the Brussels thing got cancelled": which claim
            return _politeness(start, end, text)  # "trip got cancelled", "the flight was delayed": why, no expense
        polite = REQUEST_START.match(strip_leading(text)[1])
        plain_text = strip_leading(text)[1][polite.end():] if polite else text  # "I'd be grateful if you could …"
        checked = _OWN_CHECK.sub(lambda m: " " * len(m.group(0)), plain_text) if clause.verb in ("submit", "withdraw") \
            else plain_text
        if kind == "act" and (cond := _CONDITION.search(checked)) and not (
                clause.verb == "open" and re.fullmatch(r"tomorrow|next\s+\w+", cond.group(0), re.IGNORECASE)):
            return UnknownIntent(start, end)  # "submit it, but not before I check it": no act on a condition
        if kind == "act" and (negated := _NEGATED.match(text)) and verb_of(text[negated.end():])[0] is not None:
            return NegatedIntent(start, end, verb=verb_of(text[negated.end():])[0] or "")
        if kind == "act" and self._muddled(clause.verb or "", plain_text[m.end():] if (m := MARKER.match(plain_text))
                                           else plain_text):
            return UnknownIntent(start, end)
        if kind == "act" and clause.verb == "update" and self.last_act is not None and MARKER.match(text):
            # "add a taxi for 30, no wait, the taxi was 35": a correction of what was just said, not an edit
            return self._correction(text, start, end)
        if kind == "act" and clause.verb == "add" and self.last_act is not None and self.last_act.act == "add_line" and (
                _pronoun_only(text)):
            return _politeness(start, end, text)  # "coffee 4.50, can you add it": the request for what was just said
        if kind == "act" and clause.verb == "update" and self.last_act is not None and self.last_act.act == "update_line" \
                and not self.last_act.problem and _pronoun_only(text) and not re.search(r"\d", text):
            return _politeness(start, end, text)  # "the Wednesday lunch was in fact on Tuesday. Can you move it?"
        if kind == "act" and clause.verb == "update" and self._stay_told_anew(text):
            return self._add(text, start, end)  # "The hotel was the Imperial, two nights … at €172 a night" on a
            # claim with no stay yet: the stay told, not a line changed
        if kind == "act" and clause.verb == "update" and line_by_its_amount(text, self.ctx.today) and _FIGURE_GOES_ON.match(
                self.message, end):
            return UnknownIntent(start, end)  # "the 42 one is 34 plus tip": the new figure is not all that is said
        if kind == "act":
            return self._act(clause.verb or "", text, start, end)
        if kind == "item" and _only_where_one_went(text, self.ctx.today):
            return _politeness(start, end, text)  # "and in the evening I go back to the hotel": the story, no expense
        if kind == "item" and counts_only(text):
            return _politeness(start, end, text)  # "we scanned like 200 badges at the booth": the story, no price
        if kind == "item" and self.last_act is not None and self.last_act.act == "add_line":
            intent = self._add(text, start, end)
            if not intent.problem:
                self.last_act = intent  # "… taxis, 18 from the airport …, and 22 back": the way back of this one
            return intent
        if kind == "item" and self.last_act is not None and self.last_act.act == "remove_line" and not find_amounts(
                mask(text, [(r.start, r.end) for r in find_line_refs(text)])):
            intent = self._remove(text, start, end)  # "delete the cabify and the dinner": a second removal
            self.last_act = intent
            return intent
        if kind == "item" and self.last_act is not None and self.last_act.act == "update_line" and re.match(
                r"^\s*(?:and\s+|also\s+|&\s+)?(?:the|my)\b", self.message[clause.start:end], re.IGNORECASE):
            intent = self._update(text, start, end)  # "…, and the taxi 25": the second edit of one request
            self.last_act = intent
            return intent
        refs = find_line_refs(text)
        if kind == "item" and refs and self.last_act is None and not find_amounts(mask(text, [(r.start, r.end)
                                                                                             for r in refs])):
            return self._which_act(text, start, end, refs)
        if kind == "item" and clause.question:
            return UnknownIntent(start, end)  # "a taxi of 18, do I need a receipt?": asked, never a verbless add
        if (kind == "item" or (kind == "act" and clause.verb == "add")) and (alt := _AMOUNT_OR.search(text)) and not (
                _UNSURE.search(text[:alt.start()] + " " + text[alt.end():])):
            # "cab to the office tuesday, it was 20 or 25": which of the two is asked, and the answer adds it
            intent = self._add(text, start, end)
            if intent.problem and "more than one amount" in intent.problem:
                intent.problem = (f"Was “{intent.quote(self.message)}” {alt.group(1)} or {alt.group(2)}? Tell me the "
                                  "amount on the receipt, and I add it.")
                intent.missing = "amount"
            return intent
        if kind == "item" and self._statement(text):
            # "taxi 23.40 yesterday", "grabbed lunch today 14.20": an expense stated without a verb
            intent = self._add(text, start, end)
            self.last_act = intent
            return intent
        if kind == "item" and _NEW_ITEM.match(self.message[clause.start:end]):
            # "and a taxi from the airport, 31,50 €": one more expense, said without a verb
            intent = self._add(text, start, end)
            self.last_act = intent
            return intent
        return UnknownIntent(start, end)

    # ------------------------------------------------------------------ helpers

    def _stay_told_anew(self, text: str) -> bool:
        """"The hotel was the Imperial, two nights (Tues and Wed) at €172 a night": a stay told in full (its nights
        counted and priced), on a claim that has no stay and no line it names: a new line, whatever "was" suggests."""
        claim = self.ctx.default_claim()
        kinds = {c.category for c in find_categories(text) if not c.weak}
        told = " ".join(f"{line.get('merchant') or ''} {line.get('description') or ''}" for line in claim.lines) if claim else ""
        if claim is None or kinds != {"hotel"} or any(line.get("category") == "hotel" for line in claim.lines) or (
                find_categories(told) and "hotel" in {c.category for c in find_categories(told)}) or re.search(
                    r"\b(?:accommodation|lodging|stay|nights?|room)\b", told, re.IGNORECASE) or \
                find_line_refs(text) or any(self._merchant_lines(text, c) for c in self.ctx.open_claims) or re.search(
                    r"\b(?:not|instead|rather|actually|wrong|should|change|correct\w*|typo|mistake)\b", text, re.IGNORECASE):
            return False
        return bool(re.search(rf"\b(?:\d{{1,2}}|{'|'.join(lexicon.NUMBER_WORDS)})\s*(?:{lexicon.NIGHTS})\b", text,
                              re.IGNORECASE)) and bool(_PER_NIGHT_AFTER.search(text))

    def _statement(self, text: str) -> bool:
        """An expense said without a verb: a thing bought and one amount, nothing that refers back."""
        if _UNSURE.search(text) or _CONDITION.search(text) or STRONG_UPDATE.search(text) or re.search(
                r"\b(?:don'?t|do\s+not|never|no\s+need|not)\b|\?", text, re.IGNORECASE):
            return False
        dates = find_dates(text, self.ctx.today)
        masked = mask(text, [(d.start, d.end) for d in dates] + [(r.start, r.end) for r in find_line_refs(text)])
        dated = dates and re.fullmatch(r"\s*(?:on\s+)?(?:the\s+)?", text[:dates[0].start], re.IGNORECASE)
        opening = text[dates[0].end:] if dated else text  # "The 17 the flight back …": the day, then what happened
        claim = self.ctx.default_claim()
        lines_to_edit = self.opened is None and claim is not None and bool(claim.lines)
        kinds = {c.category for c in find_categories(text)}
        told = {w for line in (claim.lines if claim is not None else []) for w in re.findall(
            r"[^\W\d_]{4,}", f"{line.get('merchant') or ''} {line.get('description') or ''}".casefold())}
        if lines_to_edit and kinds and not set(re.findall(r"[^\W\d_]{4,}", text.casefold())) & told and not any(line.get("category") in kinds for line in claim.lines) and not any(
                self._merchant_lines(text, c) for c in self.ctx.open_claims):
            lines_to_edit = False  # "the Rosewood, two nights … at £310 a night" on a claim with no stay yet: a new one
        if find_line_refs(text) or lines_to_edit and re.match(r"^[\s,]*(?:the|that|this|my)\b", opening, re.IGNORECASE) and not (
                dated and re.match(r"^[\s,]*the\s+\w+\s+(?:back|out|home|there|return)\b", opening, re.IGNORECASE)):
            return False  # "the taxi 40" refers to a line: an edit, said too loosely to guess (none, on a claim with no
            # line yet or one this message opens: "new claim …, the lufthansa flight tuesday 312")
        return len(find_amounts(_blank_not_values(masked))) >= 1

    def _claim_of_update(self, intent: Any) -> Claim | None:
        """The claim an edit is on: the one its words name, else the conversation's."""
        ref = getattr(intent, "ref", None) or {}
        named = next((c for c in self.ctx.claims if c.id == ref.get("id")), None) if isinstance(ref, dict) else None
        return named or self.ctx.default_claim()

    def _in_the_lines_week(self, found: DateFound, intent: Any, line: Any) -> DateFound:
        """"the tuesday lunch was actually on monday": a bare weekday a line named by its own weekday moves to is that
        line's week's (the Monday before its Tuesday), never asked between the trip's week and this one."""
        if found.value is not None or not _BARE_WEEKDAY_SAID.fullmatch(found.text.strip()) or not isinstance(line, int):
            return found
        claim = self._claim_of_update(intent)
        target = next((ln for ln in (claim.lines if claim is not None else ()) if ln.get("ordinal") == line), None)
        named = [d for d in find_dates(self._clause_text, self.ctx.today) if d.value and d.text != found.text
                 and _BARE_WEEKDAY_SAID.fullmatch(d.text.strip())]
        if target is None or not target.get("date") or len(named) != 1:
            return found
        old = date.fromisoformat(str(target["date"]))
        if date.fromisoformat(str(named[0].value)).weekday() != old.weekday() or _ALSO_SAID.search(
                self._clause_text) or _HEDGED.search(self._clause_text):
            return found  # ("the tuesday lunch was on monday too": another one, never that one moved)
        said = find_dates(found.text.strip(), self.ctx.today)
        if not said or not said[0].value:
            return found
        new = old - timedelta(days=old.weekday()) + timedelta(days=date.fromisoformat(str(said[0].value)).weekday())
        span = sorted(date.fromisoformat(str(ln.get("date"))) for ln in claim.lines if ln.get("date"))
        if not span or not span[0] - timedelta(days=1) <= new <= span[-1] + timedelta(days=1) or new > self.ctx.today:
            return found  # (a day outside the trip's: "the monday dinner was actually on sunday", which one? asked)
        return replace(found, value=new.isoformat())

    def _which_week(self, said: str, *, editing: bool = False) -> str | None:
        """"Which Tuesday: 24 Nov (in the claim's trip) or 1 Dec?" for a bare weekday the trip made unsure."""
        found = find_dates(said, self.ctx.today)
        claim = self.ctx.default_claim()
        if len(found) != 1 or not found[0].value:
            return None
        day = date.fromisoformat(found[0].value)
        trip = in_the_trip(day, found[0].text, claim, self.ctx.today)
        where = "in the dates of the claim's lines"
        if self._todays_weekday_unsure(found[0], day, claim):
            other = day - timedelta(days=7) if day == self.ctx.today else day
            return (f"Which {day.strftime('%A')} do you mean: today ({self.ctx.today.day} "
                    f"{self.ctx.today.strftime('%b')}) or a week ago ({other.day} {other.strftime('%b')})? "
                    f"I did not {'change' if editing else 'add'} it yet.")
        if trip == day and _BARE_WEEKDAY_SAID.fullmatch(found[0].text.strip()) and self._a_week_after_the_trip_told(day):
            trip, where = day - timedelta(days=7), "in the trip you told me of"
        if trip == day:
            return None
        weekday = trip.strftime("%A")
        return (f"Which {weekday} do you mean: {trip.day} {trip.strftime('%b')} ({where}) or "
                f"{day.day} {day.strftime('%b')}? I did not {'change' if editing else 'add'} it yet.")

    def _todays_weekday_unsure(self, found: DateFound, said: date, claim: Claim | None) -> bool:
        """"taxi thursday 12" told on a Thursday, with no line or other day of the message near it: which week's?"""
        if said not in (self.ctx.today, self.ctx.today - timedelta(days=7)):
            return False  # (any other day is no weekday of today's: the message is not read again for it)
        told = [date.fromisoformat(d.value) for d in find_dates(self.message, self.ctx.today)
                if d.value and d.text != found.text and not _BARE_WEEKDAY_SAID.fullmatch(d.text.strip())]
        return todays_weekday_unsure(said, found.text, claim, self.ctx.today, "", told)

    def _days_told_before(self) -> list[date]:
        """The days earlier messages of the conversation told by their dates (bare weekdays left out), in order; read
        once a message, whatever number of weekdays or headings ask for them."""
        if self._trip_told is None:
            self._trip_told = sorted(date.fromisoformat(d.value) for said_before in self.ctx.earlier
                                     for d in find_dates(said_before, self.ctx.today)
                                     if d.value and not _BARE_WEEKDAY_SAID.fullmatch(d.text.strip()))
        return self._trip_told

    def _a_week_after_the_trip_told(self, said: date) -> bool:
        """Is a bare weekday, read as the latest one, a week after the same weekday of a trip an earlier message told
        by its days ("On the Monday I also took …" after "I was in London from Monday 16 to Thursday 19 November")?
        Which week it was is then asked."""
        told = self._days_told_before()
        return len(told) >= 2 and told[0] <= said - timedelta(days=7) <= told[-1] and not (
            told[0] <= said <= told[-1] + timedelta(days=1))

    def _in_the_trip(self, found: DateFound, claim: Claim | None) -> DateFound:
        """A bare weekday read against the claim's trip: "tue" when the trip was last week, or "wed" said on the
        Wednesday of this week's trip, is asked about (no value)."""
        if not found.value:
            return found
        said = date.fromisoformat(found.value)
        if _BARE_DAY_WORD.fullmatch(found.text.strip()) and (span := self._trip_span_told()) is not None:
            # "I was in Lyon from Mon 16 to Wed 18 Nov. Tuesday: lunch 22": the Tuesday of the trip the message tells
            inside = weekday_within(said, span)
            return replace(found, value=inside.isoformat() if inside else None)
        if _BARE_DAY_WORD.fullmatch(found.text.strip()) and said == self.ctx.today and (
                span := self._trip_of_the_conversation()) is not None and span[1] < self.ctx.today and (
                    inside := weekday_within(said, span)) is not None:
            # "trip was monday 16 to wednesday 18 nov" told before, then "monday: taxi …" on Monday the 23rd: the trip's
            return replace(found, value=inside.isoformat())
        trip = in_the_trip(said, found.text, claim, self.ctx.today)  # found.text holds "last" when said
        if self._todays_weekday_unsure(found, said, claim):
            return replace(found, value=None)
        if trip == said and _BARE_WEEKDAY_SAID.fullmatch(found.text.strip()):
            # "… on Monday 23 Nov. And parking … (I paid it on Wednesday when I came back)" told on 5 Dec: the
            # Wednesday of that trip (25 Nov) or of this week (2 Dec)? The days the message names make it unsure
            told = [date.fromisoformat(d.value) for d in find_dates(self.message, self.ctx.today)
                    if d.value and d.text != found.text and not _BARE_WEEKDAY_SAID.fullmatch(d.text.strip())]
            if any(0 <= (said - timedelta(days=7) - d).days <= 6 for d in told) and not any(
                    0 <= (said - d).days <= 6 for d in told):
                return replace(found, value=None)
            if self._a_week_after_the_trip_told(said):
                return replace(found, value=None)
        if trip != said and _BARE_DAY_WORD.fullmatch(found.text.strip()) and self._week_dated(trip) and not \
                self._week_dated(said, any_day=True) and not any(
                    str(line.get("date") or "")[:10] and date.fromisoformat(str(line["date"])).isocalendar()[:2]
                    == said.isocalendar()[:2] for line in (claim.lines if claim is not None else ())):
            return replace(found, value=trip.isoformat())  # "Hotel Euler, 2 nights from Mon, 412.00 - Tue 17.11 lunch
            # 22.00": the trip's Monday, the week the message dates in figures (never this week's, which it does not)
        return found if trip == said else replace(found, value=None)

    def _trip_span_told(self) -> tuple[date, date] | None:
        """The first and last day of the trip a sentence of the message tells ("I was in Lyon from Mon 16 to Wed 18
        Nov."), a fortnight at most; None when it tells none."""
        for start, end, _ in sentences(self.message):
            if TRAVELLED_DAYS.match(self.message[start:end].strip()) and two_days_only(self.message[start:end]):
                days = [date.fromisoformat(d.value) for d in find_dates(self.message[start:end], self.ctx.today) if d.value]
                if len(days) == 2 and 0 < (max(days) - min(days)).days <= 14:  # (a third day, "I registered on 13
                    return min(days), max(days)  # Nov", is no day of the trip: none is taken)
        return None

    def _week_dated(self, day: date, any_day: bool = False) -> bool:
        """Does the message date a day in figures ("17.11", not a bare weekday) of the week (Monday to Sunday) of
        ``day`` (``any_day``: a day said in any words but a bare weekday, "yesterday" too)?"""
        return any(d.value and (re.search(r"\d", d.text) or any_day and not _BARE_DAY_WORD.fullmatch(d.text.strip()))
                   and date.fromisoformat(d.value).isocalendar()[:2] == day.isocalendar()[:2]
                   for d in find_dates(self.message, self.ctx.today))

    def _anchored(self, dates: list[DateFound]) -> list[DateFound]:
        """"same day", "the day after": the day of the expense said just before (in this message, else the
        line the last turn added or changed), moved as the words say; None (asked about) when there is none."""
        out = []
        for found in dates:
            m = _ANCHORED.fullmatch(found.text.strip())
            if found.value is not None or m is None:
                out.append(found)
                continue
            anchor = (self.last_act.args.get("date") if self.last_act is not None else None) or next((
                str(i.args["date"]) for i in reversed(self.told) if isinstance(i, ActIntent) and i.act == "add_line"
                and i.args.get("date") and not i.retracted), None) or self.ctx.last_day_told
            # ("flight … tue 212.40, s-bahn from airport 13.90, dinner … same night 38.50": the night of the last day told)
            shift = 1 if m.group("after") else -1 if m.group("before") else 0
            value = None
            if re.search(r"\b(?:scratch|forget|never\s*mind|nvm|no\s+wait|wait\s+no|cancel|drop|skip|not\s+the)\b",
                         self.message[:found.start], re.IGNORECASE):
                anchor = None  # "taxi 20 on Monday - no wait, scratch the taxi. Dinner same night 30": which night, asked
            if anchor:
                day = date.fromisoformat(anchor) + timedelta(days=shift)
                value = day.isoformat() if day <= self.ctx.today else None
            out.append(replace(found, value=value))
        return out

    def _shift(self, mention: Mention, offset: int) -> Mention:
        return Mention(mention.claims, mention.word, mention.start + offset, mention.end + offset, mention.exact)

    def _mention_in(self, text: str, start: int) -> Mention | None:
        mention = find_mention(text, self.ctx.claims)
        if mention is not None:
            mention = self._shift(mention, start)
            self.mention = mention
            return mention
        return None

    def _target(self, text: str, start: int, *, new_claim_ok: bool = True) -> tuple[
            dict[str, Any] | None, Claim | None, str | None, Mention | None]:
        """(case reference, the claim when known, a question back, the mention) for an act on a claim."""
        if "case" in self.overrides:  # the answer to "which claim?" names it
            claim = self.overrides["case"]
            return {"id": claim.id}, claim, None, None
        mention = self._mention_in(text, start)
        named = named_reference(text, self.ctx)
        if mention is not None and named is not None and not named.word.lower().startswith("clm_") and not all(
                w.lower() in " ".join(c.title.lower() for c in mention.claims)
                for w in re.findall(r"[\w'’-]+", named.word) if w.lower() not in lexicon.GENERIC_TITLE_WORDS):
            # "the Leipzig audit claim" is not “Frankfurt audit November”, though both say "audit": the name
            # the user wrote stands, and the reducer refuses it if it is no claim of theirs
            mention = None
            self.mention = None
        if mention is None and (other := other_claim(text, self.ctx)) is not None:
            at = re.search(r"\bthe\s+other\b", text, re.IGNORECASE)
            mention = Mention((other,), other.title, start + at.start(), start + at.end(), False)
        if mention is None and (named := named_reference(text, self.ctx)) is not None:
            mention = self._shift(named, start)  # named, but not one of the user's claims: carried as written
            self.mention = mention
        if mention is None and self.ctx.previous and _TO_IT.search(text):
            # "add 42 of taxi to it", after a message that named a claim: "it" is that claim, found or not
            before = find_mention(self.ctx.previous, self.ctx.claims) or named_reference(self.ctx.previous, self.ctx)
            if before is not None:
                mention = Mention(before.claims, before.word, start, start, before.exact)
        if mention is None and self.opened is not None and new_claim_ok:
            return None, None, None, None  # the claim this message opens
        mention = mention or self.mention
        if mention is not None:
            ref, problem = case_ref(mention, self.ctx)
            claim = mention.claims[0] if len(mention.claims) == 1 else None
            return ref, claim, problem, mention
        return None, self.ctx.default_claim(), None, None

    def _muddled(self, verb: str, text: str) -> bool:
        """A clause that says more than one act would say: read as not understood, never trimmed to fit.

        Two kinds of act in one clause, a negation or a question word inside a request, and, for the
        acts that take no values (submit, withdraw, remove), any word outside their small grammar.
        """
        family = verb or verb_of(text)[0]
        if family == "withdraw" and not re.search(r"\b(?:withdraw|claims?|report)\b", text, re.IGNORECASE) and (
                find_line_refs(text) or self._names_a_line(text)):
            family = "remove"  # "cancel the taxi" names a line
        core = text
        if family in ("submit", "withdraw", "remove"):
            core = text = self._without_asides(text)
        if family == "open":  # a new claim's title is the user's free text, not part of the request's grammar
            core = re.split(r"\b(?:called|named|titled|entitled)\b|[\"“‘]", text, maxsplit=1, flags=re.IGNORECASE)[0]
        if conflicting_verbs(core):
            return True
        body = _NOT_VALUE.sub(" ", core)
        if re.search(r"\b(?:don'?t|do\s+not|never|can'?t|cannot|won'?t|shouldn'?t)\b", body, re.IGNORECASE):
            return True
        if re.search(r"(?<!^)\b(?:what|which|why|whether)\b", body.strip(), re.IGNORECASE):
            return True
        if _UNSURE.search(body):
            return True
        if family != "open" and re.search(r"\b(?:called|named|titled)\b", body, re.IGNORECASE):
            return True
        if family in ("submit", "withdraw", "remove"):
            return not self._plain_words(family, text)
        return False

    def _without_asides(self, text: str) -> str:
        """A value-less request without who it goes to or is for, and why it goes (blanked, positions kept): the act
        waits for the user's click on its card anyway. Not when those words name a claim."""
        if find_mention(text, self.ctx.claims) is not None or named_reference(text, self.ctx) is not None:
            return text
        text = _OWN_CHECK.sub(lambda m: " " * len(m.group(0)), _RECIPIENT.sub(lambda m: " " * len(m.group(0)), text))
        return _WHY_IT_GOES.sub(lambda m: m.group(0) if re.search(r"\d", m.group(0)) else " " * len(m.group(0)), text)

    def _plain_words(self, family: str, text: str) -> bool:
        """Every word of a value-less request is one its grammar allows (or names a claim or a line)."""
        allowed = set(_PLAIN_WORDS)
        for claim in self.ctx.claims:
            allowed |= {w.lower() for w in re.findall(r"[\w'-]+", claim.title)}
            if family == "remove":
                for line in claim.lines:  # a line named by its merchant or by the words it was described with
                    allowed |= {w.lower() for w in re.findall(r"[\w'-]+", f"{line.get('merchant') or ''} "
                                                                         f"{line.get('description') or ''}")}
        if family == "remove":
            allowed |= set(lexicon.CATEGORY_WORDS) | _LINE_WORDS | {"back"}  # "take the lunch back off"
            if re.search(r"\bactually\W*$", text, re.IGNORECASE):
                allowed.add("actually")  # "Take the parking off actually": on second thought, and its card asks anyway
        if (gloss := re.match(r"^([^=]{1,40}?)\s*=\s*(?=\S)", text)) and verb_of(text[gloss.end():])[0] == family:
            text = " " * gloss.end() + text[gloss.end():]  # "Bitte einreichen = submit it": the request, in their words too

        named = named_reference(text, self.ctx)
        amounts = {Decimal(str(ln["amount"])) for c in self.ctx.claims for ln in c.lines}
        masked = mask(text, ([(r.start, r.end) for r in find_line_refs(text)] if family == "remove" else [])
                      + ([(named.start, named.end)] if named else [])
                      # "remove the 24.50 lunch": an amount one of the lines has names that line
                      + ([(a.start, a.end) for a in find_amounts(text) if a.amount in amounts] if family == "remove" else [])
                      # "get rid of the taxi on monday": the day names the line
                      + ([(d.start, d.end) for d in find_dates(text, self.ctx.today)] if family == "remove" else [])
                      # "scrap the taxi to Schiphol": where the ride went names the ride (the audit checks it is the one)
                      + ([m.span() for m in re.finditer(r"\b(?:to|from)\s+(?:the\s+)?(?-i:[A-Z][\w'’-]+)(?:\s+(?-i:[A-Z][\w'’-]+))?",
                                                         text)] if family == "remove" else [])
                      # "remove the CAT train": a service's letters before the kind of the line (the audit checks the line)
                      + ([m.span(1) for m in re.finditer(rf"\b((?-i:[A-Z]{{2,5}}))\s+(?:{'|'.join(sorted(lexicon.CATEGORY_WORDS))})\b",
                                                         text, re.IGNORECASE)] if family == "remove" else []))
        idle: list[str] = []
        for w in re.findall(r"[^\W_][\w'’-]*", masked):
            word = plain(w)
            if not word or word in allowed or word in lexicon.FILLER:
                continue
            if any(word == v or word in v.split() for verbs in lexicon.VERBS.values() for v in verbs):
                continue
            if word in lexicon.VERB_TYPOS or _near_verb(word) is not None:
                continue
            mention = find_mention(w, self.ctx.claims)
            if mention is not None:
                continue
            idle.append(w)
        return not idle or (family in ("submit", "withdraw") and _only_idle_talk(idle, masked, self.ctx.today))

    def _act(self, verb: str, text: str, start: int, end: int) -> Intent | list[Intent] | None:
        lowered = text.lower()
        has_claim_word = bool(re.search(r"\b(?:claim|claims|expense\s+report|report)\b", lowered))
        if verb == "open":
            if not has_claim_word and re.search(r"\b(?:make|set)\b", lowered):
                verb = "update"
            elif not has_claim_word and not re.search(r"\b(?:one|another)\b.*\b(?:called|named|titled|entitled)\b",
                                                      lowered) and not re.search(
                    r"\b(?:open|start|create|new)\s+(?:a\s+|an\s+)?(?:new\s+)?[\"“]", lowered) and not _new_noun_quoted(text) and not (re.search(
                    r"\b(?:new|another)\s+one\s*[:,\-–—]+\s*[A-Z]", text) and not find_amounts(_digits_only(text))):
                return UnknownIntent(start, end)  # "ok new one: Boston customer visit": a claim, named as it is asked
            elif (find_mention(text, self.ctx.claims) is not None and not re.search(
                    r"\b(?:new|another|called|named|titled|for|about)\b", lowered)):
                from .questions import read_question

                return read_question(self, text, start, end, topic="case")
        if verb == "update" and has_claim_word and re.search(r"\b(?:rename|retitle|call)\b", lowered) and not (
                find_line_refs(text) or self._names_a_line(text)):
            claim = self.ctx.default_claim()
            return ActIntent(start, end, act="update_line", problem=(
                "I cannot rename a claim" + (f": it stays “{claim.title}”" if claim else "") + ". You can open a new claim "
                "with the title you want."))
        if verb == "remove" and has_claim_word and not find_line_refs(text) and not self._names_a_line(text):
            verb = "withdraw"
        if verb == "withdraw" and not has_claim_word and not re.search(r"\bwithdraw\b", lowered) and (
                find_line_refs(text) or self._names_a_line(text)):
            verb = "remove"  # "please cancel the taxi": a line, not the claim
        if verb == "withdraw" and not re.search(r"\bwithdraw\b", lowered) and not has_claim_word and find_mention(
                text, self.ctx.claims) is None and not re.search(r"\b(?:it|this\s+one)\b", lowered):
            return UnknownIntent(start, end)  # "cancel", "close" alone do not name a claim
        if verb in ("submit", "withdraw") and _EVERY_CLAIM.search(text):
            return self._every_claim(verb, start, end)
        handler = {"open": self._open, "add": self._add, "update": self._update, "remove": self._remove,
                   "submit": self._submit, "withdraw": self._withdraw}.get(verb)
        if handler is None:
            return UnknownIntent(start, end)
        intent = handler(text, start, end)
        if isinstance(intent, list) and intent and isinstance(intent[-1], ActIntent):
            self.last_act = intent[-1]
        if isinstance(intent, ActIntent):
            self.last_act = intent
            if intent.act == "open_claim" and not intent.problem:
                self.opened, self.mention = intent, None
        return intent

    def _names_a_line(self, text: str) -> bool:
        masked = mask(text, [(m.start(), m.end()) for m in re.finditer(r"\bclaims?\b", text, re.IGNORECASE)])
        return bool(find_categories(masked)) or any(self._merchant_lines(masked, c) for c in self.ctx.open_claims)

    # ------------------------------------------------------------------ open_claim

    def _open(self, text: str, start: int, end: int) -> ActIntent:
        intent = ActIntent(start, end, act="open_claim")
        # "call it Stockholm ML summit pls, euros is fine", "…, dollars is fine": the currency agreed to, said as ", euros"
        text = _CURRENCY_AGREED.sub(lambda m: f", {m.group('money')}", text)
        currency_text = None
        for m in _CURRENCY_PHRASE.finditer(text):
            code = _currency_code(m.group(1) or m.group(2))
            if code:
                currency_text = (m, code)
        if "currency" in self.overrides and not self.overrides["currency"]:
            self.overrides.pop("currency")
        named = currency_named(text)
        if named is not None:  # "in Egyptian pounds", "(PLN)": the name decides, and leaves the title
            code, at, to = named
            currency_text = (re.match(r"(.*)", text[at:to]), code)
            head = re.sub(r"[\s,]+(?:in|en|em|auf|with)$", "", text[:at].rstrip(" ,(-–"), flags=re.IGNORECASE)  # "new claim in pounds for …"
            text = head + text[to:]
            text = re.sub(rf"{_CURRENCY_TOLD}\s*:?\s*$", "", text, flags=re.IGNORECASE)  # ("… Oslo and the currency NOK")
            text = _currency_said_again(text, code)
        elif currency_text is not None and re.search(r"\b(?:claim|one|report)\s*$", text[:currency_text[0].start()],
                                                     re.IGNORECASE) and re.match(
                r"\s*(?:[:\-–—,]|\b(?:call|called|named|titled|title|name|for|about|pls|please)\b)",
                text[currency_text[0].end():], re.IGNORECASE):
            # "open a claim in USD: Tokyo partner summit", "new claim in CAD pls — call it …": the currency said
            # before the title is no part of it (said after the title, the title's cut ends there)
            m = currency_text[0]
            text = text[:m.start()].rstrip() + " " + text[m.end():].lstrip()
        title = _title(text)
        if title.lower() in ("", "it", "that", "this", "them", "one") and (trip := _TRIP_OF_THE_EXPENSES.search(self.message)):
            # "i need to put in my expenses from the hamburg trip last week … can you start a new claim for it": the
            # claim "it" is for, named with its kind in the message
            title = _tidy_title(trip.group(1))
        if currency_text is not None:
            m, code = currency_text
            code = self.overrides.get("currency", code)
            if code not in reference_currencies():
                intent.args["title"] = self.overrides.get("title") or title or ""  # the title the user answered wins
                intent.missing = "currency"
                intent.problem = (f"Claims can be kept in {', '.join(reference_currencies())}; "
                                  f"{m.group(1) or m.group(2)} is not one of them, so I did not open the claim. "
                                  "Which of these currencies should it use?")
                return intent
            intent.args["currency"] = code
        title = self.overrides.get("title") or title or ""  # the title the user answered wins over one guessed
        if currency_text is None and self.overrides.get("currency"):
            code = self.overrides["currency"]
            if code not in reference_currencies():
                intent.missing = "currency"
                intent.problem = (f"Claims can be kept in {', '.join(reference_currencies())}; {code} is not one of "
                                  "them, so I did not open the claim. Which of these currencies should it use?")
                return intent
            intent.args["currency"] = code
        if not title:
            intent.missing = "title"
            intent.problem = ("What should the new claim be called? For example: "
                              "“open a claim called Berlin trip in EUR”.")
            return intent
        intent.args = {"title": title, **intent.args}
        intent.label = title.lower()
        return intent

    # ------------------------------------------------------------------ add_line

    def _add(self, text: str, start: int, end: int) -> ActIntent:
        intent = ActIntent(start, end, act="add_line")
        ref, claim, problem, mention = self._target(text, start)
        intent.ref, intent.claim = ref, claim
        skip = [(mention.start - start, mention.end - start)] if mention and start <= mention.start < end else []
        if lexicon.ONE_OF_THEM.search(text) and claim is not None and claim.lines:
            # "one of my taxis was 35": one of the lines already on the claim, not said which; never a new one
            intent.problem = (f"Is “{text}” about one of the lines already on “{claim.title}”? Tell me which line and "
                              "its new value (“line 2 is 35”), or say it is a new expense. I did not change anything yet.")
            return intent
        dates = find_dates(text, self.ctx.today)
        another_stay = any(c.category == "hotel" and not start <= c.start < end for c in find_categories(self.message))
        if not another_stay:
            # (beside another stay told, "OCT 08 HOTEL LE GERMAIN 398.00 … the hotel is 2 nights (6th + 7th)", which
            # stay the days are of is asked, as the stay told twice)
            dates = _nights_days_of_month(text, dates, self.ctx.today)
        refs = find_line_refs(text)
        dates = self._anchored(dates)
        dates = [self._in_the_trip(self._same_weekday_named(d), claim) for d in dates]
        masked = mask(text, [(d.start, d.end) for d in dates] + [(r.start, r.end) for r in refs] + skip)
        merchants = find_merchants(masked, skip=skip)
        outside = mask(masked, [(m.start, m.end) for m in merchants])
        # a place the expense went to or came from is not what it was: "uber to the hotel" is a taxi
        said = find_categories(outside)
        others = {c.category for c in said if plain(c.text) not in lexicon.MEALS and not c.weak}
        bought = [c for c in said if plain(c.text) in lexicon.MEALS and not others - {"meals"} or (  # "went to dinner": a meal
            (not re.search(r"\b(?:to|from|into|at)\s+(?:the\s+|my\s+|our\s+)?$", outside[:c.start], re.IGNORECASE)
             or plain(c.text) in ("park", "parked"))  # ("paid $25 to park the van": what was paid for)
            and not is_destination(outside, c)
            # "in train I eat in Wars 46 zł": the train is where, what was bought is said beside it
            and not (c.category == "travel" and len(said) > 1 and re.search(r"\b(?:in|on|aboard)\s+(?:the\s+|a\s+)?$",
                                                                            outside[:c.start], re.IGNORECASE)
                     and any(d.category != "travel" for d in said))
            # "feed at the airport before the flight 19.30": when it was bought, never what; "Kafi und Gipfeli in the
            # train": where something unknown was bought
            and not (c.category == "travel" and re.search(r"\b(?:before|after|during)\s+(?:the|my|our|a)\s+$",
                                                          outside[:c.start], re.IGNORECASE))
            and not (c.category == "travel" and (aboard := re.search(r"\b(?:in|on|aboard)\s+(?:the\s+|a\s+)?$",
                                                                      outside[:c.start], re.IGNORECASE))
                     and bought_aboard(outside, aboard.start()))
            # "hotel to the office 21", "airport→hotel": where a ride started, not what was bought
            and not (c.category == "hotel" and re.match(r"\s*(?:to|->|→|-)\s*(?:the\s+)?[^\W\d_]", outside[c.end:])))]
        if bought != said and (bought or any(m.category for m in merchants)):
            outside = mask(outside, [(c.start, c.end) for c in said if c not in bought])
        elif said and not bought:
            # "21.40€, site→hotel", "12 from the station to the hotel": only where it went is said, not what it was
            outside = mask(outside, [(c.start, c.end) for c in said])
        category = best_category(find_categories(outside))
        kinds_joined = [c for c in find_categories(outside) if not c.weak]
        if len({c.category for c in kinds_joined}) > 1 and any(re.fullmatch(r"\s*(?:and|&|\+|plus|n)\s*", outside[x.end:y.start],
                                                                         re.IGNORECASE) for x, y in pairwise(kinds_joined)):
            # "taxi and train 45": one figure for two kinds of expense; which is it, or how is it split?
            intent.problem = (f"Is the amount in “{text}” for one of them, or for both together? Tell me each one's "
                              "amount, e.g. “taxi 20, train 25”. I did not add it yet.")
            return intent
        if category is None and re.search(r"\banother\b", outside, re.IGNORECASE) and self.last_act is not None \
                and self.last_act.act == "add_line" and self.last_act.args.get("category"):
            category = self.last_act.args["category"]  # "a taxi …, and another back to the hotel": one more of those
        if category is None and (RETURN_LEG.match(text) or _PRICED_BACK.match(text)) and self.last_act is not None and \
                self.last_act.act == "add_line" and self.last_act.args.get("category") in ("travel", "taxi"):
            # "easyJet out on monday 74.99 and back on wednesday 81.49": the way back, with whom the way out was
            category = self.last_act.args["category"]
            if not merchants and self.last_act.args.get("merchant"):
                merchants = [MerchantFound(0, 0, "", str(self.last_act.args["merchant"]), None)]
        if category is None:
            category = next((m.category for m in merchants if m.category), None)
        if category is None:
            inside = [c for m in merchants for c in find_categories(m.text)]
            category = best_category(inside)
        if self.heading is not None and (self._sentence_of(start) > self.heading_at + 1 or (
                self._sentence_of(start) > self.heading_at and re.search(r"\b(?:also|too|as\s+well|paid|bought)\b", text,
                                                                          re.IGNORECASE))):
            # a heading tells what follows it, not the rest of a long message; nor a next sentence that tells something
            # more ("Hotels: … $139. Friday I also paid $25 to park the van …")
            self.heading = None
        if self.heading is not None and category is not None and category != self.heading and [
                c for c in find_categories(outside) if not c.weak]:
            self.heading = None  # "… and the taxis, 18 from the airport": a kind of its own ends the heading's
        if self.heading is not None and (category is None or category == self.heading or not [
                c for c in find_categories(outside) if not c.weak]):
            category = self.heading  # "oh the dinners. wednesday at Cal Pep 58.30": a dinner
            if not merchants and (lead := _NAME_LEADS.match(masked)) is not None and find_amounts(masked[lead.end():]):
                merchants = [MerchantFound(lead.start(1), lead.end(1), lead.group(1), lead.group(1), None)]
        merchants = [m for m in merchants if not a_day_named(m.name)]  # "am Montag Taxi …": when, never who was paid
        paid = [m for m in merchants if not re.search(r"\b(?:from|to|via|vom|von|zum|zur|nach)\s+$", masked[:m.start],
                                                      re.IGNORECASE)]  # ("Taxi vom Hbf zum Hotel": a route, said in German)
        if len(paid) > 1 and (at := [m for m in paid if re.search(r"\bat\s+(?:the\s+)?$", masked[:m.start], re.IGNORECASE)]):
            paid = at  # "breakfast with the CFO monday, 23.80 at Café Central": who was paid is where it was
        if len(merchants) > 1 and paid:
            merchants = paid  # "my flight from Frankfurt to Valencia … with Lufthansa": the places are the route
        elif not paid and merchants and all(not m.category for m in merchants):
            merchants = []  # "a taxi from gare du nord to the hotel": where it went, not who was paid
        merchant = with_carrier_word(merchants[0].name[:80], text) if merchants else None
        if merchant is None and dates and not text[:dates[0].start].strip() and (
                row := _ROW_NAME.match(masked[dates[0].end:])) is not None and not find_categories(row.group(1)):
            if " " in row.group(1) or not known_word(row.group(1).lower()):
                merchant = row.group(1)  # "03 NOV   Pestana   342.00 EUR   (hotel, 2 nights)": a statement row's payee
        if merchant is None and (tail := _NAME_LAST.search(outside)) is not None and _unknown_name(tail.group(1)) and not (
                currencies_named(tail.group(1)) or any(c.start <= tail.start(1) < c.end for c in currency_mentions(outside))):
            # ("lunch …, 289 korun", "180 shekel": the money's name, with a rate or none)
            merchant = tail.group(1)[:1].upper() + tail.group(1)[1:]  # "schnitzel dinner 34 tue figlmüller"
        if merchant is None and claim is not None and (again := _merchant_of_the_claim(outside, claim, category)):
            merchant = again  # "flight back thu 94,50 wizz again" beside the Wizz Air flight out: the same airline
        if merchant is None and category == "hotel" and (name := _hotel_named(outside, self.ctx.today)):
            merchant = name  # "hotel amigo 176 for 1 night", "2 nts hampton inn 389.20": the stay's house, in lower case
        if merchant is None and dates and category == "meals" and (name := name_before_price(text[dates[-1].end:])):
            merchant = name  # "lunch 17.11. hiltl 34,50": who was paid, between the day and the price
        if merchant is not None and " " not in merchant and find_dates(merchant.lower(), self.ctx.today):
            merchant = None  # "taxi 20 yesterdya": a day misspelt, never who was paid
        said = " ".join(c.text for c in find_categories(outside))
        label = " ".join(filter(None, [merchant, category, said])) or "expense"
        intent.label = label.lower()
        if problem:
            intent.problem = problem
            return intent
        amounts = find_amounts(_blank_not_values(masked))
        chosen, amount_problem = _choose_amount(amounts, text, what=merchant or category or "the expense")
        if "amount" in self.overrides:
            chosen, amount_problem = self.overrides["amount"], None
        if category is None and "category" in self.overrides:
            category = self.overrides["category"]
        if "date" in self.overrides:
            dates = [DateFound(0, 0, "", self.overrides["date"])]
        elif not dates and self.day_heading == "":
            dates = [DateFound(0, 0, self._day_heading_text, None)]  # a weekday of which week? asked
        elif not dates and self.day_heading is not None and not (self._receipts_heading and category == "hotel"):
            dates = [DateFound(0, 0, "", self.day_heading)]  # "On the last day, 2/12, I took …": the day told first
        if amount_problem:
            spoken = len({(a.start, a.end) for a in amounts}) == 1 < len(amounts)  # "two forty": 2.40 or 240
            intent.problem, intent.missing = amount_problem, "amount" if not amounts or spoken else None
            return intent
        if category is None:
            intent.problem = (f"What kind of expense is “{text}”: travel, hotel, meals, taxi or other? "
                              "I did not add it yet.")
            intent.missing = "category"
            return intent
        if "amount" not in self.overrides and (doubt := self._spaced_in_doubt(chosen, category, claim)):
            intent.problem = doubt
            return intent
        date_values = {d.value for d in dates}
        if None in date_values:
            bad = next(d.text for d in dates if d.value is None)
            intent.problem = self._which_week(bad) or (
                f"{wrong}: which day was “{bad}”? I did not add it yet." if (
                    wrong := weekday_not_that_day(bad, self.ctx.today)) else
                f"I could not work out the date “{bad}”; write it like 20 Nov or 2026-11-20.")
            intent.missing = "date" if intent.problem.startswith("Which") else intent.missing
            return intent
        stay_nights, priced_a_night = 0, False
        if len(date_values) == 2 and (category == "hotel" or lexicon.HIRE.search(text)) and _stay_span(text, dates):
            # a stay told by its check-in and check-out ("checked in 1 dec, out 3 dec", "29 nov to 1 dec"): one line
            # dated at check-in (nights told by their days, "the 29th and 30th", may be a line a night: asked)
            first, last = sorted(date.fromisoformat(str(v)) for v in date_values)
            date_values = {first.isoformat()}
            if category == "hotel" and chosen is not None and not chosen.quantity and 1 < (last - first).days <= 14 and \
                    (a_night := _PER_NIGHT_AFTER.match(text, chosen.end)) and not re.search(r"[^\W_]", text[a_night.end():]) and \
                    not re.search(r"\d", self.message[self._clause_at + a_night.end():self._sentence_end(
                        self._clause_at + a_night.end())]) and not re.search(
                        rf"\b(?:\d{{1,2}}|{'|'.join(lexicon.NUMBER_WORDS)})\s*(?:{lexicon.NIGHTS}|n)\b", masked, re.IGNORECASE) and \
                    re.search(r"check(?:ed|ing)?[\s-]*in", text, re.IGNORECASE) and re.search(
                        r"check(?:ed|ing)?[\s-]*out|\bout\b", text, re.IGNORECASE):
                # "checked in Monday, checked out Wednesday, €131 a night": each of the nights between, at that price
                stay_nights, priced_a_night = (last - first).days, True
        elif len(date_values) > 1 and category == "hotel" and (not (chosen is not None and chosen.quantity) or (
                chosen.quantity == len(date_values) and not another_stay and all(
                    chosen.start <= d.start and d.end <= chosen.end for d in dates if d.value in date_values))) and \
                _nights_by_their_days(masked, date_values):
            date_values = {min(str(d) for d in date_values)}  # "two nights, Monday and Tuesday, 356 for both": one stay, from its first
            if chosen is not None and not chosen.quantity and "amount" not in self.overrides and re.search(
                    r"\b(?:night|nite|nt|nightly|each|per|rate|avg|average)\b|/\s?n\b", text[chosen.end:], re.IGNORECASE):
                # "two nights, 25 and 26, 198 CHF for night": each night's price, or the stay's? asked
                intent.args["category"] = category  # (a stay asked about: another told beside it waits with it)
                intent.problem = f"How much was “{text}” in all, for the nights it names? I did not add it yet."
                intent.missing = "amount"
                return intent
        elif len(date_values) > 1 and category == "hotel" and chosen is not None and (
                nights := _nights_named(text, dates)) and (not chosen.quantity or chosen.quantity == nights):
            # "Sunday and Monday night at $239/night", "fri + sat night, 380", "two nights (Tues and Wed)": the nights
            # told by their days in a row, one stay from the first (at a price a night, that price for each)
            date_values, stay_nights = {min(str(d) for d in date_values)}, nights
        if len(date_values) > 1:
            intent.problem = f"“{text}” names more than one date; which day was the expense?"
            intent.missing = "date"
            return intent
        assert chosen is not None and chosen.amount is not None
        intent.args = {"amount": money_text(chosen.amount), "category": category}
        if chosen.quantity and chosen.quantity > 1:
            intent.args["quantity"] = chosen.quantity
        elif stay_nights:
            product = next((p for p in quantity_products(text) if p.count == stay_nights
                            and p.value == chosen.amount * stay_nights), None)
            if product is not None:  # "Sunday and Monday night at $239/night": 478, the price of each night twice
                intent.args["amount"], intent.args["quantity"] = money_text(product.value), stay_nights
            elif priced_a_night:
                intent.args["amount"] = money_text(chosen.amount * stay_nights)
                intent.args["quantity"] = stay_nights
            elif "amount" in self.overrides:
                pass  # the answer to "how much was it in all, for the 2 nights?": the stay's sum
            elif _PER_NIGHT_AFTER.match(text, chosen.end) or stay_nights not in evidence_numbers(text) or not re.search(
                    r"(?:[,:;–—-]|\b(?:total|paid|came\s+to|was|is|for\s+both|altogether|in\s+all))\s*$",
                    text[:chosen.start]) or re.search(r"\b(?:rate|nightly|avg|average|per|each|plus|incl\w*|rooms?)\b",
                                                     text[chosen.end:], re.IGNORECASE):
                # ("… at 239", "rate 239", "239 nightly", "239 plus breakfast": each night's, or all? asked)
                intent.problem = (f"How much was “{text}” in all, for the {stay_nights} nights? I did not add it yet.")
                intent.missing = "amount"
                return intent
            else:
                intent.args["quantity"] = stay_nights  # ("Sunday and Monday night, $478": the stay's total, 2 nights)  # "$239/night" for each of the nights
        elif category == "hotel" and (nights := re.search(
                rf"\b(\d{{1,2}}|{'|'.join(lexicon.NUMBER_WORDS)})\s*(?:{lexicon.NIGHTS}|n)\b", masked, re.IGNORECASE)):
            count = int(nights.group(1)) if nights.group(1).isdigit() else lexicon.NUMBER_WORDS[nights.group(1).lower()]
            if count > 1:
                intent.args["quantity"] = count  # "hotel 3 nights 870": the stay's total, over 3 nights
                if any(p.count == count and p.value == chosen.amount * count for p in quantity_products(text)):
                    # "2 nights from 30 nov to 2 dec, 97 a night" (the days blanked hid the price's unit)
                    intent.args["amount"] = money_text(chosen.amount * count)
        if merchant:
            intent.args["merchant"] = merchant
        if date_values:
            intent.args["date"] = date_values.pop()
            if category == "hotel" and "date" not in self.overrides and (out := _checked_out_on(text, dates, intent.args["date"])):
                # "Hotel Clarion, check-out 27.11, 2 nights, 2 980 kr": the stay began its nights before
                nights = intent.args.get("quantity") or (1 if re.search(
                    r"\b(?:1|one|a|single)\s*(?:night|nite|nt)\b", text, re.IGNORECASE) else None)
                came = out - timedelta(days=int(nights)) if nights else None
                # (people date a stay told by its check-out either way: the night it began, or the day it was paid)
                intent.problem = (f"Which day should “{text}” be dated: the check-in ({came.day} {came.strftime('%b')}) or "
                                  f"the check-out ({out.day} {out.strftime('%b')})? Tell me the day (“{came.day}.{came.month}” "
                                  f"or “{out.day}.{out.month}”); I did not add it yet." if came else
                                  f"Which day did you check in for “{text}”? I did not add it yet.")
                intent.missing = "date"
                del intent.args["date"]
                return intent
        intent.currency = chosen.currency
        if "amount" not in self.overrides:
            self._check_currency(intent, chosen)
        return intent

    def _claim_currency(self, intent: ActIntent) -> str | None:
        addressed = claim_addressed(self.message, self.ctx) if self.opened is None else None
        if addressed is not None and (intent.claim is None or intent.claim.id == getattr(self.ctx.default_claim(), "id", None)):
            return addressed.currency  # "Praha: taxi … 620 Kč": the claim the message is for, whichever is active
        if intent.claim is not None:
            return intent.claim.currency
        if intent.ref is None and self.opened is not None:
            return self.opened.args.get("currency", "EUR")
        if intent.ref is None:
            currencies = {c.currency for c in self.ctx.open_claims}
            return currencies.pop() if len(currencies) == 1 else None
        return None

    def _check_currency(self, intent: ActIntent, amount: AmountFound) -> None:
        """A line is kept in its claim's currency: another currency is converted by the user, not guessed."""
        if amount.currency is None:
            return
        if intent.claim is None and intent.ref is not None and ("match" in intent.ref or "id" in intent.ref):
            return  # a claim named that is none of the user's: refused by name, whatever its currency
        claim_currency = self._claim_currency(intent)
        if claim_currency is None:
            intent.problem = (f"You gave the amount in {amount.currency}; tell me which claim it is for, so I can "
                              "check the claim's currency.")
            return
        if amount.currency == claim_currency:
            return
        title = f"“{intent.claim.title}”" if intent.claim else "The claim"
        if amount.currency not in reference_currencies():
            intent.problem = (f"{title} is kept in {claim_currency}, and {amount.currency} is not a currency the "
                              f"reference rates cover; tell me the amount in {claim_currency}.")
            return
        if "converted" in self.ctx.settled:  # the user said yes to adding it converted: the handler converts it
            intent.args["currency"] = amount.currency
            return
        intent.problem, intent.missing = f"{title} is kept in {claim_currency}.", "amount"
        intent.paid_in = amount.currency
        intent.read = {"tool": "exchange_rate", "args": {
            "from": amount.currency, "to": claim_currency, "amount": intent.args["amount"],
            **({"date": intent.args["date"]} if intent.args.get("date") else {})}}

    # ------------------------------------------------------------------ update_line / remove_line

    def _corrected(self, text: str) -> tuple[str, ActIntent | None]:
        """What a correction corrects: ("last", None) the expense told just before it; ("here", act) another told
        earlier in this message, of the kind its words name ("taxi 30, lunch 21,90. Sorry, the taxi was 32");
        ("ask", None) several such; ("claim", None) one on the claim, when none told here fits: another kind, the
        old amount said ("not 24.50") or the day named with it ("the Friday taxi") are no told expense's."""
        dates = find_dates(text, self.ctx.today)
        said = best_category(find_categories(mask(text, [(d.start, d.end) for d in dates])))
        if self.last_act is None or self.last_act.act not in ("add_line", "update_line"):
            # nothing told before it: only a correction said as one ("Corr: 25/11 lunch 19,20"), not "hmm no, it was …"
            named = re.match(r"\W*(?:(?:sorry|oops|ah|oh|my)\W+)*(?:correction|typo|mistake|error)\b", text, re.IGNORECASE) and (
                said is not None or dates or ((old := _OLD_AMOUNT.search(text)) is not None and any(
                    _same_amount(line.get("amount"), old.group(1)) for claim in self.ctx.open_claims for line in claim.lines)))
            # ("Sorry, mistake: kolacja was 86 zł, not 96": the line of 96 on the claim, named by its old amount)
            return ("claim", None) if named else ("last", None)
        old = _OLD_AMOUNT.search(text)
        was = Decimal(old.group(1).replace(",", ".")) if old else None
        named_day = {d.value for d in dates if d.value and re.search(
            rf"\b(?:the|that|this)\s+{re.escape(d.text)}\s+\w+", text, re.IGNORECASE)}

        def fits(act: ActIntent) -> bool:
            kind = act.args.get("category")
            amount = act.args.get("amount")
            return (said is None or kind is None or kind == said) and (
                was is None or amount is None or Decimal(str(amount)) == was) and (
                not named_day or act.args.get("date") in named_day)

        if fits(self.last_act):
            return "last", None
        here = [i for i in self.told if isinstance(i, ActIntent) and i.act in ("add_line", "update_line") and fits(i)]
        if len(here) > 1:
            return "ask", None
        return ("here", here[0]) if here else ("claim", None)

    def _update(self, text: str, start: int, end: int) -> ActIntent:
        if verb_of(text)[0] is None and not find_line_refs(text) and not STRONG_UPDATE.search(text) and find_amounts(
                text) and re.search(r"\b(?:was|were|is|are|cost|costs|came\s+to)\b", text, re.IGNORECASE):
            # "the hotel was 3 nights 189 each" with no hotel line to change: a statement of what was spent (on the
            # claim this message opens, there is none)
            _, claim, problem, mention = self._target(text, start, new_claim_ok=self.opened is not None)
            if problem is None and self.opened is not None and (claim is None or not claim.lines):
                intent = self._add(text, start, end)
                others = [c.title for c in self.ctx.open_claims if self._line_words(text, c)[0]]
                if others and not intent.problem:  # "open a claim for Munich, the taxi was 25" beside Berlin's taxi
                    intent.problem = (f"Is “{intent.quote(self.message)[:80]}” a new expense of the new claim, or a "
                                      f"correction of the line on “{others[0]}”? I did not add or change anything yet.")
                return intent
            if problem is None and claim is not None and not self._line_words(
                    text, claim, title_words=_title_words(self.ctx))[0] and not find_line_refs(text) and not (
                    line_by_its_amount(text, self.ctx.today)) and not (
                    (old := _OLD_AMOUNT.search(text)) and any(_same_amount(line.get("amount"), old.group(1))
                                                               for line in claim.lines)
                    and re.search(r"\d", self.message[:start] + " " + self.message[end:])):
                # ("the train was 35.10 not 34.10, and coffee 3" beside a line of 34.10: that line corrected, never a
                # new one; said alone, the correction is read whole further on)
                intent = self._add(text, start, end)
                sentence = self.message[_sentence_start(self.message, start):]
                sentence = sentence[:m.end()] if (m := re.search(r"[.!?\n;]", sentence)) else sentence
                if not intent.problem and _TOLD_BEFORE.match(strip_leading(text)[1]) and not find_dates(
                        sentence, self.ctx.today) and not self.overrides.get("date") and intent.args.get("category") in {
                        c.category for c in find_categories(self.ctx.previous or "")}:
                    # "the cab was 13.20" after a message that told of a cab, none on the claim: that cab, whose day
                    # is not said here
                    intent.problem = (f"Which day was “{intent.quote(self.message)[:80]}”? I have no such line on "
                                      f"“{claim.title}” yet, so I did not add it.")
                    intent.missing = "date"
                return intent
        intent = ActIntent(start, end, act="update_line")
        ref, claim, problem, mention = self._target(text, start, new_claim_ok=False)
        skip = [(mention.start - start, mention.end - start)] if mention and start <= mention.start < end else []
        _, at = verb_of(text)
        left, right, marked = _split_value(text, max(at, 0), self.ctx.today)
        left_start = 0
        right_start = len(text) - len(right)
        lowered_left = left.lower()
        field_name = next((name for name, pattern in _FIELDS.items()
                           if re.search(rf"\b(?:{pattern})\b", lowered_left)), None)
        verb_word = text[max(at, 0):].split()[0].lower() if at >= 0 and text[at:].split() else ""
        if field_name is None and verb_word == "rename":
            field_name = "merchant"
        if field_name is None and verb_word in ("move", "reschedule"):
            field_name = "date"
        if field_name is None and verb_word in ("mark", "reclassify", "recategorise", "recategorize"):
            field_name = "category"
        line, line_claim, line_problem, label = self._line(left if marked else text, left_start, claim, skip,
                                                           mention)
        if line_problem and marked and not find_line_refs(left) and re.search(r"\b(?:for|on)\s+the\b", right):
            # "the receipt says 30 for the taxi": the line is named after the value
            named = self._line(right, right_start, claim, [], mention)
            if named[2] is None:
                line, line_claim, line_problem, label = named
        intent.label = label
        if self._unsure(intent, problem, line_problem):
            return intent
        if lexicon.ONE_OF_THEM.search(text) and not find_line_refs(text) and (line_claim or claim) is not None:
            # "one of the train tickets was 3.60 rather than 3.00": the user knows of several; which one is asked,
            # even when the claim holds one such line only
            held = (line_claim or claim).lines
            kind = next((ln["category"] for ln in held if ln["ordinal"] == line), None)
            options = [ln["ordinal"] for ln in held if ln["category"] == kind]
            intent.problem = (f"Which line do you mean? “{(line_claim or claim).title}” has: "
                              f"{list_lines(line_claim or claim, options)}. Say “line {options[0]}”, for example.")
            intent.missing, intent.options = "line", options
            return intent
        if line_claim is not None and (ref is None or "match" in ref and mention and not mention.exact):
            ref = ref if ref is not None and mention is not None else {"id": line_claim.id}
        intent.ref, intent.claim = ref, line_claim or claim
        value_text = _blank_not_values(right if marked else mask(text, [(r.start, r.end) for r in find_line_refs(text)]))
        # "the coffee was thursday": a weekday of the claim's trip is read against the trip, or asked
        found = find_dates(value_text, self.ctx.today)
        if marked:  # "change the date of line 2 to 1.12": a day that reads as one only with the words before it
            found += [replace(d, start=d.start - right_start, end=d.end - right_start) for d in find_dates(
                text, self.ctx.today) if d.start >= right_start and value_text[d.start - right_start:d.end - right_start].strip()
                and not any(f.start < d.end - right_start and d.start - right_start < f.end for f in found)]
        dates = [self._in_the_trip(d, self._claim_of_update(intent)) for d in self._anchored(found)]
        dates = [self._in_the_lines_week(d, intent, line) for d in dates]
        value_masked = mask(value_text, [(d.start, d.end) for d in dates] + [
            (s - right_start, e - right_start) for s, e in skip if marked])
        amounts = find_amounts(_blank_not_values(value_masked))
        changes: dict[str, Any] = {}
        chosen: AmountFound | None = None
        if field_name in (None, "amount") and "amount" in self.overrides:
            # the answer to "what should the new amount of line 3 be?", or to "… tell me its new amount in GBP"
            chosen = self.overrides["amount"]
            changes["amount"] = money_text(chosen.amount)
        elif field_name in (None, "amount") and amounts:
            chosen, amount_problem = _choose_amount(amounts, text, what=f"line {line}", for_update=True)
            if amount_problem:
                intent.problem = amount_problem
                return intent
            assert chosen is not None and chosen.amount is not None
            changes["amount"] = money_text(chosen.amount)
        if field_name in (None, "date") and dates:
            values = {d.value for d in dates}
            if None in values and self.overrides.get("date"):
                values = {v for v in values if v is not None} | {str(self.overrides["date"])}
                values.discard(next((d.value for d in dates if d.value and d.value != self.overrides["date"] and _NOT_BEFORE.search(
                    value_text[max(0, d.start - 12):d.start])), None))  # "not on Tuesday": the old day
            if None in values or len(values) > 1:
                unsure = next((d.text for d in dates if d.value is None), None)
                intent.problem = (self._which_week(unsure, editing=True) if unsure else None) or (
                    f"I could not tell which date you mean in “{text}”; write it like 20 Nov.")
                if intent.problem.startswith("Which"):
                    intent.missing = "date"  # "the 25th" answers it
                return intent
            changes["date"] = values.pop()
        if not changes and field_name is None and (route := _ROUTE_SAID.search(text)) is not None:
            # "the taxi was from the airport to the hotel (because …)": where it went is what it was (the note a ride
            # above the limit needs), never a day or a kind; a line that has words of its own may be another ride
            target = next((ln for ln in (intent.claim.lines if intent.claim else ()) if ln.get("ordinal") == line), None)
            if target is None or target.get("description"):
                intent.problem = (f"Is “{route.group('route').strip(' .,;:')}” another ride (then how much was it?), or "
                                  f"the route of line {line}? Say “line {line} is from … to …” for that.")
                return intent
            changes = {"description": route.group("route").strip(" .,;:")[:120]}
        if field_name == "category" or (field_name is None and marked and not changes):
            categories = find_categories(_blank_not_values(value_masked))
            category = best_category(categories)
            if category is not None and field_name is None and _NOT_A_KIND.search(value_masked):
                category = None  # "the reason … is that there was no train early enough": a reason, not a kind
            target = next((ln for ln in (intent.claim.lines if intent.claim else ()) if ln.get("ordinal") == line), None)
            brand = [c for c in categories if lexicon.MERCHANTS.get(value_masked[c.start:c.end].casefold()) and re.fullmatch(
                r"\W*(?:(?:actually|really|in\s+fact)\s+)?(?:an?\s+)?\W*" + re.escape(value_masked[c.start:c.end])
                + r"(?:\s+(?:actually|really|ride|taxi|cab|instead|not\s+an?\s+\w+))?\W*", value_masked, re.IGNORECASE)
                     and not re.search(r"\b(?:same|like|than|cheaper|dearer|more|less|compared|as\s+much)\b", text,
                                       re.IGNORECASE)]
            if category is not None and field_name is None and target is not None and target.get("category") == category \
                    and len(brand) == 1 and target.get("merchant") and lexicon.MERCHANTS[value_masked[
                        brand[0].start:brand[0].end].casefold()][0].casefold() != str(target["merchant"]).casefold():
                # "the uber on monday was a Bolt actually": the ride's kind stays; who was paid is the brand said
                changes["merchant"] = lexicon.MERCHANTS[value_masked[brand[0].start:brand[0].end].casefold()][0]
            elif category is not None:
                changes["category"] = category
        if field_name == "merchant":
            name = _clean_name(right if marked else "")
            if name:
                changes["merchant"] = name[:80]
        if field_name == "description":  # "change the description of line 4 to client dinner": its words, as said
            said = (right if marked else "").strip().strip("\"'“”‘’").strip(" .,;:")
            if said and re.search(r"\d", said) and re.search(r"\bnot\b|\bsays?\b|\bshould\b", text, re.IGNORECASE):
                intent.problem = f"Should “{said}” be the description of line {line}, or its amount? Say which."
                return intent  # "the receipt note says 42.40 not 32.60": a figure corrected, or a note?
            if said:
                changes = {"description": said[:120]}
        if not changes:
            what = {"amount": "amount", "date": "date", "merchant": "merchant", "category": "category",
                    "description": "description"}.get(
                field_name or "", "amount, date, merchant or category")
            intent.problem = f"What should the new {what} of line {line} be?"
            if field_name in (None, "amount"):
                intent.missing = "amount"  # "37.45" answers it
            return intent
        intent.args = {"line": line, **changes}
        intent.currency = chosen.currency if chosen else None
        if chosen is not None and chosen.currency is not None:
            self._check_currency(intent, chosen)
        return intent

    def _remove(self, text: str, start: int, end: int) -> ActIntent | list[Intent]:
        if (several := self._several_removals(text, start, end)) is not None:
            return several
        intent = ActIntent(start, end, act="remove_line")
        ref, claim, problem, mention = self._target(text, start, new_claim_ok=False)
        skip = [(mention.start - start, mention.end - start)] if mention and start <= mention.start < end else []
        # "take out the Frühstück, it was in the hotel rate after all": the line is named before why, never by the
        # reason's words (the hotel)
        why = _WHY_AFTER.search(text)
        line, line_claim, line_problem, label = self._line(text[:why.start()] if why else text, 0, claim, skip, mention)
        intent.label = label
        if self._unsure(intent, problem, line_problem):
            return intent
        if line_claim is not None and ref is None:
            ref = {"id": line_claim.id}
        intent.ref, intent.claim, intent.args = ref, line_claim or claim, {"line": line}
        return intent

    def _which_act(self, text: str, start: int, end: int, refs: list) -> ActIntent:
        """"line 7" with nothing asked and nothing to do: say what that line is and what can be done with it."""
        claim = self.ctx.default_claim()
        intent = ActIntent(start, end, act="update_line")
        ordinal = refs[0].ordinal
        if claim is None or not claim.lines:
            intent.problem = "Which claim do you mean? Name it, and what to do with the line."
            return intent
        if ordinal is None:
            ordinal = claim.lines[-1]["ordinal"]
        line = next((ln for ln in claim.lines if ln["ordinal"] == ordinal), None)
        if line is None:
            intent.problem = f"“{claim.title}” has no line {ordinal}; it has: {list_lines(claim)}."
            return intent
        intent.problem = (f"Line {ordinal} of “{claim.title}” is {line_text(line, claim.currency)}. What should I do "
                          f"with it? For example “change line {ordinal} to 40” or “remove line {ordinal}”.")
        return intent

    def _several_removals(self, text: str, start: int, end: int) -> list[Intent] | None:
        """"delete the cabify and the hotel avenida": each part names one line of the same claim."""
        _, at = verb_of(text)
        parts = re.split(r"\s*(?:,|&|\band\b|\bplus\b)\s*", text[max(at, 0):], flags=re.IGNORECASE)
        if len(parts) < 2:
            return None
        if any(re.match(r"(?:it|that|this|they|he|she|we|i|you|which|because|since|as|but|so|after|when)\b|[^\W\d_]+\s+"
                        r"(?:was|were|is|are|had|has|paid|refunded|covered|included)\b", part, re.IGNORECASE)
               for part in parts[1:]):
            return None  # "take out the Frühstück, it was in the hotel rate after all": why, not a second line
        intents: list[Intent] = []
        for part in parts:
            probe = ActIntent(start, end, act="remove_line")
            ref, claim, problem, mention = self._target(part, start, new_claim_ok=False)
            line, line_claim, line_problem, label = self._line(part, 0, claim, [], mention)
            if problem or line_problem or line is None:
                return None
            probe.ref = ref if ref is not None else ({"id": line_claim.id} if line_claim is not None else None)
            probe.claim, probe.args, probe.label = line_claim or claim, {"line": line}, label
            intents.append(probe)
        targets = {(json.dumps(i.ref, sort_keys=True), i.args["line"]) for i in intents}  # type: ignore[attr-defined]
        claims = {json.dumps(i.ref, sort_keys=True) for i in intents}  # type: ignore[attr-defined]
        if len(targets) != len(intents) or len(claims) != 1:
            return None
        return intents

    def _line(self, text: str, offset: int, claim: Claim | None, skip: list[tuple[int, int]],
              mention: Mention | None) -> tuple[int | None, Claim | None, str | None, str]:
        """(ordinal, the claim whose view named it, a question back, a label) for the line ``text`` means.

        An ordinal the user wrote stands as written (the reducer resolves it on the claim it targets).
        A line named by merchant or category is looked up in the claim's view; the claim is then
        pinned by id, so the ordinal can never land on another claim.
        """
        if "line" in self.overrides:
            ordinal = self.overrides["line"]
            return ordinal, claim, None, f"line {ordinal}"
        refs = find_line_refs(text)
        if refs and refs[0].ordinal is not None:
            return refs[0].ordinal, None, None, f"line {refs[0].ordinal}"
        if mention is not None and not mention.claims:
            return None, None, (f"I could not find a claim of yours called “{mention.word}”, so I changed nothing. "
                                f"Your open claims: {', '.join(c.title for c in self.ctx.open_claims) or 'none'}."), ""
        if refs:
            if claim is None:
                return None, None, "Which claim's last line do you mean?", "last line"
            if not claim.lines:
                return None, None, f"“{claim.title}” has no lines yet.", "last line"
            return claim.lines[-1]["ordinal"], claim, None, "last line"
        masked = mask(text, skip)
        candidates = [claim] if claim is not None else (
            list(mention.claims) if mention is not None else self.ctx.open_claims)
        matches: list[tuple[Claim, list[int]]] = []
        words_used = ""
        for candidate in candidates:
            # a merchant's full name may hold a claim's word ("Taxi Berlin" on “Berlin trip”): whole names
            # are looked for in the text as written, single words only outside the claim's name
            ordinals, used = self._line_words(text, candidate, title_words=_title_words(self.ctx))
            if ordinals:
                matches.append((candidate, ordinals))
                words_used = used
        if not matches and (by_amount := self._lines_by_amount(text, candidates)) is not None:
            return by_amount[1], by_amount[0], None, f"the {by_amount[2]} one"
        if len(matches) == 1 and len(matches[0][1]) > 1:
            narrowed = self._narrow(matches[0][0], matches[0][1], text)
            if len(narrowed) == 1:
                return narrowed[0], matches[0][0], None, words_used.lower()
            # "the printing" of two "other" lines (no day or amount said to tell them apart): the one described so
            described_by, described_word = _described_lines(words(text), matches[0][0], loose=True)
            described = [n for n in described_by if n in narrowed]
            if len(described) == 1 and _kind_word(described_word) and any(
                    not matches[0][0].lines[n - 1].get("description") and not matches[0][0].lines[n - 1].get("merchant")
                    for n in narrowed if n != described[0]):
                described = []  # "update the lunch": four meals, one told as "lunch", the others not said: any of them
            if len(described) == 1:
                return described[0], matches[0][0], None, words_used.lower()
        if not matches:
            if _IT.search(masked) and claim is not None and len(claim.lines) == 1 and not thing_unmatched(
                    self.message[:self._clause_at], claim.lines[0]):
                return 1, claim, None, "it"
            if claim is not None and claim.lines:
                return None, None, (f"Which line do you mean? “{claim.title}” has: {list_lines(claim)}. "
                                    "Say “line 2”, or name its merchant."), ""
            if claim is not None:
                return None, None, f"“{claim.title}” has no lines yet.", ""
            if not self.ctx.open_claims:
                return None, None, "You have no open claim with lines; open one first.", ""
            return None, None, "Which claim and which line do you mean? Say “line 2 of the Berlin claim”.", ""
        if len(matches) > 1:
            names = " or ".join(f"“{c.title}”" for c, _ in matches)
            return None, None, f"Lines of more than one claim match “{words_used}”: {names}. Which claim?", words_used
        found_claim, ordinals = matches[0]
        if len(ordinals) == 1 and (nth := _NTH_OF_THEM.search(text)) and _NTH_PLACE[nth.group(1).lower()] > 0 and not (
                find_dates(text, self.ctx.today)):
            # "the second lunch was 15" with one lunch on the claim: the user counts another one; which is asked
            return None, None, (f"“{found_claim.title}” has one such line: {list_lines(found_claim, ordinals)}. Which "
                                f"line do you mean?"), words_used
        if len(ordinals) > 1:
            self.options = ordinals
            return None, None, (f"Several lines of “{found_claim.title}” match “{words_used}”: "
                                f"{list_lines(found_claim, ordinals)}. Which one do you mean? Say “line "
                                f"{ordinals[0]}” or “line {ordinals[1]}”."), words_used
        return ordinals[0], found_claim, None, words_used.lower()

    def _lines_by_amount(self, text: str, claims: list[Claim]) -> tuple[Claim, int, str] | None:
        """"the 38 one", "remove the 24.50 lunch": the one line whose amount the user quotes."""
        said = {a.amount for a in find_amounts(_blank_not_values(text)) if a.amount is not None}
        hits = [(c, ln["ordinal"], ln["amount"]) for c in claims for ln in c.lines
                if Decimal(str(ln["amount"])) in said]
        return hits[0] if len(hits) == 1 else None

    def _narrow(self, claim: Claim, ordinals: list[int], naming: str) -> list[int]:
        """Several lines match the words: keep those whose day, or amount ("the 38 lunch", "not 38"), is said."""
        clause = self._clause_text
        days = {d.value for d in find_dates(clause, self.ctx.today) if d.value}
        olds = {n for m in _NOT_VALUE.finditer(clause) for n in evidence_numbers(m.group(0))}
        olds |= {a.amount for a in find_amounts(mask(naming, [(d.start, d.end) for d in find_dates(
            naming, self.ctx.today)])) if a.amount is not None}
        lines = {ln["ordinal"]: ln for ln in claim.lines}
        kept = [n for n in ordinals if (not days or lines[n].get("date") in days)
                and (not olds or Decimal(str(lines[n]["amount"])) in olds)]
        named_days = [d for d in find_dates(naming, self.ctx.today) if d.value]
        hedged = bool(_HEDGED.search(clause))
        also = bool(_ALSO_SAID.search(clause))
        if not kept and named_days and all(_BARE_WEEKDAY_SAID.fullmatch(d.text.strip()) for d in named_days) and not olds \
                and not hedged and not also:
            # "the tuesday lunch was actually on monday" of a trip weeks ago: the lunch on a Tuesday (the weekday
            # said with the thing names it; the one said after it is the new day)
            weekdays = {date.fromisoformat(str(d.value)).weekday() for d in named_days}
            kept = [n for n in ordinals if lines[n].get("date")
                    and date.fromisoformat(str(lines[n]["date"])).weekday() in weekdays]
            if len({lines[n]["date"] for n in kept}) > 1:
                kept = []  # (two Tuesdays of two weeks: which, asked)
            return kept
        if not kept and days and olds:
            # "change the thursday taxi to 48,80": the figure is the new amount, not the old; "the lunch of 13.90 was
            # on wednesday": the day is the new one, not the old. When each reading finds its own line: asked
            by_day = [n for n in ordinals if lines[n].get("date") in days]
            by_amount = [n for n in ordinals if Decimal(str(lines[n]["amount"])) in olds]
            kept = by_day if not by_amount else by_amount if not by_day else []
            if kept == by_amount and _ONE_MORE_SAID.search(clause):
                kept = []  # "the taxi of 48,80 was also on monday": a second one, never that one moved
        if len(kept) > 1 and not hedged and (of_day := _OF_THE_DAY.search(naming)) and not re.search(
                r"\bcheck|\b(?:arriv|depart|left|leav)", naming, re.IGNORECASE):
            # "the ibis of 18 is 89 not 79": of three nights at 79, the one of the 18th (a figure no line costs)
            number = int(of_day.group(1))
            on_it = [n for n in kept if str(lines[n].get("date") or "")[8:] == f"{number:02d}"]
            if len(on_it) == 1 and not any(Decimal(str(lines[n]["amount"])) == number for n in ordinals):
                return on_it
        if not (days or olds) and (nth := _NTH_OF_THEM.search(naming)) and len(ordinals) > 1:
            # "the second hotel night", "the third taxi": the lines of that kind, when the claim lists them in the
            # order of their days (one a day), so the list's order and the days' agree; a hotel's by its nights, a
            # meal's only among lines told as that meal ("the second breakfast" of meals told as nothing: asked)
            place = _NTH_PLACE[nth.group(1).lower()]
            dated = [str(lines[n].get("date") or "") for n in ordinals]
            thing = plain(nth.group(2))
            told = all(thing in str(lines[n].get("description") or "").lower() for n in ordinals)
            nightly = all((lines[n].get("quantity") or 1) == 1 and not _NIGHT_SAID.search(str(lines[n].get(
                "description") or "")) for n in ordinals)  # (a line of two nights holds two of them: asked)
            if (all(dated) and dated == sorted(set(dated)) and place < len(ordinals) and not hedged
                    and (lines[ordinals[0]].get("category") != "hotel" or (_NIGHT_SAID.search(naming) and nightly))
                    and (lines[ordinals[0]].get("category") != "meals" or told)):
                return [ordinals[place]]
            return []
        return kept if (days or olds) else ordinals

    def _merchant_lines(self, text: str, claim: Claim) -> list[int]:
        return self._line_words(text, claim, merchants_only=True)[0]

    def _line_words(self, text: str, claim: Claim, merchants_only: bool = False,
                    title_words: frozenset[str] = frozenset()) -> tuple[list[int], str]:
        """Ordinals of ``claim``'s lines that ``text`` names by merchant (else by category)."""
        lowered = text.lower()
        full = [line for line in claim.lines if line.get("merchant") and re.search(
            rf"(?<![\w]){re.escape(str(line['merchant']).lower())}(?![\w])", lowered)]
        spans = [m.span() for line in full for m in re.finditer(
            rf"(?<![\w]){re.escape(str(line['merchant']).lower())}(?![\w])", lowered)]
        tokens = [w for w in words(text) if plain(w.text) not in title_words
                  or any(s <= w.start < e for s, e in spans)]
        by_merchant: list[int] = []
        used = ""
        for line in claim.lines:
            merchant = str(line.get("merchant") or "")
            if not merchant:
                continue
            if word_search(merchant.lower(), lowered):
                by_merchant.append(line["ordinal"])
                used = merchant
                continue
            for part in re.findall(r"[\w'&-]+", merchant):
                p = part.lower()
                if p in _MERCHANT_COMMON or p in lexicon.CATEGORY_WORDS:
                    continue
                hit = next((t for t in tokens if (len(p) >= 4 and t.text.lower() == p)
                            or (len(p) == 3 and t.text == part.upper() and part.isupper())
                            or (len(p) >= 5 and len(t.text) >= 5 and _near(t.text.lower(), p))), None)
                if hit is not None:
                    by_merchant.append(line["ordinal"])
                    used = hit.text
                    break
        if merchants_only:
            return sorted(set(by_merchant)), used
        named_by = {w.lower() for n in by_merchant for w in re.findall(r"[\w'&-]+", str(
            claim.lines[n - 1].get("merchant") or ""))}
        by_category, said_words = self._category_lines([t for t in tokens if plain(t.text) not in named_by], claim)
        if by_merchant:
            # "the Adlon hotel", "the dinner at Fiskeriet" name one line twice; "the Adlon and the taxi" names two
            merchant_categories = {claim.lines[n - 1].get("category") for n in by_merchant}
            extra = [n for n in by_category if n not in by_merchant
                     and claim.lines[n - 1].get("category") not in merchant_categories]
            if by_category and extra:
                return sorted(set(by_merchant) | set(extra)), f"{used} {said_words}".strip()
            return sorted(set(by_merchant)), used
        if not by_category:  # "the metro card line": a line named by its description's words
            ordinals, used = _described_lines(tokens, claim)
            if not ordinals and len((loose := _described_lines(tokens, claim, loose=True))[0]) == 1:
                return loose
            return ordinals, used
        return by_category, said_words

    def _category_lines(self, tokens: list, claim: Claim) -> tuple[list[int], str]:
        """Lines named by a referring word of their category ("the hotel", "the train")."""
        said = {plain(w.text) for w, after in zip(tokens, [*tokens[1:], None], strict=False) if not (
            plain(w.text) == "travel" and after is not None and TRAVEL_BOOKER.match(" " + after.text))}  # "travel office"
        # a misspelt referring word ("the hotell") names its category's lines like the word itself
        said |= {c.category for w in tokens if plain(w.text) not in lexicon.CATEGORY_WORDS
                 for c in find_categories(w.text)}
        kinds = {kind for kind, kind_words in lexicon.KIND_WORDS.items() if said & kind_words}
        if kinds:
            ordinals = [line["ordinal"] for line in claim.lines if line.get("category") == "travel"
                        and any(merchant_kind(str(line.get("merchant") or "")) == kind or set(re.findall(
                            r"[a-z]+", str(line.get("description") or "").casefold())) & lexicon.KIND_WORDS[kind]
                            for kind in kinds)]
            return ordinals, " ".join(w for w in said if any(w in lexicon.KIND_WORDS[k] for k in kinds))
        named = {category for category, referring in lexicon.REFERRING_WORDS.items() if said & referring}
        if not named:
            return [], ""
        ordinals = [line["ordinal"] for line in claim.lines if line.get("category") in named
                    and not another_meal(said, line)]
        for before, word in zip(tokens, tokens[1:], strict=False):
            modifier = plain(before.text)
            if any(plain(word.text) in lexicon.REFERRING_WORDS[c] for c in named) and modifier.isalpha() \
                    and modifier not in _PLAIN_MODIFIERS and not find_dates(modifier, self.ctx.today) \
                    and not any(modifier in ws for ws in (*lexicon.REFERRING_WORDS.values(), *lexicon.KIND_WORDS.values())):
                # ("the thursday taxi": a day, which the lines are narrowed by elsewhere)
                # "the tram tickets": a line of travel is that one only when its words say tram
                ordinals = [n for n in ordinals if modifier in " ".join(
                    str(claim.lines[n - 1].get(k) or "") for k in ("merchant", "description")).casefold()]
        return ordinals, " ".join(w.text for w in tokens if any(plain(w.text) in lexicon.REFERRING_WORDS[c]
                                                                 for c in named))

    # ------------------------------------------------------------------ submit / withdraw

    def _submit(self, text: str, start: int, end: int) -> ActIntent:
        intent = ActIntent(start, end, act="submit_claim", label="claim")
        ref, claim, problem, _ = self._target(text, start)
        intent.ref, intent.claim, intent.problem = ref, claim, problem
        return intent

    def _withdraw(self, text: str, start: int, end: int) -> ActIntent:
        intent = ActIntent(start, end, act="withdraw_claim", label="claim")
        ref, claim, problem, _ = self._target(text, start)
        intent.ref, intent.claim, intent.problem = ref, claim, problem
        return intent

    def _every_claim(self, verb: str, start: int, end: int) -> list[Intent] | Intent:
        """"submit both claims": one act per open draft claim, each pinned by id."""
        act = "submit_claim" if verb == "submit" else "withdraw_claim"
        drafts = [c for c in self.ctx.open_claims if c.status == "draft"]
        if not drafts:
            return ActIntent(start, end, act=act, problem="You have no draft claims.")
        intents: list[Intent] = []
        for claim in drafts:
            intent = ActIntent(start, end, act=act, ref={"id": claim.id}, claim=claim, label=claim.title.lower())
            intents.append(intent)
            self.last_act = intent
        return intents

    # ------------------------------------------------------------------ holds and corrections

    def _hold(self, text: str, start: int, end: int) -> HoldIntent:
        m = HOLD.search(text)
        assert m is not None
        words_ = m.group(0).lower()
        acts = []
        if re.match(r"^\s*(?:(?:but|and|hold\s+on|wait)[\s,]+)*not\s+(?:until|till|before)\b", words_) and (
                self.last_act is not None):
            acts.append(self.last_act.act)  # "submit it, not until I attach the receipts": holds what it follows
        if re.search(r"\b(?:submit\w*|unsubmitted|send\w*|drafts?)\b", words_):
            acts.append("submit_claim")
        if re.search(r"\bwithdraw\w*\b", words_):
            acts.append("withdraw_claim")
        if re.search(r"\b(?:remov\w*|delet\w*)\b", words_):
            acts.append("remove_line")
        # the hold's evidence is the hold itself ("don't submit anything yet"), without a leading "but"
        s, e = evidence_bounds(self.message, start + m.start(), start + m.end())
        return HoldIntent(s, e, acts=tuple(acts))

    def _spaced_in_doubt(self, chosen: AmountFound | None, category: str, claim: Claim | None) -> str | None:
        """"Hotel Oleana, 2 150" on a claim kept in crowns is 2150; on a claim kept in euros, or said of things one
        counts ("Beers, 4 240", "Taxi was 2 150"), it may be a count and a price: asked."""
        raw = chosen.text if chosen is not None else ""
        if chosen is None or chosen.currency is not None or not (m := re.fullmatch(
                r"(\d{1,3})(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d{1,2})?", raw.strip())):
            return None
        currency = claim.currency if claim is not None else str((self.opened.args if self.opened else {}).get(
            "currency") or "EUR")
        if currency in _SPACE_GROUPED and not (2 <= int(m.group(1)) <= 9 and category in ("meals", "taxi", "other")):
            return None
        whole = re.sub(r"[^0-9.,]", "", raw)
        return (f"Is “{raw.strip()}” one price ({whole}) or a count and a price? Tell me the price alone, e.g. "
                f"“{whole}”; I did not add it yet.")

    def _correction(self, text: str, start: int, end: int) -> CorrectIntent:
        intent = CorrectIntent(start, end)
        intent.counted = bool(re.search(rf"\b(?:\d{{1,2}}|{'|'.join(lexicon.NUMBER_WORDS)})\s*(?:{'|'.join(
            sorted(lexicon.QUANTITY_UNITS))})\b", text, re.IGNORECASE))
        dates = self._anchored(find_dates(text, self.ctx.today))
        masked = mask(text, [(d.start, d.end) for d in dates])
        amounts = find_amounts(_blank_not_values(masked))
        if amounts:
            chosen, problem = _choose_amount(amounts, text, what="the correction", for_update=True)
            intent.amount, intent.problem = chosen, problem
        if amounts and _MORE_NOT_INSTEAD.search(text[:min(a.start for a in amounts)]) and not re.search(
                r"\b(?:make\s+(?:that|it)|should\s+(?:be|have\s+been)|instead|i\s+meant|not\s+[€$£]?\d)", text, re.IGNORECASE):
            # "taxi 20 — oops, I forgot the tip, 3", "dinner 45 — no wait, also the wine, 12": something more, or the
            # price said again? Asked
            intent.problem = (f"Is “{text.strip()}” a correction of the price before it, or something more? I did not "
                              "add it yet.")
        lead = _PRICE_TAKEN_BACK.match(text)
        if lead is not None and (dates or len(amounts) != 1 or amounts[0].start != lead.start("price")):
            # "Lunch 22 no sorry 26 at 1 PM", "Lunch 18 no 19 Nov 24": which number is the new price? Asked
            intent.problem = f"I could not tell which amount “{text.strip()}” means."
        values = {d.value for d in dates}
        if values:
            if None in values or len(values) > 1:
                intent.problem = f"I could not tell which date you mean in “{text}”."
            else:
                intent.date = values.pop()
        intent.category = best_category(find_categories(masked))
        from .items import merchants_in

        if amounts and (at := re.search(r"\d\s+at\s+(?:the\s+)?([A-Z][\w'’&.-]*(?:\s+[A-Z][\w'’&.-]*){0,3})\W*$", text)) \
                and (named := merchants_in(text[at.start() + 1:], self.message)) == [at.group(1)]:
            intent.merchant = named[0]  # (never a place: "at Heathrow", "at Terminal B", "at Noon")
        for w in words(masked):
            code = _currency_code(w.text) if (w.text.isupper() or w.text.lower() in lexicon.CURRENCY_WORDS) else None
            if code and not amounts:
                intent.currency = code
        return intent


# --------------------------------------------------------------------------- helpers


def _pronoun_only(text: str) -> bool:
    """A request that names nothing but "it"/"that": "can you still add it", "pls add that too"."""
    rest = re.sub(r"\b(?:can|could|would|will|you|u|pls|please|plz|kindly|still|also|too|as\s+well|just|add|put|"
                  r"include|log|record|enter|adding|mind|move|change|fix|correct|update|amend|adjust|edit|it|that|this|"
                  r"them|those|one|in|on|there|for\s+me|now|ok|okay|"
                  r"and|then)\b", " ", text, flags=re.IGNORECASE)
    return not rest.strip(" ,.!?") and bool(re.search(r"\b(?:it|that|this|them|those)\b", text, re.IGNORECASE))


def _politeness(start: int, end: int, text: str) -> ContextIntent:
    lowered = text.lower()
    return ContextIntent(start, end, greeting=bool(re.match(r"^\W*(?:hi|hello|hey|good\s+\w+)\b", lowered)),
                         thanks=bool(re.search(r"\b(?:thanks|thank\s+you|thx|cheers|ty)\b", lowered)))


def _title_words(ctx: Context) -> frozenset[str]:
    return frozenset(w.lower() for c in ctx.claims for w in re.findall(r"[\w'-]+", c.title))


def merchant_kind(merchant: str) -> str | None:
    lowered = merchant.lower()
    for kind, names in lexicon.MERCHANT_KINDS.items():
        if any(word_search(name, lowered) for name in names):
            return kind
    return None


def _near(a: str, b: str) -> bool:
    from rapidfuzz import fuzz

    return fuzz.ratio(a, b) >= 85


# the user's own share of a bill said with it: "420 total, my share 140", "52 (… this is only mine)"; another's share
_MY_SHARE_BEFORE = re.compile(r"\bmy\s+(?:own\s+)?(?:share|part|portion|half)\s*(?:was|is|came\s+to|:|=|,)?\s*(?:[€$£]\s?)?$",
                              re.IGNORECASE)
_MINE_AFTER = re.compile(r"\s*(?:€|eur\w*|kr|dkk|sek|nok|chf|£|gbp)?\s*[(,]?[^()]{0,60}?\b(?:(?:this|that|it)\s+(?:is|was)|"
                         r"that'?s|it'?s)\s+(?:only\s+|just\s+)?(?:mine|my\s+(?:own\s+)?(?:share|part))\b", re.IGNORECASE)
_THEIR_SHARE_BEFORE = re.compile(r"\b(?:his|her|their|(?:the\s+)?others?'?s?)\s+(?:own\s+)?(?:share|part|portion|half)\b"
                                 r"[^.;()\d]{0,30}$", re.IGNORECASE)
_GROUP_TOTAL_AFTER = re.compile(r"\s*(?:€|eur\w*|kr|dkk|sek|nok|chf|£|gbp)?\s*(?:in\s+)?(?:total|for\s+(?:all\s+of\s+us|everyone|"
                                r"the\s+(?:table|group|team)))\b", re.IGNORECASE)


def _my_share(pool: list[AmountFound], text: str) -> AmountFound | None:
    """Of several amounts, the one the words say is the user's own share, when every other is a group's total or
    another person's share (and larger than it, or said as theirs)."""
    mine = [a for a in pool if _MY_SHARE_BEFORE.search(text[:a.start]) or (
        _MINE_AFTER.match(text, a.end) and not _THEIR_SHARE_BEFORE.search(text[:a.start]))]
    if len(mine) != 1 or mine[0].amount is None:
        return None
    others = [a for a in pool if a is not mine[0]]
    if all(a.amount is not None and ((_GROUP_TOTAL_AFTER.match(text, a.end) and a.amount > mine[0].amount)
                                     or _THEIR_SHARE_BEFORE.search(text[:a.start])) for a in others):
        return mine[0]
    return None


def _choose_amount(amounts: list[AmountFound], text: str, *, what: str,
                   for_update: bool = False) -> tuple[AmountFound | None, str | None]:
    """The one amount a clause gives, or a question back (none, several, unreadable)."""
    if not amounts and re.search(r"(?:^|[\s(])(?:-|−|minus\s+)\s?[€$£¥]?\d", text):
        return None, "An expense amount must be more than zero, so I did not take a negative one. What was the amount?"
    if not amounts:
        return None, (f"How much was {_the(what)}? Tell me the amount, e.g. “42.50”." if not for_update
                      else f"What is the new amount in “{text}”?")
    marked = [a for a in amounts if a.marked]
    # a marked amount wins over counts ("3 coffees for 11.40"), never over another bare number
    pool = marked if marked and all(a.marked or a.counted for a in amounts) else amounts
    if not marked and len(amounts) > 1 and sum(1 for a in amounts if not a.counted) == 1:
        pool = [a for a in amounts if not a.counted]
    products = [a for a in pool if a.quantity]
    if len(products) == 1 and len(pool) > 1 and all(a.amount == products[0].amount for a in pool) and (
            a.currency in (None, products[0].currency) for a in pool):
        pool = products  # "2 nights at 109 each, so 218 total": the total told is the product, one amount
    values = {a.amount for a in pool}
    if len(values) == 1 and len(pool) > 1 and any(_SEPARATE.search(text[x.end:y.start]) for x, y in pairwise(pool)):
        values.add(None)  # "train there 39.90 and back 39.90": the same amount twice is two expenses, or one told twice
    if len(values) > 1 and len({(a.start, a.end) for a in pool}) == 1:
        said = sorted(v for v in values if v is not None)
        return None, f"Is “{pool[0].text.strip()}” {' or '.join(money_text(v) for v in said)}? Tell me the amount in digits."
    asides = [(m.start(), m.end()) for m in ORIGINAL_ASIDE.finditer(text)]
    outside = [a for a in pool if not any(s <= a.start < e for s, e in asides)]
    if len(values) > 1 and len(outside) == 1 and outside[0].currency and len(pool) > 1:
        pool, values = outside, {outside[0].amount}  # "13.70 eur (that was 85 reais converted)": the original, aside
    if len(values) > 1 and (mine := _my_share(pool, text)) is not None:
        pool, values = [mine], {mine.amount}  # "team dinner 420 total, my share 140": the user's share is the line
    if len(values) > 1:
        listed = ", ".join(a.text.strip() for a in pool)
        return None, f"“{text}” has more than one amount ({listed}); which one is it?"
    chosen = pool[0]
    if chosen.amount is None and re.fullmatch(r"[^\d]*0+(?:[.,]0+)?[^\d]*", chosen.text.strip()):
        return None, "An amount of zero cannot be claimed. What was the amount?"
    if chosen.amount is None:
        return None, (f"I could not read “{chosen.text.strip()}” as an amount: use at most two decimals, "
                      "below 1,000,000, e.g. “42.50”.")
    if not quotable(chosen.amount, text):
        return None, f"I could not read the amount in “{text}” unambiguously; write it like 1234.50."
    return chosen, None


# what the figure was in the currency paid, told in brackets beside the one claimed: "(that was 85 reais converted)",
# "(paid 85 BRL)", "(= 85 BRL)"
# a thing named, then not to add it: "Sorry, the lunch please do not add"
_NOT_TO_ADD = re.compile(r"\W*(?:(?:sorry|oops|ah|oh|and|but)[\s,]+)*(?:the|that|my)\s+(?:[^\W\d_][\w'-]*\s+){0,2}?"
                         r"(?P<thing>[^\W\d_][\w'-]*)\W*(?:(?:please|pls)\s+)?(?:do\s+not|don'?t|dont|not\s+to|never)\s+"
                         r"(?:add|include|claim|put)\b", re.IGNORECASE | re.DOTALL)
# what separates two expenses in one clause
_SEPARATE = re.compile(r"\b(?:and|back|return|plus|also|then)\b|[+,;&]", re.IGNORECASE)


def _the(what: str) -> str:
    return what if what.startswith(("the ", "line ")) or what[:1].isupper() else f"the {what}"


# what a correction says the amount was not: "… was 25.40, not 24.50", "27.40 instead of 24.70"
# the old figure a correction says it is not: "… was 35.10 not 34.10", "instead of 34.10", "rather than the 34.10"
_OLD_AMOUNT = re.compile(r"\b(?:not|instead\s+of|rather\s+than)\s+(?:the\s+)?[€$£]?\s?(\d+(?:[.,]\d{1,2})?)(?![\d.,]\d)",
                         re.IGNORECASE)

# "the cab was 13.20", "that taxi came to 31": an expense named as one told before, with its amount and nothing else
_TOLD_BEFORE = re.compile(r"\W*(?:the|that|this)\s+(?:[\w'’-]+\s+){0,2}?(?:was|is|came\s+to|cost)\s+(?:only\s+|just\s+)?"
                          r"[€$£]?\s?\d+(?:[.,]\d{1,2})?\s?(?:€|eur|euros?|usd|gbp|£|\$)?\W*$", re.IGNORECASE)


def _split_value(text: str, verb_at: int, today) -> tuple[str, str, bool]:
    """(what is being changed, the new value, whether a marker like "to" separated them).

    The last marker followed by a value wins ("change the Adlon to 190 as agreed" splits at "to");
    with no value after any marker, the last marker followed by words (a merchant's new name).
    """
    marks = [m for m in _VALUE_MARK.finditer(text) if m.start() >= verb_at]
    for m in reversed(marks):
        right = text[m.end():]
        if find_dates(right, today) or find_amounts(right) or find_categories(right):
            return text[:m.start()], right, True
    for m in reversed(marks):
        right = text[m.end():]
        if right.strip():
            return text[:m.start()], right, True
    amounts = find_amounts(text[verb_at:])
    if not marks and len(amounts) == 1 and not text[verb_at + amounts[0].end:].strip(" .,;!"):
        at = verb_at + amounts[0].start  # "25/11 lunch 19,20" told as a correction: the line, then its new amount
        return text[:at], text[at:], True
    return text, text, False


# beside a request that takes no values: to whom or for whom it goes ("submit it to my professor", "for her", "on his
# behalf", "with my thanks", "please do submit"), and a reason told after it ("take the lunch off i bought that for
# myself", "remove the tram tickets the client paid those")
_RECIPIENT = re.compile(r"\b(?:on\s+(?:his|her|their|my|our|the\s+\w+'?s)\s+behalf|(?:to|for)\s+(?:my|our|his|her|their)\s+"
                        r"[a-z]+(?:\s+[a-z]+)?|for\s+(?:him|her|them|me|us)|with\s+(?:my\s+|many\s+)?(?:thanks|gratitude)|"
                        r"for\s+approval|please\s+do|do(?=\s+(?:submit|send|remove|delete|withdraw)\b))\b", re.IGNORECASE)
_WHY_IT_GOES = re.compile(r"(?:[,;.—–-]\s*|\s)(?:because\s+|since\s+|as\s+)?(?:i|we|he|she|they|it|that|this|"
                          r"(?:the\s+)?(?:client|company|customer|firm|office|board|university|site|hotel|organi[sz]ers?))"
                          r"(?:'ve|'d)?\s+(?:paid|bought|covered|got|gave|provided|had|was|were|did|already|treated|settled|"
                          r"went|is|are)\b[^\d]*$", re.IGNORECASE)




def _sentence_start(message: str, at: int) -> int:
    """Where the sentence holding ``at`` starts."""
    marks = [m.end() for m in re.finditer(r"[.!?\n;]\s*", message[:at])]
    return marks[-1] if marks else 0


_NOT_BEFORE = re.compile(r"\bnot\s+(?:on\s+)?(?:the\s+)?$", re.IGNORECASE)


# words that make what follows "is" a sentence of its own, not the kind a line is ("… is that there was no train")
_NOT_A_KIND = re.compile(r"\b(?:that|because|since|there|no|not|never|why|reason|was|were|had|could|would|did)\b",
                         re.IGNORECASE)


def _clean_name(text: str) -> str:
    name = text.strip().strip("\"'“”‘’").strip()
    # "Hotel Berna, not htl", "Iberia instead of Iberia Madrid": what the name is not, never part of it
    name = re.sub(r"\s*[,;(]?\s*(?:not|instead\s+of|rather\s+than|and\s+not)\s+[^,;]*\)?\s*$", "", name, flags=re.IGNORECASE)
    name = re.sub(r"\s*,?\s*(?:please|pls|thanks|thank\s+you|as\s+(?:discussed|agreed|said|mentioned)|"
                  r"instead)\s*$", "", name, flags=re.IGNORECASE)
    quoted = bool(re.match(r"\s*[\"“‘']", text))
    if not quoted:  # "A Cevicheria" keeps its capital A: a name; "the Ritz", "a Starbucks" lose the article
        name = re.sub(r"^(?:the|a|an|The)\s+", "", name)
    return name.strip(" .,;:!\"'“”‘’")


# a name given to a claim: quoted, or "called X", "call it X"
_NAMING = re.compile(r"\b(?:called|named|titled|entitled|(?:call|name|title)\s+it)\b|[\"“”«»]", re.IGNORECASE)
# a later clause that names the claim just asked for ("can you create one called …", "please call it …")
_NAMES_IT = re.compile(r"^\W*(?:and\s+)?(?:called|named|titled|entitled)\b|\b(?:(?:call|name|title)\s+it|(?:one|it)\s+(?:called|named|titled|entitled)|"
                       r"(?:it'?s|it\s+is|it\s+should\s+be)\s+(?:called|named|titled))\b", re.IGNORECASE)
# words that ask for a second claim, not a name for the first
_ANOTHER_CLAIM = re.compile(r"\b(?:another|second|other|also|too|as\s+well|separate|both|two)\b", re.IGNORECASE)


def _currency_said_again(text: str, code: str) -> str:
    """The text without the other words that name the same currency ("…, en coronas suecas (SEK)", "in US dollars since
    everything there was in USD"): each, with the preposition before it, is no part of the title."""
    for mention in sorted(currency_mentions(text), key=lambda m: -m.start):
        if currency_meant(mention) != code or (mention.kind == "code" and not re.search(
                r"(?:\(\s*|\b(?:in|en|em|auf|i|w)\s+)$", text[:mention.start], re.IGNORECASE)):
            continue  # a bare code may be part of a name ("SEK audit"); in brackets or after "in" it is the currency
        head = re.sub(r"(?:\s*\(|\s+(?:in|en|em|auf|i|w)(?:\s+\()?)\s*$", "", text[:mention.start], flags=re.IGNORECASE)
        tail = re.sub(r"^\s*\)", "", text[mention.end:])
        text = head + tail
    # a currency's common word left before the code that named it: "NYC brand summit, em dólares (USD)"
    return _CURRENCY_WORD_LEFT.sub("", text)


_CURRENCY_WORD_LEFT = re.compile(r"[\s,]+(?:(?:in|en|em|auf)\s+)?(?:d[óo]lar(?:es)?|dollari|dollars?|euros?|libras?|livres?|"
                                 r"francos?|francs?|coronas?|kronor|kroner|złoty|zloty|yenes)\s*$", re.IGNORECASE)


def _title(text: str) -> str:
    """The new claim's title as the user wrote it (quoted, "called X", "for the X", "X claim")."""
    if m := re.search(r"[\"“‘']([^\"”’']{1,120})[\"”’']|«\s*([^»]{1,120}?)\s*»|„([^“”\"]{1,120})[“”\"]|‚([^‘’]{1,120})[‘’]|"
                      r"»\s*([^«]{1,120}?)\s*«|「([^」]{1,120})」", text):
        return _tidy_title(next(g for g in m.groups() if g), quoted=True)  # „Zürich Kundentermin“, »…«, 「…」
    patterns = [
        r"\b(?:called|named|titled|entitled|title\s+it|title|name\s+it|name|call\s+it)(?:\s+(?:is|will\s+be|should\s+be|shall\s+be))?"
        r"\s*:?\s+(.+)$",
        r"\bclaim\s*:\s*(.+)$",
        # "new claim please, Barcelona partner summit", "ok new one: Boston customer visit", "New claim - Oslo"
        rf"\b(?:new|another)\s+(?:expense\s+)?(?:claim|one|report)(?:\s+(?:{lexicon.PLEASE}))?\s*[,:\-–—]+\s*(.+)$",
        # "Open a claim Copenhagen workshop", "open a new claim Brussels EU meetings"
        r"\b(?:open|start|create)\s+(?:a\s+|an\s+)?(?:new\s+)?(?:expense\s+)?claim\s+(?!(?:for|about|re|regarding|covering|"
        r"on|in|called|named|titled|with|to|please|pls|and|that|which|so)\b)([A-Z0-9].+)$",
        r"^\W*(?:(?:a|pls|please|ok|okay)\s+)*(?:new|another)\s+claim\s+(?!(?:for|about|re|regarding|covering|on|in|"
        r"called|named|titled|with|to|please|pls)\b)(.+)$",
        r"\bclaim\s+(?:for|about|re|regarding|covering|on)\s+(.+)$",
        r"\b(?:for|about)\s+(.+?)\s+(?:claim|expenses)\b",
        r"\b(?:a|an|new|another)\s+(?:new\s+)?(.+?)\s+claim\b",
    ]
    for pattern in patterns:
        if m := re.search(pattern, text, re.IGNORECASE):
            title = _tidy_title(m.group(1))
            if title and title.lower() not in ("new", "expense", "a", "an", "the") and not NO_TITLE_YET.match(title):
                return title
    return ""


# the trip the expenses are of, named with its kind: "my expenses from the hamburg trip", "the costs of the Lyon visit"
_TRIP_OF_THE_EXPENSES = re.compile(r"\b(?:expenses|costs|receipts)\s+(?:from|for|of)\s+(?:the|my|our|this)\s+((?!(?:trip|visit)\b)"
                                   r"[^\W\d_][\w'’-]*(?:\s+[^\W\d_][\w'’-]*)?\s+(?:trip|visit|conference|fair|summit|workshop|"
                                   r"offsite|training|kickoff|kick-off|audit))\b", re.IGNORECASE)
# what follows "title it", "call it" or "name it" when no name is given yet: "later", "tomorrow", "as …", "something like
# …", "a day", "after the client", "whatever"
NO_TITLE_YET = re.compile(r"\W*(?:a\s+day|a\s+night|quits|off|done|even|later|tomorrow|soon|afterwards?|after|something|"
                          r"the\s+same|same|as|like|whatever|anything|then|when|once)\b", re.IGNORECASE)


def _tidy_title(raw: str, quoted: bool = False) -> str:
    """``quoted``: the user's own quotes delimit the title, full stops and all ("Dublin summit - S. Byrne")."""
    # ("Leeds trip 🙏": a picture beside the words, no letter of the name)
    raw = "".join(ch for ch in raw if unicodedata.category(ch) not in ("So", "Sk", "Cs", "Co") and ch not in "\u200d\ufe0f")
    title, before = raw.strip() if quoted else re.split(r"(?<=[^\s.])[.!?;]\s+(?=\S)", raw.strip(), maxsplit=1)[0], None
    while title != before:  # "my zurich trip last month pls, in CHF": the currency, then the rest, each cut off
        before, title = title, _TITLE_CUT.sub("", title).strip(" ,;")
        title = re.sub(r"[\s,]+(?:in|with)$", "", title, flags=re.IGNORECASE)  # "…, in euros please" cut to "…, in"
    title = re.sub(r"\s*,\s*(?:it|it'?s|which|that|that'?s|this|they|we|i)\b.*$", "", title, flags=re.IGNORECASE)
    if not quoted:  # "Munich site visit, Monday to Wednesday this week (baustelle visit)": when and an aside, no title
        title = re.sub(r"\s*\((?=[^()]*\b[a-z]{3,}\b)[^()]*\)\s*$", "", title)  # ("(baustelle visit)"; "(ICML)" stays)
        title = re.sub(r"\s*,\s*(?:(?:from|on|between)\s+)?(?:(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|"
                       r"tues?|wed|thu|thurs?|fri|sat|sun)\b(?!\s+[A-Z])|(?:this|last|next)\s+(?:week|month)\b|"
                       r"\d{1,2}(?:st|nd|rd|th)?[./\s-]).*$", "", title, flags=re.IGNORECASE)
    # "…, since everything there was in USD", "… because the client pays": why, not what (a reason in small letters,
    # told as a clause: never "Just Cause gala", "Stockholm COS store", "Sprint review since 2024")
    title = re.sub(r"\s*,?\s+(?:since|because|cause|cos|coz|as)\s+(?:i|we|it|they|he|she|you|everything|all|the|my|our|"
                   r"this|that|there|these|those|everyone|nothing)\b.*$", "", title)
    title = re.sub(r"^(?:the|my|our|a|an)\s+", "", title.strip(), flags=re.IGNORECASE)
    title = re.sub(r"\s+(?:claim|expense\s+claim)$", "", title, flags=re.IGNORECASE)
    title = re.sub(r"\s+(?:(?:next|this|last)\s+(?:week|month|year)|tomorrow|today)$", "", title, flags=re.IGNORECASE)
    title = title.strip(" .,;:!\"'“”‘’-–—")
    title = re.sub(r"(?:[\s,]+(?:and|then|also|plus|&|with|but))+$", "", title, flags=re.IGNORECASE)  # "… meetings and"
    if title and title[0].islower():
        title = title[0].upper() + title[1:]
    return title[:120]


# an ordinal among the lines a kind names ("the second hotel night", "the 3rd taxi", "the last lunch"); never "the
# second day" (a day of the trip) nor "the first one of them" said of the claim's lines in general
_NTH_OF_THEM = re.compile(r"\bthe\s+(first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th)\s+(?!(?:day|week|one|of|line|"
                          r"item|entry|row|time)\b)([^\W\d_][\w'’-]*)", re.IGNORECASE)
_FIGURE_GOES_ON = re.compile(r"[\s,]*(?:plus|\+|incl\w*|excl\w*|with(?:out)?|minus|less|-|and\s+(?:a\s+|the\s+)?tip)\b",
                             re.IGNORECASE)
_ALSO_SAID = re.compile(r"\b(?:also|too|as\s+well|again|another|both)\b", re.IGNORECASE)
_ONE_MORE_SAID = re.compile(r"\b(?:also|too|as\s+well|again|another|both|second|other)\b", re.IGNORECASE)
_NIGHT_SAID = re.compile(r"\b(?:night|nights|nite|nites)\b", re.IGNORECASE)
# a day of the month said after the thing, with no month: "the ibis of 18", "the taxi from the 24th"
_OF_THE_DAY = re.compile(r"\b(?:of|from|on)\s+(?:the\s+)?([1-9]|[12]\d|3[01])(?:st|nd|rd|th)?\b(?![.,/-]\d|\s*(?:€|eur|euros?|"
                         r"[$£]|nights?|days?|people|persons?|pax|ppl|guests?|of\s+us|hours?|hrs?|h\b|min|mins|km|"
                         r"colleagues?|clients?|adults?|kids?|children))", re.IGNORECASE)
# words that leave which line, or its new value, in doubt: the loose ways of naming a line take none of them
_HEDGED = re.compile(r"\b(?:i\s+think|i\s+guess|i\s+believe|not\s+sure|maybe|perhaps|probably|i\s+suppose)\b|\?",
                     re.IGNORECASE)
_NTH_PLACE = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3, "fifth": 4,
              "5th": 4}


def _kind_word(word: str) -> bool:
    """A word that names a kind of expense ("lunch", "taxi", "hotel"), which a line not described may be too."""
    low = plain(word)
    return low in lexicon.CATEGORY_WORDS or any(low in ws for ws in (*lexicon.REFERRING_WORDS.values(),
                                                                      *lexicon.KIND_WORDS.values()))


def _described_lines(tokens: list, claim: Claim, loose: bool = False) -> tuple[list[int], str]:
    """Lines whose description the words name: two of its words in a row ("metro card"), or its one word; ``loose``:
    or one of its longer words that is not a common one ("the printing" for "printing workshop slides")."""
    said = [plain(t.text) for t in tokens]
    pairs = {f"{x} {y}": f"{a.text} {b.text}" for x, y, a, b in zip(said, said[1:], tokens, tokens[1:], strict=False)}
    ordinals: list[int] = []
    used = ""
    for line in claim.lines:
        described = [w.casefold() for w in re.findall(r"[^\W\d_]+", str(line.get("description") or ""))]
        named = [pairs[p] for p in (f"{x} {y}" for x, y in zip(described, described[1:], strict=False)) if p in pairs]
        if not named and len(described) == 1 and len(described[0]) >= 4 and (described[0] in said or any(
                len(w) >= 5 and w[0] == described[0][0] and DamerauLevenshtein.distance(w, described[0]) <= 1
                for w in said)):
            named = [described[0]]  # "the coffee" for a line told as "coffe"
        if not named and loose:
            named = [w for w in described if len(w) >= 5 and w in said and w not in _PLAIN_MODIFIERS
                     and w not in _DESCRIPTION_COMMON][:1]
        if named:
            ordinals.append(line["ordinal"])
            used = named[0]
    return ordinals, used


# words of a description that name no one thing ("from the airport to the hotel": "airport" does, "hotel" a kind)
_DESCRIPTION_COMMON = frozenset("about after before between client clients colleague colleagues customer customers "
                                "during evening morning night other there their these those through together "
                                "where which while with without".split()) | frozenset(
    word for kind_words in lexicon.KIND_WORDS.values() for word in kind_words)


# a route, said as what a ride or a ticket was ("from the airport to the hotel", "to the client's office")
_ROUTE_SAID = re.compile(r"\b(?:was|went|is)\s+(?P<route>(?:from|to)\s+(?:the\s+|my\s+|our\s+)?[^\W\d_][^\d]{2,})$",
                         re.IGNORECASE)


_PLAIN_MODIFIERS = frozenset("the a an my our that this those these his her their your first second third fourth fifth "
                             "last other both each either same earlier later new old".split())



