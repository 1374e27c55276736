"""Local development (`make run` exports it): DEBUG on unless the environment says otherwise."""

import os

os.environ.setdefault("DEBUG", "1")
# A key for this machine's development database only (also with DEBUG=0, and for the worker, which runs
# with DEBUG off): production settings have no default and refuse to start without SECRET_KEY.
os.environ.setdefault("SECRET_KEY", "insecure-development-key-set-SECRET_KEY-in-production")

from .base import *  # noqa: F403

# Static files straight from the apps' folders through WhiteNoise, so `DEBUG=0 make run` (the site as
# production shows it: the branded error pages, no debug data) works without `collectstatic`.
WHITENOISE_USE_FINDERS = True
# ... and so without a manifest of fingerprinted names: production's storage needs `collectstatic` first.
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405

# E-mails (your-turn notices) are printed by the worker on the console unless EMAIL_BACKEND says otherwise.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
SITE_URL = os.environ.get("SITE_URL", f"http://{os.environ.get('WEB_ADDR', '127.0.0.1:8000')}").rstrip("/")
