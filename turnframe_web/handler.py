"""HTTP under daphne: each request served whole on one thread of a bounded pool (issue 23).

Django's own ``ASGIHandler`` runs the middleware in its async mode: every ``MiddlewareMixin`` hands its
``process_request`` and ``process_response`` to ``sync_to_async`` (eight of ours: sixteen hops between
the event loop and a thread), the view is one more, the request's signals two more, and each request gets a
thread of its own that is started and stopped with it (``ThreadSensitiveContext``). On two cores that was
about half of what a message + click cost over HTTP beyond the turn itself.

Here the event loop reads the body, and one thread of ``HTTP_EXECUTOR`` does the rest as a WSGI server's
thread would: the ``request_started`` signal, the middleware in their sync mode, the view, the response's
``close`` (``request_finished``, which gives the database connection back). The loop then sends what the
thread built. The whole request is on one thread, so Django's per-thread database connection and
transactions behave as under WSGI; different requests run on different threads, at most
``TURNFRAME_HTTP_THREADS`` at once (more wait for a free one). The thread runs under asgiref's
``SyncToAsync`` (not thread-sensitive, this pool), so code in it that reaches the loop (``stream.publish``,
``async_to_sync``) finds daphne's, as from a sync view before. A streaming response (a static file) is
iterated on its thread and each part sent through the loop.

``twisted_access_line_off``: Twisted's ``HTTPFactory.log`` formats an access line for every request and writes
it to Twisted's log, which daphne sends nowhere (verbosity 0 and 1) or, at verbosity 2, beside its own access log
as a second copy of each line. Daphne's access log (its action logger, ``--access-log``) is the one people read;
the Twisted line was about 1 % of a message + click over HTTP (paired runs). Daphne's factory is given
a ``log`` that writes nothing.

``twisted_form_parsing_off``: daphne hands Django the body as it came; Twisted still parsed the Content-Type of
every POST with the ``email`` package (and would parse a form's whole body into ``request.args``, which daphne
never reads), a few per cent of the process's time per message + click. Twisted's ``Request`` takes
``parsePOSTFormSubmission=False`` for that; daphne's request class is given it.
"""

from __future__ import annotations

import functools
from contextlib import closing
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse, HttpResponseBase
from django.urls import set_script_prefix

from conversations import stream
from conversations.pool import LastIdleFirstPool

# the thread that served the last request serves the next one (its database connection warm: conversations.pool)
HTTP_EXECUTOR = LastIdleFirstPool(max_workers=max(1, settings.TURNFRAME["HTTP_THREADS"]),
                                  thread_name_prefix="turnframe-http")


class ThreadedASGIHandler(ASGIHandler):
    """Django's ASGI handler with its middleware and view on one pooled thread per request (module doc)."""

    def __init__(self) -> None:
        super(ASGIHandler, self).__init__()  # BaseHandler: no async middleware chain
        self.load_middleware(is_async=False)
        self._serve_on_pool = sync_to_async(self._serve, thread_sensitive=False, executor=HTTP_EXECUTOR)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        with closing(body_file):
            messages = await self._serve_on_pool(scope, body_file, send)
        for message in messages:
            await send(message)

    def _serve(self, scope, body_file, send) -> list[dict[str, Any]]:
        """The request on this thread, up to its response's close; the messages left for the loop to send. The
        events its turn publishes to this process's sockets are handed to the loop together (``stream.held``)."""
        with stream.held():
            return self._serve_held(scope, body_file, send)

    def _serve_held(self, scope, body_file, send) -> list[dict[str, Any]]:
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        with closing(response):  # request_finished: this thread's database connection goes back
            if response.streaming:
                self._stream(response, async_to_sync(send))
                return []
            return [_start(response), *({"type": "http.response.body", "body": chunk, "more_body": not last}
                                        for chunk, last in self.chunk_bytes(response.content))]

    def _stream(self, response: HttpResponseBase, send) -> None:
        send(_start(response))
        for part in response:
            for chunk, _ in self.chunk_bytes(part):
                send({"type": "http.response.body", "body": chunk, "more_body": True})
        send({"type": "http.response.body", "body": b"", "more_body": False})


def _start(response: HttpResponseBase) -> dict[str, Any]:
    """``http.response.start`` as Django's ``ASGIHandler.send_response`` builds it (cookies as headers)."""
    headers = []
    for header, value in response.items():
        headers.append((header.encode("ascii") if isinstance(header, str) else bytes(header),
                        value.encode("latin1") if isinstance(value, str) else bytes(value)))
    for cookie in response.cookies.values():
        headers.append((b"Set-Cookie", cookie.OutputString().encode("ascii")))
    return {"type": "http.response.start", "status": response.status_code, "headers": headers}


def twisted_form_parsing_off() -> None:
    """Daphne's requests skip Twisted's parsing of POST forms (module doc); no-op without daphne, and once."""
    try:
        from daphne.http_protocol import WebRequest
    except ImportError:
        return
    init = WebRequest.__init__
    if getattr(init, "forms_unparsed", False):
        return

    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("parsePOSTFormSubmission", False)
        init(self, *args, **kwargs)

    __init__.forms_unparsed = True  # type: ignore[attr-defined]
    WebRequest.__init__ = __init__


def twisted_access_line_off() -> None:
    """Daphne's factory skips Twisted's own access line (module doc); daphne's access log is unchanged."""
    try:
        from daphne.http_protocol import HTTPFactory
    except ImportError:
        return
    HTTPFactory.log = _no_twisted_access_line  # type: ignore[method-assign]


def _no_twisted_access_line(self, request) -> None:
    """Daphne logs the request itself (``Server.log_action``)."""
