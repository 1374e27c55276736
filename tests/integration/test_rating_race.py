"""Ratings under racing finishes on PostgreSQL: one rating change per finished match, none lost.

Run: DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test pytest tests/integration/test_rating_race.py -m postgres
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from config.errors import ApplicationError
from matches.models import Match, MatchStatus, PlayerRating, RatingChange
from matches.services import ratings
from matches.services.lobby import match_concede, match_create, match_join, match_start
from matches.services.submit import action_submit
from tests.integration.test_concurrency import run_at_once

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg(transactional_db: Any) -> None:
    from tests.services import unavailable

    if connection.vendor != "postgresql":
        unavailable("needs PostgreSQL: run with DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test")


@pytest.fixture
def counting_rated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(ratings.RATING_SYSTEMS, "counting", ratings.GLICKO2)


def _rated(a: Any, b: Any) -> Match:
    """A started rated match in which each player has made a move of their own (so its result counts)."""
    match = match_create(user=a, kind="counting", rated=True, rules_config={"target": 10})
    match_join(match_id=match.pk, user=b)
    match_start(match_id=match.pk, user=a)
    for _ in range(2):
        match.refresh_from_db()
        me = a if match.state["turn"] == 0 else b
        action_submit(
            match_id=match.pk, user=me, action_json={"type": "add", "n": 1}, state_version=match.state_version
        )
    return match


def test_two_racing_concessions_finish_the_match_and_change_each_rating_once(
    pg: None, counting_rated: None
) -> None:
    User = get_user_model()
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    match = _rated(alice, bob)
    results = run_at_once(
        [
            lambda: match_concede(match_id=match.pk, user=alice),
            lambda: match_concede(match_id=match.pk, user=bob),
        ]
    )
    errors = [r for r in results if isinstance(r, ApplicationError)]
    assert len(errors) == 1 and errors[0].code == "game_over"
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert RatingChange.objects.filter(match=match).count() == 2
    for user in (alice, bob):
        assert PlayerRating.objects.get(user=user, kind="counting").games == 1
    winner = alice if match.result["winner"] == 0 else bob
    assert PlayerRating.objects.get(user=winner, kind="counting").rating > 1500


def test_a_players_two_matches_finishing_at_once_lose_no_update(pg: None, counting_rated: None) -> None:
    User = get_user_model()
    alice, bob, carol = (User.objects.create_user(n) for n in ("alice", "bob", "carol"))
    first, second = _rated(alice, bob), _rated(alice, carol)
    run_at_once(
        [
            lambda: match_concede(match_id=first.pk, user=bob),
            lambda: match_concede(match_id=second.pk, user=carol),
        ]
    )
    mine = PlayerRating.objects.get(user=alice, kind="counting")
    assert (mine.games, mine.wins) == (2, 2)
    history = list(RatingChange.objects.filter(user=alice).order_by("id"))
    assert len(history) == 2 and history[1].before == history[0].after  # applied one after the other
    assert mine.rating == history[1].after


def test_two_games_of_one_pair_ending_at_once_count_once_past_the_pairing_limit(
    pg: None, counting_rated: None, settings: Any
) -> None:
    settings.RATED_PAIR_MAX_GAMES = 1  # docs/play-layer.md, "Ratings: aborted games and repeated pairings"
    User = get_user_model()
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    first, second = _rated(alice, bob), _rated(alice, bob)
    run_at_once(
        [
            lambda: match_concede(match_id=first.pk, user=bob),
            lambda: match_concede(match_id=second.pk, user=bob),
        ]
    )
    counted = {m for m in RatingChange.objects.values_list("match_id", flat=True)}
    assert len(counted) == 1 and PlayerRating.objects.get(user=alice, kind="counting").games == 1
    unrated = Match.objects.get(pk=({first.pk, second.pk} - counted).pop())
    assert unrated.status == MatchStatus.FINISHED and not unrated.rated
    assert unrated.result["unrated"]["code"] == ratings.REPEATED_PAIRING
