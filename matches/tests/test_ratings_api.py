"""Profiles, leaderboards and the end-of-game summary: their APIs answer exactly their documented shapes,
public facts only; a finished rated match shows on both profiles and changes both ratings."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches import storage
from matches.games.registry import get_game
from matches.models import Match, MatchStatus, MatchSummary, PlayerRating, RatingChange
from matches.ratings_api import LeaderboardPageOut, ProfileOut, SummaryOut
from matches.services.lobby import match_concede, match_create, match_join, match_start
from matches.services.submit import action_submit
from matches.tests.commandeer_fixtures import legal_deck
from matches.tests.test_api_contract import conforms

pytestmark = pytest.mark.django_db

FAST = {"turn_limit": 12}


def client_for(user: Any | None = None) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def play(match: Match, users: dict[int, Any], *, actions: int, agent: str = "random", seed: int = 1) -> Match:
    """Let every seat's user play `actions` actions chosen by an AI agent, through the submit service."""
    game = get_game(match.kind)
    rng = random.Random(seed)
    for _ in range(actions):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        state = storage.load_state(match, game)
        seat = game.current_players(state)[0]
        action = game.ai_action(state, seat, rng=rng, agent=agent)
        action_submit(
            match_id=match.pk,
            user=users[seat],
            action_json=game.action_to_json(action),
            state_version=match.state_version,
        )
    match.refresh_from_db()
    return match


@pytest.fixture
def rated_commandeer(alice: Any, bob: Any) -> Match:
    """A rated Commandeer match, played for a while, then bob concedes (C-6.4)."""
    da, db = legal_deck(alice, "stonehold"), legal_deck(bob, "tidewardens")
    match = match_create(
        user=alice,
        kind="commandeer",
        deck_id=da.pk,
        rules_config=FAST,
        rated=True,
        time_control={"initial_s": 600},
    )
    match_join(match_id=match.pk, user=bob, deck_id=db.pk)
    match_start(match_id=match.pk, user=alice)
    play(match, {0: alice, 1: bob}, actions=80, agent="greedy")
    if match.status == MatchStatus.ACTIVE:
        match_concede(match_id=match.pk, user=bob)
    match.refresh_from_db()
    return match


# ---- the Commandeer summary and both profiles ---------------------------------------------------------
def test_a_finished_rated_commandeer_match_has_a_summary_and_shows_on_both_profiles(
    rated_commandeer: Match, alice: Any, bob: Any
) -> None:
    match = rated_commandeer
    assert match.status == MatchStatus.FINISHED
    answer = client_for(alice).get(f"/api/matches/{match.pk}/summary/")
    assert answer.status_code == 200, answer.content
    s = answer.json()
    assert conforms(s, SummaryOut()) == []
    assert (
        s["winner"] == match.result["winner"] and s["reason"] == match.result["reason"] and s["reason_text"]
    )
    assert s["turns"] >= 1 and s["turns_label"] == "turns"
    assert {p["position"]: p["place"] for p in s["players"]} == {
        match.result["winner"]: 1,
        1 - match.result["winner"]: 2,
    }
    state = storage.load_state(match, get_game("commandeer"))
    for p in s["players"]:
        assert p["facts"]["defeated"] == len(state.sides[p["position"]].defeated)  # C-6.1's zone, per side
        assert p["moves"] > 0 and p["time_used_ms"] >= 0
    assert sum(p["moves"] for p in s["players"]) == match.state_version
    assert {r["username"] for r in s["ratings"]} == {"alice", "bob"}
    winner_name = "alice" if match.result["winner"] == 0 else "bob"
    assert all((r["delta"] > 0) == (r["username"] == winner_name) for r in s["ratings"])
    assert s["replay_url"] == f"/play/{match.pk}/replay/"
    assert MatchSummary.objects.filter(match=match).count() == 1  # stored once, read again
    assert client_for(None).get(f"/api/matches/{match.pk}/summary/").json() == s

    for user in (alice, bob):
        profile = client_for(None).get(f"/api/players/{user.get_username()}/").json()
        assert conforms(profile, ProfileOut()) == []
        assert [g["id"] for g in profile["recent_games"]] == [match.pk]
        game = profile["recent_games"][0]
        assert game["replay_url"] == s["replay_url"] and game["rated"] and game["rating_delta"] != 0
        (record,) = [k for k in profile["kinds"] if k["kind"] == "commandeer"]
        assert record["games"] == 1 and record["rating"]["games"] == 1 and record["rating"]["provisional"]
        assert (record["rated_games"], record["unrated_games"]) == (1, 0)
        assert record["rating"]["rating"] == round(
            PlayerRating.objects.get(user=user, kind="commandeer").rating
        )
        assert len(record["history"]) == 1 and record["history"][0]["match"] == match.pk
        assert "email" not in str(profile)


