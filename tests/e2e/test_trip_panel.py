"""The second domain on the chat page: a trip's case panel is drawn from the kind's generic panel (travellers,
segments, no total), by the same page code that draws an expense claim, and a rebooking waits for its card."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import shot
from .test_chat_page import act, case_id, new_conversation, plan, send, sign_in, wait_turn_done

pytestmark = pytest.mark.browser


def test_a_trip_shows_its_travellers_and_segments_and_a_rebooking_is_confirmed_on_a_card(page, server):
    sign_in(page)
    new_conversation(page)
    trip = case_id(page, "Lisbon offsite")
    text = server.script("move the return flight of the Lisbon offsite to the 7th",
                         {"reads": [{"tool": "get_trip", "args": {"trip": trip}}]},
                         plan(act("a1", "rebook_segment", "move the return flight of the Lisbon offsite to the 7th", {"id": trip},
                                  segment=2, date="2026-12-07")))
    send(page, text)
    turn = wait_turn_done(page, text)

    panel = page.get_by_role("complementary", name="Active trip")
    expect(panel.locator("[data-case-title]")).to_have_text("Lisbon offsite")
    expect(panel.locator("[data-case-status]")).to_have_text("booked")
    expect(panel.locator("[data-case-field='Travellers']")).to_have_text("Alice Martin")
    expect(panel.locator("[data-case-item]")).to_have_count(2)
    expect(panel.locator("[data-case-item='2']")).to_contain_text("Lisbon → Frankfurt")
    expect(panel.locator("[data-case-item='2']")).to_contain_text("LH1173 · 2026-12-06")
    expect(panel.get_by_role("columnheader", name="Segment")).to_be_visible()
    expect(panel.locator("[data-case-total]")).to_have_count(0)  # a trip has no total
    card = turn.locator("[data-interaction]")
    expect(card).to_have_attribute("data-status", "pending")
    expect(card.locator(".card-prompt")).to_contain_text("Rebook segment 2")
    shot(page, "trip-panel-card")

    card.locator("[data-option='confirm']").click()
    expect(panel.locator("[data-case-item='2']")).to_contain_text("LH1173 · 2026-12-07")
    expect(page.locator("[data-case-panel]")).to_have_attribute("data-case-kind", "trip")
    shot(page, "trip-panel")
