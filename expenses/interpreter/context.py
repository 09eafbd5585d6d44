"""What the interpreter knows about the turn, read from the runtime's request by attribute.

The domain app must not import the runtime, so the request is duck-typed: ``message``,
``today``, ``mode``, ``active_case``, ``cases`` (each with ``id``, ``title``, ``status`` and the
claim's ``view``), ``acts`` and ``read_tools`` (each with a ``name``), ``rounds`` (each with
``status``, ``requests``, ``results``), ``repair_error``, ``calls_left`` and ``reads_allowed``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from typing import Any

from rapidfuzz import fuzz
from rapidfuzz.distance import DamerauLevenshtein
from unidecode import unidecode

from registries import CaseSnapshot

from ..domain import TERMINAL_STATUSES
from ..naming import claim_mentions
from . import lexicon
from .patterns import word_search
from .values import NUMBERED_DAY, day_of_month, find_categories, find_dates, mask, numbered_day, words


@dataclass(frozen=True)
class Claim:
    """One claim as the request shows it: its view (lines with ordinals, total, status)."""

    id: str
    title: str
    status: str
    currency: str
    lines: tuple[dict[str, Any], ...]
    view: dict[str, Any]

    @property
    def open(self) -> bool:
        return self.status not in TERMINAL_STATUSES


@dataclass
class Context:
    message: str
    today: date
    mode: str
    claims: list[Claim]
    active: Claim | None
    acts: frozenset[str]
    tools: frozenset[str]
    reads_allowed: bool
    calls_left: int
    results: dict[str, dict[str, Any]] = field(default_factory=dict)  # read key -> result entry
    rejected: list[str] = field(default_factory=list)  # errors of rejected read rounds
    has_rounds: bool = False
    pending: dict[str, Any] | None = None  # the question the last reply left open, with its "message"
    recent: list[dict[str, Any]] = field(default_factory=list)  # what the last turn with an effect committed
    open_cards: list[dict[str, Any]] = field(default_factory=list)  # cards waiting for a click
    previous: str | None = None  # the user's message before this one, as the conversation excerpt has it
    earlier: tuple[str, ...] = ()  # the user's earlier messages the excerpt holds, latest last
    # what the user already settled by answering the interpreter's own question ("it's a new one"): the audit's
    # kinds of leftover ("correction") that no longer count against the reading of the earlier message
    settled: frozenset[str] = frozenset()

    @classmethod
    def of(cls, request: Any) -> Context:
        claims = []
        for summary in getattr(request, "cases", None) or []:
            view = dict(getattr(summary, "view", None) or {})
            if getattr(summary, "kind", "expense_claim") != "expense_claim" or not view:
                continue
            claims.append(Claim(id=summary.id, title=view.get("title") or summary.title,
                                status=view.get("status") or summary.status, currency=view.get("currency", "EUR"),
                                lines=tuple(view.get("lines") or ()), view=view))
        active_id = getattr(request, "active_case", None)
        active = next((c for c in claims if c.id == active_id), None)
        try:
            today = date.fromisoformat(str(getattr(request, "today", "")))
        except ValueError:
            today = date.today()
        ctx = cls(message=str(getattr(request, "message", "") or ""), today=today,
                  mode=str(getattr(request, "mode", "controlled_agentic")), claims=claims, active=active,
                  acts=frozenset(a.name for a in getattr(request, "acts", None) or []),
                  tools=frozenset(t.name for t in getattr(request, "read_tools", None) or []),
                  reads_allowed=bool(getattr(request, "reads_allowed", False)),
                  calls_left=int(getattr(request, "calls_left", 0) or 0),
                  pending=dict(getattr(request, "pending", None) or {}) or None,
                  recent=list(getattr(request, "recent", None) or []),
                  open_cards=list(getattr(request, "open_cards", None) or []),
                  previous=_previous_message(getattr(request, "excerpt", None) or []),
                  earlier=tuple(str(e.get("text") or "") for e in getattr(request, "excerpt", None) or []
                                if isinstance(e, dict) and e.get("role") == "user"))
        for record in getattr(request, "rounds", None) or []:
            ctx.has_rounds = True
            if getattr(record, "status", "ok") != "ok":
                ctx.rejected.append(str(getattr(record, "error", "") or "the lookup was refused"))
                continue
            for req, result in zip(record.requests, record.results, strict=False):
                ctx.results[read_key(req.get("tool", ""), req.get("args", {}))] = result
        return ctx

    @property
    def open_claims(self) -> list[Claim]:
        return [c for c in self.claims if c.open]

    @property
    def last_day_told(self) -> str | None:
        """The day (ISO) of the line the conversation's last effect added or changed, if it had one."""
        return next((str(e["data"]["date"]) for e in reversed(self.recent or []) if (e.get("data") or {}).get("date")),
                    None)

    def default_claim(self) -> Claim | None:
        """The claim an act with no named claim lands on: the active one, else the only open one."""
        if self.active is not None:
            return self.active
        return self.open_claims[0] if len(self.open_claims) == 1 else None


