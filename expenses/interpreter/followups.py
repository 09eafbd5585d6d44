"""The conversation, not just the message: answers to the interpreter's own questions, follow-ups on
what the last turn did, "undo that", and "yes" typed while a card waits.

- **A pending question** (server state, handed over in the request with the earlier message it is
  about) is completed when the new message answers it ("taxi", "40.69 EUR", "line 6", "the second
  one", "Madrid offsite"): the earlier message is read again with the answer filling what it
  lacked. The act quotes the answer as its evidence and the earlier message as its
  ``earlier_evidence``, which the reducer checks against the message the server kept.
- **Follow-ups** name what the conversation's last turn committed (``recent``): "actually make that
  18", "remove that one", "and another one for 30".
- **"undo that"** asks the server to reverse the last direct edit: the plan carries ``undo`` and
  no act; the inverse is derived by the server from the committed event.
- **"yes", "ok", "no"** while a card waits point to the card: typed text never confirms.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import date
from decimal import Decimal
from itertools import pairwise
from typing import Any

from registries.currencies import currency_mentions
from registries.numbers import numbers_found

from ..exchange import paid_in_claim_currency, reference_currencies
from .audit import Audit
from .clauses import MARKER, _trim, split, verb_of
from .context import (
    Claim,
    Context,
    day_answered,
    days_offered,
    find_mention,
    in_the_trip,
    stay_end_picked,
    thing_unmatched,
    week_answered,
)
from .reading import NO_TITLE_YET, ActIntent, Reader, _choose_amount, _currency_code, _tidy_title
from .values import (
    best_category,
    currency_named,
    find_amounts,
    find_categories,
    find_dates,
    find_line_refs,
    heading_day,
    is_destination,
    mask,
    money_text,
    priced_alike,
)

_YES_NO = re.compile(r"^\W*(?:yes|yeah|yep|yup|sure|ok|okay|confirm(?:ed)?|go\s+ahead|do\s+it|approved?|fine|no|nope|"
                     r"nah|don'?t|do\s+not|cancel|decline)(?:\s+(?:please|pls|thanks|thank\s+you|it|that))*\W*$",
                     re.IGNORECASE)
_UNDO = re.compile(r"^\W*(?:(?:oh|hmm+|actually|sorry|please|pls|wait|ok|okay|no)[\s,.!]+)*(?:please\s+|pls\s+)?undo(?:\s+(?:that|it|"
                   r"this|the\s+last\s+(?:change|edit|one|thing)|my\s+last\s+(?:change|edit)))?(?:\s+(?:please|pls|plz))?"
                   r"(?:\W*$|\s*[,;:.—–-]\s*(?P<reason>[^\d]*)$)", re.IGNORECASE)
_THAT = r"(?:that|it|this|that\s+one|this\s+one|the\s+last\s+one)"
_MAKE_THAT = re.compile(rf"^(?:(?:oh|ah|ok|okay|um+|actually|sorry|oops|no|wait|hmm+|i\s+meant|i\s+mean|my\s+bad)[\s,.!-]*)*"
                        rf"(?:make\s+{_THAT}|change\s+{_THAT}\s+to|(?:it|that)\s+(?:was|should\s+be)|i\s+meant|"
                        rf"i\s+mean|should\s+be|sorry|actually)\b", re.IGNORECASE)
_REMOVE_THAT = re.compile(rf"^\W*(?:(?:actually|sorry|oops|hmm+)[\s,.!]+)*(?:please\s+)?(?:remove|delete|drop|"
                          rf"scrap|take\s+off)\s+{_THAT}(?:\s+(?:line|again|please|pls))*\W*$", re.IGNORECASE)
# the same said after an explanation: "no wait i paid that one with the company card, remove that one"
_REMOVE_THAT_END = re.compile(rf"(?:[,.;!-]\s*|\s(?:so|and|just|pls|please)\s+)((?:please\s+|pls\s+|just\s+)?(?:remove|"
                              rf"delete|drop|scrap|take\s+off)\s+{_THAT}(?:\s+(?:line|again|please|pls))*)\W*$",
                              re.IGNORECASE)
_ANOTHER = re.compile(r"^\W*(?:and\s+|also\s+|plus\s+)?(?:add\s+)?(?:another|one\s+more)(?:\s+one)?\b", re.IGNORECASE)
_TITLE_ANSWER = re.compile(r"^\W*(?:(?:ok|okay|so|yes|yeah|sure|then|and|please|pls)\W+)*(?:(?:please\s+)?(?:call|name|title)\s+it|it'?s|its|the\s+title\s+is|title:?|name:?)\s+", re.IGNORECASE)
# what people say before the name they give, closed by a stop or a comma: "oh ok.", "ok sure,", "right, so -" (never
# "Great Lakes trip")
_FILLER_WORD = r"(?:oh|ah|ok|okay|k|so|yes|yeah|yep|sure|right|alright|fine|great|cool|well|hmm+|um+|then|and|please|pls)"
_TITLE_FILLER = re.compile(rf"^\W*(?:{_FILLER_WORD}[\s,.!:;–-]+)*{_FILLER_WORD}\s*[,.!:;–-]+\s*", re.IGNORECASE)
_NAMED_HERE = re.compile(r"\b(?:called|named|titled|entitled|(?:call|name|title)\s+it)\s+", re.IGNORECASE)


# thanks said after an answer ("convert it. Thank you kindly for your help", "yes add it, no worries")
THANKS_TAIL = re.compile(r"(?:[.,!;]\s*|\s+[-–—]\s*)(?:(?:and\s+|oh\s+)?(?:thanks?(?:\s+(?:a\s+lot|so\s+much|again|mate|"
                          r"kindly|a\s+million))?|thank\s+you(?:\s+(?:so\s+much|kindly|very\s+much))?(?:\s+for\s+(?:your|the|all\s+"
                          r"the)\s+help)?|thx|ty|cheers|no\s+worries|much\s+appreciated|appreciated|merci|danke|gracias|grazie|"
                          r"obrigad[oa]|dzięki)[\s!.]*)+$", re.IGNORECASE)


def follow_up(ctx: Context) -> dict[str, Any] | None:
    """A plan for a message that only makes sense after the previous turn, or None to read it afresh."""
    message = ctx.message
    start, end = _trimmed(message)
    if start >= end:
        return None
    if (thanks := THANKS_TAIL.search(message, start, end)) is not None and thanks.start() > start:
        end = _trim(message, start, thanks.start())[1]  # "yep convert it, no worries": the answer, then thanks
    if (undo := _UNDO.match(message)) and verb_of(undo.group("reason") or "")[0] in (None, "add"):
        said = message[:undo.start("reason")].rstrip(" ,;:.—–-") if undo.group("reason") is not None else message
        s, e = _trimmed(said)
        return {"acts": [], "undo": {"evidence": said[s:e]}}
    if ctx.open_cards and _YES_NO.match(message):
        return {"acts": [], "answers": [{"question": message[start:end], "text": (
            "Please answer the card above with its buttons: typed text never confirms or declines anything, so "
            "nothing was done yet.")}]}
    if ctx.pending and (plan := _complete(ctx, start, end)) is not None:
        return plan
    if ctx.pending and (asked := _it_while_a_day_is_asked(ctx, message[start:end])) is not None:
        return asked
    if (named := _claim_named_now(ctx, message[start:end])) is not None:
        return named
    return _on_recent(ctx, start, end) or _on_previous(ctx, start, end)


# --------------------------------------------------------------------------- a pending question


# a weekday said alone: "monday", "on tuesday", "tue." (never "the monday after")
_WEEKDAY_ALONE = re.compile(r"\W*(?:(?:oh|ok|okay|sorry|it\s+was)\W+)?(?:on\s+)?(?:the\s+)?(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|"
                            r"fri|sat(?:ur)?|sun)(?:day)?\.?\W*", re.IGNORECASE)


def _claim_named_now(ctx: Context, answer: str) -> dict[str, Any] | None:
    """"Call it Rotterdam SAT" after a message that asked for a claim and was asked its name (beside another question):
    the claim is opened with that name, in euros or the currency the answer names (a currency the earlier message
    named is no evidence of this one, so it is asked again)."""
    pending = ctx.pending or {}
    earlier = str(pending.get("message") or ctx.previous or "")
    if pending.get("missing") == ["title"] or not _TITLE_ANSWER.match(answer) or re.search(r"\d", answer) or not re.search(
            r"\b(?:open|start|create|new|make|need|do)\b[^.?!]{0,40}\b(?:claim|expense\s+report)\b", earlier, re.IGNORECASE):
        return None
    try:  # the earlier message asked for a claim it could not name (never one it opened: "call it …" then renames)
        intents = Reader(_with_message(ctx, earlier)).read(split(earlier, ctx.today))
    except Exception:  # noqa: BLE001 - a reading that cannot finish names nothing
        return None
    if not any(isinstance(i, ActIntent) and i.act == "open_claim" and i.problem for i in intents) or any(
            isinstance(i, ActIntent) and i.act == "open_claim" and not i.problem for i in intents):
        return None
    value = _answer_value("title", answer, ctx, {**pending, "missing": ["title"]})
    if value is None:
        return None
    title, code = value
    named = _TITLE_ANSWER.sub("", answer)
    if code is not None and code not in reference_currencies():  # "Rotterdam SAT": the name's last word, no currency
        title, code = _tidy_title(named.strip(" .!")), None
    if not title or NO_TITLE_YET.match(named):
        return None  # "call it a day", "name it after the client", "call it whatever": no name given
    said = currency_named(earlier)
    if code is None and said is not None and said[0] != "EUR":
        return None
    return {"acts": [{"id": "a1", "act": "open_claim", "args": {"title": title, **({"currency": code} if code else {})},
                      "evidence": answer}]}


# "actually it was 18", "make that 18": words about "it" while the reply asked which day an expense not yet added was
_IT_WAS = re.compile(r"\b(?:it|that|this)\s*(?:was|is|'s|’s|should\s+be|were)\b|\bmake\s+(?:it|that)\b|"
                     r"\b(?:not|rather\s+than)\s+(?:[€$£]\s*)?\d", re.IGNORECASE)  # ("18 not 15")


def _it_while_a_day_is_asked(ctx: Context, answer: str) -> dict[str, Any] | None:
    """"actually it was 18" while "Which day was “taxi 15”?" is open: "it" is the expense asked about, which is on no
    line yet (never the claim's last line); whether 18 is its day or its amount is asked, the question kept."""
    pending = ctx.pending or {}
    if pending.get("act") != "add_line" or pending.get("missing") != ["date"] or not _IT_WAS.search(answer) or \
            find_line_refs(answer) or [c for c in find_categories(answer) if not c.weak]:
        return None
    about = str(pending.get("about") or pending.get("message") or "")
    return {"acts": [], "answers": [{"question": answer[:2000], "text": (
        f"I did not add or change anything yet: is “{answer[:80]}” the day of “{about[:120]}”, or its amount? Say "
        "“the 18th” for its day, or tell me the expense again with its amount and day.")}],
            "pending": {k: v for k, v in pending.items() if k != "message"} | {"about": about[:2000]}}


_TAKES_BACK = re.compile(r"\b(?:actually\s+no|no\s+wait|never\s*mind|nvm|forget\s+(?:it|that)|scratch\s+that|don'?t\s+add|"
                        r"(?:colleague|company|client|boss|he|she|they)\s+(?:paid|pays|covered|will\s+pay))\b", re.IGNORECASE)


def _complete(ctx: Context, start: int, end: int) -> dict[str, Any] | None:
    pending = ctx.pending or {}
    earlier = str(pending.get("message") or "")
    missing = (pending.get("missing") or [None])[0]
    answer = ctx.message[start:end]
    if not earlier or missing is None or len(answer) > 120 or "?" in answer:
        return None
    verb, _ = verb_of(answer)
    if missing == "amount" and re.match(r"^\W*(?:(?:ok|okay|then|so|alright)\W+)*(?:make\s+it|use|go\s+with|enter)\s+(?:[€$£]\s*)?\d",
                                        answer, re.IGNORECASE):
        verb = None  # "ok make it 205 kronor then": the amount asked for, said as what to make the line
    if verb not in (None, "add") and missing != "title":
        return None  # a new request, not an answer
    if missing == "title" and (re.search(r"(?<![\w.,])(?!20\d\d\b)\d+(?:[.,]\d+)?(?![\w])", answer) or [
            d for d in find_dates(answer, ctx.today) if not re.fullmatch(r"\d{4}", d.text)]):
        return None  # "Thalys Paris-Brux. Mon. 89. Hotel. …": expenses told, not the claim's name
    if missing == "currency" and (re.search(r"\d", answer) or find_categories(answer)):
        return None  # "flew down tues, skybus from the airport 24 bucks, …": expenses told, not the claim's currency
    if _TAKES_BACK.search(answer):
        return None  # "add 28.99 - actually no, my colleague paid that one": read afresh, never completed
    if missing in ("amount", "date") and re.search(r"\b(?:maybe|perhaps|probably|about|around|roughly|approx\w*|circa|"
                                                   r"guess|not\s+sure|i\s+think|or)\b|~", answer, re.IGNORECASE):
        return None  # "maybe 47", "about 47", "i think 47": a guess is asked again (read afresh), never completed
    if missing == "amount" and re.search(r"\b(?:actually|flipped|swapped|transposed|typo|mistyped|wrong|instead|should\s+be|"
                                         r"meant)\b", answer, re.IGNORECASE):
        return None  # "wait the uber was actually $74.20, I flipped the digits": a correction of a line, read afresh
    if missing == "amount" and (re.search(r"\b(?:all|both|alle|alla|wszystkie|tutti|todos|tous|every|each)\b", answer,
                                          re.IGNORECASE) or re.fullmatch(
            r"\W*(?:yes|yeah|yep|ja|jo|tak|ano|si|sí|sim|oui|ok|okay|sure)\W+(?:(?:to|only|just|for|no\.?)\s+)?#?\d\W*", answer,
            re.IGNORECASE)):
        return None  # "yes, all 3" after "say yes to add it converted, or tell me the amount": a count, never the amount
    if missing == "amount" and re.search(r"\b(?:rates?|exchange|fx|forex)\b[^\d]{0,20}\d|\bconver(?:t|ted|sion)?\s+(?:at|of)\s*\d|"
                                         r"(?:^|\s)at\s+\d+[.,]\d+(?!\s*(?:€|eur|euros?|gbp|£|usd|\$|chf|sek|nok|dkk|pln|czk|cad|jpy))"
                                         r"|\b(?:half|third|thirds|quarter|quarters|percent)\b|%", answer, re.IGNORECASE):
        return None  # "go with the card rate, 1.17", "convert at 1.17": a rate, never the amount; "half of 80": a share
    if missing == "amount" and (yes := _YES_THEN.match(answer)) and [c for c in find_categories(answer[yes.end():])
                                                                      if not c.weak]:
        return None  # "yes that's fine - taxi back 22": the yes is for what was offered, the figure another expense's
    if missing == "amount" and _TIP_APART.search(answer) and not _INCLUDED.search(answer):
        # "yes - tip 5", "ok. tip 5 too": the offered expense's amount, or a tip of its own? Asked, the question kept
        return {"acts": [], "answers": [{"question": answer[:2000], "text": (
            f"I did not add anything yet: is “{answer[:120]}” the amount of what I asked about (“{earlier[:120]}”), or "
            "a tip of its own? Tell me the amount of the first (for example “25 with the tip”), and the tip apart if "
            "it is one.")}], "pending": {**{k: v for k, v in pending.items() if k != "message"}, "about": earlier[:2000]}}
    value = _answer_value(missing, answer, ctx, pending)
    if value is None:
        return None
    if missing == "amount" and value.currency is None and value.amount in _foreign_figures(
            str(pending.get("about") or earlier)):
        return None  # "180" after "…, 180 shekel" was asked in the claim's currency: the figure said before, no answer
    if missing == "amount" and (pending.get("args") or {}).get("unconverted") and (
            not _claim_money_named(answer, _pending_claim(ctx, pending)) or not _AMOUNT_ONLY_TOLD.search(answer)):
        return None  # after a money with no rate, only an amount told in the claim's currency ("it was 47.20 euro")
        # answers: "it was 190", "put 47.20 on Israel" are read afresh
    line_said = None
    if missing == "amount" and pending.get("act") == "update_line" and (refs := find_line_refs(answer)):
        if len(refs) > 1 or refs[0].ordinal is None:
            return None
        line_said = refs[0].ordinal  # "the dinner, line 3. 37.45 GBP": which line, and its new amount
    if pending.get("act") == "update_line" and missing == "amount" and (pending.get("args") or {}).get("quantity"):
        # "278,00" after "at 139.00 a night, 2 nights come to 278.00; what is the total?": the stay's new sum, with the
        # count of nights the earlier message said
        return {"acts": [{"id": "a1", "act": "update_line", "case": pending.get("case"),
                          "args": {**pending["args"], "amount": money_text(value.amount)}, "evidence": answer,
                          "earlier_evidence": earlier.strip()}]}
    overrides = {missing: value}
    if missing == "category" and (told := _day_told_beside(answer, ctx)) is not None:
        overrides["date"] = told  # "other. It was on the 30/11.": the kind asked for, and its day
    if missing == "title":  # "Copenhagen summit, in DKK pls": a title, and perhaps its currency
        overrides = {"title": value[0], "currency": value[1]}
    about, whole = str(pending.get("about") or ""), earlier
    if about and about in earlier and about != earlier:
        if not isinstance(pending.get("case"), dict) and len(ctx.open_claims) > 1:
            return None  # which claim those words were for may lie in the rest of the message: read afresh
        earlier = about  # the question was about these words of a message that told more: only they are completed
    reader = Reader(_with_message(ctx, earlier), overrides=overrides)
    intents = reader.read(split(earlier, ctx.today))
    act = next((i for i in intents if isinstance(i, ActIntent) and i.act == pending.get("act") and not i.problem
                and not i.retracted), None)
    if act is None:
        return _offered_at(answer, value, ctx, pending) if missing == "amount" else None
    named = best_category([c for c in find_categories(answer) if not is_destination(answer, c)])  # not "→hotel"
    if act.act == "update_line" and missing == "amount":
        line = next((ln for c in ctx.claims for ln in c.lines if act.claim is not None and c.id == act.claim.id
                     and ln["ordinal"] == act.args.get("line")), None)
        if line is None or line_said not in (None, line["ordinal"]) or named not in (None, line["category"]):
            return None  # the line the answer names is not the one the question was about: read afresh
    elif missing == "amount" and named is not None and named != act.args.get("category"):
        return None  # "a sandwich, 6.50" after "how much was the museum ticket?": a new expense, not the answer
    if act.act == "add_line" and "date" not in act.args and (day := heading_day(earlier, ctx.today)) is not None:
        act.args["date"] = day  # "all on 1-12: … lunch at the airport?" … "meals, 14,20": the heading's day
    if act.act == "add_line" and "date" not in act.args and earlier != whole and len(
            days := {d.value for d in find_dates(whole, ctx.today) if d.value}) == 1:
        act.args["date"] = days.pop()  # "lunch 12 on monday and a taxi …" … "18": the day the message said, as for
        # any expense told beside another in one sentence
    planned: dict[str, Any] = {"id": "a1", "act": act.act, "args": act.args, "evidence": answer,
                               "earlier_evidence": act.quote(earlier)}
    if isinstance(pending.get("case"), dict) and earlier != whole:
        planned["case"] = pending["case"]  # the claim the whole message was read on
    elif act.ref is not None and act.act != "open_claim":
        planned["case"] = act.ref
    also = [str(t) for t in (pending.get("args") or {}).get("also_asked") or [] if str(t) in whole]
    if missing == "date" and also and earlier != whole and not _doubts_left(earlier, planned, ctx):
        return _the_others_asked(planned, also, answer, overrides, ctx, pending)
    if missing == "date" and _doubts_left(earlier, planned, ctx):
        # "taxi thursday 12 or 13" … "last week": the day was one doubt of several; the rest is asked, nothing added
        day = date.fromisoformat(str(planned["args"]["date"]))
        return {"acts": [], "answers": [{"question": answer[:2000], "text": (
            f"That is {day.day} {day.strftime('%b')}, but I still could not read all of “{act.quote(earlier)[:120]}”, "
            f"so I did not add it. Could you say it again whole, with its day (“… on {day.day}.{day.month}.”)?")}]}
    return {"acts": [planned]}


def _on_the_claim_already(act: dict[str, Any], ctx: Context, pending: dict[str, Any]) -> bool:
    """Is a line of this kind and amount on the claim already (a stay told again, dated now, would overlap it)?"""
    claim = _pending_claim(ctx, pending)
    args = act.get("args") or {}
    return claim is not None and any(line.get("category") == args.get("category") and str(line.get("amount")) == str(
        args.get("amount")) for line in claim.lines)


_ALL_OF_THEM = re.compile(r"\b(?:both|all|each|the\s+two|the\s+three|them\s+all|all\s+of\s+them|both\s+of\s+them|"
                          r"everything|every\s+one)\b", re.IGNORECASE)


def _the_others_asked(planned: dict[str, Any], also: list[str], answer: str, overrides: dict[str, Any], ctx: Context,
                      pending: dict[str, Any]) -> dict[str, Any] | None:
    """The day given for the first of several expenses a message told without one: "both on 1/12" dates every one (each
    read again with that day, nothing added unless all read whole); a day alone dates the first, and the next is asked,
    never dropped without a word."""
    if _ALL_OF_THEM.search(answer) or (pending.get("args") or {}).get("same_day"):
        # ("last week" after "Which Monday do you mean: …?" asked of every expense told on "monday": each that Monday)
        if re.search(r"\bboth\b|\bthe\s+two\b", answer, re.IGNORECASE) and len(also) != 1:
            return None  # "both" when three were asked: which two? Read afresh (asked)
        acts = [planned]
        for n, words in enumerate(also, 2):
            intents = Reader(_with_message(ctx, words), overrides=overrides).read(split(words, ctx.today))
            act = [i for i in intents if isinstance(i, ActIntent)]
            if len(act) != 1 or act[0].act != "add_line" or act[0].problem or act[0].retracted:
                return None  # one of them no longer reads as an expense on its own: read afresh (asked)
            more = {"id": f"a{n}", "act": "add_line", "args": act[0].args, "evidence": answer,
                    "earlier_evidence": act[0].quote(words), **({"case": planned["case"]} if planned.get("case") else {})}
            if _doubts_left(words, more, ctx) or _on_the_claim_already(more, ctx, pending):
                return None
            acts.append(more)
        return {"acts": acts}
    kept = {k: v for k, v in pending.items() if k not in ("message", "about", "args")}
    return {"acts": [planned], "answers": [{"question": answer[:2000], "text": (
        f"Which day was “{also[0][:120]}”? You told me the day of the first one only, so I did not add this one yet.")}],
        "pending": {**kept, "question": f"Which day was “{also[0][:120]}”?", "about": also[0][:2000],
                    "args": {"also_asked": also[1:]} if also[1:] else {}}}


# an amount and nothing else but a yes and a verb to put it in: "Yes, put the 29.04", "ok add 29.50 EUR please"
_AMOUNT_ONLY = re.compile(r"\W*(?:(?:yes|yeah|yep|ok|okay|sure|fine|good|great|please|pls|ja|si|sí|oui|alright|right)\W+)*"
                          r"(?:(?:please\s+)?(?:put|add|use|enter|take|make\s+it|go\s+with)\s+)?(?:(?:it|that)\s+(?:at|as)\s+)?"
                          r"(?:the\s+)?(?:[€$£]\s*)?\d+(?:[.,]\d{1,2})?(?:\s*(?:€|\$|£|eur|euros?|kr|zł|kč|[A-Z]{3}))?"
                          r"(?:\s+for\s+(?:it|that|this(?:\s+one)?))?(?:\s+(?:please|pls|then|thanks|thank\s+you))?\W*", re.IGNORECASE)


# an amount in the claim's currency told as what it was, and at most a request to put it: "ok i checked my card
# statement, it was 47.20 euro. put that", "47.20 EUR", "it came to €47.20 on the card"
_AMOUNT_ONLY_TOLD = re.compile(r"^(?:[^\d]{0,80}?\b(?:was|is|came\s+to|were|it'?s|=|says|shows|reads|appears|charged)\s+|\W*"
                               r"(?:(?:ok|okay|good|fine|yes|so)\W+)*(?:(?:please\s+)?(?:put|add|use|enter|make\s+it)\s+)?)"
                               r"(?:[€$£]\s*)?\d+(?:[.,]\d{1,2})?\s*(?:€|\$|£|eur\b|euros?\b|kr\b|zł|kč|[A-Z]{3}\b)"
                               r"(?:\s+(?:for\s+(?:it|that|this(?:\s+one)?|(?:this|the|that|my)\s+[^\W\d_]+)|on\s+(?:my|the)\s+"
                               r"(?:card|statement|bill)))?"
                               r"(?:[\s.,!]*(?:(?:please|pls|so\s+)?(?:put|add|use|enter)\s+(?:that|it|this)(?:\s+(?:please|pls|in))?)?)?"
                               r"\W*$", re.IGNORECASE)


def _claim_money_named(answer: str, claim: Claim | None) -> bool:
    """Does the answer name the claim's own money ("47.20 euro", "216,29 kr" on a DKK claim)?"""
    return claim is not None and any(claim.currency in m.codes for m in currency_mentions(answer))


def _foreign_figures(words: str) -> set[Decimal]:
    """The figures ``words`` give with a money's name or sign beside them ("180 shekel", "£25", "230 NOK")."""
    moneys = currency_mentions(words)
    return {n.value for n in numbers_found(words) if any(0 <= m.start - n.end <= 2 or 0 <= n.start - m.end <= 2
                                                         for m in moneys)}


def _offered_at(answer: str, value: Any, ctx: Context, pending: dict[str, Any]) -> dict[str, Any] | None:
    """"Yes, put the 29.04" after one expense was offered converted beside others the message did ("Flight … 238,60
    euro. And the Heathrow Express the same day, £25"), whose words alone no longer read as an expense: the one offered,
    as the whole message was read (``_offers_read``), at the amount given in the claim's currency."""
    offered = (pending.get("args") or {}).get("offered") or []
    claim = _pending_claim(ctx, pending)
    if len(offered) != 1 or not isinstance(offered[0], dict) or not isinstance(offered[0].get("args"), dict) or (
            claim is None or getattr(value, "currency", None) not in (None, claim.currency)) or not _AMOUNT_ONLY.fullmatch(
                answer):
        return None  # ("no, leave the 29.04 out", "the flight was 250", "put 29.04 for the Gatwick Express"): read afresh
    told = offered[0]["args"]
    try:
        converted = Decimal(paid_in_claim_currency(str(told.get("amount")), str(told.get("currency")), claim.currency,
                                                   told.get("date")))
    except Exception:  # noqa: BLE001 - no rate for it: nothing to compare the figure with
        return None
    if value.amount != converted and not (_claim_money_named(answer, claim) and priced_alike(value.amount, converted)
                                          and abs(value.amount - converted) <= converted * Decimal("0.2")):
        return None  # "put 25" (the pounds said again), "put 3" (another's figure): only the offer's, or one close to it
        # told in the claim's currency ("29.50 EUR", as the card charged it), adds the one offered
    args = {k: v for k, v in told.items() if k != "currency"}
    planned: dict[str, Any] = {"id": "a1", "act": "add_line", "args": {**args, "amount": money_text(value.amount)},
                               "evidence": answer, "earlier_evidence": str(offered[0].get("evidence") or "")}
    if isinstance(offered[0].get("case"), dict):
        planned["case"] = offered[0]["case"]
    return {"acts": [planned]}


def _doubts_left(earlier: str, planned: dict[str, Any], ctx: Context) -> bool:
    """Would the earlier message, had it said the day it was asked for, still leave something unread ("12 or 13",
    "about 12", "split with a colleague")? Its reading then asked only the first of its doubts (which day)."""
    said = {**planned, "evidence": planned["earlier_evidence"]}
    said.pop("earlier_evidence")
    try:
        leftovers = Audit(earlier, {"acts": [said]}, replace(_with_message(ctx, earlier), settled=frozenset())).run()
    except Exception:  # noqa: BLE001 - an audit that cannot finish vouches for nothing
        return True
    return any(lo.kind not in ("date", "day") for lo in leftovers)


# a yes (or a no), and its clause ended, before an answer goes on: "yes that's fine - …", "ok. …", "no - …"
_YES_THEN = re.compile(r"^\W*(?:yes|yeah|yep|yup|ok|okay|sure|fine|great|perfect|alright|cool|go\s+ahead|no|nope|nah)\b"
                       r"[^.!?;:\d\n–—-]{0,40}?(?:[.!;]\s+|\s+[-–—]+\s+)(?!.*\b(?:this|that|it|same)\b)", re.IGNORECASE)


# a tip told apart ("yes - tip 5"), unless said to be part of the amount ("with the tip 25", "25 incl. tip")
_TIP_APART = re.compile(r"\b(?:tips?|gratuity|trinkgeld|propina|pourboire|mancia|gorjeta|napiwek|dricks|drikkepenger|fooi)\b",
                        re.IGNORECASE)
_INCLUDED = re.compile(r"\b(?:with|incl|including|included|inc|inkl|inklusive|mit|con|com|avec|compris|incluso|incluida|"
                       r"incluído|incluido|w/)\b|\bw/", re.IGNORECASE)


# "other. It was on the 30/11.", "meals, on monday": a kind of expense, then the day it was
_KIND_THEN_DAY = re.compile(r"^\W*(?P<kind>[^\W\d_]+(?:\s+[^\W\d_]+)?)\s*[.,;:-]+\s*(?:(?:and\s+)?(?:it|that)\s+(?:was|is)\s+)?"
                            r"(?:on\s+)?(?P<day>.+?)\W*$", re.IGNORECASE)


def _day_told_beside(answer: str, ctx: Context) -> str | None:
    m = _KIND_THEN_DAY.match(answer)
    if m is None or not find_categories(m.group("kind")) or find_line_refs(answer) or find_amounts(
            mask(answer, [(d.start, d.end) for d in find_dates(answer, ctx.today)])):
        return None
    days = find_dates(m.group("day"), ctx.today)
    if len(days) != 1 or not days[0].value or re.sub(r"\bthe\b", "", mask(m.group("day"), [(days[0].start, days[0].end)]),
                                                     flags=re.IGNORECASE).strip(" .,"):
        return None
    return days[0].value


def _answer_value(missing: str, answer: str, ctx: Context, pending: dict[str, Any]) -> Any:
    if missing == "amount":
        if (day := day_answered(answer, ctx.today)) is not None and "." in answer and \
                (ctx.today - date.fromisoformat(day)).days <= 92:
            return None  # "24.11" after "how much was it?": a recent day as much as an amount (read afresh: asked)
        amounts = find_amounts(mask(answer, [(r.start, r.end) for r in find_line_refs(answer)]))  # ("line 3, 37.45")
        chosen, problem = _choose_amount(amounts, answer, what="the expense")
        if problem or chosen is None:
            return None
        currency = chosen.currency
        claim = _pending_claim(ctx, pending)
        if currency is not None and claim is not None and currency != claim.currency:
            return None
        named = currency_named(answer)  # "our travel desk booked it in euros, 27.60": the figure is not the claim's
        if named is not None and (claim is None or named[0] != claim.currency):
            return None
        return chosen
    if missing == "category":
        if _names_a_line(answer, ctx) and _day_told_beside(answer, ctx) is None:
            return None  # "the second taxi was on thursday actually": about a line already told, read afresh
        return best_category(find_categories(answer))
    if missing == "date":
        found = find_dates(answer, ctx.today)
        days = {d.value for d in found}
        if "be dated: the check-in" in str(pending.get("question") or ""):
            # "Which day should “…” be dated: the check-in (29 Nov) or the check-out (1 Dec)?": one of the two
            return stay_end_picked(answer, str(pending.get("question") or ""), ctx.today)
        if offered := days_offered(pending, ctx.today):
            # "Which Thursday do you mean: today (3 Dec) or a week ago (26 Nov)?": one of the two, by its week, its place
            # or its day; any other day answers nothing
            if (week := week_answered(answer, pending, ctx.today)) is not None:
                return week.isoformat()
            said = days or ({bare} if (bare := day_answered(answer, ctx.today)) else set())
            return next(iter(said)) if len(said) == 1 and next(iter(said)) in {d.isoformat() for d in offered} else None
        if not days and (bare := day_answered(answer, ctx.today)) is not None:
            return bare  # "19.11", "the 17th" answering which day: a day (of the month), as the question asked for one
        if str(pending.get("question") or "").startswith("Which day was") and len(found) == 1 and found[0].value and \
                _WEEKDAY_ALONE.fullmatch(answer):
            # "monday", answering which day an expense told amid last week's trip was: the trip's Monday, when the trip
            # has a line that day (else which Monday is asked again)
            claim = _pending_claim(ctx, pending) or ctx.default_claim()
            trip = in_the_trip(date.fromisoformat(found[0].value), found[0].text, claim, ctx.today).isoformat()
            if trip != found[0].value:  # (the latest such weekday, when the trip does not move it, as any day said)
                return trip if claim is not None and trip in {str(line.get("date")) for line in claim.lines} else None
        if not days and (m := re.fullmatch(r"\W*(?:the\s+)?(first|1st|second|2nd|last|earlier|later)(?:\s+(?:one|day|date|"
                                             r"night))?\W*", answer, re.IGNORECASE)):
            # "the first one": of the days the earlier message named, in their order
            said = list(dict.fromkeys(d.value for d in find_dates(str(pending.get("message") or ""), ctx.today)))
            pick = {"first": 0, "1st": 0, "earlier": 0, "second": 1, "2nd": 1}.get(m.group(1).lower(), -1)
            return said[pick] if len(said) == 2 and None not in said else None
        return days.pop() if len(days) == 1 and None not in days else None
    if missing == "line":
        refs = find_line_refs(answer)
        options = [int(o) for o in pending.get("options") or [] if str(o).isdigit()]
        if options and (place := re.fullmatch(r"\W*(?:the\s+)?(first|1st|second|2nd|third|3rd)(?:\s+(?:one|please|pls))?\W*",
                                              answer, re.IGNORECASE)):
            # "second", answering "… 2. Taxi, 19.60 EUR; 5. Taxi, 24.30 EUR. Which one do you mean?": of those listed
            n = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3}[place.group(1).lower()]
            return options[n - 1] if n <= len(options) else None
        if refs and refs[0].ordinal is not None and options and not re.search(r"\b(?:line|item|entry|row)\b", answer,
                                                                              re.IGNORECASE):
            # "the second one" of the lines the question listed, not line 2 of the claim
            return options[refs[0].ordinal - 1] if refs[0].ordinal <= len(options) else None
        if refs and refs[0].ordinal is not None:
            return refs[0].ordinal
        if refs and options:
            return options[-1]  # "the last one"
        claim = _pending_claim(ctx, pending)
        amounts = {a.amount for a in find_amounts(answer) if a.amount is not None}
        if claim is not None and amounts:  # "the 38 one": the listed line with that amount
            hits = [ln["ordinal"] for ln in claim.lines if Decimal(str(ln["amount"])) in amounts
                    and (not options or ln["ordinal"] in options)]
            if len(hits) == 1:
                return hits[0]
            told = next(iter(amounts))
            if not hits and len(amounts) == 1 and told == told.to_integral_value() and 1 <= told <= 31 and re.fullmatch(
                    r"\W*(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\s+(?:one|day)\W*", answer, re.IGNORECASE):
                # "the 18 one" of three lunches, none of 18: the one listed on the 18th
                on_day = [ln["ordinal"] for ln in claim.lines if (not options or ln["ordinal"] in options) and str(
                    ln.get("date") or "")[8:10].lstrip("0") == str(int(told))]
                if len(on_day) == 1:
                    return on_day[0]
        if m := re.fullmatch(r"\W*(?:line\s*)?#?(\d{1,3})\W*", answer, re.IGNORECASE):
            return int(m.group(1))
        if claim is not None and options and (on_the_day := _listed_on_the_day(answer, claim, options, ctx)) is not None:
            return on_the_day
        if claim is not None and not amounts and len(answer) <= 60:  # "the cafe central one": by its name, any case
            said = set(re.findall(r"[^\W\d_]{4,}", answer.casefold()))
            hits = [ln["ordinal"] for ln in claim.lines if (not options or ln["ordinal"] in options)
                    and said & set(re.findall(r"[^\W\d_]{4,}", f"{ln.get('merchant') or ''} {ln.get('description') or ''}"
                                              .casefold()))]
            if len(hits) == 1:
                return hits[0]
        return None
    if missing == "title":
        raw = _TITLE_ANSWER.sub("", _TITLE_FILLER.sub("", answer))
        if m := _NAMED_HERE.search(raw):
            raw = raw[m.end():]  # "need a claim called Paris offsite", "oh ok. call it …": the title is what follows
        named = currency_named(raw)
        code = None
        if named is not None:
            code, at, to = named
            raw = raw[:at] + raw[to:]
        elif m := re.search(r"(?:\bin\s+|\s)([A-Z]{3})\b", raw):
            code, raw = m.group(1), raw[:m.start()] + raw[m.end():]
        elif m := re.search(r"\bin\s+(euros?|dollars?|pounds?|francs?|yen)\b", raw, re.IGNORECASE):
            code, raw = _currency_code(m.group(1)), raw[:m.start()] + raw[m.end():]
        title = _tidy_title(re.sub(r"(?:[\s,(-]+(?:in|pls|please|thanks|thx)?)+\W*$", "", _TITLE_FILLER.sub("", raw)))
        if not title or len(title) > 60 or find_amounts(title) or verb_of(title)[0] is not None or \
                NO_TITLE_YET.match(raw):
            return None  # ("call it a day", "name it after the client": no name given)
        return title, code
    if missing == "case":  # "put it on my berlin one", "sorry i meant hamburg": one of the user's open claims
        mention = find_mention(answer, ctx.claims)
        open_ = [c for c in (mention.claims if mention else ()) if c.open]
        return open_[0] if len(open_) == 1 else None
    if missing == "currency":
        named = currency_named(answer)
        if named is not None:
            return named[0]
        code = re.fullmatch(r"\W*([A-Za-z]{3})\W*", answer)
        return code.group(1).upper() if code else None
    return None


