"""WebSocket routes of every app, gathered in one list for the ASGI router."""

from matches.routing import websocket_urlpatterns as match_websocket_urlpatterns

websocket_urlpatterns: list = [*match_websocket_urlpatterns]
