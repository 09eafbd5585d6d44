"""Chaos: provider failures at every read round, crashes at every commit boundary (SPEC §27, I17).

A provider failure before the plan leaves no journal row and no event. A crash at a commit
boundary (after the interactions are persisted, after journal admission, after commit before the
reply) leaves a running turn that ``turn_recover`` / ``manage.py recover_turns`` finishes without
repeating an effect: every command commits exactly once, whatever the number of recoveries.
"""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.models import F

from conversations import stream, turns
from conversations.models import Case, CommandJournalEntry, Conversation, DomainEvent, Interaction, ReadRound, Turn
from conversations.providers.base import ProviderFailure
from conversations.selectors import turn_json
from conversations.turns import (
    CRASH_POINTS,
    SimulatedCrash,
    clicks,
    delivery,
    execution,
    interaction_respond,
    turn_recover,
    turn_submit_message,
)
from tests.support import Ledger, act, blocks, lines_of, plan, reads, seed
from turnframe_web.errors import Conflict

CONTROLLED = "controlled_agentic"
POINTS = ("after_interactions_persisted", "after_journal_admission", "after_commit")



@pytest.fixture
def world(db):
    cases = seed()
    alice = get_user_model().objects.get(username="alice")
    return type("World", (), {"alice": alice, **cases})


@pytest.fixture
def crash():
    """Arm one crash point for the next runtime call; always disarmed afterwards."""
    def arm(point: str) -> None:
        CRASH_POINTS.clear()
        CRASH_POINTS.add(point)
    yield arm
    CRASH_POINTS.clear()


def conversation(world, mode: str = CONTROLLED) -> Conversation:
    return Conversation.objects.create(owner=world.alice, mode=mode)


def say(world, conv: Conversation, text: str, **kwargs) -> dict:
    outcome = turn_submit_message(user=world.alice, conversation_id=conv.id, text=text, **kwargs)
    return turn_json(outcome.turn, replayed=outcome.replayed)


# =============================================================================== provider failures


READ_ROUNDS = 4


@pytest.mark.parametrize("fail_at", range(READ_ROUNDS + 1), ids=lambda n: f"call_{n + 1}")
@pytest.mark.parametrize("failure", [{"fail": "timeout"}, {"fail": "unavailable"}, {"raw": "I am not JSON"}],
                         ids=["timeout", "unavailable", "unparseable"])
@pytest.mark.parametrize("with_fallback", [False, True], ids=["primary_only", "fallback_fails_too"])
def test_a_provider_failure_at_any_read_round_or_at_the_plan_leaves_no_trace_in_the_ledger(
        world, script, fail_at, failure, with_fallback):
    """The model answers ``fail_at`` read batches, then fails (on its retry too) where the next batch
    or the plan would have come; the plan, had it come, would have edited and submitted the claim."""
    lookups = [reads(("get_case", {"case": world.berlin.id}), ("lookup_policy", {"query": "hotel"}))] * fail_at
    would_be = plan(act("a1", "update_line", "change the second line to 120", case={"id": world.berlin.id},
                        line=2, amount="120"),
                    act("a2", "submit_claim", "submit it", case={"id": world.berlin.id}))
    if with_fallback:
        script.with_fallback()
    text = script("change the second line to 120 and submit it", *lookups, failure, failure, would_be,
                  fallback=[*lookups, failure, failure, would_be])
    before = Ledger.now()

    turn = say(world, conversation(world), text)

    assert turn["status"] == "failed" and turn["phase"] == "failed"
    assert [b["code"] for b in blocks(turn, "notice")] == ["provider_unavailable"]
    assert Ledger.now() == before  # no journal row, no event, no revision moved
    assert not Interaction.objects.exists()
    assert turn["acts"] == [] and turn["commands"] == [] and turn["events"] == []
    rounds = ReadRound.objects.filter(turn_id=turn["id"])
    assert rounds.count() == fail_at * (2 if with_fallback else 1)  # the reads ran and were recorded
    assert blocks(turn, "ask")  # a way forward even when failing closed (I21)


