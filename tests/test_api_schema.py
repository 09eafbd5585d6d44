"""The OpenAPI at /api/docs documents every answer of every operation, and the answers match it.

Every API answer of the whole suite is held against the served /api/openapi.json (tests/openapi_check.py,
run on every request by tests/conftest.py). Here: that check is strict (it refuses an undocumented key, a
missing required one, an undeclared status), every operation declares a schema for each answer and the one
error schema for its errors, a walk through every operation matches, and the lists page without changing
their answer (``limit``/``offset``, a ``Link: rel="next"`` header)."""

from __future__ import annotations

import copy
import json

import pytest
from django.test import Client

from conversations.models import Case, Conversation
from conversations.services import demo_seed

from .openapi_check import served_spec
from .support import act, plan

pytestmark = pytest.mark.django_db
PASSWORD = "pw-demo-schema-1"
OPEN = {("get", "/api/health"), ("post", "/api/auth/login"), ("post", "/api/auth/token")}


class Bearer:
    def __init__(self, username: str):
        self.client = Client()
        response = self.client.post("/api/auth/token", {"username": username, "password": PASSWORD},
                                    content_type="application/json")
        assert response.status_code == 200, response.content
        self.headers = {"Authorization": f"Bearer {response.json()['token']}"}

    def call(self, method: str, path: str, body=None, **headers):
        data = json.dumps(body) if body is not None else None
        return self.client.generic(method.upper(), path, data or "", content_type="application/json",
                                   headers={**self.headers, **headers})


@pytest.fixture
def alice(db) -> Bearer:
    demo_seed(password=PASSWORD)
    return Bearer("alice")


def spec():
    return served_spec()


# --------------------------------------------------------------------------- the documents


def _ref(schema: dict) -> str:
    return schema.get("$ref") or schema.get("items", {}).get("$ref", "")


def test_every_operation_declares_a_schema_for_each_answer_and_the_error_schema_for_each_error(db):
    operations = [(op.method, op.path, op.responses) for op in spec().operations]
    assert len(operations) >= 20
    for method, path, responses in operations:
        where = f"{method.upper()} {path}"
        assert {"422", "500"} <= set(responses), where
        for status, answer in responses.items():
            media = (answer.get("content") or {}).get("application/json")
            if status == "204":
                assert media is None, where
                continue
            assert media is not None, f"{where} {status}: no schema"
            ref = _ref(media["schema"])
            if int(status) >= 400:
                assert ref == "#/components/schemas/ErrorOut", f"{where} {status}: {media['schema']}"
            else:  # a named schema (an object with its properties), never a bare ``dict``
                assert ref.startswith("#/components/schemas/") and not ref.endswith("ErrorOut"), (where, status)
                assert spec().document["components"]["schemas"][ref.rsplit("/", 1)[1]]["properties"], where


def test_authentication_is_the_routers_and_only_health_and_sign_in_are_open(db):
    document = spec().document
    for op in spec().operations:
        security = document["paths"][op.path][op.method].get("security")
        if (op.method, op.path) in OPEN:
            assert not security and "401" in op.responses or op.path == "/api/health", op.path
        else:
            assert security == [{"BearerAuth": []}, {"SessionCsrfAuth": []}], op.path
            assert "401" in op.responses, op.path


def test_the_check_refuses_an_undocumented_key_a_missing_required_key_and_an_undeclared_status(alice):
    answer = alice.call("get", "/api/cases")
    cases = answer.json()
    assert answer.status_code == 200 and cases
    check = spec().problems
    assert check("GET", "/api/cases", 200, answer.content) == []

    extra = copy.deepcopy(cases)
    extra[0]["colour"] = "red"
    assert any("'colour' was unexpected" in p for p in check("GET", "/api/cases", 200, json.dumps(extra).encode()))
    missing = copy.deepcopy(cases)
    del missing[-1]["revision"]
    assert any("'revision' is a required property" in p
               for p in check("GET", "/api/cases", 200, json.dumps(missing).encode()))
    wrong = copy.deepcopy(cases)
    wrong[0]["revision"] = "1"
    assert any("is not of type 'integer'" in p for p in check("GET", "/api/cases", 200, json.dumps(wrong).encode()))
    assert any("does not declare" in p for p in check("GET", "/api/cases", 409, b'{"code":"x","message":"y"}'))
    error = {"code": "not_found", "message": "No such case.", "hint": "x"}
    assert any("'hint' was unexpected" in p
               for p in check("GET", "/api/cases/clm_X", 404, json.dumps(error).encode()))
    # nested: a turn's reply block, two levels down
    turn = {"id": "trn_1"}
    assert check("POST", "/api/conversations/cnv_1/messages", 200, json.dumps(turn).encode())


