"""Issue 20 (5, 10): a card does not outlive its use, nothing runs on the verdict it was drawn with, and the
person may change an act's editable arguments on the card before confirming.

- deleting a conversation expires its open cards; a card unanswered for ``TURNFRAME_CARD_TTL_MINUTES``
  expires; a click on either answers 409 ``interaction_expired`` (nothing changed, ``ask_again``);
- confirming judges the card again: an act switched off, or a policy that now denies it, never runs;
- ``edits`` go through the act's schema, handler and policy: invalid ones are a stable 4xx and change
  nothing; allowed ones run and the journal says the person made them; ones that still need a
  confirmation draw a new card.

The same tests run on SQLite and on PostgreSQL (``TURNFRAME_TEST_POSTGRES=1``).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from conversations import consumers
from conversations.core.review import CardCommand, EditRefused, review_card
from conversations.models import Case, CommandJournalEntry, Conversation, Interaction, OutboxEntry, snapshot
from registries import Actor, CommandContext, PolicyDecision, get_registry
from registries.models import EntryStatus
from tests.support import Api, Ledger, act, in_mode, lines_of, notice_codes, outcomes, override, plan, seed

CONTROLLED = "controlled_agentic"


@pytest.fixture
def world(db, mode):
    cases = seed()
    mode(CONTROLLED)
    alice = Api("alice")
    return {"alice": alice, "berlin": cases["berlin"], "cid": alice.conversation(CONTROLLED)}


def submit_card(world, script) -> tuple[str, dict]:
    berlin = world["berlin"]
    text = script("submit the Berlin trip", *in_mode(CONTROLLED, berlin.id, plan(
        act("a1", "submit_claim", "submit the Berlin trip", case={"id": berlin.id}))))
    turn = world["alice"].say(world["cid"], text)
    (card,) = turn["interactions"]
    return text, card


def hotel_card(world, script, amount: str = "1500") -> tuple[str, dict]:
    """An add_line over the 1000 EUR limit: a reversible act the policy asks to confirm."""
    berlin = world["berlin"]
    text = script(f"add a hotel of {amount} to Berlin", *in_mode(CONTROLLED, berlin.id, plan(
        act("a1", "add_line", f"add a hotel of {amount}", case={"id": berlin.id}, amount=amount, category="hotel",
            date="2026-11-18"))))
    turn = world["alice"].say(world["cid"], text)
    assert outcomes(turn) == {"a1": "awaiting_confirmation"}, turn
    (card,) = turn["interactions"]
    return text, card


def respond(world, card: dict, option: str = "confirm", **body) -> tuple[int, dict]:
    return world["alice"].post(f"/api/interactions/{card['id']}/respond", {"option": option, **body})


def status_of(card: dict) -> str:
    return Interaction.objects.get(pk=card["id"]).status


# =============================================================================== expiry (5)


def test_a_card_of_a_deleted_conversation_expires_and_confirming_it_submits_nothing(world, script):
    text, card = submit_card(world, script)
    response = world["alice"].client.delete(f"/api/conversations/{world['cid']}",
                                            headers={"X-CSRFToken": world["alice"].csrf})
    assert response.status_code == 204
    assert status_of(card) == "expired"
    assert CommandJournalEntry.objects.get(interaction_id=card["id"]).status == "stale"
    before = Ledger.now()

    status, body = respond(world, card)

    assert (status, body["code"]) == (409, "interaction_expired"), body
    assert "nothing was changed" in body["message"] and body["ask_again"] == text
    assert Case.objects.get(pk=world["berlin"].id).status == "draft"
    assert not OutboxEntry.objects.exists() and Ledger.now() == before


def test_deleting_a_conversation_leaves_the_cards_of_other_conversations_open(world, script):
    _, card = submit_card(world, script)
    other = world["alice"].conversation(CONTROLLED)
    world["alice"].client.delete(f"/api/conversations/{other}", headers={"X-CSRFToken": world["alice"].csrf})
    assert status_of(card) == "pending"


def test_a_card_left_unanswered_past_the_ttl_expires_and_a_click_changes_nothing(world, script, settings):
    settings.TURNFRAME = {**settings.TURNFRAME, "CARD_TTL_MINUTES": 30}
    text, card = submit_card(world, script)
    drawn = Interaction.objects.get(pk=card["id"]).created_at
    assert card["expires_at"] == (drawn + timedelta(minutes=30)).isoformat()
    Interaction.objects.filter(pk=card["id"]).update(created_at=timezone.now() - timedelta(minutes=31))
    before = Ledger.now()

    status, body = respond(world, card)

    assert (status, body["code"]) == (409, "interaction_expired"), body
    assert "nothing was changed" in body["message"] and body["ask_again"] == text
    assert status_of(card) == "expired" and Ledger.now().committed == before.committed
    assert Case.objects.get(pk=world["berlin"].id).status == "draft"
    assert CommandJournalEntry.objects.get(interaction_id=card["id"]).status == "stale"
    _, shown = world["alice"].get(f"/api/interactions/{card['id']}")
    assert shown["status"] == "expired" and shown["expires_at"] is None
    again, body = respond(world, card, "decline")  # any option, any number of times: the same answer
    assert (again, body["code"]) == (409, "interaction_expired")


def test_a_card_answered_within_the_ttl_runs(world, script, settings):
    settings.TURNFRAME = {**settings.TURNFRAME, "CARD_TTL_MINUTES": 30}
    _, card = submit_card(world, script)
    Interaction.objects.filter(pk=card["id"]).update(created_at=timezone.now() - timedelta(minutes=29))
    status, body = respond(world, card)
    assert status == 200 and body["interaction"]["status"] == "resolved"
    assert Case.objects.get(pk=world["berlin"].id).status == "submitted"


def test_a_ttl_of_zero_never_expires_a_card(world, script, settings):
    settings.TURNFRAME = {**settings.TURNFRAME, "CARD_TTL_MINUTES": 0}
    _, card = submit_card(world, script)
    assert card["expires_at"] is None
    Interaction.objects.filter(pk=card["id"]).update(created_at=timezone.now() - timedelta(days=400))
    assert respond(world, card)[0] == 200


# =============================================================================== the verdict as it stands now (5)


def test_confirming_judges_the_policy_as_it_stands_now_not_when_the_card_was_drawn(world, script):
    _, card = submit_card(world, script)
    shipped = get_registry().acts["submit_claim"]
    paused = replace(shipped, policy=lambda case, args: PolicyDecision.deny("submissions_paused"))
    before = Ledger.now()

    with override(acts=[paused]):  # the policy changed after the card was drawn
        status, body = respond(world, card)

    assert (status, body["code"], body["reason"]) == (409, "interaction_refused", "submissions_paused"), body
    assert "nothing was changed" in body["message"]
    assert status_of(card) == "stale" and Case.objects.get(pk=world["berlin"].id).status == "draft"
    row = CommandJournalEntry.objects.get(interaction_id=card["id"])
    assert (row.status, row.result) == ("rejected", {"code": "submissions_paused"})
    assert Ledger.now().events == before.events and not OutboxEntry.objects.exists()


def test_an_act_switched_off_since_the_card_was_drawn_does_not_run_on_confirm(world, script):
    from registries.services import entry_set_status, mirror_sync

    _, card = submit_card(world, script)
    mirror_sync()
    entry_set_status(name="submit_claim", status=EntryStatus.DISABLED, reason="switched off in the admin")

    status, body = respond(world, card)

    assert (status, body["code"], body["reason"]) == (409, "interaction_refused", "act_not_on_offer"), body
    assert Case.objects.get(pk=world["berlin"].id).status == "draft" and not OutboxEntry.objects.exists()


# =============================================================================== edits (10)


def test_a_card_names_the_fields_its_act_lets_the_person_change(world, script):
    _, card = hotel_card(world, script)
    assert [c["editable_fields"] for c in card["commands"]] == [["amount", "date"]]
    _, submit = submit_card(world, script)
    assert [c["editable_fields"] for c in submit["commands"]] == [[]]


def test_an_amount_changed_on_the_card_runs_with_the_persons_value_and_the_journal_says_so(world, script):
    _, card = hotel_card(world, script)

    status, body = respond(world, card, edits={"amount": "95.00"})

    assert status == 200, body
    assert body["interaction"]["status"] == "resolved" and outcomes(body["turn"]) == {"a1": "executed"}
    assert lines_of(world["berlin"].id)[-1]["amount"] == "95.00"
    assert "edited_before_confirming" in notice_codes(body["turn"])
    (row,) = CommandJournalEntry.objects.filter(interaction_id=card["id"])
    assert row.status == "committed" and row.args["amount"] == "95.00"
    (edit,) = row.origin["edits"]
    assert edit == {"by": "person", "user": get_user_model().objects.get(username="alice").pk,
                    "interaction": card["id"], "changes": [{"field": "amount", "before": "1500.00", "after": "95.00"}]}
    assert row.origin_kind == "confirmed_interaction"
    (shown,) = world["alice"].get(f"/api/journal?turn={card['turn']}")[1]
    assert shown["origin"]["edits"][0]["by"] == "person" and shown["args"]["amount"] == "95.00"


def test_a_date_changed_on_the_card_runs_with_that_date(world, script):
    _, card = hotel_card(world, script)
    status, body = respond(world, card, edits={"date": "2026-11-20", "amount": "120"})
    assert status == 200, body
    line = lines_of(world["berlin"].id)[-1]
    assert (line["date"], line["amount"]) == ("2026-11-20", "120.00")


def test_an_edit_that_still_needs_a_confirmation_draws_a_new_card_and_runs_nothing(world, script):
    _, card = hotel_card(world, script)
    before = Ledger.now()

    status, body = respond(world, card, edits={"amount": "1200"})

    assert status == 200, body
    assert status_of(card) == "superseded" and Ledger.now().events == before.events
    assert CommandJournalEntry.objects.get(interaction_id=card["id"]).status == "stale"
    (fresh,) = body["turn"]["interactions"]
    assert fresh["status"] == "pending" and fresh["id"] != card["id"] and "1200.00" in fresh["prompt"].replace(",", "")
    assert "edit_needs_confirmation" in notice_codes(body["turn"])
    (row,) = CommandJournalEntry.objects.filter(interaction_id=fresh["id"])
    assert (row.status, row.args["amount"]) == ("awaiting_confirmation", "1200.00")
    assert row.origin["edits"][0]["changes"] == [{"field": "amount", "before": "1500.00", "after": "1200.00"}]
    repeated, again = respond(world, card, edits={"amount": "1200"})  # a retry: the same outcome, no third card
    assert repeated == 200 and again["turn"]["id"] == body["turn"]["id"]
    assert Interaction.objects.filter(status="pending").count() == 1

    status, body = respond(world, fresh)

    assert status == 200 and lines_of(world["berlin"].id)[-1]["amount"] == "1200.00"
    row.refresh_from_db()
    assert (row.status, row.origin_kind, row.origin["interaction"]) == ("committed", "confirmed_interaction", fresh["id"])
    assert row.origin["edits"][0]["by"] == "person"


def test_an_edit_on_a_card_of_several_commands_is_confirmed_again_on_a_card_that_describes_it(world, script):
    berlin = world["berlin"]
    text = script("add a hotel of 1500 and submit Berlin", *in_mode(CONTROLLED, berlin.id, plan(
        act("a1", "add_line", "add a hotel of 1500", case={"id": berlin.id}, amount="1500", category="hotel"),
        act("a2", "submit_claim", "submit Berlin", case={"id": berlin.id}))))
    (card,) = world["alice"].say(world["cid"], text)["interactions"]
    assert [c["act"] for c in card["commands"]] == ["add_line", "submit_claim"]
    before = Ledger.now()

    status, body = respond(world, card, edits={"amount": "95"})

    assert status == 200 and status_of(card) == "superseded" and Ledger.now().events == before.events
    (fresh,) = body["turn"]["interactions"]
    assert [c["act"] for c in fresh["commands"]] == ["add_line", "submit_claim"]
    assert "95.00" in fresh["prompt"] and "1500" not in fresh["prompt"]
    status, body = respond(world, fresh)
    assert status == 200 and outcomes(body["turn"]) == {"a1": "executed", "a2": "executed"}, body
    assert lines_of(berlin.id)[-1]["amount"] == "95.00" and Case.objects.get(pk=berlin.id).status == "submitted"
    added, submitted = CommandJournalEntry.objects.filter(interaction_id=fresh["id"]).order_by("sequence")
    assert added.origin["edits"][0]["changes"][0]["after"] == "95.00" and "edits" not in submitted.origin
    assert added.origin_kind == submitted.origin_kind == "confirmed_interaction"


@pytest.mark.parametrize(("option", "edits", "code"), [
    ("confirm", {"amount": "a lot"}, "invalid_edit"),
    ("confirm", {"amount": "-5"}, "invalid_edit"),
    ("confirm", {"date": "the day after never"}, "invalid_edit"),
    ("confirm", {"merchant": "Hotel Adlon"}, "field_not_editable"),
    ("confirm", {"category": "meals"}, "field_not_editable"),
    ("decline", {"amount": "95"}, "edits_not_allowed"),
])
def test_invalid_edits_get_a_stable_code_and_change_nothing(world, script, option, edits, code):
    _, card = hotel_card(world, script)
    before = Ledger.now()
    status, body = respond(world, card, option, edits=edits)
    assert (status, body["code"]) == (422, code), body
    assert body["message"] and body["errors"]
    assert status_of(card) == "pending" and Ledger.now() == before
    assert CommandJournalEntry.objects.get(interaction_id=card["id"]).args["amount"] == "1500.00"


@pytest.mark.parametrize("edits", [{"amount": {"value": 1}}, {"amount": ["95"]}, {f"f{i}": "1" for i in range(21)},
                                   {"amount": "9" * 501}, {"am\u0000ount": "95"}])
def test_malformed_edits_are_422_invalid_request(world, script, edits):
    _, card = hotel_card(world, script)
    status, body = respond(world, card, edits=edits)
    assert (status, body["code"]) == (422, "invalid_request"), body
    assert status_of(card) == "pending"


def test_a_card_with_nothing_editable_refuses_edits(world, script):
    _, card = submit_card(world, script)
    before = Ledger.now()
    status, body = respond(world, card, edits={"amount": "1"})
    assert (status, body["code"]) == (422, "edits_not_allowed")
    assert status_of(card) == "pending" and Ledger.now() == before


def test_an_edit_the_handler_refuses_is_edit_refused_with_its_reason(world, script):
    berlin = world["berlin"]
    current = lines_of(berlin.id)[1]["amount"]
    text = script("change the second line to 1500", *in_mode(CONTROLLED, berlin.id, plan(
        act("a1", "update_line", "change the second line to 1500", case={"id": berlin.id}, line=2, amount="1500"))))
    (card,) = world["alice"].say(world["cid"], text)["interactions"]
    before = Ledger.now()

    status, body = respond(world, card, edits={"amount": current})  # no change to the line at all

    assert (status, body["code"], body["reason"]) == (422, "edit_refused", "no_change"), body
    assert status_of(card) == "pending" and Ledger.now() == before
    status, body = respond(world, card, edits={"amount": "80"})  # the same card, a value that applies
    assert status == 200 and lines_of(berlin.id)[1]["amount"] == "80.00"


def test_the_same_values_as_the_card_are_a_plain_confirmation(world, script):
    _, card = hotel_card(world, script)
    status, body = respond(world, card, edits={"amount": "1500"})
    assert status == 200 and body["interaction"]["status"] == "resolved"
    row = CommandJournalEntry.objects.get(interaction_id=card["id"])
    assert row.status == "committed" and "edits" not in row.origin


def test_an_edit_csrf_is_enforced(world, script):
    _, card = hotel_card(world, script)
    status, _ = world["alice"].post(f"/api/interactions/{card['id']}/respond",
                                    {"option": "confirm", "edits": {"amount": "95"}}, csrf=False)
    assert status == 403 and status_of(card) == "pending"


# =============================================================================== the pure review


def test_review_never_runs_anything_and_judges_edits_on_the_state_the_command_will_find(db):
    cases = seed()
    berlin = Case.objects.get(pk=cases["berlin"].id)
    registry = get_registry()
    ctx = CommandContext(actor=Actor(user_id=berlin.owner_id, username="alice"), today="2026-12-04")
    add = CardCommand("cmd_1", "add_line", {"amount": "1500.00", "category": "hotel", "date": "2026-11-18"})
    review = review_card([add], snapshot(berlin), registry, ctx, {"amount": "95"})
    assert (review.edited, review.args["amount"], review.needs_card, review.refused) == ("cmd_1", "95.00", False, None)
    again = review_card([add], snapshot(berlin), registry, ctx, {"amount": "2000"})
    assert again.needs_card and again.codes == ("amount_over_limit",)
    with pytest.raises(EditRefused) as refused:
        review_card([add, CardCommand("cmd_2", "update_line", {"line": 1, "line_id": "x", "amount": "1200.00"})],
                    snapshot(berlin), registry, ctx, {"amount": "95"})
    assert refused.value.code == "edits_ambiguous"
    assert Case.objects.get(pk=berlin.id).revision == berlin.revision


# =============================================================================== the socket


pytestmark_socket = pytest.mark.django_db(transaction=True)
ORIGIN = "http://127.0.0.1:8000"


async def _socket(conversation_id: str, cookie: str):
    from channels.testing import WebsocketCommunicator

    from turnframe_web.asgi import application

    headers = [(b"host", b"127.0.0.1:8000"), (b"origin", ORIGIN.encode()), (b"cookie", f"sessionid={cookie}".encode())]
    communicator = WebsocketCommunicator(application, f"/ws/conversations/{conversation_id}/", headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    return communicator


async def _until(communicator, last_type: str) -> list[dict]:
    events = []
    while True:
        event = await communicator.receive_json_from(timeout=15)
        events.append(event)
        if event["type"] == last_type:
            return events


@pytest.fixture
def socket_world(transactional_db, mode):
    cases = seed()
    mode(CONTROLLED)
    alice = get_user_model().objects.get(username="alice")
    client = Client()
    client.force_login(alice)
    return {"berlin": cases["berlin"], "cookie": client.cookies["sessionid"].value,
            "conversation": Conversation.objects.create(owner=alice, mode=CONTROLLED)}


@pytestmark_socket
async def test_a_click_over_the_socket_takes_the_same_edits_and_an_expired_card_says_so(socket_world, script,
                                                                                        settings):
    berlin, conversation = socket_world["berlin"], socket_world["conversation"]
    text = script("add a hotel of 1500 to Berlin", *in_mode(CONTROLLED, berlin.id, plan(
        act("a1", "add_line", "add a hotel of 1500", case={"id": berlin.id}, amount="1500", category="hotel"))))
    communicator = await _socket(conversation.id, socket_world["cookie"])
    await communicator.send_json_to({"type": "message", "text": text})
    card = next(e for e in await _until(communicator, "turn.completed") if e["type"] == "interaction.pending")
    card = card["interaction"]

    await communicator.send_json_to({"type": "respond", "interaction": card["id"], "option": "confirm",
                                     "edits": {"amount": "oops"}})
    error = await communicator.receive_json_from(timeout=10)
    assert (error["type"], error["code"], error["interaction"]) == ("error", "invalid_edit", card["id"])
    assert error["errors"]

    await communicator.send_json_to({"type": "respond", "interaction": card["id"], "option": "confirm",
                                     "edits": {"amount": "95"}})
    events = await _until(communicator, "turn.completed")
    assert events[-1]["turn"]["acts"][0]["outcome"] == "executed"
    line = (await database_sync_to_async(Case.objects.get)(pk=berlin.id)).state["lines"][-1]
    assert line["amount"] == "95.00"

    submit = script("submit Berlin", *in_mode(CONTROLLED, berlin.id, plan(
        act("a1", "submit_claim", "submit Berlin", case={"id": berlin.id}))))
    await communicator.send_json_to({"type": "message", "text": submit})
    second = next(e for e in await _until(communicator, "turn.completed") if e["type"] == "interaction.pending")
    await database_sync_to_async(Interaction.objects.filter(pk=second["interaction"]["id"]).update)(
        created_at=timezone.now() - timedelta(days=2))
    await communicator.send_json_to({"type": "respond", "interaction": second["interaction"]["id"], "option": "confirm"})
    events = await _until(communicator, "error")
    if not any(e["type"] == "interaction.resolved" for e in events):  # the stream may come after the error
        events += await _until(communicator, "interaction.resolved")
    (error,) = [e for e in events if e["type"] == "error"]
    assert error["code"] == "interaction_expired" and error["ask_again"] == submit
    assert [e["interaction"]["status"] for e in events if e["type"] == "interaction.resolved"] == ["expired"]
    assert (await database_sync_to_async(Case.objects.get)(pk=berlin.id)).status == "draft"
    await consumers.drain()
    await communicator.disconnect()


def test_an_act_declaring_an_unknown_or_item_field_editable_fails_the_check(db):
    from django.core.management import call_command
    from django.core.management.base import SystemCheckError

    shipped = get_registry().acts["update_line"]
    for editable in (("amount", "tip"), ("line",)):
        with override(acts=[replace(shipped, editable_fields=editable)]), pytest.raises(SystemCheckError) as failure:
            call_command("check")
        assert "registries.E020" in str(failure.value)
    call_command("check")  # the shipped declarations pass


@pytest.mark.parametrize("edits", [{"amount": True}, {"amount": "1\u0000"}, {"amount": "abc"}, {"date": "31/02"}])
def test_an_invalid_edit_names_the_field_not_the_validators(world, script, edits):
    """Review of issue 20: the error's ``loc`` showed a validator's repr (``functools.partial(<function …>``)."""
    _, card = hotel_card(world, script)
    status, body = respond(world, card, edits=edits)
    assert status == 422, body
    for error in body.get("errors", []):
        assert all("function" not in str(part) and " at 0x" not in str(part) for part in error["loc"]), error
