"""Celery tasks of online play: deadline enforcement (eta task + periodic sweep) and AI seats.

Thin and idempotent (docs/style.md 12): they take ids, re-fetch under the match lock and do nothing when
the world moved on, so `acks_late` redelivery after a killed worker is harmless. Long deadlines rest
on the stored deadline and the sweep; eta tasks are only armed for deadlines within
`clocks.EAGER_TIMER_HORIZON` (below Redis' visibility timeout) and expire a little after their deadline
(`notify.TIMER_GRACE`): a timer a worker could not run in time is dropped unrun, and the sweep enforces
that deadline instead, once (every enforcement re-checks the stored deadline under the match lock).
"""

from __future__ import annotations

import logging
import time

from celery import Task, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.cache import cache

from config.celery import app
from matches.services.ai_seats import ai_action_submit, hand_over_timed_out_seats
from matches.services.failures import TASK_MAX_FAILURES, task_backoff_s, task_failed
from matches.services.timeouts import clock_enforce, expired_match_ids, stalled_ai_seats

log = logging.getLogger(__name__)

SWEEP_EVERY_S = 1.0
AI_MAX_ACTIONS_PER_TASK = 500
# Celery time limits (soft, hard) of the short tasks: a deadline is a few queries, a sweep at most a few
# hundred of them. A hung one is stopped (its failure recorded, the sweep retries) long before Redis'
# visibility timeout would hand its message to a second worker while it still runs.
TIMER_TIME_LIMITS_S = (45.0, 60.0)
EMAIL_TIME_LIMITS_S = (200.0, 240.0)  # SMTP answers within EMAIL_TIMEOUT per message

# The sweep runs every second under celery beat (`celery -A config beat`, one active beat: RedBeat's lock);
# kept here, next to the task. Two beats overlapping for a moment (a takeover) are harmless: a sweep twice
# finds nothing the first did not enforce, and an AI wake-up is sent once per wait (`cache.add`).
app.conf.beat_schedule = {
    **(app.conf.beat_schedule or {}),
    "matches-sweep-deadlines": {"task": "matches.tasks.sweep_deadlines", "schedule": SWEEP_EVERY_S},
    "matches-your-turn-emails": {
        "task": "matches.tasks.send_your_turn_emails",
        "schedule": float(getattr(settings, "NOTIFY_EMAIL_SWEEP_S", 60.0)),
    },
}


@shared_task(
    acks_late=True,
    ignore_result=True,
    soft_time_limit=TIMER_TIME_LIMITS_S[0],
    time_limit=TIMER_TIME_LIMITS_S[1],
)
def enforce_deadline(match_id: int) -> list[str]:
    """Enforce a match's passed deadlines (armed with eta = the deadline); a no-op when none has passed.

    In games of 3+ seats a house that keeps timing out is first handed to the AI (`seats`), so the
    others can finish; every other expired seat gets its game's documented timeout default. A failure
    is recorded (`task_failed`) and retried by the sweep after its back-off, never at once.
    """
    try:
        handed = hand_over_timed_out_seats(match_id=match_id)
        return [f"ai:{p}" for p in handed] + clock_enforce(match_id=match_id)
    except SoftTimeLimitExceeded as exc:  # out of time: this match backs off, and a sweep stops here
        _record_failure("clock", match_id, exc)
        raise
    except Exception as exc:
        _record_failure("clock", match_id, exc)
        return []


@shared_task(
    acks_late=True,
    ignore_result=True,
    expires=30,
    soft_time_limit=TIMER_TIME_LIMITS_S[0],
    time_limit=TIMER_TIME_LIMITS_S[1],
)
def sweep_deadlines() -> int:
    """Periodic safety net: enforce every passed stored deadline; wake AI seats whose task was lost.

    Matches backing off a failed task are left out (`expired_match_ids`/`stalled_ai_match_ids`).
    """
    done = 0
    for match_id in expired_match_ids():
        if enforce_deadline(match_id):
            done += 1
    for match_id, since in stalled_ai_seats():
        # A searching AI may wait behind others on the `ai` queue for a while: one wake-up per wait and
        # hard time limit, not one a second (each would think the same move again, then be dropped).
        if cache.add(f"ai-wake:{match_id}:{since.isoformat()}", 1, timeout=AI_TIME_LIMIT_S):
            ai_move.delay(match_id, None)
    return done


@shared_task(
    acks_late=True,
    ignore_result=True,
    expires=300,
    soft_time_limit=EMAIL_TIME_LIMITS_S[0],
    time_limit=EMAIL_TIME_LIMITS_S[1],
)
def send_your_turn_emails() -> int:
    """Periodic: e-mail absent players whose correspondence move is waiting, once per deadline
    (`emails.your_turn_emails_send`: a run twice, or on two workers at once, sends nothing twice)."""
    from matches.services import emails

    return emails.your_turn_emails_send()


