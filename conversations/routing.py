
websocket_urlpatterns: list = []
