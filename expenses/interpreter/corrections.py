"""Reading a correction of a line the claim has, told without an edit verb (issue 19), as a pipeline.

"sorry the parking was 9.60 not 9.40", "dinner fri 58 not 55", "wait, the flight was 1,368.40 — I swapped two
digits", "nah make that 64.20", "the hotel is 128 — I misread the 2 as a 1".

1. **find** the new amount (the one not said as what it was *not*) and the old one, if said;
2. **find the line**: the lines the words name by kind, merchant, description, day or old amount — or the line
   the conversation changed last, for "make that …" — and keep it only when exactly one is left;
3. propose ``update_line`` of its amount.

Anything else (two lines named, no line, another new amount, an add verb) is the other readers' to answer. The
plan is then audited like any reading.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from registries.numbers import numbers_found

from . import lexicon
from .audit import _ATOM, _CATEGORY_RE, _values, find_days
from .context import Claim, Context, another_meal, claim_addressed
from .english import known_word

_CUE = re.compile(r"\b(?:was|were|is|are|should\s+(?:be|have\s+been)|actually|really|only|not|instead\s+of|rather\s+than|"
                  r"typo|misread|swapped|mistyped|mistake|wrong|make\s+(?:that|it))\b", re.IGNORECASE)
_STRONG = re.compile(r"\b(?:typo|misread|swapped|mistyped|mistake|wrong|(?:i|we)\s+(?:said|wrote|typed|entered)|should\s+(?:be|have\s+been)|make\s+(?:that|it)|"
                     r"actually|sorry|correct(?:ion)?|oops|meant|misremembered|I\s+was\s+wrong)\b", re.IGNORECASE)
_NOT = re.compile(r"\b(?:not|instead\s+of|rather\s+than|and\s+not)\s+(?:the\s+)?(?:[€$£¥]\s?|(?:eur|usd|gbp|chf|jpy|sek|nok|dkk|pln|"
                  r"czk|cad)\s*)?$", re.IGNORECASE)
_ARROW = re.compile(r"\s*(?:->|→|=>|⇒)\s*(?:[€$£]\s*)?\d")
# after what the user said before, the figure that is right instead, in the same breath: "… it's 124, I always swap
# digits", "… but it's actually 124", "… the receipt says 124" (never "that's correct", nor another thing's price)
_SAID_THEN_RIGHT = re.compile(r"(?:\b(?:but|and)\s+)?\b(?:it'?s|it\s+is|it\s+was|actually|really|in\s+fact|receipt\s+says|"
                              r"should\s+be)\s+(?:actually\s+|really\s+|only\s+)?[€$£]?\d", re.IGNORECASE)
# what the user told before and now takes back: "I said the cab was 142, … it's 124", "I wrote 38 for the lunch"
_SAID_BEFORE = re.compile(r"\b(?:i|we)\s+(?:said|wrote|put|typed|entered|told\s+you|gave\s+you)\s+(?:(?:that\s+)?(?:the|my|our)\s+)?"
                          r"(?:[^\W\d_][\w'’-]*\s+){0,3}?(?:was|were|is|cost|came\s+to|at|as)?\s*(?:[€$£]|eur\s*)?$", re.IGNORECASE)
_ADD = re.compile(r"\b(?:add|adding|plus|also|another|new|put\s+in|enter|include)\b|\+", re.IGNORECASE)
_LAST = re.compile(r"\b(?:make\s+(?:that|it)|that(?:\s+one)?\s+(?:was|is|should)|it\s+(?:was|is|should))\b",
                   re.IGNORECASE)
_ELSE = re.compile(r"\b(?:remove|delete|submit|send|withdraw|undo|open|new\s+claim|what|how|which|why|when|\?|"
                   r"maybe|or|per|each|a\s+night|half|split|date|day)\b", re.IGNORECASE)


# "the dinner was at Zapiecek, not Stary Dom", "it's Café Nero not Costa": a merchant said as what it is and what it
# is not
# an amount said to be right as it is: "180 is fine then, no change needed", "keep it at 60"
_KEPT_AS_IS = re.compile(r"\b(?:no\s+change|nothing\s+to\s+change|(?:is|was|are|looks?|seems?)\s+(?:fine|ok(?:ay)?|right|correct|good)|"
                         r"leave\s+(?:it|that)|keep\s+(?:it|that)|as\s+it\s+is)\b", re.IGNORECASE)
_NAME_WORDS = r"[^\W\d_][\w'’&.-]*(?:\s+[^\W\d_][\w'’&.-]*){0,3}"
_MERCHANT_FIX = re.compile(rf"\b(?:was|is|were|should\s+be|it'?s|its)\s+(?:(?:in\s+fact|actually|really|indeed)\s+)?"
                           rf"(?:at\s+|from\s+|with\s+)?(?:the\s+)?"
                           rf"(?P<new>{_NAME_WORDS})\s*,?\s+(?:and\s+)?(?:not|instead\s+of|rather\s+than)\s+(?:at\s+|from\s+)?"
                           rf"(?:the\s+)?(?P<old>{_NAME_WORDS})\W*$", re.IGNORECASE)


# "the dinner wasn't at Taberna da Rua das Flores, it was at A Cevicheria": what it is not, then what it is
_MERCHANT_FIX_AFTER = re.compile(rf"\b(?:wasn'?t|was\s+not|isn'?t|is\s+not|weren'?t)\s+(?:at\s+|from\s+|with\s+)?(?:the\s+)?"
                                 rf"(?P<old>{_NAME_WORDS}(?:\s+(?:da|de|do|das|dos|del|la|le|di)\s+{_NAME_WORDS})?)\s*[,;]?\s+"
                                 rf"(?:but\s+)?(?:it\s+was|it'?s|its|was|but)\s+(?:at\s+|from\s+|with\s+)?(?:the\s+)?"
                                 rf"(?P<new>{_NAME_WORDS})\W*$", re.IGNORECASE)


def read_merchant_fix(message: str, ctx: Context) -> dict[str, Any] | None:
    """A plan changing one line's merchant, when the words name the old merchant of exactly one line (and, if they
    say a day, that line is of that day)."""
    m = _MERCHANT_FIX.search(message) or _MERCHANT_FIX_AFTER.search(message)
    names = [(m.start(g), m.end(g)) for g in ("new", "old")] if m else []  # "Q8", "7-Eleven": a name's own figures
    unnamed = "".join(" " if any(s <= i < e for s, e in names) else ch for i, ch in enumerate(message))
    if m is None or "update_line" not in ctx.acts or re.search(r"\d", _without_days(unnamed, ctx)) or _ELSE.search(
            _without_days(message[:m.start()], ctx)):
        return None
    claim = claim_addressed(message, ctx) or ctx.default_claim()
    if claim is None or claim.status != "draft":
        return None
    new, old = m.group("new").strip(" .,'’"), m.group("old").strip(" .,'’").lower()
    lines = [line for line in claim.lines if str(line.get("merchant") or "").strip().lower() == old]
    if not lines and len(old) >= 4:  # "wasnt at balzac" for "Balzac Coffee": the first word of one line's merchant
        lines = [line for line in claim.lines if str(line.get("merchant") or "").strip().lower().split()[:1] == [old]]
    days = {d.value.isoformat() for d in find_days(message, ctx.today) if d.value is not None}
    if len(lines) != 1 or (days and lines[0].get("date") not in days) or new.lower() == old or len(new) > 80:
        return None
    new = new[:1].upper() + new[1:] if new.islower() else new  # "it was at elbgold": a name, as names are written
    act = {"id": "c1", "act": "update_line", "case": {"id": claim.id},
           "args": {"line": int(lines[0]["ordinal"]), "merchant": new}, "evidence": message.strip()}
    return {"acts": [act]}


# "line 4 is wrong, that's a taxi not a hotel": a line's kind said as what it is and what it is not
_KIND_FIX = re.compile(r"\b(?:was|is|it'?s|its|that'?s|thats|should\s+be)\s+(?:a|an)?\s*(?P<new>[a-z]+)\s*,?\s+(?:and\s+)?"
                       r"not\s+(?:a|an|the)?\s*(?P<old>[a-z]+)\b", re.IGNORECASE)


_OTHER_FIELD = re.compile(r"\b(?:merchant|name|named|called|amount|date|day|description|read|price|cost|total|title)\b|"
                          r"[\"“”]", re.IGNORECASE)


def read_kind_fix(message: str, ctx: Context) -> dict[str, Any] | None:
    """A plan changing one line's category, when the words say the kind it is and the kind it is not, and name one
    line of the old kind (by its number, or as the claim's only line of that kind)."""
    from .values import find_categories, find_line_refs

    m = _KIND_FIX.search(message)
    if m is None or "update_line" not in ctx.acts:
        return None
    new = {c.category for c in find_categories(m.group("new"))}
    old = {c.category for c in find_categories(m.group("old"))}
    if len(new) != 1 or len(old) != 1 or new == old or re.search(r"\d", _without_refs(message)) or _OTHER_FIELD.search(
            message[:m.start()] + " " + message[m.end():]):
        return None  # a figure, or another field said beside it ("… Merchant should read “Uber Geneva”"): not only this
    claim = claim_addressed(message, ctx) or ctx.default_claim()
    if claim is None or claim.status != "draft":
        return None
    refs = find_line_refs(message)
    if refs:
        ordinals = {r.ordinal for r in refs if r.ordinal is not None}
        lines = [line for line in claim.lines if line["ordinal"] in ordinals]
    else:
        lines = [line for line in claim.lines if line.get("category") in old]
    if len(lines) != 1 or lines[0].get("category") not in old:
        return None  # the line named is not of the kind the words say it was
    act = {"id": "c1", "act": "update_line", "case": {"id": claim.id},
           "args": {"line": int(lines[0]["ordinal"]), "category": new.pop()}, "evidence": message.strip()}
    return {"acts": [act]}


def _without_refs(message: str) -> str:
    return re.sub(r"(?:\b(?:line|item|entry|row|no\.?|number)\s*#?|#)\s*\d{1,3}\b", " ", message, flags=re.IGNORECASE)


_SHOULD_SAY = re.compile(rf"^\W*(?:(?:and|oh|also|ok|sorry)\W+)*(?:line|item|row)\s*#?(?P<n>\d{{1,3}})\s+should\s+"
                         rf"(?:say|read|show|be\s+called|be\s+listed\s+as)\s+(?P<new>{_NAME_WORDS})\s*(?:too|as\s+well)?"
                         rf"\W*$", re.IGNORECASE)


def read_merchant_set(message: str, ctx: Context) -> dict[str, Any] | None:
    """"line 2 should say Vueling": who was paid on the line named by its number (nothing else said)."""
    m = _SHOULD_SAY.match(message)
    if m is None or "update_line" not in ctx.acts:
        return None
    claim = claim_addressed(message, ctx) or ctx.default_claim()
    ordinal = int(m.group("n"))
    if claim is None or claim.status != "draft" or not 1 <= ordinal <= len(claim.lines):
        return None
    new = m.group("new").strip(" .,'’")
    if not new or len(new) > 80 or str(claim.lines[ordinal - 1].get("merchant") or "").lower() == new.lower():
        return None
    act = {"id": "c1", "act": "update_line", "case": {"id": claim.id}, "args": {"line": ordinal, "merchant": new},
           "evidence": message.strip()}
    return {"acts": [act]}


_NOTE_FIELD = r"(?:note|notes|reason|justification|comment|description|explanation)"
_NOTE_TEXT = r"[\"“'‘]?(?P<text>[^\W_].{2,400}?(?:\)(?=[\s.,;:!?]*$))?)[\s.,;:!?\"'”’]*$"  # "… (Fabbri srl)": its bracket kept
# "note for the 54 EUR taxi: …", "add a note to line 8: …", "change the description of line 8 to: …", "line 8
# description should be: …", "for line 7 the reason is: …": what a line is noted with, never a new expense
_NOTES = [re.compile(p, re.IGNORECASE | re.DOTALL) for p in (
    rf"^\W*(?:(?:ok|okay|so|and|also|pls|please|can\s+you|could\s+you)\W+)*(?:add|put|write|attach|record|include|set)?\s*"
    rf"(?:a\s+|the\s+|this\s+)?(?:following\s+|short\s+|small\s+|quick\s+|brief\s+)?{_NOTE_FIELD}\s+(?:for|on|to|of|about)\s+(?P<which>[^:\n]{{1,60}}?)\s*(?::|\s[-–—]\s|,?\s+"
    rf"(?:is|should\s+be|reads?|saying|says|as)\b:?)\s*{_NOTE_TEXT}",
    rf"^\W*(?:(?:ok|okay|so|and|also|pls|please|can\s+you|could\s+you)\W+)*(?:change|set|update|edit|make|put)\s+the\s+"
    rf"{_NOTE_FIELD}\s+(?:of|for|on)\s+(?P<which>[^:\n]{{1,60}}?)\s+(?:to|as)\b\s*:?\s*{_NOTE_TEXT}",
    rf"^\W*(?:(?:ok|okay|so|and|also)\W+)*(?P<which>(?:line|item|row)\s*#?\d{{1,3}})(?:'s)?\s+{_NOTE_FIELD}\s*(?::|\s+"
    rf"(?:should\s+be|is|to|reads?|says?)\b:?)\s*{_NOTE_TEXT}",
    rf"^\W*(?:(?:ok|okay|so|and|also)\W+)*for\s+(?P<which>[^:\n,]{{1,60}}?)\s*,?\s+the\s+{_NOTE_FIELD}\s+(?:is|was)\b\s*:?\s*"
    rf"{_NOTE_TEXT}",
    # "Taxi of 58 on wednesday needs the note: hotel to the airport, early flight" (walk Z4)
    rf"^\W*(?:(?:ok|okay|so|and|also)\W+)*(?:the\s+)?(?P<which>[^:\n]{{1,60}}?)\s+(?:needs|gets|should\s+get|should\s+have)\s+"
    rf"(?:the|a|this)\s+(?:short\s+)?{_NOTE_FIELD}\s*:\s*{_NOTE_TEXT}",
)]


def _note_said(message: str) -> re.Match[str] | None:
    """The words of a note for a line ("note for the taxi: …"): which line, and the note's text."""
    return next((m for p in _NOTES if (m := p.match(message.strip()))), None)


def is_note(message: str) -> bool:
    """Is the message a note for a line ("note for the taxi: …")? Then it never tells a new expense."""
    return _note_said(message) is not None


def note_runs_on(message: str) -> str | None:
    """The words of another request a note's words run on into ("…: airport to hotel, and add the parking 8"), or
    None."""
    m = _note_said(message)
    if m is None:
        return None
    text = m.group("text")
    if (submit := _NOTE_THEN_SUBMIT.search(text)) is not None:
        text = text[:submit.start()]
    return on.group(0).strip(" ,;.") + text[on.end():] if (on := _NOTE_RUNS_ON.search(text)) else None


def read_note(message: str, ctx: Context) -> dict[str, Any] | None:
    """"note for the 54 EUR taxi: hotel to airport with the boxes": the words the line is described with (a reason, a
    route, a note) set on the one line named by its number, amount, merchant, description or kind; None when the
    message is no such note or its line is not exactly one."""
    from .values import find_line_refs

    if "update_line" not in ctx.acts:
        return None
    m = _note_said(message)
    if m is None:
        return None
    claim = claim_addressed(message, ctx) or ctx.default_claim()
    if claim is None or claim.status != "draft" or not claim.lines:
        return None
    which, text = m.group("which"), re.sub(r"^that\s+", "", m.group("text").strip(), flags=re.IGNORECASE)
    submit = _NOTE_THEN_SUBMIT.search(text)
    if submit and re.search(r"\b(?:not|no|hold|wait|don'?t|dont|later|yet|before|after|until)\b", text[:submit.start()],
                            re.IGNORECASE):
        return None  # "line 2 note: Tom, not yet, then submit": whether to submit now is in doubt, asked
    if submit:
        text = text[:submit.start()].rstrip(" ,;")  # "…: outbound flight Dublin-Gdansk, then submit it please"
    if _NOTE_RUNS_ON.search(text):
        return None  # "…: airport to hotel, and add the parking 8": another request, asked about, never a note's words
    if re.match(r"(?:wrong|incorrect|not\s+right|off|bad|weird|strange|garbled|messed|broken|odd)\b", text, re.IGNORECASE):
        return None  # "line 5 description is wrong, … make it lunch": what the note is not, then what to do
    if len(text) > 120:
        return None  # longer than a line's description holds: the user is asked, nothing is cut
    refs = [r for r in find_line_refs(which) if r.ordinal is not None]
    lines = list(claim.lines)
    if refs:
        lines = [line for line in lines if int(line["ordinal"]) == refs[0].ordinal] if len(refs) == 1 else []
    else:
        amounts = {v for a in re.finditer(r"\d+(?:[.,]\d{1,2})?", which) for v in [Decimal(a.group(0).replace(",", "."))]}
        if amounts:
            lines = [line for line in lines if Decimal(str(line.get("amount"))) in amounts]
        rest = re.sub(r"\d+(?:[.,]\d{1,2})?|\b(?:eur|euros?|€)\b|€", " ", which.lower())
        if re.search(r"[a-z]{3,}", re.sub(r"\b(?:the|a|an|one|line|that|this|my)\b", " ", rest)):
            candidates = list(lines)  # "the 54 EUR taxi": the words must fit the line its amount found
            lines = [line for line in candidates if _names(rest, line, candidates)]
    if len(lines) != 1 or str(lines[0].get("description") or "") == text:
        return None
    act = {"id": "n1", "act": "update_line", "case": {"id": claim.id},
           "args": {"line": int(lines[0]["ordinal"]), "description": text}, "evidence": message.strip()}
    if submit:
        return {"acts": [act, {"id": "n2", "act": "submit_claim", "case": {"id": claim.id}, "args": {},
                               "evidence": submit.group(0).strip(" ,;.")}]}
    return {"acts": [act]}


# a note's words that end in a request to submit ("…, then submit it please"): the note, then the submit
_NOTE_THEN_SUBMIT = re.compile(r"(?:[,;.]\s*(?:(?:and|then|&)\s+)*|\s+(?:and\s+then|then|&\s+then)\s+)(?:please\s+|pls\s+|"
                               r"now\s+)?(?<![\w'’])(?:submit|send)(?:\s+(?:it|the\s+claim|the\s+whole\s+thing|everything))?"
                               r"(?:\s+(?:in|off))?(?:\s+(?:please|pls|now|thanks?|thank\s+you))*[\s.!]*$", re.IGNORECASE)
# a note's words that run on into another request: the note is not set, the message is asked about
_NOTE_RUNS_ON = re.compile(r"(?:[,;.]|\b(?:and|then))\s*(?:(?:and|then|also|please|pls|now|can\s+you|could\s+you)\s+)*"
                           r"(?:submit|send|add|remove|delete|drop|change|update|put|open|withdraw|cancel)\b",
                           re.IGNORECASE)


def _valid_day(month: date, day: int) -> bool:
    try:
        month.replace(day=day)
    except ValueError:
        return False
    return True


_DURATION = re.compile(r"\b\d{1,3}\s?(?:h|hrs?|hours?|-hours?|-days?|min|mins|minutes?)\b", re.IGNORECASE)


def read_day_fix(message: str, ctx: Context) -> dict[str, Any] | None:
    """"the metro card was bought on wednesday the 25th, not the 24th": a line's day said as what it is and what it is
    not; the line is the one of the old day the words name (its merchant, description or kind)."""
    # "…on the 1. of December, not the 30.": the old day said by its number alone, in the new day's month
    bare = re.search(r"\bnot\s+(?:on\s+)?(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\.?\s*$", message.strip(), re.IGNORECASE)
    said = message.strip()[:bare.start()] if bare else message
    if "update_line" not in ctx.acts or _ADD.search(said) or re.search(r"\d", _DURATION.sub(" ", _without_days(said, ctx))):
        return None  # (a ticket's "72h" is what it was, no number of the fix)
    days = [d for d in find_days(said, ctx.today) if d.value is not None]
    olds = [d for d in days if _NOT.search(said[max(0, d.start - 16):d.start])]
    news = [d for d in days if d not in olds]
    if bare and not olds and len({d.value for d in news}) == 1:
        claim = claim_addressed(said, ctx) or ctx.default_claim()
        on_lines = {str(line.get("date")) for line in (claim.lines if claim else ())}
        day_of_month = int(bare.group(1))
        # the old day is a day a line of the claim is on: in the new day's month or the month before
        first = news[0].value.replace(day=1)
        candidates = [first - timedelta(days=1), first]
        olds = [replace(news[0], value=c.replace(day=day_of_month)) for c in candidates
                if day_of_month <= 31 and _valid_day(c, day_of_month) and c.replace(day=day_of_month).isoformat() in on_lines]
        if len(olds) != 1:
            return None
    whole, message = message, said
    if len(olds) != 1 or not news or len({d.value for d in news}) != 1 or olds[0].value == news[0].value:
        return None
    if _ELSE.search(re.sub(r"\bday\b|\bdate\b(?=\s+(?:was|is|should\s+be)\b)", " ", _without_days(message, ctx))):
        return None
    claim = claim_addressed(message, ctx) or ctx.default_claim()
    if claim is None or claim.status != "draft":
        return None
    lowered = _without_days(message, ctx).lower()
    # "not wed" told on a Wednesday: today's or last week's, whichever the line named is on
    was = {olds[0].value} | ({ctx.today} if (ctx.today - olds[0].value).days == 7 and re.fullmatch(
        r"(?:on\s+)?[a-z]{3,9}\.?", said[olds[0].start:olds[0].end].strip(), re.IGNORECASE) else set())
    lines = [line for day in was for line in claim.lines if line.get("date") == day.isoformat()
             and _names(lowered, line, [x for x in claim.lines if x.get("date") == day.isoformat()])]
    if len(lines) != 1:
        return None
    act = {"id": "c1", "act": "update_line", "case": {"id": claim.id},
           "args": {"line": int(lines[0]["ordinal"]), "date": news[0].value.isoformat()}, "evidence": whole.strip()}
    return {"acts": [act]}


def read_correction(message: str, ctx: Context) -> dict[str, Any] | None:
    """A plan changing one line's amount, or None when the message is not such a correction or its line is unsure."""
    from .values import find_line_refs

    if lexicon.ONE_OF_THEM.search(message) and not find_line_refs(message):
        return None  # "one of the train tickets was 3.60 rather than 3.00": which one, the reader asks
    if (fix := read_merchant_fix(message, ctx) or read_kind_fix(message, ctx) or read_day_fix(message, ctx)) is not None:
        return fix
    if not (_CUE.search(message) or _ARROW.search(message)) or _ADD.search(message) or _ELSE.search(
            _without_days(message, ctx)):
        return None
    if _KEPT_AS_IS.search(message) or _MERCHANT_FIX.search(message) or _MERCHANT_FIX_AFTER.search(message) or re.search(
            r"\b(?:rename|merchant|name)\b", message, re.IGNORECASE):
        return None  # "180 is fine then, no change needed. But … it was Clarion, not Scandic": no amount to change
    if "update_line" not in ctx.acts:
        return None
    claim = claim_addressed(message, ctx) or ctx.default_claim()
    if claim is None or claim.status != "draft" or not claim.lines:
        return None
    new, old = _amounts(message, ctx)
    if old is not None and re.search(r"\b(?:i|we)\s+(?:said|wrote|put|typed|entered|told\s+you|gave\s+you)\b", message,
                                     re.IGNORECASE) and not _SAID_THEN_RIGHT.search(message):
        return None  # "I entered the taxi at 142, that's correct. Parking was 12": what was said, then something else
    if new is None or (old is None and not _STRONG.search(message) and not _kind_and_day(message, ctx, claim)):
        return None  # "the taxi was 38" alone may be a new taxi: said "not 35", "typo", "make that", it corrects
    line = _line(message, ctx, claim, old)
    if line is None or str(line.get("amount")) == f"{new:.2f}":
        return None
    from .items import merchants_in

    names = [n.lower() for n in merchants_in(message, message)]
    if names and not any(n in str(line.get("merchant") or "").lower() for n in names):
        return None  # "the Markthal parking" names a merchant this line is not
    act = {"id": "c1", "act": "update_line", "case": {"id": claim.id},
           "args": {"line": int(line["ordinal"]), "amount": f"{new:.2f}"}, "evidence": message.strip()}
    return {"acts": [act]}


def _kind_and_day(message: str, ctx: Context, claim: Claim) -> bool:
    """"Lunch on the 2nd was 25.20": the words name a kind and a day, and the claim has one line of both."""
    days = {d.value.isoformat() for d in find_days(message, ctx.today) if d.value is not None}
    if len(days) != 1 or not re.search(r"\b(?:was|were|is|came\s+to)\b", message, re.IGNORECASE):
        return False
    lowered = message.lower()
    alike = [line for line in claim.lines if line.get("date") in days and str(line.get("category")) in _CATEGORY_RE
             and _CATEGORY_RE[str(line.get("category"))].search(lowered)]
    return len(alike) == 1


def _without_days(message: str, ctx: Context) -> str:
    spans = [(d.start, d.end) for d in find_days(message, ctx.today)]
    return "".join(" " if any(s <= i < e for s, e in spans) else ch for i, ch in enumerate(message))


def _amounts(message: str, ctx: Context) -> tuple[Decimal | None, Decimal | None]:
    """(the new amount, the old one said as what it was not): "58 not 55" → (58, 55)."""
    days = [(d.start, d.end) for d in find_days(message, ctx.today)]
    new: list[Decimal] = []
    old: list[Decimal] = []
    for m in _ATOM.finditer(message):
        if any(s <= m.start() < e for s, e in days) or re.match(r"(?:st|nd|rd|th)\b", message[m.end():m.end() + 2]):
            continue
        values = _values(m.group(0))
        value = _plain(m.group(0), values)
        if value is None:
            return None, None
        if re.fullmatch(r"\d", m.group(0)) and re.search(r"\b(?:the|a|an)\s*$", message[:m.start()]):
            continue  # "I misread the 2 as a 1": digits, not amounts
        if re.search(r"(?:\b(?:line|item|entry|row|no\.?|number)\s*#?|#)\s*$", message[:m.start()], re.IGNORECASE):
            continue  # "line 4 is wrong": which line, not an amount
        (old if _NOT.search(message[max(0, m.start() - 16):m.start()]) or _ARROW.match(message, m.end()) or _SAID_BEFORE.search(
            message[max(0, m.start() - 60):m.start()]) else new).append(
            value)  # "pret 18.40 -> 14.80": what it was, then what it is
    if len(new) != 1 or len(old) > 1:
        return None, None
    return new[0], (old[0] if old else None)


def _plain(raw: str, values: set[Decimal]) -> Decimal | None:
    token = raw.rstrip(".,")
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?", token):
        return Decimal(token.replace(",", ""))
    if re.fullmatch(r"\d+(?:[.,]\d{1,2})?", token):
        return Decimal(token.replace(",", "."))
    return None


def _line(message: str, ctx: Context, claim: Claim, old: Decimal | None) -> dict[str, Any] | None:
    """The one line the words name: by its old amount, kind, merchant, description or day; "make that …" names the
    line the conversation changed last."""
    lines = list(claim.lines)
    if old is not None:
        lines = [line for line in lines if Decimal(str(line.get("amount"))) == old]
    lowered = message.lower()
    named = [line for line in lines if _names(lowered, line, list(claim.lines))]
    days = {d.value.isoformat() for d in find_days(message, ctx.today) if d.value is not None}
    if not named and days:  # "Lunch on the 2nd was 25.20": of its kind, on its day
        named = [line for line in lines if line.get("date") in days and str(line.get("category")) in _CATEGORY_RE
                 and _CATEGORY_RE[str(line.get("category"))].search(lowered)]
    if named:
        lines = named
    elif old is None:
        last = _last_line(ctx, claim) if _LAST.search(message) else None
        return last
    if days and len(lines) > 1:
        lines = [line for line in lines if line.get("date") in days]
    return lines[0] if len(lines) == 1 else None


def _names(lowered: str, line: dict[str, Any], lines: list[dict[str, Any]]) -> bool:
    """Do the words name this line: its merchant or description, or its kind when the claim has one of that kind?
    "The lunch" never names a line told as a dinner."""
    if another_meal(set(re.findall(r"[a-z]+", lowered)), line):
        return False
    category = str(line.get("category") or "")
    merchant = str(line.get("merchant") or "")
    if re.fullmatch(r"[A-Z]{3}", merchant.strip()) and not known_word(merchant.strip().lower()) and re.search(
            rf"\b{re.escape(merchant.strip().lower())}\b", lowered):
        return True  # "BVG ticket date was 11 june": a merchant known by its three capitals, named
    own = set(re.findall(r"[a-zà-ÿ]+", f"{line.get('merchant') or ''} {line.get('description') or ''}".lower()))
    specific = {w for w in re.findall(r"[a-z]+", lowered) if lexicon.CATEGORY_WORDS.get(w) == category
                and w not in lexicon.REFERRING_WORDS.get(category, frozenset())}
    if specific and own and not specific & own and not any(w.rstrip("s") in own or w + "s" in own for w in specific):
        return False  # "the coffee and pastries" never name the meals line told "for the workshop" (the sandwiches)
    if category in _CATEGORY_RE and _CATEGORY_RE[category].search(lowered) and sum(
            1 for other in lines if other.get("category") == category) == 1:
        return True
    for field in ("merchant", "description"):
        words = [w for w in re.findall(r"[a-zà-ÿ]{4,}", str(line.get(field) or "").lower())
                 if w not in ("hotel", "the", "from", "with", "taxi")]
        if any(re.search(rf"\b{re.escape(w)}\b", lowered) for w in words):
            return True
    return False


def _last_line(ctx: Context, claim: Claim) -> dict[str, Any] | None:
    """The line the conversation's last effect added or changed on this claim."""
    for effect in reversed(ctx.recent or []):
        data = effect.get("data") or {}
        if effect.get("case") == claim.id and data.get("line_id"):
            return next((line for line in claim.lines if line.get("id") == data["line_id"]), None)
    return None


# "the hotel was 2 nights not 3, so 238", "no sorry, it was only 2 nights, not 3, so 830 zł", "the Mercure row should
# be 2 nights only, 275.00": a stay's count of nights corrected, with its new total when said
_COUNT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10}
_COUNT = r"\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten"
_NIGHTS_SAID = re.compile(rf"\b(?P<n>{_COUNT})\s*(?:nights?|nites?|nts?|noches|notti|nuits|nächte|nachten|nætter|"
                          rf"netter|nätter|noce|nocy)\b(?:\s+only)?", re.IGNORECASE)
