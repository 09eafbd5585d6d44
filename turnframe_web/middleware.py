"""Project middleware: the HTTP edge's own checks, before any view or query runs."""

from __future__ import annotations

import logging

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, HttpResponse
from django.utils.decorators import sync_and_async_middleware
from django.views.defaults import bad_request

from conversations.core.text import unstorable_reason

from .errors import error_json, is_api_request

log = logging.getLogger(__name__)


def _unstorable_url_parts(request: HttpRequest) -> list[dict[str, object]]:
    """The path and query values that no database stores alike (``core.text``): each would reach a
    lookup (``/c/<id>/``, ``/api/cases/<id>``, ``?case=``) and crash it on PostgreSQL."""
    errors = []
    reason = unstorable_reason(request.path_info)
    if reason:
        errors.append({"loc": ["path"], "msg": reason, "type": "unstorable_text"})
    for key, values in request.GET.lists():
        reason = next(filter(None, map(unstorable_reason, (key, *values))), None)
        if reason:
            loc = ["query", key] if unstorable_reason(key) is None else ["query"]
            errors.append({"loc": loc, "msg": reason, "type": "unstorable_text"})
    return errors


def _refusal(request: HttpRequest) -> HttpResponse | None:
    errors = _unstorable_url_parts(request)
    if not errors:
        return None
    log.info("refused a request whose URL holds unstorable text (%s)", ", ".join(e["msg"] for e in errors))
    if is_api_request(request):  # the API's error shape (CONTRACT §1)
        return error_json(422, "invalid_request", "The URL contains text that cannot be stored.", errors=errors)
    return bad_request(request, exception=None)  # templates/400.html


@sync_and_async_middleware
def refuse_unstorable_urls(get_response):
    """Answer 400 (the API: 422 ``invalid_request``) to a URL carrying a NUL or a lone surrogate."""
    if iscoroutinefunction(get_response):
        async def middleware(request: HttpRequest) -> HttpResponse:
            return _refusal(request) or await get_response(request)
    else:
        def middleware(request: HttpRequest) -> HttpResponse:
            return _refusal(request) or get_response(request)
    return middleware
