"""Invariant suite (docs/style.md §14): seeded random games at 3-6 players.

Size from env WESTEROS_GAMES (default 8 per player count). Checks, at every step: someone must act
and has a legal action, no area mixes houses (W-1.5), armies within supply (W-12.3) except while a
house is destroying units to comply, ports hold at most 3 ships (W-10.4), land units only on land,
the game ends by round 10 (W-3.1), views leak nothing hidden (W-20), to_dict/from_dict and clone
round-trip, and replay reproduces the game.
"""

from __future__ import annotations

import json
import os
from random import Random
from typing import Any

import pytest

from boardgame.engine.actions import action_from_json
from boardgame.engine.agents import GreedyAgent, RandomAgent
from boardgame.engine.data import LAND_UNITS, load_default_game_data
from boardgame.engine.game import WesterosState, new_game, replay

from .conftest import check_secret_choice_hidden

DATA = load_default_game_data()
GAMES = int(os.environ.get("WESTEROS_GAMES", "8"))
FIXING_SUPPLY = {"reconcile", "retreat_loss"}


def check_board(st: WesterosState) -> None:
    data = st.data
    for area, u in st.units.items():
        assert u.house in st.houses
        assert u.units or u.routed, f"empty unit entry in {area}"
        kind = data.kind(area)
        for x in u.units + u.routed:
            assert (x in LAND_UNITS) == (kind == "land"), f"{x} in {kind} area {area}"
        if kind == "port":
            assert len(u.units) + len(u.routed) <= 3, f"port {area} over 3 ships"
        assert area not in st.impassable
        assert area not in st.neutral
    fixing = st.pending is not None and st.pending.decision in FIXING_SUPPLY
    if not fixing:
        for h in st.houses:
            assert st.supply_ok(h), f"{h} breaks supply at {st.step}"
    for h in st.houses:
        for t in ("footman", "knight", "siege_engine", "ship"):
            assert st.available_units(h, t) >= 0
        assert 0 <= st.power[h] and st.power[h] + st.board_tokens(h) <= 20
        in_play = [
            c for c in (st.combat.cards if st.combat else {}).values() if c in st.data.cards_by_house[h]
        ]
        assert len(st.hands[h]) + len(st.discards[h]) + len(in_play) == 7, f"{h} lost a house card"
    assert 0 <= st.threat <= 12 and st.threat % 2 == 0  # W-1.10: one space = 2
    check_rules(st)


def check_rules(st: WesterosState) -> None:
    """Rule invariants of the audit (docs/westeros-rules-coverage.md)."""
    data = st.data
    for area, h in st.tokens.items():  # W-8.2: only on land, never the own home area
        assert data.kind(area) == "land" and data.areas[area].get("home_house") != h, (area, h)
        assert st.owner(area) in (None, h), f"{h}'s power token under enemy units in {area}"
    for area in st.garrisons:  # W-2.4 / W-11.2: garrisons only on home areas of houses in play
        assert data.areas[area].get("home_house") in st.houses
    kind = st.pending.kind if st.pending is not None else None
    if kind in ("raven", "raid"):  # before any combat can move King's Court (Doran)
        for h in st.houses:  # W-5.2, also after a Raven swap
            placed = [t for oh, t in st.orders.values() if oh == h]
            assert sum(1 for t in placed if data.tokens[t]["special"]) <= st.star_limit(h), h
    if kind in ("raid", "march_select", "consolidate"):
        for area, (h, _t) in st.orders.items():  # W-6.4: no order without its owner's units
            assert st.owner(area) == h, f"orphan order of {h} in {area}"
        for port, u in st.units.items():  # W-10.6: ports belong to the controller of their land
            if data.kind(port) == "port":
                assert st.control(data.areas[port]["land_area"]) == u.house, port
    if kind == "orders":
        assert not any(u.routed for u in st.units.values()), "routed units survived clean-up (W-6.3)"
        assert not any(t in st.bans for _h, t in st.orders.values()), "a banned order was placed (W-5.3)"


def check_view(st: WesterosState) -> None:
    text_spec = json.dumps(st.player_view(None))
    assert "rng" not in st.player_view(None)
    for h in st.houses:
        v = st.player_view(h)
        assert isinstance(v["wdecks"]["1"], int) and isinstance(v["wildling_deck"], int)
        if not st.orders_revealed:
            for area, (owner, tok) in v["orders"].items():
                assert (tok is None) == (owner != h), f"{h} sees {owner}'s order in {area}"
        p = v["pending"]
        if p:
            for key in ("bids", "chosen"):
                for other, val in p.get(key, {}).items():
                    assert other == h or val is None
        for e in v["log"]:
            assert "to" not in e or h in e["to"]
        json.dumps(v)
    assert '"to":' not in text_spec


def play_random(n: int, seed: int, greedy: bool = False) -> tuple[WesterosState, list[Any]]:
    st = new_game(DATA, player_count=n, seed=seed)
    rng = Random(seed)
    agent = GreedyAgent(rng) if greedy else RandomAgent(rng)
    actions = []
    steps = 0
    while not st.is_terminal():
        players = st.current_players()
        assert players, f"nobody to act at {st.phase}/{st.step}"
        p = rng.choice(players)
        legal = st.legal_actions(p)
        assert legal, f"{p} has no legal action at {st.pending}"
        if steps % 11 == 0:
            check_secret_choice_hidden(st, p)
        a = agent.choose(st, p)
        assert a in legal
        st.apply(a)
        actions.append(a)
        assert st.round <= 10
        check_board(st)
        if steps % 50 == 0:
            check_view(st)
        steps += 1
        assert steps < 20000
    return st, actions


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_keep_every_invariant_w_3_1_w_12_3_w_10_4(players: int) -> None:
    for g in range(GAMES):
        st, actions = play_random(players, 1000 * players + g, greedy=g % 2 == 1)
        out = st.outcome()
        assert out is not None and out.winner in st.houses
        assert st.round <= 10
        if out.reason == "round_limit":
            assert st.round == 10
        else:
            assert out.castles[out.winner] >= 7


@pytest.mark.parametrize("players", [3, 6])
def test_serialisation_clone_and_replay_reproduce_the_game(players: int) -> None:
    st, actions = play_random(players, 77 + players)
    again = replay(st.data, 77 + players, actions, player_count=players)
    assert again.to_dict() == st.to_dict()
    # JSON round trip of the whole state and of every action
    d = json.loads(json.dumps(st.to_dict()))
    assert WesterosState.from_dict(d).to_dict() == st.to_dict()
    assert [action_from_json(json.loads(json.dumps(a.to_json()))) for a in actions] == actions


def test_mid_game_from_dict_and_clone_continue_identically() -> None:
    from boardgame.engine.data import load_default_game_data

    data = load_default_game_data()
    st = new_game(data, player_count=5, seed=3)
    rng = Random(3)
    for _ in range(300):
        st.apply(rng.choice(st.legal_actions(st.current_players()[0])))
    copy1 = st.clone()
    copy2 = WesterosState.from_dict(json.loads(json.dumps(st.to_dict())))
    r1, r2, r3 = Random(9), Random(9), Random(9)
    for _ in range(300):
        if st.is_terminal():
            break
        a = r1.choice(st.legal_actions(st.current_players()[0]))
        assert a == r2.choice(copy1.legal_actions(copy1.current_players()[0]))
        assert a == r3.choice(copy2.legal_actions(copy2.current_players()[0]))
        st.apply(a)
        copy1.apply(a)
        copy2.apply(a)
    assert st.to_dict() == copy1.to_dict() == copy2.to_dict()