def test_a_walk_through_every_operation_matches_the_documents(alice, script, settings):
    """Each call is checked by the suite's hook as it is made; this walk makes sure every documented
    operation is among them, with an error of each kind it is most often asked for."""
    called: set[tuple[str, str]] = set()

    def call(method: str, path: str, body=None, *, client=alice, status: int | None = None):
        response = client.call(method, path, body) if isinstance(client, Bearer) else client.generic(
            method.upper(), path, json.dumps(body) if body is not None else "", content_type="application/json")
        op = spec().operation(method, path.split("?")[0])
        assert op is not None, path
        called.add((op.method, op.path))
        if status is not None:
            assert response.status_code == status, (path, response.content[:300])
        return response

    anonymous = Client()
    call("get", "/api/health", client=anonymous, status=200)
    call("post", "/api/auth/login", {"username": "alice", "password": "wrong"}, client=anonymous, status=401)
    call("post", "/api/auth/login", {"username": "alice", "password": PASSWORD}, client=anonymous, status=200)
    call("post", "/api/auth/token", {"username": "alice"}, client=Client(), status=422)
    call("get", "/api/cases", client=Client(), status=401)

    berlin = Case.objects.get(owner__username="alice", title="Berlin trip")
    cid = call("post", "/api/conversations", {}, status=201).json()["id"]
    text = script("submit the claim", plan(act("a1", "submit_claim", "submit the claim", case={"id": berlin.id})))
    turn = call("post", f"/api/conversations/{cid}/messages", {"text": text}, status=200).json()
    card = turn["interactions"][0]
    call("get", f"/api/interactions/{card['id']}", status=200)
    call("get", "/api/interactions/int_NOPE", status=404)
    call("post", f"/api/interactions/{card['id']}/respond", {"option": "maybe"}, status=422)
    call("post", f"/api/interactions/{card['id']}/respond", {"option": "confirm"}, status=200)
    call("post", f"/api/interactions/{card['id']}/respond", {"option": "decline"}, status=409)
    call("get", "/api/conversations", status=200)
    call("get", f"/api/conversations/{cid}", status=200)
    call("patch", f"/api/conversations/{cid}", {"title": "Berlin"}, status=200)
    call("post", f"/api/turns/{turn['id']}/stop", status=200)
    call("get", "/api/cases", status=200)
    call("get", f"/api/cases/{berlin.id}", status=200)
    call("get", f"/api/cases/{berlin.id}/events", status=200)
    call("get", f"/api/journal?case={berlin.id}", status=200)
    call("get", "/api/journal?limit=0", status=422)
    call("get", "/api/registries/read-tools", status=200)
    call("get", "/api/registries/acts", status=200)
    call("delete", f"/api/conversations/{cid}", status=204)
    call("post", "/api/auth/logout", status=200)
    call("delete", "/api/auth/token", status=200)

    assert called == {(op.method, op.path) for op in spec().operations}


# --------------------------------------------------------------------------- lists, paged


def test_a_list_answers_the_plain_list_and_pages_with_limit_and_offset(alice):
    whole = alice.call("get", "/api/cases")
    assert isinstance(whole.json(), list) and len(whole.json()) >= 2 and "Link" not in whole
    ids = [c["id"] for c in whole.json()]

    first = alice.call("get", "/api/cases?limit=1")
    assert [c["id"] for c in first.json()] == ids[:1]
    assert first["Link"] == '<http://testserver/api/cases?limit=1&offset=1>; rel="next"'
    walked, url = [], "/api/cases?limit=1"
    while url:
        page = alice.call("get", url)
        walked += [c["id"] for c in page.json()]
        url = page.get("Link", "").removeprefix("<http://testserver").split(">")[0] or None
    assert walked == ids
    assert alice.call("get", f"/api/cases?offset={len(ids)}").json() == []


def test_without_paging_parameters_a_list_keeps_its_old_length_and_says_where_the_rest_starts(alice):
    owner = Case.objects.filter(owner__username="alice").first().owner
    Conversation.objects.bulk_create([Conversation(owner=owner, mode="deterministic") for _ in range(201)])

    first = alice.call("get", "/api/conversations")
    assert len(first.json()) == 200  # the cap this list always had
    assert first["Link"] == '<http://testserver/api/conversations?offset=200>; rel="next"'
    rest = alice.call("get", "/api/conversations?offset=200")
    assert len(rest.json()) == 1 and "Link" not in rest
    assert {c["id"] for c in first.json()} | {c["id"] for c in rest.json()} == set(
        Conversation.objects.filter(owner=owner).values_list("id", flat=True))


@pytest.mark.parametrize("query", ["limit=0", "limit=1001", "offset=-1", "limit=many"])
def test_a_bad_page_is_refused_with_the_error_body(alice, query):
    for path in ("/api/conversations", "/api/cases", "/api/journal"):
        response = alice.call("get", f"{path}?{query}")
        assert response.status_code == 422, (path, query)
        assert response.json()["code"] == "invalid_request"
        assert [e["loc"] for e in response.json()["errors"]] in ([["query", "limit"]], [["query", "offset"]])


def test_an_answer_ahead_of_its_schema_is_sent_as_built_and_logged_never_a_500(caplog):
    from turnframe_web.schemas import Out

    class Line(Out):
        ordinal: int

    class Answer(Out):
        line: Line
        lines: list[Line]
        note: str | None = None

    built = {"line": {"ordinal": "3", "new": 1}, "lines": [{"ordinal": 2}, {"ordinal": []}], "more": True}
    assert Answer.model_validate(built).model_dump(exclude_unset=True, warnings=False) == built  # "3" not 3
    assert [r.levelname for r in caplog.records if "does not match its schema Line" in r.getMessage()] == ["ERROR"] * 2
    assert Answer.model_validate({"line": {"ordinal": 1}, "lines": []}).model_dump(exclude_unset=True) == {
        "line": {"ordinal": 1}, "lines": []}  # a key the selector left out stays out
