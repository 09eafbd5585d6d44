"""The socket's per-frame credential check reads a session and its user in one statement (issue 23), and judges
them as ``django.contrib.auth.get_user`` would: gone, expired, another user's, inactive, or with a stale
password hash, it does not hold."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from conversations.auth import SocketCredential, credential_live

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed_in():
    user = get_user_model().objects.create_user("carol", password="credential-test-password")
    browser = Client()
    browser.force_login(user)
    return user, SocketCredential(user_id=user.pk, session_key=browser.cookies["sessionid"].value)


def test_a_live_session_is_one_statement(signed_in):
    _, credential = signed_in
    with CaptureQueriesContext(connection) as queries:
        assert credential_live(credential)
    assert len(queries) == 1


def test_what_ends_a_session_ends_the_credential(signed_in):
    user, credential = signed_in
    other = get_user_model().objects.create_user("dave", password="credential-test-password")
    assert not credential_live(SocketCredential(user_id=other.pk, session_key=credential.session_key))
    user.is_active = False
    user.save()
    assert not credential_live(credential)
    user.is_active = True
    user.set_password("a-new-password-entirely")
    user.save()
    assert not credential_live(credential)


def test_an_expired_or_deleted_session_does_not_hold(signed_in):
    _, credential = signed_in
    Session.objects.filter(session_key=credential.session_key).update(expire_date=timezone.now() - timedelta(1))
    assert not credential_live(credential)
    Session.objects.filter(session_key=credential.session_key).delete()
    assert not credential_live(credential)
