"""Questions: which read tool answers them, and the answer composed from what the reads returned.

Topics: the expense policy (``lookup_policy``), a claim's state, totals and next steps
(``get_case``), the list of claims (``search_cases``), exchange rates (``exchange_rate``),
arithmetic (``calculate``) and receipts (``inspect_attachment``). In a mode without reads, what
the request itself shows (claim views) and pure arithmetic are still answered; the policy,
exchange rates and receipts are not, and the answer says so.

Answers never narrate effects: a status is described ("awaiting approval"), and every answer is
passed through ``neutral`` so no act's claim phrase can appear in it.
"""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from babel.dates import format_date
from babel.numbers import format_decimal

from ..calculator import calculation_result
from ..exchange import to_reference_base
from ..knowledge import terms
from ..policies import CATEGORY_LIMITS, claim_review, limit_of
from . import lexicon
from .clauses import CHECK_ASKED as _CHECK
from .context import Context, find_mention, named_reference, read_key
from .values import best_category, find_amounts, find_categories, find_dates, mask

if TYPE_CHECKING:
    from .reading import Intent, Reader

STATUS_WORDS = {
    "draft": "a draft",
    "submitted": "awaiting approval (locked for edits)",
    "approved": "approved and closed",
    "rejected": "rejected and closed",
    "withdrawn": "closed without approval (you took it back)",
}
_ATTACHMENT = re.compile(r"\batt_[0-9A-Za-z]{4,40}\b")
_POLICY = re.compile(
    r"\b(?:polic(?:y|ies)|limits?|cap|capped|allowed|allowances?|maximum|max|reimburs\w*|receipts?|deadlines?|"
    r"recei?pts?|reciepts?|recipts?|receits?|notes?|justif\w*|explanation|proof|paperwork|documentation|"
    r"need\s+(?:a|an|to|the)|(?:is|are)\s+(?:a|an|the|it|that|this)?\s*(?:[\w€$£.,]+\s+){0,5}?(?:ok(?:ay)?|fine|alright)|too\s+(?:much|high|expensive)|(?:would|will)\s+(?:that|this|it)\s+be\s+(?:ok(?:ay)?|fine|alright|acceptable)|within\s+(?:the\s+)?(?:policy|limits?)|"
    r"rules?|per\s+night|per\s+day|a\s+night|a\s+day|covered|cover|eligible|approval|approver|alcohol|tips?|"
    r"first\s+class|business\s+class|economy|mileage|per\s+(?:kilomet(?:er|re)s?|km|miles?)|own\s+car|lost|late|invoice|can\s+i\s+(?:claim|expense|get|spend|book|"
    r"take|use|fly|stay|have|put)|how\s+much\s+can|how\s+long|how\s+many\s+days|is\s+\w+\s+ok|permitted|ok\s+to|"
    r"submit\s+by|in\s+time|when\s+(?:do|must|should|shall)\s+i|until\s+when|by\s+when)\b",
    re.IGNORECASE)
# what the policy pays per unit of something ("how much do i get per kilometer if i drove my own car"): never the claim
_RATE_OF_THE_POLICY = re.compile(r"\bper\s+(?:kilomet(?:er|re)s?|km|miles?)\b|\b(?:my\s+own|private|personal)\s+car\b|"
                                 r"\bmileage\b", re.IGNORECASE)
_NEXT = re.compile(
    r"\b(?:next|what\s+(?:can|should|do|shall)\s+i\s+do|what\s+now|options|what\s+else|left\s+to\s+do|"
    r"how\s+do\s+i\s+(?:proceed|continue|go\s+on)|missing|ready\s+to\s+submit|can\s+i\s+submit|"
    r"what\s+can\s+(?:you|we)\s+do)\b",
    re.IGNORECASE)
# "is anything still missing before I submit?", "which of my lines need a receipt?": the claim checked, line by line
_REVIEW = re.compile(r"\b(?:missing|before\s+(?:i|we)\s+(?:submit|send)|ready\s+to\s+(?:submit|send|go)|(?:which\s+of\s+)?"
                     r"(?:my|the|our)\s+lines?\s+(?:need|needs|are|is|still|have|lack)|anything\s+(?:else\s+)?(?:left|wrong|"
                     r"to\s+fix))\b", re.IGNORECASE)