_NIGHTS_CUE = re.compile(r"\b(?:was|were|is|are|should\s+(?:be|have\s+been)|shd\s+be|stayed|it'?s|its|only|just|for)\s+"
                         r"(?:(?:only|just|actually|really|in\s+fact|then)\s+)*$", re.IGNORECASE)
_OLD_NIGHTS = re.compile(rf"\s*,?\s*(?:and\s+)?(?:not|instead\s+of|rather\s+than)\s+(?:the\s+)?(?P<old>{_COUNT})\b"
                         r"(?:\s*(?:nights?|nites?|nts?))?", re.IGNORECASE)
_NIGHTS_THEN = re.compile(r"\s*(?:so|that'?s|thats|which\s+(?:is|makes)|=|making|total(?:\s+of)?|in\s+total|"
                          r"for\s+a\s+total\s+of)\b", re.IGNORECASE)
_PER_NIGHT_AFTER = re.compile(r"\s*(?:[€$£]|eur\b|euros?\b|[a-z]{3}\b|kr\b|zł)?\s*(?:a|per|/|each|every)\s*(?:night|nite|nt)?",
                              re.IGNORECASE)
# how the one stay is referred to when its count is corrected: "it", "the hotel", "the stay", "the room", "that"
_A_STAY_CORRECTED = re.compile(r"(?:^|\b(?:it|that|this|hotel|stay|room|booking|row|line|no|sorry|oops|correction|mistake|"
                               r"actually|she|he|i|we|they)\b)\W*(?:\w+\W+){0,3}?(?:was|were|is|should\s+(?:be|have\s+been)|shd\s+be|"
                               r"only|just|stayed)"
                               r"\W*(?:\w+\W*){0,2}$", re.IGNORECASE)
