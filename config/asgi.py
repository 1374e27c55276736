"""ASGI entry point: HTTP through Django's WSGI handler on a thread pool, WebSockets through Channels.

Every view of this project is synchronous (DRF, admin, pages). Django's own ASGI handler runs such a
request through per-request thread contexts and an async/sync switch per middleware, which costs a
trivial request several times the CPU of `a2wsgi`'s WSGI bridge (`bench/online_play.py` measures both).
So plain HTTP goes through the WSGI handler on
a fixed pool of worker threads (each with its own database connection from the pool), and only the
WebSocket protocol needs the async stack. One process, one port: `uvicorn config.asgi:application`,
`daphne config.asgi:application` and `manage.py runserver` all serve both.
"""

import os

from a2wsgi import WSGIMiddleware
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.prod")
django_wsgi_app = get_wsgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config.gc import tune_for_server  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": WSGIMiddleware(django_wsgi_app, workers=settings.HTTP_THREADS),
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
tune_for_server()