# a category word after "the", "my", "that" (and perhaps an ordinal: "the second taxi") names a line already told
_LINE_NAMED = re.compile(r"\b(?:the|that|this|my|our|his|her|their)\s+(?:(?:first|second|third|fourth|fifth|last|other|"
                         r"earlier|previous|\d{1,2}(?:st|nd|rd|th))\s+)?$", re.IGNORECASE)
_ORDINAL_BEFORE = re.compile(r"\b(?:first|second|third|fourth|fifth|last|other|earlier|previous|\d{1,2}(?:st|nd|rd|th))\s+$",
                             re.IGNORECASE)
# words that tell a line's value was otherwise: a correction, not a kind
_CORRECTING = re.compile(r"\b(?:was|were|is|are|should\s+be|actually|instead|not|wrong|correct\w*|chang\w*|mov\w*|fix\w*)\b"
                         r"|n't\b", re.IGNORECASE)


_WEEKDAY_WORD = re.compile(r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|weds?|thu|thurs?|fri|sat|"
                           r"sun)\b\.?", re.IGNORECASE)
_WEEKDAY_NUMBER = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}


# words that make a day in an answer something else than the line's own: "not", "before", "after", "maybe", "but"
_NOT_PLAINLY = re.compile(r"\b(?:not|no|n't|never|before|after|prior|previous|next|following|other|either|neither|but|except|"
                          r"maybe|perhaps|probably|think|guess|might|unsure|or)\b|[?!]", re.IGNORECASE)


