"""A browser request reads its session and the user it names in one statement once the process knows which user the
session named (``conversations.sessions``, issue 23), and is judged as ``django.contrib.auth.get_user`` judges it:
a session signed out, expired, of a deactivated user, with a stale password hash, or one this process remembers
under another user, does not sign the request in as that user."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from conversations import sessions

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser():
    user = get_user_model().objects.create_user("erin", password="session-test-password")
    client = Client()
    client.force_login(user)
    return user, client


def signed_in_as(client: Client):
    """Who ``GET /api/conversations`` is served for (None: nobody), and the statements reading session and user."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/conversations")
    reads = [q["sql"] for q in queries if "django_session" in q["sql"] or "auth_user" in q["sql"]]
    return (response.wsgi_request.user.pk if response.status_code == 200 else None), reads


def test_a_session_seen_before_is_read_with_its_user_in_one_statement(browser):
    user, client = browser
    sessions._NAMED.clear()
    who, first = signed_in_as(client)
    assert who == user.pk and len(first) == 2  # the row, then the user it names
    who, again = signed_in_as(client)
    assert who == user.pk and len(again) == 1


def test_what_ends_a_session_signs_the_next_request_out(browser):
    user, client = browser
    signed_in_as(client)
    user.is_active = False
    user.save()
    assert signed_in_as(client)[0] is None
    user.is_active = True
    user.save()
    client.force_login(user)
    signed_in_as(client)
    user.set_password("another-password-entirely")
    user.save()
    assert signed_in_as(client)[0] is None


def test_an_expired_or_deleted_session_signs_in_no_one(browser):
    user, client = browser
    signed_in_as(client)
    key = client.cookies["sessionid"].value
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(1))
    assert signed_in_as(client)[0] is None
    client.force_login(user)
    signed_in_as(client)
    Session.objects.filter(session_key=client.cookies["sessionid"].value).delete()
    assert signed_in_as(client)[0] is None


def test_a_session_remembered_under_another_user_is_read_as_it_is(browser):
    user, client = browser
    other = get_user_model().objects.create_user("frank", password="session-test-password")
    sessions._NAMED[client.cookies["sessionid"].value] = other.pk  # as if the key had named frank
    assert signed_in_as(client)[0] == user.pk
