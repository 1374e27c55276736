"""The Westeros tutorial on the real engine: every step expects exactly one legal action of Stark, and the
words of each step are true of the state it leaves (checked here with the rule each one cites); the API
runs it for a visitor and refuses another move with a reason."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from boardgame.engine import WesterosState
from frontend import tutorial_westeros as tw
from matches.models import Match

URL = "/api/tutorials/westeros/"
LESSON = tw.WESTEROS
STEPS = LESSON.steps()


def _index(move_type: str) -> int:
    return next(i for i, (_c, _w, s) in enumerate(STEPS) if s.move and s.move["type"] == move_type)


def _before(move_type: str) -> WesterosState:
    return tw.state_at(LESSON, _index(move_type))


def _after(move_type: str) -> WesterosState:
    return tw.state_at(LESSON, _index(move_type) + 1)


def _view(state: WesterosState) -> dict[str, Any]:
    return state.player_view("stark")


def test_every_step_expects_exactly_one_legal_action_of_stark_and_nobody_loses() -> None:
    for i, (_c, _w, step) in enumerate(STEPS):
        state = tw.state_at(LESSON, i)
        assert "stark" in state.current_players(), f"step {i}: Stark must be the one to act"
        action = tw.expected_action(state, step)
        assert action is not None and action in state.legal_actions("stark")
        assert tw.highlight(action), f"step {i} marks nothing"
    final = tw.state_at(LESSON, len(STEPS))
    view = _view(final)
    # the lesson ends at round 2's Planning: no house has won or lost, Stark has its next orders to give
    assert not final.is_terminal() and view["round"] == 2 and view["phase"] == "planning"
    assert view["pending"]["kind"] == "orders"


def test_orders_go_face_down_on_every_area_then_are_revealed_together_w_5_1_w_5_4() -> None:
    state = _before("finish_orders")
    # face down: Lannister sees that Stark has an order in each of its areas, not which (W-20)
    hidden = state.player_view("lannister")["orders"]
    assert [hidden[a] for a in ("winterfell", "white_harbor", "the_shivering_sea")] == [["stark", None]] * 3
    orders = _view(_after("finish_orders"))["orders"]
    assert orders["winterfell"] == ["stark", "march_plus_one"]
    assert orders["white_harbor"] == ["stark", "consolidate_power"]
    assert orders["the_shivering_sea"] == ["stark", "raid"]
    assert orders["moat_cailin"] == ["lannister", "defense_plus_one"]
    assert orders["the_narrow_sea"] == ["baratheon", "consolidate_power"]


def test_the_raven_shows_stark_alone_the_top_wildling_card_w_5_5() -> None:
    state = _after("choose")
    seen = [e["text"] for e in state.log_view("stark", 0) if "skinchanger_scout" in e["text"]]
    hidden = [e["text"] for e in state.log_view("lannister", 0) if "skinchanger_scout" in e["text"]]
    assert seen and not hidden
    assert _view(tw.state_at(LESSON, _index("resolve_raid")))["phase"] == "action"


def test_the_raid_pillages_baratheons_consolidate_power_w_7_2_3() -> None:
    before, after = _before("resolve_raid"), _after("resolve_raid")
    assert _view(after)["power"]["stark"] == _view(before)["power"]["stark"] + 1
    assert _view(after)["power"]["baratheon"] == _view(before)["power"]["baratheon"] - 1
    assert "the_narrow_sea" not in _view(after)["orders"]


def test_the_march_starts_a_combat_won_with_eddard_stark_8_to_3_w_9() -> None:
    combat = _view(_after("march_move"))["combat"]
    assert (
        combat["area"] == "moat_cailin"
        and combat["attacker"] == "stark"
        and combat["defender"] == "lannister"
    )
    after = _after("play_house_card")
    view = _view(after)
    assert view["units"]["moat_cailin"] == {"house": "stark", "routed": [], "units": ["footman", "knight"]}
    assert "eddard_stark" in view["discards"]["stark"]  # W-17.2
    fought = [e for e in after.log_view("stark", 0) if e.get("numbers") == [8, 3]]
    assert fought and fought[0]["combat"]["winner"] == "stark"
    assert fought[0]["combat"]["numbers"]["stark"]["swords"] == 2


def test_consolidate_power_gives_one_token_and_round_two_turns_up_two_wildling_icons_w_7_5_w_4_1() -> None:
    before, after = _before("resolve_consolidate"), _after("resolve_consolidate")
    assert _view(after)["power"]["stark"] == _view(before)["power"]["stark"] + 1  # no crown in White Harbor
    view = _view(after)
    # Last Days of Summer and Dark Wings, Dark Words: a wildling icon each, +2 each from 4
    assert view["round"] == 2 and view["threat"] == 8
    assert view["revealed"] == ["1:last_days_of_summer", "2:dark_wings_dark_words", "3:wildlings_attack"]


def _dark_wings() -> int:
    return next(i for i, (_c, _w, s) in enumerate(STEPS) if s.move and s.move.get("decision") == "dark_wings")


@pytest.mark.django_db
def test_dark_wings_asks_stark_the_raven_holder_and_gives_power_per_crown_w_4_4_w_15_2() -> None:
    index = _dark_wings()
    before, after = tw.state_at(LESSON, index), tw.state_at(LESSON, index + 1)
    # the engine asks the Raven's holder, and nobody else, to choose among the card's three options
    assert before.current_players() == ["stark"]
    options = {
        a.to_json()["option"] for a in before.legal_actions("stark") if a.to_json()["type"] == "choose"
    }
    assert options == {"clash_of_kings", "collect_power", "nothing"}
    assert _view(before)["pending"]["decision"] == "dark_wings"
    # 1 per crown in controlled land areas: Winterfell for Stark, Dragonstone for Baratheon, none for Lannister
    gained = {
        h: _view(after)["power"][h] - _view(before)["power"][h] for h in ("stark", "lannister", "baratheon")
    }
    assert gained == {"stark": 1, "lannister": 0, "baratheon": 1}
    # then Wildlings Attack: the wildlings come at the threat, 8, and Stark bids (W-4.5, W-16.3)
    view = _view(after)
    assert view["pending"]["kind"] == "bid" and view["pending"]["task"]["strength"] == 8
    # the page shows the card the step is about, and offers exactly that option
    data = tw.payload(LESSON, index)
    assert data["focus"] == ["westeros-card-dark_wings_dark_words"] and data["highlight"] == ["button:choose"]
    assert data["expect"]["option"] == "collect_power"


def test_bids_of_5_2_and_1_hold_the_wall_and_the_top_bidder_gets_the_bid_back_w_16_4_w_16_7() -> None:
    before, after = _before("bid"), _after("bid")
    assert _view(after)["threat"] == 0  # W-16.5
    assert _view(after)["power"]["stark"] == _view(before)["power"]["stark"]  # bid 5, took 5 back
    assert [
        e for e in after.log_view("stark", 0) if e.get("bids") == {"lannister": 2, "baratheon": 1, "stark": 5}
    ]


# ---- the API ----------------------------------------------------------------------------------------------


def _post(client: Client, body: dict[str, Any]) -> Any:
    return client.post(URL, data=json.dumps(body), content_type="application/json")


@pytest.mark.django_db
def test_a_visitor_plays_the_tutorial_to_its_end_and_no_match_is_made() -> None:
    client = Client()
    data = client.get(URL).json()
    assert data["step"] == 0 and data["highlight"] == ["area:winterfell", "button:place_order"]
    assert data["view"]["player"] == "stark" and "W-5.1" in data["instruction"]
    while not data["finished"]:
        response = _post(client, {"step": data["step"], "action": data["expect"]})
        assert response.status_code == 200, response.content
        data = response.json()
    assert data["step"] == len(STEPS) and "W-16.4" in data["explanation"]
    assert any("8" in line for line in data["happened"])
    assert Match.objects.count() == 0
    back = client.get(URL).json()  # the same visitor comes back: the lesson stays finished
    assert back["finished"] and back["step"] == len(STEPS)


@pytest.mark.django_db
def test_another_move_is_refused_with_the_reason() -> None:
    client = Client()
    data = client.get(URL).json()
    other = {**data["expect"], "token": "defense_plus_one"}  # legal, but not this step's order
    response = _post(client, {"step": 0, "action": other})
    assert response.status_code == 400 and response.json()["code"] == "not_this_step"
    illegal = {**data["expect"], "area": "lannisport"}  # not Stark's area (W-5.1)
    response = _post(client, {"step": 0, "action": illegal})
    assert response.status_code == 400 and response.json()["code"] == "illegal_action"
    response = _post(client, {"step": 0, "action": {"type": "teleport"}})
    assert response.status_code == 400 and response.json()["code"] == "invalid_action"
    assert _post(client, {"step": 0, "action": None}).status_code == 400
    assert client.get(URL).json()["step"] == 0


@pytest.mark.django_db
def test_the_page_carries_the_map_and_the_card_names_and_the_home_page_links_to_it() -> None:
    client = Client()
    page = client.get("/learn/westeros/")
    assert page.status_code == 200
    body = page.content.decode()
    for script in ("wx-map-data", "wx-house-cards", "wx-card-texts", "westeros/tutorial.js"):
        assert script in body
    assert 'href="/learn/westeros/"' in client.get("/").content.decode()
