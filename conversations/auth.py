"""API authentication: the Django session (browser, CSRF enforced) or a bearer token (API clients);
the socket's credential and whether it still holds (sign-out ends the socket: ``conversations.signout``);
the sign-in limits' answer (django-axes calls ``lockout_response`` and ``client_address``)."""

from __future__ import annotations

import hashlib
import math
import secrets
from dataclasses import dataclass
from datetime import timedelta
from importlib import import_module

from axes.helpers import get_cool_off
from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model, load_backend
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.db import SessionStore as DbSessionStore
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.shortcuts import render
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from ninja.security import HttpBearer, SessionAuth

from turnframe_web.errors import AppError, error_json, is_api_request

from . import store
from .models import ApiToken
from .sessions import SessionStore
from .signout import sockets_recheck


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


USE_STAMP_EVERY = timedelta(minutes=1)  # last_used_at is kept to the minute: not a write on every request


def token_authenticate(token: str) -> ApiToken | None:
    """The live token ``token`` names (its ``user`` loaded), stamped as used; None when it names none."""
    now = timezone.now()
    row = store.live_token(_hash(token), now)  # every API request asks: the store's, not built per request
    if row is None:
        return None
    if row.last_used_at is None or now - row.last_used_at >= USE_STAMP_EVERY:
        store.token_used(row.pk, now)
        row.last_used_at = now
    return row


class BearerAuth(HttpBearer):
    def authenticate(self, request, token: str):
        row = token_authenticate(token)
        if row is None:
            return None
        request.user = row.user
        request.api_token = row  # what ``DELETE /api/auth/token`` revokes
        return row.user


def token_create(*, user) -> tuple[str, ApiToken]:
    """Issue a new bearer token; only its hash is stored, so it is shown once. It expires after
    ``TURNFRAME_TOKEN_TTL_DAYS`` (0: never)."""
    token = "tf_" + secrets.token_urlsafe(32)
    days = settings.TURNFRAME["TOKEN_TTL_DAYS"]
    expires_at = timezone.now() + timedelta(days=days) if days > 0 else None
    row = ApiToken.objects.create(user=user, key_hash=_hash(token), prefix=token[:10], expires_at=expires_at)
    return token, row


def token_revoke(*, tokens: QuerySet[ApiToken], because: str) -> int:
    """Revoke the live tokens among ``tokens`` (the rows stay, for the admin); how many were live. The
    sockets of their owners re-check their credential once this commits (a socket on a revoked token
    closes with 4401)."""
    live = tokens.filter(revoked_at__isnull=True)
    owners = set(live.values_list("user_id", flat=True))
    revoked = live.update(revoked_at=timezone.now(), revoked_because=because)
    if revoked:
        sockets_recheck(user_ids=owners)
    return revoked


class RevokeTokensOnPasswordChange:
    """Revoke every token of an account whose password changed, however it changed (the password
    change page, the admin, ``changepassword``, ``set_password`` and ``save``).

    Django calls ``password_changed`` of each ``AUTH_PASSWORD_VALIDATORS`` entry after a user with a
    new password is saved, and not when it only re-hashes the same password on sign-in; it validates
    nothing."""

    def validate(self, password, user=None) -> None:
        return None

    def password_changed(self, password, user=None) -> None:
        if user is not None and user.pk is not None:
            token_revoke(tokens=ApiToken.objects.filter(user=user), because=ApiToken.Revoked.PASSWORD_CHANGED)
            # the account's sessions no longer verify (Django's session auth hash): their sockets close
            sockets_recheck(user_ids=[user.pk])

    def get_help_text(self) -> str:
        return "Changing the password revokes every API token of the account and closes its open sockets."


# --------------------------------------------------------------------------- the socket's credential


@dataclass(frozen=True, slots=True)
class SocketCredential:
    """What a socket authenticated with at its handshake: a bearer token (its hash) or a session (its
    key). The socket runs a frame only while this still holds (``credential_live``)."""

    user_id: int
    session_key: str | None = None
    token_hash: str | None = None


def socket_credential(scope, user) -> SocketCredential:
    token = scope.get("api_token")
    if token is not None:
        return SocketCredential(user_id=user.pk, token_hash=token.key_hash)
    session = scope.get("session")
    return SocketCredential(user_id=user.pk, session_key=getattr(session, "session_key", None) or None)


