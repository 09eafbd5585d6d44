"""Sign-in limits (issue 9, item 1): failed sign-ins are counted per account and per client address
on all four ways in (``/api/auth/login``, ``/api/auth/token``, ``/login/``, ``/admin/login/``); at the
limit the account and the address are locked for a while, answered 429 ``rate_limited`` with
``Retry-After`` (the API) or a clear page (the HTML sign-in), and even the right password waits.
"""

from __future__ import annotations

import json
import threading
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.db import connection
from django.test import Client
from django.utils import timezone

from conversations.auth import client_address
from conversations.services import demo_seed

pytestmark = pytest.mark.django_db
PASSWORD = "pw-limits-1"
LIMIT = 5  # TURNFRAME_LOGIN_FAILURE_LIMIT's default
API_WAYS_IN = ["/api/auth/login", "/api/auth/token"]
PAGE_WAYS_IN = ["/login/", "/admin/login/"]


@pytest.fixture
def demo(db, settings):
    assert settings.AXES_ENABLED and settings.AXES_FAILURE_LIMIT == LIMIT
    demo_seed(password=PASSWORD)


def sign_in(path: str, username: str, password: str, *, address: str = "127.0.0.1"):
    client = Client(REMOTE_ADDR=address)
    if path.startswith("/api/"):
        return client.post(path, json.dumps({"username": username, "password": password}),
                           content_type="application/json")
    return client.post(path, {"username": username, "password": password, "next": "/"})


def succeeded(path: str, response) -> bool:
    return response.status_code == (200 if path.startswith("/api/") else 302)


def assert_rate_limited(path: str, response) -> None:
    assert response.status_code == 429, (path, response.status_code, response.content[:300])
    assert 1 <= int(response["Retry-After"]) <= 15 * 60
    if path.startswith("/api/"):
        body = response.json()
        assert body["code"] == "rate_limited" and "Try again in 15 minutes" in body["message"]
        assert body["retry_after"] == int(response["Retry-After"])
    else:
        assert b"data-login-locked" in response.content and b"try again in 15 minutes" in response.content


@pytest.mark.parametrize("path", API_WAYS_IN + PAGE_WAYS_IN)
def test_repeated_wrong_passwords_lock_the_account_and_the_right_one_waits(demo, path):
    for _ in range(LIMIT - 1):
        assert sign_in(path, "admin", "wrong").status_code in (200, 401)
    assert_rate_limited(path, sign_in(path, "admin", "wrong"))
    assert_rate_limited(path, sign_in(path, "admin", PASSWORD))


@pytest.mark.parametrize("path", API_WAYS_IN + PAGE_WAYS_IN)
def test_guessing_one_account_from_many_addresses_locks_the_account(demo, path):
    for i in range(LIMIT):
        sign_in(path, "admin", f"guess-{i}", address=f"10.0.0.{i + 1}")
    assert_rate_limited(path, sign_in(path, "admin", PASSWORD, address="10.9.9.9"))
    if path != "/admin/login/":  # another account from that fresh address is not locked
        assert succeeded(path, sign_in(path, "alice", PASSWORD, address="10.9.9.9"))


def test_guessing_many_accounts_from_one_address_locks_the_address(demo):
    for name in ("alice", "bob", "carol", "dave", "erin"):
        sign_in("/api/auth/login", name, "wrong", address="192.0.2.7")
    assert_rate_limited("/api/auth/login", sign_in("/api/auth/login", "alice", PASSWORD, address="192.0.2.7"))
    assert_rate_limited("/login/", sign_in("/login/", "bob", PASSWORD, address="192.0.2.7"))
    # the same accounts from another address: each had one failure only
    assert sign_in("/api/auth/login", "alice", PASSWORD, address="192.0.2.8").status_code == 200


def test_the_four_ways_in_share_one_count(demo):
    for path in API_WAYS_IN + PAGE_WAYS_IN:
        sign_in(path, "alice", "wrong")
    assert_rate_limited("/api/auth/token", sign_in("/api/auth/token", "alice", "wrong"))


def test_a_successful_sign_in_does_not_wipe_the_count_of_the_address(demo):
    """Otherwise an attacker with an account of their own could sign in between guesses, unlimited."""
    for name in ("bob", "carol", "dave", "erin"):
        sign_in("/api/auth/login", name, "wrong")
    assert sign_in("/api/auth/login", "alice", PASSWORD).status_code == 200
    assert_rate_limited("/api/auth/login", sign_in("/api/auth/login", "bob", "wrong"))


def test_the_lock_lifts_after_the_lockout_time(demo):
    for _ in range(LIMIT):
        sign_in("/api/auth/login", "alice", "wrong")
    assert sign_in("/api/auth/login", "alice", PASSWORD).status_code == 429
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert sign_in("/api/auth/login", "alice", PASSWORD).status_code == 200


def test_the_limit_and_the_lockout_time_follow_the_settings(demo, settings):
    settings.AXES_FAILURE_LIMIT = 2
    settings.AXES_COOLOFF_TIME = timedelta(seconds=90)
    sign_in("/api/auth/login", "alice", "wrong")
    response = sign_in("/api/auth/login", "alice", "wrong")
    assert response.status_code == 429 and response["Retry-After"] == "90"
    assert "Try again in 2 minutes" in response.json()["message"]


def test_a_limit_of_zero_turns_the_limits_off(demo, settings):
    settings.AXES_ENABLED = False
    for _ in range(LIMIT * 3):
        assert sign_in("/api/auth/login", "alice", "wrong").status_code == 401
    assert sign_in("/api/auth/login", "alice", PASSWORD).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_concurrent_guessing_ends_locked(transactional_db, settings):
    demo_seed(password=PASSWORD)
    statuses: list[int] = []

    def guess(i: int) -> None:
        try:
            statuses.append(sign_in("/api/auth/token", "alice", f"guess-{i}", address=f"203.0.113.{i}").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(3 * LIMIT)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert statuses.count(429) >= LIMIT, statuses
    assert sign_in("/api/auth/token", "alice", PASSWORD, address="198.51.100.1").status_code == 429


def test_the_client_address_behind_trusted_proxies_is_the_one_the_outermost_proxy_saw(rf, settings):
    request = rf.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.9")
    settings.TRUSTED_PROXY_COUNT = 0
    assert client_address(request) == "10.0.0.2"  # no proxy trusted: the header is the client's to forge
    settings.TRUSTED_PROXY_COUNT = 1
    assert client_address(request) == "198.51.100.9"  # not the forged left-most entry
