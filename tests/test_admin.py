"""The admin as audit console (SPEC §21.3, §16, §17; style convention 9).

The registries pages show every registered read tool and act and let staff disable or re-enable
one (logged, and seen by the runtime at once); the ledger pages are read-only; a turn's page says
why each act ran, from a turn produced through the real runtime with the scripted provider.
"""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.admin.utils import quote
from django.test import Client
from django.urls import reverse

from conversations.models import (
    ApiToken,
    Case,
    CommandJournalEntry,
    Conversation,
    DemoApproverNotification,
    DomainEvent,
    Interaction,
    OutboxEntry,
    Turn,
)
from conversations.outbox import outbox_dispatch
from conversations.services import users_seed
from conversations.turns import interaction_respond, offered_registry, turn_submit_message
from registries import get_registry
from registries.models import ActEntry, EntryStatus, ReadToolEntry, RegistryEntry
from registries.services import entry_quarantine, mirror_sync

pytestmark = pytest.mark.django_db

OPEN = "please open a claim called Berlin <b>trip</b>"
ADD = "add a hotel line of 1200 EUR"
SUBMIT = "submit the claim"


def url(model, view: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}",
                   args=[quote(str(a)) for a in args])


@pytest.fixture
def users(settings):
    mirror_sync()
    return users_seed(password="pw-for-tests")


@pytest.fixture
def staff(users) -> Client:
    client = Client()
    client.force_login(users["admin"])
    return client


@pytest.fixture
def ledger(users, script):
    """Three turns of alice's through the runtime: open a claim, add a line over the limit, confirm it."""
    alice = users["alice"]
    script(OPEN,
           {"reads": [{"tool": "lookup_policy", "args": {"query": "hotel"}}]},
           {"plan": {"acts": [{"id": "a1", "act": "open_claim", "args": {"title": "Berlin <b>trip</b>"},
                               "evidence": "open a claim called Berlin <b>trip</b>"}]}})
    script(ADD, {"plan": {"acts": [{"id": "a1", "act": "add_line", "case": {"active": True},
                                    "args": {"amount": "1200", "category": "hotel"},
                                    "evidence": "add a hotel line of 1200 EUR"}]}})
    script(SUBMIT, {"plan": {"acts": [{"id": "a1", "act": "submit_claim", "case": {"active": True}, "args": {},
                                       "evidence": "submit the claim"}]}})
    conversation = Conversation.objects.create(owner=alice)
    opened = turn_submit_message(user=alice, conversation_id=conversation.id, text=OPEN).turn
    added = turn_submit_message(user=alice, conversation_id=conversation.id, text=ADD).turn
    card = Interaction.objects.get(turn=added)
    _, confirmed = interaction_respond(user=alice, interaction_id=card.id, option="confirm")
    submitted = turn_submit_message(user=alice, conversation_id=conversation.id, text=SUBMIT).turn
    submit_card = Interaction.objects.get(turn=submitted)
    interaction_respond(user=alice, interaction_id=submit_card.id, option="confirm")
    outbox_dispatch()  # the demo approver receives the submission
    ApiToken.objects.create(user=alice, key_hash="f" * 64, prefix="tf_abcd")
    return {"conversation": conversation, "opened": opened, "added": added, "card": card,
            "confirmed": confirmed, "submitted": submitted}


def listed(response) -> list:
    assert response.status_code == 200
    return list(response.context["cl"].result_list)


# =============================================================================== registries


def test_the_read_tool_page_lists_every_registered_read_tool_as_read_only(staff):
    rows = listed(staff.get(url(ReadToolEntry, "changelist")))
    registry = get_registry()
    assert {r.name for r in rows} == set(registry.read_tools)
    assert len(rows) == len(registry.read_tools)  # every installed domain's (expenses: 6)
    assert {r.name: r.mutability for r in rows} == {n: "read_only" for n in registry.read_tools}
    assert all(r.kind == RegistryEntry.Kind.READ_TOOL and r.timeout_ms and r.max_result_bytes for r in rows)


