"""Celery tasks of online play: deadline enforcement (eta task + periodic sweep) and AI seats.

Thin and idempotent (STYLE.md 12): they take ids, re-fetch under the match lock and do nothing when
the world moved on, so `acks_late` redelivery after a killed worker is harmless. Long deadlines rest
on the stored deadline and the sweep; eta tasks are only armed for deadlines within
`clocks.EAGER_TIMER_HORIZON` (Redis visibility timeout).
"""

from __future__ import annotations

import logging
import time

from celery import shared_task

from config.celery import app
from matches import seats, services

log = logging.getLogger(__name__)

SWEEP_EVERY_S = 1.0
AI_MAX_ACTIONS_PER_TASK = 500

# The sweep runs every second under celery beat (`celery -A config beat`); kept here, next to the task.
app.conf.beat_schedule = {
    **(app.conf.beat_schedule or {}),
    "matches-sweep-deadlines": {"task": "matches.tasks.sweep_deadlines", "schedule": SWEEP_EVERY_S},
}


@shared_task(acks_late=True, ignore_result=True)
def enforce_deadline(match_id: int) -> list[str]:
    """Enforce a match's passed deadlines (armed with eta = the deadline); a no-op when none has passed.

    In games of 3+ seats a house that keeps timing out is first handed to the AI (`seats`), so the
    others can finish; every other expired seat gets its game's documented timeout default.
    """
    handed = seats.hand_over_timed_out_seats(match_id=match_id)
    return [f"ai:{p}" for p in handed] + services.clock_enforce(match_id=match_id)


@shared_task(acks_late=True, ignore_result=True, expires=30)
def sweep_deadlines() -> int:
    """Periodic safety net: enforce every passed stored deadline; wake AI seats whose task was lost."""
    done = 0
    for match_id in services.expired_match_ids():
        try:
            if enforce_deadline(match_id):
                done += 1
        except Exception:
            log.exception("deadline sweep failed for match %s", match_id)
    for match_id in services.stalled_ai_match_ids():
        ai_move.delay(match_id, None)
    return done


@shared_task(acks_late=True, ignore_result=True)
def ai_move(match_id: int, version: int | None) -> int:
    """Play the AI seat's moves while it must act (each move its own transaction and broadcast)."""
    moves = 0
    expected: int | None = version
    started = time.monotonic()
    while moves < AI_MAX_ACTIONS_PER_TASK:
        result = services.ai_action_submit(match_id=match_id, expected_version=expected)
        if result is None:
            break
        moves += 1
        expected = result.state_version
    log.debug("AI played %s moves in match %s in %.3fs", moves, match_id, time.monotonic() - started)
    return moves
