"""The project's 404 and 500 answers (``handler404`` / ``handler500``, used when ``DEBUG=0``): the API's
JSON error body under ``/api/`` (CONTRACT §1), the styled pages (``templates/404.html``, ``500.html``)
everywhere else."""

from __future__ import annotations

from django.views import defaults

from .errors import error_json, is_api_request


def not_found(request, exception=None):
    if is_api_request(request):
        return error_json(404, "not_found", "Not found.")
    return defaults.page_not_found(request, exception)


def server_error(request):
    if is_api_request(request):
        return error_json(500, "internal_error", "Something went wrong on our side; nothing partial was kept.")
    return defaults.server_error(request)
