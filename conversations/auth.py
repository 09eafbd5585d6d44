"""API authentication: the Django session (browser, CSRF enforced) or a bearer token (API clients)."""

from __future__ import annotations

import hashlib
import secrets

from django.middleware.csrf import CsrfViewMiddleware
from django.utils import timezone
from ninja.security import HttpBearer, SessionAuth

from turnframe_web.errors import AppError

from .models import ApiToken


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class BearerAuth(HttpBearer):
    def authenticate(self, request, token: str):
        row = ApiToken.objects.select_related("user").filter(key_hash=_hash(token), user__is_active=True).first()
        if row is None:
            return None
        ApiToken.objects.filter(pk=row.pk).update(last_used_at=timezone.now())
        request.user = row.user
        return row.user


def token_create(*, user) -> str:
    """Issue a new bearer token; only its hash is stored, so it is shown once."""
    token = "tf_" + secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, key_hash=_hash(token), prefix=token[:10])
    return token


class SessionCsrfAuth(SessionAuth):
    """The Django session; its unsafe requests must carry ``X-CSRFToken`` (403 ``csrf_failed`` otherwise).

    A request with no signed-in session is not judged on CSRF at all: it is simply not
    authenticated (401 ``not_authenticated``), also when it carried a wrong bearer token.
    """

    def __call__(self, request):
        if not request.user.is_authenticated:
            return None
        return super().__call__(request)


# bearer first: an API client with a token never needs a CSRF header; a browser session does
api_auth = [BearerAuth(), SessionCsrfAuth(csrf=True)]


def session_login_check(request) -> None:
    """Refuse a session sign-in a browser could have been made to send from another site (login CSRF).

    ``POST /api/auth/login`` sets a session cookie, so a cross-site form posting the attacker's
    credentials would sign the victim's browser into the attacker's account. Like Django's own login
    view, a request that names its ``Origin`` must name this site (or one of ``CSRF_TRUSTED_ORIGINS``),
    judged by Django's CSRF middleware; and only ``application/json`` is read, a type no cross-site
    form can send and no cross-site script can send without a CORS preflight, which this server never
    grants. Clients that are not browsers send no Origin and hold no ambient cookie: they are unaffected.
    """
    if request.headers.get("Sec-Fetch-Site") == "cross-site" or (
            "HTTP_ORIGIN" in request.META and not CsrfViewMiddleware(lambda r: None)._origin_verified(request)):
        raise AppError("Signing in from another site is refused: the request's Origin is not this site.",
                       code="csrf_failed", status=403)
    if request.content_type != "application/json":
        raise AppError("Send the credentials as JSON (Content-Type: application/json).",
                       code="unsupported_media_type", status=415)
