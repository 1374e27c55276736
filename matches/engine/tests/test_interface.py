"""The engine interface (docs/style.md §2–§5, §7): actions JSON, describe, checked apply, views, positions, replay."""

from __future__ import annotations

import json
from dataclasses import fields
from random import Random

import pytest

from matches.engine import (
    GameState,
    IllegalActionError,
    RulesConfig,
    action_from_json,
    build_deck,
    continuous,
    load_card_file,
    new_match,
    replay,
)
from matches.engine.actions import (
    ACTION_TYPES,
    Activate,
    Attack,
    ChooseCard,
    ChooseCommander,
    ChooseSquare,
    ChooseTarget,
    ChooseTrigger,
    Concede,
    Deploy,
    Keep,
    Move,
    Mulligan,
    Pass,
    PlayEvent,
    Reinforce,
    square_index,
    square_name,
)
from matches.engine.agents import RandomAgent
from matches.engine.tests.helpers import DUMMIES, at, position, side, unit
from matches.engine.tests.pool import pool_file

CAT = load_card_file(pool_file())
DECKS = [build_deck(CAT, "ember"), build_deck(CAT, "tide")]


def test_squares_are_a1_to_f6_c_2_1() -> None:
    assert square_name(0) == "a1" and square_name(35) == "f6" and square_index("c3") == 14
    with pytest.raises(ValueError):
        square_index("g1")


@pytest.mark.parametrize(
    "action",
    [
        ChooseCommander(0, "Ember Queen"),
        ChooseCommander(1, None),
        Keep(0),
        Mulligan(1),
        ChooseCard(0, 5),
        Deploy(0, 3, 14),
        PlayEvent(1, 4, None),
        PlayEvent(0, 4, 9),
        Move(0, 3, 20),
        Reinforce(1),
        Activate(0, 3, 1),
        Attack(1, 2, "NE", 7),
        ChooseTarget(0, 7),
        ChooseSquare(1, 35),
        ChooseTrigger(0, 1),
        Pass(1),
        Concede(0),
    ],
)
def test_action_json_round_trip(action: object) -> None:
    data = action.to_json()  # type: ignore[attr-defined]
    assert json.loads(json.dumps(data)) == data and action_from_json(data) == action
    assert set(ACTION_TYPES) >= {data["type"]}


def test_bad_action_json_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown action type"):
        action_from_json({"type": "fly", "player": 0})
    with pytest.raises(ValueError, match="missing field 'square'"):
        action_from_json({"type": "deploy", "player": 0, "card": 1})
    with pytest.raises(ValueError, match="not a square"):
        action_from_json({"type": "move", "player": 0, "unit": 1, "square": "z9"})


def test_describe_reads_like_a_person() -> None:
    g = position(
        board=[unit("c3", "Ember Scout", 0), unit("c4", "Dummy", 1)], p0=side(cp=2, hand=["Ember Archer"])
    )
    archer = g.sides[0].hand[0]
    assert Deploy(0, archer, square_index("d3")).describe(g) == "Deploy Ember Archer to d3"
    assert Attack(0, at(g, "c3"), "N", at(g, "c4")).describe(g) == "Ember Scout attacks Dummy (N)"


def test_checked_apply_names_the_action_and_the_reason() -> None:
    g = position(board=[unit("c3", "Ember Scout", 0)], p0=side(cp=0, hand=["Ember Archer"]))
    with pytest.raises(IllegalActionError, match=r"Deploy Ember Archer to d3.*needs 2 CP"):
        g.apply(Deploy(0, g.sides[0].hand[0], square_index("d3")))
    with pytest.raises(IllegalActionError, match="not to act now"):
        g.apply(Pass(1))
    assert issubclass(IllegalActionError, ValueError)


def test_position_round_trip_and_hand_written_shorthand() -> None:
    g = position(board=[unit("c3", "Ember Scout", 0, damage=1000)], p0=side(cp=2, hand=["Fireball"]))
    d = g.to_dict()
    assert d["format"] == "commandeer-position" and d["board"][0]["square"] == "c3"
    assert GameState.from_dict(json.loads(json.dumps(d))).to_dict() == d
    with pytest.raises(ValueError, match="unknown card"):
        GameState.from_dict({"format": "commandeer-position", "players": [{"hand": ["Nope"]}, {}]})


def test_the_card_catalog_is_built_once_and_handed_back_as_loaded() -> None:
    """`to_dict`'s ``cards`` never changes in a match: one mapping for a state and its clones, equal to a
    fresh build; a state loaded from a position returns that position's own ``cards`` when equal."""
    g = new_match(DECKS[0], DECKS[1], seed=4)
    d = g.to_dict()
    c = g.clone()
    c.apply(c.legal_actions(c.current_players()[0])[0])
    assert c.to_dict()["cards"] is d["cards"] and g.to_dict()["cards"] is d["cards"]
    expected = {x.name: dict(x.raw) for x in g.defs.values()}
    assert d["cards"] == expected and list(d["cards"]) == sorted(expected)
    loaded_from = json.loads(json.dumps(d))
    again = GameState.from_dict(loaded_from)
    assert again.to_dict()["cards"] is loaded_from["cards"]
    assert again.clone().to_dict() == again.to_dict() == d
    extra = {
        **loaded_from,
        "cards": {**loaded_from["cards"], "Spare": {**next(iter(expected.values())), "name": "Spare"}},
    }
    trimmed = GameState.from_dict(extra).to_dict()["cards"]  # a card nobody holds is not written back
    assert trimmed == expected and trimmed is not extra["cards"]


