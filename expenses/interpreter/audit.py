"""The audit of a reading (issue 19): the interpreter fails closed on words it did not account for.

The reader (``reading.py`` and friends) turns a message into a plan with its own rules. This module does not
trust it: it finds, on its own and with other means, every thing in the message that could change what should
happen, and checks that the plan *uses* each one. If any is left over, the plan's acts are dropped and the
reply asks, quoting the part that could not be placed. An honest "I am not sure" is always safe; a guess that
commits is the failure the design exists to prevent.

What must be accounted for, when the plan proposes any act:

- **numbers**: each is an argument of the act whose words hold it (the amount, a quantity times a price that
  makes the amount, a line number, a day of its date, a figure of its merchant or title), or a count of things
  bought ("4 coffees … 31.60 in total"), a clock time, or part of words the plan answers as a question, takes
  back or corrects;
- **days**: each day said is the date of the act whose words hold it (or of every act, when said apart:
  "fri: train 14, cab 42"); a line added with no date while a day was said is left over;
- **currencies**: each is the currency of the claim the act's amount lands on;
- **negations, take-backs and corrections** ("not", "actually", "sorry", "forget", "typo", "should be"): inside a
  line's addition, they are left over (a take-back or a correction the reader missed); "was"/"only" inside an
  addition are left over when the claim already has a line it could be correcting;
- **questions**: a question cue ("?", "how much", "what's") is answered, or is a polite request ("could you
  add …?");
- **filters** ("only the Paris ones", "except the minibar"): the lines added are exactly the pasted rows the
  filter keeps;
- **titles**: a claim's title holds no request words ("open", "claim", "please", "titled", a pronoun).
"""

from __future__ import annotations

import functools
import json
import logging
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from registries import money_phrases, number_words, quantity_products, word_number
from registries.currencies import currencies_named, currency_meant, currency_mentions

from . import lexicon
from .context import (
    Claim,
    Context,
    claims_named,
    day_answered,
    first_day_answered,
    in_the_trip,
    line_days,
    stay_end_picked,
    week_answered,
)
from .english import known_word
from .normalize import (
    ORIGINAL_ASIDE,
    REMARK_ASIDE,
    abroad_meant,
    calendar_abroad,
    day_pairs_abroad,
    days_before_dotted,
    heading_days,
    slashed_by_weekday,
    weekdays_with_their_day,
)
from .values import (
    ABOARD,
    DAY_NUMBERED,
    DOTTED_HEADING,
    NUMBERED_DAY,
    SENTENCE_LEAD_REST,
    SPACED_DOTTED_DAY,
    TRAVEL_TIME,
    WEEKDAY_OF_A_WEEK,
    bought_aboard,
    day_of_a_week,
    priced_alike,
    two_days_only,
    weekday_within,
)

# --------------------------------------------------------------------------- spans of the message


def locate(quote: str, message: str, start: int = 0) -> tuple[int, int] | None:
    """Where a quote of the message stands in it (case- and whitespace-insensitive, quotes and dashes alike)."""
    words = [w for w in re.split(r"\s+", (quote or "").strip()) if w]
    if not words:
        return None
    pattern = r"\s+".join(_loose(w) for w in words)
    m = re.compile(pattern, re.IGNORECASE).search(message, start)
    return (m.start(), m.end()) if m else None


def _loose(word: str) -> str:
    out = []
    for ch in word:
        if ch in "'’‘":
            out.append("['’‘]")
        elif ch in "\"“”":
            out.append("[\"“”]")
        elif ch in "-–—":
            out.append("[-–—]")
        else:
            out.append(re.escape(ch))
    return "".join(out)


# a request that names its line only as "it"
_ONLY_IT = re.compile(r"\W*(?:(?:please|pls|can\s+you|could\s+you|just|so|then)\s+)*(?:remove|delete|drop|scrap|take)\s+(?:it|that|"
                      r"this)(?:\s+one)?(?:\s+(?:off|out|please|pls|then))*\W*", re.IGNORECASE)


# a sentence of its own that leaves the topic before ("never mind that.", "forget it!")
_DROPS_THE_LAST = re.compile(r"^\W*(?:(?:ok(?:ay)?|oh|hmm+|anyway)[,\s]+)?(?:never\s*mind|nvm|forget\s+(?:it|that|about\s+(?:it|"
                             r"that))|scratch\s+that|ignore\s+that|skip\s+that)(?:\s+(?:that|it|then))?\s*[.!;\n]+\s*",
                             re.IGNORECASE)


# a message that goes on from the one before: "then …", "after that …", "and later …" (the day told before), or
# "after lunch …" (the day of some lunch: which one is the user's to say)
_GOES_ON = re.compile(r"^\W*(?:and\W+)?(?:(?P<then>then(?!\s+the\b)|after\s+that|afterwards|later(?:\s+on)?|from\s+there)|after\s+(?:the\s+)?"
                      r"(?:lunch|dinner|breakfast|meeting|workshop))\b(?!\W+(?:just|please|pls|put|add|include|log|submit|"
                      r"send|remove|delete|drop|change|make|do|go|it|that|ok)\b)", re.IGNORECASE)


def goes_on(message: str) -> tuple[re.Match[str], bool] | None:
    """The words that say the message goes on from the one before, and whether they mean the day told before ("then")
    rather than the day of something else ("after lunch"); None when it does not."""
    m = _GOES_ON.match(message)
    return (m, m.group("then") is not None) if m else None


@dataclass
class ActSpan:
    act: dict[str, Any]
    start: int
    end: int
    claim: Claim | None

    def holds(self, start: int, end: int) -> bool:
        return self.start <= start and end <= self.end

    @property
    def args(self) -> dict[str, Any]:
        return self.act.get("args") or {}

    @property
    def name(self) -> str:
        return str(self.act.get("act"))

    def currency(self) -> str | None:
        if self.name == "open_claim":
            return str(self.args.get("currency") or "EUR")
        if self.args.get("currency"):  # paid in another currency, converted by the handler
            return str(self.args["currency"])
        return self.claim.currency if self.claim is not None else None


@dataclass
class Leftover:
    kind: str  # number | date | day | currency | negation | correction | question | filter | title | other
    text: str
    start: int = 0


