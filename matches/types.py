"""The user a request brings, as the play layer types it: ``Viewer`` for reads anyone may make, ``User``
(through ``signed_in``) for the services that act for someone."""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser, User
from rest_framework.exceptions import NotAuthenticated

# Whoever makes a request: a signed-in user or an anonymous visitor (``request.user``'s type).
Viewer: TypeAlias = "User | AnonymousUser"


def signed_in(user: Viewer) -> User:
    """A request's user where the view admits only signed-in users (its ``IsAuthenticated`` permission ran
    first, so an anonymous visitor here is refused as that permission refuses them)."""
    if isinstance(user, User) and user.is_authenticated:
        return user
    raise NotAuthenticated()