def _previous_message(excerpt: list[Any]) -> str | None:
    users = [str(e.get("text") or "") for e in excerpt if isinstance(e, dict) and e.get("role") == "user"]
    return users[-1] if users and users[-1].strip() else None


def read_key(tool: str, args: dict[str, Any]) -> str:
    """One read request as a lookup key: the same tool and arguments give the same key."""
    return json.dumps({"tool": tool, "args": args}, sort_keys=True, default=str)


# --------------------------------------------------------------------------- naming a claim


@dataclass(frozen=True)
class Mention:
    claims: tuple[Claim, ...]
    word: str  # what the user wrote
    start: int
    end: int
    exact: bool  # the word occurs in the titles as written (not a near-miss spelling)


def _distinctive(title: str) -> list[str]:
    return [w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ0-9][\w'-]*", title)
            if len(w) >= 3 and w.lower() not in lexicon.GENERIC_TITLE_WORDS and w.lower() not in lexicon.CATEGORY_WORDS]


def find_mention(text: str, claims: list[Claim]) -> Mention | None:
    """Which of ``claims`` the text names: its full title, or a distinctive word of it."""
    lowered = text.lower()
    best: Mention | None = None
    for m in _THE_ONE.finditer(text):  # "submit the offsite one", "the september claim", "submit september, …"
        group = "word" if m.group("word") else "word2"
        token = m.group(group).lower()
        if token in _NOT_A_NAME or token in lexicon.CATEGORY_WORDS or token in _LINKING or token in _NOT_SAID_OF_A_CLAIM:
            continue
        hits = tuple(c for c in claims if token in re.findall(r"\w+", c.title.lower()))
        if len(hits) == 1:
            return Mention(hits, m.group(group), m.start(group), m.end(group), True)
    for claim in sorted(claims, key=lambda c: -len(c.title)):
        title = claim.title.lower().strip()
        if title and (m := word_search(title, lowered)):
            hits = tuple(c for c in claims if title in c.title.lower())
            return Mention(hits, text[m.start():m.end()], m.start(), m.end(), True)
    for w in words(text):
        token = re.sub(r"['’]s$", "", w.text.lower())  # "milan's done, submit it": the Milan claim's
        if token != w.text.lower():
            w = replace(w, text=w.text[:len(token)], end=w.start + len(token))
        if len(token) < 3 or token in lexicon.GENERIC_TITLE_WORDS or token in lexicon.CATEGORY_WORDS:
            continue
        exact = tuple(c for c in claims if token in _distinctive(c.title) or unidecode(token) in {
            unidecode(d) for d in _distinctive(c.title)})  # "the Poznan claim": “Poznań warehouse audit”
        if exact:
            candidate = Mention(exact, w.text, w.start, w.end, True)
        elif len(token) >= 5 and w.text[:1].isupper() and not _in_name(text, w.start, w.end):
            near = tuple(c for c in claims
                         if any(fuzz.ratio(token, d) >= 85 for d in _distinctive(c.title) if len(d) >= 5))
            if not near:
                continue
            candidate = Mention(near, w.text, w.start, w.end, False)
        else:
            continue
        if best is None:
            best = candidate
    if best is None:
        for m in _FOR_THE.finditer(text):  # "the venue deposit for the offsite, 1,850": the one claim called so
            token = m.group("word").lower()
            if token in _NO_TITLE_WORD or token in lexicon.CATEGORY_WORDS:
                continue
            hits = tuple(c for c in claims if token in re.findall(r"\w+", c.title.lower()))
            if len(hits) == 1:
                return Mention(hits, m.group("word"), m.start("word"), m.end("word"), True)
    return best


