"""The OpenAPI docs render in a real browser from local files, under the strict CSP."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import shot

pytestmark = pytest.mark.browser


def test_the_api_docs_render_with_every_endpoint_and_its_answer_schemas_and_no_csp_violation(page):
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto("/api/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Turnframe web")
    expect(page.locator(".opblock-summary-path", has_text="/api/conversations/{conversation_id}/messages")
           ).to_be_visible()
    # every answer is a named schema, and the errors one schema (the page's "Schemas" section)
    models = page.locator("section.models")
    for name in ("TurnOut", "ConversationDetailOut", "InteractionOut", "JournalEntryOut", "ErrorOut"):
        expect(models).to_contain_text(name)
    shot(page, "api-docs")
    assert all(url.startswith(page.url.split("/api/")[0]) for url in requests), "the docs fetched from elsewhere"
