"""Reading expenses told in one's own words, as a pipeline (issue 19): find the things, split, classify, assign.

The rule-based reader (``reading.py``) reads requests clause by clause and gives up on a message that tells
several expenses in one breath, a narrative, a pasted statement or shorthand ("mon: thalys 96, taxi 14,5, hotel 4
nts 440"). This module reads only that: messages that tell expenses, one amount each.

1. **find** the amounts (numbers that are money: not days, times, counts, ids), the days and the quantities;
2. **split** the message into one item per amount, at the separators between them (",", "and", "+", ";", a line);
3. **classify** each item: its category from its words, its day (its own; else the day heading the list, or said
   after it in the sentence), its quantity ("2 nights at 119 each", "3 days 75/day");
4. **assign** the items to the claim the message names (or the one the conversation is on), and take back the ones
   the message takes back ("scrap the breakfast, hotel included it").

It returns a plan only when every item is whole (an amount in the claim's currency, a category); anything else is
the other reader's to answer. Whatever it proposes is then checked by the audit like any reading.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from itertools import pairwise
from typing import Any

from registries import money_phrases, quantity_products
from registries.currencies import currency_meant, currency_mentions, english_frequency

from ..exchange import reference_currencies
from . import lexicon
from .audit import (
    _ATOM,
    _CATEGORY_RE,
    _PLACE_REACHED,
    _TIME,
    Day,
    _categories_in,
    _ids,
    _values,
    find_days,
    locate,
    relative_offset,
)
from .clauses import NOT_AN_END, RECEIPTS_OF_A_DAY
from .context import Claim, Context, claim_addressed, claims_named, in_the_trip, todays_weekday_unsure
from .patterns import word_search
from .reading import a_day_named, name_before_price, with_carrier_word
from .values import (
    ABOARD,
    AIRPORTS,
    ANOTHER_DAY,
    DAY_DOT,
    REQUEST_HEAD,
    TRAVEL_TIME,
    a_route,
    bought_aboard,
    everyday_name_meant,
    find_categories,
    one_reading,
    priced_alike,
    rows_kept_by_place,
    venue_names,
)


@dataclass
class Item:
    start: int
    end: int
    amount: Decimal
    amount_start: int
    amount_end: int
    currency: str | None = None
    category: str | None = None
    day: date | None = None
    quantity: int | None = None
    taken_back: str | None = None  # the words that take it back
    merchant: str | None = None
    description: str | None = None  # what it was, in the user's words ("from the airport to the hotel")


@dataclass
class Found:
    amounts: list[tuple[int, int, Decimal, str | None, int | None]] = field(default_factory=list)  # start, end, value,
    # currency, quantity


# words that make an item "other" when nothing else names it
_OTHER = re.compile(r"\b(?:registration|fee|fees|conference\s+fee|visa|sim(?:\s+card)?|printing|prints|stationery|"
                    r"office\s+supplies|banner|gift|gifts|tip|tips|laundry|membership|subscription|books?|supplies)\b",
                    re.IGNORECASE)
_NOT_MONEY_AFTER = re.compile(r"\s*(?:km|kms|kilomet(?:er|re)s?|miles?|mi\b|%|percent|pct|cents?\b|min\b|mins|minutes?|"
                              r"hours?|hrs?|h\b|x\b|×|nights?|nites?|nts?\b|days?|rides?|people|pax|persons?|guests?|"
                              r"singles?|returns?|trips?|halls?|authors?|of\s+us|of\s+them|stars?|pm\b|am\b|o'?clock|"
                              r"years?|weeks?|months?|stops?|floors?|rooms?|coffees?|pastries|teas?|beers?)",
                              re.IGNORECASE)
_NOT_MONEY_BEFORE = re.compile(r"(?:(?<![\w])(?:room|platform|gate|seat|folio|no\.?|nr\.?|terminal|track|row|table|tel\.?|"
                               r"phone|invoice|order|ref\.?|booking|flight|line|item|entry|card|the|a|of|for\s+the|"
                               r"at\s+the|version|v)|#)\s*$", re.IGNORECASE)
_SEPARATOR = re.compile(rf"\s*(?:[,;]|(?!{DAY_DOT.pattern})\.(?=\s)|\n|\s\+|\+\s|\s&\s|\band(?!\s+back\b)\s+(?:then\s+)?|(?<=\d)\s+and\s+(?=back\s+(?:[€$£]\s?)?\d)|\bplus\b|\balso\b|\bthen\b|"
                        r"\s[-–—/]\s|[–—])\s*", re.IGNORECASE)
# "add these: …", "the following": words that point at what comes next, not back
_FORWARD = re.compile(r"\b(?:these|those|the\s+following)\b(?=[^.\n]{0,40}:)", re.IGNORECASE)
_TAKE_BACK = re.compile(r"(?:(?:\b(?:actually|no\s+wait|wait|oh|sorry|hmm+|no)[,\s-]+)*"
                        r"\b(?:scrap|scratch|forget|skip|drop|ignore|leave\s+out|nvm|never\s*mind|not)\s+"
                        r"(?:about\s+)?(?:the\s+|that\s+|my\s+)?(?P<what>[\w'-]+)"
                        r"|\b(?:the\s+)?(?P<what2>[\w'-]+)\s+(?:was|is)\s+(?:paid\s+by|on)\s+(?:the\s+)?(?:company|client|"
                        r"colleague|host)|\bleave\s+(?:the\s+)?(?P<what3>[\w'-]+)\s+(?:out|off))", re.IGNORECASE)
# what this reader leaves to the other: edits, questions, other requests, hedges and conditions, refunds, and words
# that point back at something told before ("that dinner", "it was 38", "hmm no")
_REQUEST_ELSE = re.compile(
    r"\b(?:change|update|amend|correct|edit|remove|delete|submit|send|withdraw|cancel|undo|open|new\s+claim|create|"
    r"rename|move|fix|replace|typo|mistake|wrong|should\s+be|instead|actually|sorry|meant|what|how|"
    r"which(?!\s+(?:came|cost|costs|was|were|comes|totall?ed|amounted)\b)|"
    r"(?:make|set|lower|raise|reduce|increase|bump)\s+(?:the|it|that|this|line|my)\b|"
    r"when(?!\s+(?:i|we)\s+(?:landed|arrived|left|got|came|checked|flew|was|were))|why|"
    r"where|is\s+it|can\s+i|do\s+i|maybe|perhaps|might|possibly|probably|if|unless|whether|once|in\s+case|or|"
    r"not\s+sure|i\s+think|idk|approx\w*|roughly|around|about|book|email|e-mail|mail|call|phone|order|buy|pay\s+back|"
    r"transfer|reimburse\w*|print|forward|remind|notify|tell|ask|check|approve|reject|split|share|convert|calculate|"
    r"sum|refund\w*|credit|minus|no|nope|hmm+|but|again|already|still|those|these|rm|del|dup\w*|there(?=\s+(?:is|are|"
    r"any|a\s+limit))|half|split|"
    r"shared|same\s+(?:for|as)|usual|less|excluding|without|discount|off|tomorrow|next)\b|\?|(?<![\w.])-\s?\d"
    r"|\bthat\s+(?!one\b|day\b|night\b|evening\b|came\b|comes\b|cost\b|costs\b)[a-z]+"
    r"|\bit\s+(?:was|is|were|cost|came\s+to)\s+(?:only\s+|actually\s+|really\s+)?[€$£]?\d",
    re.IGNORECASE)


# a row that only counts nights and prices them ("2 nights 412.60 total"), and a row that names a stay's nights at all
_NIGHTS_ONLY = re.compile(r"^[\s,;:+-]*(?:and\s+)?(?:for\s+)?\d{1,2}\s*(?:nights?|nts?|nites?|n)\b", re.IGNORECASE)
_NIGHTS_SAID = re.compile(r"\b(?:nights?|nts?|nites?)\b", re.IGNORECASE)


_NOT_TO_ADD = re.compile(r"\b(?:do\s+not|don'?t|dont|not\s+to)\s+(?:add|include|claim|put)\b", re.IGNORECASE)


def read_items(message: str, ctx: Context) -> dict[str, Any] | None:
    """A plan adding the expenses the message tells, or None when it tells none that can be read whole."""
    if not message or len(message) > 2000 or "add_line" not in ctx.acts or _REQUEST_ELSE.search(
            _FORWARD.sub(" ", _without_take_backs(message))) or _NOT_TO_ADD.search(message):
        return None  # ("…, the evening taxi, do not add": what not to add is the clause reader's, or asked)
    claim, ref = _claim_for(message, ctx)
    if (claim is not None and claim.status != "draft") or (ref and ref.get("many")):
        return None
    if ref is None and claim is not None and any(c.id != claim.id for c in claims_named(ctx.previous or "", ctx.claims)):
        return None  # "and a dinner 29 same day" after a message about another claim: which one is for the other reader
    items = _items(message, ctx)
    if (by_place := rows_kept_by_place(message)) is not None:  # "Work: the first, second and fourth."
        items = [i for i in items if any(s <= i.start < e for s, e in by_place.kept)]
    if not items:
        return None
    _take_back(message, items)
    for first, then in zip(items, items[1:], strict=False):
        if first.category == then.category == "hotel" and _NIGHTS_ONLY.match(message[then.start:then.end]) and not \
                _NIGHTS_SAID.search(message[first.start:first.end]):
            return None  # "hotel Ibis 89, 2 nights 178.00 total": one stay told twice (a night's price, then the sum)
    currency = claim.currency if claim is not None else None
    acts: list[dict[str, Any]] = []
    retractions: list[dict[str, Any]] = []
    for n, item in enumerate(items, 1):
        if item.category is None:
            return None
        if item.currency is not None and (currency is None or item.currency != currency):
            return None  # an amount in another currency: the other reader converts it and asks
        evidence = message[item.start:item.end].strip(" ,;:+-–—\n")
        if not evidence or locate(evidence, message) is None:
            return None
        if any(Decimal(m.group(1)) == item.amount for m in re.finditer(
                rf"(?<![\d.,])(\d{{1,2}})\s*(?:{lexicon.NIGHTS})(?![\w'’-])", evidence, re.IGNORECASE)):
            return None  # "2 nachten Hotel Alexandra à …": a count of nights is never an amount
        args: dict[str, Any] = {"amount": f"{item.amount:.2f}", "category": item.category}
        if item.day is not None:
            args["date"] = item.day.isoformat()
        if item.quantity and item.quantity > 1:
            args["quantity"] = item.quantity
        if item.merchant:
            args["merchant"] = item.merchant
        if item.description:
            args["description"] = item.description
        act: dict[str, Any] = {"id": f"x{n}", "act": "add_line", "args": args, "evidence": evidence}
        if ref is not None:
            act["case"] = ref
        acts.append(act)
        if item.taken_back:
            retractions.append({"act": act["id"], "evidence": item.taken_back})
    if all(item.taken_back for item in items):
        return None
    plan: dict[str, Any] = {"acts": acts}
    if retractions:
        plan["retractions"] = retractions
    return plan


def _without_take_backs(message: str) -> str:
    return _TAKE_BACK.sub(" ", message)


def _claim_for(message: str, ctx: Context) -> tuple[Claim | None, dict[str, Any] | None]:
    """The claim the message addresses by name ("Köln: …"), else the one the conversation is on. Two claims named
    ("train Stockholm–Göteborg" with a Stockholm and a Gothenburg claim) is no claim: None."""
    addressed = claim_addressed(message, ctx)
    if addressed is not None:  # "Köln: …", "… on my Berlin claim": the claim the message is for
        return addressed, {"id": addressed.id}
    if len(claims_named(message, ctx.claims)) > 1:
        return None, {"many": True}
    return ctx.default_claim(), None  # a city named in passing ("train from Berlin") is for the engine to ask about


def _read_two_ways(found: list) -> bool:
    spans = [(f.start, f.end) for f in found]
    return len(set(spans)) < len(spans)


def _items(message: str, ctx: Context) -> list[Item]:
    today = ctx.today
    days = find_days(message, today)
    day_spans = [(d.start, d.end) for d in days]
    times = [(m.start(), m.end()) for m in _TIME.finditer(message)]
    mentions = currency_mentions(message)
    products = one_reading(message, quantity_products(message))
    phrases = one_reading(message, money_phrases(message))
    if _read_two_ways(products) or _read_two_ways(phrases):
        return []  # "two forty" for a dinner: 2.40 or 240, the message does not say which
    amounts: list[Item] = []
    taken: list[tuple[int, int]] = []
    for p in products:  # "2 nights at 119 each": the product is the amount, the count its quantity
        if not p.count or any(s < p.end and p.start < e for s, e in day_spans):
            continue
        amounts.append(Item(0, 0, p.value, p.start, p.end, quantity=p.count))
        taken.append((p.start, p.end))
    for p in phrases:  # "eleven sixty", "eighty nine euros fifty": a price said in words
        if not any(s < p.end and p.start < e for s, e in taken + day_spans):
            amounts.append(Item(0, 0, p.value, p.start, p.end))
            taken.append((p.start, p.end))
    ids = _ids(message)
    for m in _ATOM.finditer(message):
        start, end = m.start(), m.end()
        if any(s <= start < e for s, e in taken + day_spans + times) or m.group(0) in ids:
            continue
        if re.match(r"(?:st|nd|rd|th)\b", message[end:end + 3], re.IGNORECASE):
            continue  # "the 2nd taxi": which one, not how much
        if re.match(r"-[^\W\d_]", message[end:end + 2]) and m.group(0).isdigit():
            continue  # "7-Eleven", "a 5-star hotel": part of a name or a count
        small = re.fullmatch(r"\d{1,2}", m.group(0)) is not None  # a count or an id is a small whole number
        whole = re.fullmatch(r"\d+", m.group(0)) is not None  # "gate 12" names a gate; "at the gate 4.80" is paid
        if (small and _NOT_MONEY_AFTER.match(message, end)) or (
                whole and _NOT_MONEY_BEFORE.search(message[max(0, start - 14):start])):
            if not _currency_beside(mentions, start, end, message):
                continue
        values = _values(m.group(0))
        raw = m.group(0)
        value = _money_value(raw, values)
        if value is None or value <= 0:
            return []
        amounts.append(Item(0, 0, value, start, end))
    amounts.sort(key=lambda i: i.amount_start)
    if not amounts or len(amounts) > 12:
        return []
    # quantities said apart: "hotel 4 nts 440", "2 nights, 164 a night"
    claim, _ref = _claim_for(message, ctx)
    for item in amounts:
        _currency_of(item, mentions, message, claim.currency if claim is not None else None)
    _split(message, amounts)
    for m in _TAKE_BACK.finditer(message):  # a take-back said after the last amount is no part of its item
        for item in amounts:
            if item.amount_end <= m.start() < item.end:
                item.end = m.start()
    claim = _claim_for(message, ctx)[0]  # a bare weekday is read against its trip
    for item in amounts:
        words = message[item.start:item.end]
        item.category = _category(_masked(words, today))  # "dinner 58 last nite": the night is a day, no hotel; nor
        # is "→hotel" one
        if item.quantity is None:
            item.quantity = _quantity(words, item)
            if item.quantity is None and re.search(r"\b(?:a|per|each|/)\s*(?:night|nite|nt)\b", words, re.IGNORECASE):
                return []  # a price per night with no count: how many nights is for the user to say
        own = [d for d in days if item.start <= d.start and d.end <= item.end]
        if len({d.value for d in own}) > 1 or any(d.value is None for d in own):
            if not _same_day_resolves(own, ctx, message):
                return []
        item.day = own[0].value if own and own[0].value is not None else _same_day(own, ctx, message)
        if own and own[0].value is not None and item.day is not None and in_the_trip(
                item.day, message[own[0].start:own[0].end], claim, today, message[:own[0].start]) != item.day:
            return []  # "tue" on a claim whose trip was last week (or "wed" on the Wednesday of this week's trip):
            # this week's or the trip's? Only the user can say
        if own and item.day is not None and todays_weekday_unsure(
                item.day, message[own[0].start:own[0].end], claim, today, message[:own[0].start],
                [d.value for d in days if d.kind != "weekday" and d.value]):
            return []  # "taxi thursday 12" told on a Thursday: today's or last week's? (asked)
    for item in amounts:
        names = _merchants(message, item)
        if len(names) > 1:
            return []  # two names in one item: which one was paid is for the user to say
        own = [d for d in days if item.start <= d.start and d.end <= item.amount_start]
        item.merchant = names[0] if names else name_before_price(message[own[-1].end:item.amount_end]) if (
            own and item.category == "meals") else None  # a restaurant, as a phone types it ("lunch 17.11. hiltl 34,50")
        if item.merchant is None and (after := _MERCHANT_AFTER.match(message, item.end)) and not any(
                other.start < after.end() and item.end < other.end for other in amounts if other is not item) and len(
                told := merchants_in(after.group("name"), message)) == 1:
            item.merchant = told[0]  # "the train back on Thursday 89,90 EUR, also Deutsche Bahn."
        item.description = describe(message[item.start:item.end], ctx)
    if not _shared_merchant(message, amounts):
        return []
    for k, item in enumerate(amounts):  # "ICE out on mon 112.40, back wed 108.90": the way back is the same kind
        if item.category is None and item.merchant and (kind := kind_of_merchant(item.merchant)):
            item.category = kind  # "SAS back 231.40": the airline's kind
            continue
        if item.category is None and k and _RETURN.search(message[item.start:item.end]) and amounts[k - 1].category in (
                "travel", "taxi") and (not item.merchant or item.merchant == amounts[k - 1].merchant):
            # (another merchant: another kind?; "breakfast 11 • Luas return 4.80": no way back of a breakfast)
            item.category = amounts[k - 1].category
    for before, item in pairwise(amounts):
        if before.category == item.category == "hotel" and (before.quantity or 1) > 1 and before.day and item.day and (
                0 <= (item.day - before.day).days < (before.quantity or 1)):
            return []  # "htl 2 nites mon 298 + tue nite 149": a night the stay already holds, told again (asked)
        if item.merchant is None and item.category == before.category == "hotel" and before.merchant and item.amount and \
                before.amount and priced_alike(item.amount, before.amount) and not [
                c for c in find_categories(message[item.start:item.amount_start]) if not c.weak] and re.search(
                    r"\b(?:night|nite|nights|nites)\b", message[item.start:item.end], re.IGNORECASE):
            item.merchant = before.merchant  # "Hotel Ibis tuesday night 389 zł and wednesday night 389 zł": the same hotel
    _days_across(message, amounts, days, ctx)
    return amounts


# a name that says it is a place one travels from or to
_PLACE_NAMED = re.compile(r"\b(?:airport|station|hbf|hauptbahnhof|bahnhof|terminal|centraal|centrale|flughafen|aeroporto|"
                          r"aéroport|lotnisko|straße|strasse|str\.|street|road|platz|allee|gasse)$|"
                          r"^(?:via|viale|corso|piazza|rue|calle|avenida|avenue|plaza)\s", re.IGNORECASE)  # ("Via Tortona")
_KIND_NAMED = re.compile(r"\b(?:Air|Airways|Airlines?|Rail|Railways?|Express|(?-i:Taxi|Taxis|Taxa|Cabs))$")  # ("Bergen Taxi")


def kind_of_merchant(name: str) -> str | None:
    """The kind of expense a merchant's name says: a known name's, or travel for an airline or a railway."""
    if (kind := _known_kinds().get(name.casefold())) is not None:
        return kind
    if (chain := next((key for key in _merchant_keys() if name.casefold().startswith(key + " ")), None)) is not None:
        return _known_kinds().get(lexicon.MERCHANTS[chain][0].casefold())  # "STARBUCKS HBF": a branch of a known chain
    if re.search(r"\b(?:air|airways|airlines?|rail|railways?)\b", name, re.IGNORECASE):
        return "travel"
    return None


# who was paid, said after the price in a clause of its own: ", also Deutsche Bahn.", ", again with Lufthansa"
_MERCHANT_AFTER = re.compile(r"\s*[,(–-]\s*(?:(?:also|again|both)\s+)?(?:(?:with|by|from|at)\s+)?(?P<name>[^\W\d_][\w'’&.-]*(?:\s+[^\W\d_][\w'’&.-]*){0,2}?)"
                             r"(?:\s+(?:again|too|as\s+well))?\s*\)?\s*(?:[.;!\n]|$)", re.IGNORECASE)


def _merchants(message: str, item: Item) -> list[str]:
    return merchants_in(message[item.start:item.end], message)


def merchants_in(words: str, message: str) -> list[str]:
    """Who was paid: a known name ("thalys" is Thalys), or a name the user capitalised ("LNER", "the Hotel Lutécia",
    "Hotel Merian"), not a place one travelled from or to, a city, a claim's name, a day, a person, or an everyday
    word ("had to grab an Uber": "Uber")."""
    from ..naming import city_aliases
    from . import lexicon
    from .audit import _odd_merchant

    names: list[str] = []
    lowered = words.lower()
    for key in _merchant_keys():
        if key not in lowered:
            continue
        if key in _everyday_keys() and re.search(
                rf"(?:\bto\s+{re.escape(key)}\b|\b{re.escape(key)}\s+(?:my|a|an|the|some|his|her|our|your|it|them)\b)", words):
            continue  # "to grab my laptop": the verb, not the ride app
        if (hit := word_search(key, lowered, r"\w-")) and everyday_name_meant(words, hit.start(), hit.end()):
            names.append(lexicon.MERCHANTS[key][0])
            lowered = lowered.replace(key, " " * len(key))
    for m in _NAME.finditer(words):
        mid = bool(re.search(r"[\w,]\s+$", words[:m.start()]))  # "at A Cevicheria": the capital A is the name's
        name = re.sub(r"^(?:The|My|Our)\s+" if mid else r"^(?:The|A|An|My|Our)\s+", "", m.group(0).strip()).rstrip(".,;:!?")
        # "Add Hotel Motto, 356,00": the request's verb at the start of the sentence, never part of the name
        name = REQUEST_HEAD.sub("", name)
        if name.endswith("-") and words[m.end():m.end() + 1] == ">":
            continue  # "SFO->IAD": a route's airports
        if (carrier := next((k for k in _merchant_keys() if name.lower().startswith(k + " ") and _CARRIERS_OWN_WORDS.fullmatch(
                name[len(k) + 1:])), None)) is not None:
            names = [n for n in names if n.lower() != lexicon.MERCHANTS[carrier][0].lower()] + [name]
            continue  # "Norwegian Air Shuttle": the carrier's full name
        if not name or any(w.lower().strip(".,;:") in _NOT_NAMES for w in name.split()) or re.search(r"\bI\b", name) or \
                a_route(name) or re.search(rf"\b(?:{lexicon.PLEASE})\b", name, re.IGNORECASE):
            continue  # "November I", "EUR.
        before = words[:m.start() + len(m.group(0)) - len(name)]
        first = name.split()[0] if name else ""
        if not first or (re.search(r"(?:^|[.!?:]\s*|\n)\s*$", before) and " " not in name and not first.isupper()
                         and not re.match(r"\s+(?:hotel|restaurant|café|cafe|bistro|brasserie)\b", words[m.end():])):
            continue  # a single word that starts a sentence is capitalised anyway ("Thon hotel": a name)
        if re.search(r"(?:\b(?:from|to|into|towards|via|near|between|down\s+to|up\s+to|out\s+to|vom|von|zum|zur|nach)|->|→|=>)\s*(?:the\s+)?"
                     r"(?:(?:airport|station|terminal|port)\s+)?$", before, re.IGNORECASE) and not (
                re.search(r"\b(?:bought|picked\s+up|ordered|adapter|cable|charger|tape|stationery|supplies|batter(?:y|ies)|"
                          r"plug|lead|notebook|pens?)\s+from\s+$", before, re.IGNORECASE) and not re.match(
                              r"[^.,;:!?\n]{0,40}\b(?:to|into|towards)\b", words[m.end():], re.IGNORECASE)):
            continue  # "taxi from Midi", "train to Lyon", "the RER to the airport CDG": a place
        if re.search(r"[^\W\d_]\s[-–]\s$", before) or (_PLACE_NAMED.search(name) and not any(
                re.match(rf"{re.escape(key)}\b", name.lower()) for key in lexicon.MERCHANTS)):
            continue  # "hotel - Chopin Airport", "Hamburg Hbf": where a ride went, not who was paid
        if re.search(r"\b(?:colleagues?|co-?workers?|boss|manager|friend|wife|husband|partner|son|daughter|director|"
                     r"mr|mrs|ms|dr)\.?\s+$", before, re.IGNORECASE):
            continue  # "colleague Marc paid his part": a person, never who was paid
        if re.search(r"\b(?:with|for|and)\s+$", before, re.IGNORECASE) and not (
                re.search(r"\bwith\s+$", before, re.IGNORECASE) and ((name.isupper() and len(name) > 1) or
                                                                     _KIND_NAMED.search(name))):
            continue  # "dinner with Anna": a person ("flew with LOT": an airline, in capitals)
        if any(n.lower() == name.lower() for n in names) or name.lower() in _NOT_NAMES or name.lower() in AIRPORTS or (
                city_aliases(first) and not _KIND_NAMED.search(name) and first.lower() not in lexicon.MERCHANTS) or \
                _odd_merchant(name, message) or _CATEGORY_RE["hotel"].fullmatch(name) or _currency_word(name) or \
                re.fullmatch(r"S?Fr|SFR", name) or a_day_named(name):  # ("Fr. 34.-": Swiss francs; "Montag Taxi": a day)
            continue
        if re.fullmatch(r"[A-Z]{3}", name) and (re.search(r"\b[A-Z]{3}\s*[-–—/]\s*$", before) or re.match(
                r"\s*(?:to|[-–—/]|->|→)\s*[A-Z]", words[m.end():])):
            continue  # "FCO–VIE", "JFK to Frankfurt": a route's airports
        if " " not in name and not (_ATE_AT.search(before) and name.lower() not in _NO_PLACE) and (english_frequency(name.lower()) > 1e-6 or any(
                p.fullmatch(name) for p in _CATEGORY_RE.values()) or name.lower() in lexicon.CATEGORY_WORDS):
            continue  # "UBER *TRIP": a statement's everyday word in capitals names nobody
        if re.search(r"\b(?:hotel|hotl|htl|hotell)\s+$", before, re.IGNORECASE) and not re.match(
                r"(?:motel|hostel|inn|hotel)\b", name, re.IGNORECASE) and not any(
                name.lower().startswith(key) for key in lexicon.MERCHANTS):
            name = f"Hotel {name}"  # "hotel Berna" (not "hotel Novotel Centrum", a name of its own)
        names.append(name)
    names += [name for _s, _e, name in venue_names(words) if name.lower() not in {n.lower() for n in names}]
    # a carrier inside a longer run of capitals is the carrier ("Ferry Viking Line Stockholm-Helsinki": Viking Line);
    # a place to stay or eat is its whole name ("Motel One" inside "Motel One Hamburg Altona")
    carriers = [n for n in names if _known_kinds().get(n.casefold()) in ("travel", "taxi")]
    names = [n for n in names if not any(n != c and re.search(rf"(?<!\w){re.escape(c.lower())}(?!\w)", n.lower()) and not (
        n.lower().startswith(c.lower() + " ") and _CARRIERS_OWN_WORDS.fullmatch(n[len(c) + 1:]))  # "Norwegian Air Shuttle"
                                         for c in carriers)]
    names = [n for n in names if not any(n != o and re.search(rf"(?<!\w){re.escape(n.lower())}(?!\w)", o.lower())
                                         for o in names)]
    return list(dict.fromkeys(with_carrier_word(n, words) for n in names))



# the words of a carrier's own full name after its short one: "Norwegian Air Shuttle", "Viking Line" is no route
_CARRIERS_OWN_WORDS = re.compile(r"(?:air(?:lines?|ways)?|air\s+shuttle|rail(?:ways)?|express|lines?|ferries|coach(?:es)?)",
                                 re.IGNORECASE)


# "the board dinner at Rules": a capitalised word where a meal was eaten is the place's name, English word or not
_NO_PLACE = frozenset("noon midday night midnight conference office work home airport station hotel venue fair site event "
                      "meeting desk reception bar restaurant cafe café canteen lunch dinner breakfast the".split())
_ATE_AT = re.compile(r"[\w,]\s+(?:breakfast|brunch|lunch|dinner|supper|drinks|meal)\s+at\s+$", re.IGNORECASE)


@functools.cache
def _known_kinds() -> dict[str, str]:
    from . import lexicon

    return {name.casefold(): kind for name, kind in lexicon.MERCHANTS.values()}


@functools.cache
def _merchant_keys() -> tuple[str, ...]:
    """The known merchants' names, longest first (a longer name is found before a name inside it)."""
    from . import lexicon

    return tuple(sorted(lexicon.MERCHANTS, key=len, reverse=True))