def test_the_act_page_lists_every_registered_act_with_its_mutability(staff):
    response = staff.get(url(ActEntry, "changelist"))
    rows = listed(response)
    registry = get_registry()
    assert len(rows) == len(registry.acts)  # every installed domain's (expenses: 6)
    assert {r.name: r.mutability for r in rows} == {n: str(a.mutability) for n, a in registry.acts.items()}
    assert {r.name: r.mutability for r in rows}["remove_line"] == "consequential"
    content = response.content.decode()
    assert "consequential" in content and "reversible" in content and "sent for approval" in content


def test_the_registry_pages_filter_by_kind_status_and_mutability_and_search_by_name(staff):
    everything = listed(staff.get(url(RegistryEntry, "changelist")))
    registry = get_registry()
    assert len(everything) == len(registry.read_tools) + len(registry.acts)  # expenses alone: 12
    acts_only = listed(staff.get(url(RegistryEntry, "changelist"), {"kind__exact": "act"}))
    assert {r.name for r in acts_only} == set(get_registry().acts)
    consequential = listed(staff.get(url(ActEntry, "changelist"), {"mutability__exact": "consequential"}))
    assert {r.name for r in consequential} == {n for n, a in registry.acts.items() if a.mutability == "consequential"}
    assert {"remove_line", "submit_claim", "withdraw_claim"} <= {r.name for r in consequential}
    assert [r.name for r in listed(staff.get(url(ReadToolEntry, "changelist"), {"q": "exchange"}))] == ["exchange_rate"]
    assert listed(staff.get(url(ReadToolEntry, "changelist"), {"status__exact": "disabled"})) == []


def test_an_entry_page_shows_its_fingerprint_history_and_schema(staff):
    entry = ReadToolEntry.objects.get(name="exchange_rate")
    response = staff.get(url(ReadToolEntry, "change", entry.pk))
    assert response.status_code == 200
    content = response.content.decode()
    assert entry.schema_fingerprint in content
    assert "schema fingerprints over time" in content.lower()


def test_staff_can_disable_a_read_tool_and_the_runtime_stops_offering_it_then_re_enable_it(staff, users):
    entry = ReadToolEntry.objects.get(name="lookup_policy")
    assert "lookup_policy" in offered_registry("controlled_agentic").read_tools

    response = staff.post(url(ReadToolEntry, "changelist"),
                          {"action": "disable", "_selected_action": [entry.pk], "index": 0}, follow=True)
    assert response.status_code == 200
    entry.refresh_from_db()
    assert entry.status == EntryStatus.DISABLED
    assert "admin" in entry.status_reason
    assert "lookup_policy" not in offered_registry("controlled_agentic").read_tools
    assert "calculate" in offered_registry("controlled_agentic").read_tools
    log = LogEntry.objects.get(object_id=str(entry.pk), action_flag=CHANGE)
    assert log.user == users["admin"] and "Disabled" in log.get_change_message()
    assert any("Disabled: lookup_policy" in str(m) for m in response.context["messages"])

    staff.post(url(ReadToolEntry, "changelist"), {"action": "reenable", "_selected_action": [entry.pk], "index": 0})
    entry.refresh_from_db()
    assert entry.status == EntryStatus.ACTIVE and entry.status_reason == ""
    assert "lookup_policy" in offered_registry("controlled_agentic").read_tools
    assert LogEntry.objects.filter(object_id=str(entry.pk), action_flag=CHANGE).count() == 2


def test_an_act_can_be_disabled_from_its_own_page(staff):
    entry = ActEntry.objects.get(name="withdraw_claim")
    response = staff.post(url(ActEntry, "change", entry.pk),
                          {"CHANGE_FORM-action": "disable", "_selected_action": [entry.pk]})
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.status == EntryStatus.DISABLED
    assert "withdraw_claim" not in offered_registry("controlled_agentic").acts