def test_a_provider_failure_in_deterministic_mode_fails_closed(world, script):
    text = script("change the second line to 120", {"fail": "timeout"}, {"fail": "timeout"})
    before = Ledger.now()

    turn = say(world, conversation(world, "deterministic"), text)

    assert turn["status"] == "failed" and Ledger.now() == before


def test_a_retry_after_one_provider_failure_completes_the_turn_once(world, script):
    text = script("change the second line to 120",
                  reads(("get_case", {"case": world.berlin.id})), {"fail": "timeout"},
                  plan(act("a1", "update_line", "change the second line to 120", case={"id": world.berlin.id},
                           line=2, amount="120")))
    before = Ledger.now()

    turn = say(world, conversation(world), text)

    assert turn["status"] == "completed" and turn["acts"][0]["outcome"] == "executed"
    assert Ledger.now().events == before.events + 1 and Ledger.now().journal == before.journal + 1


# =============================================================================== crashes in message turns


MIXED = "change the first line to 95 and remove the third line"


def _mixed_plan(world) -> dict:
    return plan(act("a1", "update_line", "change the first line to 95", case={"id": world.berlin.id}, line=1,
                    amount="95"),
                act("a2", "remove_line", "remove the third line", case={"id": world.berlin.id}, line=3),
                say="I changed the first line to 95.")


def _recover(turn_id: str, how: str) -> Turn:
    if how == "command":
        call_command("recover_turns", stdout=open("/dev/null", "w"))
        return Turn.objects.get(pk=turn_id)
    return turn_recover(Turn.objects.get(pk=turn_id))


@pytest.mark.parametrize("how", ["turn_recover", "command"])
@pytest.mark.parametrize("point", POINTS)
def test_a_crash_in_a_message_turn_is_recovered_without_repeating_an_effect(world, script, crash, point, how):
    text = script(MIXED, reads(("get_case", {"case": world.berlin.id})), _mixed_plan(world))
    conv = conversation(world)
    before = Ledger.now()
    crash(point)

    with pytest.raises(SimulatedCrash):
        say(world, conv, text)

    CRASH_POINTS.clear()
    crashed = Turn.objects.get(conversation=conv)
    assert crashed.status == "running"
    rows = {r.plan_act_id: r for r in CommandJournalEntry.objects.filter(turn=crashed)}
    assert set(rows) == {"a1", "a2"}  # journaled before anything ran (step L)
    assert rows["a2"].status == "awaiting_confirmation"
    assert rows["a1"].status == ("committed" if point == "after_commit" else "pending")
    at_crash = Ledger.now()

    recovered = _recover(crashed.id, how)

    assert recovered.status == "completed" and recovered.phase == "delivered"
    after = Ledger.now()
    assert after.journal == before.journal + 2  # recovery admits nothing new
    assert after.events == before.events + 1  # the edit, exactly once
    assert after.revisions[world.berlin.id] == before.revisions[world.berlin.id] + 1
    if point == "after_commit":
        assert after == at_crash  # recovery only recomposed the reply
    assert DomainEvent.objects.filter(command=rows["a1"]).count() == 1
    assert [ln["amount"] for ln in lines_of(world.berlin.id)][0] == "95.00"
    assert CommandJournalEntry.objects.get(pk=rows["a2"].pk).status == "awaiting_confirmation"
    body = turn_json(recovered)
    assert [b["kind"] for b in body["reply"]["blocks"]].count("receipt") == 1
    assert [b["text"] for b in blocks(body, "say")] == ["I changed the first line to 95."]
    (card,) = body["interactions"]
    assert card["status"] == "pending" and card["case_revision"] == before.revisions[world.berlin.id] + 1
    # a second recovery changes nothing, and the card still confirms exactly once
    _recover(crashed.id, how)
    assert Ledger.now() == after
    interaction_respond(user=world.alice, interaction_id=card["id"], option="confirm")
    assert Ledger.now().events == before.events + 2
    assert len(lines_of(world.berlin.id)) == 2
    assert Conversation.objects.get(pk=conv.pk).turns.filter(status="running").count() == 0