@dataclass
class Audit:
    message: str
    plan: dict[str, Any]
    ctx: Context
    acts: list[ActSpan] = field(default_factory=list)
    neutral: list[tuple[int, int]] = field(default_factory=list)  # answered, taken back, corrected, held
    leftovers: list[Leftover] = field(default_factory=list)

    def run(self) -> list[Leftover]:
        for act in self.plan.get("acts", []):
            span = locate(act.get("evidence", ""), self.message)
            if span is None:
                self.leftovers.append(Leftover("other", act.get("evidence", "")))
                continue
            self.acts.append(ActSpan(act, span[0], span[1], self._claim_of(act)))
        self.neutral += [m.span() for m in REMARK_ASIDE.finditer(self.message)]  # "(don't judge)": about the person
        for judged in _WEIGHED.finditer(self.message):
            if not any(a.start <= judged.start() < a.end for a in self.acts):
                self.neutral.append(judged.span())  # "so 139 per night is fine then": a figure weighed, no expense
        for part in ("retractions", "corrections", "constraints"):
            for item in self.plan.get(part, []):
                span = locate(item.get("evidence", ""), self.message)
                if span is None:
                    continue
                if part == "corrections" and _STRONG.search(item.get("evidence", "")) and not re.search(
                        r"\d", item.get("evidence", "")):
                    self._leave("negation", *span)  # "no wait, not the lunch" read as a new value, not a take-back
                self.neutral.append(span)
        for answer in self.plan.get("answers", []):
            question = answer.get("question") or ""
            span = locate(question, self.message) if question else None
            apart = span is not None and not any(a.start < span[1] and span[0] < a.end for a in self.acts)
            declines = apart and _DECLINE.search(question) and not (
                _categories_in(question) & {a.args.get("category") for a in self.acts})
            # "total? and send it off": a question the reply answered (not one it asks back about a request)
            asked = span is not None and self.message[span[1]:].lstrip().startswith("?") and "?" not in answer.get(
                "text", "")
            if span is not None and (_QUESTION.search(question) or asked and apart or (apart and (
                    declines or _has_amount(question, self.ctx.today)))):
                # a question answered; a request the words decline, answered apart ("no need to add the coffee"); an
                # expense of its own the reply asks about ("lunch 20 USD": converted, not added); not a fragment
                # the reader could not place ("paid monday": that part is left over, whatever else it read)
                self.neutral.append(span)
                if declines:  # the reason given with it ("…, the company card paid.")
                    sentence = _sentence_span(self.message, span[0])
                    if not any(a.start < sentence[1] and sentence[0] < a.end for a in self.acts):
                        self.neutral.append(sentence)
        if self.plan.get("undo") and (span := locate(self.plan["undo"].get("evidence", ""), self.message)):
            self.neutral.append(span)
        if (listed := _LISTED.search(self.message)) and _COUNTS.get(listed.group("n").lower()) == sum(
                1 for a in self.acts if a.name == "add_line"):
            self.neutral.append(listed.span())  # "just these two then: train …, dinner …": two, as many as were read
        if (dropped := _DROPS_THE_LAST.match(self.message)) and self.acts and all(
                a.start >= dropped.end() for a in self.acts) and not self.ctx.open_cards:
            # "never mind that. On the 25th: taxi …": the topic before is left, the requests after it are new
            self.neutral.append(dropped.span())
        for m in _OTHERS_SHARE.finditer(self.message):  # "colleague Marc paid his part himself, 48": not the user's
            if any(a.name == "add_line" and a.start <= m.start() < a.end and _decimal(a.args.get("amount")) not in _values(
                    m.group("figure")) for a in self.acts):
                self.neutral.append(m.span("figure"))
        for m in _TOTAL_THEN_MY_SHARE.finditer(self.message):  # "team dinner 420 total, my share 140": the bill's total
            if not _PAID_ALL.search(self.message) and any(a.name == "add_line" and a.start <= m.start() < a.end and _decimal(a.args.get("amount")) in _values(
                    m.group("share")) for a in self.acts):
                self.neutral.append(m.span("total"))
        self._left_out_rows()
        self._numbers()
        self._dates()
        self._currencies()
        self._cues()
        self._topics()
        self._titles()
        self._lines()
        self._claims()
        self._old_amount_said()
        self._undated_beside_a_day()
        self._asked_amount_told_apart()
        self._undated_beside_a_correction()
        self._told_before_with_no_day()
        self._undated_after_the_trip()
        self._day_as_amount()
        self._trips_day_by_its_place()
        self._as_the_engine_reads()
        return self.leftovers

    def _someone_elses(self, claim: Claim) -> bool:
        """A person's name said as whose a trip or claim is ("Mr. Duval's Zurich claim", "Sandra's Vienna trip"), a
        name the claim's title does not hold."""
        title = set(re.findall(r"\w+", claim.title.lower()))
        for m in _OWNED.finditer(self.message):
            what = re.split(r"\s(?:to|from|via)\s", m.group("what"), maxsplit=1)[0]  # "King's Cross to Edinburgh": a route
            said = {w.lower() for w in re.findall(r"[\w-]+", what)}
            if (said & (_CLAIM_WORDS | {w for w in title if len(w) >= 4})) and m.group("who").lower() not in title:
                return True
        return False

    def _removes_by_name(self, a: ActSpan) -> bool:
        """"drop the pret lunch. Dinner at Chez Léon 42,80": the removal names its line's merchant, which no expense the
        message tells has."""
        target = _line(a.claim, a.args.get("line")) if a.claim is not None else None
        words = {w for w in re.findall(r"[^\W\d_]{3,}", str((target or {}).get("merchant") or "").lower())}
        said = self.message[a.start:a.end].lower()
        named = {w for w in words if re.search(rf"\b{re.escape(w)}\b", said)}
        return bool(named) and not any(b.name == "add_line" and any(
            re.search(rf"\b{re.escape(w)}\b", self.message[b.start:b.end].lower()) for w in named) for b in self.acts)

    def _undated_adds(self) -> list[ActSpan]:
        """The additions with no day of their own (today, unless something says otherwise), not completing an earlier
        message."""
        return [a for a in self.acts if a.name == "add_line" and not a.args.get("date") and not a.act.get("earlier_evidence")]

    def _undated_beside_a_day(self) -> None:
        """An expense told with no day, in a message that says a day apart from every expense's words that no act took
        ("23.11 is the check-in date. taxi was 18,50"): which day is asked, never today assumed."""
        adds = self._undated_adds()
        if not adds:
            return
        used = {str(a.args.get("date")) for a in self.acts if a.args.get("date")}
        said = [d for d in self._days if d.value is not None and d.value != self.ctx.today
                and d.kind not in ("vague", "future") and self._holder(d.start, d.end) is None
                and not _QUESTION.search(_sentence(self.message, d.start))]  # "what was the rate on 1.12?": asked
        for a in adds:
            if any(d.value.isoformat() not in used and not any(_night_of_stay(b, d.value, True) for b in self.acts)
                   for d in said):
                self._leave("day", a.start, a.end)

    def _asked_amount_told_apart(self) -> None:
        """The amount the last reply asked for, told inside a longer message ("found it - cardiff parking was 8.50. oh n the
        train was …" after "How much was the parking?"): the expense asked about was told earlier with its day, so an
        add of it with no day of its own is never dated today; its day is asked."""
        pending = self.ctx.pending or {}
        about = str(pending.get("about") or pending.get("message") or "")
        if (pending.get("missing") or [None])[0] != "amount" or not about:
            return
        asked = _content_words(about)
        for a in self._undated_adds():
            if asked & _content_words(self.message[a.start:a.end]):
                self._leave("day", a.start, a.end)

    def _told_before_with_no_day(self) -> None:
        """"found it - cardiff parking was 8.50" when an earlier message told of the parking (its day with it) and the
        claim has no such line: that expense, whose day is not said here, is never dated today; its day is asked."""
        earlier = " ".join([*(self.ctx.earlier or ()), self.ctx.previous or ""]).lower()
        if not earlier.strip() or self.ctx.pending or self.ctx.settled:
            return  # (an answer to the last reply's question completes what it asked about, told then)
        for a in self._undated_adds():
            said = self.message[a.start:a.end]
            if not _WAS_ITS_PRICE.search(said) or find_days(said, self.ctx.today):
                continue
            words = _content_words(said) - {"cost"}
            on_claim = " ".join(str(line.get(k) or "") for line in (a.claim.lines if a.claim else ()) for k in (
                "description", "merchant")).lower()
            if any(re.search(rf"\b{re.escape(w)}\b", earlier) and w not in on_claim for w in words):
                self._leave("day", a.start, a.end)

    def _day_as_amount(self) -> None:
        """"stryk lunsjen 03.11, kunden spanderte": a figure written as a day is (a leading zero, a month, a day of the
        last three months, no currency beside it) is never a line's amount; what it is, is asked."""
        days: list[tuple[int, int]] | None = None
        for a in self.acts:
            amount = _decimal(a.args.get("amount"))
            if amount is None:
                continue
            for m in re.finditer(r"(?<![\d.,])(0\d)[.,](\d\d)(?![\d.,]?\d)", self.message[a.start:a.end]):
                at = a.start + m.start()
                if _decimal(m.group(0).replace(",", ".")) != amount or _MONEY_NEAR.search(
                        self.message[max(0, at - 3):a.start + m.end() + 5]):
                    continue
                day = _past(self.ctx.today, int(m.group(2)), int(m.group(1))) if 1 <= int(m.group(2)) <= 12 else None
                if day is not None and (self.ctx.today - day).days <= 92:
                    self._leave("number", at, a.start + m.end())
            # "2 noches (lunes 16 and martes 17), … CAD 524.00" read as 16.00: an amount whose every figure in the act's
            # words is a day's
            if a.act.get("earlier_evidence"):
                continue  # ("30 nov" answering which day "parking 30 eur on 30 nov and 1 dec" was: the price is earlier)
            figures = [m for m in _ATOM.finditer(self.message, a.start, a.end) if amount in _values(m.group(0))]
            if days is None:  # (the message's days, read once)
                days = [(d.start, d.end) for d in self._days]
            if figures and all(any(s <= m.start() and m.end() <= e for s, e in days) for m in figures):
                self._leave("number", figures[0].start(), figures[0].end())

    def _undated_after_the_trip(self) -> None:
        """"taxi 185" after messages that told a past trip by its days ("onsdag: tog … 398 kr", "On 8.12 I had …"), the
        latest of them two days ago or more: the person is going through that trip, so today would be a guess; which
        day is asked. (With no day told before in the conversation, an expense with no day is today's, as before: the
        corpus's writers expect it so on a claim of an earlier trip, "add a taxi for 20".)"""
        today = self.ctx.today
        undated = self._undated_adds() + [  # ("160.56" answering "How much was the meals?" after "yes, add the dinner
            # converted": the words it completes tell no day either)
            a for a in self.acts if a.name == "add_line" and not a.args.get("date") and a.act.get("earlier_evidence")
            and not find_days(str(a.act["earlier_evidence"]), today)]
        if not undated or any(d.value is not None and d.value == today for d in self._days):
            return  # ("today", "tonight": said. An expense offered converted is asked its day at the yes: safe, if late)
        said_before = [s for s in (*(self.ctx.earlier or ()), self.ctx.previous or "") if s.strip()]
        told = [d.value for said in said_before for d in find_days(said, today)
                if d.value is not None and d.kind not in ("vague", "future")]
        for a in undated:
            # a claim whose trip ended this past week, told of again in this conversation, is being completed too
            # (a stay of several nights dated today tells no trip going on today: it would end in days to come)
            lines = [date.fromisoformat(str(line["date"])) for line in (a.claim.lines if a.claim else ())
                     if line.get("date") and not _stay_from_today(line, today)]
            recent = [d for d in lines if d <= today] if said_before and lines and \
                today - timedelta(days=7) <= max(lines) else []
            days = told or recent  # (the days the person told decide; the claim's own lines only when none was told)
            if a.act.get("earlier_evidence"):
                days = told  # (an answer completing words with no day: only days the person told make today a guess)
            if not days or max(days) >= today or (max(days) == today - timedelta(days=1) and
                                                   _span_told(said_before, today) != max(days)):
                continue  # (a trip told up to yesterday may well go on today, unless it was told to end then)
            if a.claim is None or a.claim.open and a.claim.status == "draft":  # (a locked claim refuses it anyway)
                self._leave("day", a.start, a.end)

    def _undated_beside_a_correction(self) -> None:
        """An expense told with no day beside a correction of a line of another day ("found it - the parking was 8.50.
        oh and the train was 34.10 not 31.40"): the message is about the trip, not today; its day is asked."""
        today = self.ctx.today.isoformat()
        corrected = [str(line.get("date") or "") for a in self.acts if a.name == "update_line" and a.claim is not None
                     and (line := _line(a.claim, a.args.get("line"))) is not None]
        if not corrected or all(d == today for d in corrected) or self._days:
            return
        for a in self._undated_adds():
            self._leave("day", a.start, a.end)

    def _old_amount_said(self) -> None:
        """"the taxi 23.11 was 28,50" beside a taxi of 23.11: a new taxi of the 23rd, or that one corrected? Asked."""
        for a in self.acts:
            if a.name != "add_line" or a.claim is None:
                continue
            if (put := _PUT_THE_AT.search(self.message, a.start, a.end)) and any(
                    put.group("thing").lower() in {str(line.get("category") or "").lower(), *re.findall(
                        r"[^\W\d_]+", f"{line.get('description') or ''} {line.get('merchant') or ''}".lower())} or (
                        _CATEGORY_RE.get(str(line.get("category") or "")) is not None and _CATEGORY_RE[
                            str(line.get("category"))].fullmatch(put.group("thing"))) for line in a.claim.lines):
                self._leave("correction", a.start, a.end)  # "put the dinner at 34,70" beside the claim's dinner: that one?
                continue
            own = _decimal(a.args.get("amount"))
            said = {v for m in _ATOM.finditer(self.message, a.start, a.end) for v in _values(m.group(0))} - {own}
            if any(_decimal(line.get("amount")) in said and line.get("category") == a.args.get("category")
                   for line in a.claim.lines):
                self._leave("correction", a.start, a.end)

    def _as_the_engine_reads(self) -> None:
        """An amount the reducer would not find in the act's words (``registries.numbers``, the engine's one reading
        of numbers) is asked about here, in the user's terms, rather than refused there as not what they wrote."""
        from registries.numbers import evidence_numbers

        for a in self.acts:
            amount = _decimal(a.args.get("amount"))
            if amount is None or a.act.get("undo_of"):
                continue
            sources = [str(a.act.get(k) or "") for k in ("evidence", "earlier_evidence", "corrected_by")]
            if not any(amount == n for source in sources for part in source.split(" / ") for n in evidence_numbers(part)):
                self._leave("number", a.start, a.end)

    # ----------------------------------------------------------------- helpers

    def _claim_of(self, act: dict[str, Any]) -> Claim | None:
        ref = act.get("case") or {}
        claims = self.ctx.claims
        opening = next((a for a in self.plan.get("acts", []) if a.get("act") == "open_claim"), None)
        if opening is not None and act.get("act") != "open_claim" and not ref.get("id") and not ref.get("match"):
            args = opening.get("args") or {}  # the claim this plan opens
            return Claim(id="new", title=str(args.get("title", "")), status="draft",
                         currency=str(args.get("currency") or "EUR"), lines=(), view={})
        if ref.get("id"):
            return next((c for c in claims if c.id == ref["id"]), None)
        if ref.get("match"):
            needle = " ".join(str(ref["match"]).lower().split())
            hits = [c for c in self.ctx.open_claims if needle in c.title.lower()]
            return hits[0] if len(hits) == 1 else None
        return self.ctx.default_claim()

    def _in_neutral(self, start: int, end: int) -> bool:
        return any(s <= start and end <= e for s, e in self.neutral)

    def _touches_neutral(self, start: int, end: int) -> bool:
        return any(s < end and start < e for s, e in self.neutral)

    @property
    def carded(self) -> bool:
        """Every act waits for the user's click on a card (a removal, a submission, a withdrawal)."""
        return bool(self.acts) and all(a.name in _CARDED for a in self.acts)

    @property
    def corrects(self) -> bool:
        """The plan changes an existing line or corrects one of its own acts."""
        return any(a.name == "update_line" for a in self.acts) or bool(self.plan.get("corrections"))

    def _holder(self, start: int, end: int) -> ActSpan | None:
        if end > start + 1 and self.message[end - 1] == ".":
            end -= 1  # "checkout 26.11.": the day's closing dot may end the sentence, outside the act's words
        holders = [a for a in self.acts if a.holds(start, end)]
        return min(holders, key=lambda a: a.end - a.start) if holders else None

    def _leave(self, kind: str, start: int, end: int) -> None:
        if kind == "date" and not find_days(self.message[start:end], self.ctx.today):
            kind = "day"  # an expense whose day is in doubt, quoted whole: asked for its day
        self.leftovers.append(Leftover(kind, self.message[start:end], start))

    # ----------------------------------------------------------------- numbers

    def _numbers(self) -> None:
        from .values import things_counted

        message = self.message
        products = quantity_products(message)
        phrases = money_phrases(message)
        words = [w for w in number_words(message) if not re.fullmatch(r"(?:an?|one)", message[w.start:w.end].strip(),
                                                                          re.IGNORECASE)]  # "the 2nd one", "motel one"
        spaced = [(m.start(), m.end(), _values(re.sub(r"\s", "", m.group(0)))) for m in _SPACED.finditer(message)
                  if not re.search(r"(?:\b(?i:for)|\b[a-z]{3,}(?<!s)s|\b(?i:x))\s+$", message[:m.start()]) and (
                      _SPACED_PRICED.match(message, m.end()) or m.group("after") is not None or _SPACED_SLOT.search(message, 0, m.start())
                      or re.search(r"\b(?:NOK|SEK|DKK|CZK|PLN|HUF|EUR|CHF|GBP|USD|CAD|JPY)\s?$", message[:m.start()])  # "NOK 1 249,00"
                      or _SPACED_TOTAL.match(message, m.end()))]
        atoms: list[tuple[int, int, set[Decimal]]] = spaced + [
            (m.start(), m.end(), _values(m.group(0))) for m in _ATOM.finditer(message)
            if not any(s <= m.start() < e for s, e, _ in spaced)]
        atoms += [(w.start, w.end, {w.value}) for w in words
                  if not any(s <= w.start < e for s, e, _ in atoms)]
        for start, end, values in atoms:
            if self._price_beside_an_opening(start, end):
                self._leave("number", start, end)  # "open … 'X3' in EUR. Expenses: SAS flight … - 212.40 EUR": a price
                continue  # the opening's words ran on over, added to nothing
            if self._touches_neutral(start, end) or _in_any(start, end, self._context_spans()):
                continue
            if message[start - 1:start] == "#" and message[start:end].isdigit():
                if any(_decimal(a.args.get("amount")) in values for a in self.acts):
                    self._leave("number", start, end)  # "#4412" read as a price
                continue  # "TIM HORTONS #4412": a store's number, no price
            if _GLUED.match(message, end) and message[start:end].isdigit():
                if any(_decimal(a.args.get("amount")) in values for a in self.acts):
                    self._leave("number", start, end)  # "a 5-star hotel" read as 5.00
                continue  # "7-Eleven", "a 3-day pass": part of a name or a count, never a price
            if message[start:end].isdigit() and re.search(r"(?:\b(?:on|of|from)\s+day|(?<=[^\W\d]\s)d[ií]a|(?<=[^\W\d]\s)giorno)\s+$",
                                                          message[:start], re.IGNORECASE):
                self._leave("date", start, end)  # "lunch on day 5 …, it was 5": the trip's fifth day, or the 5th? Asked
                continue
            holder = self._holder(start, end)
            phrase = next((p for p in phrases if p.start <= start and end <= p.end), None)
            if phrase is not None:  # "two euro forty", "twenty-four francs fifty": the phrase is the number
                values = {p.value for p in phrases if (p.start, p.end) == (phrase.start, phrase.end)}  # "four eighty"
            year_said = bool(re.match(r"['’]|[./-]\d{1,2}[./-]$", message[start - 1:start]) or re.search(
                r"\d[./-]$", message[:start]))  # "27.11.26", "11/26", "'26": a two-digit year
            used = [a for a in ([holder] if holder else self.acts) if values & _numbers_of(a, year_said)]
            if not used and holder is not None and (out := self._stay_ended_on(holder, start, end)) is not None and \
                    _night_of_stay(holder, out, bool(_STAY_ENDS.search(self.message[holder.start:holder.end]))):
                continue  # "Motel One, 24-11 to 26-11, 218": the day the stay ended
            if used and _HEAD_COUNT.match(message, end) and any(
                    _decimal(a.args.get("amount")) in values for a in used):
                self._leave("number", start, end)  # "lunch …, 3 ppl, 136 at …" read as 3.00: a head count, no amount
                continue
            product = next((p for p in products if p.start <= start and end <= p.end), None)
            if product is not None:
                # a quantity times a price: the amount must be the product (the reader may also set the quantity)
                if any(_decimal(a.args.get("amount")) == product.value for a in ([holder] if holder else self.acts)):
                    continue
                if used and all(_decimal(a.args.get("amount")) in values for a in used) and product.count and \
                        all(a.args.get("quantity") in (None,) for a in used):
                    self._leave("number", product.start, product.end)  # "2 returns at 11.40" read as 11.40
                    continue
            if used:
                continue
            if holder is not None and _is_count(message, start, end, holder):
                continue
            if (ordinal := _ORDINAL.match(message, start)) and re.match(r"[\s-]+class\b", message[ordinal.end():],
                                                                       re.IGNORECASE):
                continue  # "1st class upgrade": a class of travel, no day
            if ordinal and self._a_day_unread(start, ordinal.end()):
                self._leave("date", start, end)  # "The 5th taxi to airport 42 …" told as a new expense: the 5th
                continue
            if _ORDINAL.match(message, start) or _CONTEXT_COUNT.match(message, end) or things_counted(message, start, end):
                continue  # "the 2nd night", "waiting on two receipts": which one, or how many of something else
            if re.search(r"(?:^|[\n.!;]\s*)day\s*$", message[:start], re.IGNORECASE) and re.match(
                    r"\s*(?:[,:.–—(-]|(?:was|is|were)\b)", message[end:], re.IGNORECASE) and message[start:end].isdigit():
                if self._trip_day_unplaced(end):
                    said = re.search(r"day\s*$", message[:start], re.IGNORECASE)
                    self._leave("date", said.start() if said else start, end)  # "Day 2: lunch 64.80": dated today?
                continue  # "Day 1, Monday 16th.": which day of the trip, no price
            if re.match(r"\s*(?:st|nd|rd|th)?\.?\s*$", message[end:]) and re.search(r"\bnot\s+(?:on\s+)?the\s+$",
                                                                               message[:start], re.IGNORECASE) and any(
                    a.name == "update_line" and a.args.get("date") for a in self.acts):
                continue  # "… on the 1. of December, not the 30.": the day it is not, the line's old one
            if re.search(r"\b(?:card|pass|ticket|travelcard|carnet|abo|day\s+pass)\s+(?:for\s+)?$", message[:start],
                         re.IGNORECASE) and re.match(r"\s*-?(?:days?|hours?|h|rides?|trips?|zones?)\b", message[end:],
                                                     re.IGNORECASE):
                continue  # "Metro card 3 days 24,00": what the pass is, not what it cost
            if self._original_aside(start):
                continue  # "13.70 eur (that was 85 reais converted)": what it was in the currency paid, noted
            if self._count_of_the_told(start, end):
                continue  # "yes, add all three" after three offered converted: how many, said back
            self._leave("number", start, end)

    def _more_told_before(self, target: dict[str, Any], claim: Claim) -> bool:
        """The claim holds one line of the kind, and the user's message before this one told of two ("on 5th there were
        two times [taxi], … both 19.80 EUR. Please add the second one also"): the change by its kind may mean the one
        the claim does not hold."""
        previous, kind = self.ctx.previous or "", str(target.get("category"))
        return bool(previous) and kind in _categories_in(previous) and sum(
            1 for line in claim.lines if line.get("category") == kind) == 1 and bool(re.search(
                r"\b(?:two|2)\s+times\b|\bboth\s+(?:were\s+|at\s+|for\s+|cost\s+)?(?:[€$£]\s?)?\d|\bthe\s+(?:second|other)\s+one\b|\btwo\s+(?:taxis|cabs|rides|lunches|dinners|"
                r"breakfasts|coffees|tickets|trains|flights|meals|hotels)\b", previous, re.IGNORECASE))

    def _trip_day_unplaced(self, end: int) -> bool:
        """After "Day 2" with no date of its own ("Day 2: …", not "Day 2, Tuesday 24.11.:"), an expense added with no
        day in its own words: the day it is dated is not one the user said."""
        head = re.match(r"[^:\n]*", self.message[end:]).group(0)
        if find_days(head, self.ctx.today):
            return False
        following = re.search(r"(?:^|[\n.!;]\s*)(?:day\s*\d|(?:on\s+)?(?:the\s+)?(?:first|second|third|fourth|fifth|last|"
                              r"final)\s+day\b)", self.message[end:], re.IGNORECASE)
        stop = end + following.start() if following else len(self.message)
        number = re.search(r"(\d+)\s*$", self.message[:end])
        told = self._trip_before  # "Day 2" after "The trip was Mon 16th to Wed 18th Nov": the trip's second day
        day = (told[0] + timedelta(days=int(number.group(1)) - 1)).isoformat() if told and number and \
            told[0] + timedelta(days=int(number.group(1)) - 1) <= told[1] else None
        if told is None and number and int(number.group(1)) >= 2 and (first := first_day_answered(
                self.ctx.earlier, self.ctx.today, line_days(self.ctx.default_claim()))) is not None and \
                first + timedelta(days=int(number.group(1)) - 1) <= self.ctx.today:
            day = (first + timedelta(days=int(number.group(1)) - 1)).isoformat()  # after "Day 1 — …", "Monday 30th"
        return any(a.name == "add_line" and end <= a.start < stop and not find_days(self.message[a.start:a.end],
                                                                                   self.ctx.today)
                   and (day is None or a.args.get("date") != day) for a in self.acts)

    def _trips_day_by_its_place(self) -> None:
        """"Second day lunch 16,80 …. Last day the Arlanda Express 33,50": what a sentence opening with the trip's day
        by its place tells is dated that day of the trip the earlier messages told, or asked."""
        told = self._trip_before
        for m in _DAY_BY_PLACE.finditer(self.message):
            sentence = _sentence_span(self.message, m.start(1))
            if any(d.value is not None for d in find_days(self.message[sentence[0]:sentence[1]], self.ctx.today)):
                continue  # "On the last day, 2/12, I took …", "Last day, 26.11.: lunch …": the day said with it
            n = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}.get(m.group("word").lower(), 0)
            day = None if told is None else told[1] if n == 0 else told[0] + timedelta(days=n - 1)
            for a in self.acts:
                if a.name == "add_line" and sentence[0] <= a.start < sentence[1] and (
                        day is None or day > told[1] or a.args.get("date") != day.isoformat()):
                    self._leave("date", a.start, a.end)

    @functools.cached_property
    def _trip_before(self) -> tuple[date, date] | None:
        """The first and last day earlier messages told (two or more days, at most two weeks apart, none to come)."""
        told = sorted(d.value for said in self.ctx.earlier for d in find_days(said, self.ctx.today)
                      if d.value is not None and not _BARE_DAY.fullmatch(said[d.start:d.end]))
        if len(told) < 2 or told[0] == told[-1] or (told[-1] - told[0]).days > 14 or told[-1] > self.ctx.today:
            return None
        return told[0], told[-1]

    def _price_beside_an_opening(self, start: int, end: int) -> bool:
        """A price (decimals, or a currency beside it) inside the words an opening of a claim was read from, in a
        sentence after the one that opens it, that no other act uses: an expense the reading left out."""
        opening = next((a for a in self.acts if a.name == "open_claim" and a.start <= start and end <= a.end), None)
        if opening is None or any(a.name != "open_claim" and a.start <= start and end <= a.end for a in self.acts):
            return False
        if not re.search(r"[.!?\n]\s", self.message[opening.start:start]) or any(
                start >= a.start and (at := locate(str(a.args.get("title") or ""), self.message)) and at[0] <= start < at[1]
                for a in self.acts if a.name == "open_claim"):
            return False
        said = self.message[max(0, start - 4):min(len(self.message), end + 5)]
        return bool(re.fullmatch(r"\d{1,6}[.,]\d\d", self.message[start:end]) or _MONEY_SAID.search(said))

    def _context_spans(self) -> list[tuple[int, int]]:
        """Numbers that are no value of any act: clock times, figures inside a claim's title or a merchant the plan
        uses ("Hotel 25hours", "ECML 2026 Lisbon"), and the words that open a claim ("… trip, 24-26 Nov"): a
        claim has no amount or day of its own."""
        spans = [(m.start(), m.end()) for m in _TIME.finditer(self.message)]
        spans += [(a.start, a.end) for a in self.acts if a.name == "open_claim"]
        ids = _ids(self.message)
        spans += [(m.start(), m.end()) for m in _ATOM.finditer(self.message) if m.group(0) in ids]
        spans += [(m.start(), m.end()) for m in _DIGIT_TALK.finditer(self.message)]  # "I misread the 2 as a 1"
        spans += [(m.start(), m.end()) for m in lexicon.LIMIT_TOLD.finditer(self.message)]  # "I was over 50 on the meal limit"
        totals = {_decimal(c.view.get("total")) for c in self.ctx.claims} - {None}
        spans += [(m.start("figure"), m.end("figure")) for m in _AGREED.finditer(self.message)
                  if _values(m.group("figure")) & totals]  # "539,60 is right, submit it": the claim's total, agreed
        spans += [(m.start(), m.end()) for m in _ID_NUMBER.finditer(self.message)
                  if not any(_decimal(a.args.get("amount")) in _values(re.sub(r"\D", "", m.group(0)) or "0")
                             for a in self.acts)]
        texts = [c.title for c in self.ctx.claims]
        for a in self.acts:
            texts += [str(a.args.get(k)) for k in ("merchant", "title", "description") if a.args.get(k)]
        for text in texts:
            if re.search(r"\d", text) and (span := locate(text, self.message)):
                spans.append(span)
        for m in _LINE_WORDS.finditer(self.message):
            spans.append((m.start(), m.end()))
        spans += [(d.start, d.end) for d in self._days]  # days are checked as days
        return spans

    # ----------------------------------------------------------------- days

    def _dates(self) -> None:
        days = self._days
        going_on = goes_on(self.message)
        if going_on and not days and (not going_on[1] or self.ctx.last_day_told is None) and any(
                a.name == "add_line" and not a.args.get("date") for a in self.acts):
            # "then a taxi …": then when? No day is known; "after lunch …": the day of which lunch? Asked
            self._leave("date", *going_on[0].span())
        for day in days:
            if self._touches_neutral(day.start, day.end):
                continue
            holder = self._holder(day.start, day.end)
            if holder is not None and holder.name == "open_claim":
                continue  # "a claim for the Copenhagen trip, 24-26 Nov": the trip's days, no line's
            if holder is None and self._the_trips_time(day):
                continue  # "last week I went to Brussels for the meeting, so new claim please, …": when the trip was
            if holder is not None:
                if not self._date_fits(holder, day):
                    self._leave("date", day.start, day.end)
                continue
            dated = [a for a in self.acts if a.name == "add_line" or "date" in a.args]
            if not dated and all(a.name == "open_claim" for a in self.acts):
                continue
            if not dated or (day.value is not None and any(
                    (a.args.get("date") or (self.ctx.today.isoformat() if a.name == "add_line" else None))
                    == day.value.isoformat() for a in dated)):
                continue
            if day.value is None and day.kind == "same" and all(a.args.get("date") for a in dated):
                continue
            self._leave("date", day.start, day.end)
        said = [d for d in days if not self._touches_neutral(d.start, d.end)]
        outside = [d for d in said if self._holder(d.start, d.end) is None]
        week = week_answered(self.message, self.ctx.pending, self.ctx.today)  # (the day a week's answer chose)
        for a in self.acts:
            if a.name in ("add_line", "update_line") and a.args.get("date"):
                try:
                    if date.fromisoformat(a.args["date"]) > self.ctx.today:
                        self._leave("date", a.start, a.end)
                except ValueError:
                    pass
            if a.name != "add_line":
                continue
            if not a.args.get("date") and (lead := _short_day_leading(self.message, a.start)) is not None:
                self._leave("date", *lead)  # "di taxi vom hotel 38,50", "Sam taxi 23": Tuesday (Dienstag), or a name?
                continue
            if self._nights_unmatched(a, [self.message[a.start:a.end], str(a.act.get("earlier_evidence") or "")]):
                self._leave("date", a.start, a.end)  # "Monday and Tuesday night, 219 per night" as one night of 219
                continue
            own = [d for d in said if a.holds(d.start, d.end)]
            dated = a.args.get("date") or self.ctx.today.isoformat()
            if (other := self._weekday_dated_otherwise_before(a, own, dated)) is not None:
                self._leave("day", other.start, other.end)  # "monday dinner $54.20" after "flew … monday 11/23": which
                continue  # Monday? the one the last message dated, or the latest one?
            if (odd := self._weekday_word_not_its_day(a, dated)) is not None:
                self._leave("date", *odd)  # "…, Mittwoch Mittagessen … 9,80" dated Tuesday: the weekday its words say
                continue  # (read as a name or not at all) is not the day the line got
            if any(d.value is not None and d.value.isoformat() != dated and _BOTH.search(
                    self.message[max(0, d.start - 12):d.start]) for d in said):
                self._leave("date", a.start, a.end)  # "dinner 41 and taxi 23 both last nite"
                continue
            if own:
                continue
            if (earlier := str(a.act.get("earlier_evidence") or "")) and a.args.get("date") in {
                    d.value.isoformat() for d in find_days(earlier, self.ctx.today) if d.value is not None}:
                continue  # a yes to an offer ("fine, use your rate - …"): its day is the one the offered words told
            if a.args.get("category") == "hotel" and not a.args.get("date") and any(
                    o.name == "add_line" and o.args.get("date") not in (None, self.ctx.today.isoformat()) for o in self.acts):
                self._leave("date", a.start, a.end)  # "The hotel was …, two nights, 356 all in. Tuesday I had lunch …":
                continue  # the other expenses' days are said, the stay's is not; today is a guess
            before_it = [d for d in said if d.end <= _sentence_span(self.message, a.start)[0] and d.value is not None]
            here = self._day_of_one_before(a, said) if a.args.get("category") != "hotel" else None
            headed = [d for d in said if _sentence_span(self.message, a.start)[0] <= d.start and d.end <= a.start
                      and d.value is not None and not self._holder(d.start, d.end)]  # "Day 2, Tuesday: lunch 14"
            if before_it and before_it[-1].value.isoformat() != dated and not any(
                    d.start >= a.end for d in said) and not (here is not None and here.value.isoformat() == dated) \
                    and not (headed and headed[-1].value.isoformat() == dated):
                self._leave("date", a.start, a.end)  # "On the 25th … . In the evening, dinner 84": which day?
                continue
            heading = self._heading_day(a)
            nearer = [d for d in days if heading is not None and heading.end <= d.start and d.end <= a.start and d.value]
            if nearer and nearer[-1].value.isoformat() == dated:
                continue  # "Mon lunch … 13,50, tue a Käsekrainer … 6,80 and dinner … 34": the day said last before it
            if heading is not None and heading.value is not None and heading.value.isoformat() != dated:
                self._leave("date", heading.start, heading.end)  # "mon: thalys 96, taxi 14,5": Monday for both
                continue
            # a line told with no day of its own: a day said apart from every line ("Yesterday was long: …"), or
            # after it in the same sentence ("lunch 16.40 and coffee 3.90 on Friday"), is its day too
            sentence = _sentence_span(self.message, a.start)
            later = [d for d in said if d.start >= a.end and d.start < sentence[1] and d.value is not None]
            apart = [d for d in outside if d.value is not None]
            wanted = [d for d in ([later[0]] if later else []) + apart]
            if wanted and not any(d.value.isoformat() == dated for d in wanted):
                self._leave("date", wanted[0].start, wanted[0].end)
            if not wanted and a.args.get("category") != "hotel" and (told := self._day_of_one_before(a, said)) is not None \
                    and told.value.isoformat() != dated:
                # "Flight was 412.60 on Monday, and the Uber … was 38.25": a day said once covers what is told with it
                # in the sentence (as every set of conversations written for the corpus reads it), never today
                self._leave("date", told.start, told.end)
            if a.act.get("earlier_evidence") and week is not None and week.isoformat() == dated:
                continue  # "the later one", answering "Which Thursday do you mean: today (3 Dec) or …?": the day chosen
            back = self._day_referred_back(a) or self._day_of_completed(a)
            if back is not None and back.isoformat() != dated:
                self._leave("date", a.start, a.end)  # "17.13 for that taxi": the taxi of the last message, its day
            elif not [d for d in said if sentence[0] <= d.start < sentence[1]] and (
                    left := self._day_left_unadded(a)) is not None and left.isoformat() != dated:
                self._leave("date", a.start, a.end)  # "taxi is 22,10 EUR" after "Mon 30.11: … taxi 95 zł": which day?
            earlier = a.act.get("earlier_evidence")
            if earlier:  # completing a question about an earlier message: its day is this line's day
                before = [d for d in find_days(earlier, self.ctx.today) if d.value is not None]
                if before and not any(d.value.isoformat() == dated for d in before):
                    self._leave("date", a.start, a.end)

    def _day_of_one_before(self, act: ActSpan, said: list[Any]) -> Any | None:
        """The day of the line told before ``act`` in the same sentence, said inside that line's own words."""
        sentence = _sentence_span(self.message, act.start)[0]
        for before in sorted((b for b in self.acts if b.name == "add_line" and sentence <= b.start and b.end <= act.start),
                             key=lambda b: b.start, reverse=True):
            own = [d for d in said if before.holds(d.start, d.end) and d.value is not None]
            if own:
                return own[-1]
        return None

    def _nights_unmatched(self, act: ActSpan, texts: list[str]) -> bool:
        """A hotel line whose words list more nights by their days than it counts: "mon and tue night" is two nights
        (check-in and check-out days, "1 to 3 dec", are one night fewer than the days said)."""
        if act.args.get("category") != "hotel":
            return False
        nights = 0
        for text in texts:
            days = {d.value for d in find_days(text, self.ctx.today) if d.value is not None}
            if len(days) > 1:
                nights = max(nights, len(days) - (1 if _STAY_ENDS.search(text) else 0))
        try:
            return int(act.args.get("quantity") or 1) < nights
        except (TypeError, ValueError):
            return True

    def _day_referred_back(self, act: ActSpan) -> date | None:
        """The day of the last message's expense that this line's words point back at ("for that taxi", "for the
        banner"), when that message said one day."""
        previous = self.ctx.previous or ""
        m = _BACK.search(self.message, act.start, act.end)
        if not previous or m is None or not re.search(rf"\b{re.escape(m.group('noun'))}", previous, re.IGNORECASE):
            return None
        days = {d.value for d in find_days(previous, self.ctx.today) if d.value is not None}
        return next(iter(days)) if len(days) == 1 else None

    def _day_left_unadded(self, act: ActSpan) -> date | None:
        """The day the last message told an expense of this kind on, when no line of the kind was added since: "taxi
        is 22,10 EUR on my card statement" after "Mon 30.11: flight …, taxi … 95 zł" is that taxi, maybe."""
        previous, category = self.ctx.previous or "", str(act.args.get("category") or "")
        if not previous or category not in _CATEGORY_RE:
            return None
        told = []  # the kinds the last message priced: the first kind named in each part with a figure
        unpriced = None  # ("return flight Lyon - Manchester with easyJet, 186,40 €": the kind, then its price)
        for part in re.split(r"[,;.\n]\s|\band\b", previous):
            named = sorted((m.start(), kind) for kind, pattern in _CATEGORY_RE.items() if (m := pattern.search(part)))
            if named and re.search(r"\d", part):
                told.append(named[0][1])
            elif named:
                unpriced = named[0][1]
                continue
            elif unpriced and re.search(r"\d", part):
                told.append(unpriced)
            unpriced = None
        if category not in told:
            return None
        if any(e.get("event") == "line_added" and (e.get("data") or {}).get("category") == category
               for e in self.ctx.recent or []):
            return None
        days = {d.value for d in find_days(previous, self.ctx.today) if d.value is not None}
        return next(iter(days)) if len(days) == 1 else None

    def _day_of_completed(self, act: ActSpan) -> date | None:
        """A line told only by its amount ("ok add 47.53", "put 18.28 on as travel") completes the expense of the
        message before: that message's day is its day."""
        found = completed_day(self.message[act.start:act.end], self.ctx, bool(act.act.get("earlier_evidence")))
        if found is date.min and act.args.get("date"):
            return None
        return found

    def _last_day(self, act: ActSpan) -> str | None:
        """The day "same day" points at: of a line told before it in this message, else of the line the last turn
        added or changed."""
        for before in sorted((a for a in self.acts if a.end <= act.start), key=lambda a: a.start, reverse=True):
            if before.args.get("date"):
                return str(before.args["date"])
        said = {d.value for d in find_days(self.ctx.previous or "", self.ctx.today) if d.value is not None}
        if len(said) == 1:  # "paid tue" in the message before, whatever became of it
            return next(iter(said)).isoformat()
        for effect in reversed(self.ctx.recent or []):
            data = effect.get("data") or {}
            if data.get("date"):
                return str(data["date"])
        return None

    def _heading_day(self, act: ActSpan) -> Day | None:
        """A day that heads the sentence's list of lines, said before its first amount ("Yesterday was long:
        breakfast 7,50, a taxi 22", "mon: thalys 96, taxi 14,5", "Tuesday lunch 198 kr, dinner 356 kr")."""
        sentence = _sentence_span(self.message, act.start)
        if sentence[0] >= act.start and act.start > 0:
            return None
        days = self._days
        number = next((m for m in _ATOM.finditer(self.message, sentence[0], sentence[1])
                       if not any(d.start <= m.start() < d.end for d in days)), None)
        for day in days:
            if sentence[0] <= day.start and day.end <= act.start and (number is None or day.end <= number.start()) \
                    and not self._in_question(day.start, day.end):
                return day
        return None

    def _in_question(self, start: int, end: int) -> bool:
        return any(s <= start and end <= e and _QUESTION.search(self.message[s:e]) for s, e in self.neutral)

    def _weekday_dated_elsewhere(self, day: Day) -> str | None:
        """The one date the message gives to the weekday ``day`` names ("mon 23/11"), as ISO; else None."""
        named = {d.value.isoformat() for d in self._days if d.value is not None and d.kind
                 != "weekday" and d.value.weekday() == day.value.weekday() and re.search(
                     r"\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s*(?:\d|$)", self.message[max(0, d.start - 12):d.end],
                     re.IGNORECASE)}  # "mon 23/11": said beside its weekday
        return named.pop() if len(named) == 1 else None

    def _stay_ended_on(self, act: ActSpan, start: int, end: int) -> date | None:
        """The day a number written "26-11" (day, then the month of the act's date) names, or None."""
        month = re.match(r"[-./](\d{1,2})\b", self.message[end:])
        try:
            said = date.fromisoformat(str(act.args.get("date")))
            return said.replace(day=int(self.message[start:end])) if month and int(month.group(1)) == said.month else None
        except (TypeError, ValueError):
            return None

    def _week_dated(self, day: date, any_day: bool = False) -> bool:
        """Does the message date a day (in figures, not a bare weekday; ``any_day``: in any words but a bare weekday) of
        the week (Monday to Sunday) of ``day``?"""
        return any(d.value is not None and d.kind != "weekday" and (any_day or re.search(r"\d", self.message[d.start:d.end]))
                   and d.value.isocalendar()[:2] == day.isocalendar()[:2] for d in self._days)

    def _other_week(self, said: date, day: Day) -> bool:
        """A bare weekday dated in the week before today while the message names a day (not a weekday) of the week
        before that one, which the weekday would fall in: which week is for the user to say."""
        told = [d.value for d in self._days if d.value is not None and d.kind != "weekday"
                and not (d.start <= day.start < d.end)]
        return any(0 <= (said - timedelta(days=7) - d).days <= 6 for d in told) and not any(
            0 <= (said - d).days <= 6 or 0 <= (d - said).days <= 6 for d in told)

    def _the_trips_time(self, day: Day) -> bool:
        """A day told in the sentence that opens a claim, where no line is told: the trip's time, not a line's."""
        start, end = _sentence_span(self.message, day.start)
        if any(a.name != "open_claim" and a.start < end and start < a.end for a in self.acts):
            return False
        if any(a.name == "add_line" and not a.args.get("date") for a in self.acts):
            return False  # ("I was up there last week. Taxi 30": the taxi is not today's; which day is asked)
        return any(a.name == "open_claim" and a.start < end and start < a.end for a in self.acts) or bool(
            _TRIP_SAID.search(self.message, start, end))  # "I am back from Vienna since yesterday evening, here …:"

    @functools.cached_property
    def _days(self) -> tuple[Day, ...]:
        """Every day the message names, read once (the checks below ask for them often). A weekday said alone, where a
        sentence tells the trip's first and last day, is that weekday of the trip ("I was in Lyon from Mon 16 to Wed 18
        Nov. Tuesday: lunch 22" told on 27 Nov: the 17th, never the 24th); none when the trip has no such day."""
        days = tuple(find_days(self.message, self.ctx.today))
        if self._trip_told is None and (before := self._trip_before) is not None and before[1] < self.ctx.today:
            # "trip was monday 16 to wednesday 18 nov" told before, then "monday: taxi …": that trip's Monday, when it
            # had one (else as read)
            return tuple(replace(d, value=inside) if d.kind == "weekday" and d.value == self.ctx.today and _BARE_DAY.fullmatch(
                self.message[d.start:d.end]) and (inside := weekday_within(d.value, before)) is not None else d for d in days)
        if (span := self._trip_told) is None or not any(
                two_days_only(self.message[s:e]) and any(s <= d.start < e and d.value == span[0] for d in days)
                for s, e in {_sentence_span(self.message, d.start) for d in days}):
            return days  # (a day told beside the trip's first and last, "I registered on 13 Nov", leaves them as read)
        return tuple(replace(d, value=weekday_within(d.value, span)) if d.kind == "weekday" and d.value is not None and
                     _BARE_DAY.fullmatch(self.message[d.start:d.end]) and not span[0] <= d.value <= span[1] else d
                     for d in days)

    @functools.cached_property
    def _trip_told(self) -> tuple[date, date] | None:
        """The first and last day of the trip a sentence of this message tells, where it tells no expense."""
        return _trip_days_told(self.message, self.ctx.today, lambda start, end: any(
            a.name != "open_claim" and a.start < end and start < a.end for a in self.acts))

    def _date_fits(self, act: ActSpan, day: Day) -> bool:
        said = act.args.get("date")
        if act.name == "add_line" and act.args.get("category") == "hotel" and day.value is not None and \
                said == day.value.isoformat() and _CHECKED_OUT.search(self.message[max(0, day.start - 30):day.start] + re.sub(
                    r"\d.*", "", self.message[day.start:day.end], flags=re.DOTALL)):
            return False  # "Hotel Clarion, check-out 20.11, 2 nights": the morning the stay ended is no night of it
        if act.act.get("earlier_evidence") and said and day.value is not None and day.kind == "weekday" and str(
                (self.ctx.pending or {}).get("question") or "").startswith("Which day was") and act.claim is not None and \
                in_the_trip(day.value, self.message[day.start:day.end], act.claim, self.ctx.today).isoformat() == said and \
                said in {str(line.get("date")) for line in act.claim.lines}:
            return True  # "monday", answering which day an expense told amid last week's trip was: the trip's Monday
        if act.act.get("earlier_evidence") and said and \
                week_answered(self.message, self.ctx.pending, self.ctx.today) == date.fromisoformat(str(said)):
            return True  # "last week", "the first one", answering "Which Thursday do you mean: today (3 Dec) or …?"
        if day.kind == "weekday" and said and day.value is not None and (span := self._trip_told):
            # "Training was 9. 11. – 11. 11. Monday: RegioJet …": the Monday of the trip told, and no other day
            return span[0] <= date.fromisoformat(str(said)) <= span[1] and date.fromisoformat(str(said)).weekday() == \
                day.value.weekday()
        if act.name == "update_line" and said and day.kind == "weekday" and day.value is not None and act.claim is not None \
                and _BARE_DAY.fullmatch(self.message[day.start:day.end]) and (line := _line(act.claim, act.args.get("line"))) \
                and line.get("date"):
            old, new = date.fromisoformat(str(line["date"])), date.fromisoformat(str(said))
            span = sorted(date.fromisoformat(str(other.get("date"))) for other in act.claim.lines if other.get("date"))
            if new.weekday() == day.value.weekday() and old - timedelta(days=old.weekday()) == new - timedelta(
                    days=new.weekday()) and span and span[0] - timedelta(days=1) <= new <= span[-1] + timedelta(days=1):
                return True  # "the tuesday lunch was actually on monday": the Monday of that lunch's week
        if day.kind == "weekday" and said and self._other_week(date.fromisoformat(str(said)), day):
            return False  # "… Monday 23 Nov. And parking … (paid on Wednesday)" on 5 Dec: 25 Nov or 2 Dec?
        if day.value is None and day.kind == "dmy" and self._day_first(act):
            day = replace(day, value=_day_first(self.message[day.start:day.end], self.ctx.today))
        if day.value is None and day.kind != "same":
            return False  # "12/10": 12 October or 10 December? Only the user can say
        if day.value is None:  # "same day", "that night": the day of the line told last, else any day the reader set
            last = self._last_day(act)
            offset = relative_offset(self.message[day.start:day.end])
            if last is not None and act.name == "add_line" and offset is not None:
                wanted = (date.fromisoformat(last) + timedelta(days=offset)).isoformat()
                return (said or self.ctx.today.isoformat()) == wanted
            return bool(said) or act.name in ("update_line", "remove_line")
        if said and day.kind == "weekday" and said != day.value.isoformat() and _BARE_DAY.fullmatch(
                self.message[day.start:day.end]) and self._weekday_dated_elsewhere(day) == said:
            return True  # "mon 23/11 fuel …, ibis 2 nites from mon 138": the Monday the message dated
        if act.name == "add_line" and act.claim is not None and (trip := in_the_trip(
                day.value, self.message[day.start:day.end], act.claim, self.ctx.today,
                self.message[:day.start])) != day.value and said == trip.isoformat() and _BARE_DAY.fullmatch(
                self.message[day.start:day.end]) and self._week_dated(trip) and not self._week_dated(day.value, True) \
                and not any(str(line.get("date") or "") and date.fromisoformat(str(line["date"])).isocalendar()[:2]
                            == day.value.isocalendar()[:2] for line in act.claim.lines):
            return True  # "Hotel Euler, 2 nights from Mon, 412.00 - Tue 17.11 lunch 22.00": the trip's Monday, the week
            # the message dates (never this week's, which it does not)
        if act.name == "add_line" and act.claim is not None and (trip := in_the_trip(
                day.value, self.message[day.start:day.end], act.claim, self.ctx.today,
                self.message[:day.start])) != day.value:
            # "breakfast 9 wed" told on a Wednesday, on a claim whose lines are this Monday and Tuesday: today, the one
            # day both readings of the weekday and the trip agree on
            return trip == self.ctx.today and said == trip.isoformat() and (self.ctx.today - day.value).days == 7  # "tue" on a claim whose trip was last week (or "wed" said on the Wednesday of this week's
            # trip): this week's or the trip's? Only the user can say
        if said == day.value.isoformat() or (said is None and day.value == self.ctx.today and act.name == "add_line"):
            return True
        if _night_of_stay(act, day.value, bool(_STAY_ENDS.search(self.message[act.start:act.end]))):
            return True  # "2 nights (tue and wed)", "checked out 3 dec": a day of the stay dated at check-in
        if act.name in ("update_line", "remove_line") and act.claim is not None:
            line = _line(act.claim, act.args.get("line"))
            if line is not None and line.get("date") == self.ctx.today.isoformat() and (
                    self.ctx.today - day.value).days == 7 and _BARE_DAY.fullmatch(self.message[day.start:day.end]):
                return True  # "…, not wed" told on a Wednesday of a line of today: this week's Wednesday
            if line is not None and _BARE_DAY.fullmatch(self.message[day.start:day.end]) and _only_one_that_weekday(
                    act.claim, line, day.value, self.message[act.start:act.end]):
                return True  # "the wednesday one" of two lunches: the one lunch on a Wednesday, whichever week
            return line is not None and line.get("date") == day.value.isoformat()  # names the line, not its date
        return False

    # ----------------------------------------------------------------- currencies

    def _original_aside(self, at: int) -> bool:
        """Is ``at`` inside brackets that tell what an expense added here was in the currency it was paid in, its
        amount in the claim's currency said outside them ("taxi 13.70 eur (that was 85 reais converted)")?"""
        bracket = next((m for m in ORIGINAL_ASIDE.finditer(self.message) if m.start() < at < m.end()), None)
        holder = self._holder(at, at + 1)
        if bracket is None or holder is None or holder.name != "add_line" or not holder.currency() or _ADD_VERB.search(
                bracket.group(0)):
            return False
        codes = currencies_named(bracket.group(0))
        outside = self.message[holder.start:bracket.start()] + " " + self.message[bracket.end():holder.end]
        told = {v for m in _ATOM.finditer(outside) for v in _values(m.group(0))}
        return bool(codes) and holder.currency() not in codes and _decimal(holder.args.get("amount")) in told

    def _currencies(self) -> None:
        mentions = currency_mentions(self.message)
        for mention in mentions:
            if self._touches_neutral(mention.start, mention.end):
                continue
            sentence = _sentence_span(self.message, mention.start)
            if re.search(r"\bin\s*$", self.message[:mention.start], re.IGNORECASE) and len(re.findall(
                    r"(?<![\w.,])\d+(?:[.,]\d+)?(?![\w.,]*\d)", self.message[sentence[0]:sentence[1]])) == 1 and any(
                    other is not mention and other.codes & mention.codes and sentence[0] <= other.start < sentence[1]
                    and self._touches_neutral(other.start, other.end) and (re.search(r"\d\s*$", self.message[:other.start])
                                                                          or re.match(r"\s*\d", self.message[other.end:]))
                    for other in mentions):
                continue  # "the taxi … was £38, paid in pounds": the currency of the words asked about, said again
            if _CONVERT_TO.search(self.message[:mention.start]) and any(
                    a.claim is not None and a.claim.currency in mention.codes for a in self.acts):
                continue  # "385,00 DKK. Please convert to EUR": the claim's currency, asked for
            if self._original_aside(mention.start):
                continue  # "13.70 eur (that was 85 reais converted)"
            holder = self._holder(mention.start, mention.end)
            acts = [holder] if holder else self.acts
            if any(a.currency() is None for a in acts):
                continue  # a claim still to be chosen or named: the engine checks the amount on the one chosen
            currencies = {a.currency() for a in acts}
            meant = currency_meant(mention)
            if currencies and currencies <= mention.codes and not (
                    mention.kind != "code" and len(mention.codes) > 1 and meant is not None and {meant} != currencies
                    and not any(a.args.get("currency") for a in acts)):
                continue  # ("$11.50" on a CAD claim: a dollar, most often the US one; which is asked, never assumed)
            if not currencies:
                continue
            self._leave("currency", mention.start, mention.end)

    # ----------------------------------------------------------------- words that change the meaning

    def _topics(self) -> None:
        """"about the note for meals 72 on tuesday: …, is it still in the 60 limit?": what a question is about, said
        first, is no expense to add (an addition read in words that open on "about", "regarding", "as for" is asked)."""
        for a in self.acts:
            if a.name != "add_line":
                continue
            start, _ = _sentence_span(self.message, a.start)
            lead = self.message[start:a.start] + self.message[a.start:a.end][:40]
            lead = lead[:m.start()] if (m := re.search(r"\d", lead)) else lead  # (up to its figure)
            if ":" not in lead and (_TOPIC.match(lead) or re.search(r"\b(?:the|your|that|this)\s+(?:note|notice|warning|"
                                                                    r"message)\b", lead, re.IGNORECASE)):
                self._leave("question", a.start, a.end)

    def _cues(self) -> None:
        message = self.message
        for m in _SPLIT.finditer(message):  # "half is mine", "split with Kasia": the amount is not the line's
            told = _SHARE_TOLD.match(message, m.end()) if re.search(r"\b(?:share|part|portion)\b", m.group(0), re.IGNORECASE) else None
            if told and any(a.name in ("add_line", "update_line") and _decimal(a.args.get("amount")) == _decimal(
                    told.group(1).replace(",", ".")) and a.start <= m.start() < a.end for a in self.acts):
                continue  # "paid my own share, €31.20": the figure said is the share, and it is the line's amount
            if re.fullmatch(r"my\s+(?:own\s+)?(?:share|part|portion)", m.group(0), re.IGNORECASE) and re.match(
                    r"\s*[)\].,;!]|\s*$", message[m.end():]) and not _PAID_ALL.search(message) and (
                    before := _SHARE_NOTED.search(message[:m.start()])) and any(
                    a.name in ("add_line", "update_line") and _decimal(a.args.get("amount")) in _values(before.group("figure"))
                    and a.start <= before.start("figure") < a.end for a in self.acts) and not re.match(
                        r"\s*(?:of|from|out\s+of)\b", message[m.end():], re.IGNORECASE):
                continue  # "dinner at Augustiner 42 (only my part)": the figure said is the share, and it is the line's
            if any(a.name in ("add_line", "update_line") for a in self.acts) and not self._touches_neutral(*m.span()):
                self._leave("number", *_sentence_span(message, m.start()))
                break
        for m in _LABELLED_QUESTION.finditer(message):  # "Question: taxi 45": what follows is asked, never told
            sentence = _sentence_span(message, m.end())
            if any(a.name in ("add_line", "update_line", "remove_line") and a.start < sentence[1] and sentence[0] < a.end for a in self.acts):
                self._leave("question", *sentence)
                break
        for m in _ORDINAL_NIGHT.finditer(message):  # "a segunda noite foi 80": a night of a stay told, which one is
            sentence = _sentence_span(message, m.start())  # it on the claim? never a new stay ("2nd night 180 on the
            if find_days(message[sentence[0]:sentence[1]], self.ctx.today):  # 17th": that night, told with its day)
                continue
            if any(a.name == "add_line" and a.start < sentence[1] and sentence[0] < a.end for a in self.acts):
                self._leave("correction", *sentence)
                break
        for m in _WAS_A_NO_B.finditer(message):  # "la cena fue 68,50, no 86,50": "not 86,50", or "no, 86,50"?
            if self.acts:
                self._leave("correction", *_sentence_span(message, m.start()))
                break
        for m in _PER_HEAD.finditer(message):  # "so per head it is 32 EUR": a share of a bill, never a line's amount
            value = _decimal((m.group("n") or m.group("n2")).replace(",", "."))
            if any(a.name in ("add_line", "update_line") and _decimal(a.args.get("amount")) == value for a in self.acts):
                self._leave("number", *_sentence_span(message, m.start()))
                break
        for m in _PART_OF.finditer(message):  # "Restaurant bill 80. Dinner was 60 of it, wine 20.": a bill's parts
            if sum(a.name == "add_line" for a in self.acts) > 1 and not self._touches_neutral(*m.span()):
                self._leave("number", *_sentence_span(message, m.start()))
                break
        for m in _DOUBT.finditer(message):  # "…, 199/night, not sure which day to put": the user's own doubt
            sentence = _sentence_span(message, m.start())
            if any(a.name in ("add_line", "update_line") and a.start < sentence[1] and sentence[0] < a.end for a in self.acts):
                self._leave("question", *sentence)
                break
        if announced := _FIXES_ANNOUNCED.match(message):  # "2 corrections: taxi 23, lunch 14": corrections, never new lines
            # (one announced, "mistake: lunch was 14 not 12. Taxi 20 on tuesday": its sentence's, not the next ones')
            one = not re.search(r"(?:mistakes|errors|fixes|corrections|typos|changes)\b|\d", announced.group(0), re.IGNORECASE)
            ends = _sentence_span(message, announced.end())[1] if one else len(message)
            kinds = {str(line.get("category")) for a in self.acts if a.claim is not None for line in a.claim.lines} | {
                str(a.args.get("category")) for a in self.acts if a.name == "update_line" and a.args.get("category")}
            fixed = {_decimal(line.get("amount")) for a in self.acts if a.name == "update_line" and a.claim is not None
                     and (line := _line(a.claim, a.args.get("line"))) is not None} | {
                _decimal(a.args.get("amount")) for a in self.acts if a.name == "update_line" and a.args.get("amount")}
            for a in self.acts:  # (after it, a kind the claim has, or the fixed line's amount, may be the fix told again)
                if a.name == "add_line" and not a.act.get("earlier_evidence") and (
                        a.start < ends or a.args.get("category") in kinds or _decimal(a.args.get("amount")) in fixed):
                    self._leave("correction", a.start, a.end)
        if _SAID_NEW.search(message) and any(a.name == "update_line" for a in self.acts):
            for a in self.acts:  # "Both are new expenses. The taxi was 28 …": new, yet read as a change: asked
                if a.name == "update_line":
                    self._leave("correction", a.start, a.end)
        for pattern, kind in ((_STRONG, "negation"), (_CORRECTION, "correction"), (_SOFT, "correction")):
            for m in pattern.finditer(message):
                self._cue(kind, m, soft=pattern is _SOFT)
        asides = [(m.start(), m.end()) for m in re.finditer(r"\([^()\d]{0,120}\)", message)]
        for m in _QUESTION.finditer(message):
            if _in_any(m.start(), m.end(), asides):
                continue  # "(why is it always more on the way back lol)": an aside asks nothing of the claim
            sentence = _sentence_span(message, m.start())
            if self._asks_about_an_act(sentence):
                self._leave("question", *sentence)  # "add a taxi for 20, is that ok?": asked before it is done
                break
            if self._touches_neutral(m.start(), m.end()) or self._touches_neutral(*sentence):
                continue  # the question is answered (its quote may leave out the "?")
            sentence = _sentence(message, m.start())
            if _POLITE.search(sentence) and not _ASKING.search(sentence):
                continue  # "could you add a taxi of 20?" is a request
            if not self.acts:
                continue
            self._leave("question", *_sentence_span(message, m.start()))
            break
        self._filters()

    def _cue(self, kind: str, m: re.Match[str], *, soft: bool) -> None:
        start, end = m.start(), m.end()
        if self._touches_neutral(start, end) or _harmless(self.message, start):
            return
        if _WHY_REMOVED.match(self.message, start) and any(
                a.name == "remove_line" and a.start < _sentence_span(self.message, start)[1] and
                _sentence_span(self.message, start)[0] < a.end for a in self.acts):
            return  # "drop the gardermoen lunch, lost the receipt, not worth it": why it goes, beside its removal
        if any(0 <= s - end <= 3 and not self.message[end:s].strip(" ,-–—:;") for s, _ in self.neutral):
            return  # "…, actually don't submit yet": it opens the hold (or take-back) the plan keeps
        holder = self._holder(start, end)
        if holder is None:
            # words around the acts: a take-back the reader missed ("… not the lunch though") is left over; a
            # correction or an apology beside an edit, or anything beside acts that each wait for a card, is not
            if not soft and not self.carded and not (kind == "correction" and self.corrects) and not (
                    kind == "negation" and (self._leaves_out_others(start) or self._not_the_users(start)
                                            or self._others_paid_aside(start) or self._unpriced_taken_back(start))):
                self._leave(kind, *_sentence_span(self.message, start))
            elif soft and _RETHINK.fullmatch(m.group(0)) and not self.carded and self._right_after_an_act(start):
                self._leave("correction", *_sentence_span(self.message, start))  # "…, on vienna - no sorry, berlin"
            return
        if holder.name in _CARDED or holder.name == "update_line":
            if not _DONT.match(self.message, start) or holder.name == "update_line":
                return  # an edit is a correction ("the cab was 26 not 24"); a card asks before a removal runs
            if holder.name == "remove_line" and _NO_NEED_OF_IT.match(self.message, start):
                return  # "forget the coffee, dont need to claim that": why it goes, beside its removal (on a card)
        if holder.act.get("earlier_evidence"):
            if _GIVE_UP.search(self.message):
                self._leave("negation", holder.start, holder.end)  # "no no, 34,60 was correct … undo please"
            return  # completing the question the last reply asked ("sorry, I meant Hamburg")
        if holder.name == "open_claim":
            if kind == "negation" and not soft:
                self._leave(kind, holder.start, holder.end)
            return
        if not soft:
            self._leave(kind, holder.start, holder.end)
            return
        word = m.group(0).lower()
        if _RETHINK.fullmatch(word):
            # "taxi 31 actually", "on vienna - no sorry, berlin": a change of mind inside the line, unless the user
            # goes on to ask for the addition itself ("actually pls add it, taxi 14")
            if not _ADD_VERB.search(self.message, end, holder.end):
                self._leave("correction", holder.start, holder.end)
            return
        sentence = _sentence_span(self.message, holder.start)
        words = self.message[holder.start:holder.end]
        if _ORDINAL_THING.search(self.message[holder.start:start]):
            self._leave("correction", holder.start, holder.end)  # "the 2nd bolt was 11,80": one of several, told again
            return
        if _ADD_VERB.search(self.message, min(sentence[0], holder.start), max(sentence[1], holder.end)):
            return
        said_again = _SAID_AGAIN.search(words)
        if said_again and not _categories_in(words[:said_again.start()]) and not re.search(r"\d", words[:said_again.start()]):
            self._leave("correction", holder.start, holder.end)  # "sorry — it was only two nights … that makes 336"
            return
        definite = _DEFINITE_THING.match(words)
        if _similar_line(holder, words, self.ctx.today, definite=bool(definite)) is not None:
            self._leave("correction", holder.start, holder.end)  # "the sncf was 98" beside an SNCF line
        elif definite and self._told_before(words[:definite.end()]):
            self._leave("correction", holder.start, holder.end)  # "the frankfurt coffee was 9.70" after a coffee

    def _leaves_out_others(self, start: int) -> bool:
        """"ignore zabka, spotify and empik" beside the lines it adds: names left out that are none of the plan's
        lines (nor a line of a claim, a kind of expense, a pronoun or a figure) change nothing it does."""
        m = _LEAVE_OUT.match(self.message, start)
        if m is None:
            return False
        names = [w.lower() for w in re.findall(r"[^\W\d_][\w'’-]*", m.group("names")) if w.lower() not in ("and", "or", "the")]
        if not names or _categories_in(m.group("names")) or re.search(r"\b(?:it|that|this|them|those|these|one|ones|"
                                                                       r"line|lines|rest|others?)\b", m.group("names"),
                                                                       re.IGNORECASE):
            return False
        said = " ".join(self.message[a.start:a.end].lower() + " " + " ".join(str(v).lower() for v in a.args.values())
                        for a in self.acts)
        known = " ".join(f"{line.get('merchant') or ''} {line.get('description') or ''}".lower()
                         for claim in self.ctx.claims for line in claim.lines)
        known += " " + " ".join(claim.title.lower() for claim in self.ctx.claims)  # "not berlin": a claim, maybe
        return not any(re.search(rf"\b{re.escape(n)}", said) or re.search(rf"\b{re.escape(n)}", known) for n in names)

    def _unpriced_taken_back(self, start: int) -> bool:
        """"…, parking... no sorry, no parking. Then taxi …": a thing named with no figure and taken back in the same
        breath, which no act of the plan adds and no line of the claim is (else it may be a removal: asked)."""
        from .values import find_categories

        s, e = _sentence_span(self.message, start)
        before = max((m.end() for m in re.finditer(r"[,;!?\n]|\.(?=\s)", self.message[:s].rstrip())), default=0)
        words = self.message[before:e]
        named = {c.text.lower().rstrip("s") for c in find_categories(words) if not c.weak}
        if re.search(r"\d", words) or not named or any(a.start < e and s < a.end for a in self.acts) or re.search(
                r"\b(?:drop|remove|delete|scrap|scratch|cancel|strike|erase|rid|off|out)\b", words, re.IGNORECASE):
            return False  # ("actually drop the tube, that one's on me": a removal of a line, never a thing untold)
        said_no = re.search(r"\b(?:no|not)\s+(?:the\s+)?([^\W\d_]+)\W*$", self.message[s:e], re.IGNORECASE)
        if said_no is None or said_no.group(1).lower().rstrip("s") not in named or not re.search(
                rf"\b{re.escape(said_no.group(1))}", self.message[before:s], re.IGNORECASE):
            return False  # only the thing just told, then "no <thing>" ("The flight was booked by our travel desk so I
            # am not claiming it" is why, of a kind the plan adds: asked)
        told = " ".join(f"{a.act.get('evidence') or ''} {a.args.get('description') or ''}" for a in self.acts).lower()
        kept = " ".join(f"{line.get('merchant') or ''} {line.get('description') or ''}" for c in self.ctx.claims
                        for line in c.lines).lower()
        return not any(re.search(rf"\b{re.escape(n)}", told) or re.search(rf"\b{re.escape(n)}", kept) for n in named)

    def _others_paid_aside(self, start: int) -> bool:
        """"wed taxi 18,20, dinner was on the client so nothing there": after a comma, with no figure, a thing of a kind
        no act of the plan is, said to be someone else's."""
        s = max((m.end() for m in re.finditer(r"[,;.!?\n]", self.message[:start])), default=0)
        e = next((s + m.start() for m in re.finditer(r"[;.!?\n]", self.message[s:])), len(self.message))
        words = self.message[s:e]
        if re.search(r"\d", words) or not _OTHERS_PAID.search(words) or any(a.start < e and s < a.end for a in self.acts):
            return False
        from .values import find_categories

        # a kind of expense named, none of the plan's ("…, dinner was on the client"); a thing named by no kind ("the
        # bill", "the garage", "the reception") may be one the plan adds: asked
        found = find_categories(words)
        things = {c.category for c in found if not c.weak} or {  # ("Training fee was paid by …"; never "the fee was …")
            c.category for c in found if not re.search(r"\b(?:the|this|that|its|their|my)\s+$", words[:c.start], re.IGNORECASE)}
        kinds = {str(a.args.get("category")) for a in self.acts}
        if things & kinds and lexicon.meal_named_apart(words, [self.message[a.start:a.end] for a in self.acts
                                                              if str(a.args.get("category")) in things]):
            kinds = kinds - things  # "Lunch was catered by the client" beside "a coffee and a bagel": a lunch, not them
        if re.search(r"\b(?:not|n't|dont|leave|skip|forget|drop|remove|scratch|ignore|out)\b", words, re.IGNORECASE) and (
                len(things) != 1 or re.search(r"\b(?:it|that|them|this|those)\b", words, re.IGNORECASE) is None and
                re.search(r"\b(?:not|n't|dont)\s+(?:add|include|claim|put|here\b|on\s+(?:this|the|my)\s+claim|mine)\b", words,
                          re.IGNORECASE) is None):
            return False  # (a take-back said with it is the audit's to weigh, unless it names one kind and says not to
            # add it: "…, lunch wed the customer paid so dont add", never "…, the ride was on the client so not claiming it")
        return bool(things) and not things & kinds

    def _not_the_users(self, start: int) -> bool:
        """"The flight was booked by our travel desk so I am not claiming it." beside the lines it adds: a sentence with
        no figure that says something is not the user's to claim, naming nothing the plan does (nor a line of a claim)."""
        s, e = _sentence_span(self.message, start)
        words = self.message[s:e]
        if re.search(r"\d|\?", words) or not _NOT_MINE.search(words) or not self.acts or any(
                a.start < e and s < a.end for a in self.acts):
            return False
        from .values import find_categories

        # the thing it names: a kind of expense none of the plan's acts is ("The flight was booked by our travel desk"
        # beside a train and a taxi); "My boss paid it so I am not claiming it" names none: it is the taxi just told
        things = [c for c in find_categories(words) if not c.weak]
        kinds = {str(a.args.get("category")) for a in self.acts} | {
            c.category for a in self.acts for c in find_categories(self.message[a.start:a.end]) if not c.weak}
        said = " ".join(self.message[a.start:a.end].lower() + " " + " ".join(str(a.args.get(k) or "").lower() for k in (
            "merchant", "description", "title")) for a in self.acts)
        known = " ".join(f"{line.get('merchant') or ''} {line.get('description') or ''}".lower()
                         for claim in self.ctx.claims for line in claim.lines)
        return bool(things) and all(c.category not in kinds and c.text.lower() not in said + " " + known for c in things)

    def _weekday_dated_otherwise_before(self, act: ActSpan, own: list[Day], dated: str) -> Day | None:
        """A bare weekday of this line ("monday dinner") read as another day than the one the user's last message
        gave that weekday by its date ("flew DEN-BOS monday 11/23"): a week apart, which one is unsure."""
        previous = self.ctx.previous or ""
        bare = [d for d in own if d.kind == "weekday" and d.value is not None and _BARE_DAY.fullmatch(
            self.message[d.start:d.end])]
        if not bare or not previous.strip() or not act.args.get("date"):
            return None
        told = [d.value for d in find_days(previous, self.ctx.today) if d.value is not None and d.kind != "weekday"]
        for d in bare:
            if str(d.value) == dated and any(t.weekday() == d.value.weekday() and t != d.value and abs(
                    (t - d.value).days) == 7 for t in told):
                return d
        return None

    def _weekday_word_not_its_day(self, act: ActSpan, dated: str) -> tuple[int, int] | None:
        """A weekday's name (English or another language's, whatever its capitals) inside an added line's own words,
        before its price, when the line's day falls on another weekday and no date said in its words explains it
        (a name holding a day, "Trattoria Domenica", is asked too: a question is the safe answer)."""
        words = self.message[act.start:act.end]
        if any(act.holds(d.start, d.end) and d.kind != "weekday" for d in self._days):
            return None  # "Friday 28.11 …": the figures say which day
        try:
            weekday = date.fromisoformat(dated).weekday()
        except ValueError:
            return None
        # (short forms, "sat", "wed", "do", "fr", are words too; a weekday after the price, "taxi 23 friday", is the
        # reader's to date, checked elsewhere)
        named = str(act.args.get("merchant") or "").casefold()  # ("lunch at Sábado Bar": a name holds it, no day)
        told = [(w, _WEEKDAYS[w.group(0).lower()]) for w in re.finditer(r"[^\W\d_]+", words)
                if len(w.group(0)) >= 5 and w.group(0).lower() in _WEEKDAYS and w.group(0).casefold() not in named
                and not (re.search(r"\d", words[:w.start()]) and not re.search(r"\d", words[w.end():]))]
        for pair in re.finditer(r"\b([^\W\d_]{2,10})\.?\s*(?:\+|&|/|-|–|\band\b|\bund\b|\bbis\b|\bto\b)\s*"
                                r"([^\W\d_]{2,10})\b", words, re.IGNORECASE):
            first, last = (_weekday_form(pair.group(n)) for n in (1, 2))
            if first is not None and last is not None and first != weekday:
                return act.start + pair.start(), act.start + pair.end()  # "parkhaus mo+di zusammen 38": from Monday
        if act.args.get("category") == "hotel":  # "war Dienstag bis Donnerstag", "2 nts wed+thurs": a stay is dated by
            # the first night told, never its last day (short forms count here: the words are a stay's)
            told = [(w, form) for w in re.finditer(r"[^\W\d_]{3,}", words) if (form := _weekday_form(w.group(0))) is not None][:1]
        odd = next((w for w, said in told if said != weekday), None)
        return (act.start + odd.start(), act.start + odd.end()) if odd is not None else None

    def _asks_about_an_act(self, sentence: tuple[int, int]) -> bool:
        """Does a question in this sentence ask about an act in it ("…, is that ok?", "can I claim it?")?"""
        words = self.message[sentence[0]:sentence[1]]
        return bool(_ABOUT_IT.search(words)) and any(sentence[0] <= a.start < sentence[1] for a in self.acts)

    def _names_another_merchant(self, words: str, merchant: str) -> bool:
        """Do the words name who was paid, and is that not the line's merchant?"""
        from ..naming import city_aliases
        from .values import find_merchants

        titles = {w for c in self.ctx.claims for w in re.findall(r"[^\W\d_]{3,}", c.title.casefold())}
        said = [m.name for m in find_merchants(words)  # (a name said as one: "the Imperial", "at Zapiecek"; never a
                if re.search(r"\b(?:the|at|in|with|from|by|via)\s+$", words[:m.start], re.IGNORECASE)  # claim's city)
                and not set(re.findall(r"[^\W\d_]{3,}", m.name.casefold())) & titles
                and m.name.casefold() not in lexicon.STAY_MOMENTS  # ("… city tax at checkout": when, not who)
                and not city_aliases(m.name.split()[0])]
        own = set(re.findall(r"[^\W\d_]{3,}", merchant.casefold()))
        return bool(said) and not any(set(re.findall(r"[^\W\d_]{3,}", n.casefold())) & own for n in said)

    def _told_before(self, words: str) -> bool:
        """Does the message before this one tell of the thing these words name ("the coffee was …" after "9.40
        coffee with the auditors")? Then they correct it, whatever became of it."""
        previous = (self.ctx.previous or "").lower()
        nouns = [w for w in re.findall(r"[a-zà-ÿ]{4,}", words.lower()) if w not in _NOT_A_NAME and w not in
                 ("that", "this", "those", "these", "their", "your")]
        # (a place the thing was a ride to or from, "a taxi … to the hotel", tells no hotel)
        return bool(previous) and any(m and not re.search(
            r"(?:\b(?:to|from|at|into|towards|near)\s+(?:the\s+|my\s+|our\s+)?|->|→)$", previous[:m.start()])
                                      for n in nouns for m in re.finditer(rf"\b{re.escape(n)}", previous))

    def _a_day_unread(self, start: int, end: int) -> bool:
        """Is "5th" in a plan that only adds lines a day of the month that none of them is dated on? ("the 2nd night",
        "the 3rd one" count; "The 5th taxi to airport 42" heading the message is a day)"""
        if _ORDINAL_UNIT.match(self.message, end) and not re.fullmatch(r"\W*(?:on\s+)?(?:the\s+)?",
                                                                       self.message[:start], re.IGNORECASE):
            return False
        n = int(re.sub(r"\D", "", self.message[start:end]))
        adds = [a for a in self.acts if a.name == "add_line"]
        if not adds or len(adds) != len(self.acts) or not 1 <= n <= 31:
            return False
        return not any(str(a.args.get("date") or self.ctx.today.isoformat()).endswith(f"-{n:02d}") for a in adds)

    def _day_first(self, act: ActSpan) -> bool:
        """"10/11" is 10 November, not October 11, on a claim kept in a European currency, when nothing in the message
        is written the American or the East Asian way, month first: no dollar, no yen (the reader takes the day first
        too)."""
        claim = act.claim or self.ctx.default_claim()
        return claim is not None and claim.currency in _DAY_FIRST_CURRENCIES and not re.search(
            r"[$¥￥]|\b(?:usd|cad|jpy|cny|rmb|krw|yen|yuan|won|dollars?|bucks)\b", self.message, re.IGNORECASE)

    def _agrees(self, act: ActSpan, target: dict[str, Any], words: str) -> bool:
        """Do the kind and the day the words name (when they name one) agree with the line the act targets? A line
        found as "it" or "that" must be the one the words describe."""
        days = find_days(words, self.ctx.today)
        undated = "".join(" " if any(d.start <= i < d.end for d in days) else ch for i, ch in enumerate(words))
        from .values import find_categories

        if _ONLY_IT.fullmatch(words.strip()):  # "… the laundry is private. Please remove it.": what "it" is, is said before
            words = self.message
            days = find_days(words, self.ctx.today)
            undated = "".join(" " if any(d.start <= i < d.end for d in days) else ch for i, ch in enumerate(words))
        kinds = _categories_in(undated) | {c.category for c in find_categories(undated) if not c.weak}
        if kinds and "category" not in act.args and str(target.get("category")) not in kinds:
            return False  # "the laundry is a private thing, please remove it": not the train told last
        said = {d.value.isoformat() for d in days if d.value is not None}
        if days and all(d.value is not None and _BARE_DAY.fullmatch(words[d.start:d.end]) for d in days) and all(
                _only_one_that_weekday(act.claim, target, d.value, words) for d in days if d.value is not None):
            return True  # "the tue one": the one line of that kind on a Tuesday
        return not said or "date" in act.args or str(target.get("date")) in said or all(
            _night_of_stay(act, date.fromisoformat(d), True) for d in said)  # "… 2 nights not 3, check-out was 27.11"

    def _own_words(self, act: ActSpan) -> str:
        """The act's words with the rest of its sentence that no other act's words hold ("the koffieboon one I'll pay
        myself, take it off": the removal is told by its sentence)."""
        sentence = _sentence_span(self.message, act.start)
        start, end = min(act.start, sentence[0]), max(act.end, sentence[1])
        chars = list(self.message[start:end])
        for other in self.acts:
            if other is act:
                continue
            for i in range(max(other.start, start), min(other.end, end)):
                if not act.start <= i < act.end:
                    chars[i - start] = " "
        return "".join(chars)

    def _right_after_an_act(self, at: int) -> bool:
        """Does a line's words end just before ``at``, in the same sentence (a change of mind said after it)?"""
        sentence = _sentence_span(self.message, at)
        return any(a.name != "update_line" and sentence[0] <= a.end <= at and not self.message[a.end:at].strip(" ,-–—:;.…")
                   for a in self.acts)

    def _left_out_rows(self) -> None:
        """Pasted rows a filter that holds leaves out ("only the uber and the bolt are work"): their figures and days
        are no line's, so they are placed."""
        rows = [r for r in self.message.split("\n") if _ATOM.search(r)]
        if not any(a.name == "add_line" for a in self.acts) or len(rows) < 2:
            return
        from .values import rows_kept_by_place

        if (by_place := rows_kept_by_place(self.message)) is not None:
            used = {(s, e) for s, e in by_place.rows if any(s <= a.start < e for a in self.acts)}
            if used == set(by_place.kept):  # the rows read are exactly the places kept: the rest is no line's
                self.neutral += [row for row in by_place.rows if row not in used] + [by_place.said]
            return
        for m in _FILTER.finditer(self.message):
            if self._touches_neutral(m.start(), m.end()) or not self._filter_holds(m):
                continue
            for row in re.finditer(r"[^\n;]+", self.message):
                if (row.start() > m.end() or row.end() < m.start()) and not any(
                        row.start() <= a.start < row.end() for a in self.acts):
                    self.neutral.append(row.span())
            said = next(r for r in re.finditer(r"[^\n]+", self.message) if r.start() <= m.start() < r.end())
            if not re.search(r"\d", said.group(0)) and all(
                    _THE_REST.match(said.group(0), c.end()) or re.fullmatch(r"personal(?:ly)?|private", c.group(0), re.I)
                    for c in _STRONG.finditer(said.group(0))):
                self.neutral.append(said.span())  # "…, skip the other two (personal)": the filter said again
            return

    def _filters(self) -> None:
        rows = [r for r in self.message.split("\n") if _ATOM.search(r)]
        if not any(a.name == "add_line" for a in self.acts) or len(rows) < 2:
            return  # no pasted rows to keep or leave: "only my part" is no filter
        for m in [*_FILTER.finditer(self.message), *_FILTER_ONES.finditer(self.message)]:
            if self._touches_neutral(m.start(), m.end()):
                continue
            if not self._filter_holds(m):
                self._leave("filter", *_sentence_span(self.message, m.start()))

    def _filter_holds(self, m: re.Match[str]) -> bool:
        """A filter over pasted rows: the rows an act was read from are exactly the rows the filter keeps."""
        keywords = [(m.group("word") or m.groupdict().get("plural") or "").lower()]
        listed = _MORE_NAMED.match(self.message, m.end())  # "only the uber and the bolt": each one named
        if listed and m.re is _FILTER:
            keywords += [w.lower() for w in re.findall(r"[\w'’-]+", listed.group(0))
                         if w.lower() not in ("and", "the", "or")]
        rows = [(r.start(), r.end()) for r in re.finditer(r"[^\n;]+", self.message)]
        rows = [(s, e) for s, e in rows if s > m.end() or e < m.start()]
        if not keywords[0] or len(rows) < 2:
            return False
        keep = not re.match(r"(?:except|excluding|apart|without|but|all\s+but|not)", m.group(0), re.IGNORECASE)
        for s, e in rows:
            used = any(s <= a.start < e for a in self.acts)
            has = any(keyword in self.message[s:e].lower() for keyword in keywords)
            if used != (has if keep else not has):
                return False
        return True

    # ----------------------------------------------------------------- titles

    def _titles(self) -> None:
        for a in self.acts:
            if a.name != "open_claim":
                continue
            title = str(a.args.get("title") or "")
            # whole words in any script ("distributoři" holds no "i"); "IT" in capitals is no pronoun
            words = {w.lower() for w in re.findall(r"[^\W\d_][\w']*", re.sub(r"\bNew(?=\s+[A-Z])", " ", title))
                     if not (w.isupper() and len(w) > 1)}  # ("New York deposition": a city's name, no request)
            if words & _REQUEST_WORDS or re.search(r"^\W*(?:d|ll|ve|m|s)\b", title, re.IGNORECASE) or not title[:1].isalnum() \
                    or (re.search(r"[.!?;]\s+\S", title) and not (
                        any(title in q.group(1) for q in _QUOTED_TITLE.finditer(self.message)))):
                # "… last week. Currency": two sentences are no title, unless the user quoted them ("… - S. Byrne")
                self._leave("title", a.start, a.end)
            elif "," in title and not any(title in q.group(1) for q in _QUOTED_TITLE.finditer(self.message)) and any(
                    w.islower() and not known_word(w) for w in re.findall(r"[^\W\d_]{2,}", title.split(",", 1)[1])):
                self._leave("title", a.start, a.end)  # "Göteborg site visit, en coronas suecas": words the title may not hold
            elif not any(title in q.group(1) for q in _QUOTED_TITLE.finditer(self.message)) and re.search(
                    rf",\s*{re.escape(title)}\W*$", self.message, re.IGNORECASE) and (
                    first := re.match(r"[^\W\d_]+", title)) and lexicon.CATEGORY_WORDS.get(first.group(0).lower()) in (
                    "taxi", "hotel", "meals", "travel") and first.group(0).lower() not in lexicon.WEAK_CATEGORY_WORDS:
                self._leave("title", a.start, a.end)  # "new claim in CAD please, hotel in Montreal": an expense told?
            elif re.search(r"\b(?:and\s+then|then)\b", title, re.IGNORECASE) or (
                    _categories_in(title) and (re.search(r"\d", title) or number_words(title)) and not _QUOTED_TITLE.search(self.message)):
                self._leave("title", a.start, a.end)  # "Frankfurt workshop and then the flight was 212": an expense too


    # ----------------------------------------------------------------- what a line is

    def _lines(self) -> None:
        added = {x.args.get("category") for x in self.acts if x.name == "add_line"}
        for a in self.acts:
            if a.name == "update_line" and _REQUEST_IN_NOTE.search(str(a.args.get("description") or "")):
                self._leave("other", a.start, a.end)  # a note holding another change ("… make it lunch, and merchant …")
                continue
            if a.name == "remove_line" and _KEPT.search(self.message[a.start:a.end]):
                self._leave("negation", a.start, a.end)  # "remove the taxi. uber is fine": which one goes is unsure
                continue
            if a.name == "remove_line" and added & _categories_in(self.message[a.start:a.end]) and not self._removes_by_name(a):
                self._leave("negation", a.start, a.end)  # "taxi 30, taxi 25, scrap the taxi": which one goes?
                continue
            if a.name in ("update_line", "remove_line") and a.claim is not None and not _LINE_REF.search(
                    self.message[a.start:a.end]) and _other_leg(self.message[a.start:a.end],
                                                                _line(a.claim, a.args.get("line")) or {}) and not (
                    _its_old_amount_said(self.message[a.start:a.end], _line(a.claim, a.args.get("line")) or {})):
                self._leave("correction", a.start, a.end)  # "the flight home was 198" on the "flight out" line
                continue
            if a.name in ("update_line", "remove_line") and a.claim is not None:
                words = self._own_words(a)
                for value in (a.args.get("merchant"), a.args.get("description")) if a.name == "update_line" else ():
                    if value:  # "change the merchant of line 2 to Vueling": the new name names no line
                        words = re.sub(re.escape(str(value)), " ", words, flags=re.IGNORECASE)
                named = _lines_named(a.claim, words, self.ctx.claims)
                target = _line(a.claim, a.args.get("line"))
                if a.name == "update_line" and target is not None and target.get("category") == "hotel" and target.get(
                        "merchant") and not a.args.get(
                        "merchant") and self._names_another_merchant(words, str(target["merchant"])):
                    self._leave("other", a.start, a.end)  # "The hotel was the Imperial, …" read on the Bristol line
                    continue
                if named and target not in named:
                    self._leave("other", a.start, a.end)  # "the koffieboon one", yet another line
                    continue
                if target is not None and not _line_fits_words(target, words):
                    self._leave("other", a.start, a.end)  # "the second bolt" read as line 2, a flight
                    continue
                if target is not None and not _LINE_REF.search(words) and _another_route(target, words):
                    self._leave("other", a.start, a.end)  # "the taxi to the airport" read as the one to the office
                    continue
                if target is not None and not _LINE_REF.search(words) and self._more_told_before(target, a.claim):
                    self._leave("other", a.start, a.end)  # "change the taxi amount" after "there were two taxis …"
                    continue
                if target is not None and not named and not _LINE_REF.search(words) and not self._agrees(a, target, words):
                    self._leave("other", a.start, a.end)  # "the Monday dinner …, pls remove it" read as the last line
                    continue
                if target is not None and not named and not _LINE_REF.search(words) and _one_of_a_kind(
                        a.claim, target, words, self.ctx.today) is False:
                    self._leave("other", a.start, a.end)  # "the client lunch" with two meal lines: which one?
                    continue
                old, new = _decimal(target.get("amount")) if target else None, _decimal(a.args.get("amount"))
                if a.name == "update_line" and old and new and not _LINE_REF.search(words) and not (
                        Decimal("0.5") <= new / old <= Decimal("2")) and not any(
                        old in _values(m.group(0)) for m in _ATOM.finditer(words)):
                    self._leave("correction", a.start, a.end)  # "the tickets came to 296" on a 74.60 line: that one?
                    continue
                changed = [k for k in ("date", "amount", "merchant", "category") if k in a.args]
                if a.name == "update_line" and "date" in changed and len(changed) > 1 and not _LINE_REF.search(words):
                    self._leave("correction", a.start, a.end)  # a new day and a new amount: another expense?
                    continue
            if a.name not in ("add_line", "update_line"):
                continue
            words = self.message[a.start:a.end]
            if a.name == "add_line" and _MONEY_BACK.search(words):
                self._leave("other", a.start, a.end)  # "scandic refund 200": money back is no expense to add
                continue
            category = a.args.get("category") if a.name == "add_line" else None
            if category:
                days = [(d.start, d.end) for d in find_days(words, self.ctx.today)]
                undated = "".join(" " if any(s <= i < e for s, e in days) else ch for i, ch in enumerate(words))
                kinds = _categories_in(undated)
                present = _categories_in(_not_bought(undated))  # "site→hotel": where it went
                if present and category not in present and not (category == "other" and len(present) > 1):
                    self._leave("other", a.start, a.end)  # "heliport car park … " read as a hotel
                    continue
                if not present and category in kinds:
                    self._leave("other", a.start, a.end)  # "21.40, site→hotel" read as a hotel
                    continue
                if category == "hotel" and present - {"hotel"}:
                    self._leave("other", a.start, a.end)  # "dinner at the restaurant of the hotel"
                    continue
                if _kind_beside_amount(undated, category, a.args.get("amount")):
                    self._leave("other", a.start, a.end)  # "lunch on friday, taxi 15": the 15 is the taxi's
                    continue
                second = next((at for at in _others_told(words, category, a.args.get("amount")) if not any(
                    b is not a and b.holds(a.start + at + 1, a.start + at + 2) for b in self.acts)), None)
                if second is not None:
                    self._leave("other", a.start + second, a.end)  # "dinner 45 and a taxi back …": a second expense
                    continue
            amount = _decimal(a.args.get("amount"))
            if amount is not None:
                self._amount_said_as_money(a, amount, words)
                self._amount_estimated(a, amount)
            merchant = str(a.args.get("merchant") or "")
            if merchant and _odd_merchant(merchant, self.message + "\n" + str(a.act.get("earlier_evidence") or "")):
                self._leave("other", a.start, a.end)
            if merchant and a.name == "add_line":
                from .items import merchants_in

                words = self.message[a.start:a.end]
                names = [n for n in merchants_in(words, self.message) if not claims_named(n, self.ctx.claims)]
                at_it = re.search(rf"\bat\s+(?:the\s+)?{re.escape(merchant)}\b", words, re.IGNORECASE)
                if len(names) > 1 and merchant in names and not at_it:  # "… with the buyer at Snooze": Snooze was paid
                    self._leave("other", a.start, a.end)  # "grab an Uber": two names, one was paid
            # (what asks to add it is said before or in its own words: "hotel mon 146 + tue 146" asks for the Tuesday)
            sentence = self.message[_sentence_span(self.message, a.start)[0]:a.end]
            if a.name == "add_line" and a.claim is not None and not a.act.get("earlier_evidence") and (
                    _THE_THING_OF.match(words)) and not _ONE_MORE.search(words) and not _ANOTHER_OF_IT.search(words) and any(
                    _decimal(line.get("amount")) == amount and line.get("category") == a.args.get("category")
                    for line in a.claim.lines):
                # "the dinner of 42 euro, put it on 24/11" beside a dinner of 42: that line moved, never a second one
                self._leave("correction", a.start, a.end)
            elif a.name == "add_line" and a.claim is not None and not a.act.get("earlier_evidence") and any(
                    _decimal(line.get("amount")) == amount and line.get("category") == a.args.get("category")
                    and (not a.args.get("date") or line.get("date") == a.args.get("date"))  # "again" on another day
                    for line in a.claim.lines) and not _ADD_VERB.search(sentence) and _POINTING.search(words):
                self._leave("correction", a.start, a.end)  # "I see the coffee 6,40 two times": a line the claim has
            elif a.name == "add_line" and a.claim is not None and not a.act.get("earlier_evidence") and any(
                    _decimal(line.get("amount")) == amount and line.get("category") == a.args.get("category")
                    and line.get("date") == a.args.get("date") and (not line.get("merchant") or not a.args.get(
                        "merchant") or str(line["merchant"]).casefold() == str(a.args["merchant"]).casefold())
                    for line in a.claim.lines) and not _ADD_VERB.search(sentence) and not _ONE_MORE.search(words):
                self._leave("correction", a.start, a.end)  # the very line the claim has, told again: new, or a repeat?
            elif a.name == "add_line" and a.claim is not None and not a.act.get("earlier_evidence") and _THE_KIND.match(
                    words) and not a.args.get("date") and not _ADD_VERB.search(sentence) and not _ONE_MORE.search(
                    words) and any(line.get("category") == a.args.get("category") for line in a.claim.lines):
                self._leave("correction", a.start, a.end)  # "the taxi 40" beside a taxi of 22: that one, or another?
            elif a.name == "add_line" and a.claim is not None and not a.act.get("earlier_evidence") and a.args.get(
                    "category") == "hotel" and not a.args.get("date") and not a.args.get("merchant") and not (
                    _ADD_VERB.search(sentence) or _ONE_MORE.search(words) or find_days(words, self.ctx.today)) and any(
                    line.get("category") == "hotel" and line.get("id") in self._told_here for line in a.claim.lines
            ) and len(words.split()) <= 4:
                # "Hotel 298." just after a stay of 318 was told in this conversation: that stay, or another?
                self._leave("correction", a.start, a.end)
            elif a.name == "add_line" and a.claim is not None and not a.act.get("earlier_evidence") and a.args.get(
                    "merchant") and not a.args.get("date") and _DEFINITE.search(words) and not _LEG_HOME.search(words) \
                    and not find_days(words, self.ctx.today) and not \
                    _ADD_VERB.search(sentence) and not _ONE_MORE.search(words) and any(
                    str(line.get("merchant") or "").casefold() == str(a.args["merchant"]).casefold()
                    and line.get("category") == a.args.get("category") for line in a.claim.lines):
                # "Scusa, the cena at Figlmüller — … the importo is 48,90": the line the claim has, or another one?
                self._leave("correction", a.start, a.end)
            elif a.name == "add_line" and a.claim is not None and not a.act.get("earlier_evidence") and a.args.get(
                    "date") and (meal := _ONE_A_DAY.search(words)) and not _ADD_VERB.search(sentence) and not \
                    _ONE_MORE.search(sentence) and any(
                    line.get("date") == a.args.get("date") and line.get("category") == a.args.get("category")
                    and _decimal(line.get("amount")) != amount and _the_same_meal(meal.group(0), line, amount)
                    for line in a.claim.lines):
                # "Wednesday lunch 28 euros" beside Wednesday's lunch of 24: that lunch's amount, or a second lunch?
                self._leave("correction", a.start, a.end)
            elif a.name == "add_line" and a.claim is not None and not a.act.get("earlier_evidence") and a.args.get(
                    "date") and not _ADD_VERB.search(sentence) and not _ONE_MORE.search(sentence) and any(
                    _decimal(line.get("amount")) == amount and line.get("category") == a.args.get("category")
                    and line.get("date") and abs((date.fromisoformat(str(line["date"])) - date.fromisoformat(
                        str(a.args["date"]))).days) == 7 for line in a.claim.lines):
                # "Tuesday: lunch 22" read as the trip's Tuesday beside a lunch of 22 a week later: the same lunch, its
                # day told again, or another?
                self._leave("correction", a.start, a.end)
            elif a.name == "add_line" and a.claim is not None and not a.act.get("earlier_evidence") and _MEANT_AGAIN.match(
                    self.message) and any(_decimal(line.get("amount")) == amount and line.get("category") == a.args.get(
                        "category") for line in a.claim.lines):
                # "Sorry, I mean 1/12. On 1/12: taxi 20" beside the taxi of 20 told on 2/12: that line's day, or another?
                self._leave("correction", a.start, a.end)
            elif a.name == "add_line" and not a.act.get("earlier_evidence") and _ITS_AMOUNT_IS.search(words) and not \
                    _ADD_VERB.search(sentence):
                # "Sorry one more, the Uber amount is 18.40": what a line already told costs, never a new one
                self._leave("correction", a.start, a.end)

    @functools.cached_property
    def _told_here(self) -> set[str]:
        """The lines this conversation added or changed (its recent effects), read once per audit."""
        return {str((e.get("data") or {}).get("line_id")) for e in (self.ctx.recent or []) if (e.get("data") or {}).get(
            "line_id")}

    def _amount_estimated(self, a: ActSpan, amount: Decimal) -> None:
        """"Clarion Post was ~140 eur a night", "taxi about 30": an estimate is no amount for a claim; the receipt's is
        asked for."""
        for m in _ATOM.finditer(self.message, a.start, a.end):
            if amount in _values(m.group(0)) and (hedge := _ESTIMATE.search(self.message[a.start:m.end()])):
                self._leave("estimate", a.start + hedge.start(), m.end())
                return

    def _count_of_the_told(self, start: int, end: int) -> bool:
        """"yes, add all three", "tak, przelicz wszystkie 3": after "all", how many expenses told in an earlier message
        the plan adds, exactly."""
        raw = self.message[start:end]
        n = int(raw) if raw.isdigit() else word_number(raw)
        return bool(n) and n == len(self.acts) and all(a.name == "add_line" and a.act.get("earlier_evidence")
                                                       for a in self.acts) and bool(re.search(
            r"\b(?:all|alle|alla|allt|wszystkie|wszystkich|tutti|tutte|todos|todas|tous|toutes|všechny|kaikki)\s*$",
            self.message[:start], re.IGNORECASE) or (  # "yes, for the three of them"
                re.search(r"\bthe\s*$", self.message[:start], re.IGNORECASE)
                and re.match(r"\s+of\s+(?:them|these|those)\b", self.message[end:], re.IGNORECASE)))

    def _day_before_the_thing(self, a: ActSpan, start: int, end: int) -> bool:
        """A figure written as a day and a month ("16.10", "3.11") of the last few months, with no currency beside it,
        before the thing bought, on a line with no day of its own: the day it was bought as much as its price."""
        raw = self.message[start:end]
        said = re.fullmatch(r"(\d{1,2})\.(\d{1,2})", raw)
        if said is None or re.match(r"\s*(?:[€$£¥]|[A-Za-z]{3}\b|kr\b|zł|kč|eur|euros?\b)", self.message[end:], re.IGNORECASE) \
                or re.search(r"[€$£¥]\s*$|\b[A-Z]{3}\s*$", self.message[:start]):
            return False
        try:
            day = date(self.ctx.today.year, int(said.group(2)), int(said.group(1)))
        except ValueError:
            return False
        if day > self.ctx.today:
            day = day.replace(year=day.year - 1)
        if (self.ctx.today - day).days > 120 or (a.args.get("date") and a.args.get("date") != self.ctx.today.isoformat()):
            return False
        return bool(re.match(r"\s+[^\W\d_]", self.message[end:])) and not re.search(r"[^\W\d_]", self.message[
            max(a.start, _sentence_span(self.message, start)[0]):start].split(":")[-1])

    def _amount_said_as_money(self, a: ActSpan, amount: Decimal, words: str) -> None:
        """The act's amount must stand in its words as money somewhere: not only as "2nd", "16-18", a card number,
        "platform 2" or "4 coffees"; and not as a price per night when the line is the whole stay."""
        places, odd = 0, None
        for m in _ATOM.finditer(self.message, a.start, a.end):
            if amount not in _values(m.group(0)):
                continue
            places += 1
            before = self.message[max(a.start, m.start() - 12):m.start()]
            after = self.message[m.end():m.end() + 16]
            if a.name == "add_line" and amount == _decimal(a.args.get("amount")) and self._day_before_the_thing(
                    a, m.start(), m.end()):
                self._leave("date", m.start(), m.end())  # "again: 16.10 coffee + sandwich … 185 CZK": the 16th of October?
                return
            units = (_decimal(a.args.get("quantity")) or 1) > 1 or bool(_UNITS_SAID.search(words)) or (
                a.name == "update_line" and a.claim is not None
                and ((_line(a.claim, a.args.get("line")) or {}).get("quantity") or 1) > 1)
            if units and amount == _decimal(a.args.get("amount")) and (
                    _PER_UNIT.match(after) or re.search(r"\d\s*[a-z]*\s*(?:at|@|x|×)\s*$", before, re.IGNORECASE)):
                self._leave("number", m.start(), m.end())  # "164 a night, 2 nights" read as 164 in all
                return
            category = a.args.get("category") or (a.name == "update_line" and a.claim is not None and (
                _line(a.claim, a.args.get("line")) or {}).get("category"))
            if amount == _decimal(a.args.get("amount")) and (_decimal(a.args.get("quantity")) or 1) == 1 and \
                    category == "hotel" and (re.match(r"\s*(?:€|eur|euros?)?\s*(?:a|per|/|each|every)\s*(?:night|nite|nt)\b",
                                                      after, re.IGNORECASE) or _PER_UNIT.match(after)) and not re.search(
                        r"\b(?:1|one|a\s+single|single)\s+(?:night|nite|nt)\b", words, re.IGNORECASE) and (len(
                        {d.value for d in find_days(words, self.ctx.today) if d.value}) > 1 or a.name == "update_line"
                        or _NIGHTS_MANY.search(words)):
                # "hotel 28.11 - 2.12, 120 per night", "the Artemide was 205 per night": how many nights?
                self._leave("number", m.start(), m.end())
                return
            if amount == _decimal(a.args.get("amount")) and (_decimal(a.args.get("quantity")) or 1) == 1 and (
                    _PER_PERSON.match(after)):
                self._leave("number", m.start(), m.end())  # "lunch for the team, 22 each": each of how many?
                return
            plural = _PLURAL_AFTER.match(after)
            if re.match(r"(?:st|nd|rd|th)\b|[ \t]*[-–][ \t]*\d", after, re.IGNORECASE) or (re.search(
                    r"\d[ \t]*[-–][ \t]*$", before) and not (re.search(r"\d\.\d{1,2}\.?[ \t]+[-–][ \t]*$", before) and
                                                           _MONEY_AFTER.match(after))) or m.group(0) in _ids(self.message) or (
                # ("airport 30.11 - 89 zł": a day, then the price with its currency; never "Nov 16-18")
                    m.group(0).isdigit() and _NOT_MONEY_BEFORE.search(before) and not _CURRENCY_AFTER.match(after)
                    and not _CODE_AFTER.match(after)) or (
                    len(m.group(0)) <= 2 and m.group(0).isdigit() and _DAY_NUMBER_BEFORE.search(
                        self.message[max(0, m.start() - 16):m.start()]) and not _CURRENCY_AFTER.match(after)) \
                    or (plural and _plural_noun(plural.group(1)) and not _CURRENCY_AFTER.match(after)) \
                    or _NIGHTS_AFTER.match(after):
                odd = odd or m  # "rm 2nd taxi", "Nov 16-18", "card ending 4471", "platform 2", "4 coffees"
                continue
            return  # said as money here
        if places and odd is not None:
            self._leave("number", odd.start(), odd.end())

    # ----------------------------------------------------------------- which claim

    def _claims(self) -> None:
        active = self.ctx.active
        for a in self.acts:  # "put 441.60 on his": whose claim, when the words name none?
            ref = a.act.get("case") or {}
            if a.name != "open_claim" and not ref.get("id") and not ref.get("match") and _WHOSE.search(
                    self.message[a.start:a.end]):
                self._leave("other", a.start, a.end)
                return
        for a in self.acts:  # "for Sandra's Vienna trip" beside "Marcus Klein - Vienna …": another person's trip
            if a.name != "open_claim" and a.claim is not None and self._someone_elses(a.claim):
                self._leave("other", a.start, a.end)
                return
        previous = claims_named(self.ctx.previous or "", self.ctx.claims)
        for a in self.acts:  # "and the hotel there": where the message before was, not the claim it lands on
            if a.name != "open_claim" and re.search(r"\bthere\b", self.message[a.start:a.end], re.IGNORECASE) and \
                    len(previous) == 1 and a.claim is not None and previous[0].id != a.claim.id:
                self._leave("other", a.start, a.end)
                return
        for m in _OTHER_ONE.finditer(self.message):
            if self._touches_neutral(m.start(), m.end()):
                continue
            for a in self.acts:
                if a.name != "open_claim" and (a.claim is None or (active is not None and a.claim.id == active.id)):
                    self._leave("other", m.start(), m.end())  # "on the other one", yet on the active claim
                    return
        for m in _NAMED_CLAIM.finditer(self.message):
            name = m.group("name")
            holder = self._holder(m.start(), m.end())
            acts = [holder] if holder else [a for a in self.acts if a.name != "open_claim"]
            if self._touches_neutral(m.start(), m.end()) or not acts:
                continue
            words = [w for w in re.findall(r"[^\W\d_]{3,}", name) if w.lower() not in _NAME_FILLER]
            for a in acts:
                if a.name == "open_claim" or not words or a.claim is None:
                    continue  # a claim named that is none of the user's: the engine refuses it by that name
                title = a.claim.title
                if not any(_close(w, t) for w in words for t in re.findall(r"[^\W\d_]{3,}", title)):
                    self._leave("other", m.start(), m.end())  # "to the Basel claim", landing elsewhere
                    return