def _listed_on_the_day(answer: str, claim: Claim, options: list[int], ctx: Context) -> int | None:
    """"the one of Friday, to the airport", "tue", "the taxi on last day 25/11": of the lines the question listed, the
    one line of the day the answer names (by its date, or its weekday), when nothing else it says names another."""
    listed = [ln for ln in claim.lines if ln["ordinal"] in options and ln.get("date")]
    if _NOT_PLAINLY.search(answer):
        return None  # "not wed", "the one before wednesday", "maybe wed", "anything but monday": asked again
    named = {w for ln in listed for w in re.findall(r"[^\W\d_]+", f"{ln.get('merchant') or ''} {ln.get('description') or ''}"
                                                    .casefold())}
    if any(m.group(1).casefold() in named for m in _WEEKDAY_WORD.finditer(answer)):
        return None  # "Sun" beside the "Sun Inn": a name, or Sunday?
    weekdays = {_WEEKDAY_NUMBER[m.group(1)[:3].lower()] for m in _WEEKDAY_WORD.finditer(answer)}
    dated = {d.value for d in find_dates(answer, ctx.today) if d.value and re.search(r"\d", d.text)}
    if not weekdays and not dated or find_amounts(mask(answer, [(d.start, d.end) for d in find_dates(answer, ctx.today)])):
        return None
    hits = [ln for ln in listed if (not dated or ln["date"] in dated)
            and (not weekdays or date.fromisoformat(str(ln["date"])).weekday() in weekdays)]
    if len(hits) != 1:
        return None
    kinds = {c.category for c in find_categories(answer) if not c.weak and not is_destination(answer, c)}
    said = set(re.findall(r"[^\W\d_]{4,}", answer.casefold()))
    def words(ln: dict[str, Any]) -> set[str]:
        return set(re.findall(r"[^\W\d_]{4,}", f"{ln.get('merchant') or ''} {ln.get('description') or ''}".casefold()))
    if kinds and hits[0].get("category") not in kinds or any(said & words(ln) for ln in listed if ln is not hits[0]) \
            and not said & words(hits[0]):
        return None  # ("the dinner on friday" for a taxi, "the airport one on friday" when another line went to the airport)
    return int(hits[0]["ordinal"])