# a word of a claim's title said as the claim meant: "the offsite one", "the september claim", "submit september, …"
_THE_ONE = re.compile(r"\bthe\s+(?P<word>[a-z][\w-]{2,})\s+(?:one|claim)\b|\b(?:submit|send\s+(?:in|off)|withdraw)\s+(?:the\s+)?"
                      r"(?P<word2>[a-z][\w-]{2,})(?=\s*(?:one\b|claim\b|now\b|please\b|pls\b|[,.;!?]|$))", re.IGNORECASE)
# words that follow "submit" or "the" without naming a claim ("submit it", "the same one", "the last one")
_NOT_SAID_OF_A_CLAIM = frozenset("it them all both everything last first second previous latest current active whole "
                                 "right wrong correct draft open".split())
# a word of a claim's title said as what the expense was for, ending the phrase ("for the offsite,", "on the summit")
_FOR_THE = re.compile(r"\b(?:for|on|to)\s+(?:the|our|my)\s+(?P<word>[a-z][\w-]{3,})\b(?!\s+[a-z])", re.IGNORECASE)
_NO_TITLE_WORD = frozenset("trip trips claim claims expense expenses travel travels business week team client clients "
                           "project meeting meetings visit visits november december january february march april may june "
                           "july august september october".split())


def _in_name(text: str, start: int, end: int) -> bool:
    """Is the word part of a longer capitalised name ("Steigenberger Frankfurter Hof")? Then a near-miss of a
    claim's word inside it is the name's, not the claim's."""
    before = re.search(r"([A-Za-zÀ-ÿ][\w'’&-]*)\s+$", text[:start])
    after = re.match(r"\s+([A-Za-zÀ-ÿ][\w'’&-]*)", text[end:])
    return bool((before and before.group(1)[:1].isupper() and before.start(1) > 0) or (after and after.group(1)[:1].isupper()))


_CASE_ID = re.compile(r"\bclm_[0-9A-Za-z]{4,40}\b")
_NAMED = re.compile(
    r"(?:\b(?:on|to|for|in|into|onto|under|from|of)\s+(?:the\s+|my\s+|our\s+)?|\b(?:the|my|our)\s+)(?P<name>(?:[\w'’-]+\s+){0,3}?[\w'’-]+)"
    r"\s+(?P<noun>claim|trip|report|expense\s+report|conference|offsite|visit|roadshow)\b"
    r"|\b(?:claim|report)\s+(?:called|named|titled)\s+[\"“']?(?P<called>[^\"”',.;!?]{1,60})",
    re.IGNORECASE)
_LINKING = frozenset("the a an off out of to on in from for and with at by onto into".split())
_NOT_A_NAME = frozenset("this that the my our it new other same expense expenses draft open whole one".split())


