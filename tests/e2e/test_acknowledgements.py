"""Issue 12 (5): a take-back, a hold, a correction and an undo are each said back in the reply in
plain words, shown as acknowledgements ("Noted"), not as warnings."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import shot
from .test_chat_page import act, new_conversation, open_claim_with_two_lines, send, sign_in, wait_turn_done

pytestmark = pytest.mark.browser


def noted(turn):
    return turn.locator("[data-block-kind='notice'].block-ack")


def test_a_hold_a_correction_an_undo_and_a_take_back_are_said_back_in_plain_words(page, server):
    sign_in(page, "bob")
    new_conversation(page)
    open_claim_with_two_lines(page, server, "Ack trip", "20", "100")

    hold = "submit the Ack trip, but don't submit anything yet"
    server.script(hold, {"plan": {"acts": [act("a1", "submit_claim", "submit the Ack trip", {"active": True})],
                                  "constraints": [{"kind": "hold", "acts": ["submit_claim"],
                                                   "evidence": "don't submit anything yet"}]}})
    send(page, hold)
    turn = wait_turn_done(page, hold)
    expect(noted(turn)).to_contain_text("I will not submit “Ack trip”")
    expect(noted(turn)).to_contain_text("until you say so")
    expect(noted(turn).locator(".block-label")).to_have_text("Noted")
    expect(turn.locator("[data-interaction]")).to_have_count(0)
    shot(page, "acknowledgement-hold")

    correction = "set line 2 to 110 — no, 120"
    server.script(correction, {"plan": {
        "acts": [act("a1", "update_line", "set line 2 to 110", {"active": True}, line=2, amount="110")],
        "corrections": [{"act": "a1", "args": {"amount": "120"}, "evidence": "no, 120"}]}})
    send(page, correction)
    turn = wait_turn_done(page, correction)
    expect(noted(turn)).to_have_text("NotedCorrected as you said (“no, 120”): the amount is 120.00, not 110.",
                                     use_inner_text=False)
    expect(turn.locator("[data-block-kind='receipt']")).to_contain_text("100.00 → 120.00 EUR")

    undo = "undo that"
    server.script(undo, {"plan": {"acts": [], "undo": {"evidence": "undo that"}}})
    send(page, undo)
    turn = wait_turn_done(page, undo)
    expect(noted(turn)).to_contain_text("Undone as you asked (“undo that”): I reversed your last change")
    expect(page.locator("[data-case-panel] [data-case-total]")).to_have_text("120.00 EUR")

    take_back = "add a taxi of 15 to it, actually no, leave it"
    server.script(take_back, {"plan": {
        "acts": [act("a1", "add_line", "add a taxi of 15", {"active": True}, amount="15", category="taxi")],
        "retractions": [{"act": "a1", "evidence": "actually no, leave it"}]}})
    send(page, take_back)
    turn = wait_turn_done(page, take_back)
    expect(noted(turn)).to_contain_text("Not done, as you said (“actually no, leave it”)")
    expect(page.locator("[data-case-panel] [data-case-item]")).to_have_count(2)
    shot(page, "acknowledgements", full_page=True)