@functools.cache
def _everyday_keys() -> frozenset[str]:
    """Known merchants' names that are everyday words too ("grab", "bolt", "shell")."""
    return frozenset(key for key in _merchant_keys() if english_frequency(key) > 1e-6)


_NAME = re.compile(r"(?<![\w'’])(?:[A-ZÀ-Þ][\w'’&.-]*|[A-Z]{2,})(?:\s+(?:(?:de|del|della|la|le|les|am|an|of|&|au|aux|du|des|"
                   r"dos|das|do|da|di|van|von|der|den|zum|zur)\s+)?[A-ZÀ-Þ][\w'’&.-]*)*")
_NOT_NAMES = frozenset("i i'm i've i'd i'll ok okay asap fyi cfo ceo cto coo vp hr q1 q2 q3 q4 pm am mr mrs ms dr herr frau monday tuesday wednesday thursday friday "
                       "saturday sunday mon tue wed thu fri sat sun january february march april may june july august "
                       "september october november december jan feb mar apr jun jul aug sep sept oct nov dec eur usd gbp "
                       "chf sek nok dkk pln czk jpy cad total tip vat a an the "
                       # things bought, named by their abbreviation ("HDMI adapter from Currys": Currys was paid)
                       "usb hdmi sim esim sd vga dvi led lcd pc tv dvd cd gps aa aaa ssd hdd ram pdf a4 a3 "
                       # the country before a currency's name ("in Czech koruna"): no one paid
                       "czech swiss danish swedish norwegian polish british hungarian canadian australian japanese "
                       "koruna korun kroner kronor krona zloty złoty forint franc francs "
                       "trinkgeld propina pourboire mancia gorjeta fooi napiwek dricks".split()) | {
                           w.lower() for w in lexicon.TRAIN_SERVICES}  # "TGV Paris-Toulouse": the train and its route


