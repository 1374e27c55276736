"""The action service and lobby services, played with the counting test game."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from config.errors import ApplicationError
from matches.models import ActionLog, IdempotencyRecord, Match, MatchStatus, Seat
from matches.services.lobby import match_concede, match_create, match_join, match_leave, match_start
from matches.services.submit import action_submit
from matches.services.timeouts import clock_enforce, expired_match_ids
from matches.storage import load_state
from matches.tests.conftest import mover

pytestmark = pytest.mark.django_db


def submit(match: Match, user: Any, action: dict, key: str | None = None, version: int | None = None) -> Any:
    match.refresh_from_db()
    return action_submit(
        match_id=match.pk,
        user=user,
        action_json=action,
        state_version=match.state_version if version is None else version,
        idempotency_key=key,
    )


def error_of(fn: Any, *args: Any, **kwargs: Any) -> ApplicationError:
    with pytest.raises(ApplicationError) as exc:
        fn(*args, **kwargs)
    return exc.value


def test_create_join_start_seats_players_and_starts_clocks(started: Match) -> None:
    assert started.status == MatchStatus.ACTIVE
    assert started.state_version == 0
    seats = list(started.seats.order_by("position"))
    assert [s.user.username for s in seats] == ["alice", "bob"]
    running = [s for s in seats if s.deadline is not None]
    assert [s.position for s in running] == [started.state["turn"]]


def test_start_needs_every_seat(alice: Any) -> None:
    match = match_create(user=alice, kind="counting")
    assert error_of(match_start, match_id=match.pk, user=alice).code == "seats_open"


def test_private_match_needs_the_invite_token(alice: Any, bob: Any) -> None:
    match = match_create(user=alice, kind="counting", is_public=False)
    assert error_of(match_join, match_id=match.pk, user=bob).status_code == 403
    match_join(match_id=match.pk, user=bob, invite_token=match.invite_token)
    assert match.seats.count() == 2


def test_third_player_cannot_join_a_full_match(started: Match, carol: Any) -> None:
    assert error_of(match_join, match_id=started.pk, user=carol).code == "match_started"


def test_unknown_game_kind_is_a_clear_400(alice: Any) -> None:
    err = error_of(match_create, user=alice, kind="chess")
    assert (err.code, err.status_code) == ("unknown_game", 400)


def test_a_legal_action_is_applied_logged_and_versioned(started: Match, alice: Any, bob: Any) -> None:
    me, _ = mover(started, alice, bob)
    result = submit(started, me, {"type": "add", "n": 2})
    started.refresh_from_db()
    assert result.state_version == 1 == started.state_version
    assert started.state["total"] == 2
    entry = ActionLog.objects.get(match=started)
    assert entry.version == 1 and entry.action == {"type": "add", "n": 2}
    assert "adds 2" in entry.descriptions["spectator"]


def test_not_your_turn(started: Match, alice: Any, bob: Any) -> None:
    _, other = mover(started, alice, bob)
    err = error_of(submit, started, other, {"type": "add", "n": 1})
    assert (err.code, err.status_code) == ("not_your_turn", 409)


def test_stale_state_names_the_current_version(started: Match, alice: Any, bob: Any) -> None:
    me, _ = mover(started, alice, bob)
    submit(started, me, {"type": "add", "n": 1})
    me, _ = mover(started, alice, bob)
    err = error_of(submit, started, me, {"type": "add", "n": 1}, version=0)
    assert (err.code, err.status_code, err.extra["state_version"]) == ("stale_state", 409, 1)


def test_illegal_action_gives_the_engine_reason_and_changes_nothing(
    started: Match, alice: Any, bob: Any
) -> None:
    me, _ = mover(started, alice, bob)
    err = error_of(submit, started, me, {"type": "play", "card": 99})
    assert err.code == "illegal_action" and "no card worth 99" in err.message
    err = error_of(submit, started, me, {"type": "add", "n": 5})
    assert err.code == "illegal_action"
    err = error_of(submit, started, me, {"nonsense": True})
    assert err.code == "illegal_action" and err.status_code == 400
    started.refresh_from_db()
    assert started.state_version == 0 and not ActionLog.objects.exists()


def test_non_participant_cannot_act(started: Match, carol: Any) -> None:
    err = error_of(submit, started, carol, {"type": "add", "n": 1})
    assert (err.code, err.status_code) == ("not_participant", 403)
    assert error_of(match_concede, match_id=started.pk, user=carol).status_code == 403


def test_retried_submission_applies_once_and_returns_the_first_result(
    started: Match, alice: Any, bob: Any
) -> None:
    me, _ = mover(started, alice, bob)
    first = submit(started, me, {"type": "add", "n": 1}, key="k-1", version=0)
    again = submit(started, me, {"type": "add", "n": 1}, key="k-1", version=0)
    assert again.state_version == first.state_version == 1 and again.replayed
    assert ActionLog.objects.filter(match=started).count() == 1
    assert IdempotencyRecord.objects.count() == 1
    err = error_of(submit, started, me, {"type": "add", "n": 2}, key="k-1", version=0)
    assert err.code == "idempotency_key_reused"


def play_to_end(match: Match, alice: Any, bob: Any) -> None:
    for _ in range(50):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            return
        me, _ = mover(match, alice, bob)
        submit(match, me, {"type": "add", "n": 2})


def test_reaching_the_end_finishes_and_refuses_further_actions(started: Match, alice: Any, bob: Any) -> None:
    play_to_end(started, alice, bob)
    started.refresh_from_db()
    assert started.status == MatchStatus.FINISHED
    assert started.result["winner"] in (0, 1) and started.result["reason"]
    assert list(ActionLog.objects.filter(match=started).values_list("version", flat=True)) == list(
        range(1, started.state_version + 1)
    )
    err = error_of(submit, started, alice, {"type": "add", "n": 1})
    assert (err.code, err.status_code) == ("game_over", 409)
    assert all(s.deadline is None for s in started.seats.all())


def test_concede_gives_the_win_to_the_opponent_c_6_4(started: Match, alice: Any) -> None:
    match_concede(match_id=started.pk, user=alice)
    started.refresh_from_db()
    assert started.status == MatchStatus.FINISHED
    assert started.result["winner"] == 1 and started.result["reason"] == "concede"


def test_leave_before_start_frees_the_seat_and_creator_leaving_cancels(alice: Any, bob: Any) -> None:
    match = match_create(user=alice, kind="counting")
    match_join(match_id=match.pk, user=bob)
    match_leave(match_id=match.pk, user=bob)
    assert match.seats.count() == 1
    match_leave(match_id=match.pk, user=alice)
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED


# ---- clocks ---------------------------------------------------------------------------------------
def expire(match: Match) -> Any:
    seat = Seat.objects.get(match=match, deadline__isnull=False)
    return seat.deadline + timedelta(milliseconds=1)


def test_nothing_happens_before_the_deadline(started: Match) -> None:
    assert clock_enforce(match_id=started.pk, now=timezone.now()) == []


def test_a_first_move_that_never_comes_aborts_the_match_without_result(started: Match) -> None:
    done = clock_enforce(match_id=started.pk, now=expire(started))
    started.refresh_from_db()
    assert done == [f"abort:{started.state['turn']}"]
    assert started.status == MatchStatus.ABORTED and started.result["winner"] is None


def test_timeout_takes_the_default_action_and_passes_the_turn(started: Match, alice: Any, bob: Any) -> None:
    for _ in range(2):  # both players have moved once
        me, _ = mover(started, alice, bob)
        submit(started, me, {"type": "add", "n": 1})
    started.refresh_from_db()
    turn = started.state["turn"]
    done = clock_enforce(match_id=started.pk, now=expire(started))
    started.refresh_from_db()
    assert done == [f"timeout:{turn}@3"]
    assert started.state["total"] == 3 and started.state["turn"] == 1 - turn
    entry = ActionLog.objects.get(match=started, version=3)
    assert entry.source == "timeout" and entry.seat == turn
    assert Seat.objects.get(match=started, position=turn).consecutive_timeouts == 1
    # enforcing again is a no-op: the deadline moved on (idempotent task)
    assert clock_enforce(match_id=started.pk, now=expire(started) - timedelta(seconds=1)) == []


def test_three_timeouts_in_a_row_forfeit(alice: Any, bob: Any) -> None:
    match = match_create(user=alice, kind="counting", rules_config={"target": 100})
    match_join(match_id=match.pk, user=bob)
    match_start(match_id=match.pk, user=alice)
    for _ in range(2):
        me, _ = mover(match, alice, bob)
        submit(match, me, {"type": "add", "n": 1})
    match.refresh_from_db()
    sleeper = match.state["turn"]
    done: list[str] = []
    for _ in range(3):
        done += clock_enforce(match_id=match.pk, now=expire(match))
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        me, _ = mover(match, alice, bob)  # the opponent keeps playing
        submit(match, me, {"type": "add", "n": 1})
    assert done[-1] == f"forfeit:{sleeper}"
    assert match.result == {**match.result, "winner": 1 - sleeper, "reason": "timeout"}


def test_a_real_move_resets_the_timeout_count(started: Match, alice: Any, bob: Any) -> None:
    for _ in range(2):
        me, _ = mover(started, alice, bob)
        submit(started, me, {"type": "add", "n": 1})
    started.refresh_from_db()
    sleeper = started.state["turn"]
    clock_enforce(match_id=started.pk, now=expire(started))
    me, _ = mover(started, alice, bob)
    submit(started, me, {"type": "add", "n": 1})
    me, _ = mover(started, alice, bob)
    submit(started, me, {"type": "add", "n": 1})
    assert Seat.objects.get(match=started, position=sleeper).consecutive_timeouts == 0


def test_sweep_finds_matches_with_passed_deadlines(started: Match) -> None:
    assert expired_match_ids(now=timezone.now()) == []
    assert expired_match_ids(now=expire(started)) == [started.pk]


# ---- AI -------------------------------------------------------------------------------------------
def test_vs_ai_starts_at_once_and_the_ai_answers_each_move(
    alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(user=alice, kind="counting", vs_ai=True, is_public=False)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE and not match.is_public
    assert match.state["turn"] == 0  # if the AI went first it has already moved
    for _ in range(30):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        with django_capture_on_commit_callbacks(execute=True):
            submit(match, alice, {"type": "add", "n": 1})
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    sources = set(ActionLog.objects.filter(match=match, seat=1).values_list("source", flat=True))
    assert sources == {"ai"}


def test_the_state_cache_hands_out_private_copies(started: Match) -> None:
    from matches.games.registry import get_game

    game = get_game("counting")
    first = load_state(started, game)
    first.total = 99
    first.hands[0].clear()
    again = load_state(started, game)
    assert again.total == 0 and again.hands[0] == started.state["hands"][0]
