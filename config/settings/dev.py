"""Local development (`make run`): DEBUG on unless the environment says otherwise."""

import os

os.environ.setdefault("DEBUG", "1")

from .base import *  # noqa: F403
