"""AI moves in a REAL Celery worker (prefork, so time limits hold): a search that never ends is cut by the
task's soft time limit and the greedy move plays that decision, so the game goes on.

Run: DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test pytest tests/integration/test_celery_ai.py
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

import matches.tests.slowgame  # noqa: F401  (registers kind "slow-counting" in this process too)
from matches.models import ActionLog, Match, MatchStatus
from matches.services.lobby import match_create
from matches.services.submit import action_submit
from tests.services import Worker, service_env

pytestmark = [pytest.mark.celery_worker, pytest.mark.postgres]


@pytest.fixture
def prefork_worker(redis_url: str, shared_db: str, celery_producer: Any, tmp_path: Path) -> Iterator[Worker]:
    env = service_env(redis_url=redis_url, database_url=shared_db)
    env.update(AI_TASK_SLICE_S="0.5", AI_TIME_LIMIT_MARGIN_S="2")  # soft limit about 2.5 s (test scale)
    w = Worker(env, tmp_path, pool="prefork")
    w.start()
    yield w
    w.stop()


def test_an_endless_search_is_cut_by_the_soft_time_limit_and_the_greedy_move_is_played(
    prefork_worker: Worker,
) -> None:
    alice = get_user_model().objects.create_user("alice", password="x")
    match = match_create(
        user=alice, kind="slow-counting", vs_ai=True, ai_agent="hard", rules_config={"target": 99}
    )
    match.refresh_from_db()
    if match.state["turn"] == 0:
        action_submit(match_id=match.pk, user=alice, action_json={"type": "add", "n": 1}, state_version=0)
    end = time.monotonic() + 30
    entry = None
    while entry is None and time.monotonic() < end:
        entry = ActionLog.objects.filter(match=match, source="ai").first()
        time.sleep(0.1)
    log = prefork_worker.output()
    assert entry is not None, log[-3000:]
    assert entry.action == {"type": "add", "n": 2}  # the greedy fallback's move
    assert "SoftTimeLimitExceeded" in log and "playing the greedy move instead" in log
    match = Match.objects.get(pk=match.pk)
    assert match.status == MatchStatus.ACTIVE and match.task_failures == 0