def _currency_word(name: str) -> bool:
    return any(m.start == 0 and m.end == len(name) for m in currency_mentions(f"{name} 1")[:1])


_DESCRIBED = re.compile(r"\b(?:from|with|(?:back\s+)?to(?=\s+(?:the|my|our|a|an|[A-ZÀ-Þ])\b)|for(?=\s+(?:the|my|our|a|an)\b))\s+"
                        r"(?:the\s+|my\s+|our\s+|a\s+|an\s+)?[^\W\d_][\w'’-]*"
                        r"(?:\s+(?:(?:to|the|and|of|my|our|a)\s+)*[^\W\d_][\w'’-]*){0,5}", re.IGNORECASE)
# a price said in words ends the phrase: "to the hotel thirty two fifty"
_SPOKEN = re.compile(r"\s+(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|two|three|four|five|six|seven|eight|nine|"
                     r"ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|hundred)\b.*$",
                     re.IGNORECASE)
_STOP_WORDS = re.compile(r"\s+(?:on|at|in|last|this|that|yesterday|today|tonight|same|paid|was|were|is|cost|came|for)\b.*$",
                         re.IGNORECASE)


_REASON = re.compile(r"(?:,\s*|\s+)(?P<reason>(?:because|since|as|due\s+to)\s+[^()\d]{6,100}?|\((?P<aside>[^()\d]{6,100})\))"
                     r"\W*$", re.IGNORECASE)


