"""Issue 20 (7, 8) in the page: a message waiting in the server's queue offers Stop, and stopping it withdraws
it (it never runs); a message typed while the one before it is not yet acknowledged is not dropped: it is
shown waiting and sent once that one is acknowledged, in the order typed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import shot
from .test_chat_page import act, new_conversation, plan, send, sign_in, wait_turn_done

pytestmark = pytest.mark.browser

# The socket's message frames leave the page late (as on a slow network): the first instants of a turn,
# before the server has acknowledged the message, last long enough to type more.
SLOW_SOCKET = """
const realSend = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  if (typeof data === "string" && data.includes('"type":"message"')) {
    window.setTimeout(() => realSend.call(this, data), 1500);
    return;
  }
  return realSend.call(this, data);
};
"""

# Creating a conversation takes a moment (the landing page's first message).
SLOW_CREATE = """
const realFetch = window.fetch;
window.fetch = function (url, options) {
  if (String(url).endsWith("/api/conversations") && options?.method === "POST") {
    return new Promise((resolve) => window.setTimeout(resolve, 1500)).then(() => realFetch(url, options));
  }
  return realFetch(url, options);
};
"""


def message_turn(page, text: str):
    return page.locator("[data-turn]", has=page.locator("[data-user-message]", has_text=text)).last


def answer(server, text: str, reply: str, **extra) -> str:
    return server.script(text, {**extra, **plan(answers=[{"question": text, "text": reply}])})


def conversation_texts(page) -> list[str]:
    conversation = page.url.rstrip("/").rsplit("/", 1)[-1]
    return [t["text"] for t in page.request.get(f"/api/conversations/{conversation}").json()["turns"]]


def test_stopping_a_queued_message_withdraws_it_and_it_never_runs(page, server):
    sign_in(page, "bob")
    new_conversation(page)
    slow = answer(server, "what is the taxi limit, slowly", "Taxis: 50 EUR a ride.", delay_s=3)
    doomed = server.script("open a claim called Withdrawn before it ran", plan(
        act("a1", "open_claim", "open a claim called Withdrawn before it ran", title="Withdrawn before it ran")))
    send(page, slow)
    expect(message_turn(page, slow)).to_have_attribute("data-turn-status", "running")
    send(page, doomed)
    waiting = message_turn(page, doomed)
    expect(waiting).to_have_attribute("data-turn-status", "queued")
    stop = waiting.get_by_role("button", name="Stop this message")
    expect(stop).to_be_visible()
    expect(message_turn(page, slow).get_by_role("button", name="Stop waiting")).to_be_visible()
    shot(page, "queued-message-with-stop")

    stop.click()

    expect(waiting).to_have_attribute("data-turn-status", "completed")
    expect(waiting).to_have_attribute("data-withdrawn", "")
    expect(waiting.locator("[data-code='withdrawn']")).to_contain_text("Withdrawn as you asked")
    expect(page.get_by_role("textbox", name="Message")).to_be_focused()
    shot(page, "queued-message-withdrawn")
    expect(wait_turn_done(page, slow).locator("[data-block-kind='answer']")).to_contain_text("50 EUR")
    titles = [c["title"] for c in page.request.get("/api/cases").json()]
    assert "Withdrawn before it ran" not in titles
    page.reload()  # as the server has it
    expect(message_turn(page, doomed)).to_have_attribute("data-withdrawn", "")
    expect(message_turn(page, doomed).locator("[data-code='withdrawn']")).to_be_visible()


def test_messages_typed_before_the_previous_one_is_acknowledged_are_sent_after_it_in_order(page, server):
    page.add_init_script(SLOW_SOCKET)
    sign_in(page)
    new_conversation(page)
    texts = [answer(server, f"question {n} typed quickly", f"Answer {n}.") for n in (1, 2, 3)]

    for text in texts:
        send(page, text)
    expect(page.locator("[data-input]")).to_have_value("")  # each was taken, none left in the box
    waiting = page.locator("[data-outbox-turn]")
    expect(waiting).to_have_count(2)
    expect(waiting.first).to_contain_text(texts[1])
    expect(waiting.first.locator("[data-queued]")).to_contain_text("Waiting to send")
    shot(page, "outbox-waiting-to-send")

    for n, text in enumerate(texts, start=1):
        expect(wait_turn_done(page, text).locator("[data-block-kind='answer']")).to_contain_text(f"Answer {n}.")
    expect(page.locator("[data-outbox-turn]")).to_have_count(0)
    shown = [t for t in page.locator("[data-turn] [data-user-message]").all_text_contents() if t in texts]
    assert shown == texts
    assert conversation_texts(page) == texts  # each once, in the order typed


def test_a_message_waiting_in_the_page_can_be_stopped_and_is_never_sent(page, server):
    page.add_init_script(SLOW_SOCKET)
    sign_in(page)
    new_conversation(page)
    first = answer(server, "first of two, sent", "The first one.")
    second = answer(server, "second of two, stopped", "Never.")

    send(page, first)
    send(page, second)
    waiting = page.locator("[data-outbox-turn]", has_text=second)
    waiting.get_by_role("button", name="Stop this message").click()

    expect(page.locator("[data-outbox-turn]")).to_have_count(0)
    wait_turn_done(page, first)
    assert conversation_texts(page) == [first]


def test_messages_typed_while_the_first_message_creates_the_conversation_follow_it(page, server):
    page.add_init_script(SLOW_CREATE)
    sign_in(page, "bob")
    page.goto("/")
    texts = [answer(server, f"landing question {n}", f"Landing answer {n}.") for n in (1, 2)]

    send(page, texts[0])
    send(page, texts[1])

    page.wait_for_url(re.compile(r"/c/cnv_[^/]+/$"))
    for n, text in enumerate(texts, start=1):
        expect(wait_turn_done(page, text).locator("[data-block-kind='answer']")).to_contain_text(f"Landing answer {n}.")
    assert conversation_texts(page) == texts


def test_when_a_message_does_not_go_through_the_ones_typed_after_it_are_held_and_say_so(page, server):
    page.add_init_script(SLOW_SOCKET)
    sign_in(page)
    conversation = new_conversation(page)
    first = answer(server, "first, into a conversation deleted meanwhile", "Never.")
    second = answer(server, "second, held behind it", "Never either.")

    send(page, first)
    send(page, second)
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    assert page.request.delete(f"/api/conversations/{conversation}", headers={"X-CSRFToken": csrf}).status == 204

    held = page.locator("[data-outbox-turn][data-outbox-held]")
    expect(held).to_contain_text(second)
    expect(held.locator("[data-queued]")).to_contain_text("Not sent yet")
    expect(page.locator("[data-input]")).to_have_value(first)  # back in the box, to send again
    expect(page.locator("[data-composer-error]")).to_be_visible()
    shot(page, "outbox-held")
