"""The API's shared answer schemas: the base of every answer and the one error body (CONTRACT §1).

Every operation declares its answers with these (OpenAPI at /api/docs). An answer's documented keys are
the contract; ``extra="allow"`` keeps on the wire any key a selector adds before the schema declares it
(never dropped), and the suite fails when it receives such a key (tests/openapi_check.py).

``Out`` is a plain pydantic model, not ninja's ``Schema``: ``Schema`` reads its input through attribute
access (made for ORM objects), which loses the keys it does not declare; the selectors hand over dicts.

An answer that does not match its schema (a selector ahead of the docs) is sent as the selector built it and
logged as an error, never turned into a 500: the docs are checked by the suite, not by the users."""

from __future__ import annotations

import logging
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidatorFunctionWrapHandler, model_validator

log = logging.getLogger(__name__)


def _documented_keys_only(schema: dict[str, Any]) -> None:
    schema.pop("additionalProperties", None)


class Out(BaseModel):
    # strict: a value is never converted on its way out ("3" stays "3"); it matches, or it is sent as built
    model_config = ConfigDict(extra="allow", strict=True, json_schema_extra=_documented_keys_only)

    @model_validator(mode="wrap")
    @classmethod
    def _as_built_when_undocumented(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        try:
            return handler(data)
        except ValidationError as exc:
            if not isinstance(data, dict):
                raise
            log.error("an answer does not match its schema %s (sent as built): %s", cls.__name__, exc)
            return cls.model_construct(_fields_set=set(data) & set(cls.model_fields), **data)


class ErrorItem(Out):
    loc: list[str | int] = Field(description='Where: e.g. ["body", "text"], ["query", "case"]')
    msg: str
    type: str | None = None


class ErrorOut(Out):
    """Every error the API answers: a stable ``code``, a sentence for people, and for a request that does
    not match its schema the ``errors`` found."""

    code: str = Field(description="Stable: not_authenticated, not_found, invalid_request, interaction_stale, …")
    message: str
    errors: list[ErrorItem] | None = None
    retry_after: int | None = Field(default=None, description="rate_limited: seconds to wait (also Retry-After)")
    reason: str | None = Field(default=None, description="interaction_refused, an edit refused: the code of why")
    ask_again: str | None = Field(default=None, description="interaction_expired: the message that drew the card")


def with_errors(answers: dict[int, Any], *statuses: int) -> dict[Any, Any]:
    """An operation's ``response=``: its own answers, and ``ErrorOut`` for each error status it may give
    (and 500, which any may)."""
    return {**answers, frozenset({*statuses, 500}): ErrorOut}