def test_re_enabling_lifts_a_quarantine(staff):
    entry_quarantine(name="calculate", reason="timed out three times")
    assert "calculate" not in offered_registry("controlled_agentic").read_tools
    entry = ReadToolEntry.objects.get(name="calculate")
    assert "timed out three times" in staff.get(url(ReadToolEntry, "changelist")).content.decode()

    staff.post(url(ReadToolEntry, "changelist"), {"action": "reenable", "_selected_action": [entry.pk], "index": 0})
    entry.refresh_from_db()
    assert entry.status == EntryStatus.ACTIVE
    assert "calculate" in offered_registry("controlled_agentic").read_tools
    assert "quarantined" in LogEntry.objects.get(object_id=str(entry.pk)).get_change_message()


def test_a_name_that_changed_sides_cannot_be_re_enabled_from_the_admin(staff):
    # the mirror holds submit_claim as a read tool: mirror_sync keeps it out of service, and so does the admin
    RegistryEntry.objects.filter(name="submit_claim").update(kind=RegistryEntry.Kind.READ_TOOL)
    mirror_sync()
    entry = ReadToolEntry.objects.get(name="submit_claim")
    assert entry.status == EntryStatus.DISABLED
    assert "submit_claim" not in offered_registry("controlled_agentic").acts

    response = staff.post(url(ReadToolEntry, "changelist"),
                          {"action": "reenable", "_selected_action": [entry.pk], "index": 0}, follow=True)
    assert any("not re-enabled" in str(m) for m in response.context["messages"])
    entry.refresh_from_db()
    assert entry.status == EntryStatus.DISABLED
    assert "submit_claim" not in offered_registry("controlled_agentic").acts
    assert not LogEntry.objects.filter(object_id=str(entry.pk)).exists()


def test_a_user_who_is_not_staff_cannot_reach_the_registry_actions(users):
    client = Client()
    client.force_login(users["alice"])
    entry = ReadToolEntry.objects.get(name="calculate")
    response = client.post(url(ReadToolEntry, "changelist"),
                           {"action": "disable", "_selected_action": [entry.pk], "index": 0})
    assert response.status_code == 302 and "/login/" in response["Location"]
    entry.refresh_from_db()
    assert entry.status == EntryStatus.ACTIVE


def test_an_act_can_never_be_turned_into_a_read_tool(staff):
    entry = ActEntry.objects.get(name="submit_claim")
    page = staff.get(url(ActEntry, "change", entry.pk))
    assert page.status_code == 200
    content = page.content.decode()
    assert 'name="kind"' not in content and 'name="mutability"' not in content

    response = staff.post(url(ActEntry, "change", entry.pk),
                          {"name": "submit_claim", "kind": "read_tool", "mutability": "read_only", "_save": "Save"})
    assert response.status_code == 403
    entry.refresh_from_db()
    assert (entry.kind, entry.mutability) == ("act", "consequential")
    # nor through the read-tool page, nor by adding or deleting
    assert staff.get(url(ReadToolEntry, "change", entry.pk)).status_code == 302  # not a read tool: "does not exist"
    assert staff.post(url(ReadToolEntry, "add"), {"name": "submit_claim", "kind": "read_tool"}).status_code == 403
    assert staff.post(url(ActEntry, "delete", entry.pk), {"post": "yes"}).status_code == 403
    assert "submit_claim" not in offered_registry("controlled_agentic").read_tools
    assert RegistryEntry.objects.filter(name="submit_claim", kind="act").exists()


def test_the_status_actions_are_the_only_actions_on_the_registry_pages(staff):
    response = staff.get(url(ActEntry, "changelist"))
    choices = [name for name, _ in response.context["action_form"].fields["action"].choices if name]
    assert choices == ["disable", "reenable"]


# =============================================================================== ledger


LEDGER = (Case, Conversation, Turn, Interaction, CommandJournalEntry, DomainEvent, OutboxEntry,
          DemoApproverNotification)


def test_every_registered_admin_page_loads_with_data_present(staff, ledger):
    ours = [m for m in admin.site._registry if m._meta.app_label in ("conversations", "registries")]
    assert set(LEDGER) | {ApiToken, ReadToolEntry, ActEntry, RegistryEntry} <= set(ours)
    for model in admin.site._registry:
        response = staff.get(url(model, "changelist"))
        assert response.status_code == 200, model
        if model._meta.app_label in ("conversations", "registries"):
            rows = listed(response)
            assert rows, f"no {model.__name__} to show"
            assert staff.get(url(model, "change", rows[0].pk)).status_code == 200, model