def test_a_card_persisted_before_a_crash_is_announced_by_recovery(world, script, crash, monkeypatch):
    published: list[tuple[str, dict]] = []
    monkeypatch.setattr(stream, "publish_many", lambda conv, events: published.extend(events))
    text = script(MIXED, reads(("get_case", {"case": world.berlin.id})), _mixed_plan(world))
    conv = conversation(world)
    crash("after_interactions_persisted")
    with pytest.raises(SimulatedCrash):
        say(world, conv, text)
    CRASH_POINTS.clear()
    assert "interaction.pending" not in [kind for kind, _ in published]

    turn_recover(Turn.objects.get(conversation=conv))

    kinds = [kind for kind, _ in published]
    assert kinds.count("interaction.pending") == 1
    assert kinds.index("interaction.pending") < kinds.index("turn.completed")


def test_a_message_sent_behind_a_crashed_turn_waits_and_runs_after_recovery(world, script, crash):
    text = script(MIXED, _mixed_plan(world))
    conv = conversation(world, "deterministic")
    crash("after_journal_admission")
    with pytest.raises(SimulatedCrash):
        say(world, conv, text)
    CRASH_POINTS.clear()
    other = script("change the second line to 120", plan(act(
        "a1", "update_line", "change the second line to 120", case={"id": world.berlin.id}, line=2, amount="120")))
    before = Ledger.now()

    waiting = say(world, conv, other)

    assert waiting["status"] == "queued" and Ledger.now().events == before.events  # kept, not refused, not run
    call_command("recover_turns", stdout=open("/dev/null", "w"))
    ran = Turn.objects.get(pk=waiting["id"])
    assert ran.status == "completed" and ran.acts[0].outcome == "executed"


def test_a_crash_after_a_command_committed_but_before_the_turn_recorded_it_keeps_its_receipt(
        world, script, monkeypatch):
    """Between the command's transaction and the turn's trace update: the event exists, so the
    recovered reply must show its receipt and may keep prose that claims it (I16 both ways)."""
    text = script(MIXED, _mixed_plan(world))
    conv = conversation(world, "deterministic")
    real = execution.command_execute

    def commit_then_crash(**kwargs):
        real(**kwargs)
        raise SimulatedCrash("after the command's transaction")

    monkeypatch.setattr(execution, "command_execute", commit_then_crash)
    before = Ledger.now()
    with pytest.raises(SimulatedCrash):
        say(world, conv, text)
    monkeypatch.setattr(execution, "command_execute", real)

    recovered = turn_json(turn_recover(Turn.objects.get(conversation=conv)))

    assert Ledger.now().events == before.events + 1
    assert [e["type"] for e in recovered["events"]] == ["line_updated"]
    assert len(blocks(recovered, "receipt")) == 1
    assert [b["text"] for b in blocks(recovered, "say")] == ["I changed the first line to 95."]
    assert "unbacked_claim_removed" not in [b["code"] for b in blocks(recovered, "notice")]


# =============================================================================== crashes in click turns


def _card(world, script, conv) -> dict:
    text = script("remove the third line and submit the claim", plan(
        act("a1", "remove_line", "remove the third line", case={"id": world.berlin.id}, line=3),
        act("a2", "submit_claim", "submit the claim", case={"id": world.berlin.id})))
    (card,) = say(world, conv, text)["interactions"]
    return card


def test_a_crash_after_a_decline_committed_is_recovered_as_declined_and_runs_nothing(world, script, crash):
    conv = conversation(world, "deterministic")
    card = _card(world, script, conv)
    before = Ledger.now()
    crash("after_commit")

    with pytest.raises(SimulatedCrash):
        interaction_respond(user=world.alice, interaction_id=card["id"], option="decline")

    CRASH_POINTS.clear()
    click = Turn.objects.get(conversation=conv, kind="click")
    assert Interaction.objects.get(pk=card["id"]).status == "declined"
    recovered = turn_recover(click)

    assert recovered.status == "completed" and Ledger.now() == before
    assert {r.status for r in CommandJournalEntry.objects.filter(interaction_id=card["id"])} == {"declined"}
    assert Interaction.objects.get(pk=card["id"]).status == "declined"
    _, again = interaction_respond(user=world.alice, interaction_id=card["id"], option="decline")
    assert again.id == click.id and Ledger.now() == before


