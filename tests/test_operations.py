"""Running past one machine: one beat (RedBeat's lock), broker timeouts sized to the tasks, timers that expire,
and production settings that refuse to run without Redis. The real-Redis beat tests are in
tests/integration/test_operations_celery.py."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.conf import settings
from django.test import override_settings
from django.utils import timezone

import matches.tests.fakegame  # noqa: F401  (registers kind "counting")

ROOT = Path(__file__).resolve().parent.parent


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """A fresh shell's environment (none of the caller's Django or Redis settings) plus `extra`."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "VAR_DIR": str(tmp_path)}
    env.update(extra)
    return env


def _celery_conf(tmp_path: Path, **env: str) -> dict[str, Any]:
    code = (
        "import django, json; django.setup(); from config.celery import app; c = app.conf; "
        "from redbeat.schedulers import RedBeatConfig; r = RedBeatConfig(app); "  # what RedBeat reads
        "print(json.dumps([c.beat_scheduler, r.lock_timeout, c.beat_max_loop_interval, r.redis_url, "
        "c.broker_transport_options.get('visibility_timeout')]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=_env(tmp_path, **env), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    scheduler, lock, loop, redis_url, visibility = json.loads(done.stdout.strip().splitlines()[-1])
    return {"scheduler": scheduler, "lock": lock, "loop": loop, "redis": redis_url, "visibility": visibility}


# ---- one beat ------------------------------------------------------------------------------------------
def test_with_redis_url_the_beat_is_redbeat_with_a_short_lock(tmp_path: Path) -> None:
    conf = _celery_conf(
        tmp_path,
        DJANGO_SETTINGS_MODULE="config.settings.prod",
        SECRET_KEY="x",
        REDIS_URL="redis://127.0.0.1:1/3",  # never connected to: only the configuration is read
    )
    assert conf["scheduler"] == "config.beat:Scheduler"
    from redbeat.schedulers import RedBeatScheduler

    from config.beat import Scheduler

    assert issubclass(Scheduler, RedBeatScheduler)
    assert conf["redis"] == "redis://127.0.0.1:1/3"
    # a standby beat takes over within about a lock timeout: short, and renewed well within it
    assert 10 <= conf["lock"] <= 60
    assert conf["loop"] * 3 <= conf["lock"]


def test_the_lock_timeout_comes_from_the_environment(tmp_path: Path) -> None:
    conf = _celery_conf(
        tmp_path,
        DJANGO_SETTINGS_MODULE="config.settings.prod",
        SECRET_KEY="x",
        REDIS_URL="redis://127.0.0.1:1/3",
        REDBEAT_LOCK_TIMEOUT_S="12",
    )
    assert conf["lock"] == 12 and conf["loop"] == 2


def test_without_redis_the_beat_of_make_run_is_celerys_file_scheduler(tmp_path: Path) -> None:
    conf = _celery_conf(tmp_path, DJANGO_SETTINGS_MODULE="config.settings.dev")
    assert conf["scheduler"] == "celery.beat:PersistentScheduler"
    assert conf["visibility"] is None  # the filesystem broker


def _make_target(name: str) -> str:
    text = (ROOT / "Makefile").read_text()
    found = re.search(rf"^{name}:.*\n((?:\t.*\n)+)", text, re.M)
    assert found, f"no `make {name}`"
    return found.group(1)


def test_no_worker_runs_the_beat_and_the_beat_has_a_process_of_its_own() -> None:
    procfile = dict(
        line.split(":", 1)
        for line in (ROOT / "Procfile").read_text().splitlines()
        if re.match(r"^\w+:", line)
    )
    for command in (procfile["worker"], _make_target("worker")):
        assert " worker " in command and "--beat" not in command and " -B" not in command
    for command in (procfile["beat"], _make_target("beat")):
        assert "celery -A config beat" in command and " worker" not in command
    assert "-Q celery,ai" in procfile["worker"]


# ---- broker timeouts and timers ------------------------------------------------------------------------
def test_the_visibility_timeout_is_above_the_longest_task_and_far_below_an_hour() -> None:
    from matches import tasks
    from matches.clocks import EAGER_TIMER_HORIZON
    from matches.services.notify import TIMER_GRACE

    visibility = settings.CELERY_VISIBILITY_TIMEOUT_S
    assert visibility > tasks.AI_TIME_LIMIT_S  # an AI task still thinking is never handed to a second worker
    assert visibility > (EAGER_TIMER_HORIZON + TIMER_GRACE).total_seconds()  # nor a timer held until its eta
    # a killed worker's task goes to another worker within minutes (it was 3,600 s)
    assert visibility <= 600
    assert tasks.visibility_timeout_problem() is None


def test_every_task_has_a_hard_time_limit_below_the_visibility_timeout() -> None:
    """A task without one could run past the visibility timeout: Redis would then hand it to a second worker."""
    from config.celery import app
    from matches import tasks

    ours = {name: task for name, task in app.tasks.items() if name.startswith("matches.")}
    assert {
        "matches.tasks.enforce_deadline",
        "matches.tasks.sweep_deadlines",
        "matches.tasks.ai_move",
    } <= set(ours)
    for name, task in ours.items():
        assert task.time_limit and task.soft_time_limit and task.soft_time_limit < task.time_limit, name
        assert task.time_limit <= tasks.longest_unacked_s() < settings.CELERY_VISIBILITY_TIMEOUT_S, name


def test_the_redis_broker_uses_that_visibility_timeout(tmp_path: Path) -> None:
    conf = _celery_conf(
        tmp_path, DJANGO_SETTINGS_MODULE="config.settings.dev", REDIS_URL="redis://127.0.0.1:1/3"
    )
    assert conf["visibility"] == 300


def test_the_longest_ai_budget_still_fits_in_the_visibility_timeout(tmp_path: Path) -> None:
    code = (
        "import django; django.setup(); from django.conf import settings; from matches import tasks; "
        "print(tasks.AI_TIME_LIMIT_S, settings.CELERY_VISIBILITY_TIMEOUT_S, tasks.visibility_timeout_problem())"
    )
    env = _env(tmp_path, DJANGO_SETTINGS_MODULE="config.settings.dev", REDIS_URL="redis://127.0.0.1:1/3")
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**env, "AI_BUDGET_SCALE": "10"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    hard, visibility, problem = done.stdout.split()
    assert float(hard) < float(visibility) and problem == "None"


def test_a_visibility_timeout_too_short_for_the_tasks_is_named() -> None:
    from matches import tasks

    with override_settings(CELERY_BROKER_TRANSPORT_OPTIONS={"visibility_timeout": 20}):
        problem = tasks.visibility_timeout_problem()
    assert problem and problem.startswith("CELERY_VISIBILITY_TIMEOUT_S=20 must be above")


def test_a_worker_refuses_to_start_with_a_visibility_timeout_shorter_than_a_task(tmp_path: Path) -> None:
    env = _env(
        tmp_path,
        DJANGO_SETTINGS_MODULE="config.settings.dev",
        REDIS_URL="redis://127.0.0.1:1/3",
        CELERY_VISIBILITY_TIMEOUT_S="100",
    )
    done = subprocess.run(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-P", "solo"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1].startswith("CELERY_VISIBILITY_TIMEOUT_S=100 must be above")


@pytest.fixture
def two_players(db: Any) -> tuple[Any, Any]:
    from django.contrib.auth import get_user_model

    User = get_user_model()
    return User.objects.create_user("alice", password="x"), User.objects.create_user("bob", password="x")


def _started_after_both_moved(alice: Any, bob: Any) -> Any:
    from matches.models import Match
    from matches.services.lobby import match_create, match_join, match_start
    from matches.services.submit import action_submit

    match = match_create(
        user=alice,
        kind="counting",
        time_control={"initial_s": 60, "increment_s": 0},
        rules_config={"target": 99},
    )
    match_join(match_id=match.pk, user=bob)
    match_start(match_id=match.pk, user=alice)
    for _ in range(2):
        match = Match.objects.get(pk=match.pk)
        action_submit(
            match_id=match.pk,
            user=alice if match.state["turn"] == 0 else bob,
            action_json={"type": "add", "n": 1},
            state_version=match.state_version,
        )
    return Match.objects.get(pk=match.pk)


def test_every_deadline_timer_expires_shortly_after_its_deadline(
    two_players: tuple[Any, Any], django_capture_on_commit_callbacks: Any
) -> None:
    from matches import tasks
    from matches.models import Match, Seat
    from matches.services.notify import TIMER_GRACE

    alice, bob = two_players
    with mock.patch.object(tasks.enforce_deadline, "apply_async") as armed:
        with django_capture_on_commit_callbacks(execute=True):
            match = _started_after_both_moved(alice, bob)
    assert armed.call_count >= 1
    deadline = Seat.objects.get(match=Match.objects.get(pk=match.pk), deadline__isnull=False).deadline
    last = armed.call_args
    assert last.kwargs["eta"] == deadline and last.kwargs["expires"] == deadline + TIMER_GRACE
    assert TIMER_GRACE <= timedelta(minutes=2)


def test_a_passed_deadline_whose_timer_expired_is_enforced_once_by_two_overlapping_sweeps(
    two_players: tuple[Any, Any],
) -> None:
    """Two beats during a takeover may both send the sweep: the deadline is still applied exactly once."""
    from matches import tasks
    from matches.models import ActionLog, Seat

    match = _started_after_both_moved(*two_players)
    # long past: its timer expired unrun (dropped by the worker); only the sweep can enforce it now
    Seat.objects.filter(match=match, deadline__isnull=False).update(
        deadline=timezone.now() - timedelta(minutes=5)
    )
    assert tasks.sweep_deadlines() == 1
    assert tasks.sweep_deadlines() == 0
    assert tasks.enforce_deadline(match.pk) == []
    assert ActionLog.objects.filter(match=match, source="timeout").count() == 1


def test_a_deadline_out_of_time_backs_off_its_match_and_stops_the_sweep(two_players: tuple[Any, Any]) -> None:
    from celery.exceptions import SoftTimeLimitExceeded

    from matches import tasks
    from matches.models import Match, Seat
    from matches.services.timeouts import expired_match_ids

    match = _started_after_both_moved(*two_players)
    Seat.objects.filter(match=match, deadline__isnull=False).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    with mock.patch.object(tasks, "clock_enforce", side_effect=SoftTimeLimitExceeded()):
        with pytest.raises(SoftTimeLimitExceeded):
            tasks.sweep_deadlines()
    assert Match.objects.get(pk=match.pk).task_retry_at is not None  # backing off: the next sweeps skip it
    assert expired_match_ids() == []


# ---- production needs Redis ----------------------------------------------------------------------------
def _check(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=_env(tmp_path, **env),
        capture_output=True,
        text=True,
    )


def test_production_without_redis_url_refuses_to_start_with_one_line(tmp_path: Path) -> None:
    done = _check(tmp_path, SECRET_KEY="x")
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("REDIS_URL is not set"), done.stderr
    assert "SINGLE_PROCESS=1" in lines[0]


def test_production_with_redis_url_or_single_process_starts(tmp_path: Path) -> None:
    assert _check(tmp_path, SECRET_KEY="x", REDIS_URL="redis://127.0.0.1:1/0").returncode == 0
    single = _check(tmp_path, SECRET_KEY="x", SINGLE_PROCESS="1")
    assert single.returncode == 0, single.stderr


@pytest.mark.parametrize("module", ["config.settings.dev", "config.settings.test"])
def test_development_and_tests_run_without_redis(tmp_path: Path, module: str) -> None:
    done = _check(tmp_path, DJANGO_SETTINGS_MODULE=module)
    assert done.returncode == 0, done.stderr