def test_the_demo_approvers_notifications_are_shown_with_their_outbox_row(staff, ledger):
    """Issue 20 (9): what the demo approver received is in the admin, linked to the row that sent it."""
    entry = OutboxEntry.objects.get()
    [received] = listed(staff.get(url(DemoApproverNotification, "changelist")))
    assert (received.idempotency_key, received.claim, received.submitted_by) == (
        entry.idempotency_key, entry.case_id, "alice")
    page = staff.get(url(DemoApproverNotification, "change", received.pk)).content.decode()
    assert url(OutboxEntry, "change", entry.pk) in page and entry.case_id in page


@pytest.mark.parametrize("model", LEDGER, ids=lambda m: m.__name__)
def test_the_ledger_refuses_edits_adds_and_deletes(staff, ledger, model):
    obj = model._default_manager.order_by("pk").first()
    before = model._default_manager.filter(pk=obj.pk).values().get()
    fields = {k: "tampered" for k in before if isinstance(before[k], str)}

    assert staff.post(url(model, "change", obj.pk), {**fields, "_save": "Save"}).status_code == 403
    assert staff.get(url(model, "delete", obj.pk)).status_code == 403
    assert staff.post(url(model, "delete", obj.pk), {"post": "yes"}).status_code == 403
    assert staff.get(url(model, "add")).status_code == 403
    assert model._default_manager.filter(pk=obj.pk).values().get() == before
    page = staff.get(url(model, "change", obj.pk)).content.decode()
    assert 'name="_save"' not in page and "deletelink" not in page
    changelist = staff.get(url(model, "changelist"))
    assert changelist.context["action_form"] is None


def test_the_journal_is_searchable_by_user_case_and_key_and_filterable_by_status(staff, ledger):
    rows = CommandJournalEntry.objects.exclude(conversation=None)
    assert rows.count() == 3
    by_user = listed(staff.get(url(CommandJournalEntry, "changelist"), {"q": "alice"}))
    assert {r.pk for r in by_user} == {r.pk for r in rows}
    assert listed(staff.get(url(CommandJournalEntry, "changelist"), {"q": "bob"})) == []
    row = rows.get(act="add_line")
    assert [r.pk for r in listed(staff.get(url(CommandJournalEntry, "changelist"), {"q": row.idempotency_key}))] == [row.pk]
    assert {r.pk for r in listed(staff.get(url(CommandJournalEntry, "changelist"), {"q": row.case_id}))} == \
        {r.pk for r in rows}
    confirmed = listed(staff.get(url(CommandJournalEntry, "changelist"),
                                 {"origin_kind__exact": "confirmed_interaction"}))
    assert {r.act for r in confirmed} == {"add_line", "submit_claim"}
    committed = listed(staff.get(url(CommandJournalEntry, "changelist"), {"status__exact": "committed", "act": "add_line"}))
    assert [r.pk for r in committed] == [row.pk]


def test_cases_turns_and_interactions_are_searchable_by_their_owner(staff, ledger):
    for model in (Case, Conversation, Turn, Interaction, DomainEvent, OutboxEntry):
        assert listed(staff.get(url(model, "changelist"), {"q": "alice"})), model
        assert listed(staff.get(url(model, "changelist"), {"q": "bob"})) == [], model


def test_a_case_page_shows_its_events_and_its_journal(staff, ledger):
    case = Case.objects.get(title="Berlin <b>trip</b>")
    content = staff.get(url(Case, "change", case.pk)).content.decode()
    for event in DomainEvent.objects.filter(case=case):
        assert event.type in content
    for row in CommandJournalEntry.objects.filter(case=case):
        assert row.pk in content
    assert "Berlin &lt;b&gt;trip&lt;/b&gt;" in content and "Berlin <b>trip</b>" not in content


