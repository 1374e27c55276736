"""Ratings: Glicko-2 (Commandeer) and OpenSkill Plackett–Luce (Westeros) through their libraries; only
rated games between people count; one change per finished match, in the transaction that records it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from config.errors import ApplicationError
from matches.games.kind import Result
from matches.models import Match, MatchStatus, PlayerRating, RatingChange, Seat
from matches.services import ratings
from matches.services.lobby import match_concede, match_create, match_join, match_start
from matches.services.rematch import match_rematch
from matches.services.seating import match_fill_ai
from matches.services.submit import action_submit, finish
from matches.services.timeouts import clock_enforce
from matches.tests.conftest import mover

pytestmark = pytest.mark.django_db


@pytest.fixture
def counting_rated(monkeypatch: pytest.MonkeyPatch) -> None:
    """The counting test game rated like Commandeer (Glicko-2), so the pipeline is tested without decks."""
    monkeypatch.setitem(ratings.RATING_SYSTEMS, "counting", ratings.GLICKO2)


def _rated_match(alice: Any, bob: Any, **create: Any) -> Match:
    match = match_create(
        user=alice, kind="counting", rated=True, time_control={"initial_s": 60, "increment_s": 5}, **create
    )
    match_join(match_id=match.pk, user=bob)
    match_start(match_id=match.pk, user=alice)
    match.refresh_from_db()
    return match


def _rating(user: Any, kind: str = "counting") -> PlayerRating:
    return PlayerRating.objects.get(user=user, kind=kind)


# ---- the math, by the libraries ----------------------------------------------------------------------
def test_glicko2_win_raises_the_winner_and_lowers_the_loser_symmetrically_between_new_players() -> None:
    new = (ratings.GLICKO_RATING, ratings.GLICKO_RD, ratings.GLICKO_VOL)
    win, loss = ratings.glicko2_game(new, new, 1.0)
    # Glickman's algorithm between two 1500/350 players: about ±162.3, RD down to about 290.3.
    assert win[0] == pytest.approx(1662.3, abs=0.5) and loss[0] == pytest.approx(1337.7, abs=0.5)
    assert win[1] == pytest.approx(290.3, abs=0.5) and loss[1] == pytest.approx(290.3, abs=0.5)
    draw_a, draw_b = ratings.glicko2_game(new, new, 0.5)
    assert draw_a[0] == pytest.approx(1500.0) and draw_b[0] == pytest.approx(1500.0)


def test_the_glicko2_library_reproduces_glickmans_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system" (2013): 1500/200/0.06 against three opponents."""
    player = ratings.glicko2.Player(1500, 200, 0.06)
    player.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0])
    assert (round(player.rating, 2), round(player.rd, 2), round(player.vol, 5)) == (1464.05, 151.52, 0.05999)


def test_beating_a_much_stronger_player_gains_more_than_beating_a_weaker_one() -> None:
    me = (1500.0, 80.0, 0.06)
    up, _ = ratings.glicko2_game(me, (1900.0, 80.0, 0.06), 1.0)
    down, _ = ratings.glicko2_game(me, (1100.0, 80.0, 0.06), 1.0)
    assert up[0] - 1500 > 3 * (down[0] - 1500) > 0


def test_openskill_free_for_all_orders_the_new_means_by_place() -> None:
    start = (ratings.OPENSKILL_MODEL.mu, ratings.OPENSKILL_MODEL.sigma)
    after = ratings.openskill_game([start] * 4, [1, 2, 3, 4])
    mus = [mu for mu, _ in after]
    assert mus == sorted(mus, reverse=True) and mus[0] > start[0] > mus[-1]
    assert all(sigma < start[1] for _, sigma in after)


def test_a_new_player_is_provisional_until_the_deviation_falls() -> None:
    fresh = ratings.new_rating(1, "commandeer")
    assert fresh.rating == 1500 and ratings.is_provisional(fresh)
    settled = PlayerRating(kind="commandeer", rating=1600, deviation=60, volatility=0.06)
    assert not ratings.is_provisional(settled)
    assert ratings.is_provisional(ratings.new_rating(1, "westeros"))
    assert ratings.new_rating(1, "westeros").rating == pytest.approx(1500.0)


# ---- final places ------------------------------------------------------------------------------------
def test_places_follow_the_standing_and_a_leaver_or_forfeiter_shares_the_last_place() -> None:
    match = Match(kind="westeros", result={"winner": None, "reason": "timeout", "loser": 2})
    seats = [Seat(position=p, user_id=10 + p) for p in range(5)]
    seats[0].ai_agent = "normal"  # seat 0 left the table to the AI
    placed = ratings.final_places(match, seats, [[3], [0], [2], [1], [4]])
    assert {p.position: p.place for p in placed} == {3: 1, 1: 2, 4: 3, 0: 4, 2: 4}


