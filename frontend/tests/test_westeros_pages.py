"""Westeros pages: the map explorer lists every curated area, the game page guards access, and a game
against AI houses (a real lobby match) serves only the human house's view and legal actions (W-20)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from boardgame import dataset as board_dataset
from matches.models import Match

pytestmark = pytest.mark.django_db

HOUSES_BY_COUNT = {
    3: ["stark", "lannister", "baratheon"],
    4: ["stark", "lannister", "baratheon", "greyjoy"],
    5: ["stark", "lannister", "baratheon", "greyjoy", "tyrell"],
    6: ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"],
}


@pytest.fixture
def westeros() -> dict[str, Any]:
    """The bundled Westeros data imported into the test database; returns the data set."""
    data = board_dataset.bundled_data()
    board_dataset.game_data_import(data=data)
    return data


def _script_json(html: str, element_id: str) -> Any:
    """The JSON of a `json_script` element in a page."""
    start = html.index(f'id="{element_id}"')
    start = html.index(">", start) + 1
    return json.loads(html[start : html.index("</script>", start)])


def test_map_explorer_lists_every_area_of_the_curated_map_w_1_2(
    client: Client, westeros: dict[str, Any]
) -> None:
    response = client.get("/westeros/map/")
    assert response.status_code == 200
    html = response.content.decode()
    ids = [a["id"] for a in westeros["map"]["areas"]]
    assert len(ids) == 58
    for area_id in ids:
        assert f'data-area-id="{area_id}"' in html, area_id
    embedded = _script_json(html, "wx-map-data")
    assert sorted(a["id"] for a in embedded["areas"]) == sorted(ids)
    assert all(len(a["outline"]) >= 3 for a in embedded["areas"])
    assert _script_json(html, "wx-board-data") is None
    assert "All 58 areas" in html


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_map_explorer_shows_the_setup_of_each_player_count_w_2(
    client: Client, westeros: dict[str, Any], players: int
) -> None:
    response = client.get(f"/westeros/map/?players={players}")
    assert response.status_code == 200
    html = response.content.decode()
    for area in westeros["map"]["areas"]:
        assert f'data-area-id="{area["id"]}"' in html
    board = _script_json(html, "wx-board-data")
    assert board["houses"] == HOUSES_BY_COUNT[players]
    assert {g["house"] for g in board["units"].values()} == set(HOUSES_BY_COUNT[players])
    assert board["units"]["winterfell"]["units"] == ["footman", "knight"]
    assert board["neutral"]["kings_landing"] == 5 and board["neutral"]["the_eyrie"] == 6
    assert sorted(board["garrisons"]) == sorted(
        {"stark": "winterfell", "lannister": "lannisport", "baratheon": "dragonstone", "greyjoy": "pyke",
         "tyrell": "highgarden", "martell": "sunspear"}[h] for h in HOUSES_BY_COUNT[players]
    )  # fmt: skip
    assert ("pyke" in board["impassable"]) == (players == 3)
    assert f"{players}-player set-up" in html


@pytest.mark.parametrize("bad", ["2", "7", "six"])
def test_map_explorer_refuses_a_player_count_outside_3_to_6_w_1_1(
    client: Client, westeros: dict[str, Any], bad: str
) -> None:
    response = client.get(f"/westeros/map/?players={bad}")
    assert response.status_code == 400
    assert "3, 4, 5 or 6" in response.content.decode()


def test_map_explorer_says_so_when_the_map_data_is_not_loaded(client: Client) -> None:
    response = client.get("/westeros/map/")
    assert response.status_code == 200
    assert "manage.py load_westeros" in response.content.decode()
    assert "data-area-id" not in response.content.decode()


def test_game_page_needs_a_match_the_caller_may_see(client: Client, westeros: dict[str, Any]) -> None:
    owner = User.objects.create_user("owner", password="pw-owner-123")
    public = Match.objects.create(kind="westeros", created_by=owner, seed=1, is_public=True)
    private = Match.objects.create(kind="westeros", created_by=owner, seed=2, is_public=False)
    response = client.get(f"/westeros/games/{public.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'data-state-url="/api/matches/{public.pk}/state/"' in html
    assert f'data-socket="/ws/matches/{public.pk}/"' in html
    assert len(_script_json(html, "wx-map-data")["areas"]) == 58
    cards = _script_json(html, "wx-house-cards")
    assert len(cards) == 42 and cards["eddard_stark"]["strength"] == 4
    stranger = User.objects.create_user("stranger", password="pw-stranger-123")
    client.force_login(stranger)
    refused = client.get(f"/westeros/games/{private.pk}/")  # signed in, not seated: the 403 page says why
    assert refused.status_code == 403 and "This match is private." in refused.content.decode()
    assert client.get("/westeros/games/999999/").status_code == 404
    other_game = Match.objects.create(kind="commandeer", created_by=owner, seed=3, is_public=True)
    response = client.get(f"/westeros/games/{other_game.pk}/")
    assert response.status_code == 302 and response["Location"] == f"/play/{other_game.pk}/"
    response = client.get(f"/westeros/games/{other_game.pk}/replay/")
    assert response.status_code == 302 and response["Location"] == f"/play/{other_game.pk}/replay/"
    response = client.get(f"/westeros/games/{public.pk}/replay/")
    assert response.status_code == 200
    assert f'data-state-url="/api/matches/{public.pk}/replay/"' in response.content.decode()
    assert client.get(f"/westeros/games/{private.pk}/replay/").status_code == 403  # private, said so


# ---- playing against AI houses: a real match made through the lobby API ------------------------------------
def _state(client: Client, match_id: int) -> dict[str, Any]:
    response = client.get(f"/api/matches/{match_id}/state/")
    assert response.status_code == 200
    return response.json()


def _post(client: Client, match_id: int, body: dict[str, Any]) -> Any:
    return client.post(
        f"/api/matches/{match_id}/actions/", data=json.dumps(body), content_type="application/json"
    )


def _vs_ai(client: Client, capture: Any, *, house: str, players: int = 3) -> int:
    """One click in the lobby: a started match against AI houses (the AIs move in on-commit tasks)."""
    client.force_login(User.objects.create_user("human", password="pw-human-123"))
    with capture(execute=True):
        response = client.post(
            "/api/matches/",
            data=json.dumps(
                {"kind": "westeros", "vs_ai": True, "rules_config": {"player_count": players, "house": house}}
            ),
            content_type="application/json",
        )
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "active"
    return int(response.json()["id"])


def test_vs_ai_starts_at_the_planning_phase_with_only_the_humans_actions_w_5_1(
    client: Client, westeros: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    match_id = _vs_ai(client, django_capture_on_commit_callbacks, house="lannister")
    snap = _state(client, match_id)
    view = snap["view"]
    assert view["player"] == "lannister" and view["seat_houses"][0] == "lannister"
    assert view["phase"] == "planning" and view["round"] == 1
    assert snap["legal_actions"], "the human house has orders to place (W-5.1)"
    assert {a["action"]["player"] for a in snap["legal_actions"]} == {"lannister"}
    assert all(a["description"] for a in snap["legal_actions"])
    # The AIs placed their orders already: other houses' orders are face down for us (W-20.1).
    others = [o for o in view["orders"].values() if o[0] != "lannister"]
    assert others and all(token is None for _, token in others)
    assert view["castles"]["stark"] == 2 and view["control"]["lannisport"] == "lannister"
    page = client.get(f"/play/{match_id}/")
    assert page.status_code == 302 and page["Location"] == f"/westeros/games/{match_id}/"


def test_vs_ai_applies_a_legal_action_and_refuses_bad_ones(
    client: Client, westeros: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    match_id = _vs_ai(client, django_capture_on_commit_callbacks, house="stark")
    snap = _state(client, match_id)
    version = snap["state_version"]
    place = next(a["action"] for a in snap["legal_actions"] if a["action"]["type"] == "place_order")

    future = _post(client, match_id, {"action": place, "state_version": version + 1})
    assert future.status_code == 409 and future.json()["code"] == "stale_state"
    malformed = _post(client, match_id, {"action": {"type": "teleport"}, "state_version": version})
    assert malformed.status_code == 400 and malformed.json()["code"] == "illegal_action"
    foreign = _post(client, match_id, {"action": {**place, "player": "lannister"}, "state_version": version})
    assert foreign.status_code == 400 and foreign.json()["code"] == "illegal_action"
    illegal = _post(client, match_id, {"action": {**place, "area": "sunspear"}, "state_version": version})
    assert illegal.status_code == 400 and illegal.json()["code"] == "illegal_action"
    assert _state(client, match_id)["state_version"] == version  # nothing was half-applied

    applied = _post(client, match_id, {"action": place, "state_version": version})
    assert applied.status_code == 200 and applied.json()["state_version"] == version + 1
    after = _state(client, match_id)
    assert after["view"]["orders"][place["area"]] == ["stark", place["token"]]  # own order face up to us
    # A view from before our own order is stale (only the others' face-down orders may overtake a view).
    nxt = next(a["action"] for a in after["legal_actions"] if a["action"]["type"] == "place_order")
    stale = _post(client, match_id, {"action": nxt, "state_version": version})
    assert stale.status_code == 409 and stale.json()["code"] == "stale_state"


def test_vs_ai_refuses_a_house_not_in_the_game_w_1_1(client: Client, westeros: dict[str, Any]) -> None:
    client.force_login(User.objects.create_user("human", password="pw-human-123"))
    response = client.post(
        "/api/matches/",
        data=json.dumps(
            {"kind": "westeros", "vs_ai": True, "rules_config": {"player_count": 3, "house": "martell"}}
        ),
        content_type="application/json",
    )
    assert response.status_code == 400 and response.json()["code"] == "invalid_rules_config"
    assert "stark" in response.json()["message"]


def test_the_demo_table_is_gone_play_against_ai_is_a_lobby_match(client: Client) -> None:
    assert client.get("/westeros/demo/").status_code == 404
    client.force_login(User.objects.create_user("human", password="pw-human-123"))
    lobby = client.get("/play/?kind=westeros").content.decode()
    assert 'data-testid="westeros-play-ai"' in lobby and "House Martell" in lobby


def test_the_table_view_keeps_a_chosen_house_card_secret_until_both_are_in_w_20_6() -> None:
    """The adapter's view adds castles, control and combat numbers without leaking the first card chosen."""
    import random

    from boardgame.engine import load_default_game_data, new_game
    from boardgame.engine.agents import make_agent
    from matches.games.registry import get_game

    game = get_game("westeros")

    def westeros_view(state: Any, house: str | None) -> dict[str, Any]:
        return game.player_view(state, None if house is None else list(state.houses).index(house))

    state = new_game(load_default_game_data(), player_count=4, seed=11)
    agent = make_agent("greedy", random.Random(2))
    while not (state.pending and state.pending.kind == "house_card" and len(state.pending.chosen) == 1):
        assert not state.is_terminal(), "no half-chosen combat in this seeded game"
        state.apply(agent.choose(state, state.current_players()[0]))
    chooser = next(iter(state.pending.chosen))
    other = next(h for h in state.current_players() if h != chooser)
    mine, theirs, public = (
        westeros_view(state, chooser),
        westeros_view(state, other),
        westeros_view(state, None),
    )
    assert mine["pending"]["chosen"][chooser] == state.pending.chosen[chooser]
    assert theirs["pending"]["chosen"][chooser] is None and public["pending"]["chosen"][chooser] is None
    assert set(theirs["combat"]["cards"].values()) == {None}
    assert theirs["combat_strength"] == public["combat_strength"] == mine["combat_strength"]
    for side in theirs["combat_strength"].values():
        assert side["swords"] == 0 and side["forts"] == 0  # no card counted yet
    assert sum(theirs["castles"].values()) == sum(1 for h in theirs["control"].values() if h) - sum(
        1 for a, h in theirs["control"].items() if h and state.data.areas[a]["castle"] == "none"
    )


