"""A player's notification settings and presence: the one place that reads and writes `UserSettings`.

Settings rows are made lazily: a user without one has the defaults (`settings_get` answers them without
writing). Presence ("last seen") is recorded by `seen`, called from every authenticated request
(`PresenceMiddleware`) and match WebSocket; it writes at most once per SEEN_WRITE_EVERY_S per user (a
cache key decides), so a busy player costs one UPDATE a minute, not one per request.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from frontend.models import UserSettings

log = logging.getLogger(__name__)

SEEN_WRITE_EVERY_S = 60
# The fields a user may change (API and settings page); everything else is the server's.
EDITABLE = (
    "browser_notifications",
    "notifications_asked",
    "sound",
    "low_time_warning",
    "email_your_turn",
    "language",
)
UNSUBSCRIBE_SALT = "frontend.unsubscribe.your-turn"
UNSUBSCRIBE_MAX_AGE_S = 90 * 86400  # a link in an old e-mail still works for three months


def absent_after() -> timedelta:
    """How long a player must have been away before a your-turn e-mail is sent (NOTIFY_ABSENT_AFTER_S)."""
    return timedelta(seconds=getattr(settings, "NOTIFY_ABSENT_AFTER_S", 600))


def settings_get(user: Any) -> UserSettings:
    """The user's settings (an unsaved row with the defaults when they have none yet)."""
    found = UserSettings.objects.filter(user=user).first()
    return found if found is not None else UserSettings(user=user)


@transaction.atomic
def settings_update(*, user: Any, **changes: Any) -> UserSettings:
    """Change some of the user's settings (only the EDITABLE fields); made on first change."""
    unknown = set(changes) - set(EDITABLE)
    if unknown:
        raise ValueError(f"not a user setting: {', '.join(sorted(unknown))}")
    if "language" in changes and changes["language"] != "":
        from frontend.language import normalize, unknown_language_message

        language = normalize(changes["language"])
        if language is None:
            raise ValueError(unknown_language_message(changes["language"]))
        changes["language"] = language
    row, _ = UserSettings.objects.select_for_update().get_or_create(user=user)
    for name, value in changes.items():
        setattr(row, name, value if name == "language" else bool(value))
    if changes:
        row.save(update_fields=list(changes))
    if "language" in changes:
        from frontend.language import language_cache_key

        # now, and again after the commit, so that a request reading the old row meanwhile cannot keep it
        key = language_cache_key(user.pk)
        cache.delete(key)
        transaction.on_commit(lambda: cache.delete(key))
    return row


def seen(user_id: int, *, now: datetime | None = None) -> bool:
    """Record that the user is here now; False when it was recorded less than SEEN_WRITE_EVERY_S ago."""
    if not cache.add(f"seen:{user_id}", 1, timeout=SEEN_WRITE_EVERY_S):
        return False
    now = now or timezone.now()
    if not UserSettings.objects.filter(user_id=user_id).update(last_seen_at=now):
        try:
            with transaction.atomic():
                UserSettings.objects.create(user_id=user_id, last_seen_at=now)
        except IntegrityError:  # made meanwhile by another request of the same user
            UserSettings.objects.filter(user_id=user_id).update(last_seen_at=now)
    return True


def mark_seen(user_id: int) -> None:
    """`seen`, never raising: presence is a hint, and no request or socket may fail over it."""
    try:
        seen(user_id)
    except Exception:
        log.warning("could not record that user %s was seen", user_id, exc_info=True)


def present_user_ids(user_ids: Iterable[int], *, now: datetime | None = None) -> set[int]:
    """Those of `user_ids` seen within `absent_after()` (a player without a row has never been seen)."""
    since = (now or timezone.now()) - absent_after()
    return set(
        UserSettings.objects.filter(user_id__in=list(user_ids), last_seen_at__gte=since).values_list(
            "user_id", flat=True
        )
    )


def email_off_user_ids(user_ids: Iterable[int]) -> set[int]:
    """Those of `user_ids` who turned your-turn e-mails off (the default is on)."""
    return set(
        UserSettings.objects.filter(user_id__in=list(user_ids), email_your_turn=False).values_list(
            "user_id", flat=True
        )
    )


def unsubscribe_token(user_id: int) -> str:
    """A signed token that turns off the user's your-turn e-mails (no login needed: it is in their mail)."""
    return signing.dumps({"u": user_id, "w": "email_your_turn"}, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_user_id(token: str) -> int | None:
    """The user a token was made for, or None when it is forged, altered, too old or too long."""
    if len(token) > 200:
        return None
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT, max_age=UNSUBSCRIBE_MAX_AGE_S)
    except signing.BadSignature:  # SignatureExpired is one
        return None
    if not isinstance(data, dict) or data.get("w") != "email_your_turn" or not isinstance(data.get("u"), int):
        return None
    return int(data["u"])


def unsubscribe(user_id: int) -> Any:
    """Turn off the user's your-turn e-mails (the one-click link); the user, or None when gone."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.filter(pk=user_id).first()
    if user is not None:
        settings_update(user=user, email_your_turn=False)
    return user


class PresenceMiddleware:
    """Marks the signed-in user as seen (after the view: DRF's token users are known only then)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and not request.path.startswith("/static/"):
            mark_seen(user.pk)
        return response
