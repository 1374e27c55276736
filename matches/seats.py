"""Seat changes the lobby and the clocks need on top of `matches.services`: AI seats, AI take-overs.

Written like the services (lock the match row, check, change, act after commit) and built on their
public functions, so there is still one path for actions: every AI move goes through
`services.ai_action_submit` in a Celery task.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from config.errors import ApplicationError
from matches import services
from matches.clocks import TIMEOUTS_TO_FORFEIT
from matches.games import get_game
from matches.models import Match, MatchStatus, Seat

TAKEOVER_AGENT = services.TAKEOVER_AGENT


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