def test_replay_reproduces_the_final_state_exactly() -> None:
    g = new_match(DECKS[0], DECKS[1], seed=11)
    agents = [RandomAgent(Random(1)), RandomAgent(Random(2))]
    actions = []
    while not g.is_terminal():
        p = g.current_players()[0]
        a = agents[p].choose(g, p)
        g.apply(a)
        actions.append(a.to_json())
    assert replay(DECKS, 11, actions).to_dict() == g.to_dict()


def test_views_hide_hands_decks_commander_and_rng_c_8() -> None:
    g = new_match({**DECKS[0], "commander": "Ember Queen"}, DECKS[1], seed=3)
    g.apply(ChooseCommander(1, None))
    v1 = g.player_view(1)
    spectator = g.player_view(None)
    assert "hand" in v1["players"][1] and "hand" not in v1["players"][0]
    assert v1["players"][0]["commander"] == {"face_down": True}
    assert all("hand" not in p for p in spectator["players"])
    text = json.dumps(v1) + json.dumps(g.log_view(1))
    assert "rng" not in v1
    for c in g.sides[0].hand + g.sides[0].deck + [g.sides[0].commander]:
        assert f'"id": {c},' not in text and f'"id": {c}}}' not in text
    assert v1["players"][0]["hand_count"] == 6 and v1["players"][0]["deck_count"] == 43


def test_log_shows_drawn_cards_only_to_their_owner() -> None:
    g = position(board=[unit("c3", "Dummy", 0)], p0=side(cp=1, deck=["Inferno", "Fireball", "Ember Scout"]))
    g.apply(Reinforce(0))
    own = [ev for e in g.log_view(0) for ev in e["events"] if ev["type"] == "draw"]
    other = [ev for e in g.log_view(1) for ev in e["events"] if ev["type"] == "draw"]
    assert [c["card"] for c in own[0]["cards"]] == ["Inferno", "Fireball"]  # deck is listed top first
    assert other[0] == {"type": "draw", "player": 0, "count": 2}


def test_rules_config_holds_every_decision_with_documented_defaults() -> None:
    c = RulesConfig()
    assert (c.rotate_second_player_arrows, c.adjacency, c.only_enemy_targets, c.strike_back) == (
        True,
        "orthogonal",
        True,
        False,
    )  # C-1.2, C-2.5, C-5.6
    assert (c.range_attack_blocked, c.turn_limit, c.edge_penalty_per_line) == (
        False,
        30,
        3000,
    )  # C-7.1, C-6.5, C-2.3
    assert c.reinforce_needs_card_in_deck and c.reinforce_draw == 2  # C-5.2
    assert c.edge_penalties()[0] == 6000 and c.edge_penalties()[1] == 3000 and c.edge_penalties()[14] == 0
    assert sum(1 for x in c.edge_penalties() if x) == 20
    assert RulesConfig.from_dict(c.to_dict()) == c
    with pytest.raises(ValueError, match="unknown rules config"):
        RulesConfig.from_dict({"turn_limt": 3})
    assert {f.name for f in fields(RulesConfig)} >= {"board_layout", "hand_limit", "max_mulligans"}


def test_strike_back_and_friendly_targets_are_config_switches_c_5_6() -> None:
    cfg = {"strike_back": True, "only_enemy_targets": False}
    g = position(
        board=[unit("c3", "Ember Scout", 0), unit("c4", "Ember Scout", 1), unit("d4", "Dummy", 0)],
        step="combat",
        config=cfg,
    )
    me = at(g, "c3")
    assert {a.target for a in g.legal_actions(0) if isinstance(a, Attack) and a.unit == me} == {
        at(g, "c4"),
        at(g, "d4"),
    }
    g.apply(Attack(0, me, "N", at(g, "c4")))
    assert g.units[me].damage == 2000  # the surviving target struck back


def test_custom_board_layout_is_data_c_2_3() -> None:
    layout = [0] * 36
    layout[14] = 5000
    g = position(board=[unit("c3", "Dummy", 0)], config={"board_layout": layout})
    assert continuous.stats(g, at(g, "c3"))[1] == 4000


def test_the_documented_example_position_loads_and_plays() -> None:
    import re
    from pathlib import Path

    from matches.engine.tests.helpers import catalog

    doc = (Path(__file__).resolve().parents[3] / "docs" / "commandeer-position.md").read_text()
    example = json.loads(re.findall(r"```json\n(\{\n.*?)\n```", doc, re.S)[0])
    g = GameState.from_dict(example, catalog=catalog())
    assert g.sides[0].cp == 3 and g.card_name(g.sides[0].deck[-1]) == "Ember Scout"
    assert g.units[at(g, "c3")].damage == 1000
    fireball = g.sides[0].hand[0]
    g.apply(PlayEvent(0, fireball, None))  # one enemy: the target is forced, the one Energy card pays
    assert g.units[at(g, "c4")].damage == 2000 and g.sides[0].cp == 2