def _names_a_line(answer: str, ctx: Context) -> bool:
    """Does an answer to "what kind of expense is it?" name a line rather than a kind: "the second taxi", "the hotel
    was 120", a day or a line number of its own? Then it is no answer to the question (it is read afresh)."""
    if find_dates(answer, ctx.today) or find_line_refs(answer):
        return True
    for found in find_categories(answer):
        before = answer[:found.start]
        if _ORDINAL_BEFORE.search(before) or _LINE_NAMED.search(before) and _CORRECTING.search(answer[found.end:]):
            return True  # "the second taxi …", "the hotel was 120"; not "that was the taxi into town"
    return False


def _pending_claim(ctx: Context, pending: dict[str, Any]) -> Claim | None:
    case = pending.get("case") or {}
    if case.get("id"):
        return next((c for c in ctx.claims if c.id == case["id"]), None)
    return ctx.default_claim()


# --------------------------------------------------------------------------- follow-ups on the last turn


def _on_recent(ctx: Context, start: int, end: int) -> dict[str, Any] | None:
    text = ctx.message[start:end]
    last = _last_line(ctx)
    if last is None:
        return None
    claim, line = last
    if ctx.previous is not None and (refs := find_line_refs(ctx.previous)) and not find_amounts(
            mask(ctx.previous, [(r.start, r.end) for r in refs])) and verb_of(ctx.previous)[0] is None:
        # "line 10" … "Line 10 is Anker. What should I do with it?" … "remove it": the line the message before named,
        # never the one the last effect touched; more than one named, or none of this claim's: read afresh
        named = {r.ordinal for r in refs}
        if len(named) != 1 or None in named or not any(ln["ordinal"] in named for ln in claim.lines):
            return None
        line = next(ln for ln in claim.lines if ln["ordinal"] in named)
    ordinal = line["ordinal"]
    case = {"id": claim.id}
    if _REMOVE_THAT.match(text):
        return {"acts": [{"id": "a1", "act": "remove_line", "case": case, "args": {"line": ordinal}, "evidence": text}]}
    if (m := _REMOVE_THAT_END.search(text)) and not find_amounts(text[:m.start()]) and verb_of(text[:m.start()])[0] in (
            None, "add") and not _names_another(text[:m.start()], claim, line):
        return {"acts": [{"id": "a1", "act": "remove_line", "case": case, "args": {"line": ordinal},
                          "evidence": m.group(1)}]}
    amounts = find_amounts(text)
    if len(amounts) != 1 or amounts[0].amount is None or len(split(text, ctx.today)) > 1 and not _ANOTHER.match(text):
        return None
    found = amounts[0]
    if found.currency is not None and found.currency != claim.currency:
        return None
    if found.currency is None and re.search(r"\bthe\s+$", text[:found.start], re.IGNORECASE) and re.fullmatch(
            r"[12]?\d|3[01]", text[found.start:found.end].strip()):
        return None  # "Sorry, the 25": a day of the month as likely as a price; read afresh (and asked about)
    if _ANOTHER.match(text) and not find_categories(text):
        days = {d.value for d in find_dates(text, ctx.today)}
        if None in days or len(days) > 1:
            return None  # a date it cannot read: the message is read afresh (and asked about)
        args = {"amount": money_text(found.amount), "category": line["category"],
                "date": days.pop() if days else line["date"]}  # "another for 30 this morning": its own day
        if line.get("merchant"):
            args["merchant"] = line["merchant"]
        return {"acts": [{"id": "a1", "act": "add_line", "case": case, "args": args, "evidence": text}]}
    if (_MAKE_THAT.match(text) or MARKER.match(text)) and verb_of(re.sub(r"^.*?\bmake\b", "", text))[0] in (
            None, "update", "open") and not find_line_refs(text) and not find_categories(text):
        if money_text(found.amount) == line["amount"]:
            return None
        return {"acts": [{"id": "a1", "act": "update_line", "case": case,
                          "args": {"line": ordinal, "amount": money_text(found.amount)}, "evidence": text}]}
    return None


