"""Engine interface (docs/style.md §2-7): checked apply, JSON actions, views, victory (W-18), agents, simulate."""

from __future__ import annotations

import json
from random import Random

import pytest

from boardgame.engine import simulate
from boardgame.engine.actions import (
    ACTION_TYPES,
    Bid,
    Choose,
    ChooseMarch,
    DeclareSupport,
    EndMarch,
    MarchMove,
    PlaceOrder,
    action_from_json,
)
from boardgame.engine.agents import GreedyAgent, RandomAgent
from boardgame.engine.config import RulesConfig
from boardgame.engine.data import GameData
from boardgame.engine.game import IllegalActionError, new_game
from boardgame.engine.position import from_position

from .conftest import _DATA, do, last_round, march_on_harrenhal, outcome_of, pos


def test_illegal_action_error_names_the_action_and_why(gd: GameData) -> None:
    st = new_game(gd, player_count=3, seed=0)
    with pytest.raises(IllegalActionError, match="place_order.*not legal"):
        st.apply(PlaceOrder("stark", "kings_landing", "march"))
    with pytest.raises(ValueError, match="not .*greyjoy's decision"):
        st.apply(PlaceOrder("greyjoy", "pyke", "march"))


def test_every_action_type_round_trips_through_json_and_describes_itself(gd: GameData) -> None:
    st = new_game(gd, player_count=3, seed=0)
    samples = [
        PlaceOrder("stark", "winterfell", "march"),
        MarchMove("stark", ("footman", "knight"), "moat_cailin"),
        EndMarch("stark", True),
        Bid("stark", 3),
        Choose("stark", "retreat", "riverrun"),
        ChooseMarch("stark", "winterfell"),
    ]
    for a in samples:
        assert action_from_json(json.loads(json.dumps(a.to_json()))) == a
        assert a.describe(st) and "Stark" in a.describe(st)
    assert len(ACTION_TYPES) == 15  # W-5.1 take-backs: remove_order (14th) and reopen_orders (15th)
    with pytest.raises(ValueError):
        action_from_json({"type": "teleport"})


def test_views_do_not_depend_on_others_hidden_choices_w_20(gd: GameData) -> None:
    a, b = new_game(gd, player_count=4, seed=2), new_game(gd, player_count=4, seed=2)
    do(a, PlaceOrder("stark", "winterfell", "march_plus_one"))
    do(b, PlaceOrder("stark", "winterfell", "defense_plus_two"))
    for h in ("lannister", "baratheon", "greyjoy", None):
        assert a.player_view(h) == b.player_view(h)
    assert a.player_view("stark") != b.player_view("stark")


def test_spectator_view_hides_decks_seed_and_private_events_w_20_7_w_20_9(gd: GameData) -> None:
    st = new_game(gd, player_count=6, seed=3)
    v = st.player_view(None)
    assert v["wdecks"] == {"1": 10, "2": 10, "3": 10} and v["wildling_deck"] == 9
    assert "rng" not in v and "agenda" not in v
    json.dumps(v)


def test_seven_castles_win_at_once_w_18_1() -> None:
    six = ("lannisport", "riverrun", "harrenhal", "seagard", "the_reach", "crackclaw_point")
    units = {a: ["lannister", "footman"] for a in six}
    units["blackwater"] = ["lannister", "knight"]
    st = pos(player_count=3, units=units, orders={"blackwater": "march"}, start="action", neutral={})
    assert st.castle_count("lannister") == 6 and not st.is_terminal()
    do(st, ChooseMarch("lannister", "blackwater"))
    do(st, MarchMove("lannister", ("knight",), "kings_landing"))
    do(st, EndMarch("lannister", True))
    assert st.is_terminal() and outcome_of(st).winner == "lannister"
    assert outcome_of(st).reason == "seven_castles" and st.current_players() == []
    assert st.legal_actions() == []


