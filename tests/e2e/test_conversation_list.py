"""Issue 12 (8): in the sidebar a person searches their conversations by what was said, renames one and
deletes one (it leaves their list; the server keeps the record)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import shot
from .test_chat_page import plan, sign_in, wait_turn_done

pytestmark = pytest.mark.browser


def start_from_home(page, server, text: str) -> str:
    page.goto("/")
    server.script(text, plan(answers=[{"question": text, "text": "Noted."}]))
    box = page.get_by_role("textbox", name="Message")
    box.fill(text)
    box.press("Enter")
    page.wait_for_url(re.compile(r"/c/cnv_[^/]+/$"))
    wait_turn_done(page, text)
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def test_search_rename_and_delete_conversations_in_the_sidebar(page, server):
    sign_in(page, "admin")
    hotel = start_from_home(page, server, "what is the hotel limit in Vienna")
    taxi = start_from_home(page, server, "can I claim a taxi to the airport")
    nav = page.get_by_role("navigation", name="Conversations")
    links = nav.get_by_role("link")

    search = page.get_by_role("searchbox", name="Search conversations")
    search.fill("airport")
    expect(links).to_have_count(1)
    expect(links.first).to_contain_text("taxi to the airport")
    search.fill("no such words anywhere")
    expect(links).to_have_count(0)
    expect(page.get_by_text("No conversation matches.")).to_be_visible()
    search.fill("vienna")  # any case, and what was said, not only the label
    expect(links).to_have_count(1)
    shot(page, "conversations-search")
    search.fill("")
    expect(links).to_have_count(2)  # the whole list is back (drawn anew: a menu opened before it would go with it)
    expect(nav.get_by_role("link", name=re.compile("hotel limit in Vienna"))).to_be_visible()

    nav.get_by_role("button", name=re.compile("Options for what is the hotel limit")).click()
    nav.get_by_role("button", name="Rename").click()
    name = nav.get_by_role("textbox", name="New name")
    expect(name).to_be_focused()
    name.fill("Vienna hotel")
    name.press("Enter")
    renamed = nav.get_by_role("link", name=re.compile("Vienna hotel"))
    expect(renamed).to_be_visible()
    shot(page, "conversations-renamed")
    page.reload()
    expect(page.get_by_role("navigation", name="Conversations").get_by_role("link", name=re.compile("Vienna hotel"))
           ).to_have_attribute("href", f"/c/{hotel}/")

    nav = page.get_by_role("navigation", name="Conversations")
    nav.get_by_role("button", name="Options for Vienna hotel").click()
    nav.get_by_role("button", name="Delete").click()
    expect(nav).to_contain_text("It leaves your list; what was done in it stays on record.")
    shot(page, "conversations-delete-confirm")
    nav.get_by_role("button", name="Delete").click()
    expect(nav.get_by_role("link", name=re.compile("Vienna hotel"))).to_have_count(0)
    expect(nav.get_by_role("link", name=re.compile("taxi to the airport"))).to_be_visible()
    page.reload()
    expect(page.get_by_role("navigation", name="Conversations").get_by_role("link", name=re.compile("Vienna"))
           ).to_have_count(0)
    assert page.request.get(f"/api/conversations/{hotel}").status == 404

    # deleting the conversation on screen leads home
    nav = page.get_by_role("navigation", name="Conversations")
    nav.get_by_role("button", name=re.compile("Options for can I claim a taxi")).click()
    nav.get_by_role("button", name="Delete").click()
    nav.get_by_role("button", name="Delete").click()
    page.wait_for_url(re.compile(r"/$"))
    expect(page.get_by_role("textbox", name="Message")).to_be_focused()
    assert page.request.get(f"/api/conversations/{taxi}").status == 404


def test_a_conversation_is_called_after_the_claim_it_works_on_unless_the_user_named_it(page, server):
    from .test_chat_page import act

    sign_in(page, "bob")
    text = "hi, new claim for the Leeds visit please"
    page.goto("/")
    server.script(text, plan(act("a1", "open_claim", text, title="Leeds visit")))
    box = page.get_by_role("textbox", name="Message")
    box.fill(text)
    box.press("Enter")
    page.wait_for_url(re.compile(r"/c/cnv_[^/]+/$"))
    wait_turn_done(page, text)
    nav = page.get_by_role("navigation", name="Conversations")
    expect(nav.get_by_role("link", name=re.compile("^Leeds visit"))).to_be_visible()  # live, from the panel
    page.reload()
    expect(nav.get_by_role("link", name=re.compile("^Leeds visit"))).to_be_visible()  # and as the server lists it
    nav.get_by_role("button", name=re.compile("Options for Leeds visit")).click()
    nav.get_by_role("button", name="Rename").click()
    nav.get_by_role("textbox", name="New name").fill("My Leeds trip")
    nav.get_by_role("textbox", name="New name").press("Enter")
    expect(nav.get_by_role("link", name=re.compile("^My Leeds trip"))).to_be_visible()
    page.reload()
    expect(nav.get_by_role("link", name=re.compile("^My Leeds trip"))).to_be_visible()