def named_reference(text: str, ctx: Context) -> Mention | None:
    """A claim the user names that none of their open claims answers to: "the Vienna claim", "claim
    clm_…", "the Bob secret trip". It is carried into the plan as written, never dropped for the
    active claim, so the reducer refuses it by name (SPEC I8)."""
    if m := _CASE_ID.search(text):
        return Mention((), m.group(0), m.start(), m.end(), True)
    m = _NAMED.search(text)
    if m is not None and not m.group("called") and any(w.lower() in _LINKING for w in m.group("name").split()):
        m = _named_before_noun(text) or m  # "a taxi of 20 to the vienna claim": the words right before the noun
    if m is None:
        return None
    if m.group("called"):
        word, start = m.group("called").strip(), m.start("called")
    else:
        name = m.group("name")
        if any(w.lower() in _LINKING for w in name.split()):
            return None  # "take the taxi off the claim": words around a claim, not its name
        words_ = [w for w in name.split() if w.lower() not in _NOT_A_NAME]
        if not words_ or name.lower() in _NOT_A_NAME or all(w.lower() in lexicon.CATEGORY_WORDS for w in words_):
            return None
        noun = m.group("noun").lower()
        word = name if noun in ("claim", "report", "expense report") else f"{name} {m.group('noun')}"
        start = m.start("name")
        if word.lower().startswith(("the ", "my ")):
            word = word.split(" ", 1)[1]
    return Mention((), word, start, start + len(word), True)


_NOUN = re.compile(r"\b(?:claim|trip|report|conference|offsite|visit|roadshow)\b", re.IGNORECASE)
_INTRO = re.compile(r"(?:^|\s)(?:on|to|for|in|into|onto|under|from|of|the|my|our)\s+(?:(?:the|my|our)\s+)?"
                    r"(?P<name>(?:[\w'’-]+\s+){0,3}?[\w'’-]+)\s+(?P<noun>claim|trip|report|expense\s+report|conference|"
                    r"offsite|visit|roadshow)\b(?P<called>)?", re.IGNORECASE)


def _named_before_noun(text: str) -> re.Match[str] | None:
    """The shortest name standing between an introducing word and a claim noun, nearest to the noun."""
    for noun in _NOUN.finditer(text):
        for cut in range(noun.start() - 1, -1, -1):
            if cut and text[cut - 1] not in " \t":
                continue
            m = _INTRO.match(text, cut - 1 if cut else 0)
            if m and m.end("noun") == noun.end() and not any(w.lower() in _LINKING for w in m.group("name").split()):
                return m
    return None


def other_claim(text: str, ctx: Context) -> Claim | None:
    """"the other claim": the one open claim that is not the active one."""
    if not re.search(r"\bthe\s+other\s+(?:claim|one|trip|report)\b", text, re.IGNORECASE) or ctx.active is None:
        return None
    others = [c for c in ctx.open_claims if c.id != ctx.active.id]
    return others[0] if len(others) == 1 else None


def case_ref(mention: Mention, ctx: Context) -> tuple[dict[str, Any] | None, str | None]:
    """The plan's case reference for a mention, or a question back when it cannot be named safely.

    ``{"match": word}`` when the reducer, matching the word against open titles, finds exactly the
    claims the mention found (one claim, or several for a selection card); ``{"id": …}`` for a
    near-miss spelling that found exactly one claim.
    """
    if not mention.claims:  # named, but none of the user's open claims: the reducer refuses it by name
        if _CASE_ID.fullmatch(mention.word):
            return {"id": mention.word}, None
        return {"match": mention.word[:200]}, None
    if len(mention.claims) == 1:
        claim = mention.claims[0]
        needle = " ".join(mention.word.lower().split())
        hits = [c for c in ctx.open_claims if needle in c.title.lower()]
        if mention.exact and hits == [claim]:
            return {"match": mention.word}, None
        return {"id": claim.id}, None
    needle = " ".join(mention.word.lower().split())
    hits = {c.id for c in ctx.open_claims if needle in c.title.lower()}
    if mention.exact and hits and hits == {c.id for c in mention.claims}:
        return {"match": mention.word}, None
    names = " or ".join(f"“{c.title}”" for c in mention.claims)
    return None, f"Which claim do you mean: {names}?"


def claims_named(message: str, claims: list[Claim]) -> list[Claim]:
    """The claims whose distinctive title words (or another spelling of them) the message holds."""



    words = [unidecode(w).casefold() for w in re.findall(r"[^\W\d_][\w'’-]*", message)]
    found = []
    for claim in claims:
        snapshot = CaseSnapshot(id=claim.id, kind="expense_claim", owner_id=0, title=claim.title, status=claim.status,
                                revision=0, state={"title": claim.title})
        terms = [unidecode(t).casefold() for t in claim_mentions(snapshot) if " " not in t]
        if any(w == t or (len(t) >= 5 and len(w) >= 4 and w[:1] == t[:1]
                          and DamerauLevenshtein.distance(w, t) <= (1 if len(t) < 8 else 2)) for w in words for t in terms):
            found.append(claim)
    return found