_ANOTHER_STAY = re.compile(r"\b(?:another|second|2nd|third|other|new|first|then|also)\b|\b(?:in|at)\s+(?:the\s+)?[A-Z]\w+")
# a sentence that only says the nightly rate: "165 a night.", "€ 139 per night"
_RATE_ALONE = re.compile(r"\W*(?:(?:same|still|at|it'?s|its)\s+)?(?:[€$£]\s*)?\d[\d.,]*\s*(?:[€$£]|eur\b|euros?\b|[a-z]{3}\b|kr\b)?\s*"
                         r"(?:a|per|/|each|every)\s*(?:night|nite|nt)\W*", re.IGNORECASE)
_NIGHTS_ADD = re.compile(r"\b(?:add|another|new|extra|more|also\s+add|plus)\b", re.IGNORECASE)


def _count(word: str) -> int:
    return int(word) if word.isdigit() else _COUNT_WORDS[word.lower()]


_RATE_FOR_THE_OLD = re.compile(r"^\W*(?:x|×|at|@)\s*(?:[€$£]\s*)?(?P<new>\d+(?:[.,]\d{1,2})?)\s*(?:[€$£]|eur|euros?)?"
                               r"(?:\s*(?:a|per|/)\s*(?:night|nite|nt))?\s*,?\s*(?:not|instead\s+of)\s+(?:[€$£]\s*)?"
                               r"(?P<old>\d+(?:[.,]\d{1,2})?)\b", re.IGNORECASE)