# --------------------------------------------------------------------------- the parts


_CATEGORY_WORDS = {
    "taxi": r"taxi|taxis?|cabs?|uber|lyft|bolt|free\s?now|mytaxi|g7|cabify|grab|didi|limo|minicab|chauffeur|ride\s*share|"
            r"rideshare|tx",
    "meals": r"meals|dinners?|lunch(?:es)?|breakfasts?|brunch|meals?|food|coffees?|cappuccinos?|espresso|snacks?|sandwich(?:es)?|"
             r"restaurant|pizza|burgers?|drinks?|beers?|wine|supper|pastr(?:y|ies)|bistro|cafe|café|bakery|dnr|lnch|"
             r"bfst|bkfst|brekkie|takeaway|eat|ate|eating|waffles?|croissants?|crepes?|bagels?|donuts?|muffins?|cakes?|ice\s+cream|"
             r"gelato|soup|salad|pasta|sushi|noodles|kebab|falafel|tapas|paella|pierogi|schnitzel|curry|ramen|bento|"
             r"pretzel|brezel|teas?|juice|smoothie|canteen|catering|pub|tavern|trattoria|brasserie|deli|"
             r"fish\s+(?:and\s+chips|supper)|meal\s+deal|pastéis|pastel|burrito|tacos?|baguette|quiche|pie",
    "travel": r"travel|travell?ed|trains?|flt|flew|fly|flying|shinkansen|frecciarossa|italo|avanti|lner|gwr|ave|renfe|sj|vy|ns|"
              r"nmbs|sncb|regiojet|flixbus|overground|[su][\s-]?bahn|rer|railway|intercity|day\s+pass|(?:24|48|72)\s?h(?:ours?|r)?\s+pass|"
              r"travel\s?pass|transit\s+pass|travelcard|"
              r"flights?|plane|airfare|rail|ice|(?-i:IC)(?=\s*\d{2,5}\b)|tgv|eurostar|thalys|bus|coach|tram|metro|subway|underground|"
              r"tube|ferry|parking|car\s+park|park(?:ed)?(?=\s+(?:the|my|our|a|his|her)\s+(?:rental\s+)?(?:car|van|vehicle|truck|motorbike|bike)\b)|garage|toll|tolls|fuel|petrol|gas|diesel|car\s+hire|rental\s+car|"
              r"car\s+rental|mileage|train\s+ticket|boarding|luggage|baggage|sbb|ÖBB|obb|db|sncf|renfe|trenitalia|"
              r"lufthansa|ryanair|easyjet|klm|airline|airport\s+express|scooter|bike",
    "hotel": r"hotels?|hostel|motel|airbnb|b&b|bnb|guesthouse|accommodation|lodging|inn|htl|nights?|nites?|nts|hôtel|"
             r"albergo|nuits?|notte|notti|n[äa]chte|nacht|noce|noc|nocy|noches?",
}
# (the words people mix in from their own languages, as the clause reader knows them: "almoço", "Abendessen", "Zug")
_CATEGORY_RE = {name: re.compile(rf"\b(?:{words}|{'|'.join(sorted(map(re.escape, lexicon.ABROAD_WORDS & {w for w, c in lexicon.CATEGORY_WORDS.items() if c == name}), key=len, reverse=True)) or '(?!)'})\b", re.IGNORECASE)
                for name, words in _CATEGORY_WORDS.items()}
