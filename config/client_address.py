"""The client's address, worked out once per request from the configured number of trusted proxies.

`X-Forwarded-For` is a list that anyone can start: each proxy appends the address it received the
request from. Only the entries appended by our own proxies can be believed, so with `TRUSTED_PROXIES`
= N the client is the N-th entry from the right; with 0 (no proxy) the header is ignored. The
middleware writes the answer into `REMOTE_ADDR`, the one place every consumer reads: login lockouts
(django-axes, through `client_address`), DRF's throttles (`NUM_PROXIES = 0`), logs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse


def address_behind_proxies(meta: dict[str, Any], trusted_proxies: int) -> str:
    """The client address that `trusted_proxies` proxies vouch for, from a request's META."""
    peer = str(meta.get("REMOTE_ADDR") or "")
    forwarded = meta.get("HTTP_X_FORWARDED_FOR")
    if trusted_proxies <= 0 or not forwarded:
        return peer
    hops = [hop.strip() for hop in str(forwarded).split(",") if hop.strip()]
    if not hops:
        return peer
    # Fewer entries than proxies: the first proxy saw no header and wrote the client's address first.
    return hops[-min(trusted_proxies, len(hops))]


class TrustedProxyMiddleware:
    """Sets `REMOTE_ADDR` to the client's address (first in MIDDLEWARE, so everything after sees it)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        trusted_proxies = settings.TRUSTED_PROXIES
        if trusted_proxies:
            request.META["REMOTE_ADDR"] = address_behind_proxies(request.META, trusted_proxies)
        return self.get_response(request)


def client_address(request: Any) -> str | None:
    """django-axes' AXES_CLIENT_IP_CALLABLE: the address the middleware settled on."""
    return request.META.get("REMOTE_ADDR") or None