# a yes (or a no) that ends its clause before an expense is told: "fine, use your rate - …", "ok go ahead. …", "no - …"
_YES_CLAUSE = re.compile(r"^\W*(?:yes|yeah|yep|yup|ok|okay|sure|fine|great|perfect|alright|cool|good|grand|lovely|"
                         r"brilliant|right|thanks|cheers|go\s+ahead|no|nope|nah)\b[^.!?;:\d\n–—-]{0,40}?(?:[.!;:]\s+|\s+[-–—]+\s+)",
                         re.IGNORECASE)


# words leading in to what is told, before a colon or a dash: "ok, simpler:", "again -", "so, once more:"
_LEAD_IN = re.compile(r"^\W*(?:(?:ok|okay|so|and|then|right|fine|well|sorry|oops)\W+)*(?:again|simpler|easier|simply|instead|"
                      r"also|plus|next|finally|lastly|anyway|once\s+more|one\s+more\s+time|let'?s\s+try\s+again|in\s+short|"
                      r"short(?:er)?\s+version|ok|okay|so|further(?:more)?|moreover|additionally|besides|in\s+addition|"
                      r"(?:the\s+)?following(?:\s+(?:expenses|costs|items|ones))?|(?:my\s+|the\s+|other\s+)?(?:expenses|costs)|"
                      r"here(?:\s+(?:they\s+)?are|\s+you\s+go)?)\s*[:\-–—]+\s*", re.IGNORECASE)


