"""Test settings: fast hashing, eager Celery unless a test starts a real worker."""

import os

os.environ.setdefault("SECRET_KEY", "test-secret-key")
os.environ.setdefault("DEBUG", "0")

from .base import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", True)  # noqa: F405
CELERY_TASK_EAGER_PROPAGATES = True
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "signup": None}}  # noqa: F405
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
MATCHES_CREATE_RATE = None  # matches/apis.py: the create throttle is tested with its own rate
# Searching AIs think 1/50 of their level's time in tests (eager Celery runs their moves inside requests).
AI_BUDGET_SCALE = env_float("AI_BUDGET_SCALE", 0.02, 0.01, 10.0)  # noqa: F405
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
SITE_URL = "http://testserver"
# Uploads of a test run go to a folder of their own, removed with the machine's temporary files.
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

MEDIA_ROOT = Path(tempfile.mkdtemp(prefix="commandeer-media-"))

# `make test` runs the browser tests beside the others, each process with a test database of its own.
if os.environ.get("TEST_DATABASE_NAME") and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": os.environ["TEST_DATABASE_NAME"]}  # noqa: F405
