"""Policies of the expense acts (SPEC §13 stage 5, CONTRACT §3).

Each act's policy is a pure function ``(case | None, validated args) -> PolicyDecision``:

- ``case_locked``: any act on a claim that is no longer a draft is denied;
- ``amount_over_limit``: a line amount worth more than 1000 EUR at the reference rate needs a
  confirmation (an amount that cannot be converted needs one too: the rule fails closed);
- ``claim_empty``: a claim with no lines cannot be submitted;
- ``over_policy_limit`` (advice, the act still runs): a line above its category's limit in the
  expense policy (a hotel night over 180 EUR, meals over 60 EUR a day, a taxi ride over 50 EUR)
  gets a notice in the reply saying what the policy asks for.
"""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

from babel.dates import format_date
from pydantic import BaseModel

from registries import CaseSnapshot, PolicyDecision

from .domain import LOCKED_STATUSES
from .exchange import paid_in_claim_currency, to_reference_base
from .schemas import CONFIRMATION_THRESHOLD_EUR


def case_locked(case: CaseSnapshot) -> PolicyDecision | None:
    """Deny with ``case_locked`` when the claim is submitted, approved, rejected or withdrawn."""
    return PolicyDecision.deny("case_locked") if case.status in LOCKED_STATUSES else None


def amount_over_limit(case: CaseSnapshot, amount: str | None) -> PolicyDecision | None:
    """Ask for confirmation when ``amount`` (in the claim's currency) exceeds 1000 EUR."""
    if amount is None:
        return None
    try:
        in_eur = to_reference_base(Decimal(amount), str(case.state.get("currency", "")))
    except LookupError:
        return PolicyDecision.confirm("amount_over_limit")
    return PolicyDecision.confirm("amount_over_limit") if in_eur > CONFIRMATION_THRESHOLD_EUR else None


def open_claim_policy(case: CaseSnapshot | None, args: BaseModel) -> PolicyDecision:
    """Opening a claim touches no existing case: always allowed."""
    return PolicyDecision.allow()


# the expense policy's per-category limits in EUR (knowledge/expense-policy.md) and what it asks for above them
CATEGORY_LIMITS: dict[str, tuple[Decimal, str]] = {
    "hotel": (Decimal("180"), "the policy reimburses hotels up to 180 EUR per night (250 EUR in London, Zurich, "
                              "Geneva, Oslo and New York); a night above it needs your manager's written approval, "
                              "attached to the claim"),
    "meals": (Decimal("60"), "the policy reimburses meals up to 60 EUR per day per person, alcohol excluded"),
    "taxi": (Decimal("50"), "taxi rides above 50 EUR need a short note of the route and the reason"),
}


# the cities where a hotel night may cost up to 250 EUR (knowledge/expense-policy.md, "Hotels"), as people write them
HIGHER_HOTEL_LIMIT = Decimal("250")
_HIGHER_HOTEL_CITIES = re.compile(r"\b(?:london|z[uü]rich|zuerich|geneva|gen[eè]ve|genf|ginevra|oslo|new\s+york|nyc)\b",
                                  re.IGNORECASE)


def limit_of(category: str, title: str, asked: str = "") -> Decimal:
    """The per-unit limit of ``category`` in EUR: a hotel in one of the dearer cities has the higher one. The city is
    the one a question puts the hotel in ("the hotel in Zurich": the first place after "in"), else the claim's title's
    ("is 240 ok for the hotel in Bergen? Oslo was cheaper" is Bergen's)."""
    limit = CATEGORY_LIMITS[category][0]
    if category != "hotel":
        return limit
    place = _HOTEL_IN.search(asked)
    if place is not None:
        return HIGHER_HOTEL_LIMIT if _HIGHER_HOTEL_CITIES.fullmatch(place.group(1)) else limit
    return HIGHER_HOTEL_LIMIT if _HIGHER_HOTEL_CITIES.search(title or "") else limit


# the place a question puts its hotel in: "the hotel in Zurich", "hotel limit per night in Zürich", "in New London"
_HOTEL_IN = re.compile(r"\bin\s+(?:the\s+)?([A-ZÀ-Ý][\w'-]+(?:\s+[A-ZÀ-Ý][\w'-]+)?)")


def category_limit_notes(case: CaseSnapshot, args: BaseModel) -> tuple[tuple[str, str], ...]:
    """Advice when the line this act leaves is above its category's limit (meals: per day, all meal lines)."""
    lines = list(case.state.get("lines") or [])
    ordinal = getattr(args, "line", None)
    before = lines[ordinal - 1] if isinstance(ordinal, int) and 1 <= ordinal <= len(lines) else {}
    category = getattr(args, "category", None) or before.get("category")
    amount = getattr(args, "amount", None) or before.get("amount")
    if category not in CATEGORY_LIMITS or amount is None:
        return ()
    rule = CATEGORY_LIMITS[category][1]
    limit = limit_of(category, case.title)  # (the trip's city: a hotel's own name may hold another, "Hotel Geneva Lyon")
    currency = str(case.state.get("currency", "EUR"))
    day = getattr(args, "date", None) or before.get("date")
    quantity = getattr(args, "quantity", None) or before.get("quantity") or 1
    total = Decimal(amount) / quantity  # per night, per ride, per person at a meal ("for three of us, 22 each")
    if category == "meals" and day:
        total += sum((Decimal(line["amount"]) / (line.get("quantity") or 1) for n, line in enumerate(lines, 1)
                      if line.get("category") == "meals" and line.get("date") == day and n != ordinal), Decimal(0))
    try:
        in_eur = to_reference_base(total, currency)
    except LookupError:
        return ()
    if in_eur <= limit:
        return ()
    if category == "meals" and total != Decimal(amount) / quantity:
        what = f"meals on that day come to {total:.2f} {currency}"
    elif quantity > 1:
        unit = {"hotel": "night", "taxi": "ride"}.get(category, "unit")
        what = (f"{total:.2f} {currency} a {unit} ({quantity} {unit}s, {Decimal(amount):.2f} {currency}) is above "
                f"the {category} limit")
    else:
        what = f"{Decimal(amount):.2f} {currency} is above the {category} limit"
    noted = getattr(args, "description", None) or before.get("description")
    if category == "taxi" and noted:  # the note the policy asks for is there: said once, not asked again
        return (("over_policy_limit", f"Note: {what}; your note “{noted}” goes with it ({rule})."),)
    return (("over_policy_limit", f"Note: {what}: {rule}."),)


