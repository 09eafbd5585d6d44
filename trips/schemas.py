"""Pydantic schemas of the trip domain: a trip's state and every act's and read tool's arguments.

All of them forbid unknown fields. Places and carriers are cleaned of control characters and extra spaces,
dates are ``YYYY-MM-DD``, a flight or train number is upper-cased (``lh 1172`` → ``LH1172``).
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema, model_validator

from registries import clean_text, iso_date

KIND = "trip"
ID_PREFIX = "trp"
STATUSES = ("booked", "cancelled")
INITIAL_STATUS = "booked"
TERMINAL_STATUSES = ("cancelled",)
MODES = ("flight", "train")
MAX_SEGMENTS = 20
MAX_TRAVELLERS = 9
SEGMENT_ID_PATTERN = r"^sg_[a-z0-9]{4,16}$"
TRAVELLER_ID_PATTERN = r"^tv_[a-z0-9]{4,16}$"
CASE_ID_PATTERN = r"^trp_[0-9A-Za-z]{4,40}$"



def service_number(value: object) -> object:
    return re.sub(r"\s+", "", value).upper() if isinstance(value, str) else value


def _lower(value: object) -> object:
    return value.strip().lower() if isinstance(value, str) else value


Title = Annotated[str, BeforeValidator(clean_text), Field(min_length=1, max_length=120)]
Place = Annotated[str, BeforeValidator(clean_text), Field(min_length=2, max_length=60)]
Name = Annotated[str, BeforeValidator(clean_text), Field(min_length=2, max_length=80)]
Carrier = Annotated[str, BeforeValidator(clean_text), Field(min_length=2, max_length=40)]
Number = Annotated[str, BeforeValidator(service_number), Field(pattern=r"^[A-Z0-9]{2,10}$")]
IsoDate = Annotated[str, BeforeValidator(iso_date), WithJsonSchema({"type": "string", "format": "date"})]
Time = Annotated[str, Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$")]
Mode = Annotated[Literal["flight", "train"], BeforeValidator(_lower)]
SegmentOrdinal = Annotated[int, Field(ge=1, le=MAX_SEGMENTS, description="1-based position of the segment in the trip")]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------- state


class Traveller(Strict):
    id: str = Field(pattern=TRAVELLER_ID_PATTERN)
    name: Name


class Segment(Strict):
    id: str = Field(pattern=SEGMENT_ID_PATTERN)
    mode: Mode
    origin: Place
    destination: Place
    date: IsoDate
    carrier: Carrier
    number: Number
    departs: Time | None = None


class TripState(Strict):
    """The persisted state of a ``trip`` case (validated on every write)."""

    title: Title
    travellers: list[Traveller] = Field(default_factory=list, max_length=MAX_TRAVELLERS)
    segments: list[Segment] = Field(default_factory=list, max_length=MAX_SEGMENTS)
    counter: int = Field(default=0, ge=0, description="how many item ids were ever issued")

    @model_validator(mode="after")
    def _unique_ids(self) -> TripState:
        ids = [s.id for s in self.segments] + [t.id for t in self.travellers]
        if len(ids) != len(set(ids)):
            raise ValueError("segment and traveller ids must be unique within a trip")
        return self


# --------------------------------------------------------------------------- act arguments


class OpenTripArgs(Strict):
    title: Title = Field(description="the trip's title, e.g. 'Lisbon offsite'")


class AddSegmentArgs(Strict):
    mode: Mode
    origin: Place = Field(description="where the leg departs, e.g. 'Frankfurt'")
    destination: Place = Field(description="where the leg arrives, e.g. 'Lisbon'")
    date: IsoDate
    carrier: Carrier = Field(description="the airline or railway, e.g. 'Lufthansa'")
    number: Number = Field(description="the flight or train number, e.g. 'LH1172'")
    departs: Time | None = Field(default=None, description="departure time HH:MM")


class RebookSegmentArgs(Strict):
    segment: SegmentOrdinal
    date: IsoDate | None = Field(default=None, description="the new travel date")
    carrier: Carrier | None = None
    number: Number | None = Field(default=None, description="the new flight or train number")
    departs: Time | None = Field(default=None, description="the new departure time HH:MM")

    @model_validator(mode="after")
    def _something_to_change(self) -> RebookSegmentArgs:
        if not self.changes():
            raise ValueError("name at least one of date, carrier, number or departs")
        return self

    def changes(self) -> dict[str, str]:
        return {name: value for name in ("date", "carrier", "number", "departs")
                if (value := getattr(self, name)) is not None}


class AddTravellerArgs(Strict):
    name: Name = Field(description="the traveller's full name, e.g. 'Ana Silva'")


class CancelTripArgs(Strict):
    pass


# --------------------------------------------------------------------------- read tool arguments


class GetTripArgs(Strict):
    trip: str = Field(pattern=CASE_ID_PATTERN, description="the trip's id, e.g. 'trp_7Q2K…'")


class SearchTimetableArgs(Strict):
    origin: Place
    destination: Place
    date: IsoDate | None = Field(default=None, description="travel day (default: every day's services)")
    mode: Mode | None = None


class FareRulesArgs(Strict):
    query: Annotated[str, BeforeValidator(clean_text), Field(min_length=1, max_length=200)] = Field(
        description="what to look up in the fare rules, e.g. 'change fee economy'")
