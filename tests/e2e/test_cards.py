"""Issue 12 (4): cards as a person uses them. A selection card offers only the claims the act can apply
to, each with its status and total; an out-of-date card offers "Ask again"; after a click the focus is
back in the composer. Issue 20 (5, 10): an amount changed in the card before confirming; an expired card
says nothing was changed and offers "Ask again"."""

from __future__ import annotations

import re
import sqlite3

import pytest
from playwright.sync_api import expect

from .conftest import shot
from .test_chat_page import act, new_conversation, open_claim_with_two_lines, plan, send, sign_in, wait_turn_done

pytestmark = pytest.mark.browser


def open_claim_with_a_line(page, server, title: str, amount: str) -> None:
    text = server.script(f"open a claim called {title} with a taxi of {amount}", plan(
        act("a1", "open_claim", f"open a claim called {title}", title=title, currency="EUR"),
        act("a2", "add_line", f"a taxi of {amount}", {"active": True}, amount=amount, category="taxi")))
    send(page, text)
    wait_turn_done(page, text)


def test_a_selection_card_offers_only_claims_the_act_can_apply_to_with_status_and_total(page, server):
    sign_in(page, "bob")
    new_conversation(page)
    open_claim_with_a_line(page, server, "Selcard Oslo", "12")
    open_claim_with_a_line(page, server, "Selcard Rome", "30")
    open_claim_with_a_line(page, server, "Selcard Paris", "45")
    submit = server.script("submit Selcard Paris", plan(act("a1", "submit_claim", "submit Selcard Paris",
                                                            {"match": "Selcard Paris"})))
    send(page, submit)
    wait_turn_done(page, submit).get_by_role("button", name="Confirm").click()
    expect(page.locator("[data-case-panel] [data-case-status]")).to_have_text("submitted")

    new_conversation(page)  # no active claim: "my Selcard claim" is one of three
    add = server.script("add a hotel of 80 to my Selcard claim", plan(
        act("a1", "add_line", "add a hotel of 80", {"match": "Selcard"}, amount="80", category="hotel")))
    send(page, add)
    card = page.get_by_role("region", name="Which one?")
    expect(card).to_have_attribute("data-status", "pending")
    options = card.get_by_role("button")
    expect(options).to_have_count(3)  # Oslo, Rome, and "None of these"; not the submitted Paris claim
    expect(card).not_to_contain_text("Selcard Paris")
    oslo = card.get_by_role("button", name=re.compile("Selcard Oslo"))
    expect(oslo).to_contain_text("draft · 12.00 EUR")
    expect(card.get_by_role("button", name=re.compile("Selcard Rome"))).to_contain_text("draft · 30.00 EUR")
    expect(card.get_by_role("button", name="None of these")).to_be_visible()
    shot(page, "card-selection")

    oslo.click()
    expect(page.get_by_role("textbox", name="Message")).to_be_focused()  # the next useful place
    expect(card).to_have_attribute("data-status", "resolved")
    expect(page.locator("[data-case-panel] [data-case-title]")).to_have_text("Selcard Oslo")
    expect(page.locator("[data-case-panel] [data-case-total]")).to_have_text("92.00 EUR")


