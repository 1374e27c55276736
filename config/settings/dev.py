"""Local development (`make run` exports it): DEBUG on unless the environment says otherwise."""

import os

os.environ.setdefault("DEBUG", "1")

from .base import *  # noqa: F403

# Static files straight from the apps' folders through WhiteNoise, so `DEBUG=0 make run` (the site as
# production shows it: the branded error pages, no debug data) works without `collectstatic`.
WHITENOISE_USE_FINDERS = True
