"""Turn clocks and AI seats with a REAL Redis broker and a REAL Celery worker (subprocess, embedded beat).

Run: DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test pytest tests/integration -m celery_worker
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from matches.models import ActionLog, Match, MatchStatus, Seat
from matches.services.lobby import match_create, match_join, match_start
from matches.services.submit import action_submit

pytestmark = [pytest.mark.celery_worker, pytest.mark.postgres]


def users() -> tuple[Any, Any]:
    User = get_user_model()
    return User.objects.create_user("alice", password="x"), User.objects.create_user("bob", password="x")


def mover(match: Match, alice: Any, bob: Any) -> Any:
    match.refresh_from_db()
    return alice if match.state["turn"] == 0 else bob


def started_match(alice: Any, bob: Any, *, initial_s: int) -> Match:
    """A started counting match in which both players have moved once (so a timeout is not an abort)."""
    match = match_create(
        user=alice,
        kind="counting",
        time_control={"initial_s": initial_s, "increment_s": 0},
        rules_config={"target": 99},
    )
    match_join(match_id=match.pk, user=bob)
    match_start(match_id=match.pk, user=alice)
    for _ in range(2):
        match.refresh_from_db()
        action_submit(
            match_id=match.pk,
            user=mover(match, alice, bob),
            action_json={"type": "add", "n": 1},
            state_version=match.state_version,
        )
    match.refresh_from_db()
    return match


def wait_for(predicate: Any, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def timeout_entry(match: Match) -> ActionLog | None:
    return ActionLog.objects.filter(match=match, source="timeout").first()


def test_a_timed_out_turn_is_enforced_within_2s_of_its_deadline(worker: Any) -> None:
    alice, bob = users()
    match = started_match(alice, bob, initial_s=5)
    seat = Seat.objects.get(match=match, deadline__isnull=False)
    deadline = seat.deadline
    assert wait_for(lambda: timeout_entry(match) is not None, 12), worker.output()[-3000:]
    entry = timeout_entry(match)
    late = (entry.created_at - deadline).total_seconds()
    assert 0 <= late <= 2.0, f"enforced {late:.3f}s after the deadline"
    assert entry.seat == seat.position and entry.action == {"type": "add", "n": 1}
    assert Seat.objects.get(pk=seat.pk).consecutive_timeouts == 1


def test_killing_the_worker_holding_the_timer_still_enforces_the_deadline(worker: Any) -> None:
    alice, bob = users()
    match = started_match(alice, bob, initial_s=6)
    deadline = Seat.objects.get(match=match, deadline__isnull=False).deadline
    # the worker has received the eta task for this deadline (it holds it, unacked, until the eta)
    assert wait_for(lambda: "enforce_deadline" in worker.output(), 5), worker.output()[-3000:]
    worker.kill()
    time.sleep(max(0.0, (deadline.timestamp() - time.time())) + 0.5)
    assert timeout_entry(match) is None  # nobody enforced it while the worker was dead
    restarted_at = time.time()
    worker.start()
    assert wait_for(lambda: timeout_entry(match) is not None, 10), worker.output()[-3000:]
    entry = timeout_entry(match)
    assert entry.created_at.timestamp() - restarted_at <= 10
    assert ActionLog.objects.filter(match=match, source="timeout").count() == 1  # exactly once


def test_a_first_move_that_never_comes_aborts_the_match(worker: Any) -> None:
    alice, bob = users()
    match = match_create(user=alice, kind="counting", time_control={"initial_s": 5, "increment_s": 0})
    match_join(match_id=match.pk, user=bob)
    match_start(match_id=match.pk, user=alice)
    assert wait_for(lambda: Match.objects.get(pk=match.pk).status == MatchStatus.ABORTED, 10), (
        worker.output()[-3000:]
    )
    assert Match.objects.get(pk=match.pk).result["winner"] is None


AI_BUDGET_S = 3.0


def test_an_ai_seat_moves_within_its_time_budget(worker: Any) -> None:
    alice, _ = users()
    match = match_create(user=alice, kind="counting", vs_ai=True, rules_config={"target": 99})
    match.refresh_from_db()
    if match.state["turn"] == 1:  # the AI opens: wait for its move
        assert wait_for(lambda: Match.objects.get(pk=match.pk).state["turn"] == 0, AI_BUDGET_S + 5)
    for _ in range(3):
        match.refresh_from_db()
        before = match.state_version
        sent = time.monotonic()
        action_submit(
            match_id=match.pk, user=alice, action_json={"type": "add", "n": 1}, state_version=before
        )
        assert wait_for(
            lambda v=before: Match.objects.get(pk=match.pk).state_version == v + 2, AI_BUDGET_S
        ), worker.output()[-3000:]
        assert time.monotonic() - sent <= AI_BUDGET_S
    assert set(ActionLog.objects.filter(match=match, seat=1).values_list("source", flat=True)) == {"ai"}


def human_to_act(match_id: int) -> bool:
    """The Commandeer match waits for seat 0 (the human) again, or is over."""
    from matches.games.registry import get_game
    from matches.storage import load_state

    match = Match.objects.get(pk=match_id)
    if match.status != MatchStatus.ACTIVE:
        return True
    return 0 in get_game("commandeer").current_players(load_state(match, get_game("commandeer")))


def test_a_commandeer_greedy_ai_answers_within_its_time_budget(worker: Any) -> None:
    """Each time the human hands over, the worker's GreedyAgent plays its whole part within the budget."""
    import random

    from matches.games.registry import get_game
    from matches.storage import load_state
    from matches.tests.commandeer_fixtures import legal_deck

    alice, _ = users()
    deck = legal_deck(alice, "stonehold")
    match = match_create(user=alice, kind="commandeer", deck_id=deck.pk, vs_ai=True)
    game, rng = get_game("commandeer"), random.Random(3)
    assert wait_for(lambda: human_to_act(match.pk), AI_BUDGET_S + 5), worker.output()[-3000:]
    handovers = 0
    for _ in range(60):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE or handovers >= 4:
            break
        state = load_state(match, game)
        action = game.ai_action(state, 0, rng=rng, agent="greedy")
        sent = time.monotonic()
        action_submit(
            match_id=match.pk, user=alice, action_json=action.to_json(), state_version=match.state_version
        )
        if not human_to_act(match.pk):
            handovers += 1
            assert wait_for(lambda: human_to_act(match.pk), AI_BUDGET_S), worker.output()[-3000:]
            assert time.monotonic() - sent <= AI_BUDGET_S
    assert handovers >= 2
    assert ActionLog.objects.filter(match=match, seat=1, source="ai").count() >= 2
