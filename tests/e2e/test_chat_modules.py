"""The chat page's ES modules (static/chat/), each imported on its own in a real Chromium: no build
step, no side effects on import, and the small pure parts behave as the page relies on."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

MODULES = {
    "dom.js": ["h", "newId", "plural", "truncate"],
    "api.js": ["ApiError", "api", "csrfToken"],
    "socket.js": ["keepAlive", "openSocket", "socketUrl"],
    "store.js": ["cardIsOpen", "createStore", "partialTurn"],
    "transcript.js": ["argsSummary", "blockNode", "clickNode", "createTranscript", "readRoundNode",
                      "resultSummary", "stopNode", "workingNode"],
    "cards.js": ["cardNode", "cardReason", "cardStatus", "cardTitle"],
    "case-panel.js": ["caseEmptyNode", "caseNodes", "createCasePanel"],
    "composer.js": ["checkMessage", "createComposer"],
    "conversation.js": ["startConversation"],
    "sidebar.js": ["addConversation", "conversationItem", "setUpSidebar"],
    "landing.js": ["startLanding"],
}


def _blank(page):
    page.goto("/login/")  # any page of the site: same origin, same CSP
    page.set_content("<!doctype html><title>modules</title><main></main>")


def test_each_chat_module_imports_on_its_own_without_touching_the_page(page):
    _blank(page)
    for module, names in MODULES.items():
        exported = page.evaluate(f"""async () => {{
            const before = document.body.innerHTML;
            const m = await import('/static/chat/{module}');
            return {{names: Object.keys(m).sort(), untouched: document.body.innerHTML === before}};
        }}""")
        assert exported["untouched"], module
        assert set(names) <= set(exported["names"]), (module, exported["names"])


def test_the_store_never_moves_a_turn_or_a_card_back_to_an_earlier_status(page):
    _blank(page)
    result = page.evaluate("""async () => {
        const {createStore, partialTurn} = await import('/static/chat/store.js');
        const store = createStore();
        store.upsertTurn({...partialTurn('trn_1', 'hi'), status: 'completed'}, {authoritative: true});
        store.upsertTurn(partialTurn('trn_1', 'hi'), {authoritative: true});
        store.upsertInteraction({id: 'int_1', status: 'resolved'});
        store.upsertInteraction({id: 'int_1', status: 'pending'});
        return [store.turns.get('trn_1').status, store.interactions.get('int_1').status, store.order];
    }""")
    assert result == ["completed", "resolved", ["trn_1"]]


def test_a_card_and_a_read_round_render_text_never_markup(page):
    _blank(page)
    result = page.evaluate("""async () => {
        const {cardNode, cardStatus} = await import('/static/chat/cards.js');
        const {argsSummary, resultSummary} = await import('/static/chat/transcript.js');
        const {checkMessage} = await import('/static/chat/composer.js');
        const card = cardNode({id: 'int_1', kind: 'confirmation', status: 'pending', prompt: '<b>x</b>',
                               options: [{id: 'confirm', label: 'Confirm'}, {id: 'decline', label: 'Decline'}]});
        return {
            prompt: card.querySelector('.card-prompt').textContent, bold: card.querySelectorAll('b').length,
            buttons: [...card.querySelectorAll('[data-option]')].map((b) => b.textContent),
            status: cardStatus({kind: 'confirmation', status: 'resolved'}),
            args: argsSummary({case: 'clm_ABCD1234567890'}),
            result: resultSummary('calculate', {ok: true, result: {expression: '2*3', result: '6'}}),
            tooLong: checkMessage('x'.repeat(11), 10).problem, empty: checkMessage('  ', 10).problem,
        };
    }""")
    assert result == {"prompt": "<b>x</b>", "bold": 0, "buttons": ["Confirm", "Decline"], "status": "Confirmed",
                      "args": "case: clm_ABCD…", "result": "2*3 = 6",
                      "tooLong": "A message may be at most 10 characters.", "empty": "empty"}


def test_a_card_of_several_commands_lists_each_on_its_own_line_as_text(page):
    _blank(page)
    result = page.evaluate("""async () => {
        const {cardNode} = await import('/static/chat/cards.js');
        const options = [{id: 'confirm', label: 'Confirm'}, {id: 'decline', label: 'Decline'}];
        const two = [{id: 'cmd_1', act: 'add_line', args: {}}, {id: 'cmd_2', act: 'add_line', args: {}}];
        const listed = cardNode({id: 'int_1', kind: 'confirmation', status: 'pending', commands: two, options,
                                 prompt: 'Please confirm (not sure): Add <b>a</b>; Add “x”: Taxi, 12.00 EUR.'});
        const odd = cardNode({id: 'int_2', kind: 'confirmation', status: 'pending', commands: two, options,
                              prompt: 'Please confirm: Add a; Add b; Add c.'});
        return {head: listed.querySelector('.card-prompt-head').textContent,
                items: [...listed.querySelectorAll('[data-card-commands] li')].map((li) => li.textContent),
                bold: listed.querySelectorAll('b').length, odd: odd.querySelectorAll('li').length,
                oddText: odd.querySelector('.card-prompt').textContent};
    }""")
    assert result == {"head": "Please confirm (not sure):", "items": ["Add <b>a</b>", "Add “x”: Taxi, 12.00 EUR"],
                      "bold": 0, "odd": 0, "oddText": "Please confirm: Add a; Add b; Add c."}
