"""The session engine (``SESSION_ENGINE``): Django's database sessions, in the same table, read by statements of the
store (written once, not built per request), and a request's user read with its session (issue 23).

A browser request signed in by its session read the session row (``SessionStore.load``), then the user it names
(``ModelBackend.get_user``): two statements, each a queryset built anew. Once this process has seen a session
name its user, the next request of that session reads the row and the user in one statement
(``store.user_with_session``); the user is taken only when the row, read in that statement, still names them
(``request_user``), and is then judged exactly as ``django.contrib.auth.get_user`` judges it (the backend's
``user_can_authenticate``, the session auth hash, the fallback secrets). What a process remembers is which user a
session key named, never whether it is signed in: a session signed out, expired or signed in again as another
user is read as it is now.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import auth
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model, load_backend
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.db import SessionStore as DbSessionStore
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject

from . import store

_NAMED: dict[str, Any] = {}  # session key -> the user id its data named when this process last read it
_NAMED_AT_MOST = 50_000


_DECODED: dict[tuple[str, str, tuple[str, ...]], dict[str, Any]] = {}  # (data, key, fallbacks) -> flat session data
_DECODED_AT_MOST = 10_000
_FLAT = (str, int, float, bool, type(None))


class SessionStore(DbSessionStore):
    """Database sessions; ``user_read``: the user the session names, read in the same statement (None: not read)."""

    user_read: Any = None

    def decode(self, session_data: str) -> dict[str, Any]:
        """Django's, once per session data and signing keys in this process: the signed data is checked and decoded
        the first time, and a copy of what it held is given each later time (a browser's requests and every frame of
        its socket read the same data: the signature's check, base64 and JSON were about a tenth of the click's own
        request handling, issue 23, fifth round). Only data that decoded and holds plain values (strings, numbers)
        is kept, so a copy is as fresh as a decoding; anything else, a bad signature included, is decoded each time
        as before (and logged each time)."""
        key = (session_data, settings.SECRET_KEY, tuple(settings.SECRET_KEY_FALLBACKS))
        found = _DECODED.get(key)
        if found is not None:
            return dict(found)
        data = super().decode(session_data)
        if data and all(type(value) in _FLAT for value in data.values()):
            if len(_DECODED) >= _DECODED_AT_MOST:
                _DECODED.clear()
            _DECODED[key] = dict(data)
        return data

    def _get_session_from_db(self):
        row = store.session_row(self.model, self.session_key, timezone.now())
        if row is None:
            self._session_key = None  # (as Django's: a session saved from here gets a new key)
        return row

    def load(self) -> dict[str, Any]:
        key = self.session_key
        named = _NAMED.get(key) if key else None
        if named is not None:
            user = store.user_with_session(named, self.model, key, timezone.now())
            if user is not None:  # (a user gone: the session is read alone below)
                if user.session_data is None:  # no such session, or expired: as Django's load finds it
                    self._session_key = None
                    return {}
                data = self.decode(user.session_data)
                del user.session_data
                self.user_read = user
                _remember(key, data)
                return data
        data = super().load()
        _remember(key, data)
        return data


def _remember(key: str | None, data: dict[str, Any]) -> None:
    """Which user the session ``key`` names, for its next read (a hint: ``request_user`` checks it)."""
    if not key or SESSION_KEY not in data:
        return
    try:
        named = get_user_model()._meta.pk.to_python(data[SESSION_KEY])
    except Exception:  # (not a user id: judged by get_user as before)
        return
    if _NAMED.get(key) != named:
        if len(_NAMED) >= _NAMED_AT_MOST:
            _NAMED.clear()
        _NAMED[key] = named


def request_user(request):
    """``django.contrib.auth.get_user``, taking the user the session was read with (``SessionStore.user_read``)
    in place of ``ModelBackend.get_user``'s read when it is the user the session names; otherwise the same."""
    user = None
    try:
        user_id = auth._get_user_session_key(request)
        backend_path = request.session[BACKEND_SESSION_KEY]
    except KeyError:
        pass
    else:
        if backend_path in settings.AUTHENTICATION_BACKENDS:
            backend = load_backend(backend_path)
            read = getattr(request.session, "user_read", None)
            if read is not None and read.pk == user_id and type(backend).get_user is ModelBackend.get_user:
                user = read if backend.user_can_authenticate(read) else None  # what ModelBackend.get_user decides
            else:
                user = backend.get_user(user_id)
            # Verify the session (as django.contrib.auth.get_user)
            if hasattr(user, "get_session_auth_hash"):
                session_hash = request.session.get(HASH_SESSION_KEY)
                if not session_hash:
                    session_hash_verified = False
                else:
                    session_auth_hash = user.get_session_auth_hash()
                    session_hash_verified = constant_time_compare(session_hash, session_auth_hash)
                if not session_hash_verified:
                    if session_hash and any(constant_time_compare(session_hash, fallback_auth_hash)
                                            for fallback_auth_hash in user.get_session_auth_fallback_hash()):
                        request.session.cycle_key()
                        request.session[HASH_SESSION_KEY] = session_auth_hash
                    else:
                        request.session.flush()
                        user = None
    return user or AnonymousUser()


class SessionAuthenticationMiddleware(AuthenticationMiddleware):
    """Django's ``AuthenticationMiddleware`` with ``request_user`` for ``request.user`` (``request.auser`` as
    Django's)."""

    def process_request(self, request) -> None:
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: _cached_user(request))


def _cached_user(request):
    if not hasattr(request, "_cached_user"):
        request._cached_user = request_user(request)
    return request._cached_user
