"""Westeros online through the one matches layer: house choice or draw, AI seats from the lobby,
documented timeout defaults (W-3.3), the AI taking over a house that keeps timing out, clocks with a bank."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from boardgame.engine.timeouts import TIMEOUT_DEFAULTS
from matches import tasks
from matches.agents import TAKEOVER_AGENT
from matches.clocks import TIMEOUTS_TO_FORFEIT, SeatClock, TimeControl
from matches.games.registry import get_game
from matches.games.westeros import WesterosGame
from matches.models import ActionLog, Match, MatchStatus, Seat
from matches.services.ai_seats import hand_over_timed_out_seats
from matches.services.lobby import match_create, match_create_with_ai, match_join, match_start

pytestmark = pytest.mark.django_db


def _state_at(step: str, *, players: int = 4, seeds: range = range(1, 40)) -> tuple[Any, str]:
    """A seeded greedy game advanced until some house must act in `step` (engine only)."""
    from boardgame.engine import load_default_game_data, new_game
    from boardgame.engine.agents import make_agent

    data = load_default_game_data()
    for seed in seeds:
        state = new_game(data, player_count=players, seed=seed)
        agent = make_agent("greedy", random.Random(seed))
        for _ in range(3000):
            if state.is_terminal():
                break
            if state.pending and state.pending.kind == step:
                return state, state.current_players()[0]
            state.apply(agent.choose(state, state.current_players()[0]))
    raise AssertionError(f"no seeded game reached step {step}")


# ---- house choice and random draw (W-1.1) --------------------------------------------------------------------
def test_the_creators_house_takes_seat_0_and_the_others_follow_in_setup_order_w_1_1() -> None:
    game = get_game("westeros")
    state = game.new_state(
        decks=[], seed=5, config=game.check_config({"player_count": 4, "house": "greyjoy"})
    )
    assert game.player_view(state, 0)["player"] == "greyjoy"
    assert game.player_view(state, 0)["seat_houses"] == ["greyjoy", "stark", "lannister", "baratheon"]
    copy = game.load(game.dump(state))
    assert game.player_view(copy, 1)["player"] == "stark" and game.clone(copy).players() == copy.players()


def test_a_random_draw_is_a_seeded_permutation_of_the_houses_in_play() -> None:
    draws = {
        tuple(WesterosGame.seat_order(WesterosGame.houses_in_play(6), house="random", seed=s))
        for s in range(30)
    }
    assert len(draws) > 5 and all(sorted(d) == sorted(WesterosGame.houses_in_play(6)) for d in draws)
    assert WesterosGame.seat_order(["stark", "lannister", "baratheon"], house="random", seed=7) == (
        WesterosGame.seat_order(["stark", "lannister", "baratheon"], house="random", seed=7)
    )


def test_a_house_not_in_a_game_of_that_size_is_refused_w_1_1(alice: Any) -> None:
    with pytest.raises(Exception) as info:
        match_create(user=alice, kind="westeros", rules_config={"player_count": 4, "house": "martell"})
    assert info.value.code == "invalid_rules_config" and "greyjoy" in info.value.message


# ---- AI seats from the lobby ------------------------------------------------------------------------------
def test_some_ai_houses_leave_seats_open_for_people(alice: Any, bob: Any) -> None:
    match = match_create_with_ai(user=alice, kind="westeros", ai_seats=2, rules_config={"player_count": 4})
    assert match.status == MatchStatus.WAITING
    assert [s.is_ai for s in Seat.objects.filter(match=match).order_by("position")] == [False, True, True]
    match_join(match_id=match.pk, user=bob)
    match_start(match_id=match.pk, user=alice)
    assert Match.objects.get(pk=match.pk).status == MatchStatus.ACTIVE


def test_only_ai_opponents_start_at_once(alice: Any) -> None:
    match = match_create_with_ai(user=alice, kind="westeros", ai_seats=2, rules_config={"player_count": 3})
    assert match.status == MatchStatus.ACTIVE and Seat.objects.filter(match=match).count() == 3


def test_more_ai_seats_than_fit_are_refused(alice: Any) -> None:
    with pytest.raises(Exception) as info:
        match_create_with_ai(user=alice, kind="westeros", ai_seats=3, rules_config={"player_count": 3})
    assert info.value.code == "invalid" and Match.objects.count() == 0  # nothing half-created


def test_the_api_takes_ai_seats(client: Any, alice: Any) -> None:
    client.force_login(alice)
    body = {"kind": "westeros", "ai_seats": 4, "rules_config": {"player_count": 6, "house": "random"}}
    response = client.post("/api/matches/", data=body, content_type="application/json")
    assert response.status_code == 201 and response.json()["status"] == "waiting"
    assert sum(s["is_ai"] for s in response.json()["seats"]) == 4


# ---- timeout defaults, documented in one place -----------------------------------------------------------
@pytest.mark.parametrize(
    ("step", "check"),
    [
        ("orders", lambda a: a.kind == "finish_orders" or a.token.startswith("defense")),
        ("bid", lambda a: a.kind == "bid" and a.amount == 0),
        ("support", lambda a: a.kind == "declare_support" and a.side == "none"),
        ("march_move", lambda a: a.kind == "end_march" and not a.leave_power_token),
        ("consolidate", lambda a: a.kind == "resolve_consolidate" and not a.muster),
        ("muster", lambda a: a.kind == "choose" and a.option == "done"),
        ("raven", lambda a: a.kind == "choose" and a.option == "pass"),
    ],
)
def test_a_timed_out_house_gets_the_documented_default_w_3_3(step: str, check: Any) -> None:
    game = get_game("westeros")
    state, house = _state_at(step)
    seat = list(state.houses).index(house)
    action = game.timeout_action(state, seat)
    assert step in TIMEOUT_DEFAULTS
    assert action in game.legal_actions(state, seat) and check(action), action


def test_a_timed_out_house_card_is_the_first_legal_one_w_9_4() -> None:
    game = get_game("westeros")
    state, house = _state_at("house_card")
    seat = list(state.houses).index(house)
    assert game.timeout_action(state, seat) == game.legal_actions(state, seat)[0]


# ---- a house that keeps timing out is handed to the AI -------------------------------------------------
def test_a_house_timing_out_again_and_again_is_handed_to_the_ai_and_the_game_goes_on(
    alice: Any, bob: Any, carol: Any, django_capture_on_commit_callbacks: Any
) -> None:
    match = match_create(user=alice, kind="westeros", rules_config={"player_count": 3})
    for user in (bob, carol):
        match_join(match_id=match.pk, user=user)
    match_start(match_id=match.pk, user=alice)
    past = timezone.now() - timedelta(seconds=1)
    Seat.objects.filter(match=match, position=1).update(
        has_moved=True, consecutive_timeouts=TIMEOUTS_TO_FORFEIT - 1, deadline=past, clock_started_at=past
    )
    with django_capture_on_commit_callbacks(execute=True):
        done = tasks.enforce_deadline(match.pk)
    assert "ai:1" in done
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE  # no forfeit: the others play on
    assert Seat.objects.get(match=match, position=1).ai_agent == TAKEOVER_AGENT
    assert ActionLog.objects.filter(match=match, seat=1, source="ai").exists()  # the AI moved for it


def test_a_first_or_second_timeout_is_not_handed_over(alice: Any, bob: Any, carol: Any) -> None:
    match = match_create(user=alice, kind="westeros", rules_config={"player_count": 3})
    for user in (bob, carol):
        match_join(match_id=match.pk, user=user)
    match_start(match_id=match.pk, user=alice)
    past = timezone.now() - timedelta(seconds=1)
    Seat.objects.filter(match=match, position=2).update(has_moved=True, deadline=past, clock_started_at=past)
    assert hand_over_timed_out_seats(match_id=match.pk) == []
    assert not Seat.objects.get(match=match, position=2).is_ai


def test_two_seat_games_keep_their_forfeit(started: Match) -> None:
    past = timezone.now() - timedelta(seconds=1)
    Seat.objects.filter(match=started, position=0).update(
        has_moved=True, consecutive_timeouts=TIMEOUTS_TO_FORFEIT - 1, deadline=past
    )
    assert hand_over_timed_out_seats(match_id=started.pk) == []


# ---- per decision + bank clocks --------------------------------------------------------------------------
def test_per_decision_time_is_fresh_and_only_the_overrun_draws_on_the_bank() -> None:
    tc = TimeControl.from_json({"per_move_s": 180, "bank_s": 600})
    assert tc.to_json() == {"per_move_s": 180, "bank_s": 600} and not tc.correspondence
    now = timezone.now()
    clock = SeatClock(remaining_ms=tc.initial_ms())
    clock.start(tc, now)
    assert clock.deadline == now + timedelta(seconds=780)
    clock.stop(tc, now + timedelta(seconds=100))
    assert clock.remaining_ms == 600_000  # within the decision's 3 minutes: the bank is untouched
    clock.start(tc, now)
    clock.stop(tc, now + timedelta(seconds=200))
    assert clock.remaining_ms == 580_000  # 20 s over
    with pytest.raises(ValueError):
        TimeControl.from_json({"per_move_s": 180, "bank_s": -1})
