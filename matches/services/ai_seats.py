"""AI seats: the AI's moves (through the same pipeline as players) and the ONE way a seat is handed to the AI.

A seat becomes an AI seat when its player concedes a game of 3+ seats, never made a first move while
others play on, or is about to time out for the last time (`hand_seat_to_ai`). Every AI move is made by
`ai_action_submit` in a Celery task (`matches.tasks.ai_move`).
"""

from __future__ import annotations

import random
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from config.errors import ApplicationError
from matches import storage
from matches.agents import TAKEOVER_AGENT
from matches.clocks import TIMEOUTS_TO_FORFEIT
from matches.games import get_game
from matches.models import ActionLog, MatchStatus, Seat
from matches.services.failures import task_succeeded
from matches.services.notify import after_change_on_commit
from matches.services.submit import SubmitResult, advance
from matches.storage import ai_seat_must_act

__all__ = [
    "TAKEOVER_AGENT",
    "ai_action_submit",
    "ai_seat_must_act",
    "hand_over_timed_out_seats",
    "hand_seat_to_ai",
]


def hand_seat_to_ai(
    loaded: storage.LoadedMatch, seat: Seat, *, agent: str = TAKEOVER_AGENT, stop_clock: bool = True
) -> None:
    """Let the AI `agent` play `seat` from now on, and wake it after commit.

    The seat's timeout count starts again; with `stop_clock` its running clock is stopped too (a seat
    taken over on a timeout: the AI gets a fresh allowance when it must act). A conceding seat keeps its
    clock running (the AI moves at once).
    """
    seat.ai_agent = agent
    fields = ["ai_agent"]
    if stop_clock:
        seat.consecutive_timeouts = 0
        seat.clock_started_at = None
        seat.deadline = None
        fields += ["consecutive_timeouts", "clock_started_at", "deadline"]
    seat.save(update_fields=fields)
    loaded.mark_saved(seat)
    after_change_on_commit(loaded.match, seats=loaded.seats, wake_ai=True)


@transaction.atomic
def ai_action_submit(*, match_id: int, expected_version: int | None = None) -> SubmitResult | None:
    """Let the first AI seat that must act make one move through the same path as players; None if none must."""
    match = storage.lock_match(match_id)
    if match is None or match.status != MatchStatus.ACTIVE:
        return None
    if expected_version is not None and match.state_version != expected_version:
        return None
    game = get_game(match.kind)
    state = storage.load_state(match, game)
    loaded = storage.load_seats(match)
    current = set(game.current_players(state))
    seat = next((s for s in loaded.seats if s.is_ai and s.position in current), None)
    if seat is None:
        return None
    rng = random.Random(f"{match.seed}:{match.state_version}:{seat.position}")
    action = game.ai_action(state, seat.position, rng=rng, agent=seat.ai_agent)
    if action not in game.legal_actions(state, seat.position):  # the same check as for players
        raise ApplicationError("illegal_action", game.illegal_reason(state, seat.position, action))
    seat.has_moved = True
    seat.consecutive_timeouts = 0
    result = advance(loaded, game, state, seat, action, source=ActionLog.Source.AI)
    task_succeeded(match)
    return result


@transaction.atomic
def hand_over_timed_out_seats(*, match_id: int, now: datetime | None = None) -> list[int]:
    """An AI takes over a human seat about to time out for the TIMEOUTS_TO_FORFEIT-th time in a row.

    Only in games of 3+ seats (one absent house must not end the game for the others); two-seat games
    keep the forfeit of `clock_enforce`. The seat's running clock is stopped (the AI gets a fresh
    allowance when it must act) and the AI is woken after commit. Idempotent: a seat already handed
    over, or not expired, is left alone. Returns the positions handed over.
    """
    now = now or timezone.now()
    match = storage.lock_match(match_id)
    if match is None or match.status != MatchStatus.ACTIVE:
        return []
    game = get_game(match.kind)
    if game.seat_count(match.rules_config) < 3:
        return []
    loaded = storage.load_seats(match)
    handed: list[int] = []
    for seat in loaded.seats:
        expired = seat.deadline is not None and seat.deadline <= now
        if not expired or seat.is_ai or not seat.has_moved:
            continue
        if seat.consecutive_timeouts + 1 < TIMEOUTS_TO_FORFEIT:
            continue
        hand_seat_to_ai(loaded, seat)
        handed.append(seat.position)
    return handed