_HOWTO = re.compile(r"^(?:how\s+(?:do|can|should|would)\s+(?:i|we)|how\s+to)\s+(?:\w+\s+)?"
                    r"(open|start|create|add|change|edit|update|correct|fix|remove|delete|submit|withdraw|cancel)\b")
_HOWTO_TEXT = {
    "open": "Say what the claim is for and, if not EUR, its currency: “open a claim for the Berlin trip in EUR”.",
    "add": "Tell me what you paid, how much and when: “add a taxi ride, 42.50, yesterday”.",
    "change": "Name the line by its number or merchant and give the new value: “change line 2 to 120” or "
              "“the hotel line should be 180”.",
    "remove": "Name the line: “remove line 3” or “remove the taxi line”; you confirm it on a card.",
    "submit": "Say “submit the claim” (or name it: “submit the Lisbon claim”) and confirm the card; any draft with "
              "at least one line can go to the approver.",
    "withdraw": "Say “withdraw the claim” (or name it) and confirm the card; a withdrawn claim is closed for good.",
}
_HOWTO_FAMILY = {"start": "open", "create": "open", "edit": "change", "update": "change", "correct": "change",
                 "fix": "change", "delete": "remove", "cancel": "withdraw"}
_LIST = re.compile(r"\b(?:claims|which\s+claim|what\s+claim|any\s+claim)\b", re.IGNORECASE)
_CASE = re.compile(
    r"\b(?:total|totals|sum|how\s+much|spent|spend|status|state|lines?|items?|entries|summary|overview|"
    r"breakdown|list|what'?s\s+on|what\s+is\s+on|look\s+like|looks?|show|details?|where|how\s+many|approved|"
    r"rejected|submitted|draft|locked|open|on\s+it|in\s+it|what\s+about|expenses?|claim|currency|"
    r"biggest|largest|highest|priciest|most\s+expensive|smallest|cheapest|lowest|comes?\s+to|come\s+to|add\s+up|"
    r"adds\s+up|overall)\b",
    re.IGNORECASE)
_RATE = re.compile(r"\b(?:rate|rates|exchange|convert|conversion|fx|worth)\b", re.IGNORECASE)
_CURRENCY_TOKEN = re.compile(r"[€$£¥]|\b[A-Za-z]{3,8}\b")
_WORD_OPS = [(r"\bmultiplied\s+by\b", "*"), (r"\bdivided\s+by\b", "/"), (r"\btimes\b", "*"), (r"\bplus\b", "+"),
             (r"\bminus\b", "-"), (r"(?<=\d)\s*[x×]\s*(?=\d)", "*"), (r"÷", "/")]
_OPERATOR = re.compile(r"\d\s*[+\-*/x×÷]\s*\d|\b(?:times|plus|minus|multiplied|divided)\b", re.IGNORECASE)
_EXPRESSION = re.compile(r"[\d(][\d\s.,()+\-*/]*[\d)]")


