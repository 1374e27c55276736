"""Ratings count only games really played between people (docs/play-layer.md, "Ratings: aborted games and
repeated pairings"), and profiles name a private game only to those who may open it."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from matches.models import Match, MatchStatus, PlayerRating, RatingChange
from matches.ratings_api import ProfileOut
from matches.services import ratings
from matches.services.lobby import match_concede, match_create, match_join, match_start
from matches.services.rematch import match_rematch
from matches.services.submit import action_submit
from matches.tests.conftest import mover
from matches.tests.test_api_contract import conforms

pytestmark = pytest.mark.django_db

TC = {"initial_s": 60, "increment_s": 5}


@pytest.fixture(autouse=True)
def counting_rated(monkeypatch: pytest.MonkeyPatch) -> None:
    """The counting test game rated like Commandeer (Glicko-2), so the pipeline is tested without decks."""
    monkeypatch.setitem(ratings.RATING_SYSTEMS, "counting", ratings.GLICKO2)


def client_for(user: Any | None) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def _rated_match(alice: Any, bob: Any, *, is_public: bool = True) -> Match:
    match = match_create(user=alice, kind="counting", rated=True, time_control=TC, is_public=is_public)
    match_join(match_id=match.pk, user=bob, invite_token=match.invite_token)
    match_start(match_id=match.pk, user=alice)
    match.refresh_from_db()
    return match


def _move(match: Match, alice: Any, bob: Any, n: int = 1) -> None:
    me, _ = mover(match, alice, bob)
    action_submit(
        match_id=match.pk, user=me, action_json={"type": "add", "n": n}, state_version=match.state_version
    )
    match.refresh_from_db()


def _play_to_the_end(match: Match, alice: Any, bob: Any) -> Match:
    """Both players add 2 in turn until the target is reached (each moves at least once)."""
    while match.status == MatchStatus.ACTIVE:
        _move(match, alice, bob, 2)
    return match


def _rating(user: Any) -> float | None:
    r = PlayerRating.objects.filter(user=user, kind="counting").first()
    return r.rating if r is not None else None


# ---- a game nobody played is aborted, not rated --------------------------------------------------------
def test_the_concede_and_rematch_farming_loop_no_longer_moves_a_rating(alice: Any, bob: Any) -> None:
    match = _rated_match(alice, bob)
    for _ in range(8):
        match_concede(match_id=match.pk, user=bob)  # before any move
        match.refresh_from_db()
        assert match.status == MatchStatus.ABORTED and match.result["winner"] is None
        assert match.result["reason"] == "aborted" and not match.rated
        assert match.result["unrated"]["code"] == ratings.NO_FIRST_MOVE
        match_rematch(match_id=match.pk, user=alice)
        new, _offer = match_rematch(match_id=match.pk, user=bob)
        assert new is not None and new.rated  # the rematch is offered rated again: a first move decides
        match = Match.objects.get(pk=new.pk)
    assert (_rating(alice), _rating(bob)) == (None, None)
    assert not RatingChange.objects.exists()


def test_a_concession_after_one_player_moved_is_aborted_too(alice: Any, bob: Any) -> None:
    match = _rated_match(alice, bob)
    _move(match, alice, bob)  # only the first mover has moved
    match_concede(match_id=match.pk, user=alice)
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED and not RatingChange.objects.exists()
    text = client_for(alice).get(f"/api/matches/{match.pk}/").json()
    assert text["status"] == "aborted" and "never made a move" in text["unrated_reason"]
    assert text["rematch"] is not None  # they may try again


def test_a_game_with_one_move_each_counts(alice: Any, bob: Any) -> None:
    match = _rated_match(alice, bob)
    _move(match, alice, bob)
    _move(match, alice, bob)
    loser, _ = mover(match, alice, bob)
    match_concede(match_id=match.pk, user=loser)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.rated and "unrated" not in match.result
    assert RatingChange.objects.filter(match=match).count() == 2
    assert _rating(loser) is not None and _rating(loser) < 1500


def test_an_aborted_game_shows_as_aborted_on_the_profile_and_is_not_a_rated_game(
    alice: Any, bob: Any
) -> None:
    match = _rated_match(alice, bob)
    match_concede(match_id=match.pk, user=bob)
    profile = client_for(None).get("/api/players/bob/").json()
    assert conforms(profile, ProfileOut()) == []
    (game,) = profile["recent_games"]
    assert (game["id"], game["outcome"], game["rated"], game["rating_delta"]) == (
        match.pk,
        "aborted",
        False,
        None,
    )
    assert "never made a move" in game["unrated_reason"]
    assert all(k["rating"] is None for k in profile["kinds"])
    page = APIClient().get("/players/bob/").content.decode()
    assert "Aborted" in page and 'data-testid="unrated-reason"' in page


def test_a_westeros_like_table_counts_only_when_every_person_has_acted(alice: Any, bob: Any) -> None:
    """3+ seats: a person who never acted makes the result unrated; the game itself still finishes."""
    match = _rated_match(alice, bob)
    seats = list(match.seats.order_by("position"))
    _move(match, alice, bob)
    mover_seat = next(s for s in seats if s.position != match.state["turn"])  # the one who just moved
    idle = next(s for s in seats if s is not mover_seat)
    idle.refresh_from_db()
    assert [s.position for s in ratings.seats_without_own_move(match, seats)] == [idle.position]
    # A seat an AI took over is judged by the log: the AI's moves are not its person's.
    idle.ai_agent, idle.has_moved = "random", True
    assert [s.position for s in ratings.seats_without_own_move(match, seats)] == [idle.position]
    three = [*seats, type(idle)(match=match, position=2, user=None, ai_agent="random")]
    match.result = {"winner": mover_seat.position, "reason": "seven_castles"}
    assert ratings.unrated_by_first_moves(match, three)
    assert match.status == MatchStatus.ACTIVE and match.result["winner"] == mover_seat.position
    assert match.result["unrated"]["code"] == ratings.NO_FIRST_MOVE and not match.rated


# ---- repeated pairings -----------------------------------------------------------------------------------
@override_settings(RATED_PAIR_MAX_GAMES=2, RATED_PAIR_WINDOW_H=24)
def test_the_repeat_rule_makes_the_pairs_third_game_in_a_day_unrated_and_says_why(
    alice: Any, bob: Any, carol: Any
) -> None:
    for _ in range(2):
        game = _play_to_the_end(_rated_match(alice, bob), alice, bob)
        assert game.rated and RatingChange.objects.filter(match=game).count() == 2
    before = (_rating(alice), _rating(bob))
    third = _rated_match(alice, bob)
    assert not third.rated and third.lobby["unrated"]["code"] == ratings.REPEATED_PAIRING
    card = client_for(alice).get(f"/api/matches/{third.pk}/").json()
    assert "2 rated games together in the last 24 hours" in card["unrated_reason"]
    _play_to_the_end(third, alice, bob)
    assert (_rating(alice), _rating(bob)) == before
    assert third.result["unrated"]["code"] == ratings.REPEATED_PAIRING
    # Another pairing is not concerned.
    other = _play_to_the_end(_rated_match(alice, carol), alice, carol)
    assert other.rated and RatingChange.objects.filter(match=other).count() == 2


@override_settings(RATED_PAIR_MAX_GAMES=1, RATED_PAIR_WINDOW_H=24)
def test_the_repeat_rule_is_checked_again_when_games_started_together_end(alice: Any, bob: Any) -> None:
    first, second = _rated_match(alice, bob), _rated_match(alice, bob)
    assert first.rated and second.rated  # neither had ended when both started
    _play_to_the_end(first, alice, bob)
    _play_to_the_end(second, alice, bob)
    assert RatingChange.objects.filter(match=first).count() == 2
    assert not RatingChange.objects.filter(match=second).exists()
    assert not second.rated and second.result["unrated"]["code"] == ratings.REPEATED_PAIRING


def test_the_pairing_numbers_are_bounded_settings() -> None:
    with override_settings(RATED_PAIR_MAX_GAMES=0, RATED_PAIR_WINDOW_H=10_000):
        games, window = ratings.pairing_limit()
    assert games == 1 and window.total_seconds() == 720 * 3600


# ---- private matches on public profiles ------------------------------------------------------------------
def test_a_private_rated_match_is_named_on_profiles_only_to_those_who_may_open_it(
    alice: Any, bob: Any, carol: Any, make_user: Any
) -> None:
    private = _play_to_the_end(_rated_match(alice, bob, is_public=False), alice, bob)
    public = _play_to_the_end(_rated_match(alice, bob), alice, bob)
    staff = make_user("staff")
    staff.is_staff = True
    staff.save()
    assert client_for(carol).get(f"/api/matches/{private.pk}/summary/").status_code == 403
    for viewer, sees in ((None, False), (carol, False), (alice, True), (bob, True), (staff, True)):
        profile = client_for(viewer).get("/api/players/alice/").json()
        assert conforms(profile, ProfileOut()) == []
        (record,) = [k for k in profile["kinds"] if k["kind"] == "counting"]
        history = record["history"]
        assert len(history) == 2  # the curve keeps every rating point
        assert [h["match"] for h in history] == [private.pk if sees else None, public.pk]
        assert (history[0]["at"] is not None) == sees
        assert history[0]["rating"] == history[1]["before"]  # still one honest curve
        listed = [g["id"] for g in profile["recent_games"]]
        assert (private.pk in listed) == sees and public.pk in listed
        browser = APIClient()
        if viewer is not None:
            browser.force_login(viewer)  # the page is a Django view: a session, not DRF's forced user
        page = browser.get("/players/alice/").content.decode()
        assert (f"match #{private.pk}<" in page) == sees
        assert (f'data-match="{private.pk}"' in page) == sees
        assert f"match #{public.pk}<" in page
        if not sees:
            assert "after a private game" in page
