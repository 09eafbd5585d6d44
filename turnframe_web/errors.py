"""The one application error type, mapped once to the ``{"code","message"}`` body (CONTRACT §1); and
that body for the answers given outside the NinjaAPI (middleware, the 404/500 handlers, lockouts)."""

from __future__ import annotations

from django.http import JsonResponse


def is_api_request(request) -> bool:
    """Under ``/api/``: answered with the JSON error body, never an HTML page."""
    return request.path_info.startswith("/api/")


def error_json(status: int, code: str, message: str, **extra) -> JsonResponse:
    return JsonResponse({"code": code, "message": message, **extra}, status=status)


class AppError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str = "", *, code: str | None = None, status: int | None = None, **extra):
        super().__init__(message or self.code)
        self.message = message or self.code.replace("_", " ")
        if code:
            self.code = code
        if status:
            self.status = status
        self.extra = extra


class NotFound(AppError):
    status, code = 404, "not_found"


class Conflict(AppError):
    status, code = 409, "conflict"


class Invalid(AppError):
    status, code = 422, "invalid_request"


class NotAuthenticated(AppError):
    status, code = 401, "not_authenticated"
