"""One timeout completes the seat's obligation for the current step (W-3.3, W-5.1): a Westeros house
that never places its orders gets every area handled by ONE timeout, counted once; Commandeer-like games
keep one default action per timeout."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from matches import tasks
from matches.agents import TAKEOVER_AGENT
from matches.clocks import TIMEOUTS_TO_FORFEIT
from matches.games.registry import get_game
from matches.models import ActionLog, Match, MatchStatus, Seat
from matches.services import timeouts
from matches.services.ai_seats import ai_action_submit
from matches.services.lobby import match_create, match_create_with_ai, match_join, match_start
from matches.services.timeouts import clock_enforce, timeout_step
from matches.storage import load_state

pytestmark = pytest.mark.django_db


def _westeros_with_two_ai(alice: Any) -> Match:
    """A 3-house match (alice + 2 AI houses) in Planning, the AI houses' orders already placed."""
    match = match_create_with_ai(user=alice, kind="westeros", ai_seats=2, rules_config={"player_count": 3})
    game = get_game("westeros")
    while True:
        state = load_state(Match.objects.get(pk=match.pk), game)
        assert state.pending.kind == "orders"
        if game.current_players(state) == [0]:
            return Match.objects.get(pk=match.pk)
        assert ai_action_submit(match_id=match.pk) is not None


def _expire(match: Match, position: int, **fields: Any) -> None:
    past = timezone.now() - timedelta(seconds=1)
    Seat.objects.filter(match=match, position=position).update(deadline=past, clock_started_at=past, **fields)


def test_one_timeout_places_every_order_of_a_silent_house_and_the_step_moves_on_w_5_1(
    alice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = _westeros_with_two_ai(alice)
    game = get_game("westeros")
    before = match.state_version
    areas_owed = {a.area for a in game.legal_actions(load_state(match, game), 0) if a.kind == "place_order"}
    _expire(match, 0, has_moved=True)
    broadcasts: list[int] = []
    real = timeouts.after_change_on_commit
    monkeypatch.setattr(
        timeouts,
        "after_change_on_commit",
        lambda m, **kw: (broadcasts.append(m.state_version), real(m, **kw)),
    )

    done = clock_enforce(match_id=match.pk)

    match = Match.objects.get(pk=match.pk)
    entries = list(ActionLog.objects.filter(match=match, version__gt=before).order_by("version"))
    assert len(done) == 1 and done[0].startswith("timeout:0@")
    assert [e.version for e in entries] == list(
        range(before + 1, match.state_version + 1)
    )  # one version each
    assert {e.source for e in entries} == {"timeout"} and {e.seat for e in entries} == {0}
    assert {e.action["area"] for e in entries if e.action.get("type") == "place_order"} == areas_owed
    assert len(entries) >= len(areas_owed) >= 2
    state = load_state(match, game)
    assert state.pending is None or state.pending.kind != "orders"  # Planning is over
    seat = Seat.objects.get(match=match, position=0)
    assert seat.consecutive_timeouts == 1  # once per timeout, not per action
    assert broadcasts == [match.state_version]  # one broadcast for the whole run


def test_a_timeout_applies_at_most_the_safety_cap(alice: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    match = _westeros_with_two_ai(alice)
    monkeypatch.setattr(timeouts, "TIMEOUT_MAX_ACTIONS", 2)
    _expire(match, 0, has_moved=True)
    before = match.state_version
    clock_enforce(match_id=match.pk)
    match = Match.objects.get(pk=match.pk)
    assert match.state_version == before + 2
    assert Seat.objects.get(match=match, position=0).deadline is not None  # still owes orders: a grace clock


def test_the_third_timeout_in_a_row_still_hands_a_house_to_the_ai(
    alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    match = _westeros_with_two_ai(alice)
    _expire(match, 0, has_moved=True, consecutive_timeouts=TIMEOUTS_TO_FORFEIT - 1)
    done = tasks.enforce_deadline(match.pk)
    assert done[0] == "ai:0" and Seat.objects.get(match=match, position=0).ai_agent == "normal"
    assert Match.objects.get(pk=match.pk).status == MatchStatus.ACTIVE


def test_a_commandeer_like_game_keeps_one_default_per_timeout(started: Match) -> None:
    game = get_game("counting")
    turn = started.state["turn"]
    step = timeout_step(game, load_state(started, game))
    _expire(started, turn, has_moved=True)
    done = clock_enforce(match_id=started.pk)
    assert done == [f"timeout:{turn}@1"]
    after = Match.objects.get(pk=started.pk)
    assert timeout_step(game, load_state(after, game)) != step  # one default, a new step
    assert ActionLog.objects.filter(match=started).count() == 1


def test_three_timeouts_in_a_row_still_forfeit_a_two_seat_game(started: Match) -> None:
    turn = started.state["turn"]
    _expire(started, turn, has_moved=True, consecutive_timeouts=TIMEOUTS_TO_FORFEIT - 1)
    assert clock_enforce(match_id=started.pk) == [f"forfeit:{turn}"]
    assert Match.objects.get(pk=started.pk).result["winner"] == 1 - turn


# ---- a seat that never moved: AI take-over with 3+ seats, abort with 2 ----------------------------------
def test_a_house_that_never_moved_is_handed_to_the_ai_and_the_others_play_on(
    alice: Any, bob: Any, carol: Any, django_capture_on_commit_callbacks: Any
) -> None:
    match = match_create(user=alice, kind="westeros", rules_config={"player_count": 3})
    for user in (bob, carol):
        match_join(match_id=match.pk, user=user)
    match_start(match_id=match.pk, user=alice)
    _expire(match, 1)  # bob never moved
    with django_capture_on_commit_callbacks(execute=True):
        done = clock_enforce(match_id=match.pk)
    assert done == ["ai:1"]
    match = Match.objects.get(pk=match.pk)
    assert match.status == MatchStatus.ACTIVE and match.result is None
    assert Seat.objects.get(match=match, position=1).ai_agent == TAKEOVER_AGENT
    assert ActionLog.objects.filter(match=match, seat=1, source="ai").exists()  # the AI placed bob's orders


def test_a_never_moved_seat_with_no_other_person_left_still_aborts(alice: Any) -> None:
    match = match_create_with_ai(user=alice, kind="westeros", ai_seats=2, rules_config={"player_count": 3})
    _expire(match, 0)
    assert clock_enforce(match_id=match.pk) == ["abort:0"]
    assert Match.objects.get(pk=match.pk).status == MatchStatus.ABORTED


def test_a_two_seat_game_still_aborts_when_the_first_move_never_comes(started: Match) -> None:
    turn = started.state["turn"]
    _expire(started, turn)
    assert clock_enforce(match_id=started.pk) == [f"abort:{turn}"]
    assert Match.objects.get(pk=started.pk).status == MatchStatus.ABORTED
