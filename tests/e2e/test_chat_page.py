"""The chat page in a real Chromium (SPEC §27, browser tests): chat, live read rounds, confirming a
card, a stale card refused, and model/user text rendered as text. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import PASSWORD, shot

pytestmark = pytest.mark.browser

XSS_TITLE = "<img src=x onerror=alert(1)>"

# The page records when read rounds and reply blocks first appear (one entry per DOM batch), so a
# test can tell "the read round showed before the reply" from "both arrived at once".
APPEARANCE_RECORDER = """
window.__appeared = [];
let batch = 0;
new MutationObserver((records) => {
  batch += 1;
  for (const record of records) {
    for (const node of record.addedNodes) {
      if (!(node instanceof Element)) continue;
      for (const el of [node, ...node.querySelectorAll("[data-read-round], [data-block-kind]")]) {
        if (el.matches("[data-read-round]")) window.__appeared.push({what: "read_round", batch});
        if (el.matches("[data-block-kind]")) window.__appeared.push({what: el.dataset.blockKind, batch});
      }
    }
  }
}).observe(document, {subtree: true, childList: true});
"""


# --------------------------------------------------------------------------- helpers


def sign_in(page, username: str = "alice") -> None:
    page.goto("/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/(c/cnv_[^/]+/)?$"))


def new_conversation(page) -> str:
    before = page.url
    if page.locator("[data-new-conversation]:visible").count() == 0:  # a phone: it is in the drawer
        page.locator("[data-nav-toggle]").click()
    page.locator("[data-new-conversation]:visible").first.click()
    page.wait_for_url(lambda url: re.search(r"/c/cnv_[^/]+/$", url) is not None and url != before)
    expect(page.locator("[data-connection='open']")).to_be_visible()
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def send(page, text: str) -> None:
    page.locator("[data-input]").fill(text)
    page.locator("[data-input]").press("Enter")


def last_turn(page):
    return page.locator("[data-turn]").last


def wait_turn_done(page, text: str):
    """The message turn with this text, once its reply is shown."""
    turn = page.locator("[data-turn]", has=page.locator("[data-user-message]", has_text=text)).last
    expect(turn).to_have_attribute("data-turn-status", re.compile("completed|failed"))
    return turn


def case_id(page, title: str) -> str:
    cases = page.request.get("/api/cases").json()
    return next(c["id"] for c in cases if c["title"] == title)


def plan(*acts, answers=(), say=None) -> dict:
    body = {"acts": list(acts)}
    if answers:
        body["answers"] = list(answers)
    if say:
        body["say"] = say
    return {"plan": body}


def act(id: str, name: str, evidence: str, case: dict | None = None, **args) -> dict:
    body = {"id": id, "act": name, "args": args, "evidence": evidence}
    if case is not None:
        body["case"] = case
    return body


def open_claim_with_two_lines(page, server, title: str, taxi: str, hotel: str) -> None:
    opening = server.script(f"open a claim called {title}",
                            plan(act("a1", "open_claim", f"open a claim called {title}", title=title, currency="EUR")))
    adding = server.script(f"add a taxi of {taxi} and a hotel of {hotel} to {title}", plan(
        act("a1", "add_line", f"a taxi of {taxi}", {"active": True}, amount=taxi, category="taxi"),
        act("a2", "add_line", f"a hotel of {hotel}", {"active": True}, amount=hotel, category="hotel")))
    send(page, opening)
    wait_turn_done(page, opening)
    send(page, adding)
    wait_turn_done(page, adding)
    expect(page.locator("[data-case-panel] [data-case-title]")).to_have_text(title)
    expect(page.locator("[data-case-panel]")).to_have_attribute("data-case-revision", "3")


# --------------------------------------------------------------------------- scenarios


def test_signing_in_leads_to_the_chat_and_a_wrong_password_is_refused(page):
    page.goto("/")
    page.wait_for_url(re.compile(r"/login/"))
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    shot(page, "login")
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", "not-the-password")
    page.click("button[type=submit]")
    expect(page.locator("[data-login-error]")).to_be_visible()
    sign_in(page)
    expect(page.locator("[data-user]")).to_have_text("alice")
    conversation = new_conversation(page)
    expect(page.locator(f"[data-conversation='{conversation}']")).to_have_attribute("aria-current", "page")
    expect(page.locator("[data-intro]")).to_be_visible()
    page.locator("[data-logout]").click()
    page.wait_for_url(re.compile(r"/login/"))


def test_a_read_round_shows_live_before_the_reply(page, server):
    page.add_init_script(APPEARANCE_RECORDER)
    sign_in(page)
    new_conversation(page)
    berlin = case_id(page, "Berlin trip")
    question = server.script(
        "How much is on my Berlin claim?",
        {"reads": [{"tool": "get_case", "args": {"case": berlin}},
                   {"tool": "lookup_policy", "args": {"query": "taxi"}}]},
        plan(answers=[{"question": "How much is on my Berlin claim?",
                       "text": "Your Berlin claim has three lines."}]))
    send(page, question)
    turn = wait_turn_done(page, question)
    rounds = turn.locator("[data-read-round]")
    expect(rounds).to_have_count(1)
    expect(rounds.first).to_have_attribute("data-status", "ok")
    expect(rounds.first.locator("summary")).to_contain_text("get_case")
    expect(rounds.first.locator("summary")).to_contain_text("Berlin trip")
    expect(rounds.first.locator("summary")).to_contain_text("lookup_policy")
    expect(turn.locator("[data-block-kind='answer']")).to_have_text("Your Berlin claim has three lines.")
    expect(turn.locator("[data-block-kind='ask']")).to_be_visible()
    # live: the read round appeared in an earlier DOM batch than any reply block
    appeared = page.evaluate("window.__appeared")
    first_round = min(a["batch"] for a in appeared if a["what"] == "read_round")
    first_block = min(a["batch"] for a in appeared if a["what"] != "read_round")
    assert first_round < first_block, appeared
    # details: arguments and result are there, collapsed until asked for
    expect(rounds.first.locator(".read-json").first).to_be_hidden()
    rounds.first.locator("summary").click()
    expect(rounds.first.locator(".read-json").first).to_contain_text(berlin)
    # the case the model looked at is not made active by a read (no act touched it)
    shot(page, "read-round")


def test_a_consequential_act_waits_for_the_card_and_confirming_runs_it(page, server):
    sign_in(page)
    new_conversation(page)
    open_claim_with_two_lines(page, server, "Zurich offsite", "42.50", "120")
    panel = page.locator("[data-case-panel]")
    expect(panel.locator("[data-case-item]")).to_have_count(2)
    expect(panel.locator("[data-case-total]")).to_have_text("162.50 EUR")

    removal = server.script("remove line 1 of the Zurich claim",
                            plan(act("a1", "remove_line", "remove line 1", {"active": True}, line=1)))
    send(page, removal)
    turn = wait_turn_done(page, removal)
    card = turn.locator("[data-interaction]")
    expect(card).to_have_attribute("data-status", "pending")
    expect(card.locator("[data-option]")).to_have_count(2)
    hint = turn.locator("[data-block-kind='ask']")
    expect(hint).to_have_text("Confirm or decline the card above to go on.")
    expect(panel).to_have_attribute("data-case-revision", "3")  # nothing ran yet
    shot(page, "card-pending")

    card.locator("[data-option='confirm']").click()
    click_turn = page.locator("[data-turn][data-turn-kind='click']").last
    expect(click_turn).to_have_attribute("data-turn-status", "completed")
    expect(click_turn.locator("[data-block-kind='receipt']")).to_have_count(1)
    expect(click_turn.locator("[data-click]")).to_contain_text("Confirm")
    expect(card).to_have_attribute("data-status", "resolved")
    expect(card.locator("[data-option='confirm']")).to_be_disabled()
    expect(card.locator("[data-card-reason]")).to_have_text("Confirmed.")
    expect(hint).to_be_hidden()  # the card it pointed to is answered
    expect(panel).to_have_attribute("data-case-revision", "4")
    expect(panel.locator("[data-case-item]")).to_have_count(1)
    expect(panel.locator("[data-case-total]")).to_have_text("120.00 EUR")

    submit = server.script("submit the Zurich claim",
                           plan(act("a1", "submit_claim", "submit the Zurich claim", {"active": True})))
    send(page, submit)
    card = wait_turn_done(page, submit).locator("[data-interaction]")
    card.locator("[data-option='confirm']").click()
    expect(card).to_have_attribute("data-status", "resolved")
    expect(panel.locator("[data-case-status]")).to_have_text("submitted")
    expect(panel).to_have_attribute("data-case-revision", "5")
    shot(page, "card-confirmed")

    # a reload shows exactly the persisted blocks and the cards' current states
    before = transcript_snapshot(page)
    page.reload()
    expect(page.locator("[data-connection='open']")).to_be_visible()
    expect(page.locator("[data-turn]")).to_have_count(len(before))
    assert transcript_snapshot(page) == before
    expect(page.locator("[data-case-panel] [data-case-status]")).to_have_text("submitted")


def transcript_snapshot(page) -> list:
    return page.evaluate("""() => [...document.querySelectorAll('[data-turn]')].map((turn) => ({
        turn: turn.dataset.turn, status: turn.dataset.turnStatus,
        blocks: [...turn.querySelectorAll('[data-block-kind]')].map((b) => [b.dataset.blockKind, b.textContent]),
        cards: [...turn.querySelectorAll('[data-interaction]')].map((c) => [c.dataset.interaction, c.dataset.status,
          [...c.querySelectorAll('[data-option]')].map((o) => o.disabled)]),
    }))""")


def test_a_card_made_stale_by_a_later_edit_cannot_be_confirmed(page, server):
    sign_in(page)
    new_conversation(page)
    open_claim_with_two_lines(page, server, "Stale check", "30", "90")
    removal = server.script("please remove line 1 of Stale check",
                            plan(act("a1", "remove_line", "remove line 1", {"active": True}, line=1)))
    send(page, removal)
    card = wait_turn_done(page, removal).locator("[data-interaction]")
    expect(card).to_have_attribute("data-status", "pending")
    interaction = card.get_attribute("data-interaction")

    edit = server.script("change line 2 of Stale check to 95",
                         plan(act("a1", "update_line", "change line 2 of Stale check to 95", {"active": True},
                                  line=2, amount="95")))
    send(page, edit)
    wait_turn_done(page, edit)
    panel = page.locator("[data-case-panel]")
    expect(panel).to_have_attribute("data-case-revision", "4")
    expect(card).to_have_attribute("data-status", "stale")
    for button in card.locator("[data-option]").all():
        expect(button).to_be_disabled()
    expect(card.locator("[data-card-reason]")).to_contain_text("changed after this card was made")
    shot(page, "card-stale")

    # the server refuses it too, whatever a client sends
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    response = page.request.post(f"/api/interactions/{interaction}/respond", data={"option": "confirm"},
                                 headers={"X-CSRFToken": token, "Referer": page.url})
    assert response.status == 409 and response.json()["code"] == "interaction_stale"
    page.reload()
    card = page.locator(f"[data-interaction='{interaction}']")
    expect(card).to_have_attribute("data-status", "stale")
    expect(card.locator("[data-option='confirm']")).to_be_disabled()
    expect(page.locator("[data-case-panel]")).to_have_attribute("data-case-revision", "4")
    expect(page.locator("[data-case-panel] [data-case-item]")).to_have_count(2)


def test_a_title_with_markup_is_rendered_as_text(page, server):
    sign_in(page)
    conversation = new_conversation(page)
    message = server.script(f"open a claim called {XSS_TITLE}",
                            plan(act("a1", "open_claim", f"open a claim called {XSS_TITLE}", title=XSS_TITLE),
                                 say=f"I opened {XSS_TITLE} for you."))
    send(page, message)
    turn = wait_turn_done(page, message)
    expect(turn.locator("[data-user-message]")).to_have_text(message)
    expect(page.locator("[data-case-panel] [data-case-title]")).to_have_text(XSS_TITLE)
    assert page.locator("img").count() == 0
    page.reload()
    expect(page.locator("[data-case-panel] [data-case-title]")).to_have_text(XSS_TITLE)
    expect(page.locator(f"[data-conversation='{conversation}'] [data-conversation-label]")).to_contain_text("<img")
    assert page.locator("img").count() == 0
    shot(page, "markup-as-text")
    # the ``page`` fixture fails the test if an alert dialog or a script error happened


def test_the_page_works_on_a_phone_with_the_case_panel_under_the_chat(browser, server):
    context = browser.new_context(base_url=server.base, viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    page = context.new_page()
    try:
        sign_in(page, "bob")
        new_conversation(page)
        opening = server.script("open a claim called Phone trip",
                                plan(act("a1", "open_claim", "open a claim called Phone trip", title="Phone trip")))
        send(page, opening)
        wait_turn_done(page, opening)
        panel = page.locator("[data-case-panel]")
        expect(panel.locator("[data-case-title]")).to_have_text("Phone trip")
        chat, side = page.locator("[data-chat]").bounding_box(), panel.bounding_box()
        assert side["y"] >= chat["y"] + chat["height"] - 1  # stacked under the chat
        assert side["width"] > 380  # full width
        expect(page.locator("[data-sidebar]")).to_be_hidden()
        shot(page, "phone", full_page=True)
        page.locator("[data-nav-toggle]").click()
        expect(page.locator("[data-sidebar]")).to_be_visible()
        shot(page, "phone-sidebar")
    finally:
        context.close()


def test_a_turn_sent_by_another_client_appears_live(page, server):
    """The page is a view of the conversation, not of its own requests: an API client's turn streams in."""
    sign_in(page)
    conversation = new_conversation(page)
    text = server.script("hello from the API client",
                         plan(answers=[{"question": "hello", "text": "Hello, API client."}]))
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    response = page.request.post(f"/api/conversations/{conversation}/messages",
                                 data={"text": text, "client_message_id": "api-1"},
                                 headers={"X-CSRFToken": token, "Referer": page.url})
    assert response.status == 200
    turn = wait_turn_done(page, text)
    expect(turn.locator("[data-block-kind='answer']")).to_have_text("Hello, API client.")
    expect(page.locator(f"[data-conversation='{conversation}'] [data-conversation-label]")).to_have_text(text)