def read_question(reader: Reader, text: str, start: int, end: int, topic: str | None = None) -> Intent:
    """A question intent with the reads that answer it, or an unknown intent."""
    from .reading import QuestionIntent, UnknownIntent

    ctx = reader.ctx
    intent = QuestionIntent(start, end)
    lowered = text.lower()
    mention = find_mention(text, ctx.claims)
    if mention is not None:
        reader.mention = type(mention)(mention.claims, mention.word, mention.start + start, mention.end + start,
                                       mention.exact)
    if topic is None:
        topic = _topic(text, lowered, mention is not None)
    if topic is None:
        return UnknownIntent(start, end)
    intent.topic = topic
    if topic == "howto":
        verb = _HOWTO.match(lowered).group(1)
        intent.data["text"] = _HOWTO_TEXT[_HOWTO_FAMILY.get(verb, verb)]
    elif topic == "attachment":
        ids = _ATTACHMENT.findall(text)
        intent.reads = [{"tool": "inspect_attachment", "args": {"attachment": i}} for i in dict.fromkeys(ids)]
    elif topic == "exchange":
        args, problem = _exchange_args(text, ctx, mention)
        if problem:
            intent.data["problem"] = problem
        else:
            intent.reads = [{"tool": "exchange_rate", "args": args}]
    elif topic == "calculate":
        intent.data["expression"] = _expression(text)
        intent.reads = [{"tool": "calculate", "args": {"expression": intent.data["expression"]}}]
    elif topic == "policy":
        query = _policy_query(text)
        about = text
        if _ABOUT_IT.search(text) and not find_categories(text) and not find_amounts(text):
            # "…, is that ok?": asked about the expense the message told; its kind is what the policy is asked
            about = ctx.message
            told = best_category(find_categories(mask(ctx.message, [(d.start, d.end) for d in find_dates(
                ctx.message, ctx.today)])))
            query = f"{told} limit" if told else query
        intent.data["query"] = query
        intent.data["verdict"] = policy_verdict(about, ctx)
        intent.reads = [{"tool": "lookup_policy", "args": {"query": query}}]
    elif topic == "list":
        status = _status_filter(lowered)
        intent.data["status"] = status
        intent.reads = [{"tool": "search_cases", "args": {"query": "", **({"status": status} if status else {})}}]
    elif mention is None and (named := named_reference(text, ctx)) is not None:
        # "what's the total of my Tokyo claim?" with no such claim: said so, never another claim's answer
        intent.data["problem"] = (f"I could not find a claim of yours called “{named.word}”. Your open claims: "
                                  f"{', '.join(f'“{c.title}”' for c in ctx.open_claims) or 'none'}.")
    else:  # case, next
        if mention is not None:
            claims = list(mention.claims)
        elif reader.mention is not None and reader.mention.claims:
            claims = list(reader.mention.claims)
        elif ctx.default_claim() is not None:
            claims = [ctx.default_claim()]
        else:
            claims = ctx.open_claims
        intent.data["claims"] = [c.id for c in claims]
        intent.data["category"] = _category_asked(text) if topic == "case" else None
        intent.data["aspect"] = _aspect(lowered)
        if intent.data["aspect"] == "lookup":
            intent.data["category"] = None
            found = find_categories(text)
            intent.data["kinds"] = sorted({c.category for c in found})
            intent.data["words"] = [c.text.lower() for c in found if c.category == "meals"]
            intent.data["days"] = sorted({d.value for d in find_dates(text, ctx.today) if d.value})
        intent.data["review"] = bool(_REVIEW.search(lowered))
        intent.reads = [{"tool": "get_case", "args": {"case": c.id}} for c in claims]
    return intent


def _topic(text: str, lowered: str, mentions_claim: bool) -> str | None:
    if _ATTACHMENT.search(text):
        return "attachment"
    currencies = _currencies(text)
    if _RATE.search(lowered) and (currencies or "rate" in lowered):
        return "exchange"
    if len(currencies) >= 2 or (currencies and re.search(r"\bin\s+(?:[A-Za-z]{3}\b|euros?|dollars?|pounds?|"
                                                         r"francs?|yen)", lowered) and find_amounts(text)):
        return "exchange"
    if _expression(text) and not (_POLICY.search(lowered) and not _OPERATOR.search(text)):
        return "calculate"  # "can I claim 3 nights at 150?" asks the policy, "what is 3 x 150?" a calculation
    if _HOWTO.match(lowered):
        return "howto"
    if _CHECK.search(lowered):
        return "case"  # "did you get the taxi?", "what did I put for tuesday lunch?"
    if re.search(r"\b(?:the\s+)?total\b", lowered) and _REVIEW.search(lowered) and not re.search(
            r"\b(?:missing|left|next|what\s+else|anything|wrong)\b", lowered):
        return "case"  # "can you tell me the total before I submit?": the total, not what is left to do
    if _NEXT.search(lowered) or _REVIEW.search(lowered):
        return "next"
    if _POLICY.search(lowered) and (not re.search(r"\bhow\s+much\s+(?:did|have|has|was|is|are|do)\b", lowered) or re.search(
            r"\bhow\s+much\s+(?:is|are)\s+(?:the\s+|my\s+|our\s+)?(?:[a-z]+\s+){0,2}(?:limit|cap|max|maximum|allowance)s?\b",
            lowered) or _RATE_OF_THE_POLICY.search(lowered)):
        return "policy"  # "how much is the hotel limit for one night?" asks the policy, "how much is the hotel?" the claim
    if _LIST.search(lowered) and not mentions_claim:
        return "list"
    if _CASE.search(lowered):
        return "case"
    return None


