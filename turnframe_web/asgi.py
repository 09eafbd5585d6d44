"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import os

import django
from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "turnframe_web.settings")
django.setup(set_prefix=False)  # first: sets up Django before anything imports models

from turnframe_web.handler import (  # noqa: E402
    ThreadedASGIHandler,
    twisted_access_line_off,
    twisted_form_parsing_off,
)

# each request whole on one pooled thread, not Django's async middleware chain (turnframe_web/handler.py)
django_asgi_app = ThreadedASGIHandler()
twisted_form_parsing_off()  # daphne passes the body on as it came: Twisted need not parse forms first
twisted_access_line_off()  # daphne writes its own access log: Twisted's line went nowhere

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.layers import get_channel_layer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from conversations.auth import BearerSocketAuthMiddleware  # noqa: E402
from conversations.routing import websocket_urlpatterns  # noqa: E402
from conversations.turns import lease  # noqa: E402
from conversations.turns.startup import turns_sweep  # noqa: E402

# the channel layer made now, before any thread asks for it: two threads asking first at once could each make one
# (channels' manager has no lock), and a socket on the layer nobody sends to would miss its sign-out recheck
get_channel_layer()

# a served process renews the leases of the turns it runs and recovers those whose process is gone
lease.keeper_start(sweeper=turns_sweep if settings.TURNFRAME["LEASE_SWEEP"] else None)

# a bearer token, when the handshake carries one, signs the socket in instead of the session cookie
application = ProtocolTypeRouter({
    "http": django_asgi_app,
    "websocket": AllowedHostsOriginValidator(
        AuthMiddlewareStack(BearerSocketAuthMiddleware(URLRouter(websocket_urlpatterns)))),
})