_PLACE_HOTEL = re.compile(r"\b(?:to|from|at|near|of|back\s+to|in)\s+(?:the|my|our)\s+(?:hotels?|hostel|airbnb)\b",
                          re.IGNORECASE)


_JOINED_THING = re.compile(r"(?:\band|\bplus|\+|,|&)\s+(?:(?:a|an|the|my|our|one|also)\s+)*(?P<thing>[^\W\d_]+)",
                           re.IGNORECASE)


def _others_told(words: str, category: str, amount: Any) -> list[int]:
    """Where the words of one added line go on, after its amount, to join an expense of another kind ("dinner at
    Luigis 45 and a taxi back to the hotel"): unless another line was read there, that one was told and not read."""
    value = _decimal(amount)
    at = next((m.end() for m in re.finditer(r"\d+(?:[.,]\d{1,2})?", words)
               if value is not None and _decimal(m.group(0).replace(",", ".")) == value), None)
    if at is None:
        return []
    return [m.start() for m in _JOINED_THING.finditer(words, at)
            if (kinds := _categories_in(m.group("thing"))) and category not in kinds]


_PARTS = re.compile(r"[,;\n+&]|\b(?:and|plus|then)\b", re.IGNORECASE)


def _kind_beside_amount(words: str, category: str, amount: Any) -> bool:
    """The part of one added line's words that holds its amount names another kind of expense, and not its own
    ("lunch on friday, taxi 15" read as a lunch of 15): the amount is that other expense's."""
    value = _decimal(amount)
    for part in _PARTS.split(words):
        if value is not None and any(_decimal(m.group(0).replace(",", ".")) == value
                                     for m in re.finditer(r"\d+(?:[.,]\d{1,2})?", part)):
            kinds = _categories_in(_not_bought(part))  # "hotel to the office 21": where it went
            return bool(kinds) and category not in kinds and not (category == "other" and len(kinds) > 1)
    return False


