"""Clocks and timeouts: enforce passed deadlines, take the game's timeout defaults, find work for the sweep.

One timeout is one missed decision step, counted once: the game's documented default
(`timeout_action`) is taken again and again until the seat owes nothing more in the step the engine
names (`decision_step`).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from config.errors import ApplicationError
from matches import storage
from matches.clocks import TIMEOUTS_TO_FORFEIT, TimeControl
from matches.games.kind import Result
from matches.games.registry import AnyGame, get_game
from matches.messages import NEVER_MOVED, play_message
from matches.models import ActionLog, MatchStatus, Seat
from matches.services.ai_seats import hand_seat_to_ai
from matches.services.failures import task_succeeded
from matches.services.notify import after_change_on_commit
from matches.services.submit import advance, finish, load_clock, lost_on_time, store_clock

# The most default actions one timeout may take (a Westeros Planning step needs one per area + finish).
TIMEOUT_MAX_ACTIONS = 200


@transaction.atomic
def clock_enforce(*, match_id: int, now: datetime | None = None) -> list[str]:
    """Enforce every passed deadline of a match; idempotent (a moved-on match has no passed deadline).

    Per expired seat: a seat that never moved is handed to the AI in a game of 3+ seats with another
    person seated (`_hand_over_absent_seat`), else aborts the match (no result); the third timeout in a row
    forfeits; otherwise the game's documented default (`timeout_action`) is taken for it, again and again
    until the seat owes nothing more in the current step (`timeout_step`, at most TIMEOUT_MAX_ACTIONS):
    one timeout is one missed decision step, counted once.
    Returns what was done, for logs and tests.
    """
    now = now or timezone.now()
    match = storage.lock_match(match_id)
    if match is None or match.status != MatchStatus.ACTIVE:
        return []
    done: list[str] = []
    for _ in range(10):  # a default action may hand the turn to another expired seat
        loaded = storage.load_seats(match)
        seats = loaded.seats
        expired = [s for s in seats if load_clock(s).expired(now)]
        if not expired or match.status != MatchStatus.ACTIVE:
            break
        seat = expired[0]
        game = get_game(match.kind)
        if not seat.has_moved and _hand_over_absent_seat(loaded, seat):
            done.append(f"ai:{seat.position}")
            continue
        if not seat.has_moved:
            text, message = play_message(NEVER_MOVED, name=seat.display_name)
            finish(
                match,
                seats,
                Result(winner=None, reason="aborted", text=text, message=message),
                now,
                aborted=True,
            )
            match.save()
            for s in seats:
                s.save()
            after_change_on_commit(match)
            done.append(f"abort:{seat.position}")
            break
        seat.consecutive_timeouts += 1
        if seat.consecutive_timeouts >= TIMEOUTS_TO_FORFEIT:
            others = [s.position for s in seats if s.position != seat.position]
            winner = others[0] if len(others) == 1 else None
            finish(match, seats, lost_on_time(winner, seat, in_a_row=TIMEOUTS_TO_FORFEIT), now)
            match.save()
            for s in seats:
                s.save()
            after_change_on_commit(match)
            done.append(f"forfeit:{seat.position}")
            break
        tc = TimeControl.from_json(match.time_control)
        clock = load_clock(seat)
        clock.remaining_ms = 0 if not tc.correspondence else clock.remaining_ms
        clock.started_at = None
        clock.deadline = None
        store_clock(seat, clock)
        applied = _timeout_defaults(loaded, game, seat, now)
        done.append(f"timeout:{seat.position}@{match.state_version}" + (f"x{applied}" if applied > 1 else ""))
    if done:
        task_succeeded(match)
    return done


def _hand_over_absent_seat(loaded: storage.LoadedMatch, seat: Seat) -> bool:
    """In a game of 3+ seats an AI takes over a seat that never moved, so the others play on.

    Two-seat games keep the Lichess-style abort (no result); so does a game where no other person is
    seated (nobody would be left to play with). True when handed over.
    """
    others = [s for s in loaded.seats if s.position != seat.position and not s.is_ai]
    if len(loaded.seats) < 3 or not others:
        return False
    hand_seat_to_ai(loaded, seat)
    return True


def timeout_step(game: AnyGame, state: Any) -> Any:
    """The decision step a timeout completes: the engine's `decision_step()` (through the adapter).

    Westeros names the round and the pending kind (Planning asks every house for an order per area,
    W-5.1); in Commandeer every action closes its step, so one default completes it.
    """
    return game.decision_step(state)


def _timeout_defaults(loaded: storage.LoadedMatch, game: AnyGame, seat: Seat, now: datetime) -> int:
    """Take the game's timeout default for `seat` until it owes nothing more in this step; returns how many.

    Each default goes through the same check as a player's move (`legal_actions`) and is logged with
    its own version; the viewers hear of it once, after commit, as for one action.
    """
    match = loaded.match
    state = storage.load_state(match, game)
    legal = storage.legal_actions(match, game)
    step = timeout_step(game, state)
    applied = 0
    while applied < TIMEOUT_MAX_ACTIONS:
        action = game.timeout_action(state, seat.position)
        # the same check as for players
        if action not in legal.of(state, match.state_version, seat.position):
            raise ApplicationError("illegal_action", game.illegal_reason(state, seat.position, action))
        # the state as saved (`advance` applies the action to the state it is given: no reload)
        state = advance(
            loaded,
            game,
            state,
            seat,
            action,
            source=ActionLog.Source.TIMEOUT,
            now=now,
            after_commit=False,
            legal=legal,
        ).state
        applied += 1
        if (
            match.status != MatchStatus.ACTIVE
            or seat.position not in legal.current(state, match.state_version)
            or timeout_step(game, state) != step
        ):
            break
    storage.remember_on_commit(match, game, state)
    current = set(legal.current(state, match.state_version)) if match.status == MatchStatus.ACTIVE else set()
    seats = loaded.seats
    after_change_on_commit(match, seats=seats, wake_ai=any(s.is_ai and s.position in current for s in seats))
    return applied


def _not_backing_off(now: datetime, *, slack_s: float = 0.0) -> Q:
    """Seats of matches whose failing task is not waiting out its back-off (`task_failed`), give or take
    `slack_s` (the AI task retries itself at the end of its back-off; the sweep steps in only later)."""
    return Q(match__task_retry_at__isnull=True) | Q(
        match__task_retry_at__lte=now - timedelta(seconds=slack_s)
    )


def expired_match_ids(*, now: datetime | None = None, limit: int = 500) -> list[int]:
    """Active matches with a passed deadline (the sweep's work list), except those backing off a failure."""
    now = now or timezone.now()
    return list(
        Seat.objects.filter(_not_backing_off(now), match__status=MatchStatus.ACTIVE, deadline__lte=now)
        .values_list("match_id", flat=True)
        .distinct()[:limit]
    )


def stalled_ai_match_ids(*, now: datetime | None = None, after_s: float = 5.0, limit: int = 100) -> list[int]:
    """Active matches whose AI seat has had to act for `after_s` seconds (its wake-up task was lost).

    A match whose AI task failed is left to that task's own retry until `after_s` past its back-off, so a
    failing AI is never re-queued every second (an unbounded retry once logged 294 failures of one match in five minutes).
    """
    return list(dict.fromkeys(m for m, _ in stalled_ai_seats(now=now, after_s=after_s, limit=limit)))


def stalled_ai_seats(
    *, now: datetime | None = None, after_s: float = 5.0, limit: int = 100
) -> list[tuple[int, datetime]]:
    """(match id, since when its AI seat must act) of `stalled_ai_match_ids`: the pair names one wait."""
    now = now or timezone.now()
    rows = (
        Seat.objects.filter(
            _not_backing_off(now, slack_s=after_s),
            match__status=MatchStatus.ACTIVE,
            clock_started_at__lte=now - timedelta(seconds=after_s),
        )
        .exclude(ai_agent="")
        .order_by("match_id", "clock_started_at")
        .values_list("match_id", "clock_started_at")[:limit]
    )
    return [(match_id, since) for match_id, since in rows if since is not None]  # never None: filtered