_NOT_THE = re.compile(r"\bnot\s+(?:the|my|that|this)\s+(?P<name>[^\W\d_][\w'’-]*(?:\s+[^\W\d_][\w'’-]*)?)",
                      re.IGNORECASE)


def _names_of(line: dict[str, Any]) -> set[str]:
    """How a line is named in passing: its merchant's words, and its description's word pairs ("metro card")."""
    merchant = set(re.findall(r"[^\W\d_]{4,}", str(line.get("merchant") or "").casefold()))
    said = re.findall(r"[^\W\d_]+", str(line.get("description") or "").casefold())
    return merchant | {f"{x} {y}" for x, y in pairwise(said)}


def _words_of(line: dict[str, Any]) -> set[str]:
    """The words a line is known by: its merchant's, its description's, its category."""
    said = " ".join(str(line.get(k) or "") for k in ("merchant", "description", "category"))
    return set(re.findall(r"[^\W\d_]{4,}", said.casefold()))


def _names_another(words: str, claim: Claim, last: dict[str, Any]) -> bool:
    """Does an explanation before "remove it" name a line other than the last one ("not the metro card, the
    client paid it. remove it" after the printshop line was changed)? Then "it" is not read as the last line:
    the message is read afresh, and asked about when it cannot be placed."""
    tokens = re.findall(r"[^\W\d_]+", words.casefold())
    said = set(tokens) | {f"{x} {y}" for x, y in pairwise(tokens)}
    mine = _words_of(last) | _names_of(last)
    if any(said & (_names_of(other) - mine) for other in claim.lines if other.get("id") != last.get("id")):
        return True
    if thing_unmatched(words, last):  # "The fika I take myself, remove it": the fika, whichever line was last
        return True
    for m in _NOT_THE.finditer(words):  # "not the X": X must be the last line
        name = {w for w in re.findall(r"[^\W\d_]{4,}", m.group("name").casefold())}
        if name - mine - {"line", "entry", "item", "expense", "receipt"}:
            return True
    return False