@pytest.mark.parametrize("point", ["after_journal_admission", "after_commit"])
def test_a_crash_in_a_confirmation_click_is_recovered_without_repeating_an_effect(world, script, crash, point):
    conv = conversation(world, "deterministic")
    card = _card(world, script, conv)
    before = Ledger.now()
    crash(point)

    with pytest.raises(SimulatedCrash):
        interaction_respond(user=world.alice, interaction_id=card["id"], option="confirm")

    CRASH_POINTS.clear()
    click = Turn.objects.get(conversation=conv, kind="click")
    assert click.status == "running"
    at_crash = Ledger.now()
    assert at_crash.events == before.events + (2 if point == "after_commit" else 0)

    recovered = turn_recover(click)

    assert recovered.status == "completed"
    after = Ledger.now()
    assert after.events == before.events + 2 and after.outbox == before.outbox + 1
    assert after.revisions[world.berlin.id] == before.revisions[world.berlin.id] + 2
    if point == "after_commit":
        assert after == at_crash
    rows = CommandJournalEntry.objects.filter(interaction_id=card["id"])
    assert {(r.status, r.origin_kind) for r in rows} == {("committed", "confirmed_interaction")}
    assert Interaction.objects.get(pk=card["id"]).status == "resolved"
    assert len(blocks(turn_json(recovered), "receipt")) == 2
    # answering again returns the recovered outcome and runs nothing
    _, again = interaction_respond(user=world.alice, interaction_id=card["id"], option="confirm")
    assert again.id == click.id and Ledger.now() == after
    turn_recover(recovered)
    assert Ledger.now() == after


def test_a_click_while_another_turn_of_the_conversation_runs_leaves_the_card_answerable(world, script, crash):
    conv = conversation(world, "deterministic")
    card = _card(world, script, conv)
    text = script("change the first line to 95", plan(act(
        "a1", "update_line", "change the first line to 95", case={"id": world.lisbon.id}, line=1, amount="95")))
    crash("after_journal_admission")
    with pytest.raises(SimulatedCrash):
        say(world, conv, text)  # a turn of this conversation is still running
    CRASH_POINTS.clear()
    before = Ledger.now()

    with pytest.raises(Conflict) as refused:
        interaction_respond(user=world.alice, interaction_id=card["id"], option="confirm")

    assert refused.value.code == "turn_in_progress"
    assert Ledger.now() == before
    assert Interaction.objects.get(pk=card["id"]).status == "pending"  # not stuck half-answered
    call_command("recover_turns", stdout=open("/dev/null", "w"))
    interaction, turn = interaction_respond(user=world.alice, interaction_id=card["id"], option="confirm")
    assert interaction.status == "resolved" and turn.status == "completed"
    assert DomainEvent.objects.filter(type__in=["line_removed", "claim_submitted"]).count() == 2


# =============================================================================== after commit: the reply only


def test_a_reply_failure_after_commit_is_recomposed_by_recovery_and_nothing_reruns(world, script, monkeypatch):
    """Scenario 13 under chaos: the prose step keeps failing after commit; the turn stays running,
    and ``recover_turns`` composes the reply from the events without executing anything again."""
    text = script("change the first line to 95", plan(act(
        "a1", "update_line", "change the first line to 95", case={"id": world.berlin.id}, line=1, amount="95"),
        say="Updated the first line."))
    conv = conversation(world, "deterministic")
    real = delivery.compose_reply

    def failing(**kwargs):
        raise ProviderFailure("unavailable", "narration down")

    monkeypatch.setattr(delivery, "compose_reply", failing)
    before = Ledger.now()
    turn = say(world, conv, text)
    assert turn["status"] == "running" and turn["phase"] == "committed"
    assert Ledger.now().events == before.events + 1
    committed = Ledger.now()
    monkeypatch.setattr(delivery, "compose_reply", real)

    call_command("recover_turns", stdout=open("/dev/null", "w"))

    recovered = turn_json(Turn.objects.get(pk=turn["id"]))
    assert recovered["status"] == "completed" and Ledger.now() == committed
    assert len(blocks(recovered, "receipt")) == 1 and blocks(recovered, "say")[0]["text"] == "Updated the first line."