def _rate_for_the_old(after: str, count: int, total: Decimal) -> Decimal | None:
    """"3 nights x 189, not 198": the new rate a night, when the old one times the nights is the stay's sum."""
    m = _RATE_FOR_THE_OLD.match(after)
    if m is None:
        return None
    new, old = (Decimal(m.group(g).replace(",", ".")) for g in ("new", "old"))
    return new if old * count == total and new != old else None


def read_nights_fix(message: str, ctx: Context) -> tuple[dict[str, Any], tuple[int, int]] | None:
    """A hotel line's number of nights corrected ("the hotel was 2 nights not 3, so 238"): the plan (its new count,
    and its new amount when the words say one; else a question that offers the sum at the line's own rate) and the
    span of the message it read. None when the words are no such correction or do not name exactly one stay."""
    from .clauses import sentences

    if "update_line" not in ctx.acts:
        return None
    parts = [(s, e, q) for s, e, q in sentences(message)]
    for index, (s, e, asked) in enumerate(parts):
        if asked or re.match(r"\W*(?:how|what|whats|what's|can|could|may|is|are|do|does|would|should\s+i)\b", message[s:e],
                             re.IGNORECASE):
            continue  # "how much is 3 nights at 165?": asked, not told
        for m in _NIGHTS_SAID.finditer(message, s, e):
            old = _OLD_NIGHTS.match(message, m.end(), e)
            if not (_NIGHTS_CUE.search(message[max(s, m.start() - 40):m.start()]) or old) or _NIGHTS_ADD.search(
                    message[s:m.start()]):
                continue
            end = e
            if index + 1 < len(parts) and (_NIGHTS_THEN.match(message, parts[index + 1][0]) and not re.search(
                    r"[a-z]{3,}\s+\d", message[parts[index + 1][0]:parts[index + 1][1]], re.IGNORECASE) or _RATE_ALONE.fullmatch(
                    message, parts[index + 1][0], parts[index + 1][1])):
                end = parts[index + 1][1]  # "… 2 nights not 3, check-out was 27.11. So 258 EUR.", "… not 3. 165 a night."
            found = _nights_plan(message, ctx, s, m, old, end)
            if found is not None:
                return found, (s, end)
    return None


