"""A failing task stops, so one broken match cannot keep a worker busy: an AI or clock task that raises
for a match is retried after a growing back-off a bounded number of times, then the match is aborted
("internal error", no winner) for all to see."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.contrib.admin.sites import site
from django.test import RequestFactory
from django.utils import timezone

from config.celery import app
from matches import selectors, tasks
from matches.models import Match, MatchStatus, Seat
from matches.services.failures import TASK_BACKOFF_S, TASK_MAX_FAILURES, task_failed
from matches.services.lobby import match_create
from matches.services.submit import action_submit
from matches.services.timeouts import stalled_ai_match_ids
from matches.tests.fakegame import CountingGame

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def eager_retries() -> Any:
    """Eager tasks run a retry inline only when they do not propagate errors (Celery raises `Retry` else)."""
    keys = ("CELERY_TASK_EAGER_PROPAGATES", "task_eager_propagates")
    before = {k: app.conf[k] for k in keys}
    app.conf.update({k: False for k in keys})
    try:
        yield
    finally:
        app.conf.update(before)


def ai_to_move(alice: Any) -> Match:
    """A started counting match against the AI, where the AI must move now (no task has run: no hooks)."""
    match = match_create(user=alice, kind="counting", vs_ai=True)
    match.refresh_from_db()
    if match.state["turn"] == 0:
        action_submit(match_id=match.pk, user=alice, action_json={"type": "add", "n": 1}, state_version=0)
        match.refresh_from_db()
    assert match.state["turn"] == 1
    return match


class Exploding:
    """Counts the calls of a patched engine method that always raises."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        raise RuntimeError("the engine exploded")


def test_an_ai_whose_engine_raises_is_retried_then_the_match_is_aborted(alice: Any) -> None:
    match = ai_to_move(alice)
    boom = Exploding()
    with mock.patch.object(CountingGame, "ai_action", boom):
        assert tasks.ai_move.delay(match.pk, match.state_version).get() == 0  # eager: the retries run inline
        for _ in range(30):  # a second of sweeps each: none wakes the AI of a stopped match again
            tasks.sweep_deadlines()
    # each failure: the seat's level raised, then its greedy fallback raised too (the engine itself fails)
    assert boom.calls == 2 * TASK_MAX_FAILURES
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED
    assert match.result["reason"] == "internal_error" and match.result["winner"] is None
    assert "internal error" in match.result["text"] and "RuntimeError" in match.task_error
    assert not Seat.objects.filter(match=match, deadline__isnull=False).exists()  # no clock runs on


def test_the_match_page_state_shows_why_it_stopped(alice: Any) -> None:
    match = ai_to_move(alice)
    with mock.patch.object(CountingGame, "ai_action", Exploding()):
        tasks.ai_move.delay(match.pk, None)
    m, you = selectors.match_get_for_viewer(match_id=match.pk, user=alice)
    snapshot = selectors.match_snapshot(match=m, you=you)
    assert snapshot["status"] == "aborted" and snapshot["result"]["reason"] == "internal_error"
    assert "task_error" not in str(snapshot) and "exploded" not in str(
        snapshot
    )  # the trace is for staff only


def test_the_ai_retries_with_a_growing_back_off(alice: Any) -> None:
    match = ai_to_move(alice)
    countdowns: list[int] = []
    real_retry = tasks.ai_move.retry

    def spy(*args: Any, **kwargs: Any) -> Any:
        countdowns.append(kwargs["countdown"])
        return real_retry(*args, **kwargs)

    with (
        mock.patch.object(CountingGame, "ai_action", Exploding()),
        mock.patch.object(tasks.ai_move, "retry", spy),
    ):
        tasks.ai_move.delay(match.pk, None)
    assert countdowns == list(TASK_BACKOFF_S[: TASK_MAX_FAILURES - 1])
    assert countdowns == sorted(countdowns) and countdowns[0] < countdowns[-1]


def test_the_sweep_leaves_a_failing_ai_alone_while_it_backs_off(alice: Any) -> None:
    """Before: `stalled_ai_match_ids` re-queued a failing AI every second (294 failures of one match)."""
    match = ai_to_move(alice)
    Seat.objects.filter(match=match, position=1).update(
        clock_started_at=timezone.now() - timedelta(seconds=10)
    )
    assert stalled_ai_match_ids() == [match.pk]
    assert task_failed(match_id=match.pk, error=RuntimeError("x")) == TASK_BACKOFF_S[0]
    assert stalled_ai_match_ids() == []
    later = timezone.now() + timedelta(seconds=TASK_BACKOFF_S[0] + 6)
    assert stalled_ai_match_ids(now=later) == [match.pk]  # the safety net still works after it


def test_a_successful_move_clears_the_failure_count(alice: Any) -> None:
    match = ai_to_move(alice)
    task_failed(match_id=match.pk, error=RuntimeError("once"))
    tasks.ai_move.delay(match.pk, None)
    match.refresh_from_db()
    assert match.task_failures == 0 and match.task_retry_at is None and match.status == MatchStatus.ACTIVE


def test_a_clock_task_that_raises_backs_off_then_aborts(started: Match) -> None:
    """The clock path: the sweep runs the expired match once per back-off, then the match stops."""
    Seat.objects.filter(match=started, deadline__isnull=False).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    Seat.objects.filter(match=started).update(has_moved=True)
    boom = Exploding()
    with mock.patch.object(CountingGame, "timeout_action", boom):
        for _ in range(3):  # three sweeps in the same second: one failure, then the back-off holds
            tasks.sweep_deadlines()
        assert boom.calls == 1
        for _ in range(20):  # the back-off passes each time (simulated): one more try per sweep
            Match.objects.filter(pk=started.pk).update(task_retry_at=timezone.now() - timedelta(seconds=1))
            tasks.sweep_deadlines()
    assert boom.calls == TASK_MAX_FAILURES
    started.refresh_from_db()
    assert started.status == MatchStatus.ABORTED and started.result["reason"] == "internal_error"


def test_staff_find_the_aborted_matches_in_the_admin(alice: Any, make_user: Any) -> None:
    match = ai_to_move(alice)
    other = match_create(user=alice, kind="counting")
    for _ in range(TASK_MAX_FAILURES):
        task_failed(match_id=match.pk, error=RuntimeError("boom"))
    admin = site._registry[Match]
    staff = make_user("staff")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    request = RequestFactory().get("/admin/matches/match/", {"end_reason": "internal_error"})
    request.user = staff
    found = admin.get_changelist_instance(request).get_queryset(request)
    assert list(found) == [Match.objects.get(pk=match.pk)] and other not in found
    assert admin.end_reason(found[0]) == "internal_error"
    assert "task_error" in admin.readonly_fields and "task_failures" in admin.list_display