def test_the_page_pings_its_socket_and_the_server_answers_pong(page):
    """The keep-alive (the e2e server sets TURNFRAME_WS_PING_S=1): ping frames go out on an idle socket,
    pong events come back, and the socket stays live."""
    sent: list[str] = []
    received: list[str] = []

    def watch(ws):
        ws.on("framesent", lambda payload: sent.append(str(payload)))
        ws.on("framereceived", lambda payload: received.append(str(payload)))

    page.on("websocket", watch)
    sign_in(page)
    new_conversation(page)
    page.wait_for_timeout(3500)
    assert sum('"ping"' in f for f in sent) >= 2, sent
    assert sum('"pong"' in f for f in received) >= 2, received
    expect(page.locator("[data-connection='open']")).to_be_visible()


def test_the_suggestions_name_only_the_users_own_claims(page, server):
    sign_in(page, "bob")
    new_conversation(page)
    chips = page.locator("[data-suggestion]")
    expect(chips.first).to_be_visible()
    texts = chips.all_text_contents()
    assert not any("Berlin" in t or "Lisbon" in t for t in texts), texts  # alice's claims, not bob's


def test_a_message_sent_while_a_turn_runs_is_shown_waiting_and_then_runs(page, server):
    """Double texting: the composer stays usable; the second message is kept, shown as waiting, and runs next."""
    sign_in(page)
    new_conversation(page)
    slow = server.script("what is the meals limit, slowly", {"delay_s": 3, **plan(answers=[
        {"question": "meals", "text": "Meals are reimbursed up to 60 EUR a day."}])})
    quick = server.script("and the hotel limit", plan(answers=[{"question": "hotel", "text": "Hotels: 180 EUR a night."}]))
    send(page, slow)
    expect(page.locator("[data-turn]", has=page.locator("[data-user-message]", has_text=slow))).to_have_attribute(
        "data-turn-status", "running")
    send(page, quick)

    waiting = page.locator("[data-turn]", has=page.locator("[data-user-message]", has_text=quick)).last
    expect(waiting).to_have_attribute("data-turn-status", "queued")
    expect(waiting.locator("[data-queued]")).to_contain_text("Waiting")
    shot(page, "queued-message")

    first = wait_turn_done(page, slow)
    second = wait_turn_done(page, quick)
    expect(first.locator("[data-block-kind='answer']")).to_contain_text("60 EUR")
    expect(second.locator("[data-block-kind='answer']")).to_contain_text("180 EUR")