_ADDRESSED = [
    re.compile(r"^\W*(?P<name>[^\W\d_][\w'’ .-]{1,40}?)\s*:\s"),  # "Lisboa: pastéis and a coffee 6.40"
    re.compile(r"\b(?:on|to|for|onto|into|under)\s+(?:the|my|our)\s+(?P<name>(?:[\w'’-]+\s+){0,3}?[\w'’-]+)\s+"
               r"(?:claim|trip|one|report|expenses|workshop|conference|visit|offsite|fair|summit|audit)\b", re.IGNORECASE),
]


def claim_addressed(message: str, ctx: Context) -> Claim | None:
    """The one claim the message addresses by name as its destination ("Lisboa: …", "… to my Berlin claim",
    "… for the december Berlin workshop"), in any spelling; None when it addresses none or several."""
    found: dict[str, Claim] = {}
    for pattern in _ADDRESSED:
        for m in pattern.finditer(message):
            for claim in claims_named(m.group("name"), ctx.open_claims):
                found[claim.id] = claim
    return next(iter(found.values())) if len(found) == 1 else None


_BARE_WEEKDAY = re.compile(r"^\W*(?:(?:on|from|since)\s+)?(?:the\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)(?:\s+(?:morning|afternoon|evening|night|noon|lunchtime))?\W*$",
                           re.IGNORECASE)


def in_the_trip(day: date, words: str, claim: Claim | None, today: date | None = None, before: str = "") -> date:
    """A bare weekday ("tue", "on wednesday") is read as the last one; when the claim's lines tell a trip that ended
    before it and the same weekday a week earlier falls within that trip, it is that one ("hotel tue + wed" on a
    claim whose flights were on 24 and 26 Nov, told on Friday 4 Dec)."""
    if claim is None or not _BARE_WEEKDAY.match(words or "") or re.search(r"\b(?:last|past|this)\s*$", before,
                                                                         re.IGNORECASE):
        return day  # "last tuesday" says which one
    days = sorted(date.fromisoformat(str(line["date"])) for line in claim.lines if line.get("date"))
    if not days:
        return day
    first, last = days[0] - timedelta(days=1), days[-1] + timedelta(days=1)
    earlier, later = day - timedelta(days=7), day + timedelta(days=7)
    if first <= day <= last:
        return day
    if first <= earlier <= last:
        return earlier
    if day > last and len(set(days)) >= 2 and first <= earlier <= last + timedelta(days=1):
        # "also thu a taxi" on a claim whose lines are that Tuesday and Wednesday of last week: that Thursday may well
        # be the trip's last day too (its lines need not cover every day): this week's or the trip's? (callers ask)
        return earlier
    # "Wed: metro 175" told on a Wednesday, on a claim whose lines are this Monday and Tuesday: today, not last week
    return later if today is not None and later == today and day < first <= later else day


def todays_weekday_unsure(day: date, words: str, claim: Claim | None, today: date, before: str = "",
                          told: Iterable[date] = ()) -> bool:
    """"taxi thursday 12" said on a Thursday: today, or last week's Thursday? Unsure when the weekday is bare
    (no "last", "this", no day of the month) and nothing dates the trip near it: no line of the claim and no other
    day the message names (``told``) falls in the week before today. The claim's own lines decide otherwise
    (``in_the_trip``)."""
    if day not in (today, today - timedelta(days=7)) or not _BARE_WEEKDAY.match(words or "") or re.search(
            r"\b(?:last|past|this|next)\s*$", before, re.IGNORECASE):
        return False
    window = today - timedelta(days=8)
    lines = (date.fromisoformat(str(line["date"])) for line in (claim.lines if claim else ()) if line.get("date"))
    return not any(window <= d <= today for d in (*lines, *told))