def describe(words: str, ctx: Context) -> str | None:
    """What the expense was, in the user's words, and why when they say it: "taxi from the messe to the hbf because
    the s-bahn was on strike" → "from the messe to the hbf because the s-bahn was on strike" (a route and a reason
    are what a taxi over the limit needs noted)."""
    if (yes := _YES_CLAUSE.match(words)) and re.search(r"[^\W\d_]", words[yes.end():]):
        words = words[yes.end():]  # "fine, use your rate - airport lunch 14.55": the yes is no word of the thing
    if (head := re.match(r"([^:\n]{3,60}):\s*", words)) and RECEIPTS_OF_A_DAY.fullmatch(head.group(1)):
        words = words[head.end():]  # "Here are the receipts from Wednesday: breakfast …": the day's heading, no thing
    if (lead := _LEAD_IN.match(words)) and re.search(r"[^\W\d_]", words[lead.end():]):
        words = words[lead.end():]  # "ok, simpler: hotel Madrid 256", "again: taxi 20": how it is said, not what it was
    said = _described_phrase(words, ctx)
    reason = _REASON.search(words)
    if reason is None or claims_named(reason.group(0), ctx.claims):
        return said
    why = (reason.group("aside") or reason.group("reason")).strip(" ,.;")
    if said and (at := words.find(said)) >= 0 and re.fullmatch(r"[\s,]*", words[at + len(said):reason.start("reason")
                                                                        if reason.group("reason") else reason.start()]):
        joined = words[at:reason.end("reason")].strip(" ,.;") if reason.group("reason") else None
        if joined and len(joined) <= 120:
            return joined  # the route and the reason, as one phrase of the user's
    return why if not said and len(why) <= 120 else said


