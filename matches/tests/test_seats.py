"""Seats and houses at the table (W-1.1), kick, fill with AI, a leaver replaced by the AI, rematch, lobby fixes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from matches import selectors
from matches.agents import TAKEOVER_AGENT
from matches.games.kind import Result
from matches.games.registry import get_game
from matches.models import Match, MatchStatus, Seat
from matches.my_games import my_games
from matches.services import submit
from matches.services.lobby import match_concede, match_create, match_join, match_start
from matches.services.rematch import match_rematch
from matches.services.seating import match_fill_ai, match_pick_house

pytestmark = pytest.mark.django_db


def client_for(user: Any | None) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
        c.force_login(user)  # the pages too
    return c


def westeros_table(user: Any, **config: Any) -> Match:
    return match_create(
        user=user,
        kind="westeros",
        rules_config={"player_count": 3, **config},
        time_control={"per_move_s": 600},
    )


def houses_of(match: Match) -> dict[int, str]:
    return dict(Seat.objects.filter(match=match).values_list("position", "house"))


def engine_houses(match: Match) -> list[str]:
    match.refresh_from_db()
    game = get_game("westeros")
    state = game.load(match.state)
    return [game.engine_player(state, p) for p in range(game.seat_count(match.rules_config))]


# ---- choose: every joiner picks a free house (W-1.1) ---------------------------------------------------------
def test_a_joiner_picks_a_free_house_and_the_engine_seats_it_w_1_1(alice: Any, bob: Any, carol: Any) -> None:
    match = westeros_table(alice, house="lannister")
    r = client_for(bob).post(f"/api/matches/{match.pk}/join/", {"house": "baratheon"}, format="json")
    assert r.status_code == 200, r.json()
    assert {s["name"]: s["house"] for s in r.json()["seats"]} == {"alice": "lannister", "bob": "baratheon"}
    assert r.json()["seating"]["free"] == ["stark"]
    match_join(match_id=match.pk, user=carol)  # no house named: the first free one
    match_start(match_id=match.pk, user=alice)
    assert engine_houses(match) == ["lannister", "baratheon", "stark"]


def test_a_taken_house_or_one_outside_the_player_count_is_a_400_naming_the_choices(
    alice: Any, bob: Any
) -> None:
    match = westeros_table(alice, house="stark")
    taken = client_for(bob).post(f"/api/matches/{match.pk}/join/", {"house": "stark"}, format="json")
    assert taken.status_code == 400 and taken.json()["code"] == "house_taken"
    assert "lannister" in taken.json()["message"] and taken.json()["extra"]["free"] == [
        "lannister",
        "baratheon",
    ]
    wrong = client_for(bob).post(f"/api/matches/{match.pk}/join/", {"house": "martell"}, format="json")
    assert wrong.status_code == 400 and wrong.json()["code"] == "invalid_house"
    assert "3-player" in wrong.json()["message"]
    assert Seat.objects.filter(match=match).count() == 1  # nothing half-applied


def test_a_player_may_change_house_until_the_start_in_choose_mode(alice: Any, bob: Any) -> None:
    match = westeros_table(alice)
    match_join(match_id=match.pk, user=bob, house="baratheon")
    r = client_for(bob).post(f"/api/matches/{match.pk}/house/", {"house": "lannister"}, format="json")
    assert r.status_code == 200 and houses_of(match)[1] == "lannister"
    taken = client_for(bob).post(f"/api/matches/{match.pk}/house/", {"house": "stark"}, format="json")
    assert taken.status_code == 400 and taken.json()["code"] == "house_taken"


def test_random_seating_draws_every_house_at_the_start_with_the_match_seed(
    alice: Any, bob: Any, carol: Any
) -> None:
    match = westeros_table(alice, seating="random")
    refused = client_for(bob).post(f"/api/matches/{match.pk}/join/", {"house": "stark"}, format="json")
    assert refused.status_code == 400 and "random" in refused.json()["message"]
    match_join(match_id=match.pk, user=bob)
    match_join(match_id=match.pk, user=carol)
    assert set(houses_of(match).values()) == {""}
    match_start(match_id=match.pk, user=alice)
    drawn = engine_houses(match)
    assert sorted(drawn) == ["baratheon", "lannister", "stark"]
    assert list(houses_of(match).values()) == drawn


def test_a_draft_goes_in_join_order_and_picks_are_final(alice: Any, bob: Any, carol: Any) -> None:
    match = westeros_table(alice, seating="draft")
    match_join(match_id=match.pk, user=bob)
    match_join(match_id=match.pk, user=carol)
    early = client_for(carol).post(f"/api/matches/{match.pk}/house/", {"house": "stark"}, format="json")
    assert (
        early.status_code == 409
        and early.json()["code"] == "not_your_pick"
        and "alice" in early.json()["message"]
    )
    assert client_for(bob).get(f"/api/matches/{match.pk}/").json()["seating"]["picking"] == 0
    match_pick_house(match_id=match.pk, user=alice, house="baratheon")
    assert client_for(bob).get(f"/api/matches/{match.pk}/").json()["seating"]["picking"] == 1
    match_pick_house(match_id=match.pk, user=bob, house="stark")
    again = client_for(bob).post(f"/api/matches/{match.pk}/house/", {"house": "lannister"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "already_picked"
    held = client_for(alice).post(f"/api/matches/{match.pk}/start/")
    assert held.status_code == 409 and "carol" in held.json()["message"]
    match_pick_house(match_id=match.pk, user=carol, house="lannister")
    match_start(match_id=match.pk, user=alice)
    assert engine_houses(match) == ["baratheon", "stark", "lannister"]


# ---- kick and fill with AI ------------------------------------------------------------------------------------
def test_only_the_creator_kicks_before_the_start_and_the_kicked_player_sees_why(
    alice: Any, bob: Any, carol: Any
) -> None:
    match = westeros_table(alice)
    match_join(match_id=match.pk, user=bob)
    match_join(match_id=match.pk, user=carol)
    assert (
        client_for(bob).post(f"/api/matches/{match.pk}/kick/", {"position": 2}, format="json").status_code
        == 403
    )
    r = client_for(alice).post(f"/api/matches/{match.pk}/kick/", {"position": 1}, format="json")
    assert r.status_code == 200 and [s["name"] for s in r.json()["seats"]] == ["alice", "carol"]
    seen = client_for(bob).get(f"/api/matches/{match.pk}/").json()
    assert seen["seating"]["kicked"] == ["bob"] and seen["you"] is None
    back = client_for(bob).post(f"/api/matches/{match.pk}/join/", {}, format="json")
    assert back.status_code == 403 and back.json()["code"] == "kicked"
    match_fill_ai(match_id=match.pk, user=alice, agent="easy")
    match_start(match_id=match.pk, user=alice)
    late = client_for(alice).post(f"/api/matches/{match.pk}/kick/", {"position": 2}, format="json")
    assert late.status_code == 409


def test_the_creator_fills_the_empty_seats_with_ai_houses_of_a_level_and_starts(alice: Any, bob: Any) -> None:
    match = westeros_table(alice, house="stark", player_count=4)
    match_join(match_id=match.pk, user=bob, house="greyjoy")
    assert (
        client_for(bob)
        .post(f"/api/matches/{match.pk}/fill-ai/", {"ai_agent": "hard"}, format="json")
        .status_code
        == 403
    )
    bad = client_for(alice).post(f"/api/matches/{match.pk}/fill-ai/", {"ai_agent": "wizard"}, format="json")
    assert bad.status_code == 400
    r = client_for(alice).post(f"/api/matches/{match.pk}/fill-ai/", {"ai_agent": "hard"}, format="json")
    assert r.status_code == 200
    seats = r.json()["seats"]
    assert [(s["name"], s["house"]) for s in seats] == [
        ("alice", "stark"),
        ("bob", "greyjoy"),
        ("AI (hard)", "lannister"),
        ("AI (hard)", "baratheon"),
    ]
    full = client_for(alice).post(f"/api/matches/{match.pk}/fill-ai/", {"ai_agent": "easy"}, format="json")
    assert full.status_code == 409
    match_start(match_id=match.pk, user=alice)
    assert engine_houses(match) == ["stark", "greyjoy", "lannister", "baratheon"]


# ---- a leaver is replaced by an AI house ---------------------------------------------------------------------
def test_a_player_who_leaves_a_running_westeros_game_is_replaced_by_the_ai_under_their_name(
    alice: Any, bob: Any, carol: Any
) -> None:
    match = westeros_table(alice)
    match_join(match_id=match.pk, user=bob)
    match_join(match_id=match.pk, user=carol)
    match_start(match_id=match.pk, user=alice)
    r = client_for(bob).post(f"/api/matches/{match.pk}/leave/")
    assert r.status_code == 204
    seat = Seat.objects.get(match=match, position=1)
    assert seat.is_ai and seat.ai_agent == TAKEOVER_AGENT and seat.user == bob
    state = client_for(carol).get(f"/api/matches/{match.pk}/state/").json()
    assert state["seats"][1]["name"] == "bob (AI, left)" and state["seats"][1]["left"] is True
    assert state["status"] == MatchStatus.ACTIVE  # the game goes on
    watching = client_for(bob).get(f"/api/matches/{match.pk}/state/").json()
    assert watching["you"] is None and watching["legal_actions"] == []  # a spectator now
    act = client_for(bob).post(
        f"/api/matches/{match.pk}/actions/", {"action": {"kind": "x"}, "state_version": 0}, format="json"
    )
    assert act.status_code == 409
    assert client_for(bob).post(f"/api/matches/{match.pk}/leave/").status_code == 409


def test_leaving_a_running_two_player_match_is_conceding_not_leaving(started: Match, alice: Any) -> None:
    r = client_for(alice).post(f"/api/matches/{started.pk}/leave/")
    assert r.status_code == 409 and "concede" in r.json()["message"]
    assert not Seat.objects.get(match=started, position=0).is_ai


# ---- rematch --------------------------------------------------------------------------------------------------
def test_a_rematch_is_offered_then_accepted_with_the_seats_swapped_and_the_settings_kept(
    started: Match, alice: Any, bob: Any, carol: Any
) -> None:
    early = client_for(alice).post(f"/api/matches/{started.pk}/rematch/")
    assert early.status_code == 409 and early.json()["code"] == "not_finished"
    match_concede(match_id=started.pk, user=bob)
    assert client_for(carol).post(f"/api/matches/{started.pk}/rematch/").status_code == 403
    offer = client_for(alice).post(f"/api/matches/{started.pk}/rematch/")
    assert offer.status_code == 200 and offer.json()["match"] is None
    assert offer.json()["rematch"]["offered_by"] == [0]
    again = client_for(alice).post(f"/api/matches/{started.pk}/rematch/")  # a double click
    assert again.status_code == 200 and Match.objects.filter(rematch_of=started).count() == 0
    seen = client_for(bob).get(f"/api/matches/{started.pk}/state/").json()["rematch"]
    assert seen["offered_by_names"] == ["alice"] and seen["match_id"] is None
    accept = client_for(bob).post(f"/api/matches/{started.pk}/rematch/")
    assert accept.status_code == 201
    new = Match.objects.get(rematch_of=started)
    assert accept.json()["match"]["id"] == new.pk and new.status == MatchStatus.ACTIVE
    assert dict(Seat.objects.filter(match=new).values_list("position", "user__username")) == {
        0: "bob",
        1: "alice",
    }
    assert (new.time_control, new.rules_config, new.kind, new.is_public) == (
        started.time_control,
        started.rules_config,
        started.kind,
        started.is_public,
    )
    announced = client_for(alice).get(f"/api/matches/{started.pk}/state/").json()["rematch"]
    assert announced["match_id"] == new.pk
    late = client_for(bob).post(f"/api/matches/{started.pk}/rematch/")
    assert late.status_code == 409 and late.json()["extra"]["match_id"] == new.pk
    assert Match.objects.filter(rematch_of=started).count() == 1


def test_against_the_ai_one_call_makes_the_rematch_at_once_with_the_same_level(alice: Any) -> None:
    match = match_create(user=alice, kind="counting", vs_ai=True, ai_agent="easy")
    match_concede(match_id=match.pk, user=alice)
    r = client_for(alice).post(f"/api/matches/{match.pk}/rematch/")
    assert r.status_code == 201
    new = Match.objects.get(rematch_of=match)
    seats = {s.position: s for s in Seat.objects.filter(match=new)}
    assert seats[1].user == alice and seats[0].ai_agent == "easy"
    assert new.status == MatchStatus.ACTIVE


def test_a_westeros_rematch_gives_every_player_the_next_seats_house(alice: Any, bob: Any) -> None:
    match = westeros_table(alice, house="stark")
    match_join(match_id=match.pk, user=bob, house="baratheon")
    match_fill_ai(match_id=match.pk, user=alice, agent="easy")
    match_start(match_id=match.pk, user=alice)
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED, finished_at=timezone.now())
    match_rematch(match_id=match.pk, user=alice)
    new, _ = match_rematch(match_id=match.pk, user=bob)
    assert new is not None
    assert engine_houses(new) == ["baratheon", "lannister", "stark"]  # alice had stark; now bob's baratheon
    seats = list(Seat.objects.filter(match=new).order_by("position"))
    assert [s.user for s in seats[:2]] == [alice, bob] and seats[2].ai_agent == "easy"


# ---- lobby fixes ----------------------------------------------------------------------------------------------
def test_results_read_in_plain_words_not_slugs(alice: Any, bob: Any) -> None:
    match = match_create(user=alice, kind="counting")
    match_join(match_id=match.pk, user=bob)
    seats = list(Seat.objects.filter(match=match).select_related("user"))
    match.result = {
        "winner": 0,
        "reason": "turn_limit",
        "text": "turn limit reached: fewer Defeated cards wins",
    }
    assert selectors.result_line(match, seats) == "alice won — turn limit reached: fewer Defeated cards wins"
    match.result = {"winner": 1, "reason": "timeout"}
    assert selectors.result_line(match, seats) == "bob won — lost on time"
    match.result = {"winner": 1, "reason": "concede", "text": "alice conceded."}
    assert selectors.result_line(match, seats) == "bob won — alice conceded."
    assert "_" not in selectors.result_line(match, seats)


def test_a_finished_westeros_table_says_why_in_the_summarys_words_w_18(alice: Any) -> None:
    """The table's game-over banner reads `result_reason` from the snapshot: the words of the game-over summary
    (it printed the engine's slug, 'Round Limit', beside the summary's 'Most castles after the last round')."""
    match = westeros_table(alice)
    match.result = {"winner": 0, "reason": "round_limit", "text": "Stark wins"}
    assert (
        selectors.match_summary(match, you=None)["result_reason"]
        == "Most castles after the last round (W-18.2)"
    )
    match.result = {"winner": 0, "reason": "seven_castles", "text": "Stark wins"}
    assert selectors.match_summary(match, you=None)["result_reason"] == "Seven castles held (W-18.1)"
    match.result = {"winner": 1, "reason": "concede", "text": "alice conceded."}
    assert selectors.match_summary(match, you=None)["result_reason"] == "alice conceded."
    match.result = None
    assert selectors.match_summary(match, you=None)["result_reason"] == ""


def test_a_westeros_result_names_the_winning_house_and_who_played_it_w_18(alice: Any) -> None:
    """At a table of AI houses every AI seat is "AI (hard)": the result line names the house first."""
    match = match_create(
        user=alice, kind="westeros", vs_ai=True, ai_agent="hard", rules_config={"player_count": 3}
    )
    seats = list(Seat.objects.filter(match=match).select_related("user").order_by("position"))
    ai = next(s for s in seats if s.is_ai)
    match.result = {"winner": ai.position, "reason": "round_limit", "text": f"{ai.house.title()} wins"}
    assert selectors.result_line(match, seats) == f"{ai.house.title()} (AI, hard) won (end of round 10)"
    mine = seats[0]
    match.result = {"winner": 0, "reason": "seven_castles", "text": f"{mine.house.title()} wins"}
    assert selectors.result_line(match, seats) == f"{mine.house.title()} (alice) won (seven castles)"
    mine.ai_agent, mine.left_at = "normal", timezone.now()  # alice left; the AI played her house on
    assert (
        selectors.result_line(match, seats) == f"{mine.house.title()} (alice, AI, left) won (seven castles)"
    )
    assert "(AI, hard) lost on time" in submit.lost_on_time(0, ai).text
    submit.finish(match, seats, Result(winner=ai.position, reason="seven_castles"), timezone.now())
    assert match.result["winner_name"] == f"{ai.house.title()} (AI, hard)"
    games = my_games(user=alice)
    listed = next(g for g in games.your_turn + games.running if g.id == match.pk)
    assert listed.opponents == [f"{s.house.title()} (AI, hard)" for s in seats[1:]]  # not "AI (hard)" twice


def test_a_public_ai_match_is_listed_and_watchable_and_a_private_one_is_not(alice: Any, carol: Any) -> None:
    public = client_for(alice).post(
        "/api/matches/", {"kind": "counting", "vs_ai": True, "is_public": True}, format="json"
    )
    private = client_for(alice).post(
        "/api/matches/",
        {"kind": "counting", "vs_ai": True, "is_public": False, "ai_agent": "easy"},
        format="json",
    )
    assert public.json()["is_public"] is True and private.json()["is_public"] is False
    assert client_for(carol).get(f"/api/matches/{public.json()['id']}/state/").status_code == 200
    assert client_for(None).get(f"/play/{public.json()['id']}/").status_code == 200
    assert client_for(carol).get(f"/api/matches/{private.json()['id']}/state/").status_code == 403
    listed = [m["id"] for m in client_for(None).get("/api/matches/?status=active").json()["results"]]
    assert public.json()["id"] in listed and private.json()["id"] not in listed


def test_time_controls_are_offered_per_game_with_the_games_default_first(alice: Any) -> None:
    from matches.clocks import TimeControl, time_control_choices

    commandeer = [p["value"] for p in time_control_choices("commandeer")]
    westeros = [p["value"] for p in time_control_choices("westeros")]
    assert commandeer[0] == {"initial_s": 300, "increment_s": 10} and westeros[0]["bank_s"] == 600
    assert not any("bank_s" in v for v in commandeer)  # per decision with a bank is Westeros' control
    assert not any("initial_s" in v for v in westeros)  # Fischer per turn is Commandeer's
    for value in commandeer + westeros:
        assert TimeControl.from_json(value).to_json() == value  # every preset is a valid control
    page = client_for(alice).get("/play/").content.decode()
    found = re.findall(r'data-kinds="([^"]*)" data-default-for="[^"]*">([^<]+)</option>', page)
    options = {label: kinds.split() for kinds, label in found}
    assert "commandeer" not in options["Live: 3 min per decision + 10 min bank"]
    assert "westeros" in options["Live: 3 min per decision + 10 min bank"]
    assert "westeros" not in options["5 min + 10 s per turn"]


def test_a_new_account_plays_the_ai_with_a_starter_deck_copied_into_its_decks(make_user: Any) -> None:
    from django.core.management import call_command

    from decks.models import Deck

    call_command("load_sample_cards", verbosity=0)
    call_command("starter_decks", verbosity=0)
    newbie = make_user("newbie")
    page = client_for(newbie).get("/play/").content.decode()
    starter = Deck.objects.filter(owner__username="starter").order_by("name").first()
    assert f'value="starter:{starter.pk}"' in page and starter.name in page  # offered in the deck select
    body = {"kind": "commandeer", "vs_ai": True, "starter_deck_id": starter.pk, "is_public": False}
    r = client_for(newbie).post("/api/matches/", body, format="json")
    assert r.status_code == 201, r.json()
    copy = Deck.objects.get(owner=newbie)
    assert copy.name == starter.name and copy.pk != starter.pk
    assert Seat.objects.get(match_id=r.json()["id"], position=0).deck_id == copy.pk
    again = client_for(newbie).post("/api/matches/", {**body, "is_public": True}, format="json")
    assert again.status_code == 201 and Deck.objects.filter(owner=newbie).count() == 1  # the copy is reused
    own = Deck.objects.filter(owner=newbie).first()
    refused = client_for(newbie).post("/api/matches/", {**body, "starter_deck_id": own.pk}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_deck"


def test_the_rematch_endpoint_is_documented_with_its_refusals() -> None:
    spec = APIClient().get("/api/schema/?format=json").json()
    op = spec["paths"]["/api/matches/{match_id}/rematch/"]["post"]
    assert {"200", "201", "403", "404", "409"} <= set(op["responses"])
    assert "rematch_exists" in op["responses"]["409"]["description"]
    join = spec["paths"]["/api/matches/{match_id}/join/"]["post"]["requestBody"]["content"][
        "application/json"
    ]
    ref = join["schema"]["$ref"].rsplit("/", 1)[1]
    assert spec["components"]["schemas"][ref]["properties"]["house"]["maxLength"] == 20


def test_a_house_switch_and_a_rematch_offer_change_what_the_socket_pushes(alice: Any, bob: Any) -> None:
    from matches.consumers import _change_key

    match = westeros_table(alice)
    match_join(match_id=match.pk, user=bob, house="baratheon")
    before = _change_key(match.pk)
    match_pick_house(match_id=match.pk, user=bob, house="lannister")  # same names, same version
    assert _change_key(match.pk) != before
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED)
    before = _change_key(match.pk)
    match_rematch(match_id=match.pk, user=alice)
    assert _change_key(match.pk) != before


def test_an_invite_link_to_a_westeros_table_offers_the_free_houses_not_a_deck(alice: Any, bob: Any) -> None:
    match = westeros_table(alice, house="stark")
    page = client_for(bob).get(f"/play/join/{match.invite_token}/").content.decode()
    assert 'value="lannister">House Lannister' in page and 'value="stark"' not in page
    assert 'name="deck_id"' not in page
