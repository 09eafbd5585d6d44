"""Request bodies of the HTTP API (CONTRACT §6). Responses are the plain JSON of ``selectors``."""

from __future__ import annotations

from typing import Annotated

from ninja import Schema
from pydantic import ConfigDict, Field, StrictFloat, StrictInt, StringConstraints

from .core.text import StorableStr


class Body(Schema):
    model_config = ConfigDict(extra="forbid")


# every string field is a ``StorableStr``: NUL and lone surrogates are 422 ``invalid_request`` (core.text)


class Credentials(Body):
    username: StorableStr = Field(min_length=1, max_length=150)
    password: StorableStr = Field(min_length=1, max_length=500)


class ConversationIn(Body):
    mode: StorableStr | None = None


class ConversationPatch(Body):
    title: StorableStr = Field(max_length=200)


class MessageIn(Body):
    text: StorableStr = Field(max_length=1_000_000)
    client_message_id: StorableStr | None = Field(default=None, min_length=1, max_length=100)


# the person's values for a confirmation card's editable arguments (``{"amount": "95.00"}``); the act's own
# schema judges them (core.review), this only bounds their size
EditName = Annotated[StorableStr, Field(min_length=1, max_length=64)]
EditValue = Annotated[StorableStr, StringConstraints(max_length=500)] | StrictInt | StrictFloat | None
Edits = Annotated[dict[EditName, EditValue], Field(max_length=20)]


class RespondIn(Body):
    option: StorableStr = Field(min_length=1, max_length=64)
    client_response_id: StorableStr | None = Field(default=None, min_length=1, max_length=100)
    edits: Edits | None = None