# the ways of travelling a "travel" line does not tell apart (a taxi's, a flight's kind is its category or carrier)
_RIDES_OF_TRAVEL = frozenset("train trains bus coach metro tram subway tube shuttle ferry boat underground rail".split())


def _described_phrase(words: str, ctx: Context) -> str | None:
    """A short phrase "from … to …", "with …", "for …" ("taxi from the airport to the hotel" → "from the airport to the
    hotel"), without days, amounts, claim names or months."""
    from . import lexicon
    from .audit import _MONTHS, _WEEKDAYS

    for m in _DESCRIBED.finditer(words):
        phrase = _STOP_WORDS.sub("", _SPOKEN.sub("", m.group(0))).strip(" ,.;:")
        tokens = [t.lower() for t in re.findall(r"[^\W\d_]+", phrase)]
        if len(tokens) < 2 or len(phrase) > 60 or any(t in _WEEKDAYS or t in _MONTHS for t in tokens) or all(
                t in _LEADING for t in tokens) or tokens[-1] in _THING_JOINS | {"a", "an", "my", "our", "for"}:
            continue  # "total for the 2 nights", "from the 24th": no words of what it was
        if claims_named(phrase, ctx.claims):
            continue  # "for the Berlin workshop" names the claim, not the expense
        if (meal := re.search(r"\b([^\W\d_]+)\s+$", words[:m.start()])) and meal.group(1).casefold() in lexicon.MEALS:
            return f"{meal.group(1)} {phrase}"  # "dinner with the distributor": which meal it was, and with whom
        if (ride := re.search(r"\b([^\W\d_]+)\s+$", words[:m.start()])) and ride.group(1).casefold() in _RIDES_OF_TRAVEL:
            return f"{ride.group(1)} {phrase}"  # "CAT train from airport": how, where a travel line does not say it
        return phrase
    # else the few words that name the thing right before its amount: "client lunch 62.50", "airport parking 45"
    if m := _NAMED_THING.search(words):
        phrase = m.group("thing").strip()
        while phrase and phrase.split()[-1].lower() in _THING_JOINS:  # "dinner with 3 clients": not "dinner with"
            phrase = phrase.rsplit(None, 1)[0] if " " in phrase else ""
        tokens = [t.lower() for t in phrase.split()]
        while tokens and tokens[0] in _LEADING:
            phrase, tokens = phrase.split(None, 1)[1] if " " in phrase else "", tokens[1:]
        if 2 <= len(tokens) <= 4 and not any(t in _WEEKDAYS or t in _MONTHS for t in tokens) and not any(
                t in _LEADING or t in _THING_ENDS for t in tokens[1:]) \
                and not claims_named(phrase, ctx.claims):
            return phrase
    return _residual_thing(words, ctx)


# the words that end the phrase naming the thing ("team lunch at …", "metro card was 80"): verbs, prepositions of
# place and time, units and request words; the words that may join two of its words ("coffee and cake")
_THING_ENDS = frozenset("was were is are be been cost costs came comes spent paid each per night nights x total "
                        "at on in by via around about ok so just yesterday today tonight tomorrow last this next "
                        "morning evening afternoon noon night week weekend add put please pls can could would you "
                        "it that which who we i had got bought took checked check stayed arrived left starting started "
                        "until till went go goes going gone have has having did do does made drove rode used grabbed "
                        "needed these those they them both all down up out over flew flown drove driven came walked sorry "
                        "mean meant oops need needed want wanted dia día giorno".split())
_THING_JOINS = frozenset("and of the to from with".split())
# the words of a request in the languages people mix in ("kan du lägga till en taxi 245 kr"): no words of the thing
_ASKING_ABROAD = frozenset(word for phrase, english in lexicon.WORDS_ABROAD.items()
                           if english in ("add", "can you", "open", "please") for word in phrase.casefold().split())
_THING_PLAIN = frozenset("ride rides trip trips fare fares ticket tickets bill bills expense expenses cost costs receipt amount amounts price prices sum "
                         "receipts one ones thing things stuff item items line new another day days first second third "
                         "final back home there arrived returned returning again".split()) | lexicon.FILLER | lexicon.STAY_MOMENTS
# ("Last day, 26.11.: lunch …", "Back in München on 3 December: parking …": no thing)