def _nights_plan(message: str, ctx: Context, start: int, m: re.Match[str], old: re.Match[str] | None,
                 end: int) -> dict[str, Any] | None:
    claim = claim_addressed(message, ctx) or ctx.default_claim()
    if claim is None or claim.status != "draft":
        return None
    stays = [line for line in claim.lines if line.get("category") == "hotel"]
    subject = message[start:m.start()].lower()
    span = message[start:end].lower()
    named = [line for line in stays if any(
        len(w) >= 4 and re.search(rf"\b{re.escape(w)}\b", span) for w in re.findall(
            r"[^\W\d_]+", str(line.get("merchant") or "").lower()) if w not in ("hotel", "hotels"))]
    if len(named) == 1:
        line = named[0]
    elif len(stays) == 1 and not named and _A_STAY_CORRECTED.search(subject) and not _ANOTHER_STAY.search(span) and not \
            re.search(r"(?<!^)(?<![.!?]\s)\b(?!(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
                      r"[a-z]*\b)[A-Z][a-zà-ÿ]{2,}", message[m.end():end]):
        # "it was only 2 nights", "the hotel was 2 nights not 3": the one stay, said as a correction; never "stayed 2
        # nights at Westin", "the second hotel is 2 nights", nor a name said after the count
        line = stays[0]
    else:
        return None
    count = _count(m.group("n"))
    had = int(line.get("quantity") or 0) or None
    was = _count(old.group("old")) if old else None
    if was is not None and had is not None and was != had or count == (was or had):
        return None  # "not 3" of a stay of 2 nights: which stay? Or no change at all
    skip = {(m.start(), m.end())} | ({(old.start(), old.end())} if old else set())
    days = [(d.start, d.end) for d in find_days(message[:end], ctx.today)]
    amounts = []
    for n in numbers_found(message[:end]):
        if n.start < m.end() or any(a <= n.start < b for a, b in skip | set(days)):
            continue
        after = message[n.end:end]
        if _PER_NIGHT_AFTER.match(after) and re.match(r"\s*\S*\s*(?:a|per|/|each|every)\b", after, re.IGNORECASE):
            continue  # "2 nights at 279 a night, so 558": the rate, not the stay
        if re.search(r"\b(?:at|@|x|×|of)\s*(?:[€$£]\s*)?$", message[max(m.end(), n.start - 6):n.start], re.IGNORECASE):
            continue  # "2 nights at 279", "2 nights of €124"
        if re.search(r"\b(?:not|instead\s+of|rather\s+than)\s+(?:[€$£]\s*)?$", message[max(0, n.start - 14):n.start],
                     re.IGNORECASE):
            continue  # "558.00, not 598.00": what it was
        amounts.append(n)
    if re.search(r"\b(?:each|per|every|a\s+night|nightly)\b|/\s*(?:night|nt)", message[m.end():end], re.IGNORECASE):
        # "the hotel was 2 nights, the 172 is for each night": a rate said, so the stay's sum only where it is said
        amounts = [n for n in amounts if re.search(r"(?:\bso|=|\btotal(?:\s+of)?|\bthat'?s|\bmaking|\bcomes?\s+to|"
                                                   r"\bin\s+all)\s*(?:[€$£]\s*)?$", message[max(0, n.start - 16):n.start],
                                                   re.IGNORECASE)]
        if not amounts:
            rates = {n.value for n in numbers_found(message[:end]) if n.start >= m.end() and not any(
                a <= n.start < b for a, b in skip | set(days)) and re.match(
                r"\s*(?:[€$£]|eur\b|euros?\b)?\s*(?:is\s+|was\s+)?(?:for\s+)?(?:each|per|every|a)\s*(?:night|nite|nt)\b|\s*each\b",
                message[n.end:end], re.IGNORECASE)}
            if len(rates) != 1:
                return None
            rate = rates.pop()
            text = (f"Line {int(line['ordinal'])} ({line.get('merchant') or 'the hotel'}) is "
                    f"{Decimal(str(line.get('amount'))):.2f} {claim.currency}. At {rate:.2f} a night, {count} nights come "
                    f"to {rate * count:.2f}. Say the amount, and I will change it.")
            return {"acts": [], "answers": [{"question": message[start:end].strip()[:2000], "text": text}],
                    "pending": {"question": text, "act": "update_line", "case": {"id": claim.id},
                                "args": {"line": int(line["ordinal"]), "quantity": count}, "missing": ["amount"]}}
    nights_before = (_count(old.group("old")) if old else None) or int(line.get("quantity") or 0) or None
    if nights_before and any(n.value * nights_before == Decimal(str(line.get("amount"))) and n.value * count != n.value
                             for n in amounts):
        amounts = []  # "3 nights … not 2, same 65": the rate the stay already had, not its new sum: offered
    values = {n.value for n in amounts}
    quote = message[start:end].strip()
    ordinal = int(line["ordinal"])
    if not values and (rate := _rate_for_the_old(message[m.end():end], count, Decimal(str(line.get("amount"))))):
        values = {rate * count}  # "hotel was 3 nights x 189, not 198" on a stay of 594 (3 × 198): 3 × 189
    if len(values) > 1:
        return None
    if values:
        amount = values.pop()
        act = {"id": "n1", "act": "update_line", "case": {"id": claim.id},
               "args": {"line": ordinal, "quantity": count, "amount": f"{amount:.2f}"}, "evidence": quote}
        return {"acts": [act]}
    nights = was or had
    name = str(line.get("merchant") or "the hotel")
    total = Decimal(str(line.get("amount")))
    offer = ""
    if nights:
        rate = total / nights
        if rate == rate.quantize(Decimal("0.01")):
            offer = f" At {rate:.2f} a night, {count} nights come to {rate * count:.2f}."
    text = (f"Line {ordinal} ({name}) is {total:.2f} {claim.currency}" + (f" for {nights} nights" if nights else "")
            + f".{offer} What is the total for {count} nights? Say the amount, and I will change it.")
    # the count is kept with the question: the answer ("278,00", "yes, 278") completes the change with its amount
    return {"acts": [], "answers": [{"question": quote[:2000], "text": text}],
            "pending": {"question": text, "act": "update_line", "case": {"id": claim.id},
                        "args": {"line": ordinal, "quantity": count}, "missing": ["amount"]}}


