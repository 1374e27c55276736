"""Production settings: the default of every entry point (asgi, wsgi, celery, manage.py).

DEBUG is off whatever the environment says, so a forgotten `DEBUG=1` cannot publish the debug pages
(settings, URL lists, tracebacks); SECRET_KEY must be set (config.settings.base refuses to start
without it), and so must REDIS_URL unless SINGLE_PROCESS=1 says that one process serves alone.
HTTPS, proxies and limits come from the environment: docs/deploy.md, "Environment variables".
"""

import os

os.environ["DEBUG"] = "0"

from .base import *  # noqa: F403

DEBUG = False

# Without Redis every process has its own channel layer, cache and broker folder: a second web process
# would not see the first one's sockets or throttle counts, and would queue AI moves into a folder no
# worker reads. One line on stderr and exit status 1, like the SECRET_KEY check.
SINGLE_PROCESS = env_bool("SINGLE_PROCESS", False)  # noqa: F405
if not REDIS_URL and not SINGLE_PROCESS:  # noqa: F405
    raise SystemExit(
        "REDIS_URL is not set: production settings refuse to start without it "
        "(set REDIS_URL, or SINGLE_PROCESS=1 for one process that serves alone)."
    )