def _residual_thing(words: str, ctx: Context) -> str | None:
    """The first run of words that names the thing, when no phrase shape did: what is left once request words,
    verbs, days, amounts, currencies and who was paid are set aside ("team lunch at Torvehallerne 640" → "team
    lunch", "the metro card was 80" → "metro card"). One word that only names a category ("dinner") is none."""
    from . import lexicon
    from .audit import _MONTHS, _WEEKDAYS

    paid = {w.casefold() for name in merchants_in(words, ctx.message) for w in re.findall(r"[^\W\d_]+", name)}
    run: list[str] = []
    for m in re.finditer(r"\d{1,2}(?:[:.]\d{2})?\s?[ap]\.?m\b\.?|\d+(?:st|nd|rd|th)\b|\d+h(?:rs?|ours?)?\b|[^\W\d_][\w'’-]*|\S",
                         words):  # a clock time ("7pm") is one token, and no word of the thing
        token = m.group(0)
        low = token.casefold()
        ends = (not (token[0].isalpha() or re.fullmatch(r"\d+h(?:rs?|ours?)?", token)) or low in _THING_ENDS or low in lexicon.SPOKEN_NUMBERS or low in _WEEKDAYS or low in _MONTHS or low in paid
                or _currency_word(token) or low in _ASKING_ABROAD)
        if not run:
            if not ends and low not in _LEADING and low not in _THING_JOINS:
                run.append(token)
            continue
        if ends or len(run) >= 6:
            break
        run.append(token)
    while run and run[-1].casefold() in _THING_JOINS:
        run.pop()
    if not run or len(run) > 5:
        return None
    phrase = " ".join(run)
    if all(t.casefold() in _THING_PLAIN or t.casefold() in _GENERIC_KINDS for t in run):
        return None  # "taxi ride": nothing the category does not say ("dinner", "coffee" do: what it was)
    if claims_named(phrase, ctx.claims) or any(t.casefold() in _LEADING for t in run):
        # "dinner with the distributor" on the "… distributor visit" claim: at least which meal it was
        return next((t for t in run if t.casefold() in lexicon.MEALS), None)
    return phrase


# words that say no more than the category does
_GENERIC_KINDS = frozenset("taxi taxis cab cabs uber hotel hotels meal meals food travel expense expenses other room "
                           "rooms night nights nite nites stay accommodation nuit nuits noche noches notte notti nacht "
                           "nächte natt nätter nat nætter noc noci".split())
_NAMED_THING = re.compile(r"(?:^|[,:;]\s*|\b(?:and|plus|also)\s+)(?P<thing>(?:[^\W\d_][\w'’-]*\s+){1,5}?)"
                          r"(?:€\s*|eur\s*)?\d", re.IGNORECASE)
_LEADING = frozenset("yes yeah yep ok okay sure no nope nah add put a an en the bom buen buenos buon hola ola olá ciao my our and plus also for on at in of to i we had got "
                     "paid bought took all both please pls then yesterday today".split()) | lexicon.GREETINGS


def _money_value(raw: str, values: set[Decimal]) -> Decimal | None:
    """The amount a digit run states: "42,50" is 42.50, "1,380.00" 1380, "14,720" (a thousands comma) 14720."""
    token = raw.rstrip(".,")
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?", token):
        return Decimal(token.replace(",", ""))
    if re.fullmatch(r"\d{1,3}(?:\.\d{3})+,\d{1,2}", token):
        return Decimal(token.replace(".", "").replace(",", "."))
    if re.fullmatch(r"\d+[.,]\d{1,2}", token):
        return Decimal(token.replace(",", "."))
    if re.fullmatch(r"\d+", token):
        return Decimal(token)
    return None


def _currency_beside(mentions, start: int, end: int, message: str) -> bool:
    return any((0 <= m.start - end <= 1) or (0 <= start - m.end <= 1) for m in mentions)


def _currency_of(item: Item, mentions, message: str, claim_currency: str | None) -> None:
    """The currency written beside the amount: the claim's when the word may mean it ("kr" on a SEK claim)."""
    for m in mentions:
        gap_after = message[item.amount_end:m.start]
        gap_before = message[m.end:item.amount_start]
        if (m.start >= item.amount_end and not gap_after.strip()) or (m.end <= item.amount_start and not gap_before.strip()):
            item.currency = claim_currency if claim_currency in m.codes else (
                currency_meant(m, reference_currencies()) or "?")
            return


def _split(message: str, items: list[Item]) -> None:
    """One stretch of the message per amount: from the separator after the amount before it to the separator after
    its own amount (or the end). A sentence end always separates."""
    for k, item in enumerate(items):
        if k == 0:
            item.start = 0
        if k + 1 < len(items):
            nxt = items[k + 1]
            gap = message[item.amount_end:nxt.amount_start]
            sep = _SEPARATOR.search(gap)
            cut = item.amount_end + (sep.start() if sep else len(gap))
            item.end = cut
            nxt.start = item.amount_end + (sep.end() if sep else len(gap))
        else:
            item.end = len(message)
        # an item does not run over a sentence end into the next sentence's words
        sentence_end = next((m for m in _STOP.finditer(message, item.amount_end, item.end) if m.group(0) != "\n" or
                             _ASKED_LINE.match(message, m.end())), None)  # a question on the next line is no part of
        # it ("… not 86,50 sry\nwhats the meals limit"); a remark is ("…\nboth work")
        if sentence_end and k + 1 == len(items):
            item.end = sentence_end.start()
    for item in items:  # the head of an item ends at the sentence start before it
        head = message[item.start:item.amount_start]
        cut = max((m.end() for m in _STOP.finditer(head)), default=0)
        item.start += cut


_ASKED_LINE = re.compile(r"[^\n]*\?|\s*(?:what|whats|what's|how|which|is|are|can|could|do|does|when|where|why)\b",
                         re.IGNORECASE)
# a sentence's end, not the dot of a day ("On 9.12. the Uber …": one sentence)
_STOP = re.compile(rf"[!?]\s+|{NOT_AN_END}\.\s+|\n")
_STOP_AT = re.compile(rf"[!?](?=\s|$)|{NOT_AN_END}\.(?=\s|$)|\n")


_BOTH_BY = re.compile(r"\b(?:both|all|each)(?:\s+(?:of\s+them|with|by|on|from|at))?\s+(?P<name>[^\W\d_][\w'’&.-]*)",
                      re.IGNORECASE)


def _shared_merchant(message: str, amounts: list[Item]) -> bool:
    """"… was 89 and the one back was also 89, both Vueling": the name said for all is every item's merchant. False
    when another item names another merchant (which one was paid is for the user to say)."""
    for m in _BOTH_BY.finditer(message):
        holder = next((i for i in amounts if i.start <= m.start("name") < i.end and i.merchant), None)
        if holder is None or not str(holder.merchant).casefold().startswith(m.group("name").casefold()):
            continue
        if any(i.merchant and i.merchant != holder.merchant for i in amounts):
            return False
        for item in amounts:
            item.merchant = holder.merchant
    return True


