"""Login lockouts (django-axes' AXES_HANDLER): per username and address pair, with wider nets per address
and per username.

axes counts the recent failures of each set in AXES_LOCKOUT_PARAMETERS and compares the largest count with
one limit. Here each set has a limit of its own (settings.LOGIN_FAILURE_LIMITS, in the order of
AXES_LOCKOUT_PARAMETERS): ten wrong passwords for one name from one address lock that pair only, so the
other people behind that address (a school, a café) still log in; one address failing for many names
(spraying), or one name failing from many addresses, is locked at a higher count.
A successful login forgets nothing (AXES_RESET_ON_SUCCESS = False): failures age out with the cool-off.
"""

from __future__ import annotations

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest


class LockoutHandler(AxesDatabaseHandler):  # type: ignore[misc]
    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        """The pair's failures, or at least the pair's limit when a wider set has reached its own limit
        (axes compares this number with AXES_FAILURE_LIMIT, the pair's limit)."""
        counts = [
            attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            for attempts in self.get_user_attempts(request, credentials)
        ]
        if not counts:
            return 0
        limits = list(settings.LOGIN_FAILURE_LIMITS.values())
        if any(limit and count >= limit for count, limit in zip(counts[1:], limits[1:], strict=False)):
            return max(counts[0], get_failure_limit(request, credentials))
        return int(counts[0])
