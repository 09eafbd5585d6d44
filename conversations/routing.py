"""WebSocket routes (CONTRACT §7), mounted by ``turnframe_web.asgi``."""

from django.urls import path

from .consumers import ConversationConsumer

websocket_urlpatterns = [
    path("ws/conversations/<str:conversation_id>/", ConversationConsumer.as_asgi()),
]