def test_the_summary_of_a_running_match_is_refused_with_409(
    rated_commandeer: Match, alice: Any, bob: Any
) -> None:
    running = match_create(user=alice, kind="counting")
    match_join(match_id=running.pk, user=bob)
    match_start(match_id=running.pk, user=alice)
    answer = client_for(alice).get(f"/api/matches/{running.pk}/summary/")
    assert answer.status_code == 409 and answer.json()["code"] == "not_finished"


def test_the_profile_and_summary_pages_render(rated_commandeer: Match, alice: Any) -> None:
    page = client_for(None).get("/players/alice/")
    assert page.status_code == 200
    text = page.content.decode()
    assert f'data-match="{rated_commandeer.pk}"' in text and "Replay" in text and "<svg" in text
    board = client_for(None).get("/leaderboard/commandeer/")
    assert board.status_code == 200 and "/players/alice/" in board.content.decode()
    assert client_for(None).get("/players/nobody-here/").status_code == 404
    assert client_for(None).get("/leaderboard/chess/").status_code == 404
    assert client_for(None).get("/players/").status_code == 302
    match_page = client_for(alice).get(f"/play/{rated_commandeer.pk}/").content.decode()
    assert 'id="game-over"' in match_page and "game_over.js" in match_page


# ---- profiles: public facts only ------------------------------------------------------------------------
def test_an_unknown_player_is_a_404_naming_them() -> None:
    answer = client_for(None).get("/api/players/ghost/")
    assert answer.status_code == 404 and "ghost" in answer.json()["message"]


def test_running_and_private_games_stay_off_a_profile_for_others(alice: Any, bob: Any, carol: Any) -> None:
    private = match_create(user=alice, kind="counting", is_public=False)
    match_join(match_id=private.pk, user=bob, invite_token=private.invite_token)
    match_start(match_id=private.pk, user=alice)
    match_concede(match_id=private.pk, user=bob)
    running = match_create(user=alice, kind="counting")
    match_join(match_id=running.pk, user=carol)
    match_start(match_id=running.pk, user=alice)
    seen_by_carol = client_for(carol).get("/api/players/alice/").json()
    assert seen_by_carol["recent_games"] == []
    seen_by_bob = client_for(bob).get("/api/players/alice/").json()
    assert [g["id"] for g in seen_by_bob["recent_games"]] == [private.pk]
    assert (
        seen_by_bob["recent_games"][0]["outcome"] == "win"
        and seen_by_bob["recent_games"][0]["rating_delta"] is None
    )
    (record,) = seen_by_bob["kinds"]
    assert (record["games"], record["wins"], record["rating"]) == (1, 1, None)
    assert (record["rated_games"], record["unrated_games"]) == (0, 1)  # counted apart from rated ones
    page = client_for(bob).get("/players/alice/").content.decode()
    assert "0 rated · 1 unrated" in page


def test_public_decks_are_listed_and_private_ones_are_not(alice: Any) -> None:
    from decks.models import Visibility

    shown = legal_deck(alice, "stonehold")
    shown.visibility = Visibility.PUBLIC
    shown.save()
    legal_deck(alice, "tidewardens")  # private
    decks = client_for(None).get("/api/players/alice/").json()["public_decks"]
    assert [d["name"] for d in decks] == [shown.name] and decks[0]["url"].endswith(f"/{shown.share_id}/")


# ---- leaderboards --------------------------------------------------------------------------------------
def test_a_leaderboard_lists_rated_players_provisional_ones_last_and_marked(
    rated_commandeer: Match, make_user: Any
) -> None:
    settled = make_user("veteran")
    PlayerRating.objects.create(
        user=settled,
        kind="commandeer",
        rating=1400,
        deviation=60,
        volatility=0.06,
        games=40,
        wins=20,
        losses=20,
    )
    PlayerRating.objects.create(
        user=make_user("never"), kind="commandeer", rating=1500, deviation=350, games=0
    )
    answer = client_for(None).get("/api/leaderboard/commandeer/")
    assert answer.status_code == 200
    page = answer.json()
    assert conforms(page, LeaderboardPageOut()) == []
    names = [r["username"] for r in page["results"]]
    assert names[0] == "veteran" and set(names[1:]) == {"alice", "bob"} and "never" not in names
    assert [r["rank"] for r in page["results"]] == [1, 2, 3]
    assert not page["results"][0]["provisional"] and all(r["provisional"] for r in page["results"][1:])
    assert page["results"][1]["rating"] > page["results"][2]["rating"]


