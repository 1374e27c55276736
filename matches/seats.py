"""Seat changes the lobby and the clocks need on top of `matches.services`: AI seats, AI take-overs.

Written like the services (lock the match row, check, change, act after commit) and built on their
public functions, so there is still one path for actions: every AI move goes through
`services.ai_action_submit` in a Celery task.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from config.errors import ApplicationError
from matches import services
from matches.clocks import TIMEOUTS_TO_FORFEIT
from matches.games import get_game
from matches.models import Match, MatchStatus, Seat

TAKEOVER_AGENT = services.TAKEOVER_AGENT


DEDUPE_WINDOW = timedelta(seconds=10)  # a second identical "create" this soon is the same click again
KEYED_DEDUPE_WINDOW = timedelta(days=1)  # a client's Idempotency-Key names one match this long


def create_digest(*, user: Any, idempotency_key: str | None, settings: dict[str, Any]) -> str:
    """What identifies a create request: the client's Idempotency-Key, else the creator and every setting."""
    if idempotency_key:
        text = json.dumps(["key", user.pk, idempotency_key])
    else:
        text = json.dumps(["settings", user.pk, settings], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def recent_duplicate(*, user: Any, digest: str, keyed: bool, now: datetime | None = None) -> Match | None:
    """The match this create request already made (a double click, a retry), if still open and recent."""
    now = now or timezone.now()
    since = now - (KEYED_DEDUPE_WINDOW if keyed else DEDUPE_WINDOW)
    return (
        Match.objects.defer("state", "state_base")
        .filter(created_by=user, create_digest=digest, created_at__gte=since)
        .exclude(status=MatchStatus.ABORTED, result__reason="cancelled")
        .order_by("-id")
        .first()
    )


@transaction.atomic
def match_create_once(
    *,
    user: Any,
    kind: str,
    ai_seats: int = 0,
    ai_agent: str = "greedy",
    idempotency_key: str | None = None,
    **create: Any,
) -> tuple[Match, bool]:
    """`match_create_with_ai`, but a double submit creates ONE match: (the match, created?).

    The same settings again within DEDUPE_WINDOW, or the same Idempotency-Key within a day, return the
    first match (and False). The creator's user row is locked first, so two simultaneous requests of
    one user are decided one after the other (PostgreSQL; SQLite serialises writers anyway).
    """
    settings = {"kind": kind, "ai_seats": ai_seats, "ai_agent": ai_agent, **create}
    digest = create_digest(user=user, idempotency_key=idempotency_key, settings=settings)
    list(get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True))
    found = recent_duplicate(user=user, digest=digest, keyed=bool(idempotency_key))
    if found is not None:
        return found, False
    match = match_create_with_ai(
        user=user, kind=kind, ai_seats=ai_seats, ai_agent=ai_agent, create_digest=digest, **create
    )
    return match, True


@transaction.atomic
def match_create_with_ai(
    *, user: Any, kind: str, ai_seats: int, ai_agent: str = "greedy", **create: Any
) -> Match:
    """Create a match whose last `ai_seats` seats are AI houses; when no seat is left open it starts at once."""
    game = get_game(kind)
    match = services.match_create(user=user, kind=kind, ai_agent=ai_agent, **create)
    if ai_seats <= 0 or match.status != MatchStatus.WAITING:
        return match
    seats = game.seat_count(match.rules_config)
    if ai_seats > seats - 1:
        raise ApplicationError(
            "invalid", f"At most {seats - 1} AI seat(s) fit a {seats}-seat match (one is yours)."
        )
    Match.objects.select_for_update().get(pk=match.pk)
    for position in range(seats - ai_seats, seats):
        Seat.objects.create(match=match, position=position, ai_agent=ai_agent)
    if ai_seats == seats - 1:
        return services.match_start(match_id=match.pk, user=user)
    return match


@transaction.atomic
def hand_over_timed_out_seats(*, match_id: int, now: datetime | None = None) -> list[int]:
    """An AI takes over a human seat about to time out for the TIMEOUTS_TO_FORFEIT-th time in a row.

    Only in games of 3+ seats (one absent house must not end the game for the others); two-seat games
    keep the forfeit of `services.clock_enforce`. The seat's running clock is stopped (the AI gets a
    fresh allowance when it must act) and the AI is woken after commit. Idempotent: a seat already
    handed over, or not expired, is left alone. Returns the positions handed over.
    """
    now = now or timezone.now()
    match = Match.objects.select_for_update().defer("state", "state_base").filter(pk=match_id).first()
    if match is None or match.status != MatchStatus.ACTIVE:
        return []
    game = get_game(match.kind)
    if game.seat_count(match.rules_config) < 3:
        return []
    handed: list[int] = []
    for seat in Seat.objects.filter(match=match, deadline__lte=now, ai_agent="", has_moved=True):
        if seat.consecutive_timeouts + 1 < TIMEOUTS_TO_FORFEIT:
            continue
        seat.ai_agent = TAKEOVER_AGENT
        seat.consecutive_timeouts = 0
        seat.clock_started_at = None
        seat.deadline = None
        seat.save(update_fields=["ai_agent", "consecutive_timeouts", "clock_started_at", "deadline"])
        handed.append(seat.position)
    if handed:
        match_id, version = match.pk, match.state_version

        def wake() -> None:
            from matches import tasks

            services.notify_match_changed(match_id, version)
            tasks.ai_move.delay(match_id, version)

        transaction.on_commit(wake)
    return handed
