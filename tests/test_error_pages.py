"""Production error pages (issue 9, item 6): with ``DEBUG=0`` a missing page, a crash, a bad request and
an expired form show the site's own styled pages, never Django's debug pages; under ``/api/`` they are
the JSON error body of CONTRACT §1."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def production(settings):
    settings.DEBUG = False


@pytest.fixture
def signed_in(db) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(get_user_model().objects.create_user("alice", password="pw-pages-1"))
    return client


def assert_styled(response, status: int) -> str:
    assert response.status_code == status
    page = response.content.decode()
    assert f'data-error-page="{status}"' in page and "chat.css" in page  # the site's own page and stylesheet
    for leak in ("URLconf", "Traceback", "django.", "DEBUG = True", "urlpatterns", "api/"):
        assert leak not in page, leak
    return page


def test_a_missing_page_is_the_styled_404_without_the_url_patterns(production, signed_in):
    page = assert_styled(signed_in.get("/no/such/page/"), 404)
    assert "This page does not exist" in page


def test_another_users_or_a_missing_conversation_is_the_styled_404(production, signed_in):
    assert_styled(signed_in.get("/c/cnv_MISSING/"), 404)


def test_a_crash_is_the_styled_500(production, signed_in, monkeypatch):
    def broken(request, conversation_id):
        raise RuntimeError("boom")

    monkeypatch.setattr("conversations.views._chat", broken)
    page = assert_styled(signed_in.get("/"), 500)
    assert "Something went wrong on our side" in page and "boom" not in page


def test_a_bad_request_is_the_styled_400(production, signed_in):
    assert_styled(signed_in.get("/c/%00/"), 400)


def test_a_sign_in_form_without_its_csrf_token_is_the_styled_403(production):
    client = Client(enforce_csrf_checks=True)
    page = assert_styled(client.post("/login/", {"username": "alice", "password": "x"}), 403)
    assert "That form has expired" in page


def test_under_api_a_missing_path_or_a_crash_is_the_json_error_body(production, signed_in, monkeypatch):
    missing = signed_in.get("/api/no/such/endpoint")
    assert missing.status_code == 404 and missing.json() == {"code": "not_found", "message": "Not found."}
    from turnframe_web import views

    crashed = views.server_error(signed_in.get("/api/health").wsgi_request)
    assert crashed.status_code == 500 and b'"code": "internal_error"' in crashed.content


def test_with_debug_on_make_run_keeps_djangos_helpful_404(settings, signed_in):
    settings.DEBUG = True
    response = signed_in.get("/no/such/page/")
    assert response.status_code == 404 and "URLconf" in response.content.decode()
