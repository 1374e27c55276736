"""Production settings: the default of every entry point (asgi, wsgi, celery, manage.py).

DEBUG is off whatever the environment says, so a forgotten `DEBUG=1` cannot publish the debug pages
(settings, URL lists, tracebacks); SECRET_KEY must be set (config.settings.base refuses to start
without it). HTTPS, proxies and limits come from the environment: README, "Production".
"""

import os

os.environ["DEBUG"] = "0"

from .base import *  # noqa: F403

DEBUG = False
