"""Bearer tokens end (issue 9, item 9): revoked by their client (``DELETE /api/auth/token``), all at once,
on a password change however it happens, after ``TURNFRAME_TOKEN_TTL_DAYS``, and by staff in the admin.
"""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.contrib.admin.utils import quote
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from conversations.models import ApiToken
from conversations.services import demo_seed

pytestmark = pytest.mark.django_db
PASSWORD = "pw-tokens-1"


@pytest.fixture
def demo(db):
    demo_seed(password=PASSWORD)


def issue(username: str = "alice") -> str:
    response = Client().post("/api/auth/token", {"username": username, "password": PASSWORD},
                             content_type="application/json")
    assert response.status_code == 200, response.content
    return response.json()["token"]


def bearer(token: str) -> Client:
    return Client(enforce_csrf_checks=True, headers={"Authorization": f"Bearer {token}"})


def works(token: str) -> bool:
    return bearer(token).get("/api/conversations").status_code == 200


def test_delete_token_revokes_the_presented_token_and_no_other(demo):
    first, second = issue(), issue()
    response = bearer(first).delete("/api/auth/token")
    assert response.status_code == 200 and response.json() == {"revoked": 1}
    assert not works(first) and works(second)
    gone = bearer(first).delete("/api/auth/token")
    assert gone.status_code == 401 and gone.json()["code"] == "not_authenticated"
    row = ApiToken.objects.get(revoked_at__isnull=False)
    assert row.revoked_because == ApiToken.Revoked.BY_CLIENT  # the row stays, for the admin


def test_delete_token_with_all_revokes_every_token_of_the_account_only(demo):
    alices, bobs = [issue(), issue(), issue()], issue("bob")
    response = bearer(alices[0]).delete("/api/auth/token?all=true")
    assert response.status_code == 200 and response.json() == {"revoked": 3}
    assert not any(works(t) for t in alices) and works(bobs)


def test_a_signed_in_browser_revokes_all_its_tokens_with_the_csrf_header(demo):
    token = issue()
    browser = Client(enforce_csrf_checks=True)
    assert browser.post("/api/auth/login", {"username": "alice", "password": PASSWORD},
                        content_type="application/json").status_code == 200
    csrf = browser.cookies["csrftoken"].value
    assert browser.delete("/api/auth/token?all=true").json()["code"] == "csrf_failed"
    assert works(token)
    nothing_presented = browser.delete("/api/auth/token", headers={"X-CSRFToken": csrf})
    assert nothing_presented.status_code == 422 and nothing_presented.json()["code"] == "invalid_request"
    assert browser.delete("/api/auth/token?all=true", headers={"X-CSRFToken": csrf}).json() == {"revoked": 1}
    assert not works(token)


def test_changing_the_password_revokes_every_token_of_the_account(demo):
    alices, bobs = [issue(), issue()], issue("bob")
    alice = get_user_model().objects.get(username="alice")
    alice.set_password("a-new-password-1")
    alice.save()
    assert not any(works(t) for t in alices) and works(bobs)
    assert set(ApiToken.objects.filter(user=alice).values_list("revoked_because", flat=True)) == {"password_changed"}


def test_changing_the_password_on_djangos_own_page_or_command_revokes_tokens(demo, monkeypatch):
    token = issue()
    browser = Client()
    browser.force_login(get_user_model().objects.get(username="admin"))
    response = browser.post("/admin/password_change/", {"old_password": PASSWORD, "new_password1": "another-pw-22",
                                                        "new_password2": "another-pw-22"})
    assert response.status_code == 302
    assert works(token)  # admin's password changed, not alice's
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "changed-by-command-1")
    call_command("changepassword", "alice", stdout=io.StringIO())
    assert not works(token)


def test_a_rehash_of_the_same_password_on_sign_in_keeps_the_tokens(demo, settings):
    """Django re-hashes a password when the preferred hasher changes; that is no password change."""
    token = issue()
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher",
                                 "django.contrib.auth.hashers.MD5PasswordHasher"]
    issue()  # signs in with the MD5 hash: Django upgrades it to PBKDF2 and saves the user
    assert get_user_model().objects.get(username="alice").password.startswith("pbkdf2_")
    assert works(token)


def test_a_token_expires_after_the_configured_days(demo, settings):
    settings.TURNFRAME = {**settings.TURNFRAME, "TOKEN_TTL_DAYS": 2}
    response = Client().post("/api/auth/token", {"username": "alice", "password": PASSWORD},
                             content_type="application/json")
    token, expires_at = response.json()["token"], parse_datetime(response.json()["expires_at"])
    assert abs(expires_at - (timezone.now() + timedelta(days=2))) < timedelta(minutes=1)
    assert works(token)
    ApiToken.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert not works(token)


def test_a_ttl_of_zero_days_issues_tokens_that_never_expire(demo, settings):
    settings.TURNFRAME = {**settings.TURNFRAME, "TOKEN_TTL_DAYS": 0}
    response = Client().post("/api/auth/token", {"username": "alice", "password": PASSWORD},
                             content_type="application/json")
    assert response.json()["expires_at"] is None and ApiToken.objects.get().expires_at is None


def test_the_admin_lists_tokens_with_their_status_and_staff_revoke_them(demo):
    live, to_revoke = issue(), issue("bob")
    expired = issue()
    ApiToken.objects.filter(prefix=expired[:10]).update(expires_at=timezone.now() - timedelta(days=1))
    staff = Client()
    staff.force_login(get_user_model().objects.get(username="admin"))
    changelist = reverse("admin:conversations_apitoken_changelist")
    page = staff.get(changelist).content.decode()
    for column in ("status", "Last used at", "Expires at", "Revoked at"):
        assert column.lower() in page.lower()
    row = ApiToken.objects.get(prefix=to_revoke[:10])
    response = staff.post(changelist, {"action": "revoke", "_selected_action": [quote(str(row.pk))]})
    assert response.status_code == 302
    assert not works(to_revoke) and works(live)
    row.refresh_from_db()
    assert row.revoked_because == ApiToken.Revoked.BY_STAFF
    statuses = {r.prefix: r for r in staff.get(changelist + "?status=live").context["cl"].result_list}
    assert set(statuses) == {live[:10]}
    assert [r.prefix for r in staff.get(changelist + "?status=expired").context["cl"].result_list] == [expired[:10]]
    assert "revoked (revoked by staff)" in staff.get(changelist + "?status=revoked").content.decode()


def test_seeding_the_demo_again_keeps_the_demo_users_tokens(demo):
    token = issue()
    demo_seed(password=PASSWORD)
    assert works(token)
    demo_seed(password="a-different-demo-password")
    assert not works(token)


def test_a_token_is_stamped_when_used_to_the_minute_and_an_inactive_users_token_is_refused(demo):
    token = issue()
    row = ApiToken.objects.get(revoked_at__isnull=True, user__username="alice")
    assert bearer(token).get("/api/cases").status_code == 200
    first = ApiToken.objects.get(pk=row.pk).last_used_at
    assert first is not None
    assert bearer(token).get("/api/cases").status_code == 200
    assert ApiToken.objects.get(pk=row.pk).last_used_at == first  # within the minute: no write per request
    ApiToken.objects.filter(pk=row.pk).update(last_used_at=first - timedelta(minutes=2))
    assert bearer(token).get("/api/cases").status_code == 200
    assert ApiToken.objects.get(pk=row.pk).last_used_at > first
    get_user_model().objects.filter(username="alice").update(is_active=False)
    assert bearer(token).get("/api/cases").status_code == 401