# an answer to "Which Thursday do you mean: today (3 Dec) or a week ago (26 Nov)?" that names one of the two by its week
# or its place: "last week", "this week", "the first one", "the earlier one" (and the weeks in the languages people mix in)
_FILLER_BEFORE = r"\W*(?:(?:oh|ah|ok|okay|sorry|yes|no|it\s+was|that\s+was|the\s+one)\W+)*"
_LAST_WEEK = re.compile(_FILLER_BEFORE + r"(?:(?:last|previous|past|prior)\s+week|the\s+week\s+before|(?:letzte|vorige)\s+"
                        r"woche|(?:la\s+)?semana\s+pasada|(?:la\s+)?semaine\s+derni[eè]re|vorige\s+week|(?:la\s+)?settimana\s+"
                        r"scorsa|(?:w\s+)?zesz[łl]ym\s+tygodniu|zesz[łl]y\s+tydzie[ńn]|f[öo]rra\s+veckan)\W*", re.IGNORECASE)
_THIS_WEEK = re.compile(_FILLER_BEFORE + r"(?:this\s+week|diese\s+woche|esta\s+semana|cette\s+semaine|deze\s+week|questa\s+"
                        r"settimana|w\s+tym\s+tygodniu|denna\s+vecka)\W*", re.IGNORECASE)
_PLACE = re.compile(_FILLER_BEFORE + r"(?:the\s+)?(?:(?P<which>first|former|second|latter|earlier|older|later|more\s+recent|"
                    r"recent)(?:\s+(?:one|day|date))?|(?P<numbered>1st|2nd)\s+one)\W*", re.IGNORECASE)  # ("the 1st" is a day)