def test_a_click_that_crashed_before_it_ran_anything_can_be_answered_again(world, script, monkeypatch):
    conv = conversation(world, "deterministic")
    card = _card(world, script, conv)

    def crash_at_once(*args, **kwargs):
        raise SimulatedCrash("before the click ran anything")

    monkeypatch.setattr(clicks, "click_turn_run", crash_at_once)
    with pytest.raises(SimulatedCrash):
        interaction_respond(user=world.alice, interaction_id=card["id"], option="confirm")
    monkeypatch.undo()
    before = Ledger.now()

    call_command("recover_turns", stdout=open("/dev/null", "w"))

    failed = Turn.objects.get(conversation=conv, kind="click")
    assert failed.status == "failed" and Ledger.now() == before
    assert Interaction.objects.get(pk=card["id"]).status == "pending"
    interaction, turn = interaction_respond(user=world.alice, interaction_id=card["id"], option="confirm")
    assert turn.id != failed.id and turn.status == "completed" and interaction.status == "resolved"
    assert Ledger.now().events == before.events + 2


@pytest.mark.parametrize("fail_at", range(READ_ROUNDS), ids=lambda n: f"call_{n + 1}")
def test_a_fallback_after_a_failure_at_any_read_round_applies_the_effect_exactly_once(world, script, fail_at):
    lookups = [reads(("get_case", {"case": world.berlin.id}))] * fail_at
    edit = plan(act("a1", "update_line", "change the second line to 120", case={"id": world.berlin.id},
                    line=2, amount="120"))
    script.with_fallback()
    text = script("change the second line to 120", *lookups, {"fail": "unavailable"}, {"fail": "unavailable"}, edit,
                  fallback=[*lookups, edit])
    before = Ledger.now()

    turn = say(world, conversation(world), text)

    assert turn["status"] == "completed" and turn["acts"][0]["outcome"] == "executed"
    assert Ledger.now().events == before.events + 1 and Ledger.now().journal == before.journal + 1
    assert [r["provider"] for r in turn["read_rounds"]] == ["scripted"] * fail_at + ["scripted:fallback"] * fail_at
    assert lines_of(world.berlin.id)[1]["amount"] == "120.00"


@pytest.mark.parametrize("point", POINTS)
def test_a_crash_while_a_selection_resumes_its_acts_is_recovered_without_repeating_an_effect(
        world, script, crash, point):
    conv = conversation(world, "deterministic")
    text = script("change the second line to 120 and remove the third line", plan(
        act("a1", "update_line", "change the second line to 120", line=2, amount="120"),
        act("a2", "remove_line", "remove the third line", line=3)))
    (selection,) = say(world, conv, text)["interactions"]
    before = Ledger.now()
    crash(point)

    with pytest.raises(SimulatedCrash):
        interaction_respond(user=world.alice, interaction_id=selection["id"], option=world.lisbon.id)

    CRASH_POINTS.clear()
    click = Turn.objects.get(conversation=conv, kind="click")
    recovered = turn_json(turn_recover(click))

    assert recovered["status"] == "completed"
    assert {a["id"]: a["outcome"] for a in recovered["acts"]} == {"a1": "executed", "a2": "awaiting_confirmation"}
    after = Ledger.now()
    assert after.events == before.events + 1
    assert after.revisions[world.lisbon.id] == before.revisions[world.lisbon.id] + 1
    assert after.revisions[world.berlin.id] == before.revisions[world.berlin.id]
    (card,) = recovered["interactions"]
    assert card["case"] == world.lisbon.id and card["status"] == "pending"
    turn_recover(Turn.objects.get(pk=click.pk))
    assert Ledger.now() == after
    interaction_respond(user=world.alice, interaction_id=card["id"], option="confirm")
    assert [ln["amount"] for ln in lines_of(world.lisbon.id)] == ["245.00", "120.00"]