def _currencies(text: str) -> list[tuple[str, int]]:
    found = []
    for m in _CURRENCY_TOKEN.finditer(text):
        token = m.group(0)
        if token in lexicon.CURRENCY_SYMBOLS:
            found.append((lexicon.CURRENCY_SYMBOLS[token], m.start()))
        elif token.lower() in lexicon.CURRENCY_WORDS and (len(token) != 3 or token.isupper()
                                                          or token.lower() in ("eur", "usd", "gbp", "chf", "yen")):
            found.append((lexicon.CURRENCY_WORDS[token.lower()], m.start()))
        elif len(token) == 3 and token.isupper() and token not in ("EUR",) and token.isalpha() and token not in (
                "ATT", "THE", "AND", "VAT", "TAX"):
            found.append((token, m.start()))
    if re.search(r"\bus\s+dollars?\b", text, re.IGNORECASE):
        found = [(c, p) for c, p in found if c != "USD"] + [("USD", re.search(r"\bus\s+dollars?\b", text,
                                                                              re.IGNORECASE).start())]
        found.sort(key=lambda item: item[1])
    return found


def _exchange_args(text: str, ctx: Context, mention) -> tuple[dict[str, Any], str | None]:
    # "the sandwich in zurich was in CHF, which rate you used?": the currency said elsewhere in the message
    currencies = _currencies(text) or _currencies(ctx.message)
    codes = list(dict.fromkeys(c for c, _ in currencies))
    dates = find_dates(text, ctx.today)
    masked = mask(text, [(d.start, d.end) for d in dates])
    amounts = [a for a in find_amounts(masked) if a.amount is not None]
    args: dict[str, Any] = {}
    if amounts and amounts[0].currency:
        source = amounts[0].currency
        others = [c for c in codes if c != source]
        if not others:
            claim = mention.claims[0] if mention is not None and len(mention.claims) == 1 else ctx.default_claim()
            others = [claim.currency] if claim is not None and claim.currency != source else (
                ["EUR"] if source != "EUR" else [])
        if not others:
            return {}, "Which currency should I convert to?"
        args = {"from": source, "to": others[0], "amount": str(amounts[0].amount)}
    elif len(codes) >= 2:
        args = {"from": codes[0], "to": codes[1]}
        if amounts:
            args["amount"] = str(amounts[0].amount)
    elif len(codes) == 1:
        claim = ctx.default_claim()
        other = claim.currency if claim is not None and claim.currency != codes[0] else (
            "EUR" if codes[0] != "EUR" else None)
        if other is None:
            return {}, "Between which two currencies? For example: “what is the USD to EUR rate?”"
        args = {"from": codes[0], "to": other}
        if amounts:
            args["amount"] = str(amounts[0].amount)
    else:
        return {}, "Between which two currencies? For example: “what is the USD to EUR rate?”"
    dated = [d.value for d in dates if d.value]
    if dated:
        args["date"] = dated[0]
    return args, None


def _expression(text: str) -> str | None:
    """Arithmetic the user asked for, as the calculator's syntax; None when there is none."""
    t = text
    t = re.sub(r"(\d+)\s+(?:(?:nights?|days?|tickets?|rides?|items?)\s+(?:at|of|@|for)|(?:people|persons)\s+(?:at|@))\s+"
               r"(?:[€$£]\s?)?(\d+(?:[.,]\d+)?)", r"\1 * \2", t, flags=re.IGNORECASE)
    for pattern, symbol in _WORD_OPS:
        t = re.sub(pattern, f" {symbol} ", t, flags=re.IGNORECASE)
    t = re.sub(r"(\d),(\d{3})(?!\d)", r"\1\2", t)
    t = re.sub(r"(\d),(\d{1,2})(?!\d)", r"\1.\2", t)
    best = None
    for m in _EXPRESSION.finditer(t):
        candidate = m.group(0).strip()
        day = re.fullmatch(r"(\d{1,2})/(\d{1,2})(?:/\d{2,4})?", candidate)
        if day and 1 <= int(day.group(1)) <= 31 and 1 <= int(day.group(2)) <= 12 and not re.search(
                r"\b(?:what(?:'s|\s+is)|whats|calculate|compute|divided)\b|=", text, re.IGNORECASE):
            continue  # "check-in 23/11": a day, not 23 divided by 11
        if re.search(r"\d\s*[+\-*/]\s*[\d(]", candidate) and len(re.findall(r"\d+(?:\.\d+)?", candidate)) >= 2:
            if best is None or len(candidate) > len(best):
                best = candidate
    if best is None:
        return None
    return " ".join(best.split())[:200]