def test_commander_is_deployed_from_the_commander_zone_c_4_5() -> None:
    g = position(
        board=[unit("c3", "Dummy", 0)],
        p0={"cp": 3, "commander": "Ember Queen", "commander_revealed": True, "energy": ["Dummy"]},
    )
    queen = g.sides[0].commander
    assert queen is not None and Deploy(0, queen, square_index("c4")) in g.legal_actions(0)
    g.apply(Deploy(0, queen, square_index("c4")))
    assert queen in g.units and g.sides[0].commander is None
    assert continuous.stats(g, at(g, "c3"))[1] == 10000  # Ember Queen's static +1000 Health to the others


def test_nonsense_actions_are_illegal_not_crashes() -> None:
    g = position(board=[unit("c3", "Dummy", 0)], p0=side(cp=3))
    for bad in (Deploy(0, 9999, 14), Move(0, 9999, 15), Attack(0, 1, "N", 2), ChooseTarget(0, 3), Concede(7)):
        with pytest.raises(IllegalActionError):
            g.apply(bad)
    with pytest.raises(IllegalActionError):
        g.apply("pass")  # type: ignore[arg-type]


def test_engine_is_pure_python_without_django() -> None:
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    code = (
        "import sys; import matches.engine, matches.engine.agents, matches.engine.simulate; "
        "bad = [m for m in sys.modules if m.startswith('django')]; print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_second_copy_of_a_playable_card_gets_no_reason_c_5_2() -> None:
    """Copies are interchangeable: legal_actions deploys the first copy only, and the second is no less
    playable (never "c2 is not adjacent to a unit" while c2 is a legal square)."""
    g = position(board=[unit("c3", "Ember Scout", 0)], p0=side(cp=3, hand=["Ember Scout", "Ember Scout"]))
    first, second = g.sides[0].hand
    assert any(getattr(a, "card", None) == first for a in g.legal_actions(0))
    assert not any(getattr(a, "card", None) == second for a in g.legal_actions(0))
    assert g.unplayable_cards(0) == {}


def test_a_unit_whose_ability_can_be_activated_does_not_excuse_its_copy_in_hand_c_5_2() -> None:
    """An Activate names the card on the battlefield: a copy of it in hand that costs more CP than the
    player has still says why it cannot be deployed."""
    miner = {**DUMMIES[0], "name": "Miner", "command_cost": 2, "rules_text": "Pay 1 CP: gain 2 Energy."}
    miner["abilities"] = [
        {
            "trigger": "planning_activated",
            "cost": {"cp": 1},
            "effects": [{"effect": "gain_energy", "target": "controller", "count": 2}],
        }
    ]
    g = position(
        board=[unit("c3", "Miner", 0)],
        p0=side(cp=1, hand=["Miner"], deck=["Dummy"] * 10),
        extra_cards=[miner],
    )
    (in_hand,) = g.sides[0].hand
    on_board = next(iter(g.units))
    assert any(isinstance(a, Activate) and a.card == on_board for a in g.legal_actions(0))
    assert g.unplayable_cards(0) == {in_hand: "Miner needs 2 CP and you have 1 (C-5.2)"}


def test_unplayable_cards_name_the_rule_that_stops_each_card_c_5_2() -> None:
    """A hand hint in the engine's own words: a card some legal action plays never gets a reason, every
    other card of the hand does while cards are played (C-5.2 Planning, C-5.5 Defending)."""
    g = position(board=[unit("c3", "Ember Scout", 0)], p0=side(cp=1, hand=["Ember Archer", "Ember Scout"]))
    reasons = g.unplayable_cards(0)
    archer, scout = g.sides[0].hand
    assert reasons == {archer: "Ember Archer needs 2 CP and you have 1 (C-5.2)"}
    assert any(getattr(a, "card", None) == scout for a in g.legal_actions(0))
    assert g.unplayable_cards(1) == {}  # not to act: no hint
    checked = 0
    for seed in range(3):
        g = new_match(DECKS[0], DECKS[1], seed=seed)
        agents = [RandomAgent(Random(seed)), RandomAgent(Random(seed + 7))]
        while not g.is_terminal():
            p = g.current_players()[0]
            reasons = g.unplayable_cards(p)
            playable = {a.card for a in g.legal_actions(p) if isinstance(a, (Deploy, PlayEvent))}
            names = {g.defs[c].name for c in playable if c in g.defs}
            assert not {g.defs[c].name for c in reasons} & names  # a copy of a playable card is playable
            if g.step.value in ("planning", "defending") and g.decision is None:
                cards = set(g.sides[p].hand) | ({g.sides[p].commander} - {None})
                assert set(reasons) == {c for c in cards if c is not None and g.defs[c].name not in names}
                checked += len(reasons)
            g.apply(agents[p].choose(g, p))
    assert checked > 0
