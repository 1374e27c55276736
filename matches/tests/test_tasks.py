"""Celery wiring of online play (eager here; tests/integration runs a real worker): timers, sweep, AI."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.utils import timezone

from config.celery import app
from matches import tasks
from matches.models import Match, MatchStatus, Seat
from matches.services.lobby import match_create, match_join, match_start
from matches.services.submit import action_submit

pytestmark = pytest.mark.django_db

GRACE = timedelta(seconds=60)  # a timer left unrun this long past its deadline expires (sweep covers it)


def test_the_sweep_runs_every_second_under_beat() -> None:
    entry = app.conf.beat_schedule["matches-sweep-deadlines"]
    assert entry["task"] == "matches.tasks.sweep_deadlines" and entry["schedule"] == 1.0


def test_near_deadlines_get_an_eta_task_at_the_deadline(
    alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    match = match_create(user=alice, kind="counting", time_control={"initial_s": 60, "increment_s": 0})
    match_join(match_id=match.pk, user=bob)
    with mock.patch.object(tasks.enforce_deadline, "apply_async") as armed:
        with django_capture_on_commit_callbacks(execute=True):
            match_start(match_id=match.pk, user=alice)
    deadline = Seat.objects.get(match=match, deadline__isnull=False).deadline
    armed.assert_called_once_with(args=[match.pk], eta=deadline, expires=deadline + GRACE)


def test_far_deadlines_rest_on_the_stored_deadline_and_the_sweep(
    alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """24 h per move: no far-future eta task (Redis visibility timeout would redeliver it)."""
    match = match_create(user=alice, kind="counting", time_control={"per_move_s": 86400})
    match_join(match_id=match.pk, user=bob)
    with mock.patch.object(tasks.enforce_deadline, "apply_async") as armed:
        with django_capture_on_commit_callbacks(execute=True):
            match_start(match_id=match.pk, user=alice)
    armed.assert_not_called()
    seat = Seat.objects.get(match=match, deadline__isnull=False)
    assert seat.deadline - timezone.now() > timedelta(hours=23)


def test_sweep_enforces_passed_deadlines(started: Match) -> None:
    Seat.objects.filter(match=started, deadline__isnull=False).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    assert tasks.sweep_deadlines() == 1
    started.refresh_from_db()
    assert started.status == MatchStatus.ABORTED  # nobody had moved yet: aborted, no result


def test_eta_task_is_a_no_op_before_the_deadline(started: Match) -> None:
    assert tasks.enforce_deadline(started.pk) == []
    started.refresh_from_db()
    assert started.status == MatchStatus.ACTIVE and started.state_version == 0


def test_sweep_wakes_an_ai_seat_whose_task_was_lost(alice: Any) -> None:
    match = match_create(user=alice, kind="counting", vs_ai=True)  # on-commit hooks do not run here
    match.refresh_from_db()
    ai = Seat.objects.get(match=match, position=1)
    if match.state["turn"] == 0:
        action_submit(match_id=match.pk, user=alice, action_json={"type": "add", "n": 1}, state_version=0)
    Seat.objects.filter(pk=ai.pk).update(clock_started_at=timezone.now() - timedelta(seconds=10))
    before = Match.objects.get(pk=match.pk).state_version
    tasks.sweep_deadlines()
    match.refresh_from_db()
    assert match.state_version == before + 1 and match.state["turn"] == 0


def test_an_action_arms_a_timer_only_for_a_deadline_it_set(
    alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """A mover who keeps the turn keeps their running clock and its armed timer: no second eta task for
    the same deadline (the sweep backs every deadline up anyway); a turn that passes arms the new one."""
    import random

    from matches import selectors
    from matches.tests.commandeer_fixtures import legal_deck

    da, db = legal_deck(alice, "stonehold"), legal_deck(bob, "tidewardens")
    match = match_create(
        user=alice, kind="commandeer", deck_id=da.pk, time_control={"initial_s": 120, "increment_s": 0}
    )
    match_join(match_id=match.pk, user=bob, deck_id=db.pk)
    with django_capture_on_commit_callbacks(execute=True):
        match_start(match_id=match.pk, user=alice)
    users, rng = {0: alice, 1: bob}, random.Random(2)
    kept = passed = 0
    for _ in range(60):
        m, _ = selectors.match_get_for_viewer(match_id=match.pk, user=alice)
        if m.status != MatchStatus.ACTIVE or (kept and passed):
            break
        who = selectors.match_snapshot(match=m, you=None)["current_players"][0]
        m, you = selectors.match_get_for_viewer(match_id=match.pk, user=users[who])
        snap = selectors.match_snapshot(match=m, you=you)
        with mock.patch.object(tasks.enforce_deadline, "apply_async") as armed:
            with django_capture_on_commit_callbacks(execute=True):
                result = action_submit(
                    match_id=match.pk,
                    user=users[who],
                    action_json=rng.choice(snap["legal_actions"])["action"],
                    state_version=snap["state_version"],
                )
        if result.current_players == [who]:
            kept += 1
            armed.assert_not_called()
        elif result.current_players:
            passed += 1
            deadline = Seat.objects.get(match=match, position=result.current_players[0]).deadline
            armed.assert_called_once_with(args=[match.pk], eta=deadline, expires=deadline + GRACE)
    assert kept and passed, (kept, passed)


def test_ai_moves_have_a_queue_of_their_own_that_a_plain_worker_consumes() -> None:
    """A backlog of deadline timers must not starve the AI (soak of `make run`): separate queues."""
    from config.celery import app

    assert app.amqp.router.route({}, "matches.tasks.ai_move")["queue"].name == "ai"
    assert app.amqp.router.route({}, "matches.tasks.enforce_deadline")["queue"].name == "celery"
    assert {q.name for q in app.conf.task_queues} == {"celery", "ai"}  # a worker without -Q takes both