# the policy section each kind of expense is under (knowledge/expense-policy.md)
_SECTION_WORDS = {"hotel": "hotel accommodation", "meals": "meals", "taxi": "taxi", "travel": "travel rail air",
                  "other": "other expenses"}


def _policy_query(text: str) -> str:
    query = re.sub(r"^(?:what(?:'s| is| are)?|how|can|could|do|does|is|are|tell me|and)\b\s*", "", text.strip(),
                   flags=re.IGNORECASE)
    query = query.strip(" ?.!") or text.strip(" ?.!")
    kinds = {c.category for c in find_categories(text) if not c.weak}
    if len(kinds) == 1 and not re.search(r"\b(?:limit|receipt|deadline|approv)\w*", query, re.IGNORECASE):
        # "can I claim printing?": the section of its kind of expense ("printing" is other)
        query = f"{query} {_SECTION_WORDS[kinds.pop()]}"
    return query[:200]


def _status_filter(lowered: str) -> str | None:
    for word, status in (("draft", "draft"), ("submitted", "submitted"), ("awaiting approval", "submitted"),
                         ("pending", "submitted"), ("approved", "approved"), ("rejected", "rejected"),
                         ("withdrawn", "withdrawn")):
        if word in lowered:
            return status
    return None


def _category_asked(text: str) -> str | None:
    found = [c for c in find_categories(text) if not c.weak]
    return found[0].category if found else None


_EXTREME = re.compile(r"\b(?:(biggest|largest|highest|priciest|most\s+expensive)|(smallest|cheapest|lowest|"
                      r"least\s+expensive))\b", re.IGNORECASE)


# a question whether (or how) an expense is on the claim: answered with the lines it names
def _aspect(lowered: str) -> str:
    if _CHECK.search(lowered):
        return "lookup"
    if m := _EXTREME.search(lowered):
        return "biggest" if m.group(1) else "smallest"
    if re.search(r"\b(?:status|state|approved|rejected|submitted|locked|where)\b", lowered):
        return "status"
    if re.search(r"\b(?:total|sum|how\s+much|spent|spend|comes?\s+to|come\s+to|adds?\s+up|overall)\b", lowered):
        return "total"
    if re.search(r"\bhow\s+many\b", lowered):
        return "count"
    return "overview"


# --------------------------------------------------------------------------- answers


def answer(intent: Any, ctx: Context) -> str:
    """The answer text for a question intent, from read results or (without reads) the request."""
    if intent.data.get("problem"):
        return intent.data["problem"]
    topic = intent.topic
    if topic == "howto":
        return intent.data["text"]
    if topic == "calculate" and not ctx.has_rounds:
        return _calculate_locally(intent.data["expression"])
    if topic in ("case", "next") and not ctx.has_rounds:
        return _case_answer(intent, ctx, {c.id: c.view for c in ctx.claims})
    if topic == "list" and not ctx.has_rounds:
        return _list_locally(ctx, intent.data.get("status"))
    results = [ctx.results.get(read_key(r["tool"], r["args"])) for r in intent.reads]
    if not ctx.has_rounds or all(r is None for r in results):
        if ctx.rejected:
            return "I could not look that up: the lookup was refused."
        if ctx.has_rounds:
            return (f"I ran out of lookups for this message before “{intent.quote(ctx.message)}”; "
                    "please ask it again on its own.")
        what = {"policy": "the expense policy", "exchange": "exchange rates", "attachment": "receipts"}.get(
            topic, "that")
        return f"I cannot look up {what} in this mode, so I cannot answer “{intent.quote(ctx.message)}” here."
    failed = [r for r in results if r is not None and not r.get("ok")]
    if failed and len(failed) == len(results):
        return _failure(topic, failed[0])
    ok = [r["result"] for r in results if r is not None and r.get("ok")]
    if topic == "policy":
        verdict = intent.data.get("verdict")
        return (f"{verdict} " if verdict else "") + _policy_answer(ok[0], intent.data.get("query", ""))
    if topic == "exchange":
        return _exchange_answer(ok[0])
    if topic == "calculate":
        return _calculation_text(ok[0])
    if topic == "list":
        return _list_answer(ok[0])
    if topic == "attachment":
        return " ".join(_attachment_answer(r) for r in ok)
    views = {view["id"]: view for view in ok if isinstance(view, dict) and "id" in view}
    return _case_answer(intent, ctx, views)


