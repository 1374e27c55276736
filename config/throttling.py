"""Throttles that let a request through while Redis (their counter) is out of reach, where another guard
backs them up; every other throttle then answers 503 (config/errors.py)."""

from __future__ import annotations

import logging
from typing import Any

from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle

from config.errors import service_unavailable

log = logging.getLogger(__name__)


class LoginRateThrottle(AnonRateThrottle):
    """The anonymous rate of POST /api/auth/token/. Without Redis it counts nothing and lets the login
    through: password guessing stays bounded by the lockouts (django-axes, kept in the database, not in
    Redis), so an outage of Redis neither stops everyone logging in nor lifts the bound on guesses."""

    def allow_request(self, request: Request, view: Any) -> bool:
        try:
            return bool(super().allow_request(request, view))
        except Exception as exc:
            if not service_unavailable(exc):
                raise
            log.warning("Login throttle skipped, Redis is out of reach: %s", exc)
            return True