# a line taken off the claim, with the reason around it: "remove nordsee pls colleague paid", "the dinner at Lutter &
# Wegner has to go, the client picked up the bill", "the lunch of 28,40 was personal, please take it out"
_REMOVAL = re.compile(r"\b(?:remove|delete|drop(?!\s*-?\s*off)|scratch|scrap|strike\s+(?:out|off|through)|erase|rm|ditch|cross\s+out|get\s+rid\s+of|"
                      r"forget(?:\s+about)?(?=\s+(?:the|my|that)\s+[^\W\d_])|"  # "forget the parking, the client paid it"
                      r"take\s+(?:(?:(?:it|that|this|them|those)(?:\s+ones?)?|the\s+\w+(?:\s+\w+)?|\w+)\s+)?(?:off|out)|"
                      r"(?:has|have|needs?)\s+to\s+go(?=\s*(?:[,.;!—–-]|$))|leave\s+(?:it|that|this|(?:the\s+)?\w+(?:\s+\w+)?)\s+out)\b",
                      re.IGNORECASE)
# a thing and "out", no verb: "pret lunch out, client paid it", "minibar out pls"; "del lunch 1.12." (a phone's "delete")
_THING_OUT = re.compile(r"(?<=[^\W\d_])\s+out(?=\s*(?:[,.;!—–]|$)|\s+(?:pls|please|plz|too|as\s+well|and|then)\b)|"
                        r"^\s*del\b(?=\s+[^\W\d_])", re.IGNORECASE)