def _failure(topic: str, result: dict[str, Any]) -> str:
    error = result.get("error", "error")
    if error == "not_found":
        return "I could not find that: it does not exist or is not yours."
    if topic == "exchange" and result.get("detail"):
        return f"I could not get that rate: {result['detail'].split(':', 1)[-1].strip()}."
    if topic == "calculate":
        return "I could not calculate that: only numbers with + - * / and parentheses work."
    return f"I could not look that up ({error})."


def _calculate_locally(expression: str | None) -> str:
    try:
        result = calculation_result(expression or "")
    except ValueError:
        return "I could not calculate that: only numbers with + - * / and parentheses work."
    return _calculation_text(result)


def _calculation_text(result: dict[str, str]) -> str:
    exact, rounded = Decimal(result["result"]), Decimal(result["rounded"])
    suffix = f" (rounded: {result['rounded']})." if exact != rounded else "."
    return f"{result['expression']} = {_number(result['result'])}{suffix}"


def _number(value: str) -> str:
    return format_decimal(Decimal(value), format="#,##0.##########", locale="en")


def money(amount: str | Decimal, currency: str) -> str:
    """``1,234.50 EUR``: babel's number formatting with the ISO code, as the receipts write it."""
    return f"{format_decimal(Decimal(amount), format='#,##0.00', locale='en')} {currency}"


def day(iso: str) -> str:
    try:
        return format_date(date.fromisoformat(iso), format="d MMM yyyy", locale="en")
    except ValueError:
        return iso


def _lines_text(view: dict[str, Any]) -> str:
    parts = []
    for line in view.get("lines", []):
        label = line.get("merchant") or str(line.get("category", "")).capitalize()
        parts.append(f"{line['ordinal']}. {label} ({line.get('category')}), {money(line['amount'], view['currency'])}"
                     f" on {day(line['date'])}")
    return "; ".join(parts)


def _count(n: int) -> str:
    return "no lines" if n == 0 else "1 line" if n == 1 else f"{n} lines"


def _case_answer(intent: Any, ctx: Context, views: dict[str, dict[str, Any]]) -> str:
    ids = intent.data.get("claims") or []
    if not ids:
        return "You have no open claims. You can open one, e.g. “start a new claim for the Berlin trip”."
    texts = []
    for case_id in ids:
        view = views.get(case_id)
        if view is None:
            continue
        texts.append(_next_text(view, bool(intent.data.get("review"))) if intent.topic == "next"
                     else _view_text(view, intent.data))
    if not texts:
        return "I could not read that claim."
    return " ".join(texts)


def _view_text(view: dict[str, Any], data: dict[str, Any]) -> str:
    title, currency = f"“{view['title']}”", view["currency"]
    status = STATUS_WORDS.get(view["status"], view["status"])
    count = int(view.get("line_count", len(view.get("lines", []))))
    category = data.get("category")
    if category:
        amount = view.get("totals_by_category", {}).get(category)
        n = sum(1 for line in view.get("lines", []) if line.get("category") == category)
        if not amount:
            return f"{title} has no {category} lines; its total is {money(view['total'], currency)}."
        return (f"On {title}, {category} comes to {money(amount, currency)} ({_count(n)}), out of a total of "
                f"{money(view['total'], currency)}.")
    aspect = data.get("aspect", "overview")
    if aspect == "lookup":
        return _lookup_text(view, data)
    if aspect in ("biggest", "smallest"):
        lines = view.get("lines", [])
        if not lines:
            return f"{title} has no lines yet."
        pick = (max if aspect == "biggest" else min)(lines, key=lambda line: Decimal(str(line["amount"])))
        label = pick.get("merchant") or str(pick.get("category", "")).capitalize()
        return (f"The {aspect} expense on {title} is line {pick['ordinal']}: {label} ({pick.get('category')}), "
                f"{money(pick['amount'], currency)} on {day(pick['date'])}.")
    if aspect == "total":
        return f"{title} comes to {money(view['total'], currency)} over {_count(count)}; it is {status}."
    if aspect == "status":
        return f"{title} is {status}, with {_count(count)} totalling {money(view['total'], currency)}."
    if aspect == "count":
        return f"{title} has {_count(count)}, totalling {money(view['total'], currency)}."
    lines = _lines_text(view)
    return (f"{title} is {status} in {currency} with {_count(count)}" + (f": {lines}" if lines else "")
            + f". Total: {money(view['total'], currency)}.")


