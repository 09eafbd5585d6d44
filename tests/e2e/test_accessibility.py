"""Issue 12 (6): the sign-in page, the chat (landing, a conversation with lookups, cards and notices) and
the admin, scanned by axe-core (vendored under static/vendor/axe-core, served locally): no serious or
critical violation; and the small grey text (hints, timestamps, lookup details) meets WCAG AA contrast."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from .conftest import shot
from .test_admin_pages import admin_sign_in
from .test_chat_page import act, new_conversation, plan, send, sign_in, wait_turn_done

pytestmark = pytest.mark.browser

AXE = "/static/vendor/axe-core/axe.min.js"


def axe_problems(page) -> list[dict]:
    """Serious and critical violations on the page as it is now (WCAG 2.x A and AA rules, and best practice)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(url=AXE)
    found = page.evaluate("""async () => {
        const result = await axe.run(document, {resultTypes: ['violations']});
        return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map((n) => ({target: n.target.join(' '), html: n.html, summary: n.failureSummary}))}));
    }""")
    return [v for v in found if v["impact"] in ("serious", "critical")]


def assert_clean(page, where: str) -> None:
    problems = axe_problems(page)
    assert not problems, f"{where}:\n" + json.dumps(problems, indent=2)


CONTRAST = """(selector) => {
    const parse = (c) => c.match(/[\\d.]+/g).map(Number);
    const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92
        : ((v + 0.055) / 1.055) ** 2.4; }).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
    const background = (el) => { for (; el; el = el.parentElement) { const c = parse(getComputedStyle(el).backgroundColor);
        if (c.length < 4 || c[3] > 0) return c.slice(0, 3); } return [255, 255, 255]; };
    return [...document.querySelectorAll(selector)].filter((el) => el.offsetParent !== null).map((el) => {
        const [a, b] = [lum(parse(getComputedStyle(el).color)), lum(background(el))].sort((x, y) => y - x);
        return Math.round(((a + 0.05) / (b + 0.05)) * 100) / 100;
    });
}"""


def test_the_sign_in_page_has_no_serious_accessibility_violation(page):
    page.goto("/login/")
    assert_clean(page, "sign-in page")
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", "wrong")
    page.click("button[type=submit]")
    expect(page.locator("[data-login-error]")).to_be_visible()
    assert_clean(page, "sign-in page with an error")


def test_the_chat_has_no_serious_accessibility_violation_and_its_small_text_meets_aa_contrast(page, server):
    sign_in(page, "bob")
    page.goto("/")
    assert_clean(page, "landing page")
    new_conversation(page)
    assert_clean(page, "empty conversation")
    question = server.script("a11y: what is the hotel limit",
                             {"reads": [{"tool": "lookup_policy", "args": {"query": "hotel"}}]},
                             plan(answers=[{"question": "hotel", "text": "Hotels: up to 180 EUR a night."}]))
    send(page, question)
    turn = wait_turn_done(page, question)
    turn.locator("[data-read-round] summary").first.click()  # the lookup's details, open
    opening = server.script("a11y: open a claim called Access trip and add a taxi of 20",
                            plan(act("a1", "open_claim", "open a claim called Access trip", title="Access trip"),
                                 act("a2", "add_line", "add a taxi of 20", {"active": True}, amount="20",
                                     category="taxi")))
    send(page, opening)
    wait_turn_done(page, opening)
    removal = server.script("a11y: remove line 1",
                            plan(act("a1", "remove_line", "remove line 1", {"active": True}, line=1)))
    send(page, removal)
    expect(wait_turn_done(page, removal).locator("[data-interaction]")).to_have_attribute("data-status", "pending")
    assert_clean(page, "conversation with a lookup, receipts and an open card")

    ratios = {selector: page.evaluate(CONTRAST, selector) for selector in (
        ".composer-hint", ".conversation-list time", ".read-args", ".read-caption", ".block-ask", ".eyebrow",
        ".case-id", ".item-meta")}
    low = {s: [r for r in found if r < 4.5] for s, found in ratios.items() if any(r < 4.5 for r in found)}
    assert all(ratios.values()), ratios  # each kind of small text was on the page
    assert not low, low
    shot(page, "a11y-chat")


def test_the_admin_has_no_serious_accessibility_violation(page):
    admin_sign_in(page)
    assert_clean(page, "admin index")
    for path in ("/admin/conversations/turn/", "/admin/registries/readtoolentry/", "/admin/conversations/case/"):
        page.goto(path)
        assert_clean(page, path)
    page.goto("/admin/conversations/turn/")
    page.locator("#result_list tbody tr th a").first.click()
    page.wait_for_url("**/change/")  # scanned once loaded: a page still being parsed has links without text yet
    page.wait_for_load_state("load")
    assert_clean(page, "a turn's page")
    shot(page, "a11y-admin-turn")