# what came with the thing bought, not what was bought: "hotel 120 incl breakfast", "room with breakfast"
_INCLUDED_THING = re.compile(r"\b(?:incl\.?|including|inc\.?|included)\s*(?:the\s+)?[^\W\d_]+|\bw(?:ith|/)\s*b(?:reak)?fast\b",
                             re.IGNORECASE)


def _categories_in(words: str) -> set[str]:
    """The categories whose everyday words the text holds; a hotel named as a place ("taxi to the hotel") is none,
    nor what came with the thing ("incl breakfast")."""
    words = _INCLUDED_THING.sub(" ", words)
    present = {name for name, pattern in _CATEGORY_RE.items() if pattern.search(words)}
    if "hotel" in present and present - {"hotel"}:
        without = _PLACE_HOTEL.sub(" ", words)
        if not _CATEGORY_RE["hotel"].search(without):
            present.discard("hotel")
    return present


_NOT_MONEY_BEFORE = re.compile(r"\b(?:platform|gate|seat|room|terminal|track|row|no\.|nr\.?|number|gleis|exit|level|floor|"
                               r"table|pier|bay|line|item|entry)\s*#?$|#$", re.IGNORECASE)
# a day of a trip by its number, never a price: "Day 1: train …" (not "same day 228", "per day 40")
_DAY_NUMBER_BEFORE = re.compile(r"(?:^|[\n.!;:(]\s*|\b(?:on|of|from)\s+)(?:day|dag|tag|jour|d[ií]a|giorno)\s*#?$", re.IGNORECASE)
_PER_UNIT = re.compile(r"\s*(?:€|eur|euros?|usd|\$|gbp|£|chf|kr|sek|nok|dkk|pln|zł|czk|kč|yen|¥)?\s*(?:a|per|pr|pro|each|/|the|"
                       r"for\s+each|every)\s*(?:night|nite|nt|day|person|head|ride|ticket|each)?\b|\s*(?:ea|each|pp|p\.p\.)\b"
                       # each one, in the languages people mix in: "139,00 cada noche", "84,50 chaque nuit", "95 a notte"
                       r"|\s*(?:€|eur|euros?|chf|kr|zł)?\s*(?:cada|chaque|por|par|la|pro|je|jede|ogni|a|al|per|za|na)\s+"
                       r"(?:noche|nuit|nuitée|notte|nacht|noc|noite|natt|nat|night|una|uno|une|un|persona|personne|person|pers)\b"
                       r"|\s*jeweils\b",
                       re.IGNORECASE)
# a count of nights, in English or another language ("2 noce", "3 notti"): never a price
# nights, counted, in English and the languages people mix in ("2 noce", "3 notti", "nights of Tuesday and Wednesday")
_NIGHTS = r"nights|nites|nts|nuits|nuitées|nuitees|notti|n[äa]chte|noce|nocy|noches|nätter|netter|nætter|noites|noci|nachten"
_NIGHT = r"night|nite|nuit|nuitée|nuitee|notte|nacht|noc|noche|natt|noite|nat"
# a count of nights after a number: never a price
_NIGHTS_AFTER = re.compile(rf"\s*(?:{_NIGHTS}|{_NIGHT})\b", re.IGNORECASE)
# nights counted in a stay ("noches de martes y …")
_NIGHTS_MANY = re.compile(rf"\b(?:{_NIGHTS})\b", re.IGNORECASE)
_PER_PERSON = re.compile(r"\s*(?:€|eur|euros?|usd|\$|gbp|£|chf)?\s*(?:each|ea|apiece|pp|p\.p\.|(?:a|per)\s+(?:person|head|pax))"
                         r"(?!\w)", re.IGNORECASE)
_UNITS_SAID = re.compile(r"\b(?:[2-9]|1\d|two|three|four|five|six|seven|deux|trois|zwei|drei|dos|tres|due|tre)\s*"
                         rf"(?:{_NIGHTS}|night|nite|days?|rides?|tickets?|people|persons|guests)\b", re.IGNORECASE)
_PLURAL_AFTER = re.compile(r"\s*(?:x\s+)?([a-z]{3,}s)\b", re.IGNORECASE)


def _plural_noun(word: str) -> bool:
    """"coffees", "pastries", "tickets": a plural of an English noun ("this", "was", "bus" are none)."""
    from registries.currencies import english_frequency

    word = word.lower()
    stems = [word[:-1], word[:-2] if word.endswith("es") else "", word[:-3] + "y" if word.endswith("ies") else ""]
    return word not in _NOT_PLURAL and any(stem and english_frequency(stem) > 1e-7 for stem in stems)


_NOT_PLURAL = frozenset("plus less pass class bonus gas bus express process access business yes this thus was has does "
                        "is its his hers ours yours always perhaps across towards afterwards unless besides miss "
                        "cross glass boss".split())
_CURRENCY_AFTER = re.compile(r"\s*(?:euros|dollars|pounds|francs|bucks|quids|kronor|kroner|cents|pence|nights|nites|"
                             r"days|rides|tickets|returns|each|pesos|rupees|zlotys)\b", re.IGNORECASE)
# a currency written right after a number ("terminal 310 SEK" is a price, "terminal 3" a place)
_CODE_AFTER = re.compile(r"\s?(?:[€$£¥]|(?:eur|usd|gbp|chf|sek|nok|dkk|pln|czk|huf|jpy|cad|aud|kr|zł|zl|kč)\b)", re.IGNORECASE)
_PERSON = re.compile(r"^(?:herr|frau|mr|mrs|ms|miss|dr|prof|monsieur|madame|señor|signor)\.?\s|'s$|’s$", re.IGNORECASE)


# "put the dinner at 34,70", "set the hotel to 190": the thing named as one known, then its price
_PUT_THE_AT = re.compile(r"\b(?:put|set|make)\s+(?:the|that|my)\s+(?P<thing>[^\W\d_]{3,})\s+(?:at|to|as)\s+[€$£]?\s?\d", re.IGNORECASE)
_CHECKED_OUT = re.compile(r"(?:check(?:ed|ing)?[\s-]*out|\bleft)\W*(?:(?:on|was|is|date|day|the)\W+)*$", re.IGNORECASE)
_STAY_ENDS = re.compile(r"check(?:ed|ing)?[\s-]*(?:in|out)|\b(?:to|until|till|through|thru)\b|\d\.?\s*[-–]\s*\d", re.IGNORECASE)


def _night_of_stay(act: ActSpan, day: date, ends_said: bool = False) -> bool:
    """A day inside a hotel stay the act adds at its check-in day: a later night, or the check-out morning (any
    later day of the month when the words say the stay's ends and no count: "checked in the 23rd, out the 25th")."""
    args = act.args
    if act.name == "update_line" and act.args.get("quantity") and act.claim is not None:
        # "it was 2 nights not 3, check-out was 27.11": the stay the line is, with its new count
        line = _line(act.claim, act.args.get("line")) or {}
        args = {"category": line.get("category"), "date": line.get("date"), "quantity": act.args["quantity"]}
    elif act.name != "add_line":
        return False
    from . import lexicon

    hire = args.get("category") == "travel" and lexicon.HIRE.search(str(act.act.get("evidence") or ""))
    if (args.get("category") != "hotel" and not hire) or not args.get("date"):
        return False
    try:
        nights = int(args.get("quantity") or 1)
        first = date.fromisoformat(str(args["date"]))
    except (TypeError, ValueError):
        return False
    if hire:  # a hire's days, told as its first and last ("7.12.-9.12."), dated the day it started
        return ends_said and first <= day <= first + timedelta(days=31)
    last = first + timedelta(days=31 if ends_said and not args.get("quantity") else max(nights, 1))
    return first <= day <= last


def _weekday_form(word: str) -> int | None:
    """The weekday a word names, whole ("Dienstag", "tue") or in another language's short form ("di", "mer")."""
    from .normalize import days_abbreviated_abroad

    lowered = word.lower()
    english = days_abbreviated_abroad().get(lowered)
    return _WEEKDAYS.get(lowered, _WEEKDAYS.get(english) if english else None)


def _odd_merchant(merchant: str, message: str) -> bool:
    """A merchant no shop is called: a person ("Herr Albrecht's"), or an everyday word the user wrote as a word, not
    as a name ("Had to grab an Uber")."""
    word = merchant.strip()
    if _PERSON.search(word):
        # "dinner at Carmine's", "lunch at Nando's": where a meal was eaten, a restaurant's name (never "Herr Albrecht's")
        return not (re.search(r"['’]s$", word) and not re.match(r"(?:herr|frau|mr|mrs|ms|miss|dr|prof)\b", word, re.IGNORECASE)
                    and re.search(rf"(?:\b(?:breakfast|brunch|lunch|dinner|supper|drinks|meal|coffee|food|gas|fuel|petrol|"
                                  rf"diesel|groceries|snacks?)|\d)\s+at\s+{re.escape(word)}", message, re.IGNORECASE))
        # ("$48.20 at Casey's": a price paid at a shop of that name)
    if word.lower() in _known_merchants():
        return False  # "shell" is a word, and a petrol station the user named
    if " " not in word and _common(word.lower()):
        # written by the user as a name: capitalised where no sentence starts
        as_name = [m for m in re.finditer(rf"\b{re.escape(word)}\b", message, re.IGNORECASE)
                   if m.group(0)[:1].isupper() and not re.search(r"(?:^|[.!?:]\s*)$", message[:m.start()])]
        return not as_name  # "Had to grab an Uber": "grab" is no shop's name here
    return False


def _known_merchants() -> frozenset[str]:
    from . import lexicon

    return frozenset(name.lower() for name, _kind in lexicon.MERCHANTS.values())


def _common(word: str) -> bool:
    from registries.currencies import english_frequency

    return english_frequency(word) > 1e-5


def _close(said: str, title_word: str) -> bool:
    """Does a word the user named a claim with match a title word (any spelling, a typo)?"""
    from ..naming import city_aliases

    a, b = said.casefold(), title_word.casefold()
    if a == b or a in {x.casefold() for x in city_aliases(title_word)}:
        return True
    from rapidfuzz.distance import DamerauLevenshtein

    return len(a) >= 4 and a[:1] == b[:1] and DamerauLevenshtein.distance(a, b) <= (1 if len(b) < 8 else 2)


# a line's new note that asks for another change itself: no note, a request the reading did not take apart
_REQUEST_IN_NOTE = re.compile(r"\b(?:make\s+it|change\s+(?:it|the)|should\s+be|set\s+(?:it|the)|(?:and|,)\s+(?:the\s+)?"
                              r"(?:merchant|amount|date|category)\b)", re.IGNORECASE)
_CONVERT_TO = re.compile(r"\b(?:convert\w*|change|exchange|put)\s+(?:it\s+|that\s+|them\s+|this\s+)?(?:to|into|in)\s+$",
                         re.IGNORECASE)
_WHOSE = re.compile(r"(?<!\bpaid\s)(?<!\bpay\s)(?<!\bpaying\s)(?<!\bbought\s)\b(?:on|to|onto|for|in|into)\s+(?:his|hers|her|theirs|their|him|them)\b(?!\s+(?:hotel|room|own|way|"
                    r"part|share|card|behalf|team|office|offices|place|house|home|site|plant|factory|venue|event|party|"
                    r"wedding|hq|headquarters|building|warehouse|lab|campus|school|flat|apartment))", re.IGNORECASE)
# a person's name and what of theirs it is: "Sandra's Vienna trip", "Mr. Duval's Zurich claim" ("Nando's" is a place)
_OWNED = re.compile(r"\b(?P<who>[A-Z][a-z]+)(?:'s|’s)\s+(?P<what>(?:[\w-]+\s+){0,2}[\w-]+)")
_CLAIM_WORDS = frozenset("claim claims trip trips report expenses visit one stuff things costs".split())
_OTHER_ONE = re.compile(r"\b(?:the|my)\s+other\s+(?:one|claim|trip|report)\b", re.IGNORECASE)
_NAMED_CLAIM = re.compile(r"\b(?:to|on|onto|into|for|in|under)\s+(?:the|my|our)\s+(?P<name>(?:[\w'’-]+\s+){0,2}?[\w'’-]+)"
                          r"\s+(?:claim|trip|report|expenses|one)\b", re.IGNORECASE)
_NAME_FILLER = frozenset("the this that other same new old current first second last next whole big small one".split())


# a sentence that tells of the trip itself, not of an expense
# something said not to be the user's to claim ("… so I am not claiming it", "I won't include that")
_NOT_MINE = re.compile(r"\b(?:not|n't|never)\s+(?:be\s+)?(?:claim\w*|includ\w*|add\w*|expens\w*|put\w*)\s+(?:it|that|them|"
                       r"this|those)\b", re.IGNORECASE)
_NOT_MINE_WORDS = frozenset("that this them those their there with from have been were booked paid claim claiming "
                            "include including adding expense expensing putting will shall which because since never "
                            "therefore hence".split())
_TRIP_SAID = re.compile(r"\b(?:back\s+from|came\s+back|got\s+back|returned|home\s+from|(?:was|were)\s+in|went\s+to|"
                        r"(?:was|were)\s+(?:up|down|over|out)\s+(?:there|in|to)\b|"  # ("I was up there last week …")
                        r"(?:was|were|been)\s+(?:up|down|over|out|away|there)\s+(?:from\s+|between\s+)?(?:on\s+)?(?:the\s+)?"
                        r"(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*|\d+)|travell?ed\s+(?:from|between)|stayed\s+(?:from|between)|"
                        r"\b(?:trip|training|conference|course|visit|workshop|fair|audit|seminar)\s+(?:was|ran|lasted)\s+(?:from\s+)?"
                        r"(?:this\s+|last\s+)?"
                        r"(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*|\d+)|"  # ("trip was Wed Dec 2 to …", "Training was 9. 11. – …")
                        r"^\W*trip\s*:?\s+\d+|(?:was|were)\s+at\s+(?:the\s+)?[^\W\d_]+\s+from|went\s+(?:over|out|up|down)\s+(?:on\s+)?\d+|"
                        r"flew\s+out|travell?ed\s+to|travell?ed\s+(?:from\s+|on\s+)?(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\s+"
                        r"(?:to|until|till|through)|(?:was|were)\s+(?:there|away)\s+from|"
                        # ("I was at the nursing congress Wed 18 to Fri 20 Nov"): a place, then a range of days
                        r"(?:was|were)\s+(?:at|in)\s+(?:the\s+)?(?:[^\W\d_][\w'’.-]*\s+){1,3}(?:from\s+)?(?:(?:mon|tue|wed|thu|fri|"
                        r"sat|sun)[a-z]*\.?\s+)?\d{1,2}(?:st|nd|rd|th)?\.?\s*(?:to|until|till|through|-|–))\b", re.IGNORECASE)
# words that say what follows is asked about, not told: "about the …", "regarding …", "as for …", "re: …"
_TOPIC = re.compile(r"\W*(?:(?:and|so|ok|okay|also|now|btw|one\s+more\s+thing)\W+)*(?:about|regarding|concerning|re\b:?|as\s+for|"
                    r"what\s+about|with\s+regard\s+to|on\s+the\s+subject\s+of)\s", re.IGNORECASE)
_GLUED = re.compile(r"-[^\W\d_]")  # a number joined to a word ("7-Eleven", "3-day")
# thousands grouped by a space: one price beside a currency ("3 480 kr", "€ 1 250"), after "was", a comma or a dash
# ("Hotel Oleana, 2 150"), or before "in total" ("3 890 in total"); else the digits are two numbers, each placed alone
_SPACED = re.compile(r"(?<![\w.,/:-])(?:(?P<after>(?<=[€$£])\s?)|(?<![€$£]))\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d{1,2})?"
                     r"(?![\d]|[.,]\d)")
_SPACED_PRICED = re.compile(r"\s?(?:kr|kn|zł|zl|€|eur|sek|nok|dkk|pln|chf|czk|kč|ft|huf|\$|£|usd|gbp|kronor|kroner|crowns?|"
                            r"korun[ay]?|złoty|zloty)\b|\s?[€$£]", re.IGNORECASE)
_SPACED_SLOT = re.compile(r"(?:[,:–—=]|\s-|\b(?:was|were|is|paid|cost|costs|so|again|total|makes?|about|around|sorry|no|or))"
                          r"\s*\Z", re.IGNORECASE)
_SPACED_TOTAL = re.compile(r"\s*(?:in\s+total|total|all\s+in|altogether|together|for\s+(?:both|the\s+two|all|the\s+lot)\b)",
                           re.IGNORECASE)
_ATOM = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*(?:[.,]\d+)?(?![\d])")
_TIME = re.compile(r"\b\d{1,2}:[0-5]\d(?:\s*(?:am|pm|h|uhr))?\b|\b\d{1,2}[.h][0-5]\d\s*(?:am|pm|h|uhr)\b"
                   r"|\b\d{1,2}\s*(?:am|pm|o'?clock)\b", re.IGNORECASE)
# a number that names a thing, not a price: "platform 2", "room 214", "folio 88412", "gate B12"
_ID_NUMBER = re.compile(r"\b(?:platform|gate|seat|room|terminal|track|row|folio|no\.|nr\.?|table|pier|bay|coach|car|"
                        r"flight|train|bus|tram|line|invoice|order|booking|ref\.?)\s*#?\s*[A-Z]?\d{1,6}\b", re.IGNORECASE)
_LINE_WORDS = re.compile(r"\b(?:line|item|entry|row|no\.?|number|#)\s*#?\d{1,3}\b|#\d{1,3}\b", re.IGNORECASE)


def _values(raw: str) -> set[Decimal]:
    """Every number a digit run may be: ``1,200`` → 1200 (and 1.2), ``42,50`` → 42.50, ``1.250,00`` → 1250."""
    out: set[Decimal] = set()
    token = raw.rstrip(".,")
    candidates = {token.replace(",", ""), token.replace(",", "."), token.replace(".", "").replace(",", "."),
                  token.replace(".", "")}
    for c in candidates:
        try:
            out.add(Decimal(c))
        except InvalidOperation:
            pass
    return out


def _decimal(value: object) -> Decimal | None:
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None


def _numbers_of(act: ActSpan, short_year: bool = True) -> set[Decimal]:
    """The numbers an act uses: its amount, quantity and line, the day, month and year of its date (its two-digit year
    only where the number is written as one: "dijous 26" on a line dated the 27th is no year)."""
    out: set[Decimal] = set()
    args = act.args
    for key in ("amount", "quantity", "line"):
        if (n := _decimal(args.get(key))) is not None:
            out.add(n)
    if args.get("amount") and args.get("quantity"):
        unit = _decimal(args["amount"]) / Decimal(int(args["quantity"]))
        out.add(unit.quantize(Decimal("0.01")))
    if isinstance(args.get("date"), str):
        try:
            d = date.fromisoformat(args["date"])
            out |= {Decimal(d.day), Decimal(d.month), Decimal(d.year), *([Decimal(d.year % 100)] if short_year else [])}
        except ValueError:
            pass
    if act.name in ("update_line", "remove_line") and act.claim is not None:
        line = _line(act.claim, args.get("line"))
        if line is not None:  # the line's old values name it ("the taxi was 38 not 35")
            for key in ("amount",):
                if (n := _decimal(line.get(key))) is not None:
                    out.add(n)
            if line.get("quantity"):
                out.add(Decimal(int(line["quantity"])))
            nights = int(line.get("quantity") or args.get("quantity") or 0)
            if nights > 1 and (total := _decimal(line.get("amount"))) is not None:
                out.add((total / nights).quantize(Decimal("0.01")))  # "3 nights x 189, not 198": the old rate a night
            try:
                old = date.fromisoformat(str(line.get("date")))
                out |= {Decimal(old.day), Decimal(old.month)}  # "on the 18th, not the 17th"
            except ValueError:
                pass
    return out


def _trip_days_told(said: str, today: date, tells_more: Callable[[int, int], bool]) -> tuple[date, date] | None:
    """The first and last day of a trip a sentence of ``said`` tells from one to the other ("The trip was 2.11–4.11",
    "Training was 9. 11. – 11. 11.", "I went over 11/23 thru 11/25"), a fortnight at most, where ``tells_more`` finds
    nothing else in that sentence (an expense, a price)."""
    for day in find_days(said, today):
        start, end = _sentence_span(said, day.start)
        if day.value is None or not _TRIP_SAID.search(said, start, end) or tells_more(start, end):
            continue
        days = [d.value for d in find_days(said[start:end], today) if d.value is not None]
        if len(days) >= 2 and 0 < (max(days) - min(days)).days <= 14:
            return min(days), max(days)
    return None


def _span_told(messages: Iterable[str], today: date) -> date | None:
    """The last day of a trip an earlier message told from its first day to its last, in a sentence with no price."""
    for said in messages:
        days = find_days(said, today)  # (a day's figures, "1.12–2.12", are no price)
        if span := _trip_days_told(said, today, lambda start, end, said=said, days=days: any(
                not any(d.start <= m.start() < d.end for d in days) for m in _ATOM_PRICE.finditer(said, start, end))):
            return span[1]
    return None


_ATOM_PRICE = re.compile(r"\d+[.,]\d{2}\b(?![.,]\d)|[€$£]\s?\d|\d\s?(?:€|eur\b|kr\b|kč|zł|chf\b|sek\b|nok\b|dkk\b|usd\b|gbp\b)",
                         re.IGNORECASE)


def _stay_from_today(line: Mapping[str, Any], today: date) -> bool:
    """A stay of several nights whose first night is today: dated so by default, for it would end in days to come."""
    return line.get("category") == "hotel" and str(line.get("date")) == today.isoformat() and \
        int(line.get("quantity") or 1) > 1


def _line(claim: Claim, ordinal: object) -> dict[str, Any] | None:
    try:
        n = int(ordinal)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return claim.lines[n - 1] if 1 <= n <= len(claim.lines) else None


def _lines_named(claim: Claim, words: str, claims: Iterable[Claim]) -> list[dict[str, Any]]:
    """The claim's lines whose merchant the words name (a distinctive word of it will do: "the koffieboon one"; a word
    of a claim's title names the claim, not a line: "the Berlin hotel" is no "Taxi Berlin")."""
    named = []
    lowered = words.lower()
    titled = {w for c in claims for w in re.findall(r"[^\W\d_]{4,}", c.title.lower())}
    for line in claim.lines:
        merchant = str(line.get("merchant") or "")
        parts = [w for w in re.findall(r"[^\W\d_]{4,}", merchant.lower())
                 if w not in _GENERIC_MERCHANT_WORDS and w not in titled]
        if parts and any(re.search(rf"\b{re.escape(p)}\b", lowered) for p in parts):
            named.append(line)
        elif " " in merchant.strip() and re.search(rf"\b{re.escape(merchant.strip().lower())}\b", lowered):
            named.append(line)  # "the cafe central one": a name of everyday words, said whole
    return named


# "the koffieboon one", "the hotel line", "the second bolt": the words a line is named by
_LINE_NAMED = re.compile(r"\bthe\s+(?:(?:\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|last|other)\s+)?"
                         r"(?P<w>[a-zà-ÿ][\w'’-]{2,})\s+(?:one|line|entry|item|row)\b"
                         r"|\bthe\s+(?:[1-5](?:st|nd|rd|th)|first|second|third|fourth|fifth)\s+(?P<v>[a-zà-ÿ][\w'’-]{2,})",
                         re.IGNORECASE)
_LINE_REF = re.compile(r"\b(?:line|item|entry|row)\s*#?\s*\d{1,3}\b|#\d{1,3}\b|\b(?:\d{1,2}(?:st|nd|rd|th)|first|second|"
                       r"third|fourth|fifth|last)\s+(?:line|item|entry|row|one)\b", re.IGNORECASE)
_NOT_A_NAME = frozenset("one line entry item row last first second third other same new old whole was were is are not "
                        "and of on at for in to from with by night nite day time wrong right correct previous next top bottom".split())


def _one_of_a_kind(claim: Claim, target: dict[str, Any], words: str, today: date) -> bool | None:
    """When the words name the line by its kind ("the lunch"): is it the claim's only line of that kind, or do the
    words also say its amount, day or what it was? None when they do not name a kind."""
    category = str(target.get("category") or "")
    pattern = _CATEGORY_RE.get(category)
    if pattern is None or not pattern.search(words):
        return None
    alike = [line for line in claim.lines if line.get("category") == category]
    if len(alike) <= 1:
        return True
    if (nth := _NTH_THING.search(words)) and pattern.match(words, nth.end()):
        # "the second hotel night": that place among the lines of its kind, when their order on the claim and the
        # order of their days agree
        word = words[nth.end():].split()[0].lower() if words[nth.end():].split() else ""
        among = [line for line in alike if category != "meals" or word in str(line.get("description") or "").lower()]
        if category == "hotel" and any((line.get("quantity") or 1) != 1 or re.search(
                r"\bnights?\b", str(line.get("description") or ""), re.IGNORECASE) for line in among):
            return False  # a line of two nights holds two of them: "the second night" is which, asked
        dated = [str(line.get("date") or "") for line in among]
        place = _NTH.index(nth.group(1).lower()) % 5
        return all(dated) and dated == sorted(set(dated)) and place < len(among) and among[place].get(
            "ordinal") == target.get("ordinal")
    amount = _decimal(target.get("amount"))
    if any(amount in _values(m.group(0)) for m in _ATOM.finditer(words)):
        return True
    description = str(target.get("description") or "").lower()
    if description and any(w in words.lower() for w in re.findall(r"[a-z]{4,}", description)):
        return True
    day = str(target.get("date") or "")
    return any(d.value is not None and d.value.isoformat() == day and
               sum(1 for line in alike if line.get("date") == day) == 1 for d in find_days(words, today))


