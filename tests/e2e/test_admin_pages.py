"""Issue 12 (7): the admin as staff meet it: the header names the product, every list fits a 1366 px
screen, turns are filterable by "had read rounds" and by outcome, and objects are named, not numbered."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import PASSWORD, shot
from .test_chat_page import (
    act,
    new_conversation,
    open_claim_with_two_lines,
    plan,
    send,
    sign_in,
    wait_turn_done,
)

pytestmark = pytest.mark.browser

LISTS = ["conversations/case", "conversations/conversation", "conversations/turn", "conversations/interaction",
         "conversations/commandjournalentry", "conversations/domainevent", "conversations/outboxentry",
         "conversations/apitoken", "registries/readtoolentry", "registries/actentry", "registries/registryentry",
         "auth/user"]


def admin_sign_in(page) -> None:
    page.goto("/admin/login/?next=/admin/")
    page.get_by_label("Username").fill("admin")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/admin/$"))


def overflow(page) -> dict:
    return page.evaluate("""() => {
        const results = document.querySelector('.results');
        const table = document.querySelector('#result_list');
        return {page: document.documentElement.scrollWidth, viewport: window.innerWidth,
                table: table ? table.scrollWidth : 0, box: results ? results.clientWidth : 0};
    }""")


def test_the_admin_names_the_product_and_every_list_fits_1366_px(browser, server):
    context = browser.new_context(base_url=server.base, viewport={"width": 1366, "height": 768})
    page = context.new_page()
    try:
        # a turn with a read round, so the lists have rows
        sign_in(page, "alice")
        page.goto("/")
        text = server.script("admin check: what is the taxi policy",
                             {"reads": [{"tool": "lookup_policy", "args": {"query": "taxi"}}]},
                             plan(answers=[{"question": "taxi", "text": "Taxis are fine at night."}]))
        box = page.get_by_role("textbox", name="Message")
        box.fill(text)
        box.press("Enter")
        wait_turn_done(page, text)
        # and a claim with a confirmed removal and a submission: cards, commands, events and an outbox row
        new_conversation(page)
        open_claim_with_two_lines(page, server, "Admin width trip", "30", "90")
        for words, plan_act in (("remove line 1 of Admin width trip", act("a1", "remove_line", "remove line 1",
                                                                          {"active": True}, line=1)),
                                ("submit Admin width trip", act("a1", "submit_claim", "submit Admin width trip",
                                                                {"active": True}))):
            send(page, server.script(words, plan(plan_act)))
            wait_turn_done(page, words).get_by_role("button", name="Confirm").click()
            expect(page.locator("[data-turn][data-turn-kind='click']").last).to_have_attribute(
                "data-turn-status", "completed")
        context.clear_cookies()
        # the chat page notices it was signed out and navigates on its own: sign in to the admin on a page of its own,
        # so that navigation cannot abort ours
        page.close()
        page = context.new_page()

        admin_sign_in(page)
        expect(page.get_by_role("banner").get_by_role("link", name="Turnframe web admin")).to_be_visible()
        expect(page).to_have_title(re.compile("Turnframe web admin"))
        shot(page, "admin-index")
        too_wide = {}
        for path in LISTS:
            page.goto(f"/admin/{path}/")
            expect(page.locator("#changelist")).to_be_visible()
            where = overflow(page)
            if where["page"] > where["viewport"] or where["table"] > where["box"] + 1:
                too_wide[path] = where
        assert not too_wide, "\n".join(f"{k}: {v}" for k, v in too_wide.items())

        page.goto("/admin/conversations/turn/")
        filters = page.locator("#changelist-filter")
        expect(filters).to_contain_text("By had read rounds")
        expect(filters).to_contain_text("By outcome of an act")
        filters.get_by_role("link", name="yes").first.click()
        expect(page).to_have_url(re.compile(r"read_rounds=yes"))
        expect(page.locator("#result_list")).to_contain_text("admin check: what is the taxi policy")
        expect(page.locator("#result_list")).not_to_contain_text("remove line 1 of Admin width trip")
        shot(page, "admin-turns-had-read-rounds")
        page.goto("/admin/conversations/turn/?read_rounds=no")
        expect(page.locator("#result_list")).to_contain_text("remove line 1 of Admin width trip")
        expect(page.locator("#result_list")).not_to_contain_text("admin check: what is the taxi policy")
        page.goto("/admin/conversations/turn/?outcome=awaiting_confirmation")
        expect(page.locator("#result_list")).to_contain_text("submit Admin width trip")
        expect(page.locator("#result_list")).not_to_contain_text("admin check")
        page.goto("/admin/conversations/turn/?outcome=none")
        expect(page.locator("#result_list")).to_contain_text("admin check")
        expect(page.locator("#result_list")).not_to_contain_text("submit Admin width trip")

        page.goto("/admin/conversations/turn/?read_rounds=yes")
        page.locator("#result_list tbody tr th a").first.click()
        expect(page.locator("body")).not_to_contain_text("object (")
        expect(page.locator("body")).to_contain_text("lookup round 1 of")
        expect(page.locator("body")).to_contain_text("No act was proposed in this turn.")
        shot(page, "admin-turn-why-read", full_page=True)
        # the turn page of a card confirmed later: its acts, the command the click ran and by whose authority
        page.goto("/admin/conversations/turn/?outcome=awaiting_confirmation&q=submit")
        page.locator("#result_list tbody tr th a").first.click()
        why = page.locator("fieldset", has_text="Why did this run")
        expect(why.locator("table").first).to_contain_text("submit Admin width trip")
        expect(why).to_contain_text("confirmed_interaction")
        shot(page, "admin-turn-why-card", full_page=True)
        page.goto("/admin/registries/readtoolentry/")
        expect(page.locator("#result_list")).not_to_contain_text("<lambda>")
        expect(page.locator("#result_list")).to_contain_text("built-in: any signed-in user")
        page.locator("#result_list tbody tr th a").first.click()
        expect(page.locator("body")).to_contain_text("schema ")
        expect(page.locator("body")).not_to_contain_text("FingerprintHistory object")
        shot(page, "admin-read-tool")
    finally:
        context.close()


def test_a_lookup_disabled_in_the_admin_is_explained_in_the_chat_in_plain_words(browser, server):
    staff = browser.new_context(base_url=server.base, viewport={"width": 1366, "height": 768})
    user = browser.new_context(base_url=server.base, viewport={"width": 1360, "height": 860})
    admin_page, page = staff.new_page(), user.new_page()
    try:
        admin_sign_in(admin_page)
        admin_page.goto("/admin/registries/readtoolentry/")
        row = admin_page.locator("#result_list tbody tr", has=admin_page.get_by_role("link", name="exchange_rate"))
        row.get_by_role("checkbox").check()
        admin_page.get_by_label("Action:").select_option(label="Disable selected read tools")
        admin_page.get_by_role("button", name="Run").click()
        expect(admin_page.locator(".messagelist")).to_contain_text("Disabled: exchange_rate.")

        sign_in(page, "bob")
        page.goto("/")
        text = server.script("how much is 50 USD in EUR today",
                             {"reads": [{"tool": "exchange_rate", "args": {"from": "USD", "to": "EUR"}}]},
                             plan(answers=[{"question": "50 USD in EUR", "text": "I cannot convert it right now."}]))
        box = page.get_by_role("textbox", name="Message")
        box.fill(text)
        box.press("Enter")
        turn = wait_turn_done(page, text)
        said = turn.locator("[data-code='read_tool_switched_off']")
        expect(said).to_have_text(re.compile("that lookup is switched off by an administrator"))
        shot(page, "chat-lookup-switched-off")
    finally:
        admin_page.goto("/admin/registries/readtoolentry/")
        row = admin_page.locator("#result_list tbody tr", has=admin_page.get_by_role("link", name="exchange_rate"))
        row.get_by_role("checkbox").check()
        admin_page.get_by_label("Action:").select_option(label="Re-enable selected read tools (also lifts a quarantine)")
        admin_page.get_by_role("button", name="Run").click()
        staff.close()
        user.close()