def test_the_game_page_shows_the_data_the_game_started_with_the_explorer_the_edited_one_w_2_1(
    client: Client, westeros: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    """An admin's edit after the start changes the curated map (explorer, next game), never a running game's
    table or its replay: they show the copy of the data the game plays on, so a game never changes under
    its players."""
    from boardgame.models import Area, HouseCard, WesterosCard, WildlingCard

    match_id = _vs_ai(client, django_capture_on_commit_callbacks, house="stark")
    old_card = HouseCard.objects.get(slug="eddard_stark")
    old_supply = WesterosCard.objects.get(deck__number=1, slug="supply")
    Area.objects.filter(slug="winterfell").update(name="Winterfell (edited)")
    HouseCard.objects.filter(slug="eddard_stark").update(name="Ned (edited)", effect="An edited text.")
    WesterosCard.objects.filter(pk=old_supply.pk).update(effect="An edited Westeros text.")
    WildlingCard.objects.filter(slug="crow_killers").update(name="Crow Killers (edited)")

    for url in (f"/westeros/games/{match_id}/", f"/westeros/games/{match_id}/replay/"):
        html = client.get(url).content.decode()
        areas = {a["id"]: a for a in _script_json(html, "wx-map-data")["areas"]}
        assert areas["winterfell"]["name"] == "Winterfell" and len(areas["winterfell"]["outline"]) >= 3
        cards = _script_json(html, "wx-house-cards")
        assert cards["eddard_stark"]["name"] == old_card.name == "Eddard Stark"
        assert cards["eddard_stark"]["effect"] == old_card.effect
        texts = _script_json(html, "wx-card-texts")
        assert texts["westeros"]["1:supply"]["text"] == old_supply.effect != "An edited Westeros text."
        assert texts["wildling"]["crow_killers"]["name"] == "Crow Killers"
        assert "(edited)" not in html and "edited text" not in html, url

    explorer = client.get("/westeros/map/").content.decode()
    areas = {a["id"]: a for a in _script_json(explorer, "wx-map-data")["areas"]}
    assert areas["winterfell"]["name"] == "Winterfell (edited)"
    waiting = Match.objects.create(kind="westeros", created_by=User.objects.get(username="human"), seed=5)
    html = client.get(f"/westeros/games/{waiting.pk}/").content.decode()  # not started: the curated data
    assert _script_json(html, "wx-house-cards")["eddard_stark"]["name"] == "Ned (edited)"
    assert _script_json(html, "wx-card-texts")["westeros"]["1:supply"]["text"] == "An edited Westeros text."
