"""One submit computes each seat's legal actions once per state (docs/style.md 3): the membership check
and the not-your-turn check share one computation, and the answer's snapshot reuses the post-move legal
actions the automatic-pass check already computed."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.games.registry import get_game
from matches.models import Match, Seat
from matches.services.lobby import match_create, match_join, match_start
from matches.services.submit import action_submit
from matches.tests.commandeer_fixtures import legal_deck

pytestmark = pytest.mark.django_db


def _started(alice: Any, bob: Any) -> Match:
    da, db = legal_deck(alice, "stonehold"), legal_deck(bob, "tidewardens")
    match = match_create(user=alice, kind="commandeer", deck_id=da.pk, rules_config={"turn_limit": 2})
    match_join(match_id=match.pk, user=bob, deck_id=db.pk)
    match_start(match_id=match.pk, user=alice)
    match.refresh_from_db()
    return match


def _count_legal_actions(monkeypatch: pytest.MonkeyPatch, kind: str) -> Counter[tuple[str, int]]:
    """Every call of the game's `legal_actions`, keyed by (the state as stored, the player)."""
    game = get_game(kind)
    calls: Counter[tuple[str, int]] = Counter()
    original = type(game).legal_actions

    def counted(self: Any, state: Any, player: int) -> list[Any]:
        calls[json.dumps(self.dump(state), sort_keys=True), player] += 1
        return original(self, state, player)

    monkeypatch.setattr(type(game), "legal_actions", counted)
    return calls


def _a_move_after_which_the_mover_acts_again(match: Match, alice: Any, bob: Any) -> tuple[int, Any]:
    """Play first legal actions until the player to move has an action after which they act again (the
    case where the automatic-pass check and the answer both need the mover's new legal actions)."""
    game = get_game(match.kind)
    for _ in range(40):
        match.refresh_from_db()
        state = game.load(match.state)
        mover = game.current_players(state)[0]
        for a in game.legal_actions(state, mover):
            after = game.apply(game.clone(state), a)
            if not game.is_terminal(after) and mover in game.current_players(after):
                return mover, game.action_to_json(a)
        user = Seat.objects.get(match=match, position=mover).user
        first = game.action_to_json(game.legal_actions(state, mover)[0])
        action_submit(match_id=match.pk, user=user, action_json=first, state_version=match.state_version)
    raise AssertionError("no such move in 40 plies")


def test_one_submit_computes_each_seats_legal_actions_once_per_state(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = _started(alice, bob)
    mover, action = _a_move_after_which_the_mover_acts_again(match, alice, bob)
    match.refresh_from_db()
    user = Seat.objects.get(match=match, position=mover).user
    calls = _count_legal_actions(monkeypatch, match.kind)
    client = APIClient()
    client.force_authenticate(user)
    r = client.post(
        f"/api/matches/{match.pk}/actions/",
        {"action": action, "state_version": match.state_version},
        format="json",
    )
    assert r.status_code == 200, r.json()
    assert r.json()["state"]["legal_actions"] is not None
    assert [k for k, n in calls.items() if n > 1] == []  # nothing computed twice for the same state and seat
    # before the move (the mover) + after it (each seat that now acts, asked by the automatic-pass check,
    # the mover's answer reusing its own)
    after = set(r.json()["current_players"]) | {mover}
    assert sum(calls.values()) == 1 + len(after), calls.values()