def test_an_out_of_date_card_offers_to_ask_again_with_the_same_words(page, server):
    sign_in(page, "bob")
    new_conversation(page)
    open_claim_with_two_lines(page, server, "Ask again trip", "30", "90")
    removal = server.script("please remove line 1 of Ask again trip",
                            plan(act("a1", "remove_line", "remove line 1", {"active": True}, line=1)))
    send(page, removal)
    card = wait_turn_done(page, removal).get_by_role("region", name="Confirmation needed")
    edit = server.script("change line 2 of Ask again trip to 95",
                         plan(act("a1", "update_line", "change line 2 of Ask again trip to 95", {"active": True},
                                  line=2, amount="95")))
    send(page, edit)
    wait_turn_done(page, edit)
    expect(card).to_have_attribute("data-status", "stale")
    expect(card.get_by_role("button", name="Confirm")).to_be_disabled()
    again = card.get_by_role("button", name="Ask again")
    expect(again).to_be_enabled()
    shot(page, "card-stale-ask-again")

    again.click()
    expect(page.get_by_role("textbox", name="Message")).to_be_focused()
    asked = page.locator("[data-turn][data-turn-kind='message']", has=page.get_by_text(removal, exact=True))
    expect(asked).to_have_count(2)  # the same words, sent again as a new message
    fresh = wait_turn_done(page, removal).get_by_role("region", name="Confirmation needed")
    expect(fresh).to_have_attribute("data-status", "pending")
    expect(fresh).to_contain_text("Remove line 1")
    fresh.get_by_role("button", name="Confirm").click()
    expect(page.get_by_role("textbox", name="Message")).to_be_focused()
    expect(fresh).to_have_attribute("data-status", "resolved")
    expect(page.locator("[data-case-panel] [data-case-item]")).to_have_count(1)
    expect(page.locator("[data-case-panel] [data-case-total]")).to_have_text("95.00 EUR")
    shot(page, "card-asked-again")


def test_an_amount_changed_in_the_card_is_what_runs_and_an_expired_card_offers_to_ask_again(page, server):
    sign_in(page, "bob")
    new_conversation(page)
    open_claim_with_a_line(page, server, "Edit card trip", "12")
    big = server.script("add a hotel of 1500 to Edit card trip", plan(
        act("a1", "add_line", "a hotel of 1500", {"active": True}, amount="1500", category="hotel")))
    send(page, big)
    card = wait_turn_done(page, big).get_by_role("region", name="Confirmation needed")
    expect(card).to_have_attribute("data-status", "pending")
    amount = card.get_by_role("textbox", name="Amount")
    expect(amount).to_have_value("1500.00")
    amount.fill("95")
    shot(page, "card-edit-amount")

    card.get_by_role("button", name="Confirm").click()
    expect(card).to_have_attribute("data-status", "resolved")
    expect(page.locator("[data-case-panel] [data-case-total]")).to_have_text("107.00 EUR")
    expect(page.get_by_text("You changed amount from 1500.00 to 95.00 before confirming.")).to_be_visible()
    expect(card.get_by_role("textbox", name="Amount")).to_have_count(0)  # a closed card has nothing to edit
    shot(page, "card-edit-confirmed")

    submit = server.script("submit Edit card trip", plan(act("a1", "submit_claim", "submit Edit card trip",
                                                             {"active": True})))
    send(page, submit)
    card = wait_turn_done(page, submit).get_by_role("region", name="Confirmation needed")
    expect(card).to_have_attribute("data-status", "pending")
    expect(card.get_by_role("textbox")).to_have_count(0)  # nothing of a submission is editable
    card_id = card.get_attribute("data-interaction")
    with sqlite3.connect(server.db, timeout=10) as db:  # a day and more goes by (TURNFRAME_CARD_TTL_MINUTES)
        db.execute("UPDATE conversations_interaction SET created_at = '2000-01-01 00:00:00' WHERE id = ?", (card_id,))

    card.get_by_role("button", name="Confirm").click()
    expect(card).to_have_attribute("data-status", "expired")
    expect(card).to_contain_text("This card expired, so nothing was changed.")
    # the browser logs the expected answer (409 interaction_expired) as a failed load; nothing else may fail
    for _ in range(50):  # the console message may come a moment after the card shows it
        expected = [p for p in page.problems if "status of 409" in p]
        if expected:
            break
        page.wait_for_timeout(100)
    assert len(expected) == 1, page.problems
    page.problems.remove(expected[0])
    expect(page.locator("[data-case-panel] [data-case-status]")).to_have_text("draft")
    again = card.get_by_role("button", name="Ask again")
    expect(again).to_be_enabled()
    shot(page, "card-expired-ask-again")

    again.click()
    asked = page.locator("[data-turn][data-turn-kind='message']", has=page.get_by_text(submit, exact=True))
    expect(asked).to_have_count(2)
    fresh = wait_turn_done(page, submit).get_by_role("region", name="Confirmation needed")
    expect(fresh).to_have_attribute("data-status", "pending")
