"""Issue 12 (1): what a new user meets. The sign-in page names every demo user and says where their
password is; after signing in, ``/`` is ready to type and lists the user's claims with status and total;
the first message creates the conversation."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import shot
from .test_chat_page import plan, sign_in, wait_turn_done

pytestmark = pytest.mark.browser


def test_the_sign_in_page_names_the_demo_users_and_where_their_password_is(page):
    page.goto("/login/")
    demo = page.locator("[data-login-demo]")
    for name in ("alice", "bob", "admin"):
        expect(demo.get_by_text(name, exact=True)).to_be_visible()
    expect(demo).to_contain_text("TURNFRAME_DEMO_PASSWORD")
    expect(demo).to_contain_text("README")
    expect(demo).to_contain_text("In development it defaults to turnframe-demo")  # the e2e server runs DEBUG=1
    expect(page.get_by_role("link", name="admin site")).to_have_attribute("href", "/admin/")
    shot(page, "login-demo-users")


def test_after_signing_in_home_is_ready_to_type_lists_the_claims_and_the_first_message_starts_a_conversation(
        page, server):
    sign_in(page)
    expect(page).to_have_url(re.compile(r"/$"))
    box = page.get_by_role("textbox", name="Message")
    expect(box).to_be_focused()
    expect(page.get_by_role("heading", name=re.compile("Welcome, alice"))).to_be_visible()
    # alice has claims and (both demo domains are installed) a trip: the list speaks of cases
    claims = page.get_by_role("complementary", name="Your cases")
    berlin = claims.get_by_role("listitem").filter(has_text="Berlin trip")
    expect(berlin).to_contain_text("draft")
    expect(berlin).to_contain_text("3 lines")
    expect(berlin.locator("[data-case-row-total]")).to_have_text(re.compile(r"^\d+\.\d\d EUR$"))
    expect(claims.get_by_role("listitem").filter(has_text="Lisbon conference")).to_contain_text("draft")
    offsite = claims.get_by_role("listitem").filter(has_text="Lisbon offsite")
    expect(offsite).to_contain_text("booked")
    expect(offsite).to_contain_text("2 segments")
    expect(page.locator("[data-turn]")).to_have_count(0)
    shot(page, "landing")

    text = server.script("hello from the landing page",
                         plan(answers=[{"question": "hello", "text": "Hello, alice: how can I help?"}]))
    box.fill(text)
    box.press("Enter")
    page.wait_for_url(re.compile(r"/c/cnv_[^/]+/$"))
    conversation = page.url.rstrip("/").rsplit("/", 1)[-1]
    turn = wait_turn_done(page, text)
    expect(turn.locator("[data-block-kind='answer']")).to_have_text("Hello, alice: how can I help?")
    current = page.get_by_role("navigation", name="Conversations").get_by_role("link", name=re.compile(text))
    expect(current).to_have_attribute("aria-current", "page")
    expect(page.locator("[data-connection='open']")).to_be_visible()
    expect(page.get_by_role("complementary", name="Active case")).to_be_visible()
    shot(page, "landing-first-message")

    page.reload()  # the conversation and its first turn are the server's, not the page's
    expect(page).to_have_url(re.compile(f"/c/{conversation}/$"))
    expect(wait_turn_done(page, text).locator("[data-block-kind='answer']")).to_contain_text("Hello, alice")
    page.goto("/")  # home is the landing page again, with the composer, not the last conversation
    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.get_by_role("textbox", name="Message")).to_be_focused()