# where "out" is no removal: "checked out", "ate out", "a night out", "took the client out"
_NOT_OUT = re.compile(r"\b(?:check(?:ed|ing)?|eat(?:ing)?|ate|dined?|dining|went|go(?:ing)?|night|day|evening|time|way|sold|"
                      r"print(?:ed)?|paid|pay|cash|log(?:ged)?|sign(?:ed)?|took|take|taking|brought|worked|work|found|"
                      r"figured|sorted|left|leave|leaving|moved|ran|run|set)(?:\s+[\w']+){0,3}$|\d", re.IGNORECASE)
def removals_said(message: str) -> list[tuple[int, int]]:
    """Where the message asks for something to go, in any of the ways read here ("remove …", "pret out", "del …")."""
    return [m.span() for m in [*_REMOVAL.finditer(message), *_verbless_removals(message)]]


def _verbless_removals(message: str) -> list[re.Match[str]]:
    return [m for m in _THING_OUT.finditer(message) if not _NOT_OUT.search(message[:m.start()])]


def _verb_blanked(removal: str) -> str:
    """The removal's own words blanked, the thing inside it kept ("leave the Albertina out": "Albertina")."""
    inner = re.fullmatch(r"(?P<verb>(?:leave|take)\s+)(?P<thing>.+?)(?P<rest>\s+(?:out|off))", removal, re.IGNORECASE)
    if inner is None or re.fullmatch(r"(?:it|that|this|them|those)", inner.group("thing"), re.IGNORECASE):
        return " " * len(removal)
    return " " * len(inner.group("verb")) + inner.group("thing") + " " * len(inner.group("rest"))


_GENERIC_NAME_WORDS = frozenset("hotel cafe café restaurant taxi the line lines from with for and airport station".split())
# words that keep a line, or name another one beside it ("remove the taxi, the uber was fine", "not the dinner"), or
# take away only a part or a field of it ("the tip", "the description"): never one removal read from the message
_NOT_A_REMOVAL = re.compile(r"\b(?:keep|keeps|kept|stay|stays|fine|ok|okay|correct|right|instead|but\s+add|undo|again|back|"
                            r"not\s+(?:the|that|this|my|our)|duplicate|double|twice|description|note|notes|merchant|name|"
                            r"category|tip|tips|field|part|half|vat|tax|wine|drinks?)\b|\?|\b\w+\s+(?:from|of|out\s+of|off)\s+"
                            r"the\b", re.IGNORECASE)
# a negation just before the removal: "don't remove the taxi", "no need to drop it"
# (never "no" said as sorry: "ah no scusa, forget the dinner of tuesday, the distributor paid it")
_REMOVAL_NEGATED = re.compile(r"\b(?:not|don'?t|dont|do\s+not|never|no\s+need\s+to|no(?!\W+(?:sorry|sry|scusa|scusi|perd[oó]n|"
                              r"pardon|wait|actually|oops|entschuldigung|désolé|desole)\b))\W+(?:\w+\W+){0,2}$", re.IGNORECASE)
# why it goes, in words that would otherwise read as a request: "the customer has paid it for me", "colleague paid"
# "forget the dinner receipt", "forget the tip on the dinner": a part of a line or its paper, never the line
_FORGET_A_PART = re.compile(r"\bforget(?:\s+about)?\s+(?:the|my|that)\s+(?:\w+\s+)?(?:receipts?|amount|thing|tip|vat|tax|"
                            r"description|merchant|number|date|day|paper|invoice|bill|part)\b", re.IGNORECASE)
_PAID_BY_OTHERS = re.compile(r"\b(?:colleague|customer|client|company|host|hosts|boss|manager|partner|someone|somebody|"
                             r"he|she|they|we|organi[sz]ers?|employer|office|firm)\b(?:\s+\w+){0,2}?\s+(?:has\s+|had\s+|have\s+|"
                             r"already\s+|actually\s+)*(?:paid|covered|picked\s+up|took\s+care\s+of|settled)\b", re.IGNORECASE)


def _unpaid(text: str) -> str:
    """The words with who paid it blanked (``_PAID_BY_OTHERS``, ``clauses.OTHERS_PAID_IT``): why a line goes, which
    names no line and asks for nothing ("take it off, the museum paid it directly", "I got refunded")."""
    from .clauses import OTHERS_PAID_IT

    for pattern in (_PAID_BY_OTHERS, OTHERS_PAID_IT):
        text = pattern.sub(lambda m: " " * len(m.group(0)), text)
    return text


def _things_named(words: str) -> int:
    """How many things the words name: kind words and capitalised or known names ("the cabify and the dinner": 2)."""
    from .items import merchants_in
    from .values import find_categories

    return len(find_categories(words)) + len(merchants_in(words, words))


def _kind_told_of_others(word: str, line: dict[str, Any], lines: Any) -> bool:
    """Is the description's ``word`` a kind of expense ("lunch") that another line of the same category, told with no
    words of its own (no description, no merchant), may be too? Then it names none of them ("remove the lunch" of four meals, one told "lunch")."""
    if word not in lexicon.CATEGORY_WORDS and not any(word in ws for ws in lexicon.REFERRING_WORDS.values()):
        return False
    return any(other is not line and other.get("category") == line.get("category") and not other.get("description")
               and not other.get("merchant") for other in lines)


