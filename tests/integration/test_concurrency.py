"""Concurrency of the action service on PostgreSQL: row locks, idempotency keys and state versions under threads.

Run: DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test pytest tests/integration -m postgres
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections

from config.errors import ApplicationError
from matches.models import ActionLog, IdempotencyRecord, Match, MatchStatus
from matches.services.lobby import match_create, match_join, match_start
from matches.services.submit import action_submit

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg(transactional_db: Any) -> None:
    from tests.services import unavailable

    if connection.vendor != "postgresql":
        unavailable("needs PostgreSQL: run with DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test")


def started(target: int = 10) -> tuple[Match, Any, Any]:
    User = get_user_model()
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    match = match_create(user=alice, kind="counting", rules_config={"target": target})
    match_join(match_id=match.pk, user=bob)
    match_start(match_id=match.pk, user=alice)
    match.refresh_from_db()
    return match, alice, bob


def run_at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run every call in its own thread, released together by a barrier; return results or errors."""
    barrier = threading.Barrier(len(calls))

    def go(fn: Callable[[], Any]) -> Any:
        try:
            barrier.wait()
            return fn()
        except ApplicationError as exc:
            return exc
        finally:
            connections.close_all()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(go, calls))


def test_50_concurrent_retries_with_one_idempotency_key_apply_exactly_once(pg: None) -> None:
    match, alice, bob = started()
    me = alice if match.state["turn"] == 0 else bob

    def submit() -> Any:
        return action_submit(
            match_id=match.pk,
            user=me,
            action_json={"type": "add", "n": 1},
            state_version=0,
            idempotency_key="once",
        )

    results = run_at_once([submit] * 50)
    assert all(not isinstance(r, Exception) for r in results), [
        r for r in results if isinstance(r, Exception)
    ][:3]
    assert {r.state_version for r in results} == {1}
    assert sum(not r.replayed for r in results) == 1
    match.refresh_from_db()
    assert match.state_version == 1 and match.state["total"] == 1
    assert ActionLog.objects.filter(match=match).count() == 1
    assert IdempotencyRecord.objects.filter(match=match).count() == 1


def test_two_players_racing_at_one_version_one_wins_the_other_gets_409(pg: None) -> None:
    match, alice, bob = started()

    def submit(user: Any) -> Callable[[], Any]:
        return lambda: action_submit(
            match_id=match.pk, user=user, action_json={"type": "add", "n": 1}, state_version=0
        )

    results = run_at_once([submit(alice), submit(bob)])
    wins = [r for r in results if not isinstance(r, Exception)]
    losses = [r for r in results if isinstance(r, ApplicationError)]
    assert len(wins) == 1 and len(losses) == 1
    assert losses[0].status_code == 409 and losses[0].code in {"stale_state", "not_your_turn"}


def test_two_tabs_racing_different_actions_one_applies_the_other_is_stale(pg: None) -> None:
    match, alice, bob = started()
    me = alice if match.state["turn"] == 0 else bob

    def submit(n: int) -> Callable[[], Any]:
        return lambda: action_submit(
            match_id=match.pk, user=me, action_json={"type": "add", "n": n}, state_version=0
        )

    results = run_at_once([submit(1), submit(2)] * 5)
    errors = Counter(r.code for r in results if isinstance(r, ApplicationError))
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert errors == {"stale_state": 9}


def test_hammering_players_leave_a_gap_free_log(pg: None) -> None:
    match, alice, bob = started(target=60)

    def player(user: Any) -> Callable[[], int]:
        def loop() -> int:
            applied = 0
            for _ in range(400):
                m = Match.objects.get(pk=match.pk)
                if m.status != MatchStatus.ACTIVE:
                    break
                try:
                    action_submit(
                        match_id=m.pk,
                        user=user,
                        action_json={"type": "add", "n": 1},
                        state_version=m.state_version,
                    )
                    applied += 1
                except ApplicationError as exc:
                    assert exc.code in {"stale_state", "not_your_turn", "game_over"}, exc.code
            return applied

        return loop

    applied = run_at_once([player(alice), player(bob)] * 3)
    match.refresh_from_db()
    versions = list(
        ActionLog.objects.filter(match=match).order_by("version").values_list("version", flat=True)
    )
    assert match.status == MatchStatus.FINISHED
    assert versions == list(range(1, match.state_version + 1)) and sum(applied) == len(versions)
    assert match.state["total"] == 60


def test_ten_simultaneous_creates_of_one_user_make_one_match(pg: None) -> None:
    """A double (or tenfold) click on "Play against the AI" at the same instant: the user's row lock decides
    them one after the other, and all but the first find the match the first made."""
    from matches.services.lobby import match_create_once

    alice = get_user_model().objects.create_user("alice")
    settings = {"kind": "counting", "vs_ai": True, "time_control": {"initial_s": 300, "increment_s": 10}}
    results = run_at_once([lambda: match_create_once(user=alice, **settings) for _ in range(10)])
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sorted(created for _, created in results) == [False] * 9 + [True]
    assert len({m.pk for m, _ in results}) == 1 and Match.objects.filter(created_by=alice).count() == 1
