"""Pydantic schemas of the expense domain: the claim's state and every act's and read tool's arguments.

All of them forbid unknown fields. Arguments are normalised on the way in (amounts to
two-decimal strings, dates to ``YYYY-MM-DD``, categories and currencies to their canonical case),
so the command a journal row stores is the canonical form of what the model proposed.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema, model_validator

from registries import clean_text, iso_date

from .exchange import reference_currencies
from .money import is_iso_currency, normalise_amount

CONFIRMATION_THRESHOLD_EUR = Decimal("1000.00")  # policy amount_over_limit: confirm above this
KIND = "expense_claim"
STATUSES = ("draft", "submitted", "approved", "rejected", "withdrawn")
CATEGORIES = ("travel", "hotel", "meals", "taxi", "other")
MAX_LINES = 100
LINE_ID_PATTERN = r"^ln_[a-z0-9]{4,16}$"
CASE_ID_PATTERN = r"^clm_[0-9A-Za-z]{4,40}$"
ATTACHMENT_ID_PATTERN = r"^att_[0-9A-Za-z]{4,40}$"



def _lower(value: object) -> object:
    return value.strip().lower() if isinstance(value, str) else value


def _upper(value: object) -> object:
    return value.strip().upper() if isinstance(value, str) else value


def _iso_currency(value: str) -> str:
    if not is_iso_currency(value):
        raise ValueError(f"{value!r} is not an ISO 4217 currency code")
    return value


def _reference_currency(value: str) -> str:
    if value not in reference_currencies():
        raise ValueError(f"claims can be kept in {', '.join(reference_currencies())}")
    return value


Title = Annotated[str, BeforeValidator(clean_text), Field(min_length=1, max_length=120)]
Merchant = Annotated[str, BeforeValidator(clean_text), Field(min_length=1, max_length=80)]
# what the expense was, in the user's words ("airport to hotel", "team dinner"); optional, quoted from the message
Description = Annotated[str, BeforeValidator(clean_text), Field(max_length=120)]
Category = Annotated[Literal["travel", "hotel", "meals", "taxi", "other"], BeforeValidator(_lower)]
IsoDate = Annotated[str, BeforeValidator(iso_date), WithJsonSchema({"type": "string", "format": "date"})]
Amount = Annotated[
    str,
    BeforeValidator(normalise_amount),
    WithJsonSchema({"type": "string", "pattern": r"^\d{1,6}(\.\d{1,2})?$"}),
]
CurrencyCode = Annotated[str, BeforeValidator(_upper), Field(pattern=r"^[A-Z]{3}$")]
Currency = Annotated[CurrencyCode, AfterValidator(_iso_currency)]
ClaimCurrency = Annotated[CurrencyCode, AfterValidator(_reference_currency)]
Quantity = Annotated[int, Field(ge=1, le=366)]
LineOrdinal = Annotated[int, Field(ge=1, le=MAX_LINES, description="1-based position of the line in the claim")]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------- state


class Line(Strict):
    id: str = Field(pattern=LINE_ID_PATTERN)
    date: IsoDate
    merchant: Annotated[str, BeforeValidator(clean_text), Field(max_length=80)] = ""
    category: Category
    amount: Amount
    quantity: Quantity | None = None  # how many units (nights, rides) the amount covers, when the user said it
    description: Description | None = None  # what it was, in the user's words ("airport to hotel")
    # what was paid when it was another currency than the claim's: the amount above is its conversion at the
    # company reference rate of the line's day
    paid_amount: Amount | None = None
    paid_currency: CurrencyCode | None = None


class ExpenseClaimState(Strict):
    """The persisted state of an ``expense_claim`` case (validated on every write)."""

    title: Title
    currency: Currency
    lines: list[Line] = Field(default_factory=list, max_length=MAX_LINES)
    line_counter: int = Field(default=0, ge=0, description="how many line ids were ever issued")

    @model_validator(mode="after")
    def _unique_line_ids(self) -> ExpenseClaimState:
        ids = [line.id for line in self.lines]
        if len(ids) != len(set(ids)):
            raise ValueError("line ids must be unique within a claim")
        return self


# --------------------------------------------------------------------------- act arguments


class OpenClaimArgs(Strict):
    title: Title = Field(description="the claim's title, e.g. 'Berlin trip'")
    currency: ClaimCurrency = Field(default="EUR", description="ISO 4217 code of the claim's currency")


class AddLineArgs(Strict):
    amount: Amount = Field(description="the amount the user said, as a decimal string, e.g. '42.50'")
    category: Category
    merchant: Merchant | None = Field(default=None, description="who was paid, e.g. 'Hotel Adlon'")
    description: Description | None = Field(
        default=None, description="what it was, in the user's own words, e.g. 'airport to hotel', 'team dinner'")
    date: IsoDate | None = Field(default=None, description="day of the expense (default: today)")
    quantity: Quantity | None = Field(
        default=None, description="how many units the amount covers when the user said so, e.g. 2 for "
                                  "'2 nights at 150 each' (the amount is then the total, 300)")
    currency: ClaimCurrency | None = Field(
        default=None, description="the currency the amount was paid in, only when the user said one other than the "
                                  "claim's (e.g. 'DKK' for '1240 kr' on a EUR claim): the line is then converted at "
                                  "the company reference rate of its day")


class LineChanges(Strict):
    """The fields of a line an update may change; at least one is given."""

    date: IsoDate | None = None
    merchant: Merchant | None = None
    category: Category | None = None
    amount: Amount | None = Field(default=None, description="the new amount the user said, e.g. '120'")
    description: Description | None = Field(default=None, description="what it was, in the user's words ('' clears it)")
    quantity: Quantity | None = Field(
        default=None, description="how many units (nights, rides) the amount covers, when the user corrects it "
                                  "('it was 2 nights, not 3'); quoted")

    @model_validator(mode="after")
    def _something_to_change(self) -> LineChanges:
        if not self.changes():
            raise ValueError("name at least one of date, merchant, category, amount, description or quantity")
        return self

    def changes(self) -> dict[str, Any]:
        return {name: value for name in ("date", "merchant", "category", "amount", "description", "quantity")
                if (value := getattr(self, name)) is not None}


class UpdateLineArgs(LineChanges):
    line: LineOrdinal


class RemoveLineArgs(Strict):
    line: LineOrdinal


class SubmitClaimArgs(Strict):
    pass


class WithdrawClaimArgs(Strict):
    pass


# --------------------------------------------------------------------------- read tool arguments


class GetCaseArgs(Strict):
    case: str = Field(pattern=CASE_ID_PATTERN, description="the claim's id, e.g. 'clm_7Q2K…'")


class SearchCasesArgs(Strict):
    query: Annotated[str, BeforeValidator(clean_text), Field(max_length=200)] = Field(
        description="words of the claim's title; empty lists every claim")
    status: Literal["draft", "submitted", "approved", "rejected", "withdrawn"] | None = None


class LookupPolicyArgs(Strict):
    query: Annotated[str, BeforeValidator(clean_text), Field(min_length=1, max_length=200)] = Field(
        description="what to look up in the expense policy, e.g. 'hotel limit per night'")


class CalculateArgs(Strict):
    expression: str = Field(min_length=1, max_length=200,
                            description="arithmetic on decimals: + - * / and parentheses, e.g. '180 * 3 + 42.50'")


class ExchangeRateArgs(Strict):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    from_: CurrencyCode = Field(
        alias="from", description="ISO 4217 code to convert from")
    to: CurrencyCode = Field(
        description="ISO 4217 code to convert to")
    date: IsoDate | None = Field(default=None, description="the day whose reference rate applies (default: latest)")
    amount: Amount | None = Field(default=None, description="optional amount to convert")


class InspectAttachmentArgs(Strict):
    attachment: str = Field(pattern=ATTACHMENT_ID_PATTERN, description="the attachment's id, e.g. 'att_…'")
