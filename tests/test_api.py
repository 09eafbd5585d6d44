"""The HTTP API answers the shapes of CONTRACT §6 and the errors of §1, for a browser session with
CSRF enforced (Django's own ``Client(enforce_csrf_checks=True)``) and for a bearer token.

Bad input never yields a 500: every garbage body below is a 4xx with a ``{"code","message"}`` body.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from conversations.models import Case, CommandJournalEntry, Conversation, DomainEvent, Interaction, OutboxEntry, Turn
from conversations.services import demo_seed
from registries import get_registry

pytestmark = pytest.mark.django_db
PASSWORD = "pw-demo-api-1"
CONVERSATION_KEYS = {"id", "mode", "active_case", "created_at"}
TURN_KEYS = {"id", "conversation", "status", "phase", "text", "replayed", "read_rounds", "acts", "commands", "events",
             "interactions", "notices", "reply", "active_case"}
INTERACTION_KEYS = {"id", "kind", "status", "case", "case_revision", "options", "commands", "created_at"}
JOURNAL_KEYS = {"id", "idempotency_key", "act", "case", "status", "origin", "expected_revision", "turn"}
PROTECTED = [("get", "/api/conversations"), ("post", "/api/conversations"), ("get", "/api/conversations/cnv_X"),
             ("post", "/api/conversations/cnv_X/messages"), ("get", "/api/interactions/int_X"),
             ("post", "/api/interactions/int_X/respond"), ("get", "/api/cases"), ("get", "/api/cases/clm_X"),
             ("get", "/api/cases/clm_X/events"), ("get", "/api/journal"), ("get", "/api/registries/read-tools"),
             ("get", "/api/registries/acts")]


# --------------------------------------------------------------------------- helpers



@pytest.fixture
def demo(db):
    demo_seed(password=PASSWORD)
    return {c.title: c for c in Case.objects.filter(owner__username="alice")}


class Browser:
    """A signed-in browser: session cookie, and the CSRF header on unsafe requests."""

    def __init__(self, username: str):
        self.client = Client(enforce_csrf_checks=True)
        response = self.client.post("/api/auth/login", {"username": username, "password": PASSWORD},
                                    content_type="application/json")
        assert response.status_code == 200, response.content

    @property
    def csrf(self) -> str:
        return self.client.cookies["csrftoken"].value

    def get(self, path: str):
        return self.client.get(path)

    def post(self, path: str, body=None, *, raw: str | bytes | None = None, csrf: bool = True):
        data = raw if raw is not None else json.dumps({} if body is None else body)
        headers = {"X-CSRFToken": self.csrf} if csrf else {}
        return self.client.post(path, data, content_type="application/json", headers=headers)


@pytest.fixture
def alice(demo) -> Browser:
    return Browser("alice")


@pytest.fixture
def bob(demo) -> Browser:
    return Browser("bob")


def assert_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, (response.status_code, response.content[:500])
    body = response.json()
    assert body["code"] == code and isinstance(body["message"], str) and body["message"]
    return body


def plan(*acts, **rest) -> dict:
    return {"plan": {"acts": list(acts), **rest}}


def new_conversation(browser: Browser, **body) -> str:
    response = browser.post("/api/conversations", body)
    assert response.status_code == 201, response.content
    return response.json()["id"]


# --------------------------------------------------------------------------- health, login, tokens


def test_health_answers_anonymously_with_mode_and_provider(client, settings):
    response = client.get("/api/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "mode": settings.TURNFRAME["MODE"],
                               "provider": settings.TURNFRAME["PROVIDER"]}


def test_login_sets_a_session_and_a_csrf_cookie(demo):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/api/auth/login", {"username": "alice", "password": PASSWORD},
                           content_type="application/json")
    assert response.status_code == 200 and response.json() == {"username": "alice"}
    assert {"sessionid", "csrftoken"} <= set(response.cookies)
    assert client.get("/api/conversations").status_code == 200


def _signed_in(client: Client) -> bool:
    return client.get("/api/conversations").status_code == 200


@pytest.mark.parametrize("origin", ["https://evil.example", "http://testserver.evil.example", "null",
                                    "https://testserver"])
def test_a_login_from_a_foreign_origin_does_not_sign_the_browser_in(demo, origin):
    """Login CSRF: another site's page posting the attacker's credentials must not sign the victim in."""
    client = Client(enforce_csrf_checks=True)
    response = client.post("/api/auth/login", {"username": "alice", "password": PASSWORD},
                           content_type="application/json", headers={"Origin": origin})
    assert_error(response, 403, "csrf_failed")
    assert "sessionid" not in response.cookies and not _signed_in(client)


def test_a_login_marked_cross_site_by_the_browser_is_refused(demo):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/api/auth/login", {"username": "alice", "password": PASSWORD},
                           content_type="application/json", headers={"Sec-Fetch-Site": "cross-site"})
    assert_error(response, 403, "csrf_failed")
    assert not _signed_in(client)


def test_a_trusted_cross_site_origin_may_sign_in(demo, settings):
    """A front end on another site listed in CSRF_TRUSTED_ORIGINS: its Origin decides, not Sec-Fetch-Site."""
    settings.CSRF_TRUSTED_ORIGINS = ["https://app.partner.example"]
    client = Client(enforce_csrf_checks=True)
    response = client.post("/api/auth/login", {"username": "alice", "password": PASSWORD},
                           content_type="application/json",
                           headers={"Origin": "https://app.partner.example", "Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 200 and _signed_in(client)


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                                          "application/json-seq", ""])
def test_a_login_that_is_not_json_is_415_and_signs_nobody_in(demo, content_type):
    """A cross-site form can send text/plain that parses as JSON; the session login reads JSON only."""
    client = Client(enforce_csrf_checks=True)
    body = json.dumps({"username": "alice", "password": PASSWORD})
    response = client.generic("POST", "/api/auth/login", body, content_type=content_type)
    assert_error(response, 415, "unsupported_media_type")
    assert "sessionid" not in response.cookies and not _signed_in(client)


def test_a_login_from_this_site_or_a_trusted_origin_signs_in(demo, settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://chat.example.com"]
    for origin in ("http://testserver", "https://chat.example.com", None):
        client = Client(enforce_csrf_checks=True)
        response = client.post("/api/auth/login", {"username": "alice", "password": PASSWORD},
                               content_type="application/json; charset=utf-8",
                               headers={"Origin": origin, "Sec-Fetch-Site": "same-origin"} if origin else {})
        assert response.status_code == 200, (origin, response.content)
        assert _signed_in(client)


def test_a_wrong_password_is_401_bad_credentials(demo, client):
    for path in ("/api/auth/login", "/api/auth/token"):
        response = client.post(path, {"username": "alice", "password": "wrong"}, content_type="application/json")
        assert_error(response, 401, "bad_credentials")
        response = client.post(path, {"username": "nobody", "password": "x"}, content_type="application/json")
        assert_error(response, 401, "bad_credentials")


def test_a_token_authenticates_as_bearer_without_csrf(demo):
    response = Client().post("/api/auth/token", {"username": "alice", "password": PASSWORD},
                             content_type="application/json")
    assert response.status_code == 200 and set(response.json()) == {"token", "expires_at"}
    token = response.json()["token"]
    api = Client(enforce_csrf_checks=True, headers={"Authorization": f"Bearer {token}"})
    created = api.post("/api/conversations", {}, content_type="application/json")
    assert created.status_code == 201 and set(created.json()) >= CONVERSATION_KEYS
    assert [c["id"] for c in api.get("/api/conversations").json()] == [created.json()["id"]]
    claims = [c for c in api.get("/api/cases").json() if c["kind"] == "expense_claim"]  # (and a demo trip, if installed)
    assert {c["title"] for c in claims} == {"Berlin trip", "Lisbon conference"}


def test_a_wrong_or_malformed_bearer_token_is_not_authenticated(demo):
    for header in ("Bearer wrong", "Bearer ", "Basic abc", "Bearer " + "x" * 5000):
        api = Client(enforce_csrf_checks=True, headers={"Authorization": header})
        assert_error(api.get("/api/conversations"), 401, "not_authenticated")
        assert_error(api.post("/api/conversations", {}, content_type="application/json"), 401, "not_authenticated")


@pytest.mark.parametrize(("method", "path"), PROTECTED)
def test_anonymous_requests_are_401_not_authenticated(demo, method, path):
    client = Client(enforce_csrf_checks=True)
    response = getattr(client, method)(path, *(["{}"] if method == "post" else []),
                                       **({"content_type": "application/json"} if method == "post" else {}))
    assert_error(response, 401, "not_authenticated")


def test_logout_ends_the_session(alice):
    assert alice.post("/api/auth/logout").status_code == 200
    assert_error(alice.get("/api/conversations"), 401, "not_authenticated")


def test_the_openapi_schema_is_served(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    assert "/api/conversations/{conversation_id}/messages" in response.json()["paths"]
    assert client.get("/api/docs").status_code == 200


# --------------------------------------------------------------------------- CSRF


def test_a_session_post_without_the_csrf_header_is_refused(alice):
    response = alice.post("/api/conversations", {}, csrf=False)
    assert_error(response, 403, "csrf_failed")
    assert not Conversation.objects.exists()
    assert alice.post("/api/conversations", {}).status_code == 201


def test_csrf_guards_every_unsafe_session_endpoint(alice, demo, script):
    cid = new_conversation(alice)
    assert_error(alice.post(f"/api/conversations/{cid}/messages", {"text": "hello"}, csrf=False), 403, "csrf_failed")
    assert_error(alice.post("/api/interactions/int_X/respond", {"option": "confirm"}, csrf=False), 403, "csrf_failed")
    assert_error(alice.post("/api/auth/logout", csrf=False), 403, "csrf_failed")
    assert not Turn.objects.exists()


def test_a_wrong_csrf_token_is_refused(alice):
    response = alice.client.post("/api/conversations", "{}", content_type="application/json",
                                 headers={"X-CSRFToken": "x" * 32})
    assert_error(response, 403, "csrf_failed")


# --------------------------------------------------------------------------- conversations


def test_a_conversation_is_created_listed_and_detailed(alice, bob):
    created = alice.post("/api/conversations", {})
    assert created.status_code == 201
    body = created.json()
    assert set(body) >= CONVERSATION_KEYS and body["id"].startswith("cnv_")
    assert body["mode"] == "controlled_agentic" and body["active_case"] is None
    new_conversation(bob)
    listed = alice.get("/api/conversations").json()
    assert [c["id"] for c in listed] == [body["id"]] and set(listed[0]) >= CONVERSATION_KEYS
    detail = alice.get(f"/api/conversations/{body['id']}").json()
    assert set(detail) >= CONVERSATION_KEYS | {"turns", "pending_interactions"}
    assert detail["turns"] == [] and detail["pending_interactions"] == []


def test_a_conversation_may_narrow_the_mode_but_never_widen_it(alice, settings):
    assert alice.post("/api/conversations", {"mode": "read_agentic"}).json()["mode"] == "read_agentic"
    assert alice.post("/api/conversations", {"mode": "deterministic"}).json()["mode"] == "deterministic"
    assert alice.post("/api/conversations", {"mode": None}).json()["mode"] == "controlled_agentic"
    response = alice.post("/api/conversations", {"mode": "sandboxed_autonomous"})
    assert response.status_code in (409, 422) and response.json()["code"] == "mode_not_allowed"
    settings.TURNFRAME = {**settings.TURNFRAME, "MODE": "read_agentic"}
    for wider in ("controlled_agentic", "deterministic"):
        response = alice.post("/api/conversations", {"mode": wider})
        assert response.status_code in (409, 422) and response.json()["code"] == "mode_not_allowed"
    assert not Conversation.objects.filter(mode="sandboxed_autonomous").exists()
    assert Conversation.objects.filter(mode="controlled_agentic").count() == 1  # the {"mode": null} one


def test_another_users_conversation_is_indistinguishable_from_a_missing_one(alice, bob):
    cid = new_conversation(alice)
    foreign = bob.get(f"/api/conversations/{cid}")
    missing = bob.get("/api/conversations/cnv_DOESNOTEXIST")
    assert_error(foreign, 404, "not_found")
    assert foreign.json() == missing.json()
    posted = bob.post(f"/api/conversations/{cid}/messages", {"text": "hello"})
    assert_error(posted, 404, "not_found")
    assert posted.json() == bob.post("/api/conversations/cnv_DOESNOTEXIST/messages", {"text": "hello"}).json()
    assert not Turn.objects.exists()


# --------------------------------------------------------------------------- messages and turns


def update_second_line(script, case: Case, amount: str = "120") -> str:
    text = f"change the amount on the second line to {amount}"
    return script(text, plan({"id": "a1", "act": "update_line", "case": {"id": case.id},
                              "args": {"line": 2, "amount": amount}, "evidence": text}))


def test_a_message_returns_the_turn_and_a_repeated_client_id_replays_it(alice, demo, script):
    berlin = demo["Berlin trip"]
    text = update_second_line(script, berlin)
    cid = new_conversation(alice)
    response = alice.post(f"/api/conversations/{cid}/messages", {"text": text, "client_message_id": "c-1"})
    assert response.status_code == 200, response.content
    turn = response.json()
    assert set(turn) >= TURN_KEYS
    assert turn["id"].startswith("trn_") and turn["conversation"] == cid and turn["text"] == text
    assert (turn["status"], turn["phase"], turn["replayed"]) == ("completed", "delivered", False)
    assert [(a["act"], a["case"], a["outcome"]) for a in turn["acts"]] == [("update_line", berlin.id, "executed")]
    assert [(c["act"], c["status"], c["origin"]["kind"]) for c in turn["commands"]] == [
        ("update_line", "committed", "direct_user_act")]
    assert [(e["type"], e["case"], e["revision"]) for e in turn["events"]] == [
        ("line_updated", berlin.id, berlin.revision + 1)]
    assert turn["active_case"] == berlin.id
    kinds = [b["kind"] for b in turn["reply"]["blocks"]]
    assert "receipt" in kinds and all(isinstance(b["text"], str) for b in turn["reply"]["blocks"])

    again = alice.post(f"/api/conversations/{cid}/messages", {"text": text, "client_message_id": "c-1"}).json()
    assert again["id"] == turn["id"] and again["replayed"] is True
    assert Case.objects.get(pk=berlin.id).revision == berlin.revision + 1
    assert DomainEvent.objects.filter(type="line_updated").count() == 1

    detail = alice.get(f"/api/conversations/{cid}").json()
    assert [t["id"] for t in detail["turns"]] == [turn["id"]]
    assert detail["turns"][0]["reply"] == turn["reply"] and detail["active_case"] == berlin.id


def test_cases_events_and_the_journal_answer_their_shapes(alice, bob, demo, script):
    berlin = demo["Berlin trip"]
    cid = new_conversation(alice)
    turn = alice.post(f"/api/conversations/{cid}/messages", {"text": update_second_line(script, berlin)}).json()

    cases = [c for c in alice.get("/api/cases").json() if c["kind"] == "expense_claim"]  # a demo trip aside
    assert {c["title"] for c in cases} == {"Berlin trip", "Lisbon conference"}
    assert all(set(c) >= {"id", "kind", "title", "status", "revision"} for c in cases)
    assert all(c["id"].startswith("clm_") for c in cases)
    assert bob.get("/api/cases").json() == []

    detail = alice.get(f"/api/cases/{berlin.id}").json()
    assert set(detail) >= {"id", "kind", "title", "status", "revision", "state"}
    assert (detail["kind"], detail["status"], detail["revision"]) == ("expense_claim", "draft", berlin.revision + 1)
    assert detail["state"]["lines"][1]["amount"] == "120.00"

    events = alice.get(f"/api/cases/{berlin.id}/events").json()
    assert all(set(e) >= {"id", "type", "revision", "data", "command", "created_at"} for e in events)
    assert [e["revision"] for e in events] == list(range(1, berlin.revision + 2))
    assert events[-1]["type"] == "line_updated" and events[-1]["id"].startswith("evt_")

    rows = alice.get(f"/api/journal?case={berlin.id}&turn={turn['id']}").json()
    assert len(rows) == 1 and set(rows[0]) >= JOURNAL_KEYS
    row = rows[0]
    assert (row["act"], row["case"], row["status"], row["turn"]) == ("update_line", berlin.id, "committed", turn["id"])
    assert row["origin"]["kind"] == "direct_user_act" and row["expected_revision"] == berlin.revision
    assert row["id"].startswith("cmd_") and len(row["idempotency_key"]) == 64
    assert events[-1]["command"] == row["id"]
    everything = alice.get(f"/api/journal?case={berlin.id}").json()
    assert len(everything) == berlin.revision + 1  # the seed's commands and this one
    assert bob.get(f"/api/journal?case={berlin.id}").json() == []
    assert bob.get(f"/api/journal?turn={turn['id']}").json() == []


def test_another_users_case_is_indistinguishable_from_a_missing_one(bob, demo):
    berlin = demo["Berlin trip"]
    for suffix in ("", "/events"):
        foreign = bob.get(f"/api/cases/{berlin.id}{suffix}")
        assert_error(foreign, 404, "not_found")
        assert foreign.json() == bob.get(f"/api/cases/clm_DOESNOTEXIST{suffix}").json()


def test_a_message_over_the_limit_is_413_message_too_long(alice, settings):
    cid = new_conversation(alice)
    settings.TURNFRAME = {**settings.TURNFRAME, "MAX_MESSAGE_CHARS": 50}
    assert_error(alice.post(f"/api/conversations/{cid}/messages", {"text": "x" * 51}), 413, "message_too_long")
    settings.TURNFRAME = {**settings.TURNFRAME, "MAX_MESSAGE_CHARS": 4000}
    for size in (4001, 1_500_000):
        assert_error(alice.post(f"/api/conversations/{cid}/messages", {"text": "x" * size}), 413, "message_too_long")
    assert not Turn.objects.exists()


def test_a_body_too_large_to_read_is_413(alice):
    cid = new_conversation(alice)
    response = alice.post(f"/api/conversations/{cid}/messages", {"text": "x" * 3_000_000})
    assert response.status_code == 413 and response.json()["code"] in ("payload_too_large", "message_too_long")


def test_an_empty_message_is_422(alice):
    cid = new_conversation(alice)
    for text in ("", "   \n\t "):
        assert_error(alice.post(f"/api/conversations/{cid}/messages", {"text": text}), 422, "invalid_request")


# --------------------------------------------------------------------------- interactions


def submit_card(alice: Browser, script, case: Case) -> tuple[str, dict]:
    text = script("submit the claim", plan({"id": "a1", "act": "submit_claim", "case": {"id": case.id}, "args": {},
                                            "evidence": "submit the claim"}))
    cid = new_conversation(alice)
    turn = alice.post(f"/api/conversations/{cid}/messages", {"text": text}).json()
    assert [a["outcome"] for a in turn["acts"]] == ["awaiting_confirmation"], turn
    assert len(turn["interactions"]) == 1
    return cid, turn


def test_a_confirmation_is_read_answered_and_a_repeat_returns_the_original(alice, demo, script):
    berlin = demo["Berlin trip"]
    cid, turn = submit_card(alice, script, berlin)
    card = turn["interactions"][0]
    assert set(card) >= INTERACTION_KEYS and card["id"].startswith("int_")
    assert (card["kind"], card["status"], card["case"], card["case_revision"]) == (
        "confirmation", "pending", berlin.id, berlin.revision)
    assert [o["id"] for o in card["options"]] == ["confirm", "decline"]
    assert [c["act"] for c in card["commands"]] == ["submit_claim"]
    assert alice.get(f"/api/interactions/{card['id']}").json()["status"] == "pending"
    pending = alice.get(f"/api/conversations/{cid}").json()["pending_interactions"]
    assert [p["id"] for p in pending] == [card["id"]]
    rows = alice.get(f"/api/journal?turn={turn['id']}").json()
    assert [(r["status"], r["origin"]["kind"]) for r in rows] == [("awaiting_confirmation", "none")]

    answered = alice.post(f"/api/interactions/{card['id']}/respond", {"option": "confirm", "client_response_id": "r1"})
    assert answered.status_code == 200, answered.content
    body = answered.json()
    assert set(body) == {"interaction", "turn"} and set(body["turn"]) >= TURN_KEYS
    assert body["interaction"]["status"] == "resolved"
    assert [e["type"] for e in body["turn"]["events"]] == ["claim_submitted"]
    assert Case.objects.get(pk=berlin.id).status == "submitted"
    row = alice.get(f"/api/journal?case={berlin.id}&turn={turn['id']}").json()[0]
    assert (row["status"], row["origin"]["kind"], row["origin"]["interaction"]) == (
        "committed", "confirmed_interaction", card["id"])
    assert OutboxEntry.objects.filter(case_id=berlin.id, status="pending").count() == 1

    again = alice.post(f"/api/interactions/{card['id']}/respond", {"option": "confirm"})
    assert again.status_code == 200 and again.json()["turn"]["id"] == body["turn"]["id"]
    assert DomainEvent.objects.filter(type="claim_submitted").count() == 1
    assert_error(alice.post(f"/api/interactions/{card['id']}/respond", {"option": "decline"}), 409,
                 "interaction_closed")


def test_a_card_whose_case_changed_is_stale_and_runs_nothing(alice, demo, script):
    berlin = demo["Berlin trip"]
    _, turn = submit_card(alice, script, berlin)
    card = turn["interactions"][0]
    Case.objects.filter(pk=berlin.id).update(revision=berlin.revision + 1)
    assert_error(alice.post(f"/api/interactions/{card['id']}/respond", {"option": "confirm"}), 409,
                 "interaction_stale")
    assert alice.get(f"/api/interactions/{card['id']}").json()["status"] == "stale"
    assert not DomainEvent.objects.filter(type="claim_submitted").exists()
    assert CommandJournalEntry.objects.get(act="submit_claim").status == "stale"


def test_another_users_interaction_is_indistinguishable_from_a_missing_one(alice, bob, demo, script):
    _, turn = submit_card(alice, script, demo["Berlin trip"])
    card = turn["interactions"][0]["id"]
    for response, missing in ((bob.get(f"/api/interactions/{card}"), bob.get("/api/interactions/int_DOESNOTEXIST")),
                              (bob.post(f"/api/interactions/{card}/respond", {"option": "confirm"}),
                               bob.post("/api/interactions/int_DOESNOTEXIST/respond", {"option": "confirm"}))):
        assert_error(response, 404, "not_found")
        assert response.json() == missing.json()
    assert Interaction.objects.get(pk=card).status == "pending"
    assert not DomainEvent.objects.filter(type="claim_submitted").exists()


def test_an_option_the_card_does_not_have_is_refused(alice, demo, script):
    _, turn = submit_card(alice, script, demo["Berlin trip"])
    card = turn["interactions"][0]["id"]
    response = alice.post(f"/api/interactions/{card}/respond", {"option": "approve_everything"})
    assert response.status_code == 422 and "errors" in response.json()
    assert Interaction.objects.get(pk=card).status == "pending"


# --------------------------------------------------------------------------- registries


def test_the_registries_list_read_tools_and_acts(alice):
    tools = alice.get("/api/registries/read-tools").json()
    assert {t["name"] for t in tools} == set(get_registry().read_tools) >= {
        "get_case", "search_cases", "lookup_policy", "calculate", "exchange_rate", "inspect_attachment"}
    for tool in tools:
        assert set(tool) >= {"name", "description", "mutability", "timeout_ms", "max_result_bytes", "status"}
        assert tool["mutability"] == "read_only" and tool["status"] == "active"
    acts = {a["name"]: a for a in alice.get("/api/registries/acts").json()}
    assert set(acts) == set(get_registry().acts) >= {
        "open_claim", "add_line", "update_line", "remove_line", "submit_claim", "withdraw_claim"}
    assert all(set(a) >= {"name", "case_kind", "mutability", "claim_phrases", "status"} for a in acts.values())
    assert acts["submit_claim"]["mutability"] == "consequential"
    assert "submitted" in acts["submit_claim"]["claim_phrases"]


# --------------------------------------------------------------------------- bad input


def test_malformed_json_is_400_bad_json(alice):
    cid = new_conversation(alice)
    for raw in ("{", "{'text': 'x'}", "not json", b"\xff\xfe{", '{"text": "x"', "{} {}"):
        for path in ("/api/auth/login", "/api/conversations", f"/api/conversations/{cid}/messages",
                     "/api/interactions/int_X/respond"):
            assert_error(alice.post(path, raw=raw), 400, "bad_json")
    # no body at all is a missing field, not malformed JSON
    assert_error(alice.post(f"/api/conversations/{cid}/messages", raw=""), 422, "invalid_request")


def test_schema_errors_and_extra_fields_are_422_with_errors(alice):
    cid = new_conversation(alice)
    cases = [("/api/conversations", {"mode": 5}), ("/api/conversations", {"mood": "x"}),
             (f"/api/conversations/{cid}/messages", {"text": 5}),
             (f"/api/conversations/{cid}/messages", {"text": "hi", "extra": True}),
             (f"/api/conversations/{cid}/messages", {}),
             (f"/api/conversations/{cid}/messages", {"text": "hi", "client_message_id": ""}),
             ("/api/interactions/int_X/respond", {"option": None}),
             ("/api/interactions/int_X/respond", {"option": "confirm", "action": "execute"})]
    for path, body in cases:
        error = assert_error(alice.post(path, body), 422, "invalid_request")
        assert isinstance(error["errors"], list) and error["errors"], (path, body)
    assert not Turn.objects.exists()


GARBAGE = ["[]", "null", "0", "-1", "1e999", "true", '"text"', "[{\"text\": \"hi\"}]", '{"text": null}',
           '{"text": ["hi"]}', '{"text": {"$gt": ""}}', '{"text": 1.5}', '{"text": "hi", "client_message_id": 7}',
           '{"text": "hi", "client_message_id": "' + "c" * 500 + '"}', '{"option": ["confirm"]}',
           '{"username": null, "password": null}', '{"username": "' + "u" * 100_000 + '", "password": "x"}',
           '{"mode": ["deterministic"]}', '{"mode": "' + "m" * 100_000 + '"}', '{"text": "\\ud800"}',
           '{"text": "a\\u0000b"}', '{"text": "hi", "client_message_id": "a\\u0000b"}', '{"option": "a\\u0000"}',
           '{"username": "al\\u0000ice", "password": "x"}', "{" * 10_000 + "}" * 10_000, "[" * 100_000]


@pytest.mark.parametrize("raw", GARBAGE, ids=range(len(GARBAGE)))
def test_garbage_bodies_never_yield_a_500(alice, raw):
    cid = new_conversation(alice)
    paths = ["/api/auth/login", "/api/auth/token", "/api/conversations", f"/api/conversations/{cid}/messages",
             "/api/interactions/int_X/respond"]
    for path in paths:
        response = alice.post(path, raw=raw)
        if path == "/api/conversations" and raw == "null":
            assert response.status_code == 201  # the body is optional: null is no body
            continue
        assert response.status_code in (400, 401, 404, 409, 413, 422), (path, raw[:80], response.content[:300])
        assert "code" in response.json()
    assert not Turn.objects.exists()
    assert not DomainEvent.objects.filter(type="line_updated").exists()


@pytest.mark.parametrize("path", ["/api/conversations/%00", "/api/cases/%00", "/api/cases/%00/events",
                                  "/api/interactions/%00", "/api/journal?case=%00", "/api/journal?turn=a%00b",
                                  "/api/conversations/" + "x" * 2000, "/api/cases/%F0%9F%92%A5"])
def test_garbage_ids_never_yield_a_500(alice, path):
    response = alice.get(path)
    assert response.status_code in (200, 404, 422), response.content[:300]
    if response.status_code == 200:
        assert response.json() == []


@pytest.mark.parametrize(("method", "path"), [
    ("get", "/api/conversations/%00"), ("get", "/api/cases/clm_%00"), ("get", "/api/interactions/int_%00"),
    ("get", "/api/journal?case=%00"), ("get", "/api/journal?turn=a%00b"), ("get", "/api/cases?x%00=1"),
    ("post", "/api/interactions/int_%00/respond"), ("post", "/api/conversations/cnv_%00/messages")])
def test_a_nul_in_a_path_or_query_is_422_invalid_request_with_no_traceback(alice, method, path, caplog):
    """The same judge as bodies and socket frames (core.text), before any lookup: one stable answer on
    both databases (PostgreSQL cannot compare a NUL), and no traceback in the log."""
    response = alice.get(path) if method == "get" else alice.post(path, {"option": "confirm", "text": "hi"})
    error = assert_error(response, 422, "invalid_request")
    assert error["errors"] and "NUL" in error["errors"][0]["msg"]
    assert not [r for r in caplog.records if r.exc_info]


@pytest.mark.parametrize("body", [{"text": "a\ud800b"}, {"text": "a\u0000b"}, {"text": "hi", "client_message_id": "\udfff"}])
def test_unstorable_text_in_a_body_names_the_field_and_leaves_no_traceback(alice, body, caplog):
    cid = new_conversation(alice)
    raw = json.dumps(body)  # ASCII JSON: \\ud800 and \\u0000 escapes (a lone surrogate has no UTF-8 bytes)
    error = assert_error(alice.post(f"/api/conversations/{cid}/messages", raw=raw), 422, "invalid_request")
    assert any(("NUL" in e["msg"] or "surrogate" in e["msg"]) and e["loc"][-1] in body for e in error["errors"])
    assert not Turn.objects.exists()
    assert not [r for r in caplog.records if r.exc_info]