def ai_time_limits() -> tuple[float, float]:
    """(soft, hard) Celery time limits of one `ai_move` task: its slice, plus the longest a level's last move
    may take (each agent keeps within twice its budget on the wall clock), plus a margin."""
    from matches.agents import AGENT_NAMES, GAME_KINDS, level_budget_s

    longest = 0.0
    for kind in GAME_KINDS:
        for name in AGENT_NAMES:
            try:
                longest = max(longest, level_budget_s(kind, name) or 0.0)
            except ValueError:
                continue
    soft = AI_TASK_SLICE_S + 2 * longest + AI_TIME_LIMIT_MARGIN_S
    return soft, soft + AI_TIME_LIMIT_MARGIN_S


AI_TASK_SLICE_S = float(getattr(settings, "AI_TASK_SLICE_S", 5.0))  # one task's run of moves, then requeue
AI_TIME_LIMIT_MARGIN_S = float(getattr(settings, "AI_TIME_LIMIT_MARGIN_S", 10.0))
AI_SOFT_TIME_LIMIT_S, AI_TIME_LIMIT_S = ai_time_limits()


def longest_unacked_s() -> float:
    """The longest a worker may hold a message unacknowledged and still be right to: the longest hard time
    limit of these tasks (`acks_late`: acknowledged when done; the AI task's, by default), or a deadline
    timer held from its arming to its eta."""
    from matches.clocks import EAGER_TIMER_HORIZON
    from matches.services.notify import TIMER_GRACE

    limits = (AI_TIME_LIMIT_S, TIMER_TIME_LIMITS_S[1], EMAIL_TIME_LIMITS_S[1])
    return max(*limits, (EAGER_TIMER_HORIZON + TIMER_GRACE).total_seconds())


def visibility_timeout_problem() -> str | None:
    """Why the Redis broker's visibility timeout is too short for these tasks (Redis would hand a message
    still in hand to a second worker: an AI move thought twice, timers multiplied), or None."""
    options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}) or {}
    visibility = options.get("visibility_timeout")
    if visibility is None:  # the filesystem broker of `make run` redelivers nothing
        return None
    needed = longest_unacked_s()
    if float(visibility) > needed:
        return None
    return (
        f"CELERY_VISIBILITY_TIMEOUT_S={float(visibility):g} must be above {needed:g} s, the longest a worker "
        "holds a task (the longest hard time limit, or a deadline timer until its eta)."
    )


@shared_task(
    bind=True,
    acks_late=True,
    ignore_result=True,
    max_retries=TASK_MAX_FAILURES,
    soft_time_limit=AI_SOFT_TIME_LIMIT_S,
    time_limit=AI_TIME_LIMIT_S,
)
def ai_move(self: Task, match_id: int, version: int | None) -> int:
    """Play the AI seats' moves while one must act (each move its own transaction and broadcast), for about
    AI_TASK_SLICE_S; then queue the continuation, so a long run of AI moves (five AI houses) never holds a
    worker away from the other matches.

    A search that raises or runs into the soft time limit is replaced by the greedy move for that decision
    (`ai_action_submit`); the hard limit kills the task (`acks_late`: redelivered, idempotent).
    When a move still raises, the failure is recorded and the task retries after a growing back-off
    (`task_backoff_s`); the TASK_MAX_FAILURES-th failure in a row aborts the match instead.
    """
    moves = 0
    expected: int | None = version
    started = time.monotonic()
    try:
        while True:
            if moves >= AI_MAX_ACTIONS_PER_TASK or (moves and time.monotonic() - started >= AI_TASK_SLICE_S):
                ai_move.delay(match_id, expected)  # the rest in a task of its own, behind the others
                break
            result = ai_action_submit(match_id=match_id, expected_version=expected)
            if result is None:
                break
            moves += 1
            expected = result.state_version
    except Exception as exc:
        delay = _record_failure("AI", match_id, exc)
        if delay is not None:
            raise self.retry(args=[match_id, None], countdown=delay, exc=exc) from None
    log.debug("AI played %s moves in match %s in %.3fs", moves, match_id, time.monotonic() - started)
    return moves


def _record_failure(what: str, match_id: int, exc: Exception) -> int | None:
    """Log a task failure once (with its trace) and count it on the match; the back-off, or None: stop."""
    log.warning("%s task failed for match %s", what, match_id, exc_info=exc)
    try:
        return task_failed(match_id=match_id, error=exc)
    except Exception:  # the database itself failing: let the sweep or the retry find the match later
        log.exception("could not record the %s task failure of match %s", what, match_id)
        return task_backoff_s(TASK_MAX_FAILURES)
