"""WSGI entry point (HTTP only; use ASGI for live updates)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.prod")
application = get_wsgi_application()

from config.gc import tune_for_server  # noqa: E402

tune_for_server()