@pytest.mark.parametrize("breaks_on_call", [1, 2], ids=["in_the_reducers_preview", "at_commit"])
def test_a_handler_that_breaks_fails_its_command_closed_and_the_conversation_goes_on(world, script, breaks_on_call):
    """A bug in an act's handler (any exception) never crashes the turn: met while the reducer previews
    the command, the act is refused; met at commit, the transaction rolls back and the row settles as
    failed. Either way the turn completes with a notice instead of staying running (blocking its
    conversation) through every recovery."""
    import dataclasses

    from registries import get_registry
    from tests.support import override

    real = get_registry().acts["add_line"]
    calls = {"n": 0}

    def breaks(case, args, ctx):
        calls["n"] += 1
        if calls["n"] == breaks_on_call:
            raise KeyError("a bug in the handler")
        return real.handler(case, args, ctx)

    conv = conversation(world, "deterministic")
    text = script("add a taxi of 20", plan(act("a1", "add_line", "add a taxi of 20", case={"id": world.berlin.id},
                                               amount="20", category="taxi"), say="I added the taxi."))
    before = Ledger.now()

    with override(acts=[dataclasses.replace(real, handler=breaks)]):
        turn = say(world, conv, text)

    assert turn["status"] == "completed"
    assert (turn["acts"][0]["outcome"], turn["acts"][0]["code"]) == ("refused", "handler_failed")
    rows = list(CommandJournalEntry.objects.filter(turn_id=turn["id"]))
    assert [(r.status, r.result.get("code")) for r in rows] == ([] if breaks_on_call == 1
                                                               else [("failed", "handler_failed")])
    assert Ledger.now().events == before.events and Ledger.now().revisions == before.revisions
    assert not blocks(turn, "say") and "handler_failed" in [b["code"] for b in blocks(turn, "notice")]
    follow = script("change the first line to 95", plan(act(
        "a1", "update_line", "change the first line to 95", case={"id": world.berlin.id}, line=1, amount="95")))
    assert say(world, conv, follow)["acts"][0]["outcome"] == "executed"


# =============================================================================== a click's claim and its turn (issue 9)


def test_a_crash_between_claiming_a_card_and_opening_its_turn_leaves_the_card_answerable(world, script, crash):
    """The card's claim and the click's turn commit together: a process killed between them leaves the card
    ``pending`` (no turn, nothing run), and the next click confirms it exactly once."""
    conv = conversation(world, "deterministic")
    card = _card(world, script, conv)
    before = Ledger.now()
    crash("after_card_claimed")

    with pytest.raises(SimulatedCrash):
        interaction_respond(user=world.alice, interaction_id=card["id"], option="confirm")

    CRASH_POINTS.clear()
    stuck = Interaction.objects.get(pk=card["id"])
    assert stuck.status == "pending" and stuck.chosen_option == "" and stuck.result_turn_id is None
    assert not Turn.objects.filter(conversation=conv, kind="click").exists() and Ledger.now() == before

    answered, click = interaction_respond(user=world.alice, interaction_id=card["id"], option="confirm")

    assert answered.status == "resolved" and click.status == "completed"
    assert Ledger.now().events == before.events + 2


def test_recovery_settles_a_card_left_answering_with_no_turn(world, script):
    """Data written before the fix: a card ``resolving`` with no turn is answerable again after
    ``recover_turns``, and a new edit of its claim no longer meets a locked card."""
    conv = conversation(world, "deterministic")
    card = _card(world, script, conv)
    Interaction.objects.filter(pk=card["id"]).update(status="resolving", chosen_option="confirm",
                                                     answered_by=world.alice)
    before = Ledger.now()
    out = io.StringIO()

    call_command("recover_turns", stdout=out)

    assert "settled 1 card(s)" in out.getvalue()
    assert Interaction.objects.get(pk=card["id"]).status == "pending" and Ledger.now() == before
    answered, _ = interaction_respond(user=world.alice, interaction_id=card["id"], option="confirm")
    assert answered.status == "resolved" and Ledger.now().events == before.events + 2


