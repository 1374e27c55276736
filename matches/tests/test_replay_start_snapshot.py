"""A replay is rebuilt from the data the match STARTED with (its stored start snapshot), never from the
curated database as it is now: an admin's later edit of the Westeros map cannot change a finished match."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from matches import selectors
from matches.clocks import TIMEOUTS_TO_FORFEIT
from matches.games.registry import get_game
from matches.models import Match, MatchStatus, Seat
from matches.services.ai_seats import ai_action_submit
from matches.services.lobby import match_create_with_ai
from matches.services.submit import action_submit
from matches.services.timeouts import clock_enforce
from matches.storage import load_state

pytestmark = pytest.mark.django_db


def _play(match: Match, alice: Any, actions: int) -> dict[int, Any]:
    """Play `actions` moves (alice's chosen by a seeded AI) and record the stored state of every version."""
    game = get_game("westeros")
    recorded = {0: Match.objects.get(pk=match.pk).state}
    rng = random.Random(7)
    for _ in range(actions):
        row = Match.objects.get(pk=match.pk)
        state = load_state(row, game)
        if 0 in game.current_players(state):
            action = game.ai_action(state, 0, rng=rng, agent="greedy")
            action_submit(
                match_id=match.pk,
                user=alice,
                action_json=game.action_to_json(action),
                state_version=row.state_version,
            )
        else:
            assert ai_action_submit(match_id=match.pk) is not None
        row = Match.objects.get(pk=match.pk)
        recorded[row.state_version] = row.state
    return recorded


def test_replay_uses_the_start_snapshot_not_the_edited_curated_map(alice: Any) -> None:
    from boardgame import dataset as board_dataset
    from boardgame.models import Area

    board_dataset.westeros_load_bundled()
    match = match_create_with_ai(user=alice, kind="westeros", ai_seats=2, rules_config={"player_count": 3})
    recorded = _play(match, alice, 25)
    past = timezone.now() - timedelta(seconds=1)  # finish it: alice times out for the third time in a row
    Seat.objects.filter(match=match, position=0).update(
        has_moved=True, consecutive_timeouts=TIMEOUTS_TO_FORFEIT - 1, deadline=past, clock_started_at=past
    )
    clock_enforce(match_id=match.pk)
    match = Match.objects.get(pk=match.pk)
    assert match.status == MatchStatus.FINISHED and match.state_version == 25

    area = Area.objects.filter(kind=Area.LAND).order_by("slug").first()
    assert area is not None
    Area.objects.filter(pk=area.pk).update(supply=(area.supply + 1) % 3, crowns=area.crowns + 1)
    game = get_game("westeros")
    rebuilt = game.new_state(decks=[], seed=match.seed, config=match.rules_config)
    assert game.dump(rebuilt) != match.state_base  # the curated edit WOULD change a game built afresh

    replayed = {
        (entry.version if entry else 0): game.dump(state) for entry, state in selectors.replay_states(match)
    }
    assert sorted(replayed) == sorted(recorded) == list(range(26))
    for version, stored in recorded.items():
        assert replayed[version] == stored, f"version {version} differs"
    frames = selectors.match_replay(match=match, you=None)["frames"]
    assert [f["version"] for f in frames] == list(range(26))
    assert frames[-1]["view"] == game.player_view(game.load(recorded[25]), None)