_MEAL_TIME = re.compile(r"\b(?:after|before|during|over)\s+(?:the\s+)?(?:breakfast|lunch|dinner|brunch)\b", re.IGNORECASE)


def _masked(words: str, today: date) -> str:
    spans = [(d.start, d.end) for d in find_days(words, today)]
    spans += [m.span("place") for m in _PLACE_REACHED.finditer(words)]  # "dinner 58 last nite", "site→hotel"
    spans += [m.span() for m in _MEAL_TIME.finditer(words)]  # "after lunch I took a taxi": when, not what
    spans += [m.span("place") for m in TRAVEL_TIME.finditer(words)]  # "almoço … before the flight 12,80": when
    spans += [m.span("place") for m in ABOARD.finditer(words) if bought_aboard(words, m.start())]  # "Kafi … in the train"
    # a masked word is a mark, not a gap: "like to record the train" must not read as "to the train"
    return "".join(("·" if not ch.isspace() else ch) if any(s <= i < e for s, e in spans) else ch
                   for i, ch in enumerate(words))


def _category(words: str) -> str | None:
    present = {c for c in _categories_in(words) if not all(
        re.search(r"\b(?:to|from|into|at)\s+(?:the\s+|my\s+|our\s+)?$", words[:m.start()], re.IGNORECASE)
        and not re.match(r"park", m.group(0), re.IGNORECASE)
        for m in _CATEGORY_RE[c].finditer(words))}  # "back to the hotel": where it went, not what it was
    if len(present) == 1:
        return next(iter(present))
    if len(present) > 1:
        # the word nearest the start names the thing ("taxi to the airport", "parking at the hotel")
        first = min(present, key=lambda c: _CATEGORY_RE[c].search(words).start())
        return first
    if _OTHER.search(words):
        return "other"
    return None


_RETURN = re.compile(r"\b(?:back|return(?:ed|ing)?|rtn|retour|the\s+way\s+back|home|another)\b", re.IGNORECASE)
_COUNT = re.compile(r"(?<![\d.,])\b(?P<n>\d{1,2}|two|three|four|five|six|seven)\s*(?P<unit>nights?|nites?|nts?|n\b|days?|rides?|"
                    r"tickets?|singles?|returns?)\b", re.IGNORECASE)
_WORD_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}


def _quantity(words: str, item: Item) -> int | None:
    m = _COUNT.search(words)
    if m is None:
        return None
    raw = m.group("n").lower()
    n = int(raw) if raw.isdigit() else _WORD_NUMBERS[raw]
    per = re.search(r"(?:\b(?:a|per|each|/)\s*(?:night|nite|nt|day|ride|ticket)\b|\beach\b|\bea\b)",
                    words[m.end():] + " " + words[:m.start()], re.IGNORECASE)
    if per and item.quantity is None:
        item.amount = item.amount * n  # "164 a night, 2 nights": the line is the stay
    return n if n > 1 else None


def _same_day(own: list[Day], ctx: Context, message: str = "") -> date | None:
    """"same day", "that night", "the day after": counted from the one day the message before said, else from the
    day of the line added last."""
    if not own or own[0].value is not None:
        return None
    offset = relative_offset(message[own[0].start:own[0].end]) if message else 0
    said = {d.value for d in find_days(ctx.previous or "", ctx.today) if d.value is not None}
    anchor = next(iter(said)) if len(said) == 1 else None
    if anchor is None:
        for effect in reversed(ctx.recent or []):
            data = effect.get("data") or {}
            if data.get("date"):
                try:
                    anchor = date.fromisoformat(str(data["date"]))
                except ValueError:
                    return None
                break
    return anchor + timedelta(days=offset) if anchor is not None and offset is not None else None


def _same_day_resolves(own: list[Day], ctx: Context, message: str = "") -> bool:
    return len(own) == 1 and _same_day(own, ctx, message) is not None


def _days_across(message: str, items: list[Item], days: list[Day], ctx: Context) -> None:
    """An item with no day of its own takes the day that heads its sentence's list, else a day said after it in the
    sentence ("lunch 16.40 and coffee 3.90 on Friday", "dinner 41 and taxi 23 both last nite")."""
    for item in items:
        if item.day is not None:
            continue
        sentence_start = max((m.end() for m in _STOP.finditer(message[:item.start])), default=0)
        sentence_end = next((m.start() for m in _STOP_AT.finditer(message[item.end:])), None)
        sentence_end = item.end + sentence_end if sentence_end is not None else len(message)
        first = next((i for i in items if i.start >= sentence_start), item)
        heading = [d for d in days if sentence_start <= d.start and d.end <= first.amount_start and d.value is not None]
        if heading:
            item.day = heading[0].value
            continue
        later = [d for d in days if item.end <= d.start < sentence_end and d.value is not None]
        if later:
            item.day = later[0].value
            continue
        earlier = [d for d in days if d.end <= sentence_start and d.value is not None]
        if earlier and _GOES_ON.match(message[sentence_start:]):
            item.day = earlier[-1].value  # "On the 25th … . In the evening I had dinner …": the same day
            continue
        before = [i for i in items if sentence_start <= i.start and i.end <= item.start and i.day is not None]
        if before and item.category != "hotel" and not ANOTHER_DAY.search(message[item.start:item.end]):
            item.day = before[-1].day  # "Flight … on Monday, and the Uber … 38.25": a day said once covers the
            # sentence (a stay's first night is a day of its own; "the following evening" another day)


_GOES_ON = re.compile(r"\W*(?:in\s+the\s+(?:evening|afternoon|morning)|that\s+(?:evening|night|afternoon)|then|later|"
                      r"afterwards|after\s+that|also|and)\b", re.IGNORECASE)


def _take_back(message: str, items: list[Item]) -> None:
    """"scrap the breakfast", "not the lunch, client paid", "leave the minibar out": the item those words name."""
    for m in _TAKE_BACK.finditer(message):
        what = (m.group("what") or m.group("what2") or m.group("what3") or "").lower()
        named = [i for i in items if what and re.search(rf"\b{re.escape(what)}", message[i.start:i.end], re.IGNORECASE)
                 and not (i.start <= m.start() < i.end)]
        # by its kind only in a word that names the kind ("the taxi", "the meal"), never a thing of it ("the snacks"
        # is no lunch)
        by_category = [i for i in items if i.category in _CATEGORY_RE and _CATEGORY_RE[i.category].fullmatch(what)
                       and what in lexicon.REFERRING_WORDS.get(i.category, frozenset())]
        chosen = named or by_category
        if len(chosen) == 1:
            sentence_end = re.compile(r"[.!?](?=\s|$)|\n").search(message, m.end())
            chosen[0].taken_back = message[m.start():sentence_end.start() if sentence_end else len(message)].strip()
