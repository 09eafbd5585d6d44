"""The turn record (``conversations.core.record``): one versioned schema for ``Turn.trace/acts/notices``."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import serializers
from django.db.models import OuterRef, Subquery
from pydantic import ValidationError

from conversations.admin import why_trace
from conversations.core.record import VERSION, ActWhy, TurnAct, TurnEnd, TurnNotice, TurnTrace
from conversations.core.reducer import ActResult, NewCase
from conversations.models import Conversation, Turn
from conversations.selectors import turn_json
from registries import PolicyDecision, PolicyKind

# a trace as the runtime wrote it before the record had a schema (version 0): flat keys, strings for targets
VERSION_0 = {
    "rounds": [{"round": 1, "provider": "local", "status": "ok"}],
    "raw": '{"acts": []}',
    "acts": [{"id": "a1", "act": "open_claim", "case": "new:a1", "outcome": "executed", "code": None,
              "args": {"title": "Rome"}, "evidence": "open Rome", "target": "new", "policy": "allow",
              "origin": "direct_user_act"},
             {"id": "a2", "act": "submit_claim", "case": "clm_X", "outcome": "awaiting_confirmation",
              "policy": "confirm:large_claim", "evidence": "submit it", "target": "active"}],
    "command_ids": ["cmd_1"], "event_ids": ["evt_1"], "interaction_ids": [], "notices": ["held_by_constraint"],
    "active_case_after": "clm_X", "pending": None, "a_key_from_elsewhere": [1, 2],
}


def test_a_version_0_trace_reads_as_the_current_schema_and_loses_nothing():
    trace = TurnTrace.model_validate(VERSION_0)

    assert trace.version == VERSION and trace.plan_raw == '{"acts": []}'
    assert trace.end == TurnEnd(active_case="clm_X", pending=None)
    opened, submitted = trace.acts
    assert opened.case is None and opened.new_case_of == "a1" and opened.policy.kind == PolicyKind.ALLOW
    assert submitted.policy.kind == PolicyKind.CONFIRM and submitted.policy.code == "large_claim"
    assert trace.model_dump()["a_key_from_elsewhere"] == [1, 2]  # a field this version does not know is kept
    assert TurnTrace.model_validate(trace.model_dump(mode="json")) == trace  # and it round-trips


def test_the_record_refuses_what_is_not_a_record():
    with pytest.raises(ValidationError):
        TurnTrace.model_validate({"version": 1, "command_ids": "cmd_1"})
    with pytest.raises(ValidationError):
        TurnAct.model_validate({"act": "add_line"})  # no id


def test_the_reducers_verdict_becomes_the_clients_act_and_the_why():
    result = ActResult(id="a2", act="add_line", outcome="executed", case=NewCase("a1"), args={"amount": "5"},
                       evidence="add 5", target="new", policy=PolicyDecision.confirm("over_limit"))

    assert TurnAct.of(result).model_dump() == {"id": "a2", "act": "add_line", "case": None, "outcome": "executed",
                                               "code": None}
    why = ActWhy.of(result)
    assert why.case is None and why.new_case_of == "a1" and str(why.policy) == "confirm:over_limit"


def test_settling_a_command_records_its_events_once(db):
    trace = TurnTrace(command_ids=["cmd_1"])
    trace.settle("cmd_1", ["evt_1"])
    trace.settle("cmd_2", ["evt_1", "evt_2"])
    assert trace.command_ids == ["cmd_1", "cmd_2"] and trace.settled_command_ids == ["cmd_1", "cmd_2"]
    assert trace.event_ids == ["evt_1", "evt_2"]


@pytest.fixture
def turn(db):
    user = get_user_model().objects.create_user("recorder")
    conversation = Conversation.objects.create(owner=user, mode="controlled_agentic")
    return Turn.objects.create(conversation=conversation, kind=Turn.Kind.MESSAGE, client_message_id="m1",
                               text="open Rome", mode="controlled_agentic", status=Turn.Status.COMPLETED)


def test_the_columns_hold_the_record_types_however_the_value_arrived(turn):
    assert isinstance(turn.trace, TurnTrace) and turn.acts == [] and turn.notices == []  # a new turn's defaults

    turn.acts = [{"id": "a1", "act": "open_claim", "outcome": "executed"}]  # assigned as JSON: validated
    turn.save()
    Turn.objects.filter(pk=turn.pk).update(trace=VERSION_0, notices=[TurnNotice(code="held", text="Held.")])
    turn.refresh_from_db()

    assert turn.acts == [TurnAct(id="a1", act="open_claim", outcome="executed")]
    assert turn.notices[0].code == "held" and turn.trace.end.active_case == "clm_X"
    stored = Turn.objects.filter(pk=turn.pk).values_list("trace", flat=True).get()
    assert isinstance(stored, TurnTrace)
    # lookups still run on the stored JSON
    assert Turn.objects.filter(pk=turn.pk, acts__icontains='"outcome": "executed"').exists()
    assert not Turn.objects.filter(pk=turn.pk, acts=[]).exists()
    assert Turn.objects.filter(pk=turn.pk, trace__event_ids__0="evt_1").exists()


def test_a_version_0_turn_is_shown_to_clients_and_explained_in_the_admin(turn):
    Turn.objects.filter(pk=turn.pk).update(trace=VERSION_0, acts=[
        {"id": "a1", "act": "open_claim", "case": None, "outcome": "executed", "code": None}])
    turn.refresh_from_db()

    shown = turn_json(turn)
    assert shown["active_case"] == "clm_X" and shown["acts"][0]["outcome"] == "executed"
    why = why_trace(turn)
    assert "the new case this act opens" in why and "large_claim" in why and "held_by_constraint" in why


def test_a_turn_dumps_loads_and_validates_as_plain_json(turn):
    """dumpdata/loaddata and full_clean see the stored JSON, not the models (found by review)."""
    Turn.objects.filter(pk=turn.pk).update(trace=VERSION_0)
    turn.refresh_from_db()
    Turn._meta.get_field("trace").clean(turn.trace, turn)  # what full_clean / a form validates: the JSON
    dumped = serializers.serialize("json", [turn])
    (restored,) = serializers.deserialize("json", dumped)
    assert restored.object.trace == turn.trace and restored.object.acts == turn.acts


def test_an_expression_over_the_record_is_not_read_as_a_record(turn):
    Turn.objects.filter(pk=turn.pk).update(trace=VERSION_0)
    last = Turn.objects.filter(conversation=OuterRef("pk")).values("trace__event_ids")[:1]
    assert list(Conversation.objects.annotate(ids=Subquery(last)).values_list("ids", flat=True)) == [["evt_1"]]
