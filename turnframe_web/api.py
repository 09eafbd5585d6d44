"""The one NinjaAPI. Every error leaves as ``{"code", "message"}`` (CONTRACT §1), never a 500 page."""

from __future__ import annotations

import logging

from django.core.exceptions import RequestDataTooBig
from django.db import DataError
from django.http import Http404
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from conversations.api import router as conversations_router
from conversations.auth import api_auth
from registries.api import router as registries_router

from .errors import AppError
from .pagination import next_page_link

log = logging.getLogger(__name__)


class TurnframeAPI(NinjaAPI):
    def create_response(self, request, data, *args, **kwargs):
        response = super().create_response(request, data, *args, **kwargs)
        next_page_link(request, response)  # a paged list with more after it says where (turnframe_web.pagination)
        return response


api = TurnframeAPI(title="Turnframe web", version="1", description="Conversational case work: the model proposes, "
               "deterministic code decides, committed events decide what the reply may claim.")
api.add_router("/", conversations_router)
api.add_router("/registries", registries_router, auth=api_auth)


def _error(request, status: int, code: str, message: str, **extra):
    return api.create_response(request, {"code": code, "message": message, **extra}, status=status)


@api.exception_handler(AppError)
def app_error(request, exc: AppError):
    return _error(request, exc.status, exc.code, exc.message, **exc.extra)


def _a_validator(part) -> bool:
    """A step of pydantic's path that names a validator ("function-after[…]"), not a place in the request."""
    return isinstance(part, str) and part.startswith(("function-", "function_"))


@api.exception_handler(ValidationError)
def validation_error(request, exc: ValidationError):
    errors = [{"loc": [str(p) for p in e.get("loc", []) if not _a_validator(p)], "msg": e.get("msg", ""),
               "type": e.get("type", "")} for e in exc.errors]
    return _error(request, 422, "invalid_request", "The request does not match the schema.", errors=errors)


@api.exception_handler(AuthenticationError)
def not_authenticated(request, exc):
    return _error(request, 401, "not_authenticated", "Sign in, or send a bearer token.")


@api.exception_handler(HttpError)
def http_error(request, exc: HttpError):
    if exc.status_code == 400:
        return _error(request, 400, "bad_json", "The request body is not valid JSON.")
    if exc.status_code == 403:
        return _error(request, 403, "csrf_failed", "CSRF check failed: send the X-CSRFToken header.")
    return _error(request, exc.status_code, "http_error", str(exc))


@api.exception_handler(Http404)
def not_found(request, exc):
    return _error(request, 404, "not_found", "Not found.")


@api.exception_handler(RequestDataTooBig)
def too_big(request, exc):
    return _error(request, 413, "payload_too_large", "The request body is too large.")


@api.exception_handler(DataError)
@api.exception_handler(UnicodeEncodeError)
def unstorable_value(request, exc: Exception):
    # a value the database cannot hold (a NUL character on PostgreSQL, a lone surrogate anywhere):
    # bad input, refused before anything was kept (the failing statement rolled its transaction back)
    log.warning("unstorable value on %s: %s", request.path, exc)
    return _error(request, 422, "invalid_request", "The request contains a value that cannot be stored.",
                  errors=[{"loc": [], "msg": "unstorable value (e.g. a NUL character)", "type": "data_error"}])


@api.exception_handler(Exception)
def unexpected(request, exc):
    log.exception("unexpected error on %s", request.path)
    return _error(request, 500, "internal_error", "Something went wrong on our side; nothing partial was kept.")