_NTH = ("first", "second", "third", "fourth", "fifth", "1st", "2nd", "3rd", "4th", "5th")
_NTH_THING = re.compile(r"\bthe\s+(first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th)\s+(?=[^\W\d_])",
                        re.IGNORECASE)


def _only_one_that_weekday(claim: Claim | None, line: dict[str, Any], day: date, words: str = "") -> bool:
    """Is ``line`` on the weekday of ``day``, and the one line of its category on such a weekday (of those the
    ``words`` name by what they were told as: "the Tuesday dinner" of Tuesday's lunch and dinner)?"""
    if claim is None or not line.get("date"):
        return False
    weekday = day.weekday()
    alike = [other for other in claim.lines if other.get("category") == line.get("category") and other.get("date")
             and date.fromisoformat(str(other["date"])).weekday() == weekday]
    said = set(re.findall(r"[^\W\d_]{4,}", words.lower()))
    named = [other for other in alike if said & set(re.findall(r"[^\W\d_]{4,}", f"{other.get('description') or ''} "
                                                                               f"{other.get('merchant') or ''}".lower()))]
    if len(alike) > 1 and named:
        alike = named
    return len(alike) == 1 and alike[0].get("ordinal") == line.get("ordinal")


_WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _line_fits_words(line: dict[str, Any], words: str) -> bool:
    """Do the words that name a line ("the taxi one", "the second bolt") fit this line?"""
    for m in _LINE_NAMED.finditer(words):
        name = (m.group("w") or m.group("v") or "").lower()
        if not name or name in _NOT_A_NAME:
            continue
        merchant = str(line.get("merchant") or "").lower()
        category = str(line.get("category") or "")
        if name in merchant or name == category or (category in _CATEGORY_RE and _CATEGORY_RE[category].fullmatch(name)):
            continue
        if name in re.findall(r"[^\W\d_]+", str(line.get("description") or "").lower()):
            continue  # "the dinner one" of a meals line told as "dinner"
        weekday = next((n for n, day in enumerate(_WEEKDAY_NAMES) if day.startswith(name[:3]) and day.startswith(name)
                        or name in (day[:3], day[:4])), None) if len(name) >= 3 else None
        if weekday is not None and line.get("date") and date.fromisoformat(str(line["date"])).weekday() == weekday:
            continue  # "the wednesday one", "the tue one": the line of that weekday
        if any(pattern.fullmatch(name) for pattern in _CATEGORY_RE.values()) or name not in _NOT_A_NAME:
            return False
    return True


_ROUTE_PLACE = re.compile(r"\b(?:to|from)\s+(?:the\s+)?([^\W\d_]{3,})", re.IGNORECASE)


def _another_route(line: dict[str, Any], words: str) -> bool:
    """Do the words name a ride by where it went ("the taxi to the airport") that the line, told with a route of its
    own ("to the customer office"), never went?"""
    said = {w.lower() for w in _ROUTE_PLACE.findall(words)} - {"claim", "line", "list", "total"}
    description = str(line.get("description") or "")
    if not _ROUTE_PLACE.search(description):
        return False  # (a line told with no route of its own)
    told = {w.lower() for w in re.findall(r"[^\W\d_]{3,}", f"{description} {line.get('merchant') or ''}")}
    return bool(said and not said & told)


_GENERIC_MERCHANT_WORDS = frozenset("hotel hotels taxi taxis restaurant cafe café bar airport station parking the and "
                                    "city central grand international express"
                                    .split())


_CARD_ID = re.compile(r"\b(?:card|visa|mastercard|amex|account|acct|iban)\b[^\d\n]{0,20}?(?:ending(?:\s+in)?|no\.?|number|"
                      r"#|\*+|x+)?\s*(\d{4})\b", re.IGNORECASE)


_DIGIT_TALK = re.compile(r"\b(?:misread|mistyped|swapped|typed|mixed\s+up|confused|read)\b[^.\d]{0,20}\b\d\b[^.\d]{0,12}\b\d\b",
                         re.IGNORECASE)


def _ids(message: str) -> frozenset[str]:
    """Numbers that name a card or an account ("card ending 4471"): wherever they stand, they are no amount."""
    return frozenset(m.group(1) for m in _CARD_ID.finditer(message))


def completed_day(words: str, ctx: Context, completing: bool = False) -> date | None:
    """The day of the expense the message before told, when these words complete it ("ok add 47.53", "put the
    hotel in at 225.08 then"): None when they are no completion or that message said no one day; ``date.min`` when
    it said a day only the turns before it knew ("…, same day")."""
    previous = ctx.previous or ""
    if not previous or not (completing or _COMPLETION.match(words)):
        return None
    told, before = _categories_in(words), _categories_in(previous)
    if told and before and not (told & before):
        return None  # "ok, add lunch 12" after a taxi: a new expense, not the one before
    found = find_days(previous, ctx.today)
    days = {d.value for d in found if d.value is not None}
    if not days and found:
        return date.min
    return next(iter(days)) if len(days) == 1 else None


def _has_amount(text: str, today: date) -> bool:
    """Does the text state an amount (a number that is no part of a day)?"""
    days = [(d.start, d.end) for d in find_days(text, today)]
    return any(not _in_any(m.start(), m.end(), days) for m in _ATOM.finditer(text))


def _in_any(start: int, end: int, spans: Iterable[tuple[int, int]]) -> bool:
    return any(s <= start and end <= e for s, e in spans)


_COUNT_NOUN = re.compile(r"\s*(?:x\s+)?([a-z]{3,})", re.IGNORECASE)
# things counted that are no expense of their own ("waiting on two receipts", "for 3 days")
_CONTEXT_COUNT = re.compile(r"\s*(?:(?:[a-z]+\s+){1,2}(?:members|colleagues|clients|customers|guests|partners|friends|managers|"
                            r"engineers|directors|students|attendees|delegates|visitors|people|specialists|consultants|"
                            r"coworkers|co-workers|teammates|reps|technicians|nurses|doctors|architects|auditors|"
                            r"developers|analysts|trainees|interns|girls|guys|lads|ladies|kids|children)\b|"
                            r"(?:more\s+|other\s+)?(?:receipts?|documents?|invoices?|colleagues?|people|persons|ppl|pax|"
                            r"heads|of\s+us|h|hrs?|-?hours?|-?hr|"
                            r"guests|weeks?|days?|hours?|minutes?|mins?|times|km|kilometers?|kilometres?|miles?|stops?|"
                            r"meetings?|calls?|bags?|suitcases?|pages?|(?:small\s+|little\s+|more\s+)?(?:mistakes?|errors?|fixes|corrections?|changes|typos?))\b)", re.IGNORECASE)
_ORDINAL = re.compile(r"\d{1,3}(?:st|nd|rd|th)\b", re.IGNORECASE)
_HEAD_COUNT = re.compile(r"\s*(?:of\s+(?:us|them|you)|ppl|people|persons|pax|guests|colleagues|attendees|diners)\b",
                         re.IGNORECASE)
# places and visits counted by an ordinal ("uber to the 2nd hospital", "the 3rd site visit"): which one, never a day
_PLACES_COUNTED = (r"hospital|clinic|site|office|building|terminal|gate|meeting|visit|venue|branch|store|shop|client|"
                   r"customer|appointment|session|plant|factory|warehouse|campus")
_ORDINAL_UNIT = re.compile(r"\s+(?:nights?|nites?|days?|ones?|lines?|items?|entry|entries|rows?|times?|rounds?|legs?|class|"
                           r"floors?|stops?|taxis?|cabs?|coffees?|rides?|tickets?|trips?|meals?|lunch|dinner|breakfast|"
                           r"(?:" + _PLACES_COUNTED + r")s?)\b", re.IGNORECASE)
_NOT_COUNTED = frozenset("euro euros eur usd dollars dollar pounds pound gbp chf francs franc kr kronor sek nok dkk pln "
                         "zloty czk jpy yen percent pct km miles mile".split())


def _short_day_leading(message: str, start: int) -> tuple[int, int] | None:
    """The span of another language's short day name ("di", "Mi", "Sam", "Po") heading the sentence an undated line
    is told in: it may be the line's day as much as a name or a word."""
    from .normalize import days_abbreviated_abroad

    s = _sentence_span(message, start)[0]
    m = re.match(r"\s*([^\W\d_]{2,4})\.?\s", message[s:])
    if m is None or m.group(1).isupper() or m.group(1).lower() not in days_abbreviated_abroad() or s + m.end() > start + 60:
        return None
    return s + m.start(1), s + m.end(1)


def _is_count(message: str, start: int, end: int, act: ActSpan) -> bool:
    """"4 coffees and 4 pastries, 31.60 in total": a small count of things bought, beside the act's amount; and
    "1 nt", "one night": one unit, which is what a line is when no quantity is given."""
    raw = message[start:end]
    n = int(raw) if raw.isdigit() else word_number(raw)
    if n == 1 and re.match(r"\s*(?:nt|nts|night|nite|day|ride|person|pax|room|ticket|nuit|notte|nacht|noc|noche|nat|natt|noite|noci)s?\b",
                           message[end:], re.IGNORECASE):
        return True
    m = _COUNT_NOUN.match(message, end)
    if n is None or not (1 <= n <= 20) or m is None:
        return False
    noun = m.group(1).lower()
    if noun in _NOT_COUNTED or not noun.endswith("s") or noun in ("nights", "nites", "days", "rides", "tickets",
                                                                  "returns", "people", "persons", "guests"):
        return False
    return act.args.get("amount") is not None and Decimal(n) != _decimal(act.args.get("amount"))


def _similar_line(act: ActSpan, words: str, today: date, *, definite: bool = False) -> dict[str, Any] | None:
    """An existing line of the claim the new one could be a correction of: the same merchant; or the same category on
    the same day, or of a kind a trip has once (a hotel stay), or named as one of several ("the 2nd cab")."""
    if act.claim is None:
        return None
    args = act.args
    day = args.get("date") or today.isoformat()
    one_of = definite or bool(_WHICH_ONE.search(words))
    for line in act.claim.lines:
        merchant = str(line.get("merchant") or "").lower()
        if merchant and (merchant == str(args.get("merchant") or "").lower() or re.search(
                rf"\b{re.escape(merchant)}\b", words.lower())):
            return line
        if line.get("category") != args.get("category"):
            continue
        said = str(args.get("merchant") or "").lower()
        if merchant and said and line.get("date") != day and said.split()[0] not in merchant and \
                merchant.split()[0] not in said:
            continue  # "the Aer Lingus flight was 265" beside a TAP flight of another day: another one
        if line.get("date") == day or args.get("category") == "hotel" or one_of:
            return line
    return None


_COMPLETION = re.compile(r"\W*(?:(?:ok(?:ay)?|yes|yep|yeah|sure|fine|right|then|so|alright|understood|great|thanks?)\W*)*"
                         r"(?:please\s+)?(?:just\s+)?(?:add|put|enter|use|take|book|make\s+it|go\s+with)\b", re.IGNORECASE)
_BACK = re.compile(r"\b(?:for|on)\s+(?:that|this|the|the\s+same)\s+(?P<noun>[a-z]{4,})\b", re.IGNORECASE)
_ORDINAL_THING = re.compile(r"\b(?:\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|last|other)\s+(?!(?:mon|tues?|wed|"
                            r"thu|thur|thurs|fri|sat|sun)(?:day|nesday|rsday|urday)?\b|(?:week|month|night|nite|year|"
                            r"time|minute)s?\b)[a-z]+\s*$",
                            re.IGNORECASE)
_DEFINITE_THING = re.compile(r"\W*(?:and\s+|also\s+|oh\s+|ok\s+)?(?:the|that|my|our|this)\s+[^\d]{0,30}?\b(?:was|were)\b",
                             re.IGNORECASE)
_WHICH_ONE = re.compile(r"\b(?:\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|last|other|earlier|previous)\b",
                        re.IGNORECASE)


_CARDED = frozenset({"remove_line", "submit_claim", "withdraw_claim"})
# a take-back or an exclusion: inside a line's addition, always left over
# paid, in the languages people mix in ("Abendessen 80 (hat der Kunde bezahlt)", "el hotel lo paga la empresa")
_PAID_ABROAD = (r"bezahlt|übernommen|betaald|betaalde|betalte|betalade|betalt|pagato|pagata|pagado|pagada|pago|paga|pagou|"
                r"payé|payée|réglé|zapłacił\w*|płacił\w*|platil\w*|zaplatil\w*")
# someone else paid, said first: "my boss picked up the lunch", "the client treated us", "she paid", "was included in
# the registration" (never "I picked up the tab")
_PAID_FIRST = (r"(?<!\bi\s)(?<!\bwe\s)(?:picked\s+up|treated\s+(?:us|me|everyone)|took\s+care\s+of)|"
               r"(?:he|she|they)\s+paid|(?:my|our|the)\s+(?:manager|boss|organi[sz]er|host|colleague|client|customer)\s+paid|"
               r"corporate\s+card|company\s+card")
_OTHERS_PAID = re.compile(rf"\b(?:{_PAID_ABROAD}|{_PAID_FIRST})\b|"
                          r"\b(?:was|were|is|are|got|gets)\s+(?:on\s+(?:the\s+)?\w+|covered\s+by|paid\s+(?:for\s+)?by|hosted\s+by|catered\s+by|"
                          r"provided\s+by|comped|complimentary|free\s+of\s+charge)\b"
                          # who paid, said first: "the customer paid", "my manager Ms. Keller paid", "she paid"
                          r"|\b(?:the|my|our|their|his|her)\s+[^\W\d_]+(?:\s+(?-i:[A-Z][\w.'’-]*)){0,3}\s+(?:paid|covered|"
                          r"picked\s+up)\b|\b(?:she|he|they)\s+paid\b", re.IGNORECASE)
_STRONG = re.compile(r"\b(?:paid\s+(?:[\w-]+\s+){0,3}?by\s+(?:my|the|our|his|her|their|a)\s+(?:client|customer|company|host|"
                     r"department|colleague|colega|collega|kollege|coworker|boss|manager|partner|employer|office|firm|team|"
                     r"organi[sz]ers?|university|sponsor)s?\b|(?:was|were|is|are|got|gets)\s+(?:on\s+(?:the\s+)?(?:client|company|house|host|customer|boss|them|him|her|"
                     r"us)|covered\s+by|paid\s+(?:for\s+)?by|hosted\s+by|catered\s+by|comped|complimentary|free\s+of\s+charge)|"
                     r"not|never|nope|n't|dont|didnt|doesnt|wasnt|isnt|forget|scratch|scrap|ditch|skip|ignore|nvm|never\s+mind|nah|"
                     # the same words in the languages people mix in ("ach nee, de koffie niet", "nein, das nicht",
                     # "nej, inte kaffet", "non, pas le café", "gratis", "vergeet", "glem", "oubliez", "lascia")
                     r"nicht|niet|inte|ikke|ei|nie|pas|não|nao|nein|nee|nej|gratis|kostenlos|vergiss|vergeet|glem|glöm|"
                     r"oublie[zr]?|olvida|esquece|dimentica|lascia|laat|lass|zapomnij|"
                     # paid by someone else, or private, in those languages ("Abendessen 80 (hat der Kunde bezahlt)",
                     # "lunch 14 heeft de klant betaald", "… privé", "jantar 40 pago pelo cliente")
                     rf"{_PAID_ABROAD}|privat|privé|privato|privata|privado|privada|perso|prywatn\w*|soukrom\w*|storniert|"
                     r"annulé|"
                     # someone else paid, said first ("my boss picked up the lunch", "the client treated us", "she paid")
                     rf"{_PAID_FIRST}|"
                     r"cancel|delete|remove|without|no\s+(?:the\s+)?(?:dinner|lunch|breakfast|taxi|cab|hotel|coffee|parking|"
                     r"train|flight|drinks?|snacks?)|"
                     r"leave\s+(?:\w+\s+){0,3}?(?:out|off)|leave\s+it|take\s+(?:\w+\s+){0,3}?(?:out|off)|drop\s+the|"
                     r"(?:company|client|colleague|boss|customer|host)\s+who\s+paid|who\s+paid\s+(?:for\s+)?(?:it|that)|"
                     r"no\s+need|private|personal(?:ly)?|(?:pay|paid|pays|paying|cover|covered)\s+(?:it\s+|that\s+|for\s+it\s+)?"
                     r"myself|except|excluding|instead|hold\s+off\s+(?:on\s+)?(?:the|that|this|my|adding)\b|"
                     r"only\s+(?:claim|claiming|charge|charging|putting|expens\w*)\b|(?:company|client|colleague|"
                     r"boss|customer|host)\s+(?:paid|covered|card)|paid\s+by\s+(?:the\s+)?(?:company|client|colleague))\b"
                     r"|n't\b", re.IGNORECASE)
# words that may turn a new line into a correction of one the claim has
_SOFT = re.compile(r"\b(?:actually|sorry|wrong|oops|wait|hold\s+on|rather|no(?=\s*[,.;:!-]|\s+(?:wait|sorry|no|actually|"
                   r"i\s+mean|it\s+was))|was|were|only|is\s+actually|came\s+to)\b", re.IGNORECASE)
# a thing told before, told again by its pronoun: "it was only two nights", "that was just 12"
_SAID_AGAIN = re.compile(r"\b(?:it|that|this|they)\s+(?:was|were|is|'s)\s+(?:only|just|actually|really)\b", re.IGNORECASE)
_SPLIT = re.compile(r"\b(?:half(?![\s-]+(?:a\s+)?(?:day|days|hour|an\s+hour|time|board|way|marathon|term)\b)(?![\s-]+fare\))|halves|split|shared|my\s+(?:own\s+)?(?:share|part|half|portion)|50\s?%|(?:each|we)\s+paid\s+"
                    r"(?:half|our\s+own))\b", re.IGNORECASE)
# a thing's price told as what it was: "cardiff parking was 8.50", "the cab came to 13.20"
_WAS_ITS_PRICE = re.compile(r"[^\W\d_]\s+(?:was|were|came\s+to|cost)\s+(?:only\s+|just\s+)?[€$£]?\s?\d", re.IGNORECASE)
def _content_words(text: str) -> set[str]:
    """The words of four letters or more of ``text`` that may name a thing paid for."""
    return {w.lower() for w in re.findall(r"[^\W\d_]{4,}", text)} - _PLAIN_WORDS


# words of four letters or more that name nothing paid for
_PLAIN_WORDS = frozenset("that this there then with from have been were what when where which your yours mine just also "
                         "find found receipt receipts amount much still later know remember sure cant can't dont don't "
                         "yet will would could should".split())
# one night of a stay, by its place in it, in the languages people mix in: "the second night", "a segunda noite"
# ("last night" is a day: yesterday)
_ORDINAL_NIGHT = re.compile(r"\b(?:first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th|primeira|segunda|terceira|quarta|quinta|"
                            r"primera|tercera|cuarta|"
                            r"prima|seconda|terza|premi[eè]re|deuxi[eè]me|seconde|troisi[eè]me|erste[n]?|"
                            r"zweite[n]?|dritte[n]?|eerste|tweede|derde|pierwsza|druga|trzecia|"
                            r"f[oö]rsta|andra|tredje)\s+(?:night|nite|noite|noche|notte|nuit|nacht|noc|natt|nat)\b",
                            re.IGNORECASE)
# a figure said with "was" (in any language), then "no" and another: "fue 68,50, no 86,50" says "not 86,50" in Spanish,
# "no, 86,50" in English; which one is asked
_WAS_A_NO_B = re.compile(r"\b(?:was|is|were|fue|fueron|era|es|foi|é|è|era|war|ist|était|est|var|är|er|jest|był|była|było|"
                         r"byl|byla|bylo|wynosił|wynosiła|kostete|costaba|costó|custou|costava)\s+(?:de\s+)?(?:[€$£]\s?)?"
                         r"\d[\d.,]*\s*(?:€|eur|euros?|[$£]|zł|pln|kr|chf)?\s*,?\s+(?:no|nie|ne|nee|nein)\.?\s*,?\s+(?:[€$£]\s?)?\d",
                         re.IGNORECASE)
# a figure said to be each person's: "per head it is 32", "32 per person", "€30 each", "that's 25 pp"
_PER_HEAD_WORDS = (r"(?:per\s+(?:head|person|pax|capita|persoon)|a\s+head|each|pp|p\.p\.|por\s+(?:persona|pessoa|cabe[cç]a)|pro\s+(?:person|"
                   r"kopf)|par\s+personne|a\s+(?:testa|persona)|na\s+osob[eę]|per\s+styck|per\s+pers\.?)")
_PER_HEAD = re.compile(rf"\b{_PER_HEAD_WORDS}\s+(?:it\s+(?:is|was)\s+|(?:is|was|that's|comes\s+to)\s+)?"
                       r"(?:[€$£]\s?)?(?P<n>\d+(?:[.,]\d{1,2})?)\b|(?:[€$£]\s?)?(?P<n2>\d+(?:[.,]\d{1,2})?)\s*(?:€|eur|euros?|[$£])?\s*"
                       rf"{_PER_HEAD_WORDS}(?!\w)", re.IGNORECASE)
# a figure told as a part of another: "60 of it", "20 out of that", "of which 15 was wine"
_PART_OF = re.compile(r"\d\s*(?:[€$£]|eur|euros?|usd|gbp|chf)?\s+(?:out\s+)?of\s+(?:it|that|this|them|those|the\s+(?:bill|total|"
                      r"amount|receipt|sum))\b|\b(?:of|out\s+of)\s+which\b", re.IGNORECASE)
# the user unsure of what they tell: "not sure which day to put", "unsure about the amount"
_DOUBT = re.compile(r"\b(?:not\s+(?:sure|certain)|unsure|no\s+idea)\s+(?:which|what|when|about)\b|\b(?:can'?t|cannot|don'?t)\s+"
                    r"remember\s+(?:which|what|when|the\s+(?:day|date|amount|price))\b", re.IGNORECASE)
# the share's own figure, said right after it: "my own share, €31.20", "my share was 18"
# the user paid the whole bill: then which figure is the line's is theirs to say
_PAID_ALL = re.compile(r"\bpaid\s+(?:for\s+)?(?:the\s+)?(?:whole|entire|full|all)\b|\bpaid\s+(?:for\s+)?(?:everyone|everybody|all\s+of\s+us)\b",
                       re.IGNORECASE)
_OTHERS_SHARE = re.compile(r"\b(?:his|her|their|(?:the\s+)?others?'?s?)\s+(?:own\s+)?(?:share|part|portion|half)\b[^.;()\d]{0,30}?"
                           r"(?P<figure>\d+(?:[.,]\d{1,2})?)(?![\d.,]\d)", re.IGNORECASE)
_TOTAL_THEN_MY_SHARE = re.compile(r"(?P<total>\d+(?:[.,]\d{1,2})?)\s*(?:€|eur\w*|kr|dkk|sek|nok|chf|£|gbp)?\s*(?:in\s+)?total\s*"
                                  r"[,;(]?\s*(?:and\s+|but\s+)?my\s+(?:own\s+)?(?:share|part|portion|half)\s*(?:was|is|came\s+to|:|=|,)?"
                                  r"\s*(?:[€$£]\s?)?(?P<share>\d+(?:[.,]\d{1,2})?)", re.IGNORECASE)
_SHARE_NOTED = re.compile(r"(?P<figure>\d+(?:[.,]\d{1,2})?)\s*(?:€|eur|euros?|£|gbp|chf|kr)?\s*[(,\-–—]?\s*(?:(?:that|this)\s+is\s+|"
                          r"that'?s\s+|it'?s\s+|it\s+is\s+)?(?:only|just)?\s*(?:for\s+)?$", re.IGNORECASE)
_SHARE_TOLD = re.compile(r"\s*(?:[,:\-–—]|\b(?:was|is|came\s+to)\b)?\s*(?:[€$£¥]\s?)?(\d+(?:[.,]\d{1,2})?)\b")
# a change of mind inside a line's words
_RETHINK = re.compile(r"actually|sorry|wrong|oops|wait|hold\s+on|rather|no", re.IGNORECASE)
_ADD_VERB = re.compile(r"\b(?:add|adding|put|plus|enter|log|include|book|claim|expense|record)\b|\+", re.IGNORECASE)
_BOTH = re.compile(r"\b(?:both|all|each|all\s+of\s+them|both\s+of\s+them)\s*(?:on\s+|from\s+)?$", re.IGNORECASE)
# a question about the very thing asked for: whether it is allowed, fine, possible
_ABOUT_IT = re.compile(r"\b(?:is|was|would|will|does|could|can)\s+(?:that|it|this)\s+(?:be\s+)?(?:ok|okay|fine|alright|all\s+right|"
                       r"allowed|possible|covered|acceptable|a\s+problem|reimbursable|claimable|work)\b|\bcan\s+i\s+"
                       r"(?:claim|expense|add|put)\s+(?:that|it|this)\b|\bam\s+i\s+allowed\b", re.IGNORECASE)
# words that point at a line already told ("the coffee 6,40", "twice", "a duplicate")
_QUOTED_TITLE = re.compile(r"[\"“‘'«]\s*([^\"”’'»]{1,120}?)\s*[\"”’'»]")
# "Sorry, I mean Tuesday 1/12. …": what the user meant, said again
_MEANT_AGAIN = re.compile(r"\W*(?:(?:sorry|sry|oops|oh|ah|ok|okay|no)[\s,]+)*i\s+mean[t]?\b", re.IGNORECASE)
# a meal had once a day: told again for a day that has it, it may be its amount corrected
_ONE_A_DAY = re.compile(r"\b(?:breakfast|lunch|dinner)\b", re.IGNORECASE)
_MEAL_WORD = re.compile(r"\b(?:breakfast|brunch|lunch|dinner|supper|coffee|snacks?|drinks?|beers?|groceries|sandwich)\b",
                        re.IGNORECASE)


def _the_same_meal(meal: str, line: dict[str, Any], amount: Decimal | None) -> bool:
    """May ``line`` be the ``meal`` told again at ``amount``: it names that meal, or names none and was priced alike
    ("Wednesday lunch 28 euros" beside "Kleinmarkthalle 24"; never a dinner of 26.50 beside "Pret 6.85")?"""
    said = f"{line.get('description') or ''} {line.get('merchant') or ''}"
    named = {m.group(0).lower() for m in _MEAL_WORD.finditer(said)}
    if named:
        return meal.lower() in named
    before = _decimal(line.get("amount"))
    return amount is not None and before is not None and priced_alike(amount, before)
_ONE_MORE = re.compile(r"\b(?:another|again|second|2nd|also|too|more|each|both|same\s+(?:again|as))\b", re.IGNORECASE)
_OUTWARD = re.compile(r"\b(?:out|outbound|outward|there|going)\b", re.IGNORECASE)
_RETURN_LEG = re.compile(r"\b(?:home|back|return|returning|inbound)\b", re.IGNORECASE)


# the way home named as a journey: "the flight home", "the train back", "the return flight"
_LEG_HOME = re.compile(r"\b(?:flights?|trains?|rides?|taxi|cab|uber|bus|coach|ferry|leg|journey|trip|drive)\s+(?:home|back)\b|"
                       r"\b(?:return|inbound|homebound)\s+(?:flights?|trains?|rides?|taxi|leg|journey|trip|tickets?)\b",
                       re.IGNORECASE)


def _its_old_amount_said(words: str, line: dict[str, Any]) -> bool:
    """"the flight back should be 215 eur, not 251": the line's own amount said as what it was not names it."""
    old = _decimal(line.get("amount"))
    return old is not None and any(re.search(r"\b(?:not|no|instead\s+of)\s+(?:[€$£]\s*)?$", words[:m.start()][-16:],
                                             re.IGNORECASE) and old in _values(m.group(0)) for m in _ATOM.finditer(words))


def _other_leg(words: str, line: dict[str, Any]) -> bool:
    """The words name one leg of a trip ("the flight home"), the line the other ("flight out")."""
    told = f"{line.get('description') or ''} {line.get('merchant') or ''}"
    # ("the ITA Airways flight home was 198.70" on the one ITA Airways line, told with no leg: the way out, or a fix?)
    return bool((_LEG_HOME.search(words) and not _RETURN_LEG.search(told))
                or (_RETURN_LEG.search(words) and _OUTWARD.search(told) and not _RETURN_LEG.search(told))
                or (_OUTWARD.search(words) and _RETURN_LEG.search(told) and not _OUTWARD.search(told)))


# an expense told as one already known, with no day of its own: "the taxi 40", "my hotel 129"
# the amount of a thing already told: "the Uber amount is 18.40", "the price of the taxi was 22"
_ITS_AMOUNT_IS = re.compile(r"\b(?:the|that|this)\s+(?:[^\W\d_]+\s+){1,2}?(?:amount|price|cost|fare|total|sum)\s+"
                            r"(?:is|was|should\s+be|shld\s+be|must\s+be|=|:)|\b(?:the|that)\s+(?:amount|price|cost|fare)\s+"
                            r"(?:of|for)\s+(?:the|that|this|my)\s+", re.IGNORECASE)