def test_no_winner_in_a_two_player_game_is_a_shared_first_place() -> None:
    match = Match(kind="commandeer", result={"winner": None, "reason": "turn_limit"})
    seats = [Seat(position=0, user_id=1), Seat(position=1, user_id=2)]
    assert [p.place for p in ratings.final_places(match, seats, None)] == [1, 1]


# ---- only rated games count --------------------------------------------------------------------------
def _one_move_each(match: Match, alice: Any, bob: Any) -> None:
    """Each player makes a move of their own (a rated result counts only then)."""
    for _ in range(2):
        me, _ = mover(match, alice, bob)
        action_submit(
            match_id=match.pk, user=me, action_json={"type": "add", "n": 1}, state_version=match.state_version
        )
        match.refresh_from_db()


def test_a_finished_rated_match_changes_both_ratings_once(alice: Any, bob: Any, counting_rated: None) -> None:
    match = _rated_match(alice, bob)
    _one_move_each(match, alice, bob)
    match_concede(match_id=match.pk, user=bob)
    a, b = _rating(alice), _rating(bob)
    assert a.rating > 1500 > b.rating and (a.games, a.wins, b.games, b.losses) == (1, 1, 1, 1)
    changes = {c.user_id: c for c in RatingChange.objects.filter(match=match)}
    assert changes[alice.pk].before == 1500 and changes[alice.pk].after == a.rating
    assert changes[bob.pk].place == 2 and changes[bob.pk].score == 0.0
    match.refresh_from_db()
    seats = list(match.seats.all())
    assert ratings.rate_finished_match(match, seats) == []  # a second finish changes nothing
    assert _rating(alice).rating == a.rating and RatingChange.objects.filter(match=match).count() == 2


def test_a_rated_match_played_to_its_end_is_rated_in_the_submit(
    alice: Any, bob: Any, counting_rated: None
) -> None:
    match = _rated_match(alice, bob)
    while match.status == MatchStatus.ACTIVE:
        me, _ = mover(match, alice, bob)
        action_submit(
            match_id=match.pk, user=me, action_json={"type": "add", "n": 2}, state_version=match.state_version
        )
        match.refresh_from_db()
    winner = alice if match.result["winner"] == 0 else bob
    assert _rating(winner).rating > 1500 and _rating(winner).wins == 1
    assert RatingChange.objects.filter(match=match).count() == 2


def test_an_unrated_match_changes_no_rating(alice: Any, bob: Any, counting_rated: None) -> None:
    match = match_create(user=alice, kind="counting")
    match_join(match_id=match.pk, user=bob)
    match_start(match_id=match.pk, user=alice)
    match_concede(match_id=match.pk, user=bob)
    assert not PlayerRating.objects.exists() and not RatingChange.objects.exists()


def test_an_aborted_match_never_counts(alice: Any, bob: Any, counting_rated: None) -> None:
    match = _rated_match(alice, bob)
    now = timezone.now() + timedelta(hours=1)  # nobody moved: the first timeout aborts
    clock_enforce(match_id=match.pk, now=now)
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED
    assert not RatingChange.objects.exists()


def test_a_match_without_a_time_control_or_with_an_ai_seat_is_not_rated(
    alice: Any, bob: Any, counting_rated: None
) -> None:
    match = _rated_match(alice, bob)
    Match.objects.filter(pk=match.pk).update(time_control={})
    match_concede(match_id=match.pk, user=bob)
    other = _rated_match(bob, alice)
    Seat.objects.filter(match=other, user=bob).update(user=None, ai_agent="normal")
    loaded = Match.objects.get(pk=other.pk)
    seats = list(loaded.seats.all())
    finish(loaded, seats, Result(winner=1, reason="concede"), timezone.now())
    assert not RatingChange.objects.exists()


def test_creating_a_rated_match_against_the_ai_is_refused_with_a_message(
    alice: Any, counting_rated: None
) -> None:
    with pytest.raises(ApplicationError) as err:
        match_create(user=alice, kind="counting", rated=True, vs_ai=True)
    assert err.value.code == "not_rateable" and "AI" in err.value.message


def test_a_kind_without_ratings_cannot_be_created_rated(alice: Any) -> None:
    with pytest.raises(ApplicationError) as err:
        match_create(user=alice, kind="counting", rated=True)
    assert err.value.code == "not_rateable"


def test_a_rated_match_takes_no_ai_seat_and_its_rematch_is_rated_too(
    alice: Any, bob: Any, carol: Any, counting_rated: None
) -> None:
    waiting = match_create(user=carol, kind="counting", rated=True)
    with pytest.raises(ApplicationError) as err:
        match_fill_ai(match_id=waiting.pk, user=carol, agent="easy")
    assert err.value.code == "not_rateable" and not Seat.objects.filter(match=waiting, user=None).exists()
    match = _rated_match(alice, bob)
    match_concede(match_id=match.pk, user=bob)
    match_rematch(match_id=match.pk, user=alice)
    again, _offer = match_rematch(match_id=match.pk, user=bob)
    assert again is not None and again.rated
