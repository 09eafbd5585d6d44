"""The chat page's server side: sign-in, scoping, and a page that keeps the strict CSP."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from conversations.models import Conversation

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(settings):
    return get_user_model().objects.create_user("alice", password="pw-alice-1")


@pytest.fixture
def signed_in(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    return client


def test_the_chat_needs_a_signed_in_user():
    response = Client().get("/")
    assert response.status_code == 302 and response.url.startswith("/login/?next=/")


def test_signing_in_with_the_form_leads_to_the_chat(alice):
    client = Client(enforce_csrf_checks=True)
    page = client.get("/login/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode()).group(1)
    response = client.post("/login/", {"username": "alice", "password": "pw-alice-1",
                                       "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and response.url == "/"
    wrong = Client().post("/login/", {"username": "alice", "password": "nope"})
    assert wrong.status_code == 200 and b"data-login-error" in wrong.content


def test_signing_out_takes_a_post(signed_in):
    assert signed_in.get("/logout/").status_code == 405


def test_home_is_a_composer_ready_to_type_beside_the_users_claims(signed_in, alice):
    """Issue 12 (1): ``/`` no longer jumps to the latest conversation; the first message creates one."""
    empty = signed_in.get("/")
    assert empty.status_code == 200 and b"data-welcome" in empty.content and b"data-cases-empty" in empty.content
    Conversation.objects.create(owner=alice)
    home = signed_in.get("/")
    html = home.content.decode()
    assert home.status_code == 200 and "autofocus" in html and "data-composer" in html
    assert json.loads(re.search(r'id="turnframe-boot" type="application/json">(.*?)</script>', html).group(1))[
        "conversation"] is None


def test_the_sign_in_page_names_every_demo_user_and_shows_the_default_password_only_in_development(settings):
    settings.DEBUG = True
    html = Client().get("/login/").content.decode()
    assert all(f"<code>{name}</code>" in html for name in ("alice", "bob", "admin"))
    assert "TURNFRAME_DEMO_PASSWORD" in html and "turnframe-demo</code>" in html
    settings.DEBUG = False
    html = Client().get("/login/").content.decode()
    assert "TURNFRAME_DEMO_PASSWORD" in html and "turnframe-demo</code>" not in html


def test_another_users_conversation_is_a_404(signed_in):
    bob = get_user_model().objects.create_user("bob", password="pw-bob-1")
    theirs = Conversation.objects.create(owner=bob)
    assert signed_in.get(f"/c/{theirs.id}/").status_code == 404
    assert signed_in.get("/c/cnv_missing/").status_code == 404


def test_the_chat_page_boots_from_json_and_runs_no_inline_script(signed_in, alice):
    conversation = Conversation.objects.create(owner=alice)
    conversation.turns.create(kind="message", text="<b>first</b> message", client_message_id="m1",
                              mode=conversation.mode, status="completed")
    response = signed_in.get(f"/c/{conversation.id}/")
    html = response.content.decode()
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", html, flags=re.S)
    for attrs, body in scripts:
        assert 'type="application/json"' in attrs or ("src=" in attrs and not body.strip()), attrs
    boot = json.loads(re.search(r'<script id="turnframe-boot" type="application/json">(.*?)</script>', html,
                                flags=re.S).group(1))
    assert boot["conversation"] == conversation.id and boot["user"] == "alice"
    assert "&lt;b&gt;first&lt;/b&gt; message" in html  # the sidebar label is escaped text
    assert ' style="' not in html  # no inline styles either (style-src 'self')


def test_static_files_are_served_without_a_front_server(client):
    response = client.get("/static/chat.js")
    assert response.status_code == 200
    assert b"textContent" in b"".join(response.streaming_content)


@pytest.mark.parametrize("path", ["/c/%00/", "/c/cnv_%00x/", "/?next=%00", "/login/?next=a%00b"])
def test_a_url_carrying_a_nul_is_a_bad_request_on_every_database(signed_in, path, caplog):
    """PostgreSQL cannot compare a NUL with any text: the URL is refused before any lookup (400), the same
    on SQLite, and the log holds no traceback."""
    response = signed_in.get(path)
    assert response.status_code == 400
    assert not [r for r in caplog.records if r.exc_info]
