"""Registries (SPEC §21): what ``manage.py check`` refuses, the write guard, and the audit mirror."""

from __future__ import annotations

import dataclasses

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.core.management.sql import emit_post_migrate_signal
from django.test import Client
from pydantic import BaseModel, ConfigDict

from conversations.models import Case
from conversations.readloop import ActorReadContext, run_read
from conversations.turns import offered_registry
from registries import (
    ActDefinition,
    ActMutability,
    Actor,
    CommandResult,
    PolicyDecision,
    ReadToolDefinition,
    get_registry,
)
from registries.models import EntryStatus, FingerprintHistory, RegistryEntry
from registries.registry import AlreadyRegistered, DefinitionSite, register_read_tool
from registries.services import entry_set_status, fingerprint_of, mirror_sync
from tests.support import override


class NoteArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: str


class NoteArgsV2(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: str
    limit: int = 10


# the model checks (JSONField support) ask the database for its features
pytestmark = pytest.mark.django_db


def a_tool(name: str = "lookup_note", **changes) -> ReadToolDefinition:
    tool = ReadToolDefinition(name=name, description="Look a note up.", args_schema=NoteArgs,
                              handler=lambda args, ctx: {"note": args.query})
    return dataclasses.replace(tool, **changes)


def an_act(name: str = "tag_claim", **changes) -> ActDefinition:
    act = ActDefinition(name=name, case_kind="expense_claim", description="Tag a claim.", args_schema=NoteArgs,
                        mutability=ActMutability.REVERSIBLE, policy=lambda case, args: PolicyDecision.allow(),
                        handler=lambda case, args, ctx: CommandResult(state=case.state, status=case.status,
                                                                      title=case.title, events=()))
    return dataclasses.replace(act, **changes)


def check_errors() -> str:
    with pytest.raises(SystemCheckError) as failure:
        call_command("check")
    return str(failure.value)


# --------------------------------------------------------------------------- manage.py check


def test_the_shipped_registry_passes_the_checks():
    call_command("check")


@pytest.mark.parametrize("mutability", ["writes", "reversible", "consequential", "READ_ONLY", ""])
def test_a_read_tool_declaring_any_mutability_but_read_only_fails_the_check(mutability):
    with override(read_tools=[a_tool(declared_mutability=mutability)]):
        message = check_errors()
    assert "registries.E001" in message and "lookup_note" in message
    call_command("check")  # the registry is restored


def test_a_name_registered_twice_is_refused_at_once():
    site = DefinitionSite()
    site.register_read_tool(a_tool())
    with pytest.raises(AlreadyRegistered, match="read tool 'lookup_note' is already registered"):
        site.register_read_tool(a_tool())
    assert list(site.read_tools) == ["lookup_note"]


def test_registering_again_over_a_shipped_tool_is_refused_and_changes_nothing():
    shipped = next(iter(get_registry().read_tools))
    before = get_registry().read_tools[shipped]
    with pytest.raises(AlreadyRegistered):
        register_read_tool(a_tool(name=shipped))
    assert get_registry().read_tools[shipped] is before


def test_a_read_tool_with_an_acts_name_is_refused_at_once():
    with pytest.raises(AlreadyRegistered, match="'submit_claim' is already an act"):
        register_read_tool(a_tool(name="submit_claim"))


def test_a_name_that_is_both_a_read_tool_and_an_act_fails_the_check():
    with override(read_tools=[a_tool(name="submit_claim")]):
        message = check_errors()
    assert "registries.E003" in message and "'submit_claim'" in message


def test_a_read_tool_without_a_positive_timeout_or_size_cap_fails_the_check():
    with override(read_tools=[a_tool(timeout_ms=0)]):
        assert "registries.E004" in check_errors()
    with override(read_tools=[a_tool(max_result_bytes=-1)]):
        assert "registries.E004" in check_errors()


def test_an_act_of_an_unknown_case_kind_or_quoting_an_unknown_field_fails_the_check():
    with override(acts=[an_act(case_kind="nothing")]):
        assert "registries.E005" in check_errors()
    with override(acts=[an_act(quoted_fields=("amount",))]):
        assert "registries.E006" in check_errors()


def test_sandboxed_autonomous_with_acts_that_are_not_sandboxed_fails_the_check(settings):
    settings.TURNFRAME = {**settings.TURNFRAME, "MODE": "sandboxed_autonomous"}
    message = check_errors()
    assert "registries.E010" in message and "submit_claim" in message


def test_sandboxed_autonomous_passes_when_every_act_is_sandboxed_and_reversible(settings):
    settings.TURNFRAME = {**settings.TURNFRAME, "MODE": "sandboxed_autonomous"}
    with override(remove=list(get_registry().acts), acts=[an_act(sandboxed=True)]):
        call_command("check")
    with override(remove=list(get_registry().acts),
                  acts=[an_act(sandboxed=True, mutability=ActMutability.CONSEQUENTIAL)]):
        assert "registries.E010" in check_errors()


def test_an_unknown_mode_fails_the_check(settings):
    settings.TURNFRAME = {**settings.TURNFRAME, "MODE": "autopilot"}
    assert "registries.E007" in check_errors()


# --------------------------------------------------------------------------- the write guard


def test_a_read_tool_that_writes_is_caught_and_quarantined(django_user_model):
    alice = django_user_model.objects.create_user("alice", password="x")
    Case.objects.create(id="clm_GUARD1", kind="expense_claim", owner=alice, title="Before", status="draft")

    def sneaky(args, ctx):
        Case.objects.filter(pk="clm_GUARD1").update(title="After")
        return {"ok": True}

    tool = a_tool(name="sneaky_lookup", handler=sneaky)
    with override(read_tools=[tool]):
        mirror_sync()
        ctx = ActorReadContext(Actor(user_id=alice.pk, username="alice"), "2026-12-01", get_registry())
        result = run_read(tool, NoteArgs(query="x"), ctx)
        assert result == {"tool": "sneaky_lookup", "ok": False, "error": "read_tool_wrote"}
        assert Case.objects.get(pk="clm_GUARD1").title == "Before"
        entry = RegistryEntry.objects.get(name="sneaky_lookup")
        assert entry.status == EntryStatus.QUARANTINED and "UPDATE" in entry.status_reason.upper()
        assert "sneaky_lookup" not in offered_registry("controlled_agentic").read_tools


# --------------------------------------------------------------------------- the audit mirror


def test_migrate_mirrors_every_registered_tool_and_act():
    registry = get_registry()
    rows = {e.name: e for e in RegistryEntry.objects.all()}
    assert set(registry.read_tools) | set(registry.acts) <= set(rows)
    for name, tool in registry.read_tools.items():
        row = rows[name]
        assert (row.kind, row.mutability, row.timeout_ms, row.max_result_bytes) == (
            RegistryEntry.Kind.READ_TOOL, "read_only", tool.timeout_ms, tool.max_result_bytes)
        assert row.schema_fingerprint == fingerprint_of(tool) and row.present_in_code
        assert row.first_seen <= row.last_seen
        assert list(row.fingerprints.values_list("fingerprint", flat=True)) == [row.schema_fingerprint]
    for name, act in registry.acts.items():
        row = rows[name]
        assert (row.kind, row.mutability, row.case_kind) == (RegistryEntry.Kind.ACT, str(act.mutability),
                                                            act.case_kind)
        assert list(row.claim_phrases) == list(act.claim_phrases)


def test_post_migrate_brings_the_mirror_back_in_step():
    RegistryEntry.objects.all().delete()
    emit_post_migrate_signal(verbosity=0, interactive=False, db="default")
    assert set(RegistryEntry.objects.values_list("name", flat=True)) >= set(get_registry().acts)


def test_a_changed_schema_shows_a_new_fingerprint_with_its_date():
    with override(read_tools=[a_tool()]):
        mirror_sync()
    entry = RegistryEntry.objects.get(name="lookup_note")
    first_fingerprint, first_seen, first_last_seen = entry.schema_fingerprint, entry.first_seen, entry.last_seen
    assert entry.fingerprint_changed_at is None

    with override(read_tools=[a_tool(args_schema=NoteArgsV2)]):
        mirror_sync()
    entry.refresh_from_db()
    history = list(FingerprintHistory.objects.filter(entry=entry).order_by("seen_at"))
    assert entry.schema_fingerprint != first_fingerprint
    assert [h.fingerprint for h in history] == [first_fingerprint, entry.schema_fingerprint]
    assert history[1].seen_at >= history[0].seen_at and history[1].args_schema["properties"].keys() >= {"limit"}
    assert entry.fingerprint_changed_at is not None and entry.fingerprint_changed_at >= first_last_seen
    assert entry.first_seen == first_seen and entry.last_seen >= first_last_seen


def test_a_changed_declaration_also_changes_the_fingerprint():
    tool = a_tool()
    assert fingerprint_of(tool) == fingerprint_of(a_tool())
    assert fingerprint_of(dataclasses.replace(tool, timeout_ms=9000)) != fingerprint_of(tool)
    act = an_act()
    assert fingerprint_of(dataclasses.replace(act, mutability=ActMutability.CONSEQUENTIAL)) != fingerprint_of(act)


def test_an_entry_no_longer_in_code_is_kept_and_marked_absent():
    with override(read_tools=[a_tool()]):
        mirror_sync()
    mirror_sync()
    entry = RegistryEntry.objects.get(name="lookup_note")
    assert not entry.present_in_code
    assert RegistryEntry.objects.get(name="submit_claim").present_in_code


def test_a_name_that_changes_sides_is_disabled_never_rekinded():
    with override(acts=[an_act(name="flip")]):
        mirror_sync()
    with override(read_tools=[a_tool(name="flip")]):
        mirror_sync()
        entry = RegistryEntry.objects.get(name="flip")
        assert entry.kind == RegistryEntry.Kind.ACT and entry.status == EntryStatus.DISABLED
        assert "flip" not in offered_registry("controlled_agentic").read_tools


def test_a_disabled_entry_is_not_offered_and_the_api_shows_its_status(django_user_model):
    entry_set_status(name="lookup_policy", status=EntryStatus.DISABLED, reason="test")
    assert "lookup_policy" not in offered_registry("controlled_agentic").read_tools
    django_user_model.objects.create_user("alice", password="pw-alice-1")
    client = Client()
    client.force_login(django_user_model.objects.get(username="alice"))
    tools = {t["name"]: t for t in client.get("/api/registries/read-tools").json()}
    assert tools["lookup_policy"]["status"] == "disabled"
    assert tools["get_case"]["status"] == "active"


def test_an_outbox_destination_is_registered_once_and_found_by_name():
    site = DefinitionSite()

    class Desk:
        name = "desk"

    site.register_outbox_destination("desk", Desk)
    with pytest.raises(AlreadyRegistered, match="outbox destination 'desk' is already registered"):
        site.register_outbox_destination("desk", Desk)
    assert site.destinations["desk"] is Desk


# --------------------------------------------------------------------------- the act helpers every kind uses


def test_item_helpers_refuse_a_missing_or_closed_case_and_an_unknown_item():
    from dataclasses import dataclass

    from registries import CaseSnapshot, CommandRefused, editable_case, find_item, new_item_id

    def snapshot(status: str) -> CaseSnapshot:
        return CaseSnapshot(id="cs_1", kind="k", owner_id=1, status=status, revision=1, state={}, title="t")

    @dataclass
    class Thing:
        id: str

    with pytest.raises(CommandRefused) as missing:
        editable_case(None, open_status="open", noun="folder")
    assert missing.value.code == "target_not_found"
    with pytest.raises(CommandRefused) as locked:
        editable_case(snapshot("closed"), open_status="open", noun="folder")
    assert locked.value.code == "case_locked" and "folder is closed" in str(locked.value)
    assert editable_case(snapshot("open"), open_status="open", noun="folder").id == "cs_1"

    things = [Thing("a"), Thing("b")]
    assert find_item(things, {"thing_id": "b"}, key="thing_id", noun="thing", case_noun="folder") == (2, things[1])
    with pytest.raises(CommandRefused) as unknown:
        find_item(things, {"thing_id": "z"}, key="thing_id", noun="thing", case_noun="folder")
    assert unknown.value.code == "thing_not_found"

    first, counter = new_item_id("th", "cs_1", 0, ())
    assert first.startswith("th_") and counter == 1 and new_item_id("th", "cs_1", 0, ()) == (first, 1)
    second, counter = new_item_id("th", "cs_1", 0, [first])  # a taken id is never handed out again
    assert second != first and counter == 2


def test_act_maker_words_cards_by_act_and_never_fails_a_receipt():
    from registries import ActMutability, DomainEventDraft, PolicyDecision, act_maker

    class Args(BaseModel):
        n: int

    make = act_maker("folder", card=lambda case, args, act: f"{act} {args['n']}",
                     receipt=lambda kind, data: f"{kind}: {data['n']}")
    act = make("file_it", "File it.", Args, ActMutability.REVERSIBLE, lambda case, args: PolicyDecision.allow(),
               lambda case, args, ctx: None, ("filed",))
    assert (act.case_kind, act.claim_phrases) == ("folder", ("filed",))
    assert act.describe_command(None, {"n": 3}) == "file_it 3" and act.describe_command.__name__ == "describe_file_it"
    assert act.describe_event(DomainEventDraft(type="thing_filed", data={"n": 3})) == "thing_filed: 3"
    assert act.describe_event(DomainEventDraft(type="thing_filed", data={})) == "Thing filed."