def test_recovery_settles_a_card_whose_click_ran_as_resolved(world, script):
    conv = conversation(world, "deterministic")
    card = _card(world, script, conv)
    interaction_respond(user=world.alice, interaction_id=card["id"], option="confirm")
    Interaction.objects.filter(pk=card["id"]).update(status="resolving")  # as if the last update was lost
    after = Ledger.now()

    assert turns.cards_settle_orphaned() == [card["id"]]

    assert Interaction.objects.get(pk=card["id"]).status == "resolved" and Ledger.now() == after


def test_a_confirmation_that_loses_a_race_with_an_edit_is_stale_and_changes_nothing(world, script, monkeypatch):
    """An edit of the same claim from another conversation lands between the card's check and its commands:
    the commands meet a newer revision, so the card goes stale (409 interaction_stale), never 'resolved'."""
    conv = conversation(world, "deterministic")
    card = _card(world, script, conv)
    other = conversation(world, "deterministic")
    edit = script("change the first line to 95", plan(act("a1", "update_line", "change the first line to 95",
                                                          case={"id": world.berlin.id}, line=1, amount="95")))
    real = clicks.commands_execute_ready

    def edit_first(turn, actor, today, rows, **how):
        if turn.kind == "click":
            say(world, other, edit)  # committed before the card's commands run
        return real(turn, actor, today, rows, **how)

    monkeypatch.setattr(clicks, "commands_execute_ready", edit_first)
    before = Ledger.now()

    with pytest.raises(Conflict) as refused:
        interaction_respond(user=world.alice, interaction_id=card["id"], option="confirm")

    assert refused.value.code == "interaction_stale"
    stale = Interaction.objects.get(pk=card["id"])
    assert stale.status == "stale"
    assert Ledger.now().events == before.events + 1  # only the other conversation's edit
    assert {r.status for r in CommandJournalEntry.objects.filter(interaction_id=card["id"])} == {"conflict"}
    click = Turn.objects.get(conversation=conv, kind="click")
    assert [n.code for n in click.notices] == ["interaction_stale"]
    assert "nothing was changed" in click.notices[0].text


def test_a_crash_before_a_selection_resumes_its_acts_leaves_the_card_answerable(world, script, monkeypatch):
    """The card is settled with the acts it resumes (found by review: it was resolved first, and a crash
    in between lost the held acts)."""
    conv = conversation(world, "deterministic")
    text = script("change the second line to 120", plan(
        act("a1", "update_line", "change the second line to 120", line=2, amount="120")))
    (selection,) = say(world, conv, text)["interactions"]

    def crash_while_journaling(*args, **kwargs):
        raise SimulatedCrash("cards_persist")

    monkeypatch.setattr(execution, "cards_persist", crash_while_journaling)  # inside L, before its commit
    with pytest.raises(SimulatedCrash):
        interaction_respond(user=world.alice, interaction_id=selection["id"], option=world.lisbon.id)
    monkeypatch.undo()
    turn_recover(Turn.objects.get(conversation=conv, kind="click"))

    assert Interaction.objects.get(pk=selection["id"]).status == "pending"
    _, click = interaction_respond(user=world.alice, interaction_id=selection["id"], option=world.lisbon.id)
    assert [(a.act, a.outcome) for a in click.acts] == [("update_line", "executed")]
    assert lines_of(world.lisbon.id)[1]["amount"] == "120.00"


# A card that names one command is confirmed, run, settled and recorded in one transaction (issue 11): a crash
# anywhere before its commit leaves nothing of it, and the card answerable again once recovered.