# a sentence that opens with the trip's day by its place: "Second day lunch …", "Last day the Arlanda Express …", "Day 2 …"
_DAY_BY_PLACE = re.compile(r"(?:^|(?<=[.!?;\n]))\s*(?:(?:and|so|then|ok|okay|now)\W+)*(?:on\s+)?((?:the\s+)?(?P<word>first|"
                           r"second|third|fourth|fifth|last|final)\s+day)\b(?!\s*(?:of|before|after)\b)", re.IGNORECASE)
# a figure weighed against what is allowed, which tells no expense: "so 139 per night is fine then"
_WEIGHED = re.compile(r"\d[\d.,]*\s*(?:€|eur\b|euros?\b)?\s*(?:/\s*night|(?:per|a)\s+(?:night|day|person|head))?\s+(?:is|are|'s|"
                      r"would\s+be|seems?|looks?)\s+(?:still\s+|then\s+)?(?:fine|ok|okay|within|under|below|allowed|acceptable|"
                      r"in\s+policy|covered)\b", re.IGNORECASE)
_ANOTHER_OF_IT = re.compile(r"\b(?:other|return|back|as\s+well|home|way\s+back)\b", re.IGNORECASE)
# a thing named as one known, then its price: "the dinner of 42 euro", "that taxi for 24", "the 42 dinner"
_THE_THING_OF = re.compile(r"\W*(?:and\s+|also\s+|oh\s+|ok\s+|so\s+)?(?:the|that|this)\s+(?:(?:[^\W\d_][\w'’-]*\s+){1,3}?"
                           r"(?:of|for)\s+[€$£]?\s?\d+(?:[.,]\d{1,2})?|[€$£]?\d+(?:[.,]\d{1,2})?\s?(?:€|eur|euros?)?\s+"
                           r"[^\W\d_])", re.IGNORECASE)
_THE_KIND = re.compile(r"\W*(?:and\s+|also\s+)?(?:the|that|this|my)\s+(?!\d)", re.IGNORECASE)
_POINTING = re.compile(r"\b(?:(?:the|that|this|those|these)\s+(?!\d)|twice\b|two\s+times\b|double\b|duplicated?\b|again\b)", re.IGNORECASE)
# a label that says what follows is a question: "Question: taxi 45", "Quick doubt - the hotel 180"
_LABELLED_QUESTION = re.compile(r"(?:^|(?<=[.!?\n]))\s*(?:(?:and|also|oh|ok|so)\s+)*(?:(?:a|one|quick|small|last|another)\s+)*"
                                r"(?:question|doubt|query|pregunta|duda|frage|domanda|pergunta|d[uú]vida|vraag|pytanie|"
                                r"fr[aå]ga|sp[oø]rsm[aå]l|ot[aá]zka)\s*(?:for\s+you\s*)?[:\-–—]+", re.IGNORECASE)
# the question the last reply asked is answered by dropping it, not completing it
_GIVE_UP = re.compile(r"\b(?:no\s+no|undo|forget\s+it|never\s*mind|nvm|leave\s+it|was\s+(?:right|correct|fine)|"
                      r"(?:is|was)\s+correct|cancel\s+that|don'?t\s+(?:change|bother))\b", re.IGNORECASE)
_DEFINITE = re.compile(r"\b(?:the|that|my|our|this|those|these)\b", re.IGNORECASE)
# a request the words decline ("no need to add the coffee", "don't put the parking on")
_DECLINE = re.compile(r"\b(?:no\s+need|don'?t|do\s+not|not|never|no)\b.{0,24}\b(?:add|put|include|claim|enter|submit|send|"
                      r"need|count|charge|book)\b|\bnothing\s+to\s+add\b|\bleave\s+(?:\w+\s+){0,3}?(?:out|off)\b",
                      re.IGNORECASE)
_DONT = re.compile(r"(?:don'?t|do\s+not|never|no\s+need)\b", re.IGNORECASE)
# a reason a removal gives: "dont need to claim that", "don't need it", "no need to claim it"
_NO_NEED_OF_IT = re.compile(r"(?:don'?t|do\s+not|no)\s+need(?:\s+to\s+(?:claim|expense|keep|have|include|put\s+in|submit))?\s+"
                            r"(?:it|that|this|them|those)(?:\s+one)?\b(?:\s+(?:after\s+all|anymore|any\s+more|really))?\W*$",
                            re.IGNORECASE)
# a correction said outright: inside a line's addition, always left over
# a message that opens by saying it brings corrections: "sorry, 2 mistakes:", "two fixes -", "Corrections:"
_LISTED = re.compile(r"\b(?:these|those|the\s+following|following|the\s+next|here\s+are(?:\s+the)?)\s+"
                     r"(?P<n>two|three|four|five|six|[2-9])\b(?:\s+[a-z]+){0,2}?\s*[:;-]", re.IGNORECASE)
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, **{str(n): n for n in range(2, 10)}}
_FIXES_ANNOUNCED = re.compile(r"^\W*(?:[^\W\d_]+\W+|\d\s+){0,5}?(?:mistakes?|errors?|fixes|corrections?|typos?|changes)\b"
                              r"(?:\s+[^\W\d_]+){0,3}\s*[:;,.!–-]", re.IGNORECASE)
_CORRECTION = re.compile(r"\b(?:typo|error|mistake|mistyped|correct(?:ion|ed)?|meant|fix|should\s+(?:be|have\s+been|"
                         r"'ve\s+been)|supposed\s+to\s+be|swapped|misread|wrongly|instead\s+of|change|chang|chnage|"
                         r"update|amend|edit)\b", re.IGNORECASE)
_QUESTION = re.compile(r"\?|(?:^|(?<=[.!?,;:\n-]\s)|(?<=^\s)|\b(?:and|so|but|also)\s+)(?:what|whats|what's|how|"
                       r"which(?!\s+(?:came|cost|costs|was|were|comes|totall?ed|amounted|i\s+paid)\b)|"
                       r"when|why|where|who|is\s+there|are\s+there|do\s+i|does|did\s+i|can\s+i|could\s+i|should\s+i|"
                       r"may\s+i|am\s+i|is\s+it|is\s+that|will\s+i|would\s+i|have\s+i|how\s+much|how\s+many)\b",
                       re.IGNORECASE)
_ASKING = re.compile(r"\b(?:how\s+much|how\s+many|what|whats|what's|which|when|why|is\s+there|do\s+i|can\s+i|"
                     r"could\s+i|should\s+i|am\s+i)\b", re.IGNORECASE)
_POLITE = re.compile(r"\b(?:can|could|would|will|might|may)\s+(?:you|u|ya)\b|\bwould\s+you\s+mind\b|\bplease\b|\bpls\b|\bkindly\b"
                     # and the same request in the languages people write in ("pouvez-vous créer …?", "vil du oprette …?")
                     r"|\b(?:pouvez|pourriez|peux|pourrais)-(?:vous|tu)\b|\b(?:tu|vous)\s+(?:peux|pouvez|pourrais|pourriez)\b|"
                     r"\b(?:können|könnten|kannst|könntest)\s+(?:sie|du)\b|"
                     r"\b(?:puedes|puede|podrías|podría|podes|pode|podia|può|puoi|potresti|potrebbe)\b|"
                     r"\b(?:kunt|kun|kan|vil|ville|kunne|kunde)\s+(?:u|je|jij|du|ni)\b|\bmożesz\b|\bmożna\b|\bmůžete\b|\bmůžeš\b",
                     re.IGNORECASE)
_FILTER = re.compile(r"\b(?:only(?:\s+the)?|just\s+the|the\s+ones?\s+(?:from|at|in|for|with)|except(?:\s+for)?(?:\s+the)?|"
                     r"excluding(?:\s+the)?|apart\s+from(?:\s+the)?|without(?:\s+the)?|all\s+but(?:\s+the)?|"
                     r"but\s+not(?:\s+the)?)\s+(?!(?:until|till|before|after|yet|today|now|tomorrow|when|once|if)\b)"
                     r"(?P<word>[\w'’-]+)", re.IGNORECASE)
_THE_REST = re.compile(r"\s+(?:all\s+)?(?:the\s+)?(?:other|others|rest|remaining)\b", re.IGNORECASE)
_LEAVE_OUT = re.compile(r"(?:ignore|skip|leave\s+out|forget(?:\s+about)?|not|exclude|without)\s+(?:the\s+)?"
                        r"(?P<names>[^\W\d_][\w'’-]*(?:\s*(?:,|\band\b|\bor\b|&)\s*(?:the\s+)?[^\W\d_][\w'’-]*)*)"
                        r"\s*(?:[.!;\n]|$)", re.IGNORECASE)
_MORE_NAMED = re.compile(r"(?:\s*(?:,|\band\b|\bor\b|&)\s*(?:the\s+)?[\w'’-]+)+", re.IGNORECASE)
_FILTER_ONES = re.compile(r"\b(?:(?:the\s+|only\s+(?:the\s+)?)(?P<word>[\w'’-]+)\s+ones?|(?P<plural>[\w'’-]+)\s+ones)\b"
                          r"(?:\s+only\b)?", re.IGNORECASE)
# "add the edinburgh ones", "paris ones only", "the uber one" (not "hotel motel one": a name)
_REQUEST_WORDS = frozenset("open opened opening claim please pls titled called named could would you your i i'd i'm "
                           "me my it its grateful kindly create make start new add send submit approval approve yet not "
                           "remove delete withdraw currency".split()) | frozenset(
    word for word in re.findall(r"[^\W\d_']+", lexicon.PLEASE) if len(word) > 2 and word not in ("you", "vous", "te"))
_HARMLESS = re.compile(r"(?:no\s+(?:problem|worries|rush|hurry)|(?:don'?t|do\s+not)\s+(?:ask|worry|judge|laugh)\b|thanks|thank\s+you|sorry\s+(?:to\s+bother|for|about)|"
                       r"if\s+it\s+(?:is|'s)n'?t\s+too\s+much|not\s+too\s+much\s+(?:trouble|bother)|"
                       r"(?:i'?m|i\s+am)\s+not\s+sure\s+(?:if|whether|how|what)|not\s+sure\s+(?:if|whether|how)|"
                       r"isn'?t\s+it|didn'?t\s+i|no\s+idea|not\s+a\s+problem|"
                       # a preface about the user, not the claim: "I have not used this before", "never done this before"
                       r"(?:have|'ve|had)(?:n'?t|\s+not|\s+never)\s+(?:\w+\s+){0,2}?(?:used|done|tried)\s+(?:this|it|one|these|"
                       r"the\s+(?:app|tool|assistant|system|chat))\s+(?:\w+\s+){0,2}?before|never\s+(?:used|done|tried)\s+"
                       r"(?:this|it|one|these)\s+(?:\w+\s+){0,2}?before|(?:i'?m|i\s+am)\s+not\s+(?:very\s+|too\s+|so\s+)?"
                       r"(?:good|great|familiar|used|experienced|comfortable)\s+(?:with|to|at)\s+(?:this|these|computers|"
                       r"technology|apps?|chat\w*)|not\s+sure\s+how\s+(?:this|it)\s+works|"
                       r"(?:was|were|is|are)(?:n'?t|\s+not)\s+(?:included|covered|part\s+of|in\s+the\s+(?:price|rate|package))|"
                       # "before I forget everything": why now, not a take-back
                       r"(?:before|lest|in\s+case|so\s+(?:that\s+)?i\s+(?:don'?t|do\s+not))\s+(?:i\s+)?forget(?:\s+(?:everything|"
                       r"it|them|about\s+it|the\s+details))?|don'?t\s+want\s+to\s+forget)",
                       re.IGNORECASE)


def _harmless(message: str, start: int) -> bool:
    """A cue inside a polite or idle phrase that changes nothing ("no worries", "if it isn't too much trouble")."""
    for m in _HARMLESS.finditer(message, max(0, start - 30), min(len(message), start + 40)):
        if m.start() <= start < m.end():
            return True
    # "(it was raining so I could not walk)": why it was spent, in brackets with no figure, takes nothing back
    return any(m.start() < start < m.end() and not _STRONG_OUT.search(m.group(0))
               for m in re.finditer(r"\((?:it|i|we|there|the|because|as|since)\b[^()\d]{0,120}\)", message, re.IGNORECASE))


# the user saying what follows is new: "Both are new expenses.", "Add a new line:", "it's a new one"
_SAID_NEW = re.compile(r"\b(?:(?:are|is|'s|re)\s+(?:both\s+|all\s+)?(?:a\s+)?new(?:\s+(?:ones?|expenses?|lines?|items?))?\b|"
                       r"(?:add|create|enter)\s+(?:a\s+|one\s+)?new\s+(?:line|item|entry|expense|row)\b)", re.IGNORECASE)
# why a line goes, said beside its removal: "not worth it", "not claimable", "not needed after all"
_WHY_REMOVED = re.compile(r"not\s+(?:worth\s+(?:it|claiming|the\s+(?:hassle|bother))|claimable|needed|business|for\s+work|"
                          r"reimbursable|allowed)\b", re.IGNORECASE)
_MONEY_BACK = re.compile(r"\b(?:refund\w*|credited|credit\s+note|money\s+back|chargeback|reimbursed\s+(?:me|to\s+me))\b",
                         re.IGNORECASE)
# a take-back said even in brackets ("(not the coffee)", "(forget the parking)")
_STRONG_OUT = re.compile(r"\b(?:forget|scratch|scrap|ditch|skip|ignore|remove|delete|drop|cancel|don'?t\s+(?:add|claim|"
                         r"include)|not\s+(?:the|that|this|my)|paid|pays|pay|reimburs\w*|covered|client|company|colleague|"
                         r"personal|private|myself|on\s+me|refund\w*|free|comp\w*)\b", re.IGNORECASE)


# the place a ride went to or came from ("back to the hotel", "site→hotel", "gare -> site")
_PLACE_REACHED = re.compile(r"(?:\b(?:to|from|into|towards)\s+(?:the\s+|my\s+|our\s+)?|(?:→|->|=>|⇒|➔|➝)\s*)"
                            r"(?P<place>(?!(?:breakfast|brunch|lunch|dinner|supper)\b)[^\W\d_]+)", re.IGNORECASE)
# the place a ride started from ("hotel to the office", "hotel→airport")
_PLACE_LEFT = re.compile(r"\bhotels?(?=\s*(?:to|->|→)\s)", re.IGNORECASE)


def _not_bought(words: str) -> str:
    """``words`` without the places a ride went to or left from, nor the journey something else was bought on or
    before: what is left names what was bought."""
    words = _PLACE_LEFT.sub("", _PLACE_REACHED.sub(lambda m: m.group(0)[:m.start("place") - m.start()], words))
    words = TRAVEL_TIME.sub(lambda m: m.group(0)[:m.start("place") - m.start()], words)
    return ABOARD.sub(lambda m: m.group(0)[:m.start("place") - m.start()] if bought_aboard(words, m.start()) else m.group(0),
                      words)


# a full stop ends a sentence, but not the one after a day's number before its month ("3. December")
_SENTENCE_END = re.compile(r"(?!(?<=\d)\.\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)"
                           r"(?!(?<=(?<![\d.,])\d)\.[ \u00a0](?:1[0-2]|0?[1-9])\.)(?!(?<=(?<![\d.,])\d\d)\.[ \u00a0](?:1[0-2]|0?[1-9])\.)"  # "9. 11."
                           r"(?!(?<=\d)\.\s*(?:[-–—~]|(?:to|until|till|thru|through|bis)\s))"  # "18.11. to 20.11.", "9. 11. – 11. 11."
                           r"(?!(?:(?<=(?<![\d.,])\d\.[1-9])|(?<=(?<![\d.,])\d\d\.[1-9])|(?<=(?<![\d.,])\d\.(?:0[1-9]|1[0-2]))|(?<=(?<![\d.,])\d\d\.(?:0[1-9]|1[0-2])))\.\s+(?-i:[a-z\d]))"  # "10.11. taxi 42"
                           r"(?!(?<=(?<![\w.])(?-i:[A-Z]))\.\s+(?-i:[A-Z][a-z]))"  # "S. Byrne"
                           r"[.!?;](?=\s|$)|\n|…|(?<=\s)[/|](?=\s)", re.IGNORECASE)  # " / " opens a new group of lines


def _sentence_span(message: str, at: int) -> tuple[int, int]:
    """The sentence around ``at`` (a decimal point ends none: "168.00 and …")."""
    starts = [m.end() for m in _SENTENCE_END.finditer(message, 0, at)]
    start = starts[-1] if starts else 0
    m = _SENTENCE_END.search(message, at)
    end = m.end() if m else len(message)
    while start < end and message[start].isspace():
        start += 1
    return start, end


def _sentence(message: str, at: int) -> str:
    return message[slice(*_sentence_span(message, at))]


# --------------------------------------------------------------------------- days, read on their own


@dataclass(frozen=True)
class Day:
    start: int
    end: int
    value: date | None  # None: a day said relative to something else ("same day")
    kind: str = ""


_WEEKDAYS = {"mon": 0, "monday": 0, "tue": 1, "tues": 1, "tuesday": 1, "wed": 2, "weds": 2, "wednesday": 2,
             "thu": 3, "thur": 3, "thurs": 3, "thursday": 3, "fri": 4, "friday": 4, "sat": 5, "saturday": 5,
             "sun": 6, "sunday": 6}
_MONTHS = {m: n for n, names in enumerate(
    [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",), ("jun", "june"),
     ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
     ("dec", "december")], 1) for m in names}


# the weekdays and months of the languages people mix in (normalize.calendar_abroad: Babel's CLDR names), as numbers
_DAYS_ABROAD = {word: _WEEKDAYS[english] for word, english in calendar_abroad().items() if english in _WEEKDAYS}
_MONTHS_ABROAD = {word: _MONTHS[english] for word, english in calendar_abroad().items() if english in _MONTHS}
_RELATIVE_ABROAD = {**dict.fromkeys(lexicon.TODAY_ABROAD, 0), **dict.fromkeys(lexicon.YESTERDAY_ABROAD, 1),
                    **dict.fromkeys(lexicon.BEFORE_YESTERDAY_ABROAD, 2)}
_CALENDAR_ABROAD = frozenset(_DAYS_ABROAD) | frozenset(_MONTHS_ABROAD)
_WEEKDAYS.update(_DAYS_ABROAD)
_MONTHS.update(_MONTHS_ABROAD)
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_WEEKDAY_WORDS = "|".join(sorted({*_DAYS_ABROAD, *(w for w in _WEEKDAYS if len(w) > 3)}, key=len, reverse=True))
_DAY_PATTERNS = [
    ("week_day", WEEKDAY_OF_A_WEEK),  # "Tuesday last week", "last week Tuesday"
    # "(lunes 16 and martes 17)", "Monday 16 - Tuesday 17": two weekdays, each with its day of the month, one day after
    # the other (a weekday alone before a figure, "taxi thursday 12", is a price's day, not the 12th)
    ("ordinal", re.compile(rf"(?<![\w-])(?:{_WEEKDAY_WORDS})\s+(?P<d>[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?\s*(?:,|and|y|e|&|-|–|to|"
                           rf"until|till|al|bis)\s*(?:{_WEEKDAY_WORDS})\s+(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?\b(?![.,]\d|[ \u00a0]\d{{3}}\b)",
                           re.IGNORECASE)),
    ("iso", re.compile(r"\b(?P<y>20\d\d)-(?P<m>\d{1,2})-(?P<d>\d{1,2})\b")),
    ("iso", re.compile(r"(?<![\d.,/])(?P<y>20\d\d)([./])(?P<m>1[0-2]|0?[1-9])\2(?P<d>[12]\d|3[01]|0?[1-9])\.?(?![\d]|[.,]\d)")),  # "2026.11.16."
    ("dmy", re.compile(r"(?<![\d.,/])(?P<d>\d{1,2})[./](?P<m>\d{1,2})(?:[./](?P<y>(?:20)?\d\d))?\.?(?!\d|[.,]\d)")),
    # "9. 11.", "9. 11. 2026": a day and its month dotted with a space between, as Czechs, Slovaks and Germans write them
    ("dmy", re.compile(SPACED_DOTTED_DAY)),
    ("range", re.compile(rf"\b(?:(?P<mon1>{_MONTH})\.?\s+(?P<d1>\d{{1,2}})\s*[-–]\s*\d{{1,2}}|(?P<d2>\d{{1,2}})\.?\s*[-–]\s*\d{{1,2}}"
                         rf"(?:st|nd|rd|th|\.)?\s+(?:of\s+)?(?P<mon2>{_MONTH}))\.?\b(?:\s+(?P<y>20\d\d))?", re.IGNORECASE)),
    # ("1.–3. December": the German way, each day with its dot)
    ("dmonth", re.compile(rf"(?<![\d.,])\b(?P<d>\d{{1,2}})(?:st|nd|rd|th|(?<=\b1)er|\.(?=\s))?(?:\s*|-)(?:of\s+)?(?P<mon>{_MONTH})\.?\b(?:\s+(?P<y>20\d\d))?",
                          re.IGNORECASE)),
    ("monthd", re.compile(rf"\b(?P<mon>{_MONTH})\.?\s+(?:the\s+)?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b(?!\s*(?:[.,]\d|€|eur)|/\d)"
                          rf"(?:,?\s+(?P<y>20\d\d))?", re.IGNORECASE)),
    ("ordinal", re.compile(DAY_NUMBERED, re.IGNORECASE)),
    # "the dinner of the 25", "on the 23", "I paid it the 26": a day of the month said without its suffix (never money:
    # no decimals, no currency after it)
    ("ordinal", re.compile(r"(?:\b(?:of|on|from)|\bcheck(?:ed)?[\s-]?(?:in|out)(?:\s+on)?|\bpaid\s+(?:it|that|this)(?=\s+the\s+\d{1,2}\s*(?:$|[,.;!?]|(?:when|after|before|as|"
                           r"because)\b)))\s+the\s+(?P<d>[12]\d|3[01]|0?[1-9])\b"
                           r"(?![.,]\d|\s*(?:€|eur|euros?|usd|\$|gbp|£|chf|%|x\b|nights?|days?|people|lines?|items?))",
                           re.IGNORECASE)),
    # "The 17 the flight back …", "The 26 I have invited the client": a sentence opened by a day of the month
    ("ordinal", re.compile(r"(?:^|(?<=[.:;!]\s))the\s+(?P<d>[12]\d|3[01]|0?[1-9])\b(?=,?\s+(?:the|i|we|a|an|my|our)\b)",
                           re.IGNORECASE)),
    # "on the 1st dinner at …": after "on", a day, whatever follows it
    ("ordinal", re.compile(r"\bon\s+the\s+(?P<d>\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:line|item|entry|row|one|time|floor|stop|"
                           r"class|round|attempt)s?\b)", re.IGNORECASE)),
    ("ordinal", re.compile(r"\b(?:(?:on\s+)?the\s+)?(?P<d>\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:line|item|entry|row|one|night|nite|"
                           r"time|floor|stop|class|round|attempt|day|week|month|year|place|taxi|cab|bolt|uber|coffee|"
                           r"lunch|dinner|breakfast|hotel|ticket|train|flight|leg|" + _PLACES_COUNTED + r")s?\b)",
                           re.IGNORECASE)),
    ("relative", re.compile(r"\b(?:(?:the\s+)?day\s+before\s+yesterday|yesterday|yday|yest|ystd|today|tdy|tonight|"
                            r"this\s+(?:morning|afternoon|evening|am\b|a\.m(?=\.))|last\s+(?:night|nite|evening)|earlier\s+today)\b",
                            re.IGNORECASE)),
    # the same days in the languages people mix in ("ayer almuerzo 14", "Taxi gestern 8.80")
    ("abroad", re.compile(rf"(?<![\w'-])(?P<a>{'|'.join(map(re.escape, sorted(_RELATIVE_ABROAD, key=len, reverse=True)))})"
                          rf"(?![\w'-])", re.IGNORECASE)),
    ("vague", re.compile(rf"\b(?:(?:last|this|next|past)\s+(?:week|month|weekend|year)|(?:earlier|later)\s+this\s+(?:week|month)|"
                         rf"(?:in|during|end\s+of|early|mid|late)\s+(?:{_MONTH})\b|a\s+few\s+days\s+ago|recently|the\s+other\s+day)",
                         re.IGNORECASE)),
    ("future", re.compile(r"\b(?:tomorrow|tmrw|tmr|next\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
                          r"mon|tue|wed|thu|fri|sat|sun)|the\s+day\s+after\s+tomorrow)\b", re.IGNORECASE)),
    ("ago", re.compile(r"\b(?P<n>\d{1,2}|a|one|two|three|four|five|six|seven|couple\s+of)\s+days?\s+ago\b",
                       re.IGNORECASE)),
    ("same", re.compile(r"\b(?:same\s+(?:day|night|nite|evening|date)|right\s+after(?:wards)?|straight\s+after|afterwards|"
                        r"after\s+that|that\s+(?:same\s+)?(?:day|night|evening|morning|afternoon)|the\s+same\s+(?:morning|afternoon|evening)|the\s+day\s+(?:before|after)|"
                        r"the\s+(?:next|following)\s+(?:day|morning)|next\s+morning|day\s+after|"
                        r"(?:\d|two|three|four|five|a\s+couple\s+of)\s*days?\s+(?:later|after))\b", re.IGNORECASE)),
    ("weekday", re.compile(r"\b(?P<w>monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|weds?|thu(?:rs?)?|"
                           r"fri|sat|sun)\b", re.IGNORECASE)),
    ("weekday", re.compile(rf"(?<![\w-])(?P<w>{'|'.join(sorted(_DAYS_ABROAD, key=len, reverse=True))})(?![\w-])", re.IGNORECASE)),
    # Swedish and Danish "i fredags", "i mandags": last Friday, last Monday
    ("weekday", re.compile(r"\bi\s+(?P<w>måndag|tisdag|onsdag|torsdag|fredag|lördag|söndag|mandag|tirsdag|lørdag|søndag)s\b",
                           re.IGNORECASE)),
]


def find_days(text: str, today: date) -> list[Day]:
    """Every day the text names, resolved against ``today`` on its own reading (not the reader's)."""
    found: list[Day] = [Day(s, e, day, "dmonth") for s, e, day in weekdays_with_their_day(text, today)] + [
        Day(s, e, day, "dmonth") for s, e, day in days_before_dotted(text, today)] + _nights_by_day_of_month(text, today)
    taken: list[tuple[int, int]] = [(d.start, d.end) for d in found]
    for kind, pattern in _DAY_PATTERNS:
        for m in pattern.finditer(text):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            if kind == "weekday" and not _weekday_meant(text, m):
                continue
            if kind == "dmy" and not _dmy_meant(text, m, today):
                continue
            if any(w.group(0).lower() in _CALENDAR_ABROAD and not abroad_meant(text, m.start() + w.start(), m.start() + w.end())
                   for w in re.finditer(r"[^\W\d_]+", m.group(0))):
                continue  # "Trattoria Domenica", "lunch with Avril 12": a name, no day
            taken.append((m.start(), m.end()))
            found.append(Day(m.start(), m.end(), _resolve(kind, m, today), kind))
    found += [Day(s, e, day, "weekday") for s, e, day in heading_days(text, today) + day_pairs_abroad(text, today) if not any(
        s < te and ts < e for ts, te in taken)]  # "Mo: ICE … Di: lunch …", "2 nuits mardi-mercredi"
    return _weekdays_joined(text, sorted(found, key=lambda d: d.start))


# a count of nights, then the days of the month they were: "2 nights, 16 and 17", "2 nights (9 and 10 November)"
_NIGHTS_DAYS = re.compile(r"\b(?:\d{1,2}|two|three|four|five)\s*(?:nights?|nites?|nts|n)\b[,\s]*\(?\s*(?P<run>(?:the\s+)?\d{1,2}"
                          r"(?:st|nd|rd|th)?(?:\s*(?:,|and|&|\+)\s*(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?){1,3})(?P<month>\s+(?:jan|feb|"
                          r"mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?)?(?![\d./:])", re.IGNORECASE)


# the same, each day dotted with its month: "2 nights (25.11 and 26.11)"
_NIGHTS_DOTTED = re.compile(r"\b(?:\d{1,2}|two|three|four|five)\s*(?:nights?|nites?|nts|n)\b[,\s]*\(?\s*(?P<run>\d{1,2}\.\d{1,2}"
                            r"\.?(?:\s*(?:,|and|&|\+)\s*\d{1,2}\.\d{1,2}\.?){1,3})(?![\d/:]|[.,]\d)", re.IGNORECASE)


