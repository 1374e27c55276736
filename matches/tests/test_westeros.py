"""The same online layer runs the Westeros engine: 3–6 seats, simultaneous steps, hidden orders (W-20)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from matches.agents import TAKEOVER_AGENT
from matches.games.registry import get_game
from matches.models import ActionLog, Match, MatchStatus, Seat
from matches.selectors import match_snapshot
from matches.services.lobby import match_concede, match_create
from matches.services.submit import action_submit

pytestmark = pytest.mark.django_db


def test_a_three_player_match_vs_ai_runs_through_the_same_services(
    alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(user=alice, kind="westeros", vs_ai=True, rules_config={"player_count": 3})
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE and match.seats.count() == 3
    game = get_game("westeros")
    you = Seat.objects.get(match=match, position=0)
    for _ in range(25):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        snap = match_snapshot(match=Match.objects.get(pk=match.pk), you=you)
        assert snap["view"]["seat_houses"][0] == snap["view"]["player"]
        if not snap["legal_actions"]:
            break  # the AI seats still owe a decision (they run in on-commit tasks here)
        with django_capture_on_commit_callbacks(execute=True):
            action_submit(
                match_id=match.pk,
                user=alice,
                action_json=snap["legal_actions"][0]["action"],
                state_version=snap["state_version"],
            )
    match.refresh_from_db()
    assert ActionLog.objects.filter(match=match, source="player").count() >= 5
    assert ActionLog.objects.filter(match=match, source="ai").exists()
    state = game.load(match.state)
    assert game.current_players(state)  # the game goes on and someone must act


def test_orders_placed_face_down_are_hidden_from_the_other_houses_w_20(
    alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(user=alice, kind="westeros", vs_ai=True, rules_config={"player_count": 3})
    you = Seat.objects.get(match=match, position=0)
    snap = match_snapshot(match=Match.objects.get(pk=match.pk), you=you)
    place = next(a for a in snap["legal_actions"] if a["action"]["type"] == "place_order")
    action_submit(
        match_id=match.pk, user=alice, action_json=place["action"], state_version=snap["state_version"]
    )
    entry = ActionLog.objects.filter(match=match, source="player").last()
    assert entry.descriptions["secret"] is True
    assert place["action"]["token"].replace("_", " ") not in entry.descriptions["1"]
    assert "face down" in entry.descriptions["spectator"]
    match.refresh_from_db()
    spectator = match_snapshot(match=match, you=None)
    area = place["action"]["area"]
    assert spectator["view"]["orders"][area][1] is None  # the token stays hidden
    assert "action" not in json.dumps([e for e in spectator["log"] if e["version"] == entry.version])


def test_conceding_in_a_three_player_match_hands_the_seat_to_an_ai(alice: Any) -> None:
    match = match_create(user=alice, kind="westeros", vs_ai=True, rules_config={"player_count": 3})
    match_concede(match_id=match.pk, user=alice)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    assert Seat.objects.get(match=match, position=0).ai_agent == TAKEOVER_AGENT


def test_player_count_outside_3_to_6_is_refused_w_1_1(alice: Any) -> None:
    from config.errors import ApplicationError

    with pytest.raises(ApplicationError) as exc:
        match_create(user=alice, kind="westeros", rules_config={"player_count": 7})
    assert exc.value.code == "invalid_rules_config"