def test_an_unknown_leaderboard_is_a_404_naming_the_rated_kinds() -> None:
    answer = client_for(None).get("/api/leaderboard/chess/")
    assert answer.status_code == 404 and "commandeer" in answer.json()["message"]


def test_a_leaderboard_page_is_bounded(make_user: Any) -> None:
    for i in range(3):
        PlayerRating.objects.create(
            user=make_user(f"p{i}"), kind="westeros", rating=1500 + i, mu=25, sigma=3, games=9
        )
    page = client_for(None).get("/api/leaderboard/westeros/?page_size=100000").json()
    assert page["count"] == 3 and [r["username"] for r in page["results"]] == ["p2", "p1", "p0"]
    assert client_for(None).get("/api/leaderboard/westeros/?page=9").status_code == 404


# ---- the create API's "rated" -------------------------------------------------------------------------
def test_the_create_api_refuses_a_rated_match_against_the_ai_with_a_message(alice: Any) -> None:
    deck = legal_deck(alice, "stonehold")
    answer = client_for(alice).post(
        "/api/matches/",
        {"kind": "commandeer", "deck_id": deck.pk, "vs_ai": True, "rated": True},
        format="json",
    )
    assert answer.status_code == 400 and answer.json()["code"] == "not_rateable"
    answer = client_for(alice).post(
        "/api/matches/",
        {"kind": "westeros", "ai_seats": 1, "rated": True, "rules_config": {"player_count": 3}},
        format="json",
    )
    assert answer.status_code == 400 and "AI" in answer.json()["message"]
    assert not Match.objects.exists()
    made = client_for(alice).post(
        "/api/matches/", {"kind": "commandeer", "deck_id": deck.pk, "rated": True}, format="json"
    )
    assert made.status_code == 201 and made.json()["rated"] is True


# ---- Westeros: a short seeded game, ranked by its final standing ----------------------------------------
def test_a_finished_rated_westeros_game_ranks_every_house_and_tracks_castles_and_supply_w_18(
    alice: Any, bob: Any, carol: Any
) -> None:
    match = match_create(
        user=alice, kind="westeros", rated=True, rules_config={"player_count": 3, "max_rounds": 2}
    )
    match_join(match_id=match.pk, user=bob)
    match_join(match_id=match.pk, user=carol)
    match_start(match_id=match.pk, user=alice)
    match = play(match, {0: alice, 1: bob, 2: carol}, actions=3000, agent="random", seed=3)
    assert match.status == MatchStatus.FINISHED
    game = get_game("westeros")
    state = storage.load_state(match, game)
    order = [game.seat_of(state, h) for h in state.final_standing()]  # W-18.2: castles, land, supply, throne
    assert order[0] == match.result["winner"]
    changes = {c.position: c for c in RatingChange.objects.filter(match=match)}
    assert [changes[p].place for p in order] == [1, 2, 3]
    assert changes[order[0]].after > changes[order[0]].before
    assert changes[order[0]].after > changes[order[1]].after > changes[order[2]].after
    s = client_for(carol).get(f"/api/matches/{match.pk}/summary/").json()
    assert conforms(s, SummaryOut()) == []
    assert s["turns_label"] == "rounds" and s["turns"] == 2
    place = {p["position"]: p["place"] for p in s["players"]}
    assert [place[q] for q in order] == [1, 2, 3]  # the summary's places are the W-18 standing
    assert [r["round"] for r in s["rounds"]] == [1, 2, "final"]
    for p in s["players"]:
        house = game.engine_player(state, p["position"])
        assert p["facts"] == {
            "house": house,
            "castles": state.castle_count(house),
            "supply": state.supply[house],
        }
        assert s["rounds"][-1]["seats"][str(p["position"])] == p["facts"]
    assert s["replay_url"] == f"/westeros/games/{match.pk}/replay/"
    assert {r["place"] for r in s["ratings"]} == {1, 2, 3}