def credential_live(credential: SocketCredential) -> bool:
    """Whether the socket's credential still signs in its user, read from the database now.

    A token: still live (not revoked, not expired, its user active), the statement every API request
    runs. A session: still stored and unexpired, naming this user through a backend that still returns
    them (an inactive user is refused), with a session auth hash that still verifies (a password change
    invalidates it): ``django.contrib.auth.get_user``'s rules, without its side effects (it would flush
    or re-key the browser's session from a socket that cannot set a cookie)."""
    if credential.token_hash is not None:
        row = store.live_token(credential.token_hash, timezone.now())
        return row is not None and row.user_id == credential.user_id
    if not credential.session_key:
        return False
    session_store = import_module(settings.SESSION_ENGINE).SessionStore(credential.session_key)
    database = type(session_store).load in (DbSessionStore.load, SessionStore.load)  # (the table: one statement)
    user = _session_with_user(session_store, credential) if database else None
    if user is None:
        data = session_store.load()  # {} when gone
    else:  # read in one statement with the user it should name
        data = session_store.decode(user.session_data) if user.session_data is not None else {}
    try:
        user_id = get_user_model()._meta.pk.to_python(data[SESSION_KEY])
        backend_path = data[BACKEND_SESSION_KEY]
    except (KeyError, ValidationError):
        return False
    if user_id != credential.user_id or backend_path not in settings.AUTHENTICATION_BACKENDS:
        return False
    backend = load_backend(backend_path)
    if user is not None and type(backend).get_user is ModelBackend.get_user:
        user = user if backend.user_can_authenticate(user) else None  # what ModelBackend.get_user decides
    else:
        user = backend.get_user(user_id) if hasattr(backend, "get_user") else None
    if user is None:
        return False
    if not hasattr(user, "get_session_auth_hash"):
        return True
    stored = data.get(HASH_SESSION_KEY) or ""
    hashes = [user.get_session_auth_hash()]
    hashes += [user._get_session_auth_hash(secret=secret) for secret in settings.SECRET_KEY_FALLBACKS]
    return bool(stored) and any(constant_time_compare(stored, h) for h in hashes)


def _session_with_user(session_store: DbSessionStore, credential: SocketCredential):
    """The socket's user with ``session_data``: its session row's data while the row is stored and unexpired,
    else None; one statement where ``SessionStore.load`` and ``ModelBackend.get_user`` make two (the store's,
    written once). None when the user is gone (then the session is read alone and judged as before)."""
    return store.user_with_session(credential.user_id, session_store.model, credential.session_key, timezone.now())


class BearerSocketAuthMiddleware(BaseMiddleware):
    """A socket handshake carrying ``Authorization: Bearer <token>`` (API clients; a browser cannot set it)
    is signed in by that token, not by any session cookie beside it; a token that is not live signs in
    no one (the consumer closes 4401). Without the header the session (``AuthMiddlewareStack``) decides."""

    async def __call__(self, scope, receive, send):
        header = next((v for k, v in scope.get("headers", ()) if k.lower() == b"authorization"), None)
        if header is not None:
            scheme, _, token = header.decode("latin-1").partition(" ")
            token = token.strip()
            row = None
            if scheme.lower() == "bearer" and token:
                row = await database_sync_to_async(token_authenticate)(token)
            scope = {**scope, "user": row.user if row is not None else AnonymousUser(), "api_token": row}
        return await super().__call__(scope, receive, send)


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
    if "HTTP_ORIGIN" in request.META:
        foreign = not CsrfViewMiddleware(lambda r: None)._origin_verified(request)
    else:  # browsers send Origin on every POST; one that did not still says where the request came from
        foreign = request.headers.get("Sec-Fetch-Site") == "cross-site"
    if foreign:
        raise AppError("Signing in from another site is refused: the request's Origin is not this site.",
                       code="csrf_failed", status=403)
    if request.content_type != "application/json":
        raise AppError("Send the credentials as JSON (Content-Type: application/json).",
                       code="unsupported_media_type", status=415)


# --------------------------------------------------------------------------- sign-in limits (django-axes)


def client_address(request) -> str | None:
    """The client's address for the per-address limit: ``REMOTE_ADDR``, or behind
    ``TURNFRAME_TRUSTED_PROXY_COUNT`` proxies the address the outermost of them saw (``X-Forwarded-For``
    from the right, so a client cannot pick its own address by sending the header)."""
    proxies = settings.TRUSTED_PROXY_COUNT
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()]
    if proxies > 0 and len(forwarded) >= proxies:
        return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR")


def lockout_response(request, original_response=None, credentials=None) -> HttpResponse:
    """429 for a sign-in refused by the limits: the API's ``rate_limited`` body (CONTRACT §1), the sign-in
    pages' own message; both with ``Retry-After``. The refused attempt has just restarted the lockout,
    so the whole lockout time is how long to wait."""
    cool_off = get_cool_off(request)
    seconds = max(1, math.ceil(cool_off.total_seconds())) if cool_off else 3600
    minutes = max(1, math.ceil(seconds / 60))
    wait = f"{minutes} minute{'s' if minutes != 1 else ''}"
    if is_api_request(request):
        response = error_json(429, "rate_limited", f"Too many failed sign-ins for this account or from this "
                              f"address. Try again in {wait}.", retry_after=seconds)
    else:
        response = render(request, "registration/locked_out.html", {"wait": wait}, status=429)
    response["Retry-After"] = str(seconds)
    return response