_PRONOUN = re.compile(r"\b(?:it|that|this)(?:\s+one)?\b", re.IGNORECASE)


def _on_previous(ctx: Context, start: int, end: int) -> dict[str, Any] | None:
    """"change it to 30 instead" after a declined removal or a taken-back edit: "it" is the line the previous
    message named, when that message left it as it was (the last turn committed nothing on it)."""
    text = ctx.message[start:end]
    if ctx.previous is None or not _PRONOUN.search(text) or find_line_refs(text) or verb_of(text)[0] != "update":
        return None
    earlier = [i for i in Reader(_with_message(ctx, ctx.previous)).read(split(ctx.previous, ctx.today))
               if isinstance(i, ActIntent) and i.act in ("update_line", "remove_line") and not i.problem]
    if len(earlier) != 1 or not isinstance(earlier[0].args.get("line"), int):
        return None
    named = earlier[0]
    claim = named.claim or ctx.default_claim()
    if claim is None or any(e.get("case") == claim.id for e in ctx.recent if e.get("event") == "line_updated"
                            and e.get("data", {}).get("ordinal") == named.args["line"]):
        return None
    intents = Reader(_with_message(ctx, text), overrides={"line": named.args["line"]}).read(split(text, ctx.today))
    acts = [i for i in intents if isinstance(i, ActIntent)]
    if len(acts) != 1 or acts[0].act != "update_line" or acts[0].problem:
        return None
    act = acts[0]
    return {"acts": [{"id": "a1", "act": "update_line", "case": named.ref or {"id": claim.id}, "args": act.args,
                      "evidence": act.quote(text)}]}


def _last_line(ctx: Context) -> tuple[Claim, dict[str, Any]] | None:
    """The line the conversation's last turn added or changed, as it stands now on an open claim."""
    for effect in reversed(ctx.recent):
        line_id = (effect.get("data") or {}).get("line_id")
        if effect.get("event") not in ("line_added", "line_updated") or not line_id:
            continue
        claim = next((c for c in ctx.claims if c.id == effect.get("case") and c.status == "draft"), None)
        line = next((ln for ln in claim.lines if ln.get("id") == line_id), None) if claim else None
        if claim is not None and line is not None:
            return claim, line
    return None


def _with_message(ctx: Context, message: str) -> Context:
    return replace(ctx, message=message, pending=None, results={}, has_rounds=False)


def _trimmed(message: str) -> tuple[int, int]:
    return _trim(message, 0, len(message))


def plan_json(plan: dict[str, Any]) -> str:
    return json.dumps({"plan": plan}, ensure_ascii=False)