def test_an_api_token_can_be_listed_and_revoked_but_never_added_or_edited(staff, ledger):
    token = ApiToken.objects.get()
    listing = staff.get(url(ApiToken, "changelist")).content.decode()
    assert "tf_abcd" in listing and token.key_hash not in listing
    page = staff.get(url(ApiToken, "change", token.pk)).content.decode()
    assert token.key_hash not in page
    assert staff.post(url(ApiToken, "change", token.pk), {"key_hash": "0" * 64, "prefix": "x"}).status_code == 403
    assert staff.get(url(ApiToken, "add")).status_code == 403
    token.refresh_from_db()
    assert token.key_hash == "f" * 64
    assert staff.post(url(ApiToken, "delete", token.pk), {"post": "yes"}).status_code == 302
    assert not ApiToken.objects.exists()


# =============================================================================== the why-trace


def test_the_turn_page_says_why_each_act_ran(staff, ledger):
    turn = ledger["opened"]
    assert turn.status == Turn.Status.COMPLETED
    command = CommandJournalEntry.objects.get(turn=turn)
    response = staff.get(url(Turn, "change", turn.pk))
    assert response.status_code == 200
    content = response.content.decode()
    assert "Why did this run" in content
    # evidence (the user's words), escaped
    assert "open a claim called Berlin &lt;b&gt;trip&lt;/b&gt;" in content
    assert "<b>trip</b>" not in content
    # the resolved target, the policy decision and the outcome
    assert "<td>the new case this act opens</td><td>allow</td><td>executed</td>" in content
    # the command and the origin that authorized it, with the evidence it carried
    assert f">{command.pk}</a>" in content
    assert "<strong>direct_user_act</strong>: evidence: open a claim called Berlin &lt;b&gt;trip&lt;/b&gt;" in content
    # the read round and the model's answers as received
    assert "lookup_policy" in content
    assert "The model&#x27;s answers as received" in content
    event = DomainEvent.objects.get(command=command)
    assert event.type == "claim_opened" and event.pk in content


def test_the_turn_page_shows_a_confirmation_held_then_run_under_the_click(staff, ledger):
    added = staff.get(url(Turn, "change", ledger["added"].pk)).content.decode()
    card = ledger["card"]
    assert "add a hotel line of 1200 EUR" in added
    assert "the conversation&#x27;s active case" in added
    assert "confirm <code>amount_over_limit</code>" in added
    assert "<td>awaiting_confirmation</td>" in added  # what the reducer decided then
    # the command it journaled, as it stands now: run under the click on the card
    card_link = f'<a href="{url(Interaction, "change", card.pk)}">{card.pk}</a>'
    assert f"<strong>confirmed_interaction</strong>: interaction: {card_link}; option: confirm; user: alice" in added

    clicked = staff.get(url(Turn, "change", ledger["confirmed"].pk)).content.decode()
    assert "A click on" in clicked and card.pk in clicked
    assert "<strong>confirmed_interaction</strong>" in clicked
    assert "option: confirm" in clicked and "user: alice" in clicked
    # the click page carries the evidence of the turn that drew the card
    assert "add a hotel line of 1200 EUR" in clicked
    assert "line_added" in clicked


def test_the_why_trace_escapes_everything_a_model_or_user_wrote(staff, users, script):
    alice = users["alice"]
    hostile = "open a claim called <script>alert(1)</script>"
    script(hostile, {"plan": {"acts": [{"id": "a1", "act": "open_claim", "args": {"title": "<script>alert(1)</script>"},
                                        "evidence": hostile}], "say": "<img src=x onerror=alert(2)>"}})
    conversation = Conversation.objects.create(owner=alice)
    turn = turn_submit_message(user=alice, conversation_id=conversation.id, text=hostile).turn
    content = staff.get(url(Turn, "change", turn.pk)).content.decode()
    assert "<script>alert(1)</script>" not in content
    assert "<img src=x" not in content
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in content


