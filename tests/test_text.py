"""One judge of unstorable text (``conversations.core.text``) for the HTTP API, the socket and the
model answer parser: the same strings are refused, and the same strings pass, on every way in."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from conversations.consumers import MessageFrame
from conversations.core.plan import PlanSchemaError, parse_model_answer, refuse_unstorable
from conversations.core.text import unstorable_parts, unstorable_reason
from conversations.schemas import MessageIn

UNSTORABLE = ["\x00", "a\x00b", "\ud800", "x\udfffy", "\ud83d", "emoji cut in half \ud83d!"]
STORABLE = ["", "plain", "\uffff\ufffe", "\ue000 private use", "\x01\x1f\x7f controls", "😀 whole emoji", "\u200b"]


def _http_refuses(text: str) -> bool:
    try:
        MessageIn.model_validate({"text": text})
    except ValidationError:
        return True
    return False


def _socket_refuses(text: str) -> bool:
    try:
        MessageFrame.model_validate({"type": "message", "text": text})
    except ValidationError:
        return True
    return False


def _parser_refuses(text: str) -> bool:
    try:
        refuse_unstorable(parse_model_answer(json.dumps({"plan": {"acts": [], "say": text}})))
    except PlanSchemaError:
        return True
    return False


@pytest.mark.parametrize("text", UNSTORABLE)
def test_unstorable_text_is_refused_alike_by_http_the_socket_and_the_model_parser(text):
    assert unstorable_reason(text)
    assert _http_refuses(text) and _socket_refuses(text) and _parser_refuses(text)


@pytest.mark.parametrize("text", STORABLE)
def test_every_other_code_point_passes_alike_on_every_way_in(text):
    assert unstorable_reason(text) is None
    assert not _http_refuses(text) and not _socket_refuses(text) and not _parser_refuses(text)


def test_the_parts_at_fault_are_named_by_where_they_are_nested():
    value = {"ok": ["fine", {"deep": "n\x00l"}], "k\ud800": "v"}
    assert [loc for loc, _ in unstorable_parts(value)] == [("ok", 1, "deep"), ("(key)",)]


def test_ids_are_prefixed_crockford_base32_and_never_repeat():
    import re

    from conversations.ids import new_id

    ids = {new_id("trn") for _ in range(5000)}
    assert len(ids) == 5000
    assert all(re.fullmatch(r"trn_[0-9A-HJKMNP-TV-Z]{20}", i) for i in ids)  # no I, L, O, U
    assert {c for i in ids for c in i[4:]} == set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")  # every symbol is used
