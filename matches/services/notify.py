"""After commit: tell the match's viewers, arm near deadlines, wake the AI; the broadcast thread.

Nothing here runs inside the transaction that changed the match: every function schedules work with
`transaction.on_commit`, so a rolled-back action is never announced (docs/style.md 10).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import Future
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from matches import storage
from matches.clocks import EAGER_TIMER_HORIZON
from matches.models import Match, MatchStatus, Seat

log = logging.getLogger(__name__)

TIMER_GRACE = timedelta(seconds=60)  # a deadline timer older than this is dropped unrun (the sweep covers it)


def notify_on_commit(match: Match) -> None:
    """After commit: tell the viewers (nothing else changed: no timer, no AI)."""
    match_id, version = match.pk, match.state_version
    transaction.on_commit(lambda: notify_match_changed(match_id, version))


def after_change_on_commit(
    match: Match,
    *,
    seats: list[Seat] | None = None,
    wake_ai: bool | None = None,
    timers_for: list[Seat] | None = None,
) -> None:
    """After commit: tell every connected viewer, arm timers for near deadlines, wake the AI.

    `timers_for`: only these seats' deadlines are new (an action that leaves a running clock alone
    arms no second timer for it; the beat sweep backs every deadline up anyway); default: every seat's.
    """
    match_id, version = match.pk, match.state_version
    active = match.status == MatchStatus.ACTIVE
    if seats is None:
        seats = storage.load_seats(match).seats
    timed = seats if timers_for is None else timers_for
    deadlines = [s.deadline for s in timed if s.deadline is not None] if active else []
    if wake_ai is None:
        wake_ai = storage.ai_seat_must_act(match)
    wake_ai = active and wake_ai

    def run() -> None:
        notify_match_changed(match_id, version)
        from matches import tasks

        horizon = timezone.now() + EAGER_TIMER_HORIZON
        try:
            for deadline in deadlines:
                if deadline is not None and deadline <= horizon:
                    # A timer not run soon after its deadline (a worker that was down) is dropped: the beat
                    # sweep enforces every passed deadline anyway, and stale timers would flood a restart.
                    tasks.enforce_deadline.apply_async(
                        args=[match_id], eta=deadline, expires=deadline + TIMER_GRACE
                    )
            if wake_ai:
                tasks.ai_move.delay(match_id, version)
        except Exception:
            # The broker out of reach must not fail an action that is committed: the beat's sweep enforces
            # the deadline and wakes the AI (`stalled_ai_seats`) once Redis is back.
            log.warning("could not queue the tasks of match %s v%s", match_id, version, exc_info=True)

    transaction.on_commit(run)


def match_group(match_id: int) -> str:
    """Channel-layer group of a match's live viewers (messages carry no game data, only the version)."""
    return f"match-{match_id}"


def notify_match_changed(match_id: int, version: int) -> None:
    """Wake every consumer of the match; each then sends its own user THEIR view (never another's hand).

    With a networked channel layer (Redis) the message is handed to this process's broadcast loop and
    the caller does not wait for it: the action is committed already, the message carries only the
    version, and a failure is logged (clients resync on reconnect). The in-memory layer of tests and
    single-process development belongs to the caller's event loop, so it is sent through it and awaited.
    """
    from asgiref.sync import async_to_sync
    from channels.layers import InMemoryChannelLayer, get_channel_layer

    layer = get_channel_layer()
    if layer is None:
        return
    group, message = match_group(match_id), {"type": "match.changed", "version": version}
    try:
        if isinstance(layer, InMemoryChannelLayer):
            async_to_sync(layer.group_send)(group, message)
            return
        sent = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), _broadcast_loop())
        sent.add_done_callback(lambda f: _broadcast_failed(f, match_id, version))
    except Exception:  # a broadcast failure must not fail the committed action; clients resync on reconnect
        log.exception("broadcast of match %s v%s failed", match_id, version)


_broadcaster: tuple[asyncio.AbstractEventLoop, threading.Thread] | None = None
_broadcaster_lock = threading.Lock()


def _broadcast_loop() -> asyncio.AbstractEventLoop:
    """This process's event loop for channel-layer messages (one thread, started on first use and after fork)."""
    global _broadcaster
    with _broadcaster_lock:
        if _broadcaster is None or not _broadcaster[1].is_alive():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="match-broadcast", daemon=True)
            thread.start()
            _broadcaster = (loop, thread)
        return _broadcaster[0]


def _broadcast_failed(sent: Future[Any], match_id: int, version: int) -> None:
    if not sent.cancelled() and sent.exception() is not None:
        log.error("broadcast of match %s v%s failed: %r", match_id, version, sent.exception())
