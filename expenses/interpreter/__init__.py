"""The embedded local interpreter (SPEC §7.3): a deterministic, rule-based reader of English
messages about expense claims that answers in the model protocol of CONTRACT §2.

    interpret(request) -> '{"reads": [...]}' | '{"plan": {...}}'

The expense app registers it with ``registries.register_interpreter``; the runtime's ``local``
provider calls it with the same request a real model would get, and its answer goes through the
same parser, read loop, reducer and claim guard. It is honest by construction:

- a message (or any part of it) it does not understand gives a plan with no acts and an answer
  saying so, never a guess;
- a request that lacks something (an amount, a category, which line, which claim) is asked about,
  not filled in;
- evidence is always an exact slice of the user's message, and quoted amounts are checked to be
  readable in it the way the reducer will read them;
- questions are answered from read tools: the first call asks for the reads, the call after the
  read round composes the answers from their results (in a mode without reads, only what the
  request itself shows is answered);
- answers never narrate effects (receipts do), and no act's claim phrase can appear in them.

The request is read by attribute (the domain app does not import the runtime): see ``Context``.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from dataclasses import replace
from datetime import date
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

from registries.currencies import currencies_named, english_frequency

from . import lexicon
from .audit import audited, completed_day, goes_on
from .clauses import NOT_CLAIMED, OTHERS_PAID_IT, PAID_BY_ANOTHER, headed_as_receipts, sentences, split, verb_of
from .context import (
    Context,
    claim_addressed,
    claims_named,
    day_alone,
    day_answered,
    days_offered,
    find_mention,
    read_key,
    week_answered,
)
from .corrections import (
    is_note,
    note_runs_on,
    read_correction,
    read_day_fix,
    read_merchant_fix,
    read_merchant_set,
    read_nights_fix,
    read_note,
    read_removal,
    removals_said,
)
from .followups import THANKS_TAIL, follow_up, plan_json
from .items import describe, kind_of_merchant, merchants_in, read_items
from .lexicon import meal_named_apart
from .normalize import ORIGINAL_ASIDE, Spelled, spell_out
from .questions import answer as answer_question
from .questions import day, money
from .reading import (
    NEWCOMER,
    ActIntent,
    ContextIntent,
    CorrectIntent,
    HoldIntent,
    Intent,
    NegatedIntent,
    QuestionIntent,
    Reader,
    RetractIntent,
    SkippedIntent,
    UnknownIntent,
    merchant_kind,
)
from .values import (
    best_category,
    find_amounts,
    find_categories,
    find_dates,
    find_line_refs,
    heading_day,
    mask,
    money_text,
    priced_alike,
    rows_kept_by_place,
)

__all__ = ["interpret", "CAPABILITIES"]

CAPABILITIES = ("I can open claims, add/change/remove lines, submit or withdraw, and answer questions about the "
                "policy, totals and exchange rates.")
_VERB_NAMES = {"open_claim": "open a claim", "add_line": "add a line", "update_line": "change a line",
               "remove_line": "remove a line", "submit_claim": "submit a claim", "withdraw_claim": "withdraw a claim"}

_NEGATED_VERBS = {"open": "open a claim", "add": "add it", "update": "change it", "remove": "remove it",
                  "submit": "submit it", "withdraw": "withdraw it"}
_HOLD_VERBS = {"submit_claim": "submit", "withdraw_claim": "withdraw", "remove_line": "remove"}

# what each claim phrase is replaced with in the interpreter's own prose: answers describe, never claim
_NEUTRAL = {
    "opened": "started", "created": "set up", "added": "entered", "updated": "revised", "changed": "edited",
    "removed": "taken off", "deleted": "erased", "submitted": "handed in", "sent for approval": "handed in",
    "withdrawn": "called off",
}


def interpret(request: Any) -> str:
    """One model answer for ``request`` (a ``ModelRequest``, read by attribute) as JSON text."""
    if (settled := _answered_as_new(request)) is not None:
        return _no_dangling_references(settled)
    if (settled := _answered_converted(request)) is not None:
        return _no_dangling_references(_counted(request, settled))
    if (settled := _trip_day_answered(request)) is not None:
        return _no_dangling_references(settled)
    return _no_dangling_references(_offer_kept(request, _counted(request, _nothing_locked_beside_a_question(
        _held_if_asked(request, _asked_if_new(_offers_read(request, _interpret_whole(request)))),
        str(getattr(request, "message", "") or "")))))


def _no_dangling_references(answer: str) -> str:
    """A take-back or correction of an act the plan no longer holds (it was asked about instead: "taxi 20 on monday
    and parking 12, forget the parking" said on a Monday) names nothing: it is left out, as the act was."""
    if '"retractions"' not in answer and '"corrections"' not in answer:
        return answer  # (most answers hold neither: no second parse on a turn's path)
    data = json.loads(answer)
    plan = data.get("plan")
    if not isinstance(plan, dict):
        return answer
    ids = {a.get("id") for a in plan.get("acts") or []}
    kept = {part: [r for r in plan.get(part) or [] if r.get("act") in ids] for part in ("retractions", "corrections")
            if plan.get(part)}
    if all(len(kept[part]) == len(plan[part]) for part in kept):
        return answer
    plan.update(kept)
    return json.dumps(data, ensure_ascii=False)


def _offer_kept(request: Any, answer: str) -> str:
    """A message not understood while expenses wait to be added converted: the offer still stands, and the reply says
    so (the next "yes" adds them; anything understood in between replaces it)."""
    pending = getattr(request, "pending", None) or {}
    plan = json.loads(answer).get("plan")
    if not (pending.get("missing") == ["amount"] and (pending.get("args") or {}).get("currency") and isinstance(plan, dict)
            and not plan.get("acts") and not plan.get("pending") and plan.get("answers") and all(
                str(a.get("text", "")).startswith("I did not understand") for a in plan["answers"])):
        return answer
    earlier = str(pending.get("about") or pending.get("message") or "")
    if not earlier:
        return answer
    kept = {k: v for k, v in pending.items() if k not in ("message", "about")}
    plan["pending"] = {**kept, "about": earlier[:2000]}
    told = [str(t.get("evidence")) for t in (pending.get("args") or {}).get("offered") or [] if isinstance(t, dict)]
    shown = "”, “".join(t[:120] for t in told) if len(told) > 1 else earlier[:120]
    plan["answers"].append({"question": str(getattr(request, "message", ""))[:2000], "text": (
        f"What I offered to add converted (“{shown}”) still waits: say “yes” to add "
        f"{'them' if len(told) > 1 else 'it'}.")})
    return json.dumps({"plan": plan}, ensure_ascii=False)


def _counted(request: Any, answer: str) -> str:
    """"yes, all 3" after two expenses were offered converted: nothing added, asked (whatever reading took the yes)."""
    pending = getattr(request, "pending", None) or {}
    paid_in = (pending.get("args") or {}).get("currency")
    offered = set((pending.get("args") or {}).get("currencies") or [paid_in])
    count = _count_said(str(getattr(request, "message", "") or "")) if paid_in else None
    plan = json.loads(answer).get("plan")
    if count is None or not isinstance(plan, dict):
        return answer
    converted = [a for a in plan.get("acts") or [] if a.get("act") == "add_line" and (a.get("args") or {}).get(
        "currency") in offered]
    if not converted or len(converted) == count:
        return answer
    return json.dumps({"plan": {"acts": [], "answers": [{"question": str(getattr(request, "message", ""))[:2000], "text": (
        f"I offered {len(converted)} expense{'s' if len(converted) != 1 else ''} converted, so I was not sure which you "
        "meant; nothing was added. Say “yes” to add " + ("it" if len(converted) == 1 else f"all {len(converted)}")
        + ", or name the ones to add.")}]}}, ensure_ascii=False)


# what the reply says when it could not read a part of the message, beside the questions it asks ("…?")
_ASKS_BACK = re.compile(r"^I could not|^I did not add|I did not (?:add|change) the line yet", re.IGNORECASE)
_LOCKING = ("submit_claim", "withdraw_claim")


def _nothing_locked_beside_a_question(answer: str, message: str) -> str:
    """"pret lunch out, client paid it. then submit pls" with the removal not read: the claim is not sent with the line
    the user meant to take out. A submit or withdraw waits while the reply asks about another part of the message, or
    while a removal the message asks for is not in the plan."""
    data = json.loads(answer)
    plan = data.get("plan")
    if not isinstance(plan, dict) or not any(a.get("act") in _LOCKING for a in plan.get("acts") or []):
        return answer
    retracted = {r.get("act") for r in plan.get("retractions") or []}
    if all(a.get("id") in retracted for a in plan["acts"] if a.get("act") in _LOCKING):
        return answer  # "submit it. scratch that, never mind": taken back in the same words, nothing to hold
    held_spans = [(at, at + len(str(a.get("evidence") or ""))) for a in plan["acts"]
                  if a.get("act") in _LOCKING and (at := message.find(str(a.get("evidence") or ""))) >= 0]
    unread_removal = not any(a.get("act") == "remove_line" for a in plan.get("acts") or []) and any(
        not any(s <= start and end <= e for s, e in held_spans) for start, end in removals_said(message))
    # ("drop the bremen claim": the withdraw's own words, not a line's)
    if not unread_removal and not plan.get("pending") and not any(
            "?" in (text := str(a.get("text") or "")) or _ASKS_BACK.search(text) or _READ_NOTHING.search(text)
            for a in plan.get("answers") or []):
        return answer
    held = [a for a in plan["acts"] if a.get("act") in _LOCKING]
    plan["acts"] = [a for a in plan["acts"] if a.get("act") not in _LOCKING]
    kept = {a["id"] for a in plan["acts"]}
    for key in ("retractions", "corrections"):
        if plan.get(key):
            plan[key] = [r for r in plan[key] if r.get("act") in kept]
    verbs = " or ".join(dict.fromkeys("submit" if a["act"] == "submit_claim" else "withdraw" for a in held))
    plan.setdefault("answers", []).append({"question": str(held[0].get("evidence") or "")[:2000], "text": (
        f"I did not {verbs} the claim yet, since part of your message is still open; say it again once that is "
        "settled.")})
    return json.dumps(data, ensure_ascii=False)


def _interpret_whole(request: Any, settled: frozenset[str] = frozenset()) -> str:
    ctx = replace(Context.of(request), settled=settled)
    said = ctx
    if not getattr(request, "repair_error", None) and (
            fix := read_note(said.message, said) or read_merchant_fix(said.message, said) or read_day_fix(said.message, said)
            or read_merchant_set(said.message, said) or read_removal(said.message, said)) is not None:
        # "the dinner was at Zapiecek, not Stary Dom": the one line called Stary Dom, before any other reading
        fixed = audited(json.dumps({"plan": fix}, ensure_ascii=False), said.message, said)
        if json.loads(fixed)["plan"]["acts"]:
            return fixed
    if not getattr(request, "repair_error", None) and (nights := read_nights_fix(said.message, said)) is not None:
        return _with_the_rest(request, said, nights, settled)  # and the rest of the message read on its own
    if not getattr(request, "repair_error", None) and (answered := _answer_then_more(said)) is not None:
        return _with_the_rest(request, said, answered, settled)  # the answer to the last question, then the rest
    if is_note(said.message) and "update_line" in ctx.acts:
        # a note whose line is not exactly one, or whose words run on into another request: asked about, never read
        # as a new expense
        text = (f"I did not set that note: its words run on into another request (“{run_on}”). Send the note alone, "
                "then the rest." if (run_on := note_runs_on(said.message)) else
                "Which line is that note for? Say it with the line's number, e.g. “note for line 2: …”.")
        return json.dumps({"plan": {"acts": [], "answers": [{"question": said.message[:2000], "text": text}]}},
                          ensure_ascii=False)
    spelled = spell_out(ctx.message)
    earlier = spell_out(str((ctx.pending or {}).get("message") or ""))
    ctx = replace(ctx, message=spelled.text,
                  pending={**ctx.pending, "message": earlier.text} if ctx.pending else None,
                  previous=spell_out(ctx.previous).text if ctx.previous else None)
    # the reading is audited on the user's own words: whatever it did not account for is asked about, not acted on
    raw = _interpret(ctx, request)
    answer = audited(_described(_in_users_words(raw, spelled, earlier), said), said.message, said)
    if getattr(request, "repair_error", None):
        return answer  # a repair round answers honestly; it does not try another reading
    if not json.loads(answer).get("plan", {}).get("acts") and (opened := _opened_then_told(request, said, settled)):
        return opened  # "please create a claim 'X'. The registration was 420 EUR, paid on Monday itself."
    if not json.loads(answer).get("plan", {}).get("acts") and (fixes := _fixes_by_sentence(request, said, settled)):
        return fixes  # "Correction: the diesel was at Q8, not Circle K. And Wednesday lunch was 48,00."
    if _acted_or_answered(answer):
        return _better_split(request, said, settled, answer)
    # a correction of a line told without an edit verb, or a message that tells expenses, the clause reader could
    # not read whole: read by the pipelines for them, audited the same
    if "Which line do you mean?" in raw and _OTHER_REQUEST.search(said.message):
        return answer  # "actually drop the tube … and the eurostar was 165": a second reading would drop the first ask
    for reading in (read_correction, read_items):
        plan = reading(said.message, said)
        if plan is not None:
            second = audited(_described(json.dumps({"plan": plan}, ensure_ascii=False), said), said.message, said)
            if json.loads(second)["plan"]["acts"]:
                return second
    if (split := _one_fix_and_the_rest(request, said, settled)) is not None:
        return split
    return answer



# a sentence that only announces corrections: "Two corrections.", "Correction:", "Sorry, some fixes:"
_FIXES_HEADING = re.compile(r"^\W*(?:(?:sorry|ok|okay|and|also|so|please)\W+)*(?:(?:two|three|2|3|some|a\s+few|a\s+couple\s+of)\s+)?"
                            r"(?:corrections?|fixes|changes|mistakes?)(?:\s+please)?\W*$", re.IGNORECASE)


def _fixes_by_sentence(request: Any, said: Context, settled: frozenset[str]) -> str | None:
    """A message of several sentences, each one fix the readers of fixes take alone ("Two corrections. The dinner on
    2026-05-04 was 31.80, not 29.80. The lunch at Café Central was on 2026-05-06, not 2026-05-05."): each fix, on
    different lines, audited together on the whole message; None when any sentence is something else."""
    told = [m.span() for m in re.finditer(r"(?:[^.!;\n]|\.(?=\d))+", said.message) if re.search(r"\w", m.group(0))]
    if len(told) < 2 or "?" in said.message or isinstance(request, _Earlier):
        return None
    acts: list[dict[str, Any]] = []
    for start, end in told:
        words = said.message[start:end]
        heading = re.match(r"^\W*(?:corrections?|fix(?:es)?)\s*:\s*", words, re.IGNORECASE)
        if _FIXES_HEADING.match(words):
            continue
        body = words[heading.end():] if heading else words
        body = re.sub(r"^\W*(?:and|also|plus)\b\W*", "", body, flags=re.IGNORECASE)
        sentence = replace(said, message=body)
        plan = next((p for reading in (read_merchant_fix, read_day_fix, read_correction)
                     if (p := reading(body, sentence)) is not None and p.get("acts")), None)
        if plan is None:  # "Wednesday lunch was 48,00, I read the app wrong.": the whole reading, of it alone
            alone = json.loads(_interpret_whole(_Earlier(request, body), settled=settled)).get("plan")
            plan = alone if isinstance(alone, dict) and alone.get("acts") and not alone.get("answers") else None
        if plan is None or len(plan.get("acts") or []) != 1 or plan["acts"][0].get("act") != "update_line":
            return None
        acts.append({**plan["acts"][0], "evidence": body.strip()})
    lines = [(json.dumps(a.get("case"), sort_keys=True), (a.get("args") or {}).get("line")) for a in acts]
    if len(acts) < 2 or len(set(lines)) != len(lines):
        return None  # two fixes of one line: which one wins is for the user to say
    for number, act in enumerate(acts, 1):
        act["id"] = f"a{number}"
    audited_plan = audited(json.dumps({"plan": {"acts": acts}}, ensure_ascii=False), said.message, said)
    return audited_plan if len(json.loads(audited_plan)["plan"].get("acts") or []) == len(acts) else None


def _opened_then_told(request: Any, said: Context, settled: frozenset[str]) -> str | None:
    """"Please create a claim 'Zurich ML summit' in EUR. The conference registration was 420 EUR, paid on Monday
    itself.": a message that no reading took whole, whose first sentences only open a claim, is that claim opened and
    the rest read on its own as told on the new claim (a rest that names another claim, or does more than add, is not
    read so); both audited together on the whole message. When the rest cannot be read so, the claim may still be
    opened on its own (``_opened_alone``)."""
    told = sentences(said.message)
    for start, end, asked in told[:3]:
        sentence, head, rest = said.message[start:end], said.message[:end], said.message[end:].lstrip(" .!?;")
        if asked and not _ASKED_TO_OPEN.search(sentence) or verb_of(head)[0] != "open" and verb_of(sentence)[0] != "open":
            continue
        if not re.search(r"\d", rest) or claims_named(rest, said.claims) or isinstance(request, _Earlier) or re.search(
                r"\d", said.message[:start]):
            return None  # (never within a reading of a part: one split of a message)
        opened: list[dict[str, Any]] = []
        for words in dict.fromkeys((head, sentence)):  # ("Hi! Right so I've never done one of these …. Can you open …")
            first = json.loads(_interpret_whole(_Earlier(request, words), settled=settled))
            opened = (first.get("plan") or {}).get("acts") or []
            if [a.get("act") for a in opened] == ["open_claim"]:
                head = words
                break
        if [a.get("act") for a in opened] != ["open_claim"]:
            return None
        other = json.loads(_interpret_whole(_OnNewClaim(request, rest, opened[0]["args"]), settled=settled))
        if "reads" in other:
            return json.dumps(other, ensure_ascii=False)  # its lookups first; the next round reads it again
        acts = (other.get("plan") or {}).get("acts") or []
        if acts and all(a.get("act") == "add_line" and (a.get("case") or {}).get("id", _NEW_CLAIM) == _NEW_CLAIM
                        for a in acts):
            for act in acts:
                act.pop("case", None)  # the claim this message opens
            merged = {"acts": opened + acts, "answers": (other.get("plan") or {}).get("answers") or []}
            for number, act in enumerate(merged["acts"], 1):
                act["id"] = f"a{number}"
            audited_plan = audited(json.dumps({"plan": merged}, ensure_ascii=False), said.message, said)
            if json.loads(audited_plan)["plan"].get("acts"):
                return audited_plan
        return _opened_alone(said, head, rest, opened)
    return None


# a request to open a claim said as a question: "can we call it "Montreal venue walkthrough"?", "could you open …?"
_ASKED_TO_OPEN = re.compile(r"\b(?:can|could|would|will)\s+(?:you|we|u|i)\s+(?:please\s+|pls\s+|just\s+)?(?:open|create|start|"
                            r"make|set\s+up|call|name|title)\b", re.IGNORECASE)
# words anywhere in a message that may take an opening back, change its title or currency, or send the expenses
# elsewhere: then nothing is opened on its own ("Actually no.", "Sorry, in GBP I mean.", "… or is it better …?")
_OPENING_DOUBTED = re.compile(
    r"\?|\b(?:"
    # taken back, or wondered about
    r"no|not|nope|nah|don'?t|dont|do\s+not|never|cancel\w*|scratch|scrap|forget|actually|instead|wait|hold|hmm+|later|"
    r"joke|kidding|second\s+thoughts?|sorry|mean|meant|rather|better|maybe|perhaps|possible|asking|approv\w*|must|or|"
    r"yet|if|whether|oops|wrong|tomorrow|test\w*|lol|jk|drop|delete|undo|ignore|skip|stop|abort|leave|matter|confirm|"
    r"check|ask|undecided|unsure|nein|non|não|nao|esquece|annule|"
    # its title or currency changed
    r"rename|call\s+it|name\s+it|make\s+it|change|title|typo|autocorrect|"
    # the expenses sent elsewhere
    r"existing|already\s+(?:have|has|got|open\w*|exist\w*)|same|other|colleague|claims?|though|goes|belongs?|"
    r"(?:add|put|move)\s+(?:them|these|those|it|all)\s+(?:to|on|in))\b",
    re.IGNORECASE)


# doubt said before the request to open: "Hypothetically, would you open …", "Maybe I should wait, but open …"
_WONDERED_BEFORE = re.compile(r"\b(?:maybe|perhaps|hypothetic\w*|wait|if|whether|unsure|not\s+sure|should\s+i|or|later|"
                              r"possibl\w*|approv\w*|test\w*)\b", re.IGNORECASE)


def _opened_alone(said: Context, head: str, rest: str, opened: list[dict[str, Any]]) -> str | None:
    """The claim the first sentences open, plainly asked for, opened on its own when the expenses told after it could
    not be read whole: nothing of them is added, and the reply says so (they are asked again on the claim, which is
    then the active one); None when the rest may take the opening back or point elsewhere."""
    opening = str(opened[0].get("evidence") or "")
    title = str((opened[0].get("args") or {}).get("title") or "")
    at = said.message.find(opening) if opening else -1
    if at < 0:
        return None
    after = said.message[at + len(opening):]
    if title:  # "I need a new claim in US dollars, can we call it "Montreal walkthrough"?": still the opening's words
        after = re.sub(r"^\W*(?:(?:and\s+)?(?:can|could)\s+(?:we|you|u)\s+)?(?:call|name|title)\s+it\s*[\"“'‘]?"
                       + re.escape(title) + r"[\"”'’]?", "", after, flags=re.IGNORECASE)
    asked = re.match(r"[\s\"'”’]*\?", after)  # "can we call it "Montreal venue walkthrough"?": the request, asked
    beside = after[asked.end():] if asked else after  # (what comes before it is a greeting, a preamble: no figure)
    told = [beside[s:e] for s, e, _ in sentences(beside) if re.search(r"[^\W_]", beside[s:e])]
    if not told or any(not re.search(r"(?<![^\W\d_])\d", t) for t in told) or _WONDERED_BEFORE.search(said.message[:at]):
        return None  # every sentence after the opening tells a price ("Drop it.", "GBP.", "It's for Tom." never)
    if _OPENING_DOUBTED.search(beside.replace(title, " ") if title else beside) or (asked and _WONDERED_BEFORE.search(
            opening.replace(title, " ") if title else opening)):
        return None
    ctx = replace(said, message=head)
    plan = json.loads(audited(json.dumps({"plan": {"acts": opened}}, ensure_ascii=False), head, ctx)).get("plan") or {}
    if [a.get("act") for a in plan.get("acts") or []] != ["open_claim"]:
        return None
    title = str(plan["acts"][0].get("args", {}).get("title") or "")
    plan["answers"] = [*(plan.get("answers") or []), {"question": rest[:2000], "text": (
        f"I opened “{title}”, but I did not add any of the expenses you told after it: I could not read all of them "
        "for sure. Tell me them again, a few at a time (for example “Monday: flight 189.40, taxi 32”), and they go on "
        "this claim.")}]
    return json.dumps({"plan": plan}, ensure_ascii=False)


# a request of another kind in the message, which the fallback readings (a correction, a list of expenses) do not read
_OTHER_REQUEST = re.compile(r"\b(?:drop|remove|delete|scrap|ditch|get\s+rid\s+of|take\s+(?:\w+\s+){0,3}?(?:off|out)|submit|"
                            r"withdraw)\b", re.IGNORECASE)
# the audit's question "is it a new line or a correction?", and a plain answer that it is new ("its a new one, pls add
# it", "new", "separate expense, add it"): no number, and no word that points at a line already on the claim
_NEW_OR_FIX = "is a new line or corrects one already on the claim"
_SAYS_NEW = re.compile(r"\b(?:new|separate|another|additional|extra|add|added|adding)\b", re.IGNORECASE)
# the kind of expense given with the answer: "add it under other", "as a meal", "category meals"
_KIND_GIVEN = re.compile(r"\b(?:under|as|in|category|kind)\s+(?:the\s+|a\s+|an\s+)?(?:category\s+)?(?P<kind>[^\W\d_]+)\W*$",
                         re.IGNORECASE)
_SAYS_FIX = re.compile(r"\b(?:not|no|don'?t|correct\w*|fix\w*|chang\w*|updat\w*|replac\w*|instead|wrong|same|existing|"
                       r"old|already|line|remove|delete|drop)\b", re.IGNORECASE)


def _one_fix_and_the_rest(request: Any, said: Context, settled: frozenset[str]) -> str | None:
    """A message of several sentences that no reading took whole, one of them a correction or a removal the readings
    for those take alone ("the bus was 17,50 not 17. And dinner on 4/11 at Chez Léon 42,80"): that sentence's plan
    and the rest read on its own, audited together on the whole message; None when no sentence is such a fix."""
    told = sentences(said.message)
    parts = [(s, e) for s, e, asked in told if not asked]
    if len(told) < 2:
        return None
    for start, end in parts:
        words = said.message[start:end]
        if _REDIRECTED.search(words):
            continue  # "And dinner 3/12 — no wait, that dinner was in Malmö, put it on the Malmö claim": not a fix
        sentence = replace(said, message=words)
        for reading in (read_correction, read_removal, read_merchant_fix, read_day_fix):
            plan = reading(words, sentence)
            if plan is not None and plan.get("acts"):
                for act in plan["acts"]:
                    act["evidence"] = words.strip()
                answer = _with_the_rest(request, said, (plan, (start, end)), settled)
                if "plan" not in (read := json.loads(answer)):
                    return answer  # the rest's lookups first ("… not 16,80. total?"); the next round reads both again
                acts = read["plan"].get("acts") or []
                # the rest read alone may only tell new expenses: a change of the rest ("Merchant should read …")
                # leans on words the split took away
                return answer if acts and all(a.get("act") == "add_line" for a in acts if a not in plan["acts"]) and \
                    sum(1 for a in acts if a.get("act") != "add_line") == len(plan["acts"]) else None
    return None


# words that send an expense elsewhere or take it back, which a fix read from its sentence alone would miss
_REDIRECTED = re.compile(r"\b(?:no\s+wait|wait|actually\s+no|no,?\s+sorry|put\s+(?:it|that|this)|move\s+(?:it|that|this)|"
                         r"instead|rather|forget|scratch|other\s+claim|\w+\s+claim)\b", re.IGNORECASE)


def _better_split(request: Any, said: Context, settled: frozenset[str], answer: str) -> str:
    """The whole reading, unless it asked about a part that a reading of corrections or removals takes alone and the
    message read that way does more and asks less ("the bus was 17,50 not 17. And dinner … 42,80": not a new bus
    of unknown day, the bus corrected)."""
    whole = json.loads(answer).get("plan")
    if not isinstance(whole, dict) or not whole.get("answers") or len(sentences(said.message)) < 2:
        return answer
    split = _one_fix_and_the_rest(request, said, settled)
    if split is None:
        return answer
    parts = json.loads(split)["plan"]
    if len(parts.get("acts") or []) > len(whole.get("acts") or []) and len(parts.get("answers") or []) < len(
            whole["answers"]):
        return split
    return answer


# after the answer, what makes the rest a request of its own ("And the hotel …", "Also …") or a doubt about the answer
# the request that ends a claim, said after the answer to which line ("tue one. then submit")
_THEN_SUBMIT = re.compile(r"\W*(?:(?:and|then|so|ok|okay|now)\W+)*(?:please\s+|pls\s+)?(?:submit|send)(?:\s+(?:it|the\s+claim))?"
                          r"(?:\s+(?:please|pls|now|too|as\s+well))?\W*", re.IGNORECASE)
_MORE_TOLD = re.compile(r"\W*(?:and|also|plus|btw|by\s+the\s+way|moment|oh|one\s+more\s+thing)\b", re.IGNORECASE)
_ANSWER_DOUBTED = re.compile(r"\b(?:or|maybe|perhaps|think|guess|sure|right|check|wait|hmm+|unless|suggest|should\s+i|not\s+100)\b",
                    re.IGNORECASE)


# the claim's total asked after an answer: "how much is total now?", "what's the total?"
_TOTAL_ASKED = re.compile(r"\W*(?:and\s+|so\s+)?(?:how\s+much\s+(?:is|'s)\s+(?:the\s+)?total|what(?:'s|\s+is)\s+(?:the\s+|my\s+)?total|"
                          r"(?:the\s+)?total)(?:\s+now)?\s*\?*\W*", re.IGNORECASE)


def _answer_then_more(ctx: Context) -> tuple[dict[str, Any], tuple[int, int]] | None:
    """"I checked in the card, it is 35,00. And the hotel of tuesday was 124 not 142": the answer to the question the
    last reply left open, in the message's first sentence, then more; the answer's plan and where it was said."""
    told = sentences(ctx.message)
    missing = ((ctx.pending or {}).get("missing") or [None])[0]
    if missing not in ("amount", "date", "line") or len(told) < 2 or told[0][2] or told[0][1] - told[0][0] > 80:
        return None  # (only a figure or a day answers here: any words would do for a title, "oh ok. call it …")
    end = told[0][1]
    first, rest = ctx.message[:end], ctx.message[end + 1:]
    if not (re.search(r"\d", first) if missing == "amount" else find_dates(first, ctx.today)):
        return None
    asks_total = missing == "line" and _TOTAL_ASKED.fullmatch(rest)  # "tuesday one. how much is total now?"
    more = _MORE_TOLD.match(rest) or re.search(r"\bnot\b", rest) or (missing == "line" and _THEN_SUBMIT.fullmatch(rest)) \
        or asks_total
    if ("?" in rest and not asks_total) or _ANSWER_DOUBTED.search(first + " " + rest) or not more or re.search(
            r"\b(?:delete|remove|drop|scrap|change|update|make|submit|send)\b[^.;!?]*\b(?:it|that|this|them|the\s+last(?:\s+one)?)\b",
            rest, re.IGNORECASE):
        return None  # ("It is 35. Or was it 53?", "It is 35. 30 plus tip.", "It is 35. Delete the last one.": read whole)
    plan = follow_up(replace(ctx, message=ctx.message[:end]))
    if not plan or plan.get("undo") or plan.get("pending") or not plan.get("acts") or not all(
            a.get("earlier_evidence") for a in plan["acts"]):
        return None  # (only acts that complete what the question was about: never a new reading of the first words)
    return plan, (0, end + 1)


def _with_the_rest(request: Any, said: Context, fix: tuple[dict[str, Any], tuple[int, int]],
                   settled: frozenset[str]) -> str:
    """A fix read from one part of the message, and the rest of the message read on its own; the two plans together
    audited on the whole message (an expense of the rest not read whole: nothing changes, its question is asked)."""
    plan, (start, end) = fix
    rest = (said.message[:start].rstrip() + " " + said.message[end:].lstrip(" .,;-–—")).strip()
    merged: dict[str, Any] = {"acts": list(plan.get("acts") or []), "answers": list(plan.get("answers") or [])}
    if plan.get("pending"):
        merged["pending"] = plan["pending"]  # its question's answer completes it (dropped if the rest adds anything)
    if re.search(r"[^\W_]", rest):
        other = json.loads(_interpret_whole(_Earlier(request, rest), settled=settled))
        if "reads" in other:
            return json.dumps(other, ensure_ascii=False)  # its lookups first; the next round reads both again
        other_plan = other.get("plan") or {}
        # the rest is talk when it says nothing to act on ("Oh, hang on, I've checked my email,", "Please fix it."); a
        # field named or a name quoted ("Merchant should read "Uber Geneva"") is a request not read, never talk
        asked = bool(re.search(r"\?|^\W*(?:what|whats|what's|how|which|is|are|can|could|do|does)\b", rest, re.IGNORECASE))
        talk = not asked and not other_plan.get("acts") and not re.search(
            r"[\"“”]|\b(?:merchant|category|date|amount|description|name|line|row|claim)\b", rest, re.IGNORECASE) and (
            _just_talk(rest, said) or re.fullmatch(
                r"\W*(?:(?:please|pls|plz|so|and|can\s+you|could\s+you)\s+)*(?:fix|correct|change|update|adjust|amend)\s+"
                r"(?:it|that|this|the\s+line)(?:\s+(?:please|pls|plz|thanks|thx))?\W*", rest, re.IGNORECASE))
        if not talk and not asked and _not_yours(other_plan):
            # "ok, convert them. Btw the dinner Tuesday was paid by the client so don't put that one in": the fix stands,
            # and the rest is said back; when it names a kind the fix adds, nothing is done and it is asked
            kinds = {c.category for c in find_categories(rest)}
            if any(a.get("act") == "add_line" and (a.get("args") or {}).get("category") in kinds for a in merged["acts"]):
                merged["acts"] = []
                merged["answers"] = [{"question": said.message[:2000], "text": (
                    f"I did not add anything yet: “{rest[:120]}” names an expense like one of those you told me. Say which "
                    "ones to add.")}]
            else:
                merged["answers"] += other_plan.get("answers") or []
            talk = True
        elif talk and any(a.get("act") == "add_line" and (a.get("args") or {}).get("category") in {
                c.category for c in find_categories(rest)} for a in merged["acts"]):
            # "ja passt, umrechnen. das Mittagessen hat aber der Kunde bezahlt": a remark about a kind the fix adds,
            # in words not read, is never passed over
            merged["acts"] = []
            merged["answers"] = [{"question": said.message[:2000], "text": (
                f"I did not add anything yet: I could not tell what “{rest[:120]}” says about what you told me. Say "
                "which ones to add.")}]
        if not talk and not other_plan.get("acts") and not asked:
            merged["acts"] = []  # a part not read whole: nothing changes, its question is asked
            merged["answers"] = [{"question": said.message[start:end].strip()[:2000], "text": (
                "I read that change, but I have not made it yet either: say it again with the rest.")}]
        if not talk and plan.get("acts"):
            merged["acts"] += other_plan.get("acts") or []
            merged["answers"] += other_plan.get("answers") or []
        elif not talk and other_plan.get("answers") and not other_plan.get("acts"):
            merged["answers"] += other_plan["answers"]  # the fix is asked about: the rest's questions too, nothing done
    if merged.get("pending") and (len(merged["answers"]) > 1 or merged["acts"]):
        merged.pop("pending")
    for number, act in enumerate(merged["acts"], 1):
        act["id"] = f"a{number}"
    return audited(json.dumps({"plan": merged}, ensure_ascii=False), said.message, said)


_NOT_YOURS = "All right: that is not yours to claim"


def _not_yours(plan: dict[str, Any]) -> bool:
    """A plan that only says back that an expense was someone else's ("the client paid the dinner"): nothing to do."""
    answers = plan.get("answers") or []
    return not plan.get("acts") and not plan.get("pending") and bool(answers) and all(
        str(a.get("text", "")).startswith(_NOT_YOURS) for a in answers)


def _asked_if_new(answer: str) -> str:
    """When the reply asks whether a line is new or a correction, the question stays open for the next message."""
    data = json.loads(answer)
    plan = data.get("plan")
    if not isinstance(plan, dict) or plan.get("acts") or plan.get("pending"):
        return answer
    asked = next((a["text"] for a in plan.get("answers", []) if _NEW_OR_FIX in a.get("text", "")), None)
    if asked is None:
        return answer
    plan["pending"] = {"question": asked[:2000], "act": "add_line", "missing": ["new_line"]}
    return json.dumps(data, ensure_ascii=False)


class _Said:
    """The request with another message (a part of it, or an earlier one), the rest read through (by attribute)."""

    def __init__(self, request: Any, message: str):
        self._request, self.message = request, message

    def __getattr__(self, name: str) -> Any:
        return getattr(self._request, name)


class _Earlier(_Said):
    """The request as it was for the earlier message a pending question was about: no question open."""

    def __init__(self, request: Any, message: str, *, reads: bool = True):
        super().__init__(request, message)
        self.pending = None
        if not reads:  # its question was answered the first time: only its acts are read again
            self.reads_allowed = False


_NEW_CLAIM = "clm_OPENEDHERE0001"


class _OnNewClaim(_Earlier):
    """The rest of a message, told on the claim its first sentences open (a draft with no lines yet)."""

    def __init__(self, request: Any, message: str, args: dict[str, Any]):
        super().__init__(request, message)
        view = {"id": _NEW_CLAIM, "kind": "expense_claim", "title": str(args.get("title") or ""), "status": "draft",
                "revision": 1, "currency": str(args.get("currency") or "EUR"), "lines": [], "line_count": 0,
                "total": "0.00", "totals_by_category": {}, "locked": False, "terminal": False, "next_acts": ["add_line"]}
        self.cases = [*(getattr(request, "cases", None) or []), SimpleNamespace(
            id=_NEW_CLAIM, kind="expense_claim", title=view["title"], status="draft", revision=1, summary="", view=view)]
        self.active_case = _NEW_CLAIM


def _answered_as_new(request: Any) -> str | None:
    """"its a new one, pls add it" after "is it a new line or a correction?": the earlier message is read again with
    that settled, and each line it adds quotes the answer as its evidence (the earlier words as earlier evidence)."""
    pending = getattr(request, "pending", None) or {}
    answer = str(getattr(request, "message", "") or "").strip()
    earlier = str(pending.get("message") or "")
    asked = (pending.get("missing") or [None])[0]
    says = _SAYS_NEW.search(answer) or (asked == "allowed" and _SAYS_ADD.search(answer))
    if asked not in ("new_line", "allowed") or not earlier or len(answer) > 80 or re.search(r"\d|\?", answer) \
            or not says or _SAYS_FIX.search(answer) or _asks_another(answer) or getattr(request, "repair_error", None):
        return None
    settled = frozenset({"correction"} if asked == "new_line" else {"allowed"})
    if asked == "allowed":
        earlier = _told_part(earlier)  # "taxi 54 on monday, is that ok?": the expense, not the question about it
    acts = _added_again(request, earlier, answer, settled, reads=asked == "new_line")
    if acts is None and asked == "allowed" and (asked_about := _expense_asked_about(earlier)) is not None:
        # "can I claim a laundry bill of 35 from wednesday?" … "ok, add it then": the expense the question named
        acts = _added_again(request, asked_about, answer, settled, reads=False)
    if acts is None:
        return None
    kind = _KIND_GIVEN.search(answer) if asked == "allowed" else None
    for act in acts:
        if kind is not None and (said := best_category(find_categories(kind.group("kind")))):
            act["args"]["category"] = said  # "yes, add it under other": the kind the answer gives
    return _audited_additions(request, acts, answer, settled)


def _trip_day_answered(request: Any) -> str | None:
    """"Monday 30th" after "Which day was “Day 1”?": the earlier message read again with that day in the heading's
    place, each line it adds quoting the answer as its evidence (the earlier words as earlier evidence)."""
    pending = getattr(request, "pending", None) or {}
    answer = str(getattr(request, "message", "") or "").strip()
    earlier = str(pending.get("message") or "")
    args = pending.get("args") or {}
    heading, at = str(args.get("heading") or ""), args.get("at")
    if pending.get("missing") != ["trip_day"] or not heading or not isinstance(at, int) or \
            earlier[at:at + len(heading)] != heading or len(answer) > 40 or getattr(request, "repair_error", None):
        return None
    today = Context.of(request).today
    if (told := day_alone(answer, today)) is None:
        return None
    acts = _added_again(request, f"{earlier[:at]}{told.day:02d}.{told.month:02d}.{told.year}{earlier[at + len(heading):]}",
                        answer, frozenset(), reads=False)
    if acts is None or any((a.get("args") or {}).get("date") != told.isoformat() for a in acts):
        return None
    for act in acts:
        act["earlier_evidence"] = act["earlier_evidence"].replace(f"{told.day:02d}.{told.month:02d}.{told.year}", heading)
    return _audited_additions(request, acts, answer, frozenset())


# "yes, put it in", "ok include it", "then please claim it": the expense asked about goes on the claim
_SAYS_ADD = re.compile(r"\b(?:put|include|claim|log|record|enter|expense)\s+(?:it|that|this|them)\b", re.IGNORECASE)
# the words around an expense that ask whether it may be claimed: "can I claim …?", "is … allowed?", "would … be ok?"
_ASK_HEAD = re.compile(r"^\W*(?:(?:hi|hey|hello|ok|okay|so|and|also|quick\s+question)\W+)*(?:(?:can|may|could|might|should|"
                       r"shall)\s+(?:i|we)\s+(?:still\s+|also\s+|even\s+)?(?:claim|expense|include|charge|put\s+in|add|"
                       r"get\s+reimbursed\s+for|be\s+reimbursed\s+for)(?:\s+for)?|(?:is|are|would|will)(?=\s+(?:a|an|the|my|"
                       r"our)\b))\s+", re.IGNORECASE)
_ASK_TAIL = re.compile(r"(?:\s*,?\s*(?:be\s+)?(?:allowed|ok(?:ay)?|fine|claimable|reimbursable|reimbursed|covered|eligible|"
                       r"expensable|permitted|acceptable)(?:\s+(?:to\s+claim|on\s+(?:the|my|this)\s+claim|here))?)?\s*\?\W*$",
                       re.IGNORECASE)


def _expense_asked_about(message: str) -> str | None:
    """The words of the one expense a question asks may be claimed ("can I claim a laundry bill of 35 from
    wednesday?" → "a laundry bill of 35 from wednesday"), or None when the message is no such question."""
    if message.count("?") != 1 or not _MAY_CLAIM.search(message) or not re.search(r"\d", message):
        return None
    head, tail = _ASK_HEAD.match(message), _ASK_TAIL.search(message)
    if head is None or tail is None:
        return None
    words = message[head.end():tail.start()].strip(" ,")
    return words if re.search(r"\d", words) and len(words) >= 4 else None


def _held_if_asked(request: Any, answer: str) -> str:
    """A question whether one expense it names may be claimed ("is a taxi of 62 from the airport allowed?") is
    answered, and the expense waits for the user: "ok, add it" puts it on the claim (nothing is added before)."""
    data = json.loads(answer)
    plan = data.get("plan")
    message = str(getattr(request, "message", "") or "")
    if not isinstance(plan, dict) or plan.get("acts") or plan.get("pending") or plan.get("undo") or not plan.get(
            "answers") or getattr(request, "repair_error", None):
        return answer
    unread = [a for a in plan["answers"] if _READ_NOTHING.search(a.get("text", ""))]
    if unread and len(unread) < len(plan["answers"]):
        return answer  # part of the message was answered, part not read: as it is
    asked_about = _expense_asked_about(message)
    if asked_about is None or not any(a.name == "add_line" for a in getattr(request, "acts", []) or []):
        return answer
    reread = json.loads(_interpret_whole(_Earlier(request, asked_about, reads=False), settled=frozenset({"allowed"})))
    acts = (reread.get("plan") or {}).get("acts") or []
    if len(acts) != 1 or acts[0].get("act") != "add_line" or not (acts[0].get("args") or {}).get("amount"):
        return answer
    if unread:  # the question was not read, only the expense it names: nothing answered, nothing added
        plan["answers"] = [{"question": message[:2000], "text": "Whether it may be claimed is in the expense policy "
                            "(ask me, for example “what does the policy say about meals?”)."}]
    last = plan["answers"][-1]
    last["text"] = (f"{last['text']} I did not add “{asked_about}” yet: if you want it on the claim, tell me to add "
                    "it (for example “yes, add it”).")[:8000]
    plan["pending"] = {"question": last["text"][:2000], "act": "add_line", "missing": ["allowed"]}
    return json.dumps(data, ensure_ascii=False)


def _added_again(request: Any, earlier: str, answer: str, settled: frozenset[str], *,
                 reads: bool = True) -> list[dict[str, Any]] | None:
    """The earlier message read again with what the answer settled: its additions, each quoting the answer as its
    evidence and the earlier words as its earlier evidence; None unless the reading is additions only."""
    return _additions(_reread(request, earlier, settled, reads=reads), answer)


def _reread(request: Any, earlier: str, settled: frozenset[str], *, reads: bool = True) -> dict[str, Any]:
    """The model answer for the earlier words, read again with what the answer settled."""
    return json.loads(_interpret_whole(_Earlier(request, earlier, reads=reads), settled=settled))


def _additions(reread: dict[str, Any], answer: str) -> list[dict[str, Any]] | None:
    """The additions of a reading done again, each quoting the answer as its evidence and the earlier words as its
    earlier evidence; None unless the reading is additions only."""
    acts = (reread.get("plan") or {}).get("acts") or []
    if not acts or any(a.get("act") != "add_line" for a in acts):
        return None
    for act in acts:
        act["earlier_evidence"], act["evidence"] = act["evidence"], answer
    return acts


def _audited_additions(request: Any, acts: list[dict[str, Any]], answer: str, settled: frozenset[str]) -> str:
    """The additions an answer completed, audited on the answer's words with what it settled."""
    ctx = replace(Context.of(request), settled=settled)
    return audited(json.dumps({"plan": {"acts": acts}}, ensure_ascii=False), answer, ctx)


# a plain yes to "say “yes” to add it converted": no figure of its own, no other request, no doubt
_YES_LEAD = r"(?:(?:pode|podes|puoi|kannst\s+du|kunt\s+u|kun\s+je|peux-tu|pouvez-vous|vous\s+pouvez|puedes|can\s+you)\s+)?"
_SAYS_YES = re.compile(r"^\W*" + _YES_LEAD + r"(?:yes|yeah|yep|yup|ya|aye|alright|ok|okay|sure|fine|great|perfect|correct|right|please|pls|go\s+ahead|"
                       r"grand|lovely|brilliant|cool|sound|accept(?:ed)?|take\s+the|go\s+with|"
                       rf"do\s+(?:it|that)|convert(?:ed)?|use\s+(?:that|the|it)|add|sounds\s+good|{lexicon.YES_ABROAD}|"
                       rf"{lexicon.CONVERT_ABROAD})(?![\w'’-])", re.IGNORECASE)
_SAYS_CONVERT = re.compile(rf"\b(?:convert\w*|that\s+rate|the\s+rate|exchange|at\s+that|{lexicon.CONVERT_ABROAD})(?![\w'’-])",
                           re.IGNORECASE)
_DOUBT = re.compile(r"\b(?:no|not|n't|don'?t|dont|wait|hold|instead|but|actually|sorry|wrong|rather|maybe|later|paid|"
                    r"covered|claim\w*|personal|private|minus|except|without|free|included|first|too\s+much|expensive|"
                    rf"herself|himself|themselves|half|split|{lexicon.DOUBT_ABROAD})\b|\?", re.IGNORECASE)


_ONLY = re.compile(r"\b(?:only|just)\b", re.IGNORECASE)
# "Yes for the Metro ticket only", "only the metro", "just the lunch please": which ones, and nothing more
_ONLY_THE = re.compile(r"\W*(?:(?:yes|yeah|ok|okay|sure)\W+)?(?:(?:for|add)\s+)?(?:(?:only|just)\s+)?(?:the\s+)?"
                       r"[^\W\d_]+(?:\s+[^\W\d_]+){0,2}?(?:\s+(?:only|please|pls|then))*\W*", re.IGNORECASE)
_CHOICE_WORDS = frozenset("yes yeah yep ok okay sure please pls for the only just add convert converted it one that this "
                          "them those these thing expense ticket please thanks thank you fine go ahead do with put on".split())


def _chosen(acts: list[dict[str, Any]], answer: str) -> list[dict[str, Any]]:
    """Of the additions offered converted, the ones an answer that says "only" names by a word of their own (their
    kind, merchant or words told), when that is some of them and not all; none when it names none, or every one."""
    if not _ONLY_THE.fullmatch(answer):
        return []  # "only the taxi, lunch was free": more than which one, asked
    said = {w for w in re.findall(r"[^\W\d_]{3,}", answer.casefold()) if w not in _CHOICE_WORDS}
    if not said or len(acts) < 2 or any(a.get("act") != "add_line" for a in acts):
        return []
    own = [set(re.findall(r"[^\W\d_]{3,}", " ".join(str(x) for x in (a.get("evidence"), (a.get("args") or {}).get(
        "merchant"))).casefold())) for a in acts]
    if any(len(o & said) and any(o is not p and o & p & said for p in own) for o in own):
        return []  # a word several of them share names no one
    chosen = [a for a, o in zip(acts, own, strict=True) if said <= o]
    return chosen if 0 < len(chosen) < len(acts) else []


# the words a plain yes to a conversion is made of, in the languages people answer in: any other word ("wait", "later",
# "myself", "except", "private", a name) means the answer says more than yes, and it is read afresh (never taken as yes)
_YES_WORDS = frozenset(
    "yes yeah yep yup ya aye ok okay sure fine great perfect correct right alright please pls plz go ahead do it that "
    "on too also as well one "  # ("Fine, put that on too.")
    "them these those both all the lot convert converted converting use rate rates company reference at with add put "
    "thanks thank you very much cheers sounds good yes's ja jo joo jep jepp ano sim sí sì oui d'accord dacord claro vale "
    "klar passt is goed doe maar dobře dobrze okej okei certo genau gerne klart perfekt perfecto perfeito perfetto "
    "parfait bien sûr volontiers va bene selvfølgelig självklart alle alla allt begge båda beide oba obie wszystkie "
    "tutti todos tous les deux entrambi ambos ambas drei trois tre tres três trzy tři two three four vier quatre quattro "
    "cztery fire fyra to den det es sie les los las li je lo la em en in und and og och e et y i a przelicz przeliczyć "
    "převeď převést přepočítej umrechnen umrechnung konvertieren konvertiere konvertera konverter konvertér omregn "
    "omregne omräkna omreken omrekenen convertissez convertis convertir converti convertili convertilo convertire "
    "converter converta converte convierte conversion conversione conversão conversión proszę prosím prosze tack takk "
    "dank danke merci grazie gracias obrigado obrigada tak si same again for of then one ones bitte porfa por favor svp stp "
    "alsjeblieft graag gjerne gärna prego prima pour per para für voor til för pode podes puoi kannst kunt kun peux tu "
    "pouvez vous puedes can du u je accept accepted take figure amount conversion grand sound lovely brilliant cool "
    "fair enough your ur that's thats it's its is good".split())


def _only_yes_words(answer: str) -> bool:
    """Is every word of ``answer`` one a plain yes to a conversion is made of, or a currency's name ("yeah go ahead and
    add it in dollars"; counts in figures aside)?"""
    words = re.findall(r"[^\W\d_]+(?:['’][^\W\d_]+)?", answer.lower())
    return bool(words) and all(w in _YES_WORDS or w in lexicon.CURRENCY_WORDS for w in words)


def _asks_another(answer: str) -> bool:
    """"Please submit the Copenhagen claim" after "say yes to add it converted": a request of its own, never the yes."""
    return verb_of(spell_out(answer).text)[0] in ("update", "remove", "submit", "withdraw")


# a yes that ends its sentence before the message goes on: "aye fine, add that. …", "Yes please for both. Also …"
_YES_FIRST = re.compile(r"^\W*(?P<yes>" + _YES_LEAD + r"(?:yes|yeah|yep|yup|ya|aye|ok|okay|sure|fine|great|perfect|alright|right|"
                        r"grand|lovely|brilliant|cool|sound|"
                        rf"{lexicon.YES_ABROAD}|{lexicon.CONVERT_ABROAD})(?![\w'’-])(?:[^.!?;\d]|(?<=\s)[2-9](?=\s*[.!;]))"
                        r"{0,70}?)(?:[.!;]\s+|\s+[-–—]+\s+|\s*[,:-]\s+(?=(?:also|and\s+also|plus|(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
                        r"\b)|\s*,?\s+(?=(?:and\s+|e\s+|et\s+|y\s+|und\s+|en\s+|a\s+|och\s+|og\s+)?(?:then|after\s+that|"
                        r"depois|dann|danach|puis|ensuite|poi|luego|después|daarna|dan|potem|pak|sen|så|sedan)\b))", re.IGNORECASE)
# "all 3", "wszystkie 3", "alle drei": how many the yes is for (asked again when that is not how many were offered)
_YES_COUNT = re.compile(r"\b(?:all|alle|alla|allt|wszystkie|wszystkich|tutti|tutte|todos|todas|tous|toutes|všechny|kaikki|"
                        r"the|de|die|les|le)\s+([2-9])(?![\d.,])|\b(one(?:\s+of\s+them)?|that\s+one|this\s+one|two|both|three|four|five|beide|beiden|oba|obie|obydwa|begge|båda|"
                        r"tous\s+les\s+deux|les\s+deux|entrambi|ambos|ambas|drei|trois|tre|tres|três|trzy|tři|vier|quatre|quattro|"
                        r"cztery|čtyři|fire|fyra)\b", re.IGNORECASE)
_COUNT_WORDS = {"one": 1, "one of them": 1, "that one": 1, "this one": 1, "two": 2, "both": 2, "beide": 2, "beiden": 2, "oba": 2, "obie": 2, "obydwa": 2, "begge": 2, "båda": 2,
                "tous les deux": 2, "les deux": 2, "entrambi": 2, "ambos": 2, "ambas": 2, "three": 3, "drei": 3, "trois": 3,
                "tre": 3, "tres": 3, "três": 3, "trzy": 3, "tři": 3, "four": 4, "vier": 4, "quatre": 4, "quattro": 4,
                "cztery": 4, "čtyři": 4, "fire": 4, "fyra": 4}


def _count_said(answer: str) -> int | None:
    """How many expenses a yes says it is for ("yes to both", "ja alla tre", "przelicz wszystkie 3"), if it says."""
    # "one", "that one" count only in the yes's own sentence ("ok, convert them. Btw the hotel was paid by the client so
    # don't put that one in": that one is another expense)
    first = re.search(r"[.!?;]\s", answer)
    counts = {int(m.group(1)) if m.group(1) else _COUNT_WORDS[re.sub(r"\s+", " ", m.group(2).lower())]
              for m in _YES_COUNT.finditer(answer) if not (
                  m.group(2) and _COUNT_WORDS.get(re.sub(r"\s+", " ", m.group(2).lower())) == 1 and first and m.start() > first.start())}
    return counts.pop() if len(counts) == 1 else (-1 if counts else None)


def _answered_converted(request: Any) -> str | None:
    """"yes", "convert it", "ok use that rate" — or the same foreign amount said again ("1240 dkk") — after "say “yes”
    to add it converted": the earlier message is read again with the conversion settled, and each line it adds names
    the currency it was paid in, so the handler converts it at the reference rate (the model never does the sum)."""
    pending = getattr(request, "pending", None) or {}
    answer = str(getattr(request, "message", "") or "").strip()
    if (thanks := THANKS_TAIL.search(answer)) is not None and thanks.start() > 0:
        answer = answer[:thanks.start()].rstrip()  # "yep convert it, no worries": the answer, then thanks
    rest = answer[first.end():] if (first := _YES_FIRST.match(answer)) else ""
    if first and (find_categories(rest) or verb_of(spell_out(rest).text)[0] is not None or re.search(
            r"\d", rest) and re.search(r"\b(?:was|were|is)\b", rest, re.IGNORECASE)) and (
            yes := _answered_converted(_Said(request, first.group("yes")))) is not None:
        # "aye fine, add that. tuesday dinner 26 …": the yes, then the rest of the message read on its own (a
        # conversion the rest asks about is asked again, never settled by this yes)
        plan = json.loads(yes)["plan"]
        if not plan.get("acts"):
            return yes
        said = replace(Context.of(request), settled=frozenset({"converted"}))
        both = json.loads(_with_the_rest(request, said, (plan, (0, first.end("yes"))), frozenset()))
        kinds = [(a.get("args") or {}).get("category") for a in (both.get("plan") or {}).get("acts") or []]
        unnamed = [a for a in (both.get("plan") or {}).get("acts") or [] if a not in plan["acts"] and a.get(
            "act") == "add_line" and not [
            c for c in find_categories(str(a.get("evidence") or "")) if not c.weak] and not merchants_in(
                str(a.get("evidence") or ""), answer)]
        if unnamed:
            # "yes - 18,90 with fees": a figure after the yes that names no thing of its own: the offered one's amount
            # (as the card charged it), or another expense? Asked, nothing added
            return json.dumps({"plan": {"acts": [], "answers": [{"question": answer[:2000], "text": (
                f"I did not add anything yet: is “{str(unnamed[0].get('evidence') or '')[:120]}” the amount of what I "
                "offered converted, or another expense? Say “yes” alone to add it converted, or tell me its amount in "
                "the claim's currency (for example “18.90 EUR”).")}]}}, ensure_ascii=False)
        offered_kinds = {(a.get("args") or {}).get("category") for a in plan["acts"]}
        rest_kinds = [(a.get("args") or {}).get("category") for a in (both.get("plan") or {}).get("acts") or []
                      if a not in plan["acts"]]
        apart = len(kinds) == len(set(kinds)) or not offered_kinds & set(rest_kinds)  # (three meals told after a taxi)
        if "plan" not in both or (apart and (not both["plan"].get("answers") or all(
                str(a.get("text", "")).startswith((_NOT_YOURS, "I did not add anything yet", "From the expense policy"))
                for a in both["plan"]["answers"]))):
            return json.dumps(both, ensure_ascii=False)
        offered = {(a.get("args") or {}).get("category") for a in plan["acts"]}
        told = [str(a.get("earlier_evidence") or a.get("evidence") or "") for a in plan["acts"]]
        same = [a for a in (both.get("plan") or {}).get("acts") or [] if a not in plan["acts"] and a.get(
            "act") == "add_line" and (a.get("args") or {}).get("category") in offered and not (a.get("args") or {}).get(
            "currency")]
        if same and not both["plan"].get("answers") and all(re.search(
                rf"\b(?:{lexicon.SOMETHING_MORE})\b", str(a.get("evidence") or ""), re.IGNORECASE) or meal_named_apart(
                str(a.get("evidence") or ""), told) for a in same):
            # "yes that's fine - taxi back 22", "fine, use your rate - airport lunch 14.55" after a dinner: one more of
            # the kind offered, named apart from it ("then put the parking as 153,70 zl" is its amount: read afresh)
            return json.dumps(both, ensure_ascii=False)
        rest = answer[first.end():].strip()
        if "plan" in both and not both["plan"].get("acts") and any(
                "to add it converted at that rate" in str(a.get("text", "")) for a in both["plan"].get("answers") or []) and (
                things := [
                    c.text.lower() for c in find_categories(answer[first.end():]) if not c.weak]) and not any(
                    re.search(rf"\b{re.escape(t)}", str(a.get("earlier_evidence") or a.get("evidence") or ""), re.IGNORECASE)
                    for a in plan["acts"] for t in things):
            # "yes thats fine. also parking at the customer 2/12, 45 PLN": the yes adds what was offered; the rest, a
            # thing the offer did not name, in another currency too, is offered converted in its turn (walk Z11)
            alone = (json.loads(_interpret_whole(_Earlier(request, rest))).get("plan") or {})
            offer = alone.get("pending") or {}
            if not alone.get("acts") and offer.get("missing") == ["amount"] and (offer.get("args") or {}).get("currency"):
                return json.dumps({"plan": {"acts": plan["acts"], "answers": alone.get("answers") or [],
                                            "pending": {**offer, "about": rest[:2000]}}}, ensure_ascii=False)
        if "plan" in both and not both["plan"].get("acts") and both["plan"].get("answers") and not any(
                str(a.get("text", "")).startswith("I did not understand") for a in both["plan"]["answers"]):
            # "yes that's fine - taxi back 22" with its day in doubt: the rest's question asked, the offer kept for the
            # next "yes" (never a new reading that takes the yes for the expense's words)
            earlier = str(pending.get("about") or pending.get("message") or "")
            both["plan"]["pending"] = {**{k: v for k, v in pending.items() if k not in ("message", "about")},
                                       "about": earlier[:2000]}
            both["plan"]["answers"] = [a for a in both["plan"]["answers"] if a.get("question") != first.group("yes")] + [
                {"question": first.group("yes")[:2000], "text": (
                    f"I have not added what I offered converted (“{earlier[:120]}”) yet, since the rest of your message "
                    "is still open: say “yes” again to add it.")}]
            return json.dumps(both, ensure_ascii=False)
        # "ok, then put 32,30 CHF for the lunch": the rest tells the same kind of expense again (the amount restated,
        # perhaps), or a part of it is asked about: read afresh, the conversion not taken

    earlier = str(pending.get("about") or pending.get("message") or "")  # the words it was asked about, when others went on
    paid_in = str((pending.get("args") or {}).get("currency") or "")
    offered = set((pending.get("args") or {}).get("currencies") or [paid_in])  # ("bus 25 EUR, taxi 450 CZK": both)
    if pending.get("missing") != ["amount"] or not paid_in or not earlier or len(answer) > 80 \
            or getattr(request, "repair_error", None) or _DOUBT.search(answer) or _asks_another(answer):
        return None
    if re.search(r"\d", answer):  # the foreign amount said again, with its currency: every figure must be the earlier's
        if not currencies_named(answer) or paid_in not in currencies_named(answer) or not set(
                re.findall(r"\d+(?:[.,]\d+)?", answer)) <= set(re.findall(r"\d+(?:[.,]\d+)?", earlier)):
            return None
    elif not (_SAYS_YES.search(answer) or _SAYS_CONVERT.search(answer) or _ONLY.search(answer)):
        return None
    elif not _ONLY.search(answer) and not _only_yes_words(answer):
        return None  # "tak, czekaj", "Da fehlt noch das Trinkgeld", "Ich rechne selbst um": more than a yes, read afresh
    settled = frozenset({"converted"})
    reread = _offered_again(request) or _reread(request, earlier, settled, reads=False)  # (its questions answered)
    if _ONLY.search(answer) and not re.search(r"\d", answer):  # "yes for the metro ticket only": the one named
        acts = (reread.get("plan") or {}).get("acts") or []
        chosen = _chosen(acts, answer)
        if not chosen:
            return None
        reread = {**reread, "plan": {**reread["plan"], "acts": chosen}}
    acts = _additions(reread, answer)  # (a count that is not how many were offered is asked by ``_counted``)
    if acts is None or any((a.get("args") or {}).get("currency") not in offered for a in acts):
        # the yes was plain; the earlier words no longer read as one expense to convert: say why, never "not understood"
        why = " ".join(a.get("text", "") for a in (reread.get("plan") or {}).get("answers", []))
        # (no question stays open here: the day is told again with the expense, never alone)
        why = re.sub(r"I did not add it yet: tell me its day \(“the 24th”, “24\.11”\), and I will add it\.",
                     "Tell me the expense again with its day (“… on 24.11”).", why)
        return json.dumps({"plan": {"acts": [], "answers": [{"question": answer[:2000], "text": (
            f"I could not add “{earlier[:120]}” converted after all, so nothing was added. {why}".strip())[:8000]}]}},
            ensure_ascii=False)
    return _audited_additions(request, acts, answer, settled)


def _offers_read(request: Any, answer: str) -> str:
    """Expenses offered converted beside others the message did ("monday: dinner £40 and taxi £22, and the hotel 2
    nights at 150 eur"): the message read again now, with the conversion settled and the claim as it still is, and
    the additions in the currencies offered kept with the pending question, so one "yes" adds every one offered, each
    with the day it was told with (walk Y1). When that reading does not give exactly the ones offered, they are left
    out, and the answer completes the words asked about first, as before."""
    data = json.loads(answer)
    pending = (data.get("plan") or {}).get("pending") if isinstance(data.get("plan"), dict) else None
    told = ((pending or {}).get("args") or {}).get("offered")
    if not told:
        return answer
    args = pending["args"]
    offered = set(args.get("currencies") or [args.get("currency")])
    message = str(getattr(request, "message", "") or "")
    lines = {str(line.get("category")) for case in getattr(request, "cases", None) or []
             for line in ((getattr(case, "view", None) or {}).get("lines") or [])}
    if _DOUBT.search(re.sub(r"\b(?:i|we)\s+paid\b|\?", " ", message, flags=re.IGNORECASE)) or _OFFER_ASIDE.search(message) or any(
            (m := _ONE_OF_THE_LINES.search(t)) and find_categories(m.group(0)) and {
                c.category for c in find_categories(m.group(0))} & lines for t in told):
        args.pop("offered")  # "… taxi £22 (the taxi was Ana's)", "maybe a taxi", "the taxi £22" beside a taxi line:
        return json.dumps(data, ensure_ascii=False)  # the yes completes the first one asked about, as before
    plan = _reread(request, message, frozenset({"converted"}), reads=False).get("plan") or {}
    adds = [a for a in plan.get("acts") or [] if a.get("act") == "add_line" and (a.get("args") or {}).get("currency")
            in offered and str(a.get("evidence") or "") in message]
    if len(adds) == len(told) and all(any(t in str(a["evidence"]) or str(a["evidence"]) in t for a in adds)
                                      for t in told):
        args["offered"] = [{"evidence": a["evidence"], "args": a.get("args") or {},
                            **({"case": a["case"]} if a.get("case") else {})} for a in adds]
    else:
        args.pop("offered")
    return json.dumps(data, ensure_ascii=False)


# words beside an offer that may exclude one of several: an aside, whose it is, who else, later
_OFFER_ASIDE = re.compile(r"[()]|\b\w+['’]s\b|\b(?:will|later|wife|husband|partner|friend|colleague|ana|her|his|their|"
                          r"for\s+my|for\s+him|for\s+her|claim)\b", re.IGNORECASE)
# an offer told with "the" / "that" / "my", which may be a line the claim has
_ONE_OF_THE_LINES = re.compile(r"\b(?:the|that|this|my)\s+(?:[a-z]+\s+)?(?:taxi|cab|uber|train|flight|bus|metro|tram|dinner|lunch|"
                               r"breakfast|coffee|hotel|parking|ticket|fare)\b(?!\s+(?:to|from|back|home|at|in)\b)",
                               re.IGNORECASE)


def _offered_again(request: Any) -> dict[str, Any] | None:
    """The additions kept with the pending question when they were offered converted (``_offers_read``), as a reading
    of the earlier message; None when none were kept."""
    pending = getattr(request, "pending", None) or {}
    told = (pending.get("args") or {}).get("offered") or []
    whole = str(pending.get("message") or "")
    if not told or not whole or not all(isinstance(t, dict) and str(t.get("evidence") or "") in whole
                                        and isinstance(t.get("args"), dict) for t in told):
        return None
    return {"plan": {"acts": [{"id": f"a{n}", "act": "add_line", "args": dict(t["args"]), "evidence": t["evidence"],
                               **({"case": t["case"]} if isinstance(t.get("case"), dict) else {})}
                              for n, t in enumerate(told, 1)]}}


def _only_a_day(answer: str, ctx: Context) -> bool:
    """"a week ago", "last week", "the 24th": an answer that names a day and nothing else."""
    if week_answered(answer, ctx.pending, ctx.today) is not None or day_answered(answer, ctx.today) is not None or (
            (ctx.pending or {}).get("missing") == ["date"]):
        return True  # (an answer to "which day?" tells the day: its other words, "I think", "as well", describe nothing)
    days = find_dates(answer, ctx.today)
    rest = mask(answer, [(d.start, d.end) for d in days])
    return bool(days) and not re.search(r"[^\W\d_]{3,}", rest) or bool(re.fullmatch(
        r"\W*(?:(?:last|this|previous|the)\s+)?(?:week|one|first|second|earlier|later)(?:\s+(?:one|week|before))?\W*",
        answer, re.IGNORECASE))


def _described(answer: str, ctx: Context) -> str:
    """Each added line told with what it was ("taxi from the airport to the hotel") gets that as its description, and
    one told with who was paid and no merchant read gets that name."""
    data = json.loads(answer)
    plan = data.get("plan")
    if not isinstance(plan, dict) or not plan.get("acts"):
        return answer
    headed = heading_day(spell_out(ctx.message).text, ctx.today)  # ("Tirsdag: …": the heading in the user's language)
    receipts_headed = headed_as_receipts(ctx.message)
    for act in plan["acts"]:
        args = act.get("args") or {}
        if act.get("act") == "add_line" and "description" not in args:
            told = [act.get("earlier_evidence") or "", act.get("evidence", "")]  # what it was: in the words it was told in
            # (an answer that says only a day, "a week ago", "last week", says when, never what the thing was)
            day_only = bool(told[0]) and _only_a_day(told[1], ctx)
            phrase = describe(told[0], ctx) or ("" if day_only else describe(told[1], ctx))
            if day_only:  # (nor who was paid: "letzte Woche" names nobody)
                if phrase and phrase.casefold() != str(args.get("merchant") or "").casefold():
                    args["description"] = phrase
                continue
            titled = any(set(re.findall(r"\w+", phrase.casefold())) <= set(re.findall(r"\w+", c.title.casefold()))
                         for c in ctx.claims) if phrase else False  # "For Madrid sales kickoff: …": the claim's name
            if phrase and re.search(r"\b(?:claim|claims|report|app|statement|copied|pasted|banking)\b", phrase, re.IGNORECASE):
                phrase = ""  # "add to the offsite claim: …", "copied from my banking app": where it goes or came from
            if phrase and not titled and phrase.casefold() != str(args.get("merchant") or "").casefold():
                args["description"] = phrase
        if act.get("act") == "add_line" and args.get("merchant") and args.get("category") in ("hotel", "meals", "other"):
            # "Novotel" read, "Novotel Paris Gare de Lyon" said: the whole name of a place stayed or eaten at (a
            # train's or a ride's longer words are its route: "Eurostar Brussels-London")
            longer = [n for n in merchants_in(act.get("evidence", ""), ctx.message) if n != args["merchant"] and re.search(
                rf"(?<!\w){re.escape(str(args['merchant']).lower())}(?!\w)", n.lower())]
            if len(longer) == 1 and len(longer[0]) <= 80:
                args["merchant"] = longer[0]
            elif not longer and (branch := _chain_branch(str(args["merchant"]), act.get("evidence", ""))):
                args["merchant"] = branch
        if act.get("act") == "add_line" and (named := _name_with_number(act.get("evidence", ""), args)) and (
                not args.get("merchant") or str(args["merchant"]).casefold() in (named.rsplit(" ", 1)[0].casefold(), (
                    "hotel " + named.rsplit(" ", 1)[0]).casefold())):
            args["merchant"] = named  # "dinner at Curry 36 yesterday, 12,50": the number is the place's name
        if act.get("act") == "add_line" and not args.get("merchant"):
            names = merchants_in(act.get("evidence", ""), ctx.message)
            if len(names) == 1:  # "dinner … in Lokál": who was paid, when the words name exactly one
                args["merchant"] = names[0]
            elif len(names) > 1 and (name := _capitalised_after_meal(act.get("evidence", ""))) and all(
                    n in name for n in names):
                args["merchant"] = name  # "dinner Comme chez Soi 96": one name of several words
            elif not names and (name := _name_after_amount(act.get("evidence", "")) or _name_after_meal(
                    act.get("evidence", "")) or _capitalised_after_meal(act.get("evidence", ""))):
                args["merchant"] = name
                rest = re.sub(rf"\s*\b{re.escape(name)}\b\s*", " ", str(args.get("description") or ""),
                              flags=re.IGNORECASE).strip(" ,;-")
                if rest != str(args.get("description") or "") and "description" in args:
                    args["description"] = rest  # "lunch nordsee": a lunch, at Nordsee
                    if not rest:
                        args.pop("description")
            elif not names and (name := _merchant_again(act.get("evidence", ""), plan["acts"], ctx, args.get("category"))):
                args["merchant"] = name  # "the return flight … with austrian too": the airline said before
                if name.split()[0].casefold() in str(args.get("description") or "").casefold():
                    args.pop("description", None)
        if act.get("act") == "add_line" and not args.get("date"):
            day = completed_day(act.get("evidence", ""), ctx, bool(act.get("earlier_evidence")))
            if day is not None and day is not date.min:  # "ok, add 12691 yen for the banner": the banner's day
                args["date"] = day.isoformat()
            elif day is None and (going_on := goes_on(ctx.message)) and going_on[1] and ctx.last_day_told and not \
                    find_dates(ctx.message, ctx.today):
                args["date"] = ctx.last_day_told  # "then a taxi from the station …": the day of the expense told before
        if act.get("act") == "add_line" and not args.get("merchant") and (shared := _heading_merchant(ctx.message, plan)):
            if shared[1] == args.get("category"):  # "flights with Vueling, outbound … and the return …"
                args["merchant"] = shared[0]
        if act.get("act") == "add_line" and not args.get("date") and headed is not None and not \
                find_dates(act.get("evidence", ""), ctx.today) and not (args.get("category") == "hotel" and receipts_headed):
            args["date"] = headed  # "wed 25th: lunch 14.80, coffee 3.90, and dinner … 186.40": the 25th for all three
            # (never a stay under "Here are the receipts from Wednesday:": its check-in, or its check-out? asked)
        if act.get("act") == "add_line":
            _carrier_of_description(args)
            _companion_is_no_merchant(args, act.get("evidence", ""))
            _merchant_out_of_description(args)
            _no_merchant_from_the_original(args, act.get("evidence", ""))
            said = str(args.get("description") or "")
            if re.fullmatch(r"\d+[^\W\d_]+", said) and args.get("merchant") and f"{said} {args['merchant']}".casefold() in (
                    act.get("evidence") or "").casefold():
                args["merchant"], args["description"] = f"{said} {args['merchant']}", ""  # "25hours Hotel HafenCity"
                args.pop("description")
            if str(args.get("merchant") or "").casefold() in lexicon.WORDS_ABROAD:
                args.pop("merchant")  # "Taxi 45 hinzufügen, …": a word of the request in another language, nobody paid
            if _NO_DESCRIPTION.fullmatch(str(args.get("description") or "x")):
                args.pop("description")  # "She bought a UK SIM card", "I've just …", "Mi.: dinner": who, or the day
            elif (kept := _CURRENCY_LAST.sub("", str(args.get("description") or ""))) != str(args.get("description") or ""):
                args["description"] = kept  # "lunch euro 18 and 40 cents": the price's currency, no word of the thing
        opening = any(a.get("act") == "open_claim" for a in plan["acts"])  # lines then go on the claim it opens
        if not opening and act.get("act") != "open_claim" and not (act.get("case") or {}).get("id") and not (
                act.get("case") or {}).get("match"):
            named = claim_addressed(ctx.message, ctx)
            if named is not None:  # "Lisboa: pastéis 6.40", "… for the december Berlin workshop"
                act["case"] = {"id": named.id}
    return json.dumps(data, ensure_ascii=False)


# who carried a ride or a journey, named after it: "with TAP", "with Taxis Verts", "by KLM" (a name in capitals, a
# known carrier, or one that says what it runs); "with Anna" is who came along
_CARRIER = re.compile(r"\b(?:with|by|via)\s+(?P<name>[A-Z][\w'’&.-]*(?:\s+[A-Z][\w'’&.-]*){0,2})\s*$")
_CARRIER_WORD = re.compile(r"\b(?:taxis?|cabs?|air(?:ways|lines)?|rail(?:ways)?|bahn|trains?|bus(?:es)?|coach(?:es)?|"
                           r"ferr(?:y|ies)|lines)\b", re.IGNORECASE)


_CHAINS = frozenset(name for name, category in lexicon.MERCHANTS.values() if category == "hotel")
# words after a chain's name that are no part of the hotel's own name
_NOT_A_BRANCH = frozenset("from for at on in to near by with and the a an of was is were it its that this hotel htl room "
                          "rooms breakfast incl including night nights nite nites nts tax city stay paid total all both "
                          "so then plus also".split())


_DAY_OR_MONTH = r"(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|yesterday|today|last|next)"


def _chain_branch(merchant: str, evidence: str) -> str | None:
    """"htl hilton midtown 3 nts": a chain said with its branch in small letters is that branch ("Hilton Midtown"; one
    or two words, never a day, a count or a word of the stay)."""
    if merchant not in _CHAINS or not (m := re.search(rf"(?<!\w){re.escape(merchant)}((?:\s+[a-z]{{3,}}){{1,2}})(?=[\s,.;]|$)",
                                                      evidence, re.IGNORECASE)):
        return None
    words = []
    for word in m.group(1).split():
        if word in _NOT_A_BRANCH or re.match(_DAY_OR_MONTH, word) or find_categories(word) or \
                english_frequency(word) >= 1e-6:
            break  # (an everyday word is no branch's name: "hilton again", "scandic refund", "hilton lounge")
        words.append(word)
    return " ".join([merchant] + [w.capitalize() for w in words]) if words else None


def _carrier_of_description(args: dict[str, Any]) -> None:
    """A line's merchant that repeats its route ("Thalys Paris-Bruxelles" beside "Paris-Bruxelles") is the carrier
    alone; a ride described "from Midi with Taxis Verts" was paid to Taxis Verts."""
    merchant, described = str(args.get("merchant") or ""), str(args.get("description") or "")
    if merchant and described and merchant.casefold().endswith(" " + described.casefold()):
        carrier = merchant[:-len(described)].strip()
        if args.get("category") in ("taxi", "travel") and re.search(r"[^\W\d_]{2,}", carrier) and \
                carrier.casefold() not in ("the", "an", "le", "la", "il", "el", "der", "die", "das", "de", "het"):
            args["merchant"] = merchant = carrier
        else:  # "Stayed at The Thief": the name said whole is no route ("Thief" is part of who was paid)
            args.pop("description", None)
            return
    if merchant or args.get("category") not in ("taxi", "travel") or not (m := _CARRIER.search(described)):
        return
    name = m.group("name")
    if not (name.isupper() and len(name) >= 2) and not _CARRIER_WORD.search(name) and merchant_kind(name) is None:
        return
    args["merchant"] = name
    rest = described[:m.start()].strip(" ,;-")
    if rest:
        args["description"] = rest
    else:
        args.pop("description", None)


_JOINING_START = re.compile(r"^(?:with|by|via|at|from|on|in|for|to|the|and|of)\b", re.IGNORECASE)
_JOINING_END = re.compile(r"\b(?:with|by|via|at|from|on|in|for|to|the|and|of)$", re.IGNORECASE)


def _no_merchant_from_the_original(args: dict[str, Any], evidence: str) -> None:
    """"taxi 13.70 eur (85 reais)": the words in the brackets say what it was in the currency paid, never who was paid."""
    merchant = str(args.get("merchant") or "")
    if not merchant:
        return
    inside = " ".join(m.group(0) for m in ORIGINAL_ASIDE.finditer(evidence)).casefold()
    outside = ORIGINAL_ASIDE.sub(" ", evidence).casefold()
    if (merchant.casefold() in inside and merchant.casefold() not in outside) or currencies_named(merchant):
        args.pop("merchant")


def _merchant_out_of_description(args: dict[str, Any]) -> None:
    """"RegioJet bus Vienna-Prague" paid to RegioJet is a bus Vienna-Prague: the merchant's name is not said twice
    (when the description starts or ends with it; from its middle, the rest would no longer be the user's words)."""
    merchant, described = str(args.get("merchant") or ""), str(args.get("description") or "")
    if not merchant or not described:
        return
    # at its start or end only: a description is quoted from the user's words, whole
    at_start = re.match(rf"\s*{re.escape(merchant)}(?!\w)", described, re.IGNORECASE) is not None
    rest = re.sub(rf"^\s*{re.escape(merchant)}(?!\w)|(?<!\w){re.escape(merchant)}\s*$", "", described,
                  flags=re.IGNORECASE).strip(" ,;-–")
    joiner = _JOINING_START if at_start else _JOINING_END  # only on the side the name left ("from Midi with …")
    while rest != described.strip() and (bare := joiner.sub("", rest).strip(" ,;-–")) != rest:
        rest = bare  # "with Austrian" paid to Austrian: nothing left but "with"
    if rest != described.strip():
        if rest and re.search(r"[^\W\d_]{3,}", rest):
            args["description"] = rest
        else:
            args.pop("description", None)


def _companion_is_no_merchant(args: dict[str, Any], evidence: str) -> None:
    """"dinner with Anna 40", "lunch with Marco": at a meal, one capitalised name after "with" is who came along, not
    who was paid (a place eaten at is said "at …"; a known merchant stays). A ride "with Flixtrain" is its carrier."""
    name = str(args.get("merchant") or "")
    if args.get("category") != "meals" or not re.fullmatch(r"[A-Z][a-z'’-]+", name) or merchant_kind(name) is not None or _CARRIER_WORD.search(name):
        return
    if re.search(rf"\bwith\s+{re.escape(name)}\b(?!\s+[A-Z])", evidence):
        args.pop("merchant")


def _heading_merchant(message: str, plan: dict[str, Any]) -> tuple[str, str] | None:
    """"flights with Vueling, outbound … and the return …": a merchant said with a plural kind before the first figure
    is every such expense's, as (name, category)."""
    head = re.split(r"\d", message, maxsplit=1)[0]
    m = re.search(r"\b([a-z]+s)\s+(?:were\s+|are\s+|both\s+|all\s+)?(?:with|by|from|on)\s+(\S.*?)(?:,|:|$)", head,
                  re.IGNORECASE)
    if m is None:
        return None
    kinds = {c.category for c in find_categories(m.group(1))}
    names = {str((a.get("args") or {}).get("merchant")) for a in plan["acts"] if (a.get("args") or {}).get("merchant")}
    if len(kinds) != 1 or len(names) != 1 or next(iter(names)).lower() not in m.group(2).lower():
        return None
    return next(iter(names)), next(iter(kinds))


def _merchant_again(words: str, acts: list[dict[str, Any]], ctx: Context, category: str | None = None) -> str | None:
    """"with austrian too", "again with lufthansa": a word that begins the name of exactly one merchant already on
    the user's claims or in this plan is that merchant."""
    known = {str(line.get("merchant") or "") for claim in ctx.claims for line in claim.lines}
    known |= {str((a.get("args") or {}).get("merchant") or "") for a in acts}
    if (code := re.search(r"\d\s+([A-Z]{2,5})\W*$", words)) and code.group(1) in known and category is not None and {
            str(line.get("category")) for claim in ctx.claims for line in claim.lines if line.get("merchant") == code.group(1)
    } | {str((a.get("args") or {}).get("category")) for a in acts
         if (a.get("args") or {}).get("merchant") == code.group(1)} == {category}:
        return code.group(1)  # "flight home today 198 ITA" beside the outbound flight "with ITA": that airline again
    said = re.search(r"\b(?:with|by|on|again|also)\s+([^\W\d_]{4,})\b(?:\s+(?:too|again|as\s+well))?", words, re.IGNORECASE)
    if said is None:
        return None
    word = said.group(1).casefold()
    hits = {name for name in known if name and name.split()[0].casefold() == word}
    return hits.pop() if len(hits) == 1 else None


def _name_after_amount(words: str) -> str | None:
    """"dinner tue 71 augustiner": one or two words after the amount that are no English word, day, month, place,
    currency or chat shorthand are who was paid (kept as written, capitalised)."""
    from registries.currencies import english_frequency

    from ..naming import city_aliases
    from .audit import _MONTHS, _WEEKDAYS

    tail = re.search(r"\d[\d.,]*\s+([^\W\d_]{4,}(?:\s+[^\W\d_]{3,})?)\W*$", words)
    if tail is None:
        return None
    tokens = tail.group(1).split()
    if any(english_frequency(t) > 1e-7 or t.lower() in _WEEKDAYS or t.lower() in _MONTHS or t.lower() in _SHORTHAND
           or t.lower() in _EACH_ABROAD or t.lower() in ("roundtrip", "oneway", "rtn")  # ("$318 roundtrip")
           or t.lower() in lexicon.FILLER  # ("taxi 20 спасибо")
           or city_aliases(t) or currencies_named(t) for t in tokens):
        return None
    return " ".join(t if not t.islower() else t.capitalize() for t in tokens)


# words that never describe what an expense was on their own: who paid, or a day's short name
_NO_DESCRIPTION = re.compile(r"\W*(?:she|he|they|i|we|it|you|i'?ve|i'?m|i'?d|i'?ll|we'?ve|we'?re|her|his|my|our|their|me|us|"
                             r"them|so|then|also|and|mo|di|mi|do|fr|sa|so|"
                             # the articles and "on" of the languages people mix in ("le 1er décembre déjeuner …",
                             # "am Montag Taxi …"): no words of what it was
                             r"the|le|la|les|l|el|los|las|il|lo|der|die|das|den|am|im|de|het|op|w|na|el|o|a|os|as|en)\W*",
                             re.IGNORECASE)
_CURRENCY_LAST = re.compile(r"(?<=[^\W\d_])\s+(?:euros?|eur|pounds?|dollars?|francs?|chf|gbp|usd)\s*$", re.IGNORECASE)
# "at Curry 36", "at Café 1900": a name said after "at" that ends in a whole number
_NAME_NUMBER = re.compile(r"(?i:\b(?:(?:breakfast|brunch|lunch|dinner|supper|drinks|coffee|meal)\s+(?:at|@)|hotel|hostel|"
                          r"restaurant|caf[eé]|bar))\s+(?:the\s+)?([A-Z][^\W\d_]*(?:['’][^\W\d_]+)?\s+\d{1,4})(?![\d.,]*\d)"
                          r"(?!\s*(?:€|eur|euros?|[$£]))")


def _name_with_number(words: str, args: dict[str, Any]) -> str | None:
    """The name with a number a line was told at, when that number is not its amount (values.find_amounts keeps it
    out of the amounts only when the words give their price as money elsewhere), nor a count ("hotel Ibis 2 nights")."""
    m = _NAME_NUMBER.search(words)
    unit = re.match(r"\s*([^\W\d_]+)", words[m.end():]) if m else None
    if m is not None and re.match(r"\s*(?:[:.]\d|,\d\d\b|(?:am|pm|h)\b|of\s|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|"
                                  r"(?:st|nd|rd|th)\b|[^\W\d_]+s\b)", words[m.end():], re.IGNORECASE):
        return None  # "at Vapiano 1 Dec", "at Luigi 8pm", "at Nobu 2 of us", "at Pret 2 sandwiches", "Mandu 18,40": no name's
        # figure
    if m is not None and (re.match(r"\s*(?:per|a|an|each|/)\s*(?:night|nite|nt|day|person)?\b", words[m.end():], re.IGNORECASE)
                          or re.match(r"(?i)(?:hotel|hostel)\b", m.group(0)) and not re.search(
                r"(?i)\b\d+\s*(?:nights?|nts?|nites?)\b", words)):
        return None  # "hotel Ibis 89 per night, 178.00 total": a rate; a hotel's name with a figure only beside its nights
    if m is None or (unit and unit.group(1).lower() in lexicon.QUANTITY_UNITS) or args.get("amount") is None or Decimal(m.group(1).rsplit(" ", 1)[1]) == Decimal(str(args["amount"])):
        return None
    return m.group(1)


_CAPITALISED_AFTER_MEAL = re.compile(
    r"\b(?:breakfast|brunch|lunch|dinner|supper)\s+(?:at\s+)?(?P<name>[A-Z][\w'’&.-]*(?:\s+(?:[A-Z][\w'’&.-]*|chez|de|du|des|la|"
    r"le|del|della|di|da|am|im|zum|zur|of|the|and|&))*?\s+[A-Z][\w'’&.-]*)\s+(?:[€$£]\s?)?\d")


def _capitalised_after_meal(words: str) -> str | None:
    """"dinner Comme chez Soi 96": a name of several words, the first and last capitalised, between a meal and its
    price, is where it was eaten."""
    m = _CAPITALISED_AFTER_MEAL.search(words)
    if m is None or len(m.group("name")) > 60 or find_dates(m.group("name"), date(2026, 1, 1)) or any(
            w.casefold() in _NOT_A_NAME for w in m.group("name").split()):
        return None  # "lunch Mon Nov 30 14": a day, not a place
    return m.group("name")


_NOT_A_NAME = frozenset("mon tue tues wed thu thur thurs fri sat sun jan feb mar apr may jun jul aug sep sept oct nov dec "
                        "eur usd gbp chf sek nok dkk pln czk today yesterday".split())


def _name_after_meal(words: str) -> str | None:
    """"dinner wednesday dishoom forty one pounds twenty", "lunch nordsee wed 14.90": one word between a meal (and its
    day) and the amount (after its day), or between a hotel and its nights or price ("hotel inntel 2 nts …"), that
    is no English word, day, month, place, currency or shorthand, nor a slip of one, is where it was eaten."""
    from rapidfuzz.distance import DamerauLevenshtein

    from registries.currencies import english_frequency

    from ..naming import city_aliases
    from .audit import _MONTHS, _WEEKDAYS

    m = re.search(r"\b(?:breakfast|brunch|lunch|dinner|supper|coffee|drinks)\s+(?:(?:on\s+)?[a-z]+\s+)?(?:at\s+)?"
                  r"([^\W\d_]{4,})\s+(?:(?:on\s+)?(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?\s+)?"
                  r"(?:(?:chf|eur|gbp|usd|sek|nok|dkk|pln|czk)\s?)?(?:[€$£]\s?\d|\d|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                  r"thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
                  r"eighty|ninety|hundred)\b)", words, re.IGNORECASE)
    if m is None:
        m = re.search(r"\b(?:hotel|htl|hostel)\s+([^\W\d_]{3,})\s+(?=(?:for\s+)?\d+\s*(?:nights?|nites?|nts?|n)\b)",
                      words, re.IGNORECASE)  # "hotel inntel 2 nts wed+thu 256 tot": where the nights were
        if m is not None and m.group(1).casefold() in _PLACE_WORDS:
            return None  # "hotel zentrum 2 nights": where the hotel is, not its name
    if m is None:
        return None
    token = m.group(1)
    low = token.casefold()
    known = set(_WEEKDAYS) | set(_MONTHS) | _SHORTHAND | set(lexicon.CATEGORY_WORDS) | {
        "today", "tonight", "yesterday", "tomorrow", "yday", "tmrw", "morning", "afternoon", "evening", "night", "noon",
        "midday", "lunchtime", "restaurant", "station", "airport", "hotel", "office", "venue"}
    if english_frequency(low) > 0 or low in known or city_aliases(token) or currencies_named(token) or any(
            DamerauLevenshtein.distance(low, k) <= 2 for k in known if len(k) >= 4):
        return None  # an English word, a day, a kind, or a slip of one ("resturant", "yestrday")
    return token if not token.islower() else token.capitalize()


# where a hotel is, in the languages people mix in ("hotel bahnhof 2 nights 190"): no hotel's name
_PLACE_WORDS = frozenset("zentrum centrum centro center centre city mitte bahnhof hauptbahnhof hbf flughafen airport "
                         "aeroporto aeropuerto aéroport aeroport lufthavn flygplats lotnisko messe fair station gare estación "
                         "estacion stazione altstadt downtown midtown uptown old town district area near nahe am an der "
                         "plaza platz piazza strand beach port hafen harbour harbor".split())
# "each" in the languages people mix in ("3 noites a 145 cada"): never who was paid
_EACH_ABROAD = frozenset("cada chaque ogni jeweils cadauno cadascuno chacun chacune stuk stück".split())
_SHORTHAND = frozenset("pls plz thx thanks thnx asap tmrw tmr tomo yday ystd cheers".split())


# what the clause reader says when it could read no request whole (it did not ask something it knows is missing)
_READ_NOTHING = re.compile(r"^I did not understand|has more than one amount|names more than one date|^I was not sure|"
                           r"^I could not place|^I could not match the day|^You wrote “|may take something back")


def _acted_or_answered(answer: str) -> bool:
    """Did the reading propose an act, ask for reads, keep a question open, answer a question, or ask for something it
    knows is missing ("How much was the taxi?", "I could not work out the date")? Then the other readers keep out."""
    data = json.loads(answer)
    plan = data.get("plan")
    if not isinstance(plan, dict):
        return True
    if plan.get("acts") or plan.get("undo") or plan.get("constraints"):
        return True
    # a question kept open counts, unless it only says what could not be read ("names more than one date"): then
    # the other readers may still read the message whole, and the question stands if they cannot
    return any(not _READ_NOTHING.search(a.get("text", "")) for a in plan.get("answers", [])) or (
        bool(plan.get("pending")) and not plan.get("answers"))


def _in_users_words(answer: str, spelled: Spelled, earlier: Spelled) -> str:
    """Every evidence quote of the plan, read on the spelled-out text, given back in the user's own words."""
    if spelled.text == spelled.original and earlier.text == earlier.original:
        return answer
    data = json.loads(answer)
    plan = data.get("plan")
    if not isinstance(plan, dict):
        return answer
    for act in plan.get("acts", []):
        act["evidence"] = spelled.original_quote(act["evidence"])
        if act.get("earlier_evidence"):
            act["earlier_evidence"] = earlier.original_quote(act["earlier_evidence"])
    for part in ("retractions", "corrections", "constraints"):
        for item in plan.get(part, []):
            item["evidence"] = spelled.original_quote(item["evidence"])
    if plan.get("undo"):
        plan["undo"]["evidence"] = spelled.original_quote(plan["undo"]["evidence"])
    for item in plan.get("answers", []):
        item["question"] = spelled.original_quote(item.get("question", ""))
        item["text"] = re.sub(r"“([^”]*)”", lambda m: f"“{spelled.original_quote(m.group(1))}”", item["text"])
    return json.dumps(data, ensure_ascii=False)


def _interpret(ctx: Context, request: Any) -> str:
    if getattr(request, "repair_error", None):
        return _plan([], answers=[_answer(ctx.message, "I could not turn that into a valid request, so I left "
                                                       "everything as it is. Could you say it more simply? "
                                          + CAPABILITIES)])
    if "\x00" in ctx.message:  # no quote may carry it, and no answer can be built around it
        return _not_understood(ctx, None)
    if (follow := follow_up(ctx)) is not None:
        return plan_json(follow)
    reader = Reader(ctx)
    intents = _forgotten_lines(reader, reader.read(split(ctx.message, ctx.today)), ctx)
    intents = _removal_of_the_thing_before(reader, intents, ctx)
    if any(not isinstance(i, (UnknownIntent, ContextIntent)) for i in intents):
        # beside a request it understood, a sentence that asks for nothing ("I've been going through my receipts
        # on the plane") is talk, not a request it failed to read; one with a value or a verb still counts
        opening = all(i.act == "open_claim" for i in intents if isinstance(i, ActIntent)) and any(
            isinstance(i, ActIntent) for i in intents)
        adding = any(isinstance(i, ActIntent) and i.act == "add_line" for i in intents)
        intents = [ContextIntent(i.start, i.end) if isinstance(i, UnknownIntent) and (
            _just_talk(i.quote(ctx.message), ctx) or _small_talk(i.quote(ctx.message), ctx)
            or opening and _about_the_trip(i.quote(ctx.message), ctx) or _newcomer(i.quote(ctx.message), ctx)
            or _reason(i.quote(ctx.message), ctx, adding)) else i for i in intents]
    intents = _merchant_alone(intents, ctx)  # (before the asides: ", also Deutsche Bahn" names a line as well)
    intents = [ContextIntent(i.start, i.end) if _aside(i, intents, ctx) else i for i in intents]
    intents = _someone_elses_among_the_added(intents, ctx)
    intents = _kept_rows(intents, ctx)
    intents = _same_thing_another_day(intents, ctx)
    intents = _kind_told_for_the_last(intents, ctx)
    intents = _taken_back_as_told(intents, ctx)
    intents = _asked_once(intents)
    _return_leg_of_the_same(intents, ctx)
    _held_while_asked(intents, ctx)
    _stay_told_twice(intents, ctx)
    intents = _unread_taken_back(intents, ctx)
    unknown = [i for i in intents if isinstance(i, UnknownIntent)]
    if unknown:
        return _not_understood(ctx, unknown[0])
    meaningful = [i for i in intents if not isinstance(i, ContextIntent)]
    if not meaningful:
        greeting = any(isinstance(i, ContextIntent) and i.greeting for i in intents)
        thanks = any(isinstance(i, ContextIntent) and i.thanks for i in intents)
        if greeting or thanks:
            text = ("You are welcome. " if thanks and not greeting else "Hello! ") + CAPABILITIES
            return _plan([], answers=[_answer(ctx.message, text)])
        if not re.search(r"\d", ctx.message) and any(OTHERS_PAID_IT.search(i.quote(ctx.message)) or NOT_CLAIMED.search(
                i.quote(ctx.message)) for i in intents):
            # "tuesday dinner was paid by my colega Jonas so nothing from me for that one": nothing to add, said so
            kinds = {c.category for c in find_categories(ctx.message)}
            on_claim = [c for c in ctx.open_claims if any(line.get("category") in kinds for line in c.lines)]
            text = f"{_NOT_YOURS}, so I added nothing for it." + (
                " If it is on the claim already, say which line to remove (“remove line 3”)." if on_claim else "")
            return _plan([], answers=[_answer(ctx.message, text)])
        return _not_understood(ctx, None)
    problem = _link(intents, ctx)
    if problem is not None:
        return _not_understood(ctx, problem)
    _check_offered(intents, ctx)
    reads = _reads(intents)
    if reads and not ctx.has_rounds and ctx.reads_allowed:
        return json.dumps({"reads": reads[:max(ctx.calls_left, 1)]}, ensure_ascii=False)
    return _compose(intents, ctx)


# --------------------------------------------------------------------------- linking


# a removal with no line of its own: "please remove", "remove it", "take it off", "delete that one"
_BARE_REMOVAL = re.compile(r"^\W*(?:(?:so|and|then|pls|please|can\s+you|could\s+you|just)\W+)*(?:remove|delete|drop|take|cancel|"
                           r"strike|scratch)(?:\s+(?:it|that|this|them|that\s+one|this\s+one))?(?:\s+(?:off|out))?"
                           r"(?:\s+(?:please|pls|thanks|thank\s+you))?\W*$", re.IGNORECASE)


def _removal_of_the_thing_before(reader: Reader, intents: list[Intent], ctx: Context) -> list[Intent]:
    """"Sorry, the Orlen fuel — the company card paid it, so it must not be in my claim. Please remove": the line is
    named first, the reason after it, the request last. The removal is read again with the words from where the thing
    was named; taken only when that names one line (the words between stay the removal's evidence, whole)."""
    for i, intent in enumerate(intents):
        if not (isinstance(intent, ActIntent) and intent.act == "remove_line" and intent.problem
                and _BARE_REMOVAL.match(intent.quote(ctx.message))):
            continue
        before = [j for j in range(i) if not isinstance(intents[j], ActIntent) or (
            intents[j].problem and not intents[j].args and intents[j].act == "add_line")]  # "the company card paid it"
        if not before or before != list(range(i)):
            continue  # only when nothing else was asked before it
        # each part before it read alone: exactly one names a line, and no other part names anything
        lines, others = set(), False
        for j in before:
            part = intents[j]
            alone = reader._remove(part.quote(ctx.message), part.start, part.end)
            kinds = {c.category for c in find_categories(part.quote(ctx.message)) if not c.weak}
            if len(kinds) > 1:
                others = True  # "now I see the hotel was paid by our travel office": which of the two?
            elif isinstance(alone, ActIntent) and not alone.problem:
                lines.add(str(alone.args.get("line")))
            elif find_categories(part.quote(ctx.message)) or merchants_in(part.quote(ctx.message), ctx.message):
                others = True  # "I returned the Sixt car. I paid the fuel with the company card. Please remove"
        if len(lines) != 1 or others:
            continue
        first = intents[before[0]]
        again = reader._remove(ctx.message[first.start:intent.end], first.start, intent.end)
        if isinstance(again, ActIntent) and not again.problem and str(again.args.get("line")) in lines:
            return [again] + intents[i + 1:]
    return intents


def _someone_elses_among_the_added(intents: list[Intent], ctx: Context) -> list[Intent]:
    """"dinner 84, the meal was on the client, don't add": a thing said to be someone else's, beside expenses added in
    the same message, is no aside unless it names a kind none of them is ("taxi 18,20, dinner was on the client"):
    which one it is, is asked (never added)."""
    added = {str(i.args.get("category")) for i in intents if isinstance(i, ActIntent) and i.act == "add_line"}
    if not added:
        return intents
    out: list[Intent] = []
    for i in intents:
        said = i.quote(ctx.message) if isinstance(i, ContextIntent) else ""
        if said and (OTHERS_PAID_IT.search(said) or PAID_BY_ANOTHER.match(said)) and not re.match(
                r"\W*(?:(?:it|that|which|this|so|and)\s+)*(?:was|were|is|'s)\b", said, re.IGNORECASE) and (
                not (kinds := {c.category for c in find_categories(said) if not c.weak}) or kinds & added) and not (
                _named_apart(said, intents, ctx)):
            out.append(UnknownIntent(i.start, i.end))
        else:
            out.append(i)
    return out


def _named_apart(said: str, intents: list[Intent], ctx: Context) -> bool:
    """Does the thing said to be someone else's name itself apart from every expense added beside it ("Lunch was
    catered by the client" beside "a coffee and a bagel … $11.25": a lunch, not the coffee)?"""
    quotes = [i.quote(ctx.message).lower() for i in intents if isinstance(i, ActIntent) and i.act == "add_line"
              and i.args.get("category") in (None, "meals")]  # (a hotel beside it names no meal: "lunch" is apart)
    return meal_named_apart(said, quotes)


def _just_talk(text: str, ctx: Context) -> bool:
    """No amount, day, line, claim, action verb, negation or question word: nothing to act on or answer."""
    if re.fullmatch(r"\W*(?:so\s+|and\s+)?(?:what\s+do\s+you\s+(?:think|say|suggest|reckon)|any\s+ideas?|what\s+should\s+i\s+(?:do|put))"
                    r"(?:\s+(?:then|now))?[\s?;.!]*", text, re.IGNORECASE):
        return True  # "… it was 35 or 53, I am not sure. What do you think?": the doubt told is what the reply answers
    if re.search(r"\d", text) or find_dates(text, ctx.today) or find_line_refs(text) or "?" in text:
        return False
    if re.match(r"^\W*(?:before|after|when|once|until|so\s+that)\s+(?:i|we)\b", text, re.IGNORECASE) and not (
            find_mention(text, ctx.claims)):
        return True  # "Before I send this I want to get a sense of it — how many lines …": a preface
    if _AMOUNT_SOURCE.match(text):
        return True  # "make it 205 kronor then, that's what the bank took": where the figure came from
    if NEWCOMER.fullmatch(text):
        return True  # "hi new here", "I am new in the company and this is my first expense claim": who is writing
    if verb_of(text)[0] is not None:
        return False
    lowered = text.lower()
    return not re.search(r"\b(?:don'?t|dont|do\s+not|never|not|no|what|which|how|when|why|whether|can|could|"
                         r"would)\b", lowered) and not any(w in lexicon.UNKNOWN_ACTION_VERBS
                                                           for w in re.findall(r"[a-z]+", lowered))


# what small talk may hold and a request or a take-back never lacks: a thing pointed at, a cue to act or to undo
_POINTS_OR_ASKS = re.compile(
    r"\b(?:it|that|them|those|these|one|ones|same|again|both|other|others|last|previous|everything|rest|"
    r"please|pls|plz|can|could|would|want|wanna|need|needs|like|let'?s|must|have\s+to|make|put|add|claim|"
    r"forget|scrap|scratch|skip|cancel|undo|remove|delete|drop|ignore|leave|instead|actually|wrong|mistake|typo|"
    r"correct\w*|only|just|not|no|never|none|nothing|n't|nope|wait|sorry|oops|submit|send|withdraw)\b|n't\b|"
    r"[?€$£¥]", re.IGNORECASE)
_IDIOM_NEGATED = re.compile(r"\b(?:don'?t|do\s+not)\s+(?:ask|worry|judge|laugh)\b", re.IGNORECASE)
_TIME_UNITS = r"(?:seconds?|minutes?|mins?|hours?|hrs?|years?|weeks?|months?|kids?|children)"


def _small_talk(text: str, ctx: Context) -> bool:
    """A sentence of the user's day beside a request ("the kids' school had a fire drill this morning and pickup was
    total chaos, don't ask", "the wifi keeps dropping every five minutes"): six words or more, and nothing in it a
    request or a take-back needs: no figure, currency, kind of expense, line, claim, thing pointed at ("it", "that
    one", "the last"), cue to act or undo ("please", "forget", "actually", "not"), question, nor a verb leading it."""
    words = re.findall(r"[^\W\d_][\w'’-]*", text)
    bare = _IDIOM_NEGATED.sub(" ", text)
    spoken = rf"\b(?:{'|'.join(lexicon.NUMBER_WORDS)})\b(?!\s+{_TIME_UNITS}\b)"
    if len(words) < 6 or re.search(r"\d", text) or _POINTS_OR_ASKS.search(bare) or re.search(spoken, text, re.I):
        return False
    if find_categories(text) or find_line_refs(text) or find_mention(text, ctx.claims) or currencies_named(text):
        return False
    verb, at = verb_of(text)
    return verb is None or at > 0
# where a figure came from, said after it: "that's what the bank took", "it's what my card statement shows"
_AMOUNT_SOURCE = re.compile(r"^\W*(?:(?:and|so|as|because)\s+)?(?:that'?s|that\s+is|it'?s|it\s+is|which\s+is|this\s+is)\s+what\s+"
                            r"(?:the\s+|my\s+|our\s+)?(?:bank|card|credit\s+card|card\s+statement|statement|receipt|app|account|"
                            r"invoice)\s+(?:took|charged|says|said|shows|showed|debited|billed|reads|has)\W*$", re.IGNORECASE)
# a reason told beside a request: a statement with its own subject about the thing just named ("i'll pay that one
# myself", "i paid it on my card", "it was for the client"), after an optional "because"/"since"/"as"
_REASON = re.compile(r"^\W*(?:(?:because|since|as|cos|coz|cause|and|so)\s+)?(?:i|i'?ll|i'?ve|i'?m|i'?d|we|we'?ll|we'?ve|"
                     r"it|it'?s|its|that|this|they|the\s+(?:company|client|firm|office))\b.*\b(?:it|that(?:\s+one)?|"
                     r"this(?:\s+one)?|them|those)\b", re.IGNORECASE | re.DOTALL)
# what the user says they will do themselves ("i'll upload the receipts separately", "we will sort the rest later"),
# and talk of the receipts ("receipts to follow", "i have the invoice for all of them"): asides, not requests
_PROMISE = re.compile(r"^\W*(?:(?:and|also|but|ok|okay|then)\s+)?(?:i|we)(?:'ll|’ll|ll|\s+will|\s+shall|'m\s+going\s+to|"
                      r"\s+am\s+going\s+to|\s+are\s+going\s+to|\s+gonna)\b", re.IGNORECASE)
# how or where it was paid ("paid at checkout", "paid by card", "settled it at the front desk"): no expense of its own
_HOW_PAID = re.compile(r"^\W*(?:(?:and|but|which|that|it|i|we)\s+)*(?:was\s+)?(?:paid|payed|settled|charged)\s+(?:it\s+|that\s+|"
                       r"for\s+it\s+|in\s+full\s+)?(?:at\s+(?:the\s+)?(?:checkout|check-out|check\s+out|reception|front\s+desk|desk|"
                       r"counter|till|register|end|station|machine|airport)|on\s+(?:arrival|departure|check-?out|my\s+(?:card|"
                       r"visa|amex|mastercard|credit\s+card|debit\s+card))|in\s+cash|cash|by\s+(?:card|credit\s+card|debit\s+card|"
                       r"cash)|with\s+(?:my\s+)?(?:card|credit\s+card|debit\s+card|visa|amex|mastercard|apple\s+pay|google\s+pay|"
                       r"cash|phone))(?:\s+(?:mind|tho|though|btw|anyway|as\s+usual))?\W*$", re.IGNORECASE)
# the receipts, where they are or what the user will do with them
_RECEIPTS_KEPT = re.compile(r"^\W*(?:(?:and|also|btw|ps|oh)\W+)*(?:the\s+|my\s+|all\s+(?:the\s+)?)?(?:original\s+|paper\s+)?(?:receipts?|"
                            r"invoices?|paperwork)\b(?:\s+(?:are|is|will|I|we|i'?ll|go|to)\b)?|^\W*(?:i|we)(?:'ll|\s+will|\s+can|"
                            r"\s+shall)?\s+(?:upload|scan|send|email|e-mail|forward|hand\s+in|post|bring|drop\s+off)\s+(?:the\s+|my\s+|all\s+)?"
                            r"(?:rest\s+of\s+the\s+)?(?:receipts?|invoices?|them|paperwork|details|figures|numbers)\b",
                            re.IGNORECASE)  # "I'll send the details over in a sec": what the user will do
_LATER = re.compile(r"(?:tonight|tomorrow|later|today|this\s+evening|next\s+week)", re.IGNORECASE)
_RECEIPTS = re.compile(r"\b(?:receipts?|invoices?|paperwork|scans?|pdfs?)\b", re.IGNORECASE)
# words of a reason that change what an addition means (the expense is not the company's), or that ask for something
_REASON_ALTERS = re.compile(r"\b(?:not|n't|never|no|myself|personal\w*|private\w*|own|company|client|firm|office|half|"
                            r"split|shared|instead|actually|sorry|wrong|forget|want|need|like|please|pls|can|could|"
                            r"should|must|let'?s|have\s+to)\b|n't\b", re.IGNORECASE)
# beside an addition, a reason told of someone else ("they paid for it", "he covered it") may mean it is not the user's
_SOMEONE_ELSE = re.compile(r"^\W*(?:(?:because|since|as|cos|coz|cause|and|so)\s+)?(?:they|he|she|the\s+\w+|"
                           r"[A-Z]\w+)\b|.*\bby\s+(?:them|him|her|someone|somebody)\b", re.IGNORECASE | re.DOTALL)
# the past of paying and going, which tell how the expense happened, not what to do
_NARRATED = re.compile(r"\b(?:paid|pay|took|bought|spent|got|had|used|put)\b", re.IGNORECASE)


def _reason(text: str, ctx: Context, adding: bool) -> bool:
    """A reason or an aside beside a request it understood ("drop the coffee, i'll pay that one myself"): nothing
    to act on or answer. Beside an addition, one that says whose expense it is ("the company paid it") is no aside."""
    if _HOW_PAID.match(text) and not re.search(r"\d", text) and not find_mention(text, ctx.claims):
        return True
    if _RECEIPTS_KEPT.search(text) and not re.search(r"\d|\?|\b(?:claim|report|add|remove|delete)\b", text, re.IGNORECASE) \
            and not find_mention(text, ctx.claims) and all(_LATER.fullmatch(d.text.strip()) for d in find_dates(
                text, ctx.today)):
        return True  # "receipts are in me bag, I'll upload them tonight": where the receipts are, or what the user does
    if not (_REASON.match(text) or _PROMISE.match(text) or _RECEIPTS.search(text)) or re.search(r"\d", text) or "?" in text or find_dates(text, ctx.today) or \
            find_line_refs(text) or find_mention(text, ctx.claims):
        return False
    if adding and (_REASON_ALTERS.search(text) or _SOMEONE_ELSE.match(text)) or re.search(
            r"\b(?:want|need|like|please|pls|can|could|let'?s)\b", text, re.IGNORECASE):
        return False
    return verb_of(_NARRATED.sub(lambda m: " " * len(m.group(0)), text))[0] is None


# the words that may lead a name told on its own beside an expense (", also TAP", "again with Lufthansa"), and the
# narration around it ("I bought a Migros sandwich")
_ALONE_LEAD = re.compile(r"^\W*(?:(?:and|also|again|plus|too|both|all)\s+)*(?:(?:with|at|from|by|via|paid\s+to|to)\s+)?",
                         re.IGNORECASE)
_NARRATION = frozenset("i we bought got had paid took a an the some my our it was".split())


# "forget the sim card", "scrap the second taxi": a take-back of a thing by its name
_FORGET_THE = re.compile(r"^\W*(?:(?:ok(?:ay)?|oh|and|also|actually|please|pls)[,\s]+)*(?:forget|scrap|scratch|ditch|drop|"
                         r"bin|lose)\s+(?:about\s+)?(?:the|that|my)\s+[^\W\d_][^.!?\n]{1,60}?\W*$", re.IGNORECASE)


_RETURN_LEG = re.compile(r"\b(?:the\s+)?(?:return|returning)\s+(?P<noun>flight|train)\b|\b(?:the\s+)?(?P<noun2>flight|train)\s+"
                         r"(?:back|home)\b", re.IGNORECASE)


# the way back said with a name, a route or a person of its own: no airline to take from the way out
_OWN_LEG = re.compile(r"\(|\bon\s+(?!(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|the\b|\d)|\b(?:via|with|by|from|through|booked|"
                      r"different|another|other|separate|colleague|boss|his|her|their|its)\b|'s\b", re.IGNORECASE)


def _return_leg_of_the_same(intents: list[Intent], ctx: Context) -> None:
    """"the Austrian Airlines flight from Brussels on Monday, 312.40 euros, and the return flight on Thursday at 298.90":
    the return flight, told with no name of its own right after the one flight out of this message that has one, is
    that trip's way back: the same airline (or railway)."""
    added = [i for i in intents if isinstance(i, ActIntent) and i.act == "add_line" and not i.problem]
    for n, intent in enumerate(added):
        words = intent.quote(ctx.message)
        m = _RETURN_LEG.search(words)
        after = words[m.end():] + " " + re.split(r"[.!?;\n]", ctx.message[intent.end:])[0] if m else ""
        if m is None or intent.args.get("merchant") or intent.args.get("category") != "travel" or _OWN_LEG.search(
                words) or _OWN_LEG.search(after) or re.search(
                r"\b(?!(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\b)[A-Z][\w'’-]+",
                after):
            continue  # "…, return flight Wednesday 98.90 (Widerøe)", "… on Wizz", "my colleague's return flight"
        noun = (m.group("noun") or m.group("noun2")).lower()
        out = [i for i in added[:n] if i.args.get("category") == "travel" and re.search(
            rf"\b{noun}\b", i.quote(ctx.message), re.IGNORECASE)]
        if len(out) == 1 and out[0].args.get("merchant") and not _RETURN_LEG.search(out[0].quote(ctx.message)):
            intent.args["merchant"] = out[0].args["merchant"]


def _asked_once(intents: list[Intent]) -> list[Intent]:
    """"Parfait, you can envoyer it. submit please": a claim's submit (or withdraw) asked twice in one message is one
    request; the words of the second are talk beside the first."""
    seen: set[tuple[str, int, str]] = set()
    out: list[Intent] = []
    for intent in intents:
        if isinstance(intent, ActIntent) and intent.act in ("submit_claim", "withdraw_claim") and not intent.problem:
            key = (intent.act, id(intent.claim), json.dumps(intent.ref, sort_keys=True, default=str))
            if key in seen:
                out.append(ContextIntent(intent.start, intent.end))
                continue
            seen.add(key)
        out.append(intent)
    return out


def _forgotten_lines(reader: Reader, intents: list[Intent], ctx: Context) -> list[Intent]:
    """A message that only takes back a thing by its name ("forget the sim card…") when nothing of this message or
    a card is there to take back: the line of the claim that name points to is to be removed (a card asks first)."""
    retracts = [i for i in intents if isinstance(i, RetractIntent)]
    if len(retracts) != 1 or any(not isinstance(i, (RetractIntent, ContextIntent, QuestionIntent)) for i in intents) or (
            ctx.open_cards or ctx.pending):
        return intents  # (a reason and a question beside it: "Forget the coffee, a client bought it. And the limit?")
    said = retracts[0]
    if _FORGET_THE.match(said.quote(ctx.message)) is None:
        return intents
    removal = reader._remove(said.quote(ctx.message), said.start, said.end)
    if isinstance(removal, ActIntent) and not removal.problem and isinstance(removal.args.get("line"), int):
        return [removal if i is said else i for i in intents]
    return intents


# "so don't add that", "please don't include it": said of what was just told
_DONT_ADD_IT = re.compile(r"^\W*(?:(?:so|and|but|please|pls|oh|no|wait|actually|sorry|hmm)\W+)*(?:don'?t|dont|do\s+not|no\s+need\s+to)\s+(?:add|include|claim|put)"
                          r"\s+(?:that|it|this|those|them)(?:\s+one)?(?:\s+(?:in|on|please|pls))?\W*$", re.IGNORECASE)


_NOT_A_THING = frozenset("euro euros with from that this then there their have were paid also just only into".split())


def _taken_back_as_told(intents: list[Intent], ctx: Context) -> list[Intent]:
    """"Breakfast at the hotel 32 - strike the breakfast, it was in the room rate": a removal of no line the claim
    has, naming an expense told earlier in the same message, takes that expense back (it is never added)."""
    out: list[Intent] = []
    for intent in intents:
        if isinstance(intent, NegatedIntent) and _DONT_ADD_IT.match(intent.quote(ctx.message)) and (adds := [
                i for i in out if isinstance(i, ActIntent) and i.act == "add_line" and not i.problem]):
            # "printing of my poster 35 euros - oh wait, the lab paid the poster directly, so don't add that": the
            # expense just told is taken back; when the words between do not say it is that one, nothing is done
            last = adds[-1]
            between = ctx.message[last.end:intent.start].lower()
            told = set(re.findall(r"[a-z']{3,}", last.label)) | set(re.findall(r"[^\W\d_]{4,}", last.quote(ctx.message).lower()))
            others = {w for i in adds[:-1] for w in set(re.findall(r"[a-z']{3,}", i.label)) | set(re.findall(
                r"[^\W\d_]{4,}", i.quote(ctx.message).lower()))}
            named = [w for w in told - _NOT_A_THING - others if re.search(rf"\b{re.escape(w)}", between)]
            elsewhere = [w for w in (others - told) - _NOT_A_THING if re.search(rf"\b{re.escape(w)}", between)]
            kinds = {c.category for c in find_categories(between) if not c.weak}
            if kinds and last.args.get("category") not in kinds:
                elsewhere.append("kind")  # "… hotel 120. wait, the dinner was on the hotel bill, so don't add that"
            if (named and not elsewhere) or not elsewhere and re.fullmatch(r"[\W_]*(?:(?:oh|no|wait|actually|sorry|hmm|hm|um)[\W_]*)*", between):
                out = [i for i in out if not (i.start >= last.end and i.end <= intent.start)]
                out.append(RetractIntent(last.end, intent.end, hint=""))
            else:
                out.append(UnknownIntent(intent.start, intent.end))
            continue
        if isinstance(intent, ActIntent) and intent.act == "remove_line":
            words = intent.quote(ctx.message).lower()
            # with no such line on the claim, any word of the expense told; with one, "the <word>" of it: never a
            # committed removal of another line for an expense the same message tells and takes back
            pattern = r"\b{}\b" if intent.problem else r"\bthe\s+{}\b"
            told = [i for i in out if isinstance(i, ActIntent) and i.act == "add_line" and not i.problem and any(
                re.search(pattern.format(re.escape(w)), words) for w in re.findall(r"[a-z']{3,}", i.label))]
            if len(told) == 1:
                out.append(RetractIntent(intent.start, intent.end, hint=words))
                continue
        out.append(intent)
    return out


def _merchant_alone(intents: list[Intent], ctx: Context) -> list[Intent]:
    """A name told on its own beside an expense of the message (", lufthansa", "also TAP", "I bought a Migros sandwich
    and water …, 9.80", "… the bus back on Wednesday, 249 again, RegioJet.") is who was paid for it, not a second
    expense without an amount. Only when the words beside the name add nothing of another kind: no figure, no day, no
    other category."""
    for orphan in [i for i in intents if isinstance(i, ActIntent) and i.act == "add_line" and i.missing == "amount"
                   and "amount" not in i.args]:
        adds = [i for i in intents if isinstance(i, ActIntent) and i.act == "add_line" and i is not orphan]
        before = [i for i in adds if i.end <= orphan.start]
        other = before[-1] if before else (adds[0] if len(adds) == 1 else None)
        if other is None or other.problem or other.args.get("merchant") or "amount" not in other.args or other.retracted:
            continue
        between = ctx.message[min(orphan.end, other.end):max(orphan.start, other.start)]
        if re.search(r"\w", between) and not re.fullmatch(r"\W*(?:and|also|plus)?\W*", between, re.IGNORECASE):
            continue  # not told side by side
        sentence = [i for i in adds if _same_sentence(ctx.message, i.start, orphan.start)]
        text = orphan.quote(ctx.message)
        rest = text[_ALONE_LEAD.match(text).end():]
        if (told := re.match(r"(.*?[^\W\d_].*?)[.!?;]\s+(?:and\s+)?(?:a|one|my|the)?\s*(?:small\s+|little\s+)?(?:correction|change|fix|"
                             r"update|question|thing|note)\s*:?\s*$", rest, re.IGNORECASE | re.DOTALL)):
            rest = told.group(1)  # "…, also Deutsche Bahn. And a correction:": the name; the heading is the next request's
        names = merchants_in(rest, ctx.message) or merchants_in(text.strip(" ,;.!"), ctx.message)  # ("at Lokál": a name
        # by the word before it)
        if len(names) != 1 or re.search(r"\d", rest) or find_dates(rest, ctx.today):
            continue
        if len(adds) > 1 and sentence != [other] and not (
                (kind := kind_of_merchant(names[0])) and kind == other.args.get("category")
                and sum(1 for i in sentence if i.args.get("category") == kind) == 1):
            continue  # "lunch 25, taxi 30, Vapiano": whose name it is, asked (not "…, the train back 89,90, also
            # Deutsche Bahn": the one expense of the railway's kind)
        left = re.sub(re.escape(names[0]), " ", rest, count=1, flags=re.IGNORECASE)
        kinds = {c.category for c in find_categories(left)}
        words_left = [w for w in re.findall(r"[^\W\d_]+", left.lower()) if w not in _NARRATION]
        if kinds - {other.args.get("category")} or len(words_left) > 2:
            continue
        other.args["merchant"] = names[0]
        other.start, other.end = min(other.start, orphan.start), max(other.end, orphan.end)
        intents = [i for i in intents if i is not orphan]
    return intents


# what may stand beside a day and a price said after an expense ("…, Tuesday night 171.00", "and Wed 146")
_ANOTHER_DAY_WORDS = re.compile(r"^[\W\x00]*(?:(?:and|also|plus|the|on|for|night|nite|evening|same|again|[\x00]+)\W*)*$",
                                re.IGNORECASE)


def _same_thing_another_day(intents: list[Intent], ctx: Context) -> list[Intent]:
    """"Hotel Monday 146.00 and Tuesday 146.00", "Tuesday night 171.00, Wednesday night 171.00": a day and a price said
    right after an expense, with nothing else, is one more of the same kind on that day (the same hotel for a night).
    Only a day within the week after the expense told before it (never a night its stay holds), before today, and a
    price in the same currency, like the first one's (half to one and a half of it); else it stays unread (asked)."""
    out: list[Intent] = []
    for k, intent in enumerate(intents):
        before = out[-1] if out else None
        corrected = k + 1 < len(intents) and isinstance(intents[k + 1], CorrectIntent)  # ("tuesday 150, sorry 140")
        asked = isinstance(intent, ActIntent) and intent.act == "add_line" and intent.problem and intent.args.get(
            "category") in (None, before.args.get("category") if isinstance(before, ActIntent) else None)
        if not ((isinstance(intent, UnknownIntent) or asked) and isinstance(before, ActIntent) and before.act == "add_line"
                and not before.problem and not before.retracted and not before.paid_in
                and {"category", "date", "amount"} <= set(before.args)):
            out.append(intent)
            continue
        said = intent.quote(ctx.message)
        lead = re.match(r"[\W_]*(?:(?:and|plus)\s+)?", said, re.IGNORECASE).end()  # ("+ wed nite 149": the day after the "+")
        text = " " * lead + said[lead:]
        days = find_dates(text[lead:], ctx.today)
        days = [replace(d, start=d.start + lead, end=d.end + lead) for d in days]
        amounts = find_amounts(mask(text, [(d.start, d.end) for d in days]))
        told = date.fromisoformat(str(before.args["date"]))
        day = date.fromisoformat(days[0].value) if len(days) == 1 and days[0].value else None
        if day is None or len(amounts) != 1 or amounts[0].amount is None or (
                amounts[0].currency not in (None, before.currency, before.claim.currency if before.claim else None)) or not (
                told < day < ctx.today) or (
                day - told).days > 6 or not _ANOTHER_DAY_WORDS.match(
                    mask(text, [(d.start, d.end) for d in days] + [(amounts[0].start, amounts[0].end)])) or not (
                _same_sentence(ctx.message, before.end - 1, intent.start) or re.fullmatch(r"[\s,;.]*", ctx.message[
                    before.end:intent.start])):
            out.append(intent)
            continue
        nights = int(before.args.get("quantity") or 1) if before.args["category"] == "hotel" else 1
        if (day - told).days < nights or corrected or not priced_alike(amounts[0].amount, Decimal(str(before.args["amount"]))):
            # ("hotel 2 nites tue 298 + wed 149", "… tuesday 150, sorry 140", "… tuesday 292": the stay's total?)
            out.append(intent)
            continue
        args = {"category": before.args["category"], "date": day.isoformat(), "amount": money_text(amounts[0].amount)}
        if before.args["category"] == "hotel" and before.args.get("merchant"):
            args["merchant"] = before.args["merchant"]  # the night after, at the same hotel
        out.append(ActIntent(intent.start, intent.end, act="add_line", args=args, ref=before.ref, claim=before.claim,
                             currency=before.currency, label=before.label))
    return out


# the kind a user files what they just told under: "- put that under other I suppose", "file it as travel please"
_KIND_FOR_IT = re.compile(r"^\W*(?:(?:and|so|ok|okay)\s+)?(?:please\s+|pls\s+)?(?:put|file|book|log|list|enter|classify|class|"
                          r"categori[sz]e|count|mark)\s+(?:that|it|this)(?:\s+one)?\s+(?:under|in|as|into)\s+(?:the\s+)?"
                          r"(?P<kind>travel|hotel|meals?|taxi|other)(?:\s+category)?(?:\s+(?:i\s+(?:suppose|guess|think)|please|pls|"
                          r"then|maybe))*\W*$", re.IGNORECASE)


def _kind_told_for_the_last(intents: list[Intent], ctx: Context) -> list[Intent]:
    """"Then the fair entry badge on Monday, 95 - put that under other I suppose": the kind the user files the expense
    just told under, never a second expense without an amount."""
    out: list[Intent] = []
    for intent in intents:
        before = out[-1] if out else None
        said = _KIND_FOR_IT.match(intent.quote(ctx.message)) if isinstance(intent, ActIntent) and intent.act == "add_line" \
            and intent.missing == "amount" and "amount" not in intent.args else None
        if said and isinstance(before, ActIntent) and before.act == "add_line" and not before.problem and not (
                before.retracted) and "amount" in before.args and re.fullmatch(r"[\s,;:–—-]*", ctx.message[before.end:intent.start]):
            before.args["category"] = "meals" if said.group("kind").lower().startswith("meal") else said.group("kind").lower()
            before.end = intent.end
            continue
        out.append(intent)
    return out


def _same_sentence(message: str, a: int, b: int) -> bool:
    """Do positions ``a`` and ``b`` of ``message`` lie in one sentence (no full stop, "!", "?" or line break between)?"""
    return not re.search(r"[.!?\n](?:\s|$)", message[min(a, b):max(a, b)])


# "only the uber and the bolt are work": the rows of a pasted list the user keeps, named one by one
_KEEP_ONLY = re.compile(r"\b(?:only|just)\s+(?:the\s+)?(?P<list>[^\W\d_][\w'’-]*(?:\s*(?:,|\band\b|&)\s*(?:the\s+)?"
                        r"[^\W\d_][\w'’-]*)*)\s+(?:ones?\s+)?(?:are|is|were|was|count|for)\b", re.IGNORECASE)


def _kept_rows(intents: list[Intent], ctx: Context) -> list[Intent]:
    """Pasted rows (one a line, each with its amount) under words that keep some of them by name ("only the uber and
    the bolt are work, the rest is personal"): the rows no name matches, and the sentence that filters, are not
    requests. Unclear (a name matching no row, or a row two names match): the intents are left as read (and asked)."""
    message = ctx.message
    if (by_place := rows_kept_by_place(message)) is not None:  # "Work: the first, second and fourth."
        return [ContextIntent(i.start, i.end) if by_place.said[0] <= i.start < by_place.said[1] or (
            any(s <= i.start < e for s, e in by_place.rows) and not any(s <= i.start < e for s, e in by_place.kept))
            else i for i in intents]
    found = _KEEP_ONLY.search(message)
    if found is None:
        return intents
    rows = [(m.start(), m.end()) for m in re.finditer(r"[^\n]+", message) if re.search(r"\d", m.group(0))
            and not m.start() <= found.start() < m.end()]
    if len(rows) < 2:
        return intents
    names = [w.lower() for w in re.split(r"\s*(?:,|\band\b|&)\s*(?:the\s+)?", found.group("list")) if w]
    hits = {row: [n for n in names if re.search(rf"\b{re.escape(n)}", message[row[0]:row[1]], re.IGNORECASE)]
            for row in rows}
    if any(len(named) > 1 for named in hits.values()) or any(not any(n in named for named in hits.values())
                                                             for n in names):
        return intents
    said = next(m.span() for m in re.finditer(r"[^\n]+", message) if m.start() <= found.start() < m.end())
    kept = [row for row, named in hits.items() if named]
    out: list[Intent] = []
    for intent in intents:
        inside = said[0] <= intent.start and intent.end <= said[1]
        left_out = any(s <= intent.start < e for s, e in rows) and not any(s <= intent.start < e for s, e in kept)
        out.append(ContextIntent(intent.start, intent.end) if inside or left_out else intent)
    return out


def _aside(intent: Intent, intents: list[Intent], ctx: Context) -> bool:
    """An addition the reader could not complete that is no expense of its own: a reason beside another request
    ("… 146 eur, and i paid it on my card", "remove the coffee, i got it free"), or a heading that introduces the
    lines told after its colon ("add travel expense: LOT flight 312.40 …")."""
    if not isinstance(intent, ActIntent) or intent.act != "add_line" or not intent.problem or intent.missing not in (
            "amount", "category"):
        return False
    others = [i for i in intents if isinstance(i, ActIntent) and i is not intent]
    words = intent.quote(ctx.message)
    if others and _reason(words, ctx, any(a.act == "add_line" for a in others)):
        return True
    if others and intent.missing == "amount" and _newcomer(words, ctx):
        return True  # "I'm new and my manager said to put my Stockholm trip in here. can you make me a claim? …"
    told = [i for i in others if not i.problem and i.start >= intent.end]
    return bool(told) and ctx.message[intent.end:].lstrip().startswith(":") and not re.search(r"\d", words)


# a question whether an expense may be claimed at all ("Is that something I may claim?", "would the dinner count as a
# meal?", "is a book allowed?"): what it asks about is not added before the user knows
_MAY_CLAIM = re.compile(r"\b(?:may|can|could|might|should|shall)\s+(?:i|we|one)\s+(?:still\s+|also\s+|even\s+)?(?:claim|"
                        r"expense|include|charge|be\s+reimbursed|get\s+reimbursed)\b|\b(?:i|we)\s+(?:may|can|could|might|"
                        r"am\s+allowed\s+to|are\s+allowed\s+to)\s+(?:still\s+|also\s+|even\s+)?(?:claim|expense|include|be\s+"
                        r"reimbursed)\b|\b(?:allowed|permitted|claimable|reimbursable|refundable|eligible|expensable|covered|"
                        r"admissible)\b|\bcounts?\s+as\b|\bqualif(?:y|ies)\b", re.IGNORECASE)
_ASKED_MAY_CLAIM = "whether it may be claimed"
# "… is that ok?", "would that be fine?", "is it too much?", "is this within the policy?": asked about what was told
_OK_ASKED = re.compile(r"\b(?:is|are|would|will|was)\s+(?:that|this|it|these|those|they|(?:the|my|our)\s+(?:[\w'-]+\s+){0,2}?"
                       r"[\w'-]+)\s+(?:be\s+|still\s+|even\s+|really\s+)?(?:ok(?:ay)?|fine|"
                       r"alright|all\s+right|acceptable|too\s+(?:much|high|expensive)|within\s+(?:the\s+)?(?:polic\w*|"
                       r"limits?|rules?|budget))\b", re.IGNORECASE)


def _told_part(message: str) -> str:
    """The sentences of ``message`` that tell, without the questions at its end whether that may be claimed ("taxi
    54 from the airport monday, is that allowed?" → "taxi 54 from the airport monday"); all of it when it only asks."""
    parts = sentences(message)
    told = [(s, e) for s, e, q in parts if not (q and (_MAY_CLAIM.search(message[s:e]) or _OK_ASKED.search(
        message[s:e])))]
    if not told or len(told) == len(parts):
        return message
    return message[told[0][0]:told[-1][1]]


def _held_while_asked(intents: list[Intent], ctx: Context) -> None:
    """An expense told in a message that also asks whether it may be claimed ("… a book for reference, 39 francs. Is
    that something I may claim?"): the addition waits for the user's answer; the question is answered."""
    if "allowed" in ctx.settled:
        return
    asks = [m for m in re.finditer(r"[^.?!\n]*\?", ctx.message) if _MAY_CLAIM.search(m.group(0)) or _OK_ASKED.search(
        m.group(0))]
    if not asks:
        _held_after_a_limit_asked(intents, ctx)
        return
    adds = [i for i in intents if isinstance(i, ActIntent) and i.act == "add_line" and not i.problem and not i.retracted]
    if len(asks) == 1 and re.search(r"\b(?:that|it|this)\b", asks[0].group(0), re.IGNORECASE):
        # "… lunch 12.40 and a taxi 19.20. oh and … dinner wed evening, that was 78 — is that even ok with the meal
        # limit?": "that" is what the question's own sentence told, not the sentences before it
        adds = [i for i in adds if i.start >= asks[0].start()] or adds
    for intent in adds:
        if _asked_about_a_line(intent, ctx):
            continue
        intent.problem = (f"You asked {_ASKED_MAY_CLAIM}, so I did not add “{intent.quote(ctx.message)}” yet. If "
                          "you want it on the claim, tell me to add it (for example “yes, add it”).")
        intent.missing = "allowed"


def _asked_about_a_line(intent: ActIntent, ctx: Context) -> bool:
    """The expense a question is about is a line the claim already has (its kind and amount): the question is answered
    and nothing is offered to add again ("is the almoço for 4 within the policy? it was 118" beside its line)."""
    claim = ctx.default_claim()
    if claim is None or intent.args.get("amount") is None:
        return False
    line = next((ln for ln in claim.lines if ln.get("category") == intent.args.get("category") and str(
        ln.get("amount")) == str(intent.args.get("amount"))), None)
    if line is None:
        return False
    intent.problem = (f"“{intent.quote(ctx.message)[:80]}” is already on “{claim.title}” (line {line.get('ordinal')}), so "
                      "I did not add it again.")
    intent.missing = None
    return True


# a question about a limit of the policy: "Is there a max per day for food?", "what is the hotel limit?"
_LIMIT_ASKED = re.compile(r"\b(?:max(?:imum)?|limits?|cap|allowance|how\s+much\s+(?:can|may|could)\s+(?:i|we))\b",
                          re.IGNORECASE)


def _held_after_a_limit_asked(intents: list[Intent], ctx: Context) -> None:
    """An expense told in the sentence right after a question about a limit, with no word asking to add it ("Is there a
    max per day for food? Tuesday I have lunch and dinner together 58 euro."): what the question is about, not an
    expense to add; the addition waits for the user's word, the question is answered."""
    for ask in re.finditer(r"[^.?!\n]*\?", ctx.message):
        kinds = {c.category for c in find_categories(ask.group(0))}
        if not _LIMIT_ASKED.search(ask.group(0)) or not kinds:
            continue  # (a limit of a kind: what is told of that kind right after is what it asks about)
        nxt = re.match(r"\s*([^.?!\n]*)", ctx.message[ask.end():])
        start, end = ask.end() + nxt.start(1), ask.end() + nxt.end(1)
        if re.search(r"\b(?:add|put|enter|log|include|claim|book|record)\b", ctx.message[start:end], re.IGNORECASE):
            continue
        for intent in intents:
            if isinstance(intent, ActIntent) and intent.act == "add_line" and not intent.problem and \
                    not intent.retracted and start <= intent.start < end and intent.args.get("category") in kinds:
                if _asked_about_a_line(intent, ctx):
                    continue
                intent.problem = (f"You asked about the limit, so I did not add “{intent.quote(ctx.message)}” yet. If "
                                  "you want it on the claim, tell me to add it (for example “yes, add it”).")
                intent.missing = "allowed"


def _unread_taken_back(intents: list[Intent], ctx: Context) -> list[Intent]:
    """A priced thing the reader could not place, taken back straight after by a word of its own ("safety boots 89.00
    -- no, drop boots, ordering via stores", "printed posters 640 Kč - no wait, the university paid them, ignore"):
    nothing to add and nothing to ask; it is said back as left out."""
    out = list(intents)
    for n, intent in enumerate(out):
        if not isinstance(intent, UnknownIntent) or not re.search(r"\d", intent.quote(ctx.message)):
            continue
        after = next((i for i in out[n + 1:] if not isinstance(i, ContextIntent)), None)
        if not isinstance(after, RetractIntent) or re.search(r"[.!?\n]", ctx.message[intent.end:after.start]):
            continue
        told = {w.lower() for w in re.findall(r"[^\W\d_]{4,}", intent.quote(ctx.message))}
        hint = after.quote(ctx.message).lower()
        if not (any(re.search(rf"\b{re.escape(w)}", hint) for w in told) or re.search(
                r"\b(?:them|it|that|those|these)\b", hint)):
            continue
        taken = ActIntent(intent.start, intent.end, act="add_line")
        taken.problem, taken.retracted = "taken back", True
        after.target = taken  # type: ignore[attr-defined]
        out[n] = taken
    return out


# a hotel named as where something was ("a restaurant near the hotel", "taxi to the hotel"): no stay told
_HOTEL_AS_PLACE = re.compile(r"\b(?:near|to|from|at|by|outside|behind|opposite|next\s+to|in\s+front\s+of|back\s+to)\s+(?:the|my|our)\s+"
                             r"hotel\b", re.IGNORECASE)


def _stay_told_twice(intents: list[Intent], ctx: Context) -> None:
    """A stay told twice in one message, once asked about ("OCT 08 HOTEL LE GERMAIN 398.00" pasted, then "the hotel is
    2 nights (6th + 7th), 199/night"): both words are of one stay, so the one read waits with the one asked."""
    stays = [i for i in intents if isinstance(i, ActIntent) and i.act == "add_line" and not i.retracted and (
        i.args.get("category") == "hotel" or i.problem and "category" not in i.args and "hotel" in {
            c.category for c in find_categories(_HOTEL_AS_PLACE.sub(" ", i.quote(ctx.message))) if not c.weak})]
    asked = next((i for i in stays if i.problem), None)
    if asked is None:
        return
    for intent in stays:
        if not intent.problem:
            intent.problem = (f"I did not add “{intent.quote(ctx.message)[:80]}” yet: the same message tells the "
                              f"stay again (“{asked.quote(ctx.message)[:80]}”), and I asked about that.")
            intent.missing = asked.missing


# what a person new to the tool says of themselves: "first time using this system", "never used this before", "it's my
# first claim here 😅", "I'm new and my manager said to put my Stockholm trip in here", "sorry if I do something wrong"
_NEWCOMER_SAID = re.compile(
    r"\b(?:(?:it'?s|this\s+is|that'?s)\s+)?my\s+(?:very\s+)?first\s+(?:time|claim|expense\s+claim|expenses?|report|business\s+trip|"
    r"trip)(?:\s+(?:here|ever|using\s+(?:this|it|the\s+\w+)|with\s+(?:this|the\s+\w+)|doing\s+(?:this|it)))*|"
    r"\b(?:the\s+)?first\s+time\s+(?:here|using\s+(?:this|it|the\s+\w+)(?:\s+\w+)?|doing\s+(?:this|it|expenses)(?:\s+here)?)|"
    r"\b(?:i'?m|i\s+am|im)\s+(?:brand\s+|quite\s+|very\s+|pretty\s+)?new(?:\s+(?:here|to\s+(?:this|it|the\s+\w+)|at\s+the\s+\w+))?|"
    r"\bnew\s+(?:here|on\s+here)|\b(?:i'?ve\s+|i\s+have\s+)?never\s+(?:used|done|tried|made|filed)\s+(?:this|it|one|a\s+claim)"
    r"(?:\s+before)?|\bhaven'?t\s+(?:used|done|tried)\s+(?:this|it|one)(?:\s+before)?|"
    r"\b(?:my\s+)?(?:manager|boss|team\s+lead|colleague)\s+(?:said|told\s+me|asked\s+me)\s+to\s+(?:put|add|enter|do|log)\s+"
    r"(?:my\s+|the\s+)?(?:\w+\s+)?(?:trip|expenses|costs|receipts)(?:\s+in\s+here|\s+here)?|"
    r"\b(?:so\s+)?(?:i'?m\s+)?sorry\s+if\s+i\s+(?:do|get|make)\s+(?:something|anything|it|things?|a\s+mistake|mistakes)(?:\s+wrong)?|"
    r"\b(?:please\s+)?bear\s+with\s+me|\b(?:i\s+)?(?:need|have|want)\s+to\s+(?:claim|do|put\s+in|enter|submit)\s+my\s+"
    r"(?:costs|expenses|receipts)\s+(?:from|for)\s+(?:the|my)\s+[\w\s-]{1,40}?(?=$|[.,;!])", re.IGNORECASE)
# what is left of such words when they asked for nothing: greetings and fillers ("heyy 👋 ok so")
_NEWCOMER_REST = re.compile(r"(?:\W|\b(?:hi+|hey+|hello|hiya|yo|morning|good\s+(?:morning|afternoon|evening)|ok(?:ay)?|so|and|"
                            r"well|um+|uh+|right|also|here|honestly|i\s+think|this|system|app|tool)\b)*", re.IGNORECASE)


def _newcomer(text: str, ctx: Context) -> bool:
    """Words by which a person says they are new to the tool ("hi, never used this before", "heyy 👋 ok so I'm new",
    "First time using this system"), with nothing else in them but greetings: no figure, day, currency, kind of
    expense, line, claim, question or request of their own."""
    said = list(_NEWCOMER_SAID.finditer(text))
    if not said or re.search(r"\d", text) or "?" in text or find_line_refs(text) or currencies_named(text):
        return False
    rest = _NEWCOMER_SAID.sub(" ", text)
    return bool(_NEWCOMER_REST.fullmatch(rest)) and not find_mention(rest, ctx.claims)


def _about_the_trip(text: str, ctx: Context) -> bool:
    """Beside a request that only opens a claim, words about the trip it is for ("need to do expenses for my Oslo
    trip this week (mon-wed, site visit)"): its days belong to no line, so only a figure, a line, a claim of the
    user's, a question or a request of its own keeps it from being talk."""
    days = find_dates(text, ctx.today)
    rest = "".join(" " if any(d.start <= n < d.end for d in days) else ch for n, ch in enumerate(text))
    if re.search(r"\d", rest) or find_line_refs(text) or "?" in text or find_mention(text, ctx.claims) or (
            find_categories(rest)) or currencies_named(rest):
        return False  # "…, taxi yesterday": an expense, not the trip; "not in euros": the claim's currency
    # "… before the weekend so I don't forget half of it": why the user writes now, no take-back
    rest = re.sub(r"\b(?:so\s+(?:that\s+)?(?:i|we)\s+|before\s+(?:i|we)\s+)(?:don'?t|do\s+not|won'?t)\s+forget\b", " ", rest,
                  flags=re.IGNORECASE)
    verb, at = verb_of(rest)
    # "starting my expenses for …": the opening told as what the user is doing, not a second claim asked for
    telling = verb == "open" and re.match(r"[a-z]+ing\b", rest[at:], re.IGNORECASE) and not re.search(
        r"[\"“”]|\bclaims?\b", rest, re.IGNORECASE)
    return (verb is None or bool(telling)) and not re.search(r"\b(?:don'?t|dont|do\s+not|never|not|no)\b", rest,
                                                             re.IGNORECASE)


def _link(intents: list[Intent], ctx: Context) -> Intent | None:
    """Attach retractions and corrections to the act they follow; returns one that fits nothing."""
    seen: list[ActIntent] = []
    for intent in intents:
        if isinstance(intent, ActIntent):
            seen.append(intent)
        elif isinstance(intent, RetractIntent):
            if not seen:
                continue  # "never mind" on its own: nothing in this message to take back
            target = _retraction_target(intent, seen, ctx.message)
            if target is None:
                return intent  # "lunch 14,50 and taxi 22, oh and forget the snacks": no snacks were told
            target.retracted = True
            intent.target = target  # type: ignore[attr-defined]
        elif isinstance(intent, CorrectIntent):
            if not seen:
                return intent
            target = intent.aim if any(a is intent.aim for a in seen) else seen[-1]
            intent.target = target  # type: ignore[attr-defined]
            args = _correction_args(intent, target)
            if intent.problem or args is None:
                target.problem = target.problem or intent.problem or (
                    f"I was not sure what “{intent.quote(ctx.message)}” corrects, so I left "
                    f"“{target.quote(ctx.message)}” alone. Could you say it again in one go?")
            intent.args = args or {}  # type: ignore[attr-defined]
    return None


def _retraction_target(intent: RetractIntent, seen: list[ActIntent], message: str) -> ActIntent | None:
    """The act a retraction takes back: the last one its words name ("forget the taxi"), else the last; None when its
    words name a thing none of them is ("forget the snacks" after a lunch and a taxi)."""
    hint = intent.hint
    said_not = re.search(r"\bnot\s+the\s+(?P<thing>[^\W\d_][\w'-]*)", hint)
    if said_not and not re.match(r"\s*(?:never\s*mind|forget|scratch|skip|ignore|leave|don'?t)\b", hint):
        # "… actually not the coffee, that was private": the one act the thing names, else asked (never the last one by
        # default: "not the cab" beside a taxi, "not the first taxi", "not the lunch" beside "coffee after lunch")
        thing = said_not.group("thing").lower()
        if thing in _POINTERS or thing in ("first", "second", "third", "last"):
            return None
        named = [act for act in seen if {thing, thing.rstrip("s")} & set(re.findall(r"[a-z']+", act.label))]
        return named[0] if len(named) == 1 and not any(
            thing in act.quote(message).lower() for act in seen if act is not named[0]) else None
    for act in reversed(seen):
        named = [w for w in re.findall(r"[a-z']+", act.label) if len(w) > 2]
        if named and any(re.search(rf"\b{re.escape(w)}\b", hint) for w in named) and re.search(
                r"\b(?:forget|scratch|skip|ignore|not|strike|remove|delete|drop|cancel|take|bin|ditch)\s+(?:the|that|about)\b", hint):
            return act
    thing = re.search(r"\b(?:forget|scratch|skip|ignore|strike|remove|delete|drop|cancel|bin|ditch)\s+(?:about\s+)?(?:the|my)\s+"
                      r"(?P<thing>[a-z][a-z'-]{2,})", hint)
    if thing and thing.group("thing") not in _POINTERS and not any(
            thing.group("thing").rstrip("s") in (act.label + " " + act.quote(message)).lower() for act in seen):
        return None
    return seen[-1]


# words that point at what was just said, naming no thing of their own ("forget the last one", "scratch the above")
_POINTERS = frozenset("last latest previous above one ones first second third other rest former latter same whole "
                      "lot entire".split())


def _correction_args(intent: CorrectIntent, target: ActIntent) -> dict[str, Any] | None:
    args: dict[str, Any] = {}
    if intent.counted:
        return None  # "3 nights 120 each — no, 2 nights": the new total is for the user to say
    if target.act in ("add_line", "update_line"):
        if intent.amount is not None and intent.amount.amount is not None:
            if intent.amount.currency and target.claim is not None and intent.amount.currency != target.claim.currency:
                return None
            args["amount"] = money_text(intent.amount.amount)
        if intent.date:
            args["date"] = intent.date
        if intent.category and not args:
            args["category"] = intent.category
        if intent.merchant and args and target.act == "add_line" and not target.args.get("merchant") and \
                target.args.get("category") in ("meals", "hotel", "other"):  # (a ride "at Heathrow" went there)
            args["merchant"] = intent.merchant
    elif target.act == "open_claim" and intent.currency:
        args["currency"] = intent.currency
    if args and all(str(target.args.get(k) or "") == str(v) for k, v in args.items()):
        return None  # "dinner 29.80 - no, bin the dinner": a "correction" that changes nothing is no correction
    return args or None


def _check_offered(intents: list[Intent], ctx: Context) -> None:
    for intent in intents:
        if not isinstance(intent, ActIntent) or intent.problem:
            continue
        if not ctx.acts:
            intent.problem = ("In this conversation I can look things up, but I cannot make changes, so I did not "
                              f"{_VERB_NAMES.get(intent.act, intent.act)}.")
        elif intent.act not in ctx.acts:
            intent.problem = f"I cannot {_VERB_NAMES.get(intent.act, intent.act)} right now: it is switched off."


def _reads(intents: list[Intent]) -> list[dict[str, Any]]:
    wanted: list[dict[str, Any]] = []
    for intent in intents:
        if isinstance(intent, QuestionIntent):
            wanted.extend(intent.reads)
        elif isinstance(intent, ActIntent) and intent.read and not intent.retracted:
            wanted.append(intent.read)
    unique: list[dict[str, Any]] = []
    for read in wanted:
        if read not in unique:
            unique.append(read)
    return unique


# --------------------------------------------------------------------------- the plan


def _compose(intents: list[Intent], ctx: Context) -> str:
    message = ctx.message
    acts: list[dict[str, Any]] = []
    retractions: list[dict[str, Any]] = []
    corrections: list[dict[str, Any]] = []
    constraints: list[dict[str, Any]] = []
    answers: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []
    number = 0
    for intent in intents:
        if isinstance(intent, ActIntent):
            if intent.problem:
                if intent.retracted and not any(a.get("text", "").startswith("Alright") for a in answers):
                    answers.append(_answer(intent.quote(message), "Alright, I left it as it is; nothing was changed."))
                if not intent.retracted:
                    answers.append(_answer(intent.quote(message), _problem_text(intent, ctx)))
                    if intent.missing and not pending:
                        # the question stays open for the next message (server state, SPEC §7.1)
                        pending.append({"question": neutral(_printable(intent.problem))[:2000], "act": intent.act,
                                        "missing": [intent.missing],
                                        **({"options": [str(o) for o in intent.options]} if intent.options else {}),
                                        **({"args": {"currency": intent.paid_in}} if intent.paid_in and intent.act
                                           == "add_line" else {}),  # (a yes converts an addition, never an edit)
                                        **({"case": intent.ref} if intent.ref and intent.act != "open_claim" else {})})
                continue
            number += 1
            intent.id = f"a{number}"
            act: dict[str, Any] = {"id": intent.id, "act": intent.act}
            if intent.ref is not None and intent.act != "open_claim":
                act["case"] = intent.ref
            act["args"] = intent.args
            act["evidence"] = intent.quote(message)
            acts.append(act)
        elif isinstance(intent, RetractIntent):
            target = getattr(intent, "target", None)
            if target is not None and target.id is not None:
                retractions.append({"act": target.id, "evidence": intent.quote(message)})
            elif target is None and not any(isinstance(i, ActIntent) and not i.retracted for i in intents):
                answers.append(_answer(intent.quote(message), "Alright, I left everything as it is. A card that is "
                                                              "still open can be declined with its button."))
        elif isinstance(intent, CorrectIntent):
            target = getattr(intent, "target", None)
            args = getattr(intent, "args", None)
            if target is not None and target.id is not None and args:
                corrections.append({"act": target.id, "args": args, "evidence": intent.quote(message)})
        elif isinstance(intent, HoldIntent):
            held = [name for name in intent.acts if name in ctx.acts]
            if held:
                constraints.append({"kind": "hold", "acts": held, "evidence": intent.quote(message)})
            if not any(isinstance(i, ActIntent) for i in intents):  # a hold on its own still gets an answer
                names = " or ".join(_HOLD_VERBS.get(name, name) for name in intent.acts) or "do that"
                answers.append(_answer(intent.quote(message), f"Alright, I will not {names} anything now. A card "
                                                              "that is still open can be declined with its button."))
        elif isinstance(intent, QuestionIntent):
            answers.append(_answer(intent.quote(message), answer_question(intent, ctx)))
        elif isinstance(intent, SkippedIntent):
            answers.append(_answer(intent.quote(message), f"I did not add “{intent.quote(message)}”: you said it is not "
                                                          "for the claim."))
        elif isinstance(intent, NegatedIntent):
            answers.append(_answer(intent.quote(message), f"Alright, I will not {_NEGATED_VERBS.get(intent.verb, 'do that')}"
                                                          "; nothing was changed."))
    # two questions of one message answered alike ("which rate …? is it the rate of the day?"): the answer once
    answers = [a for n, a in enumerate(answers) if all(b["text"] != a["text"] for b in answers[:n])]
    plan = json.loads(_plan(acts, retractions=retractions, corrections=corrections, constraints=constraints,
                            answers=answers))
    if any(isinstance(i, ActIntent) and i.missing == "date" for i in intents) and any(
            a["act"] == "add_line" and "date" not in (a.get("args") or {}) for a in plan["plan"].get("acts", [])):
        # "bfst 14.5, lnch 23, dnr 41 - all tue" with "which Tuesday?" asked: none of them goes on today's date
        plan["plan"]["acts"] = [a for a in plan["plan"]["acts"] if not (a["act"] == "add_line" and "date" not in (
            a.get("args") or {}))]
        plan["plan"].setdefault("answers", []).append(_answer(message, "I did not add the expenses without a day of their "
                                                                       "own either: tell me the day, and I add them."))
    asked_too = pending and pending[0]["missing"] == ["allowed"] and len([
        i for i in intents if isinstance(i, ActIntent)]) == 1  # the question whether it may be claimed stays open too
    asked_beside = not acts and len(intents) == 1 + sum(isinstance(i, (ContextIntent, QuestionIntent)) for i in intents)
    asker = next((i for i in intents if isinstance(i, ActIntent) and i.problem and i.missing in ("amount", "date")), None)
    on_claim = {asker.claim.id} if asker is not None and asker.claim is not None else set()
    mentioned = find_mention(message, ctx.claims)
    asked_among = bool(acts) and len(pending) == 1 and pending[0]["missing"] in (["amount"], ["date"]) and pending[0]["act"] == (
        "add_line") and not retractions and not corrections and {c.id for c in claims_named(message, ctx.claims)} <= (
        on_claim) and (mentioned is None or {c.id for c in mentioned.claims} <= on_claim) and (
        not claims_named(message, ctx.claims) or bool(on_claim))
    # ("dinner 45 and a taxi …" (how much was the taxi?), "hotel …, and diner lundi 34,90" (which Monday?), on no claim
    # named but the one it lands on)
    if pending and (asked_too or asked_beside):  # (a question answered beside it keeps the one asked back open)
        plan["plan"]["pending"] = pending[0]  # one request that lacked one thing: its answer completes it
    elif asked_among:  # its answer completes the words it was about, never the others (on the claim asked about)
        asked = next(i for i in intents if isinstance(i, ActIntent) and i.problem and i.missing in ("amount", "date"))
        case = asked.ref or ({"id": asked.claim.id} if asked.claim is not None else None)
        plan["plan"]["pending"] = {**pending[0], "about": asked.quote(message), **({"case": case} if case else {})}
        offers = [i for i in intents if isinstance(i, ActIntent) and i.problem and not i.retracted and i.paid_in
                  and i.act == "add_line" and i.missing == "amount"]
        if offers and (pending[0].get("args") or {}).get("currency"):
            # "monday: dinner £40 and taxi £22, and the hotel 2 nights at 150 eur": the hotel added, both others
            # offered converted; one "yes" is for every one offered (walk Y1), read again in the whole message so
            # each keeps the day it was told with
            paid = sorted({str(i.paid_in) for i in offers})
            plan["plan"]["pending"]["args"] = {**pending[0]["args"], "offered": [i.quote(message) for i in offers],
                                               **({"currencies": paid} if len(paid) > 1 else {})}
        others = [i.quote(message) for i in intents if isinstance(i, ActIntent) and i is not asked and i.problem
                  and not i.retracted and i.act == "add_line" and i.missing == "date"]
        if others and pending[0]["missing"] == ["date"]:
            # "… From Malpensa I took the Malpensa Express, 13 euro. And the hotel, 2 nights, 312": which day, asked of
            # both; "both on 1/12" completes both, a day alone the first, and the next is asked (walk Z10: the second
            # was dropped without a word)
            plan["plan"]["pending"]["args"] = {**plan["plan"]["pending"].get("args", {}), "also_asked": others}
    elif pending and not acts and pending[0]["missing"] == ["date"] and days_offered(pending[0], ctx.today) and len(
            asked_day := [i for i in intents if isinstance(i, ActIntent) and i.problem and not i.retracted]) > 1 and all(
            i.act == "add_line" and i.missing == "date" and i.problem == asked_day[0].problem for i in asked_day) and not (
            retractions or corrections or claims_named(message, ctx.claims)):
        # "SAS flight … on monday 214,60 and taxi … monday 38,20" told on a Monday: "which Monday?" asked of both, and
        # the answer ("last week", "30 nov") dates both
        case = asked_day[0].ref or ({"id": asked_day[0].claim.id} if asked_day[0].claim is not None else None)
        plan["plan"]["pending"] = {**pending[0], "about": asked_day[0].quote(message), **({"case": case} if case else {}),
                                   "args": {"also_asked": [i.quote(message) for i in asked_day[1:]], "same_day": True}}
    elif pending and not acts and all(i.paid_in and i.act == "add_line" and i.missing == "amount" and not i.retracted
                                      for i in intents if isinstance(i, ActIntent)):
        # several expenses in other currencies, offered converted: one "yes" (each line keeps the currency it was paid in)
        paid = sorted({str(i.paid_in) for i in intents if isinstance(i, ActIntent)})
        plan["plan"]["pending"] = {**pending[0], "args": {**pending[0].get("args", {}), **(
            {"currencies": paid} if len(paid) > 1 else {})}}
    return json.dumps(plan, ensure_ascii=False)


def _problem_text(intent: ActIntent, ctx: Context) -> str:
    text = intent.problem or ""
    if intent.read is None:
        return text
    target = intent.read["args"]["to"]
    result = ctx.results.get(read_key(intent.read["tool"], intent.read["args"]))
    if result is not None and result.get("ok") and result["result"].get("converted") and intent.act == "update_line":
        r = result["result"]  # a line changed to an amount in another currency: the user says the claim's amount
        return (f"{text} At the company reference rate in force on {day(r['effective_date'])}, "
                f"{money(r['amount'], r['from'])} is {money(r['converted'], r['to'])}. I did not change the line yet: "
                + (f"tell me its new amount in {target} (for example “change line {intent.args['line']} to "
                   f"{r['converted']} {target}”)." if intent.args.get("line") and _line_beyond_doubt(intent, ctx) else
                   f"tell me which line, and its new amount in {target} (for example “{r['converted']} {target}”)."))
    if result is not None and result.get("ok") and result["result"].get("converted"):
        r = result["result"]
        return (f"{text} At the company reference rate in force on {day(r['effective_date'])}, "
                f"{money(r['amount'], r['from'])} is {money(r['converted'], r['to'])}. I did not add the line yet: "
                f"say “yes” to add it converted at that rate, or tell me the amount in {target} "
                f"(for example “{r['converted']} {target}”).")
    return f"{text} I did not add the line; tell me the amount in {target} to add it."


def _line_beyond_doubt(intent: ActIntent, ctx: Context) -> bool:
    """May a reply name the line an edit was read for, as an example to type back? Only when the message names it by
    its number or its merchant, or it is the claim's only line of its kind (walk X2: "change line 5 to …" was offered
    for "the taxi back to the hotel", which was line 7)."""
    number = int(intent.args["line"])
    if re.search(rf"\b(?:line|ln|row|item|#)\s*#?{number}\b", ctx.message, re.IGNORECASE):
        return True
    claim = intent.claim or ctx.default_claim()
    lines = list(claim.lines) if claim is not None else []
    if not 1 <= number <= len(lines):
        return False
    chosen = lines[number - 1]
    merchant = str(chosen.get("merchant") or "")
    if merchant and re.search(rf"(?<!\w){re.escape(merchant.split()[-1])}(?!\w)", ctx.message, re.IGNORECASE):
        return True
    return sum(1 for ln in lines if ln.get("category") == chosen.get("category")) == 1


def _not_understood(ctx: Context, intent: Intent | None) -> str:
    quote = intent.quote(ctx.message) if intent is not None else ctx.message.strip()
    if len(quote) > 200:
        quote = quote[:197] + "…"
    text = f"I did not understand “{quote}”, so I left everything as it is. {CAPABILITIES}"
    return _plan([], answers=[_answer(ctx.message, text)])


def _answer(question: str, text: str) -> dict[str, str]:
    return {"question": _printable(question)[:2000], "text": neutral(_printable(text))[:8000]}


def _printable(text: str) -> str:
    """Prose without control characters (a quote of the user's text may carry them)."""
    return "".join(ch for ch in text if ch in "\n\t" or unicodedata.category(ch) != "Cc")


@functools.cache
def _neutral_patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((re.compile(rf"(?<![\w-]){r'\s+'.join(map(re.escape, phrase.split()))}(?![\w-])", re.IGNORECASE),
                  replacement) for phrase, replacement in _NEUTRAL.items())


def neutral(text: str) -> str:
    """The interpreter's prose with every claim phrase replaced: answers describe, they never claim."""
    for pattern, replacement in _neutral_patterns():
        text = pattern.sub(lambda m, r=replacement: r.capitalize() if m.group(0)[0].isupper() else r, text)
    return text


def _plan(acts: list[dict[str, Any]], **parts: list[dict[str, Any]]) -> str:
    plan: dict[str, Any] = {"acts": acts}
    for name, items in parts.items():
        if items:
            plan[name] = items
    return json.dumps({"plan": plan}, ensure_ascii=False)
