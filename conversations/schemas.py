"""Request bodies of the HTTP API (CONTRACT §6). Responses are the plain JSON of ``selectors``."""

from __future__ import annotations

from ninja import Schema
from pydantic import ConfigDict, Field


class Body(Schema):
    model_config = ConfigDict(extra="forbid")


class Credentials(Body):
    username: str = Field(min_length=1, max_length=150)
    password: str = Field(min_length=1, max_length=500)


class ConversationIn(Body):
    mode: str | None = None


class MessageIn(Body):
    text: str = Field(max_length=1_000_000)
    client_message_id: str | None = Field(default=None, min_length=1, max_length=100)


class RespondIn(Body):
    option: str = Field(min_length=1, max_length=64)
    client_response_id: str | None = Field(default=None, min_length=1, max_length=100)