def test_a_command_still_waiting_for_its_card_shows_no_origin_yet(staff, users, script):
    alice = users["alice"]
    script(OPEN, {"plan": {"acts": [{"id": "a1", "act": "open_claim", "args": {"title": "Berlin <b>trip</b>"},
                                     "evidence": "open a claim called Berlin <b>trip</b>"}]}})
    script(ADD, {"plan": {"acts": [{"id": "a1", "act": "add_line", "args": {"amount": "1200", "category": "hotel"},
                                    "evidence": "add a hotel line of 1200 EUR"}]}})
    conversation = Conversation.objects.create(owner=alice)
    turn_submit_message(user=alice, conversation_id=conversation.id, text=OPEN)
    added = turn_submit_message(user=alice, conversation_id=conversation.id, text=ADD).turn
    card = Interaction.objects.get(turn=added, status=Interaction.Status.PENDING)
    content = staff.get(url(Turn, "change", added.pk)).content.decode()
    card_link = f'<a href="{url(Interaction, "change", card.pk)}">{card.pk}</a>'
    assert f"<td>awaiting_confirmation</td><td>none yet: awaits confirmation on {card_link}</td>" in content
    assert CommandJournalEntry.objects.get(turn=added).origin_kind == "none"


def test_a_turn_that_failed_closed_says_why_and_that_nothing_ran(staff, users, script):
    alice = users["alice"]
    conversation = Conversation.objects.create(owner=alice)
    turn = turn_submit_message(user=alice, conversation_id=conversation.id, text="nothing is scripted for this").turn
    assert turn.status == Turn.Status.FAILED
    content = staff.get(url(Turn, "change", turn.pk)).content.decode()
    assert "Provider failure: <code>unavailable</code>" in content
    assert "<code>provider_unavailable</code>" in content
    assert "No act was proposed in this turn." in content


def test_every_model_of_ours_names_its_objects_in_words_not_object_numbers():
    """Issue 12 (7): no "ReadRound object (5)" or "FingerprintHistory object (3)" in the admin."""
    from django.apps import apps
    from django.db import models as django_models

    ours = [m for m in apps.get_models() if m._meta.app_label in ("conversations", "registries")]
    assert ours
    plain = [m.__name__ for m in ours if m.__str__ is django_models.Model.__str__]
    assert plain == []


def test_a_read_tools_default_policy_is_named_in_words_and_a_lambda_by_its_module():
    from registries.definitions import ReadToolDefinition
    from registries.services import policy_name

    default = ReadToolDefinition.__dataclass_fields__["authorize"].default
    assert policy_name(default, default=default) == "built-in: any signed-in user (every read is scoped to them)"
    assert "<lambda>" not in policy_name(lambda case, args: None)
    assert policy_name(test_a_read_tools_default_policy_is_named_in_words_and_a_lambda_by_its_module).endswith(
        "test_a_read_tools_default_policy_is_named_in_words_and_a_lambda_by_its_module")


def test_turns_filter_by_act_outcome_and_by_having_read_rounds(staff, users):
    """Issue 12 (7), on SQLite and PostgreSQL alike (the outcome is matched in the JSON text of ``acts``)."""
    from conversations.models import ReadRound

    conversation = Conversation.objects.create(owner=users["alice"])

    def turn(cid: str, acts: list) -> Turn:
        return conversation.turns.create(kind="message", text=cid, client_message_id=cid, mode=conversation.mode,
                                         status="completed", acts=acts)

    ran = turn("ran", [{"id": "a1", "act": "add_line", "outcome": "executed"}])
    waits = turn("waits", [{"id": "a1", "act": "remove_line", "outcome": "awaiting_confirmation"},
                           {"id": "a2", "act": "add_line", "outcome": "executed"}])
    asked = turn("asked", [])
    ReadRound.objects.create(turn=asked, round=1, status="ok", requests=[{"tool": "lookup_policy"}])

    def ids(query: str) -> set[str]:
        return {t.id for t in listed(staff.get(url(Turn, "changelist") + query))}

    assert ids("?outcome=executed") == {ran.id, waits.id}
    assert ids("?outcome=awaiting_confirmation") == {waits.id}
    assert ids("?outcome=none") == {asked.id}
    assert ids("?read_rounds=yes") == {asked.id}
    assert ids("?read_rounds=no") == {ran.id, waits.id}
    assert str(ReadRound.objects.get(turn=asked)) == f"lookup round 1 of {asked.id} (ok: lookup_policy)"
