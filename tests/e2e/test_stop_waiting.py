"""Issue 12 (2): while a slow model works, the person sees it working and can stop waiting; a stopped
turn ends before anything changes and says so."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import shot
from .test_chat_page import act, new_conversation, plan, send, sign_in, wait_turn_done

pytestmark = pytest.mark.browser


def test_stopping_a_slow_turn_ends_it_before_anything_changes(page, server):
    sign_in(page, "bob")
    new_conversation(page)
    slow = server.script("open a claim called Never opened, slowly", {"delay_s": 3, **plan(
        act("a1", "open_claim", "open a claim called Never opened", title="Never opened"))})
    send(page, slow)
    turn = page.locator("[data-turn]", has=page.get_by_text(slow, exact=True)).last
    expect(turn).to_have_attribute("data-turn-status", "running")
    expect(turn.get_by_text("Working…")).to_be_visible()
    stop = turn.get_by_role("button", name="Stop waiting")
    expect(stop).to_be_visible()
    shot(page, "stop-waiting-running")
    stop.click()
    expect(turn.get_by_role("status")).to_have_text("Stopping: nothing will be changed.")
    expect(page.get_by_role("textbox", name="Message")).to_be_focused()

    done = wait_turn_done(page, slow)
    expect(done.locator("[data-code='stopped']")).to_contain_text("Stopped as you asked")
    expect(done.locator("[data-block-kind='receipt']")).to_have_count(0)
    shot(page, "stop-waiting-stopped")
    titles = [c["title"] for c in page.request.get("/api/cases").json()]
    assert "Never opened" not in titles

    # the conversation goes on as usual
    quick = server.script("open a claim called Opened after all",
                          plan(act("a1", "open_claim", "open a claim called Opened after all", title="Opened after all")))
    send(page, quick)
    expect(wait_turn_done(page, quick).locator("[data-block-kind='receipt']")).to_contain_text("Opened after all")