def _lookup_text(view: dict[str, Any], data: dict[str, Any]) -> str:
    """"did you get the taxi?": the lines of that kind (and day) on the claim, or that there is none."""
    title, currency = f"“{view['title']}”", view["currency"]
    lines = [line for line in view.get("lines", []) if (not data.get("kinds") or line.get("category") in data["kinds"]
             or any(w in str(line.get("description") or "").lower() for w in data.get("words", [])))
             and (not data.get("days") or line.get("date") in data["days"])]
    if not data.get("kinds") and not data.get("days"):
        lines = view.get("lines", [])
    if not lines:
        what = " or ".join(data.get("words") or data.get("kinds") or ["such"])
        return f"{title} has no {what} line" + (f" on {', '.join(day(d) for d in data['days'])}" if data.get("days")
                                                 else "") + f"; its lines come to {money(view['total'], currency)}."
    listed = "; ".join(f"line {line['ordinal']}: {line.get('merchant') or str(line.get('category', '')).capitalize()}"
                       f"{' (' + line['description'] + ')' if line.get('description') else ''}, "
                       f"{money(line['amount'], currency)} on {day(line['date'])}" for line in lines)
    if not data.get("kinds") and not data.get("days"):
        return f"{title} has {listed}."  # "did you get the tgv?": no kind or day read, so no "yes", only the lines
    return f"Yes, {title} has {listed}."


def _next_text(view: dict[str, Any], review: bool = False) -> str:
    title = f"“{view['title']}”"
    status = view["status"]
    acts = view.get("next_acts", [])
    if status == "draft":
        options = []
        if "add_line" in acts:
            options.append("add lines")
        if "update_line" in acts:
            options.append("change or remove lines")
        if "submit_claim" in acts:
            options.append("submit it for approval")
        if "withdraw_claim" in acts:
            options.append("withdraw it")
        listed = ", ".join(options[:-1]) + (" or " if len(options) > 1 else "") + options[-1] if options else ""
        found = claim_review(view) if review and view.get("lines") else None
        checked = "" if found is None else (" Before it goes, the policy asks for " + "; ".join(found) + "." if found
                                            else " Nothing the policy asks for is missing from its lines.")
        return f"{title} is a draft with {_count(int(view.get('line_count', 0)))}: you can {listed}.{checked}"
    if status == "submitted":
        return f"{title} is awaiting approval and locked, so its lines cannot be edited; you can open a new claim."
    return f"{title} is {STATUS_WORDS.get(status, status)}; you can open a new claim."


def _list_locally(ctx: Context, status: str | None) -> str:
    claims = [c for c in ctx.open_claims if status is None or c.status == status]
    if not claims:
        return "You have no open claims."
    return "Your open claims: " + "; ".join(
        f"“{c.title}” ({STATUS_WORDS.get(c.status, c.status)}, {_count(len(c.lines))}, "
        f"{money(c.view.get('total', '0'), c.currency)})" for c in claims) + "."


def _list_answer(result: dict[str, Any]) -> str:
    cases = result.get("cases", [])
    if not cases:
        return "You have no claims" + (f" that are {STATUS_WORDS.get(result['status'], result['status'])}"
                                       if result.get("status") else "") + "."
    return f"You have {len(cases)} claim{'s' if len(cases) != 1 else ''}: " + "; ".join(
        f"“{c['title']}” ({STATUS_WORDS.get(c['status'], c['status'])}, {_count(int(c['line_count']))}, "
        f"{money(c['total'], c['currency'])})" for c in cases) + "."


def _exchange_answer(result: dict[str, Any]) -> str:
    text = (f"At the company reference rate in force on {day(result['effective_date'])}, 1 {result['from']} = "
            f"{result['rate']} {result['to']} (1 {result['to']} = {result['inverse']} {result['from']})")
    if result.get("converted"):
        text += f"; {money(result['amount'], result['from'])} is {money(result['converted'], result['to'])}"
    return text + "."


def _attachment_answer(result: dict[str, Any]) -> str:
    return (f"Receipt {result.get('id', '')} ({result.get('filename', 'file')}): {result.get('merchant', '?')}, "
            f"{money(result.get('total', '0'), result.get('currency', ''))} on {day(str(result.get('date', '')))}"
            + (f", looks like {result['category_hint']}" if result.get("category_hint") else "") + ".")