def line_amount_policy(case: CaseSnapshot | None, args: BaseModel) -> PolicyDecision:
    """``add_line`` / ``update_line``: the claim must be a draft; large amounts need confirmation; a line
    above its category's limit is noted."""
    if case is None:
        return PolicyDecision.deny("target_not_found")
    if denied := case_locked(case):
        return denied
    args = _in_claim_currency(case, args)
    notes = category_limit_notes(case, args)
    confirm = amount_over_limit(case, getattr(args, "amount", None))
    if confirm is not None:
        return PolicyDecision.confirm(confirm.code or "amount_over_limit", notes)
    return PolicyDecision.allow(notes)


def _in_claim_currency(case: CaseSnapshot, args: BaseModel) -> BaseModel:
    """Arguments whose amount was paid in another currency, as the claim will hold them (converted at the reference
    rate of the line's day), so the limits compare what the claim adds up. Not convertible: left as said (the
    handler refuses it)."""
    paid_in, amount = getattr(args, "currency", None), getattr(args, "amount", None)
    currency = str(case.state.get("currency", ""))
    if not paid_in or paid_in == currency or amount is None:
        return args
    try:
        converted = paid_in_claim_currency(str(amount), paid_in, currency, getattr(args, "date", None))
    except (LookupError, ValueError):
        return args
    return args.model_copy(update={"amount": converted, "currency": None})


def draft_only_policy(case: CaseSnapshot | None, args: BaseModel) -> PolicyDecision:
    """``remove_line`` / ``withdraw_claim``: allowed on a draft claim only."""
    if case is None:
        return PolicyDecision.deny("target_not_found")
    return case_locked(case) or PolicyDecision.allow()


def submit_claim_policy(case: CaseSnapshot | None, args: BaseModel) -> PolicyDecision:
    """``submit_claim``: a draft claim with at least one line."""
    if case is None:
        return PolicyDecision.deny("target_not_found")
    if denied := case_locked(case):
        return denied
    if not case.state.get("lines"):
        return PolicyDecision.deny("claim_empty")
    return PolicyDecision.allow()


RECEIPT_THRESHOLD_EUR = Decimal("25")  # knowledge/claims-process.md: an itemised receipt for every expense above it


def claim_review(view: dict) -> list[str]:
    """What the policy still asks of a claim's lines before it is submitted, from its view: the lines that need an
    itemised receipt (above 25 EUR), the ones below it without a merchant, and the ones above their category's limit
    (meals per day, hotels per night, taxis per ride). Each item names its lines by number."""
    currency = str(view.get("currency") or "EUR")
    lines = list(view.get("lines") or [])

    def eur(amount: Decimal) -> Decimal | None:
        try:
            return to_reference_base(amount, currency)
        except LookupError:
            return None

    def named(picked: list[dict]) -> str:
        said = [f"{line['ordinal']} ({line.get('merchant') or line.get('category')}, {line['amount']})" for line in picked]
        return ("line " if len(said) == 1 else "lines ") + (", ".join(said[:-1]) + " and " + said[-1] if len(said) > 1
                                                             else said[0])

    review: list[str] = []
    receipts = [line for line in lines if (value := eur(Decimal(str(line["amount"])))) is not None
                and value > RECEIPT_THRESHOLD_EUR]
    if receipts:
        review.append(f"an itemised receipt attached for {named(receipts)} (every expense over 25 EUR needs one)")
    bare = [line for line in lines if not line.get("merchant") and line not in receipts]
    if bare:
        review.append(f"a merchant for {named(bare)} (below 25 EUR a line needs its merchant, date and purpose)")
    meal_days: dict[str, Decimal] = {}
    for line in lines:
        if line.get("category") == "meals":
            meal_days[line["date"]] = meal_days.get(line["date"], Decimal(0)) + Decimal(str(line["amount"]))
    for day, total in sorted(meal_days.items()):
        value = eur(total)
        if value is not None and value > CATEGORY_LIMITS["meals"][0]:
            review.append(f"a look at the meals of {format_date(date.fromisoformat(day), 'd MMM', locale='en')}: "
                          f"they come to {total:.2f} {currency}, above the 60 EUR a day the policy reimburses")
    for line in lines:
        category = line.get("category")
        if category not in ("hotel", "taxi"):
            continue
        per_unit = Decimal(str(line["amount"])) / (line.get("quantity") or 1)
        value = eur(per_unit)
        if value is not None and value > CATEGORY_LIMITS[category][0]:
            unit = "night" if category == "hotel" else "ride"
            review.append(f"line {line['ordinal']} is {per_unit:.2f} {currency} a {unit}, above the {category} limit: "
                          f"{CATEGORY_LIMITS[category][1]}")
    return review