_ASKED_DAY = re.compile(r"\b(\d{1,2})\s+(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def days_offered(pending: dict[str, Any] | None, today: date) -> list[date]:
    """The two days a "Which <weekday> do you mean: <day> … or <day>?" question offered, in the order it named them;
    empty for any other question."""
    question = str((pending or {}).get("question") or "")
    if not re.match(r"Which (?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) do you mean", question):
        return []
    days: list[date] = []
    for m in _ASKED_DAY.finditer(question):
        day = date(today.year, _MONTHS.index(m.group(2)) + 1, int(m.group(1)))
        day = day if day <= today else day.replace(year=day.year - 1)
        if day not in days:
            days.append(day)
    return days if len(days) == 2 else []


def week_answered(answer: str, pending: dict[str, Any] | None, today: date) -> date | None:
    """Which of the two offered days an answer names: by its calendar week ("last week", "this week"), its place in the
    question ("the first one") or its age ("the earlier one"); None when it names neither, or both."""
    offered = days_offered(pending, today)
    if not offered:
        return None
    monday = today - timedelta(days=today.weekday())
    if _LAST_WEEK.fullmatch(answer):
        hits = [d for d in offered if monday - timedelta(days=7) <= d < monday]
    elif _THIS_WEEK.fullmatch(answer):
        hits = [d for d in offered if monday <= d <= today]
    elif m := _PLACE.fullmatch(answer):
        which = (m.group("which") or {"1st": "first", "2nd": "second"}[m.group("numbered").lower()]).lower()
        hits = [offered[0] if which in ("first", "former") else offered[1] if which in ("second", "latter")
                else min(offered) if which in ("earlier", "older") else max(offered)]
    elif len(said := [d for d in find_dates(answer, today) if d.value]) == 1 and (
            day := date.fromisoformat(str(said[0].value))) in offered:
        # "last week, 30 nov", "30 nov": the offered day itself (and its week, when said, agrees)
        rest = re.sub(r"[\x00\s,.;:!-]+", " ", mask(answer, [(said[0].start, said[0].end)])).strip()
        agrees = not rest or (_LAST_WEEK.fullmatch(rest) and monday - timedelta(days=7) <= day < monday) or (
            _THIS_WEEK.fullmatch(rest) and monday <= day <= today)
        hits = [day] if agrees else []
    else:
        hits = []
    return hits[0] if len(hits) == 1 else None


# a day said alone, answering which day: "19.11", "the 19.11", "17th" ("it was 17" may be the amount: asked)
_BARE_DAY_ANSWER = re.compile(r"[\s.,!:;\"'“”()]*(?:(?:oh|ah|ok|okay|sorry|so)[\s.,!:;]+)*(?:on\s+)?(?:the\s+)?"
                              r"(?P<day>\d{1,2})(?:st|nd|rd|th)?(?:[./](?P<month>\d{1,2})\.?)?[\s.!\"'“”()]*",
                              re.IGNORECASE)  # (never beside a currency sign or a dash: "€18", "18,-" are amounts)


def day_answered(answer: str, today: date) -> str | None:
    """The day a bare answer to "which day?" names ("19.11", "the 17th"), as ISO; None for any other answer."""
    if (m := _BARE_DAY_ANSWER.fullmatch(answer)) is None:
        return None
    day, month = int(m.group("day")), int(m.group("month")) if m.group("month") else None
    if month is None:
        found = day_of_month(today, day)
        return found.isoformat() if found else None
    try:
        found = date(today.year, month, day)
    except ValueError:
        return None
    if found > today:  # "28.12" said on 3 January: last year's; "4.12" said on 3 December: a day to come, asked
        found = found.replace(year=found.year - 1)
        return found.isoformat() if (today - found).days <= 183 else None
    return found.isoformat()


_WEEKDAY_NAMES = "mon tue wed thu fri sat sun".split()


def day_alone(answer: str, today: date) -> date | None:
    """The one day an answer says and nothing else ("Monday 30th", "30.11", "it was the 30th"), its weekday, when
    said, the day's own; None for any other answer, or a day to come."""
    if len(answer) > 40:
        return None
    found = find_dates(answer, today)
    days = {d.value for d in found} - {None}
    rest = mask(answer, [(d.start, d.end) for d in found])
    if (answered := day_answered(answer.strip(), today)) is not None:
        days, rest = {answered}, ""
    if len(days) != 1:
        return None
    told = date.fromisoformat(str(next(iter(days))))
    rest = re.sub(r"\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b\.?", lambda m: "" if m.group(0)[:3].lower() == _WEEKDAY_NAMES[
        told.weekday()] else m.group(0), rest, flags=re.IGNORECASE)
    if re.search(r"\d|\?", rest) or re.search(r"[^\W\d_]{3,}", re.sub(
            r"\b(?:it\s+was|was|that\s+was|the|on|sorry|ok|okay|it'?s)\b", "", rest, flags=re.IGNORECASE)):
        return None  # (any other word may change what was meant)
    return told if told <= today else None


def line_days(claim: Claim | None) -> frozenset[date]:
    """The days the claim's lines are dated."""
    return frozenset(date.fromisoformat(str(line["date"])) for line in (claim.lines if claim else ()) if line.get("date"))


# the question a stay told by its check-out asks: "… be dated: the check-in (29 Nov) or the check-out (1 Dec)?", and
# the answers that name one of its ends
_STAY_ENDS_ASKED = re.compile(r"be dated: the check-in \((?P<came>\d{1,2} [A-Z][a-z]{2})\) or the check-out \((?P<left>\d{1,2} "
                              r"[A-Z][a-z]{2})\)")
_CHECK_IN_NAMED = re.compile(r"\W*(?:the\s+)?(?:check[\s-]?in|arrival|first)(?:\s+(?:one|day|date))?(?:\s+please)?\W*", re.I)
_CHECK_OUT_NAMED = re.compile(r"\W*(?:the\s+)?(?:check[\s-]?out|departure|second|last)(?:\s+(?:one|day|date))?(?:\s+please)?\W*",
                              re.I)


def stay_end_picked(answer: str, question: str, today: date) -> str | None:
    """The day (ISO) an answer picks of the two ends of a stay the question offered ("check-in", "29.11"); None when the
    question offered none, or the answer names neither."""
    if (ends := _STAY_ENDS_ASKED.search(question)) is None:
        return None
    came, left = (next((d.value for d in find_dates(ends.group(n), today) if d.value), None) for n in ("came", "left"))
    if _CHECK_IN_NAMED.fullmatch(answer):
        return came
    if _CHECK_OUT_NAMED.fullmatch(answer):
        return left
    said = {d.value for d in find_dates(answer, today)} or ({bare} if (bare := day_answered(answer.strip(), today)) else set())
    return next(iter(said)) if len(said) == 1 and next(iter(said)) in (came, left) else None


def first_day_answered(earlier: Iterable[str], today: date, dated: frozenset[date] = frozenset()) -> date | None:
    """The trip's first day, when the latest earlier message that opened with its day by number ("Day 1 — train …")
    was followed by one that only told which day that was ("Monday 30th"), and the claim holds lines of that day (what
    the answer dated); None otherwise."""
    said = list(earlier)
    last = next((i for i in range(len(said) - 1, -1, -1) if NUMBERED_DAY.match(said[i])), None)
    if last is None or last + 1 >= len(said):
        return None
    heading, answer = said[last], said[last + 1]
    n = numbered_day(heading[:NUMBERED_DAY.match(heading).end()])  # type: ignore[union-attr]
    told = day_alone(answer, today)
    if n is None or n <= 0 or told is None or told not in dated:
        return None
    return told - timedelta(days=n - 1)


def another_meal(said: set[str], line: dict[str, Any]) -> bool:
    """"the lunch" does not name a meals line told as a dinner (its description says which meal it was)."""
    meals = {lexicon.MEALS_ABROAD.get(w, w) for w in said} & lexicon.MEALS
    described = set(re.findall(r"[^\W\d_]+", str(line.get("description") or "").casefold()))
    told = {lexicon.MEALS_ABROAD.get(w, w) for w in described} & lexicon.MEALS
    if meals and not told:  # "the dinner" never names a line told as a coffee or a snack, or paid to a coffee bar
        merchant = set(re.findall(r"[a-z]+", str(line.get("merchant") or "").casefold()))
        return bool((described | merchant) & _NOT_A_MEAL)
    return bool(meals and told and not meals & told)


_NOT_A_MEAL = frozenset("coffee coffees cappuccino espresso tea snack snacks drinks drink water juice beer beers wine"
                        .split())  # a sandwich may well have been the lunch; a coffee was never the dinner


# a thing named before "remove it" (who paid for it, or which line, is said otherwise)
_THE_THING = re.compile(r"\b(?:the|my|that|this|our)\s+(?P<name>[^\W\d_]{3,})\b", re.IGNORECASE)
_NO_THING = frozenset("company client customer boss firm employer agency department colleague colleagues card team office "
                      "organiser organizer host hosts partner one last first second third other same whole receipt line "
                      "entry item expense thing amount price total claim way time day night morning evening".split())


_ANY_MEAL = frozenset("meal meals food restaurant bill".split())


def thing_unmatched(words: str, line: dict[str, Any]) -> bool:
    """Do the words before "remove it" name a thing that ``line`` is not ("The fika I take myself, remove it" beside
    a dinner)? Its merchant's and description's words, and words of its kind (a meal not told as another) match."""
    known = set(re.findall(r"[^\W\d_]{3,}", " ".join(str(line.get(k) or "") for k in ("merchant", "description",
                                                                                         "category")).casefold()))
    for m in _THE_THING.finditer(words):
        name = m.group("name").casefold()
        if name in known or name in _NO_THING:
            continue
        kinds = {c.category for c in find_categories(name)}
        described = set(re.findall(r"[^\W\d_]+", str(line.get("description") or "").casefold()))
        if line.get("category") in kinds and not another_meal({name}, line) and not (
                kinds == {"meals"} and described and name not in _ANY_MEAL):
            continue  # "the cab" of a taxi line; a meal by the words it was told with ("the fika" is no dinner)
        return True
    return False