def _nights_by_day_of_month(text: str, today: date) -> list[Day]:
    """Each day of such a run, valued as the stay's first night: the day a stay told so is dated by."""
    out: list[Day] = []
    for m in _NIGHTS_DOTTED.finditer(text):
        pairs = list(re.finditer(r"(\d{1,2})\.(\d{1,2})\.?", m.group("run")))
        first = _resolve("dmy", re.match(r"(?P<d>\d{1,2})\.(?P<m>\d{1,2})(?P<y>)", pairs[0].group(0)), today)
        if first is None or (today - first).days > 92:
            continue
        out += [Day(m.start("run") + n.start(), m.start("run") + n.end(), first, "nights") for n in pairs]
    taken = [(d.start, d.end) for d in out]
    for m in _NIGHTS_DAYS.finditer(text):
        numbers = list(re.finditer(r"\d{1,2}", m.group("run")))
        month = _MONTHS.get(m.group("month").strip().lower().rstrip(".")[:3]) if m.group("month") else None
        first = int(numbers[0].group(0))
        try:
            start = date(today.year, month, first) if month else (
                today.replace(day=first) if first <= today.day else (today.replace(day=1) - timedelta(days=1)).replace(day=first))
        except ValueError:
            continue
        start = start if start <= today else start.replace(year=start.year - 1)
        out += [Day(m.start("run") + n.start(), m.start("run") + n.end(), start, "nights") for n in numbers
                if not any(s <= m.start("run") + n.start() < e for s, e in taken)]
    return out


def _weekdays_joined(text: str, days: list[Day]) -> list[Day]:
    """"Tuesday the 24th of November", "Fri, 14.11.": a weekday beside a date is part of it."""
    out: list[Day] = []
    for day in days:
        if out:
            last = out[-1]
            pair = {last.kind, day.kind}
            weekday, dated = (last, day) if last.kind == "weekday" else (day, last)
            if "weekday" in pair and len(pair) == 2 and re.fullmatch(r"[\s,(]*(?:the\s*)?", text[last.end:day.start],
                                                                    re.IGNORECASE) and not (
                    weekday.value and dated.value and weekday.value.weekday() != dated.value.weekday()):
                # ("Trip 30.11–2.12. Tuesday taxi 30": a Wednesday's date, then another day's weekday: two days)
                out[-1] = Day(last.start, day.end, dated.value, dated.kind)
                continue
        out.append(day)
    return out


def _weekday_meant(text: str, m: re.Match[str]) -> bool:
    word = m.group("w").lower()
    before = text[:m.start()].lower()
    if word == "sat":  # "I sat down", not a day
        return not re.search(r"\b(?:i|we|he|she|they|you|it)\s*$", before) and not re.match(
            r"\s+(?:down|next|with|in|on|at|around|there)\b", text[m.end():], re.IGNORECASE)
    if word == "sun":  # "in the sun", not a day
        return not re.search(r"\b(?:the|a)\s*$", before)
    return True


def _dmy_meant(text: str, m: re.Match[str], today: date) -> bool:
    d, mo = int(m.group("d")), int(m.group("m"))
    if "/" in m.group(0) and 1 <= d <= 12 < mo <= 31:
        return True  # "11/23 thru 11/25": the month first, as only it can be
    if not (1 <= d <= 31 and 1 <= mo <= 12):
        return False
    raw = m.group(0)
    if "." in raw and not m.group("y") and not raw.endswith("."):
        # "12.50" is money, "14.11." is a day; so is "23.11" heading a line ("23.11: taxi 31"), alone or after the
        # weekday it fell on ("Mon 23.11: …"); in a sentence ("lunch friday 27.11", "taxi 23.11 was 28,50") it may
        # be a price
        if re.search(r"\b(?:on|from|since|until|date|dated)\s+$", text[:m.start()], re.IGNORECASE):
            return True  # "taxi 22,10 on 30.11", "3 nights from 24.11.": a day, as the reading takes it
        if re.fullmatch(r"0[1-9]\.(?:0[1-9]|1[0-2])", raw) and not _MONEY_AFTER.match(text, m.end()) and re.search(
                r"(?:^|[\n.!?;:]\s*)$", text[:m.start()]):
            day = _resolve("dmy", m, today)  # "03.12 bilet for the meetup": a leading zero writes a day, never a price
            return day is not None and 0 <= (today - day).days <= 92
        if re.search(r"(?<!\d\s)\b(?:od|am|le|vom|ab|dal|desde)\s+$", text[:m.start()], re.IGNORECASE) and not _MONEY_AFTER.match(
                text, m.end()) and not re.match(r"\s*(?:uhr|h\b|o'?clock|am\b|pm\b)", text[m.end():], re.IGNORECASE):
            day = _resolve("dmy", m, today)  # "2 noce od 02.12, 860,00 zł", "am 30.11": "on" or "from" in the writer's
            return day is not None and 0 <= (today - day).days <= 92  # language (never "ab 9.10 Uhr", a time)
        if re.match(r"\s*[-–,]\s*(?:\d{1,2}\s*[^\W\d_]{1,7}\s*,\s*)?(?:[€$£]\s*\d+(?:,\d\d)?(?![\d.])|\d+(?:,\d\d)?"
                    + _MONEY_AFTER.pattern + ")", text[m.end():], re.IGNORECASE) and not _MONEY_AFTER.match(text, m.end()):
            day = _resolve("dmy", m, today)  # "airport 30.11 - 89 zł", "Mercure 30.11, 1 noc, 420,00 zł": the priced one
            return day is not None and 0 <= (today - day).days <= 21  # is the one with its currency (a recent day)
        if re.search(r"\bcheck(?:ed|ing)?[\s-]?(?:in|out)\s*(?:on\s+|date\s+|:\s*)?$", text[:m.start()], re.IGNORECASE) and not \
                _MONEY_AFTER.match(text, m.end()) and not re.search(r"\b(?:bags?|luggage|suitcases?|baggage)\s+check",
                                                                    text[max(0, m.start() - 40):m.start()], re.IGNORECASE):
            day = _resolve("dmy", m, today)  # "check-in 18.11, check-out 20.11": the stay's days
            return day is not None and 0 <= (today - day).days <= 92
        if _dotted_stay(text, m, today):
            return True  # "2 nights 30.11-2.12": a stay's first and last day
        if re.match(r"\.?\s*[–-]\s*\d{1,2}\.\d{1,2}(?!\d|[.,]\d\d)", text[m.end():]) or re.search(
                r"(?<![\d.,])\d{1,2}\.\d{1,2}\.?\s*[–-]\s*$", text[:m.start()]):
            return True  # "Trip 30.11–2.12.": the first and last day of a trip
        if re.search(r"\b(?:date|day)\b[^.;\n]{0,40}\bto\s+$", text[:m.start()], re.IGNORECASE):
            return True  # "change the date of line 2 to 1.12"
        if re.match(r",?\s+\d{1,2}\s*(?:nights?|nites?|nts?|n)\b", text[m.end():], re.IGNORECASE):
            day = _resolve("dmy", m, today)  # "hotel ibis 2.12 2 nights 70 each": the stay's first day
            return day is not None and 0 <= (today - day).days <= 92
        if re.match(r"\s+(?-i:[A-Z])[^\d,;:.!?]{1,40}?\s(?:[€$£]\s?)?\d{1,5}[.,]\d\d\b", text[m.end():]) and not re.search(
                r"[€$£]\s?$", text[:m.start()]):
            day = _resolve("dmy", m, today)  # "1.12 Pierogarnia Mandu 18,40 eur": the day, a name, then the price
            return day is not None and 0 <= (today - day).days <= 92
        if _PRICE_BESIDE.match(text, m.end()) and not _MONEY_AFTER.match(text, m.end()):
            day = _resolve("dmy", m, today)  # "taxi 23.11 18,50", "flight 23.11 was 289.40": the price is the other
            return day is not None and 0 <= (today - day).days <= (14 if _PRICE_AFTER_WAS.match(text, m.end()) else 92)
        if _LEAD_START.search(text[:m.start()]) and _LEAD_REST.match(text[m.end():]):
            day = _resolve("dmy", m, today)
            return day is not None and 0 <= (today - day).days <= 92  # "2.12 lunch site canteen 13,20 eur; …"
        if re.search(r"[.!?]\s[ \t]*$", text[:m.start()]) and _SENTENCE_LEAD_REST.match(text[m.end():]) and \
                DOTTED_HEADING.match(text):
            day = _resolve("dmy", m, today)  # "26.11 lunch …, dinner 312 kr. 27.11 lunch 135 kr": heading a sentence
            return day is not None and 0 <= (today - day).days <= 21  # as the message's first day did, a recent day
        weekday = _DOTTED_DAY_BEFORE.search(text[:m.start()])
        if weekday is not None:  # "Mon 23.11: …", "lunch friday 27.11": the weekday it fell on says it is a day
            day = _resolve("dmy", m, today)
            return day is not None and day.strftime("%a").lower() == weekday.group("wd").lower()[:3]
        if re.match(r"[ \t]+[-–][ \t]+[^\W\d_][^,;.!?\n]*?[ \t][-–][ \t]+(?:[€$£]\s?)?\d+(?:[.,]\d\d)?(?![\d.,]\d)", text[m.end():]) and \
                re.search(r"(?:^|[.!?;,]\s)[ \t]*$", text[:m.start()]):
            day = _resolve("dmy", m, today)  # "… convert. 27.11 - lunch - 11.20": a row of day, thing and price
            return day is not None and 0 <= (today - day).days <= 92
        if not re.match(r"[ \t]*[:–-][ \t]", text[m.end():]):
            return False
        if re.search(r"[.!?]\s[ \t]*$", text[:m.start()]):
            day = _resolve("dmy", m, today)  # "Dzień dobry. 02.12: paliwo …": heading a sentence, a recent day only
            return day is not None and 0 <= (today - day).days <= 21
        return bool(_LINE_HEAD.search(text[:m.start()]))
    return True


def _dotted_stay(text: str, m: re.Match[str], today: date) -> bool:
    """``m`` is one end of two dotted days joined by a dash ("30.11-2.12", "29.11. – 1.12."), in order, at most a
    month apart, the first within the last three months."""
    after = re.match(r"\.?[ \t]*(?:[-–]|to|till|until)[ \t]*(\d{1,2})\.(\d{1,2})\b(?![.,]\d)", text[m.end():], re.IGNORECASE)
    before = re.search(r"(?<![\d.,])(\d{1,2})\.(\d{1,2})?\.?[ \t]*(?:[-–]|to|till|until)[ \t]*$", text[:m.start()], re.IGNORECASE)
    pairs = ([(int(m.group("d")), int(m.group("m"))), (int(after.group(1)), int(after.group(2)))] if after else
             [(int(before.group(1)), int(before.group(2) or m.group("m"))), (int(m.group("d")), int(m.group("m")))]
             if before else [])  # "23.-25.11": the first day in the last one's month
    if not pairs:
        return False
    try:
        first, last = (date(today.year, mo, d) for d, mo in pairs)
    except ValueError:
        return False
    if first > today:
        first = first.replace(year=today.year - 1)
    if last < first:
        last = last.replace(year=first.year + 1)
    return 0 < (last - first).days <= 31 and (today - first).days <= 92 and (last - today).days <= 7


_AGREED = re.compile(r"(?:^|(?<=[.,;!\n]))[^\S\n]*(?:\w+\W+){0,2}?(?P<figure>\d[\d.,]*\d|\d)\s*(?:€|eur|euros?)?\s*(?:is|looks|"
                     r"seems|sounds|=)?\s*(?:right|correct|ok|okay|fine|good|spot\s+on)\b", re.IGNORECASE)
# words that make the figure after them an estimate
_ESTIMATE = re.compile(r"(?:~|≈|\b(?:about|around|approx\w*|roughly|ca\.|circa|abt|something\s+like|more\s+or\s+less|almost|"
                       r"nearly|at\s+least|give\s+or\s+take))\s*(?:[€$£]|eur\b|usd\b|gbp\b|chf\b)?\s*\d[\d.,]*$", re.IGNORECASE)
# a dotted day opening a part of the message, before what was bought and a price written as one
# a currency beside a figure: its sign or code
_MONEY_CODES = r"eur|euros?|usd|gbp|chf|sek|nok|dkk|pln|czk|cad|jpy|kr|zł|kč"
_MONEY_NEAR = re.compile(rf"[€$£¥]|\b(?:{_MONEY_CODES})\b", re.IGNORECASE)
# money written as such in an answer to "which day?": a currency ("18eur" too), "18,-", "-18"
_MONEY_SAID = re.compile(rf"[€$£¥]|\b(?:{_MONEY_CODES})\b|\d\s*(?:{_MONEY_CODES})\b|\d\s*,-|^\s*-\s*\d", re.IGNORECASE)
_LEAD_START = re.compile(r"(?:^|[;\n]|[;,]\s)[ \t]*(?:[-*•][ \t]+)?$")  # ("- 5.10 lunch Hiltl 32.50": a row of a list)
_LEAD_REST = re.compile(r"\.?[ \t]+[^\W\d_][^;,\n]*?\d(?:[.,]\d\d\b|\s?(?:€|eur\b|euros?\b|sek\b|kr\b|chf\b|gbp\b|£|\$|usd\b|"
                        r"pln\b|zł|czk\b|kč))", re.IGNORECASE)
_SENTENCE_LEAD_REST = re.compile(SENTENCE_LEAD_REST, re.IGNORECASE)  # … and after a sentence's end
# the price said beside a dotted day: after "was", or written as money is (a decimal comma, a currency)
_MONEY_WORD = r"(?:€|eur\b|euros?\b|czk\b|kč|chf\b|sek\b|nok\b|dkk\b|pln\b|zł|huf\b|ft\b|gbp\b|£|kr\b|usd\b|\$)"
_PRICE_BESIDE = re.compile(r"\s+(?:was|were|is|cost|costs|came\s+to)\s+(?:[€$£]\s*)?\d|\s+(?:(?:paid|for|at|total|eur|€)\s+)?"
                           r"(?:[€$£]\s*)?(?:\d+,\d{2}(?![\d,.])|\d[\d.,]*\s?" + _MONEY_WORD + r")", re.IGNORECASE)
# words that keep a line beside a removal: "… uber is fine", "the lunch can stay", "not the dinner"
_KEPT = re.compile(r"\b(?:is|was|are|were|looks?)\s+(?:fine|ok|okay|right|correct|good)\b|\b(?:can|should|must|will)\s+stay\b|"
                   r"\bstays?\b|\bkeep\b|\bnot\s+the\b", re.IGNORECASE)
_PRICE_AFTER_WAS = re.compile(r"\s+(?:was|were|is|cost|costs|came\s+to)\s+(?:[€$£]\s*)?\d(?![^;\n]{0,40}?,\d\d)", re.IGNORECASE)
_MONEY_AFTER = re.compile(r"\s*" + _MONEY_WORD, re.IGNORECASE)
_BARE_DAY = re.compile(r"\s*(?:on\s+)?[a-z]{3,9}\.?\s*", re.IGNORECASE)  # "wed", "on tuesday"
_DOTTED_DAY_BEFORE = re.compile(r"\b(?P<wd>mon|tue|wed|thu|fri|sat|sun)(?:day|sday|nesday|rsday|urday|s|r|rs)?\.?,?\s+$",
                                re.IGNORECASE)
_LINE_HEAD = re.compile(r"(?:^|\n|\s[/|]\s)[ \t]*$")  # a line's head, or a group's after " / "


def _resolve(kind: str, m: re.Match[str], today: date) -> date | None:
    try:
        if kind == "week_day":
            return day_of_a_week(m, today)
        if kind == "iso":
            return date(int(m.group("y")), int(m.group("m")), int(m.group("d")))
        if kind == "dmy" and (beside := slashed_by_weekday(m.string, m.start(), m.end(), today))[0]:
            return beside[1]  # "12/9 (Wed)": the reading that fell on that weekday, else unsure
        if kind == "dmy" and not m.group("y") and int(m.group("d")) <= 12 and int(m.group("m")) <= 12 and \
                m.group("d") != m.group("m") and "/" in m.group(0):
            # "12/10": 12 October or December 10? The reading nearer today wins when the other is far; else unsure
            # ("10.11." is day first: no one writes the month first with dots)
            readings = [_past(today, int(m.group("m")), int(m.group("d"))), _past(today, int(m.group("d")), int(m.group("m")))]
            near = [r for r in readings if r is not None and (today - r).days <= 120]
            return near[0] if len(near) == 1 else None
        if kind == "dmy" and "/" in m.group(0) and int(m.group("d")) <= 12 < int(m.group("m")):
            day, month = int(m.group("m")), int(m.group("d"))  # "11/23": 23 November, the month first
            if m.group("y"):
                return date(int(m.group("y")) + (2000 if len(m.group("y")) == 2 else 0), month, day)
            return _past(today, month, day)
        if kind in ("dmy", "dmonth", "monthd"):
            month = int(m.group("m")) if kind == "dmy" else _MONTHS[m.group("mon").lower().rstrip(".")]
            year = m.group("y")
            if year:
                y = int(year) + (2000 if len(year) == 2 else 0)
                return date(y, month, int(m.group("d")))
            guess = date(today.year, month, int(m.group("d")))
            return guess if guess <= today else date(today.year - 1, month, int(m.group("d")))
        if kind == "ordinal":
            day = int(m.group("d"))
            guess = today.replace(day=day) if day <= _month_days(today) else None
            if guess is not None and guess <= today:
                return guess
            last = today.replace(day=1) - timedelta(days=1)
            return last.replace(day=day) if day <= last.day else None
        if kind == "abroad":
            return today - timedelta(days=_RELATIVE_ABROAD[m.group("a").lower()])
        if kind == "relative":
            word = m.group(0).lower()
            if "before yesterday" in word:
                return today - timedelta(days=2)
            if word.startswith(("yesterday", "yday", "yest", "ystd", "last")):
                return today - timedelta(days=1)
            return today
        if kind == "vague":  # "last week", "in October": no one day
            return None
        if kind == "future":  # "tomorrow", "next monday": no expense of a claim happened then
            return today + timedelta(days=1)
        if kind == "range":  # "Nov 16-18", "24-26 Nov": from the first day (a stay is dated by its check-in)
            month = _MONTHS[(m.group("mon1") or m.group("mon2")).lower().rstrip(".")]
            day = int(m.group("d1") or m.group("d2"))
            return date(int(m.group("y")), month, day) if m.group("y") else _past(today, month, day)
        if kind == "ago":
            raw = m.group("n").lower()
            n = int(raw) if raw.isdigit() else {"a": 1, "one": 1, "couple of": 2}.get(raw) or word_number(raw)
            return today - timedelta(days=n) if n else None
        if kind == "weekday":
            wanted = _WEEKDAYS[m.group("w").lower()]
            back = (today.weekday() - wanted) % 7
            if back == 0 and not re.search(r"\bthis\s+$", m.string[:m.start()], re.IGNORECASE):
                back = 7  # (the weekday of today, bare: a week ago; "this thursday" said on a Thursday: today)
            return today - timedelta(days=back)
    except ValueError:
        return None
    return None


# the currencies of countries that write the day before the month
_DAY_FIRST_CURRENCIES = frozenset("EUR GBP CHF SEK NOK DKK ISK PLN CZK HUF RON BGN RSD TRY UAH".split())


def _day_first(raw: str, today: date) -> date | None:
    """"10/11" read day first, in the last year."""
    parts = [int(p) for p in re.findall(r"\d+", raw)]
    try:
        if len(parts) > 2:
            return date(parts[2] + (2000 if parts[2] < 100 else 0), parts[1], parts[0])
        found = date(today.year, parts[1], parts[0])
    except (ValueError, IndexError):
        return None
    return found if found <= today else found.replace(year=today.year - 1)


def relative_offset(words: str) -> int | None:
    """Days from the day a relative phrase hangs on: "same day" 0, "the day after" +1, "the day before" -1."""
    lowered = words.lower()
    if re.search(r"\bday\s+before\b|\bprevious\s+day\b", lowered):
        return -1
    if re.search(r"\bday\s+(?:after|later)\b|\b(?:next|following)\s+(?:day|morning)\b|\bnext\s+morning\b", lowered):
        return 1
    return 0


def _past(today: date, month: int, day: int) -> date | None:
    """The day ``day`` of ``month`` on or before today (this year, else last)."""
    try:
        guess = date(today.year, month, day)
        return guess if guess <= today else date(today.year - 1, month, day)
    except ValueError:
        return None


def _month_days(today: date) -> int:
    nxt = (today.replace(day=28) + timedelta(days=4)).replace(day=1)
    return (nxt - timedelta(days=1)).day


# --------------------------------------------------------------------------- the question back


_ASK = {
    "number": "I could not place “{text}” in what I read, so I left everything as it is.",
    "date": "I could not match the day “{text}” to the lines I read, so I left everything as it is.",
    "day": "I was not sure which day “{text}” was, so I left everything as it is.",
    "currency": "You wrote “{text}”, which is not the currency of the claim, so I left everything as it is.",
    "negation": "“{text}” may take something back or alter it, and I was not sure how, so I left everything "
                "as it is.",
    "correction": "I was not sure whether “{text}” is a new line or corrects one already on the claim, so I left "
                  "everything as it is.",
    "question": "I was not sure whether “{text}” asks me something or asks me to alter something, so I left "
                "everything as it is.",
    "filter": "I was not sure which of the lines “{text}” keeps, so I left everything as it is.",
    "title": "I was not sure what the claim's title should be in “{text}”, so I did not start it.",
    "other": "I was not sure how to read “{text}”, so I left everything as it is.",
    "estimate": "“{text}” is an estimate, and a claim needs the amount on the receipt, so I left everything as it is.",
}
_HOW = {
    "estimate": " Tell me the exact amount (for example “taxi 31.40”).",
    "correction": " To correct a line, say which and the new value (“line 2 is 98”); if it is a new one, just say so.",
    "question": " Ask the question on its own, or tell me what to do.",
    "filter": " Tell me the lines to add one by one, or paste only those rows.",
    "title": " Say it as: open a claim called “…”.",
    "currency": " Tell me the amount in the claim's currency.",
    "day": " Could you say it again with its day (“… on Monday”, “… on 30.11”)?",
}


def _undo_names_another(message: str, plan: dict[str, Any], ctx: Context) -> bool:
    """"undo that, Finance wants the flowers elsewhere": the words name a thing ("the flowers") that the last edit,
    which an undo reverses, is not about."""
    recent = [e for e in ctx.recent or [] if (e.get("data") or {}).get("category")]
    if not recent:
        return False
    data = recent[-1]["data"]
    about = " ".join(str(data.get(k) or "") for k in ("merchant", "category", "description")).lower()
    about += " " + " ".join(name for name, pattern in _CATEGORY_RE.items() if name == data.get("category")
                            for name in re.findall(r"[a-z]+", pattern.pattern))
    nouns = [m.group(1).lower() for m in re.finditer(r"\bthe\s+([a-zà-ÿ]{4,})", message, re.IGNORECASE)
             if m.group(1).lower() not in _NOT_A_NAME and m.group(1).lower() not in ("last", "claim", "line", "receipt")]
    return any(noun not in about and noun.rstrip("s") not in about for noun in nouns)


def audited(answer: str, message: str, ctx: Context) -> str:
    """The answer as is when its plan accounts for every thing the message says; otherwise a plan with no act that
    asks, quoting the first part it could not place (answers to questions it holds are kept)."""
    data = json.loads(answer)
    plan = data.get("plan")
    if isinstance(plan, dict) and plan.get("undo") and not plan.get("acts") and _undo_names_another(message, plan, ctx):
        leftovers = [Leftover("other", message)]
        return _asking(plan, message, leftovers)
    if not isinstance(plan, dict) or not plan.get("acts"):
        return answer  # nothing would run (an undo reverses a committed event the server holds, not these words)
    acts = plan["acts"]
    if (ctx.pending or {}).get("missing") == ["date"] and any(a.get("earlier_evidence") for a in acts) and \
            _MONEY_SAID.search(message):
        return _asking(plan, message, [Leftover("number", message, 0)])  # "18,-", "€18" answering which day: money
    if (ctx.pending or {}).get("missing") == ["date"] and str((ctx.pending or {}).get("question") or "").startswith(
            "Which day was") and len(acts) == 1 and acts[0].get("earlier_evidence") and \
            (acts[0].get("args") or {}).get("date") == day_answered(message, ctx.today) is not None:
        return answer  # "19.11" answering "Which day was “taxi 15”?": the day asked for, and nothing else
    if (ctx.pending or {}).get("missing") == ["date"] and len(acts) == 1 and acts[0].get("earlier_evidence") and (
            told := (acts[0].get("args") or {}).get("date")) and stay_end_picked(
                message, str((ctx.pending or {}).get("question") or ""), ctx.today) == told:
        return answer  # "check-in", "29.11" answering which end of the stay it is dated by: the day that end was
    try:
        leftovers = Audit(_without_remarks(message, ctx.today), plan, ctx).run()
    except Exception:  # noqa: BLE001 - an audit that cannot finish cannot vouch for the reading: ask instead
        logging.getLogger(__name__).exception("the audit of a reading failed; asking instead")
        leftovers = [Leftover("other", message)]
    leftovers = [lo for lo in leftovers if lo.kind not in ctx.settled]
    if not leftovers:
        return answer
    return _asking(plan, message, leftovers, ctx.today)


def _without_remarks(message: str, today: date) -> str:
    """``message`` with its remarks blanked out ("Honestly, what a day.": no figure, request, take-back or question,
    ``clauses.remark``), each character kept in its place so every act's words stand where they stood."""
    from .clauses import remark, sentences

    for start, end, _question in sentences(message):
        if remark(message[start:end], today):
            message = message[:start] + re.sub(r"\S", " ", message[start:end]) + message[end:]
    return message


def _asking(plan: dict[str, Any], message: str, leftovers: list[Leftover], today: date | None = None) -> str:
    first = min(leftovers, key=lambda lo: lo.start)
    text = " ".join(first.text.split())
    if len(text) > 160:
        text = text[:157] + "…"
    prose = _ASK[first.kind].format(text=text) + _HOW.get(first.kind, " Could you say it again another way?")
    answers = [a for a in plan.get("answers", []) if a.get("question") and _QUESTION.search(a["question"])]
    answers.append({"question": message[:2000], "text": prose})
    asked: dict[str, Any] = {"acts": [], "answers": answers}
    if first.kind == "title" and [a.get("act") for a in plan.get("acts", [])] == ["open_claim"]:
        # "… I need a new expense claim for it, in EUR please": the title the user gives next opens it
        asked["pending"] = {"question": prose[:2000], "act": "open_claim", "missing": ["title"]}
    acts = plan.get("acts", [])
    told = (acts[0].get("args") or {}).get("date") if len(acts) == 1 else None
    if len(acts) == 1 and acts[0].get("act") == "add_line" and (not told or today is not None and told == today.isoformat(
            ) and not find_days(str(acts[0].get("evidence") or ""), today)) and not \
            acts[0].get("earlier_evidence") and all(lo.kind == "day" and " ".join(lo.text.split()) == " ".join(
                str(acts[0].get("evidence") or "").split()) for lo in leftovers):
        # "taxi 15" on a claim of last week's trip: the one expense waits for its day, which the next message can
        # give alone ("the 24th", "24.11", "tuesday": the trip's Tuesday)
        answers[-1]["text"] = prose = (f"Which day was “{text}”? I did not add it yet: tell me its day (“the 24th”, "
                                       "“24.11”), and I will add it.")
        asked["pending"] = {"question": prose[:2000], "act": "add_line", "missing": ["date"],
                            **({"case": acts[0]["case"]} if isinstance(acts[0].get("case"), dict) else {})}
    elif acts and all(a.get("act") == "add_line" and not a.get("earlier_evidence") for a in acts) and all(
            lo.kind in ("date", "day") and NUMBERED_DAY.fullmatch(lo.text) for lo in leftovers) and first.start >= 0 and \
            message[first.start:first.start + len(first.text)] == first.text:
        # "Day 1 — train …, taxi …" with no trip told: the day of "Day 1", told next alone ("Monday 30th"), dates
        # every expense the message told under it (read again with that day in its place)
        answers[-1]["text"] = prose = (f"Which day was “{text}”? I did not add anything yet: tell me its date (“Monday "
                                       "30th”, “30.11”), and I will add what you told of it.")
        asked["pending"] = {"question": prose[:2000], "act": "add_line", "missing": ["trip_day"],
                            "args": {"heading": first.text, "at": first.start}}
    elif len(acts) == 1 and acts[0].get("act") == "add_line" and not acts[0].get("earlier_evidence") and all(
            lo.kind == "currency" for lo in leftovers) and (evidence := str(acts[0].get("evidence") or "")) and all(
            lo.start >= 0 and lo.text in evidence for lo in leftovers):
        # "taxi to ben gurion on monday 16.11, 180 shekel" (a money with no reference rate): its amount in the claim's
        # currency, told next ("it was 47.20 euro. put that"), completes these words (read again with that amount)
        asked["pending"] = {"question": prose[:2000], "act": "add_line", "missing": ["amount"], "about": evidence[:2000],
                            "args": {"unconverted": True},  # (its answer names the claim's currency, or is read afresh)
                            **({"case": acts[0]["case"]} if isinstance(acts[0].get("case"), dict) else {})}
    return json.dumps({"plan": asked}, ensure_ascii=False)
