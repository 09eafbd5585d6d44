"""Issue 12 (3): the newest reply is fully visible after every turn, above the composer, on a desktop
and on a phone; and resizing from desktop to phone keeps the reader where they were."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import shot
from .test_chat_page import new_conversation, plan, send, sign_in, wait_turn_done

pytestmark = pytest.mark.browser

LONG = ("The policy reimburses hotels up to 180 EUR a night, meals up to 60 EUR a day, and taxis when no public "
        "transport runs. Receipts are needed for every line over 25 EUR. ") * 3


def _newest_reply_fully_visible(page) -> dict:
    """Where the newest turn's last block ends, against the composer's top and the viewport's bottom."""
    return page.evaluate("""() => {
        const turns = document.querySelectorAll('[data-turn]');
        const blocks = turns[turns.length - 1].querySelectorAll('[data-block-kind]:not([hidden])');
        const last = blocks[blocks.length - 1].getBoundingClientRect();
        const composer = document.querySelector('[data-composer]').getBoundingClientRect();
        return {bottom: Math.round(last.bottom), composerTop: Math.round(composer.top),
                viewport: window.innerHeight};
    }""")


def _chat_a_while(page, server, prefix: str, turns: int) -> None:
    for i in range(turns):
        text = server.script(f"{prefix} question {i}", plan(answers=[{"question": "limits", "text": LONG}]))
        send(page, text)
        wait_turn_done(page, text)
        page.wait_for_timeout(400)  # any smooth scroll has settled
        where = _newest_reply_fully_visible(page)
        assert where["bottom"] <= where["composerTop"] + 1, (i, where)
        assert where["bottom"] <= where["viewport"], (i, where)


def test_the_newest_reply_is_fully_visible_above_the_composer_after_every_turn(page, server):
    sign_in(page, "bob")
    new_conversation(page)
    _chat_a_while(page, server, "desktop", 5)
    expect(page.locator("[data-turn]").last.locator("[data-block-kind='answer']")).to_be_in_viewport()
    shot(page, "scroll-desktop")


def test_the_newest_reply_is_fully_visible_on_a_phone(browser, server):
    context = browser.new_context(base_url=server.base, viewport={"width": 390, "height": 760}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    try:
        sign_in(page, "bob")
        new_conversation(page)
        _chat_a_while(page, server, "phone", 4)
        shot(page, "scroll-phone")
    finally:
        context.close()


def test_resizing_from_desktop_to_phone_does_not_jump_the_transcript_to_the_top(page, server):
    sign_in(page, "bob")
    new_conversation(page)
    _chat_a_while(page, server, "resize", 4)
    newest = page.locator("[data-turn]").last.locator("[data-block-kind='answer']")
    expect(newest).to_be_in_viewport()
    page.set_viewport_size({"width": 390, "height": 760})
    page.wait_for_timeout(500)
    expect(newest).to_be_in_viewport()
    first = page.locator("[data-turn]").first.locator("[data-user-message]")
    expect(first).not_to_be_in_viewport()
    shot(page, "scroll-resized-to-phone")
    page.set_viewport_size({"width": 1360, "height": 860})  # and back
    page.wait_for_timeout(500)
    expect(newest).to_be_in_viewport()


def test_a_reader_who_scrolled_back_keeps_their_place_when_the_window_narrows(page, server):
    sign_in(page, "bob")
    new_conversation(page)
    _chat_a_while(page, server, "reading back", 4)
    second = page.locator("[data-turn]").nth(1).locator("[data-user-message]")
    second.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    expect(second).to_be_in_viewport()
    page.set_viewport_size({"width": 390, "height": 760})
    page.wait_for_timeout(500)
    expect(second).to_be_in_viewport()
    expect(page.locator("[data-turn]").last.locator("[data-block-kind='answer']")).not_to_be_in_viewport()
    shot(page, "scroll-kept-place-on-phone")