def read_removal(message: str, ctx: Context) -> dict[str, Any] | None:
    """A plan removing the one line the words name (by merchant, description, kind, day or amount), when the message
    asks for nothing else: its other words only say why ("the customer paid it", "it was personal"). The removal is
    confirmed on a card, which names the line."""
    from .clauses import OTHERS_PAID_IT, verb_of

    if "remove_line" not in ctx.acts:
        return None
    found = list(_REMOVAL.finditer(message))
    if any(m.group(0).lower().startswith("forget") for m in found) and (
            not (_PAID_BY_OTHERS.search(message) or OTHERS_PAID_IT.search(message)) or re.search(r"\d", message)
            or _FORGET_A_PART.search(message)):
        return None  # "forget the parking" removes only when someone else paid it; never "forget the parking, it was
        # 12 not 15", "forget the dinner receipt", "forget the tip on the dinner"
    verbless = not found  # "pret lunch out", "del lunch 1.12.": no removal verb, only "out" or a phone's "del"
    found = found or _verbless_removals(message)
    if len(found) != 1 or _NOT_A_REMOVAL.search(message) or _REMOVAL_NEGATED.search(message[:found[0].start()]):
        return None
    said = message[:found[0].start()] + _verb_blanked(found[0].group(0)) + message[found[0].end():]
    if verb_of(_unpaid(said))[0] is not None:
        return None  # another request beside it ("… and submit it")
    claim = claim_addressed(message, ctx) or ctx.default_claim()
    if claim is None or claim.status != "draft" or not claim.lines:
        return None
    # the line is named in the removal's own clause; the other clauses only say why ("…, the customer paid it")
    clause_start = max([m.end() for m in re.finditer(r"[,.;:!—–]\s|\s-\s|\bbut\b", message[:found[0].start()])],
                       default=0)
    ends = [m.start() for m in re.finditer(r"[,;:!—–]\s|[,;:!]$|(?<!\d)\.(?:\s|$)|\s-\s|\bbut\b", message[found[0].end():])]
    # ("del lunch 18.11.": the dot is the day's)
    clause = message[clause_start:found[0].end() + (ends[0] if ends else len(message))]
    # (who paid it names no line: "take it out please, the client paid it" is never the "client dinner")
    unpaid = _unpaid(message)
    if re.search(r"\b(?:it|that|this|them|those)\b", found[0].group(0), re.IGNORECASE) or re.search(
            r"\bgo\b", found[0].group(0), re.IGNORECASE):
        clause, clause_start = unpaid, 0  # "take it off", "… has to go": the thing is named elsewhere in the message
    named_anywhere = [line for line in claim.lines if any(
        len(w) >= 4 and w not in _GENERIC_NAME_WORDS and re.search(rf"\b{re.escape(w)}\b", unpaid.lower())
        for w in re.findall(r"[^\W\d_]+", str(line.get("merchant") or "").lower()))]
    if len(named_anywhere) > 1:
        return None  # "nordsee lunch can stay, drop augustiner": two lines named, one kept
    if re.search(r"\b(?:and|plus|also|both)\b|&|,\s*(?:the|my)\b", message[found[0].end():found[0].end() + 60], re.IGNORECASE) and \
            not re.search(r"\b(?:it|that|this)\b", found[0].group(0), re.IGNORECASE) and re.search(
                r"\b(?:and|plus|&)\s+(?:the|my|that|this)?\s*[a-z]+", clause[found[0].end() - clause_start:], re.IGNORECASE) and \
            _things_named(clause[found[0].end() - clause_start:]) > 1:
        return None  # "delete the cabify and the dinner": two lines, for the reading that removes several
    said = clause[:found[0].start() - clause_start] + _verb_blanked(found[0].group(0)) + \
        clause[found[0].end() - clause_start:]
    lowered = _without_days(said, ctx).lower()
    days = {d.value.isoformat() for d in find_days(said, ctx.today) if d.value is not None}
    if any(d.value is None for d in find_days(said, ctx.today)):
        return None
    numbers = {n.value for n in numbers_found(re.sub(r"\b(?:that|this|the|which|last|first)\s+ones?\b", " ",
                                                     _without_days(said, ctx), flags=re.IGNORECASE))}  # ("take that one
    # off": which line, no amount of one)
    own = {id(line): set(re.findall(r"[^\W\d_]+", f"{line.get('merchant') or ''} {line.get('description') or ''}".lower()))
           for line in claim.lines}
    by_name = [line for line in claim.lines if any(
        len(w) >= 4 and w not in _GENERIC_NAME_WORDS and re.search(rf"\b{re.escape(w)}\b", lowered)
        for w in re.findall(r"[^\W\d_]+", str(line.get("merchant") or "").lower()))]
    if len(by_name) == 1:
        lines = by_name  # "remove nordsee", "delete the Bewleys line": the one line paid to it
    else:
        # by what it was ("scratch the parking") or its amount ("the lunch of 28,40"), never by its kind alone (the
        # ordinary reading asks which line when "the taxi" is one of several); a thing said that the line is not told
        # as ("the tram tickets", "the sandwich" for a meals line told as nothing) names no line
        things = {w for w in re.findall(r"[a-z]+", lowered) if w in lexicon.CATEGORY_WORDS
                  and w not in lexicon.WEAK_CATEGORY_WORDS and w not in lexicon.REFERRING_WORDS.get(
                      lexicon.CATEGORY_WORDS[w], frozenset())}
        lines = [line for line in claim.lines if any(
            len(w) >= 4 and w not in _GENERIC_NAME_WORDS and re.search(rf"\b{re.escape(w)}\b", lowered)
            and not _kind_told_of_others(w, line, claim.lines)
            for w in re.findall(r"[^\W\d_]+", str(line.get("description") or "").lower()))
            or (numbers and Decimal(str(line.get("amount"))) in numbers and _CATEGORY_RE.get(
                str(line.get("category")), re.compile("$^")).search(lowered))]
        lines = [line for line in lines if not any(
            t not in own[id(line)] and t.rstrip("s") not in own[id(line)] and t + "s" not in own[id(line)] for t in things)]
    said_things = {w for w in re.findall(r"[a-z]+", lowered) if w in ("breakfast", "brunch", "lunch", "dinner", "supper") or (
        lexicon.CATEGORY_WORDS.get(w) in ("taxi", "hotel") and w not in lexicon.WEAK_CATEGORY_WORDS)}
    if not lines and days and said_things and len(by_name) != 1:
        # "forget the dinner of tuesday, the distributor paid everything", "scratch the tue taxi": the one line of that
        # kind that day, when its own words name no other thing ("with our distributor", never "lunch"; a meal, a taxi
        # or a hotel only: "the parking of monday" never names the day's train, nor "the coffee" a meal)
        kinds = {lexicon.CATEGORY_WORDS[t] for t in said_things}
        lines = [line for line in claim.lines if line.get("date") in days and line.get("category") in kinds and not (
            {w for w in own[id(line)] if w in lexicon.CATEGORY_WORDS} - said_things)]
    lines = [line for line in lines if (not days or line.get("date") in days)
             and (not numbers or Decimal(str(line.get("amount"))) in numbers)]
    if len(lines) != 1 or (verbless and not by_name and not found[0].group(0).lower().startswith("del")):
        return None  # "pret lunch out" names the line by who was paid; "dinner out", "flight out" say no line
    act = {"id": "r1", "act": "remove_line", "case": {"id": claim.id}, "args": {"line": int(lines[0]["ordinal"])},
           "evidence": message.strip()}
    return {"acts": [act]}