def test_after_round_ten_tie_breakers_land_then_supply_w_18_2() -> None:
    st = last_round(
        units={
            "winterfell": ["stark", "footman"],
            "castle_black": ["stark", "footman"],
            "karhold": ["stark", "footman"],
            "lannisport": ["lannister", "footman"],
            "stoney_sept": ["lannister", "footman"],
            "searoad_marches": ["lannister", "footman"],
            "dragonstone": ["baratheon", "footman"],
            "kingswood": ["baratheon", "footman"],
        },
        supply={"stark": 1, "lannister": 2, "baratheon": 2},
    )
    # castles 1/1/1; land areas stark 3, lannister 3, baratheon 2; supply decides: lannister
    assert [st.castle_count(h) for h in ("stark", "lannister", "baratheon")] == [1, 1, 1]
    assert (
        st.is_terminal() and outcome_of(st).winner == "lannister" and outcome_of(st).reason == "round_limit"
    )


def test_tie_breaker_iron_throne_last_w_18_2() -> None:
    st = last_round(
        units={
            "winterfell": ["stark", "footman"],
            "lannisport": ["lannister", "footman"],
            "dragonstone": ["baratheon", "footman"],
        },
        supply={"stark": 2, "lannister": 2, "baratheon": 2},
    )
    assert outcome_of(st).winner == st.tracks["iron_throne"][0]


def test_agents_only_choose_legal_actions(gd: GameData) -> None:
    st = new_game(gd, player_count=4, seed=8)
    for agent in (RandomAgent(Random(1)), GreedyAgent(Random(1))):
        s = st.clone()
        for _ in range(200):
            p = s.current_players()[0]
            a = agent.choose(s, p)
            assert a in s.legal_actions(p)
            s.apply(a)


def test_greedy_supports_its_own_combat() -> None:
    st = march_on_harrenhal({"blackwater": ["lannister", "footman"]})
    assert GreedyAgent(Random(0)).choose(st, "lannister") == DeclareSupport("lannister", "lannister")


def test_simulate_run_reports_games_winners_rounds_speed_and_endings() -> None:
    out = simulate.run(3, 2, 5, ["greedy", "random"])
    assert out["games"] == 2 and sum(out["winners"].values()) == 2
    assert sum(out["endings"].values()) == 2 and 1 <= out["average_rounds"] <= 10
    assert out["decisions_per_second"] > 0


def test_rules_config_holds_the_decisions_w_22() -> None:
    c = RulesConfig()
    assert c.dark_wings_port_income is False and c.nights_watch_wins_ties is True
    assert RulesConfig.from_dict(c.to_dict()) == c
    st = new_game(_DATA, player_count=3, seed=0, config=RulesConfig(three_player_lannister_port_ship=False))
    assert "lannisport_port" not in st.units


def test_dark_wings_port_income_option_w_22_1() -> None:
    st = from_position(
        _DATA,
        {
            "player_count": 3,
            "start": "westeros",
            "round": 2,
            "threat": 0,
            "westeros_top": ["last_days_of_summer", "dark_wings_dark_words", "sea_of_storms"],
            "units": {"lannisport": ["lannister", "footman"], "lannisport_port": ["lannister", "ship"]},
            "power": {"lannister": 0},
        },
        RulesConfig(dark_wings_port_income=True),
    )
    do(st, Choose(st.holder("kings_court"), "dark_wings", "collect_power"))
    assert st.power["lannister"] == 1


def test_new_game_rejects_bad_player_counts(gd: GameData) -> None:
    with pytest.raises(ValueError, match="3-6"):
        new_game(gd, player_count=7)
    with pytest.raises(ValueError, match="legal"):
        new_game(gd, houses=["stark", "martell", "tyrell"])


def test_position_rejects_unknown_areas_and_bad_orders() -> None:
    with pytest.raises(ValueError, match="unknown area"):
        pos(units={"atlantis": ["stark", "footman"]})
    with pytest.raises(ValueError, match="order"):
        pos(units={}, orders={"winterfell": "march"})
    with pytest.raises(ValueError, match="wildling_top"):
        pos(wildling_top=["crow_killers", "crow_killers"])
    with pytest.raises(ValueError, match="wildling_top"):
        pos(wildling_top=["the_night_king"])


def test_log_view_shows_private_events_only_to_their_addressee_w_20(gd: GameData) -> None:
    st = new_game(gd, player_count=3, seed=0)
    do(st, PlaceOrder("stark", "winterfell", "march_plus_one"))
    start = len(st.log) - 2
    assert any("March +1" in e["text"] for e in st.log_view("stark", start))
    assert not any("March +1" in e["text"] for e in st.log_view("lannister", start))
    assert not any("March +1" in e["text"] for e in st.log_view(None))