@pytest.mark.parametrize("point", ["after_journal_admission", "inside_the_transaction", "after_commit"])
def test_a_crash_in_a_one_command_confirmation_leaves_all_of_it_or_none(world, script, crash, monkeypatch, point):
    conv = conversation(world, "deterministic")
    (card,) = say(world, conv, script("submit the claim", plan(
        act("a1", "submit_claim", "submit the claim", case={"id": world.berlin.id}))))["interactions"]
    assert len(card["commands"]) == 1
    before = Ledger.now()
    if point == "inside_the_transaction":  # the card's settlement, after the command's writes, fails
        def broken(interaction, status):
            raise SimulatedCrash("the card's settlement")
        monkeypatch.setattr(clicks, "card_finish", broken)
    else:
        crash(point)

    with pytest.raises(SimulatedCrash):
        interaction_respond(user=world.alice, interaction_id=card["id"], option="confirm")

    CRASH_POINTS.clear()
    monkeypatch.undo()
    click = Turn.objects.get(conversation=conv, kind="click")
    committed = point == "after_commit"
    assert Ledger.now().events == before.events + (1 if committed else 0)
    row = CommandJournalEntry.objects.get(interaction_id=card["id"])
    assert (row.status, row.origin_kind) == (("committed", "confirmed_interaction") if committed
                                             else ("awaiting_confirmation", "none"))
    assert Turn.objects.get(pk=click.pk).phase == ("committed" if committed else "received")

    recovered = turn_recover(click)

    if committed:
        assert recovered.status == "completed" and Interaction.objects.get(pk=card["id"]).status == "resolved"
        assert len(blocks(turn_json(recovered), "receipt")) == 1
    else:  # nothing ran: the click failed, the card can be answered again, and then it runs once
        assert recovered.status == "failed" and Ledger.now() == before
        assert Interaction.objects.get(pk=card["id"]).status == "pending"
        interaction, again = interaction_respond(user=world.alice, interaction_id=card["id"], option="confirm")
        assert interaction.status == "resolved" and again.status == "completed"
    after = Ledger.now()
    assert after.events == before.events + 1 and after.outbox == before.outbox + 1
    assert after.revisions[world.berlin.id] == before.revisions[world.berlin.id] + 1


def test_a_one_command_card_that_meets_a_newer_revision_keeps_its_confirmed_origin(world, script, monkeypatch):
    conv = conversation(world, "deterministic")
    (card,) = say(world, conv, script("submit the claim", plan(
        act("a1", "submit_claim", "submit the claim", case={"id": world.berlin.id}))))["interactions"]
    real_claim = clicks.card_claim

    def edited_meanwhile(*args, **kwargs):  # someone's edit lands after the card was checked, before it runs
        claimed = real_claim(*args, **kwargs)
        Case.objects.filter(pk=world.berlin.id).update(revision=F("revision") + 1)
        return claimed

    monkeypatch.setattr(clicks, "card_claim", edited_meanwhile)
    before = Ledger.now()
    with pytest.raises(Conflict):
        interaction_respond(user=world.alice, interaction_id=card["id"], option="confirm")

    row = CommandJournalEntry.objects.get(interaction_id=card["id"])
    assert (row.status, row.origin_kind, row.origin["interaction"]) == ("conflict", "confirmed_interaction", card["id"])
    assert Ledger.now().events == before.events and Interaction.objects.get(pk=card["id"]).status == "stale"


def test_a_click_that_fails_still_streams_its_start_before_its_failure(world, script, monkeypatch):
    conv = conversation(world, "deterministic")
    card = _card(world, script, conv)
    sent = []
    monkeypatch.setattr(stream, "send", lambda conversation_id, events, last: sent.extend(k for k, _ in events))

    def broken(click, action):
        raise RuntimeError("a bug in the click")

    monkeypatch.setitem(clicks.click_turn_run.__globals__, "_confirm", broken)
    interaction_respond(user=world.alice, interaction_id=card["id"], option="confirm")

    assert sent[:1] == ["turn.started"] and "turn.failed" in sent
    assert Interaction.objects.get(pk=card["id"]).status == "pending"  # answerable again, nothing ran