# "per night", "a night", "each night"; "per person", "each", "a head"; "for 3 (people)", "3 of us", "for the 4 of us"
_PER_UNIT = re.compile(r"\b(?:per|a|an|each|every)\s+(?:night|nite|nt|person|head|pax|ride|trip)s?\b", re.IGNORECASE)
_NIGHTS = re.compile(r"\b(\d{1,2})\s*(?:nights?|nites?|nts?|n)\b", re.IGNORECASE)
_HEADS = re.compile(r"\b(?:for\s+(?:the\s+)?)?(\d{1,2})\s+(?:of\s+us|people|persons|ppl|pax|guests|colleagues|of\s+them)\b|"
                    r"\bfor\s+(\d{1,2})\b(?!\s*(?:[.,]\d|€|\$|£|eur|euros?|usd|gbp|chf|nights?|nites?|days?))", re.IGNORECASE)


_ABOUT_IT = re.compile(r"^\W*(?:(?:and|but|so)\s+)?(?:is|are|would|will|does|do|was|can|could)\s+(?:that|this|it|these|those|"
                       r"they)\b", re.IGNORECASE)


def policy_verdict(text: str, ctx: Context) -> str | None:
    """The answer first, to a question whether one amount of one kind of expense is within the policy ("is a 54 euro
    taxi ok?", "can I claim a hotel of 180 per night?", "dinner for 3, 150 in total — allowed?"): measured against
    the same per-category limits the claim's notes use; None when the question does not name exactly that."""
    masked = mask(text, [(d.start, d.end) for d in find_dates(text, ctx.today)])
    heads = _HEADS.search(masked)
    numbers = [a for a in find_amounts(mask(masked, [heads.span()] if heads else [])) if a.amount is not None]
    amounts = [a for a in numbers if not a.counted] or numbers  # "taxi 54 from …": a lone number is its price
    kinds = {c.category for c in find_categories(text) if not c.weak} & CATEGORY_LIMITS.keys()
    if len(amounts) != 1 or len(kinds) != 1:
        return None
    (found,), (kind,) = amounts, kinds
    claim = ctx.default_claim()
    currency = found.currency or (claim.currency if claim is not None else "EUR")
    per, unit = found.amount, {"hotel": "night", "taxi": "ride", "meals": "day"}[kind]
    nights = _NIGHTS.search(masked) if kind == "hotel" else None
    if found.quantity:
        per = found.amount / found.quantity
    elif nights is not None and int(nights.group(1)) > 1 and not _PER_UNIT.search(masked):
        per = found.amount / int(nights.group(1))  # "hotel 2 nights 420 total": 210 a night
    if kind == "meals" and heads is not None and not _PER_UNIT.search(masked):
        count = int(heads.group(1) or heads.group(2))
        if count > 1:
            per, unit = found.amount / count, "person"
    try:
        in_eur = to_reference_base(per, currency)
    except LookupError:
        return None
    rule = CATEGORY_LIMITS[kind][1]
    limit = limit_of(kind, claim.title if claim is not None else "", text)  # ("in Zürich": the dearer cities' limit)
    said = f"{per:.2f} {currency}" + (f" a {unit}" if per != found.amount or _PER_UNIT.search(masked) else "")
    if currency != "EUR":
        said += f" (about {in_eur:.2f} EUR at the reference rate)"
    if in_eur <= limit:
        return f"Yes: {said} is within the {kind} limit ({limit:.0f} EUR a {'person and day' if kind == 'meals' else unit})."
    return f"{said} is above the {kind} limit: {rule[0].upper()}{rule[1:]}."


def _policy_answer(result: dict[str, Any], query: str) -> str:
    sections = result.get("sections") or []
    if not sections:
        return f"The expense policy has nothing on “{query}”."
    section = sections[0]
    wanted = set(terms(query))
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", section["text"]) if s.strip()]
    scored = []
    for index, sentence in enumerate(sentences):
        found = set(terms(sentence))
        score = len(wanted & found) * 2 + (1 if re.search(r"\d", sentence) else 0)
        scored.append((score, index, sentence))
    best = sorted(scored, key=lambda item: (-item[0], item[1]))[:2]
    chosen = " ".join(sentence for _, _, sentence in sorted(best, key=lambda item: item[1]))
    return f"From the expense policy (“{section['section']}”): {chosen}"
