"""Invariant suite (docs/style.md §14): seeded random playouts over every sample faction.

Size from ENGINE_GAMES (default 150; set thousands on demand). Checks: no exception, a non-terminal
state always offers its current player a real action, every match ends, one unit per square, no counter
below zero, cards are conserved, to_dict/from_dict and replay reproduce the state, and player views
never contain the opponent's hand, either deck order or an unrevealed Commander (C-8).
"""

from __future__ import annotations

import json
import os
from random import Random
from typing import Any

import pytest

from matches.engine import GameState, RulesConfig, new_match, replay
from matches.engine.actions import Concede
from matches.engine.agents import Agent, GreedyAgent, RandomAgent
from matches.engine.decks import default_decks
from matches.engine.tests.helpers import result
from matches.engine.tests.pool import pool_file

GAMES = int(os.environ.get("ENGINE_GAMES", "150"))


def _decks() -> list[dict[str, Any]]:
    decks = default_decks()
    return list(decks.values()) if decks else []


DECKS = _decks()


def _ids(x: Any, out: set[int]) -> set[int]:
    if isinstance(x, dict):
        if isinstance(x.get("id"), int):
            out.add(x["id"])
        for k, v in x.items():
            assert k != "deck", "a view never lists a deck"
            _ids(v, out)
    elif isinstance(x, list):
        for v in x:
            _ids(v, out)
    return out


def check_views(g: GameState) -> None:
    for viewer in (0, 1, None):
        view = g.player_view(viewer)
        text = json.dumps(view)
        assert "rng" not in view and '"deck":' not in text
        for p in (0, 1):
            side = g.sides[p]
            if viewer != p:
                assert "hand" not in view["players"][p]
                seen = _ids(view, set())
                hidden = set(side.hand) | set(side.deck)
                if side.commander is not None and not side.revealed:
                    hidden.add(side.commander)
                assert not (seen & hidden), f"view for {viewer} leaks cards of player {p}"
        log = g.log_view(viewer)
        for p in (0, 1):
            if viewer == p:
                continue
            side = g.sides[p]
            once_public = {
                ev["card"]["id"]
                for e in log
                for ev in e["events"]
                if ev["type"] == "return_to_hand" and isinstance(ev.get("card"), dict)
            }
            seen = _ids(log, set())
            assert not (seen & set(side.deck)), "log leaks deck cards"
            assert not ((seen - once_public) & set(side.hand)), "log leaks hand cards"


def check_state(g: GameState, totals: list[int]) -> None:
    squares = [u.sq for u in g.units.values()]
    assert len(squares) == len(set(squares))
    for uid, u in g.units.items():
        assert g.board[u.sq] == uid and u.damage >= 0
    assert sum(1 for c in g.board if c is not None) == len(g.units)
    for p, side in enumerate(g.sides):
        assert side.cp >= 0
        n = sum(len(side.zone(z)) for z in ("hand", "deck", "energy", "retired", "defeated", "removed"))
        n += (side.commander is not None) + sum(1 for u in g.units.values() if u.owner == p)
        n += sum(1 for u in g.units.values() for e in u.attached if g.owners[e] == p)
        n += sum(1 for c in g.limbo if g.owners[c] == p)
        assert n == totals[p], f"player {p} has {n} cards, expected {totals[p]}"
    if not g.is_terminal():
        p = g.current_players()[0]
        real = [a for a in g.legal_actions(p) if not isinstance(a, Concede)]
        assert real, f"no legal action for player {p} in step {g.step}"
    else:
        assert g.outcome() is not None and g.legal_actions(0) == []


def play_checked(
    decks: list[dict[str, Any]], seed: int, *, deep: bool, config: RulesConfig | None = None
) -> GameState:
    g = new_match(decks[0], decks[1], seed=seed, config=config)
    totals = [len(decks[0]["cards"]), len(decks[1]["cards"])]
    agents: list[Agent] = (
        [RandomAgent(Random(seed * 2 + 1)), RandomAgent(Random(seed * 2 + 2))]
        if seed % 3
        else [GreedyAgent(Random(seed)), RandomAgent(Random(seed + 1))]
    )
    actions = []
    steps = 0
    while not g.is_terminal():
        check_state(g, totals)
        p = g.current_players()[0]
        a = agents[p].choose(g, p)
        assert a in g.legal_actions(p)
        g.apply_unchecked(a)
        actions.append(a)
        steps += 1
        assert steps < 5000, "match did not terminate"
        if deep and steps % 37 == 0:
            d = g.to_dict()
            assert GameState.from_dict(json.loads(json.dumps(d))).to_dict() == d
            check_views(g)
    check_state(g, totals)
    if deep:
        d = g.to_dict()
        assert GameState.from_dict(json.loads(json.dumps(d))).to_dict() == d
        assert replay(decks, seed, [a.to_json() for a in actions], config).to_dict() == d
        check_views(g)
    return g


@pytest.mark.skipif(not DECKS, reason="no sample card set")
def test_random_playouts_keep_every_invariant_c_6_3() -> None:
    n = len(DECKS)
    turns = []
    for i in range(GAMES):
        decks = [DECKS[i % n], DECKS[(i // n + i + 1) % n]]
        g = play_checked(decks, seed=i, deep=(i % 10 == 0))
        turns.append(g.turn)
        assert g.turn <= 2 * g.config.turn_limit
    assert len(turns) == GAMES


def test_pool_playouts_keep_every_invariant_c_6_3() -> None:
    from matches.engine import build_deck, load_card_file

    cat = load_card_file(pool_file())
    decks = [build_deck(cat, "ember"), build_deck(cat, "tide")]
    for i in range(max(6, GAMES // 20)):
        play_checked(decks if i % 2 else decks[::-1], seed=1000 + i, deep=True)


def test_turn_limit_ends_a_stalled_match_c_6_5() -> None:
    from matches.engine import RulesConfig, build_deck, load_card_file
    from matches.engine.actions import Pass

    cat = load_card_file(pool_file())
    decks = [build_deck(cat, "ember"), build_deck(cat, "tide")]
    g = new_match(decks[0], decks[1], seed=4, config=RulesConfig(turn_limit=3))
    rng = Random(4)
    while not g.is_terminal():
        p = g.current_players()[0]
        acts = [a for a in g.legal_actions(p) if not isinstance(a, Concede)]
        # deploy when needed, otherwise pass: nobody attacks, the turn limit must end it
        deploys = [a for a in acts if type(a).__name__ == "Deploy"]
        if deploys and not any(u.owner == p for u in g.units.values()):
            g.apply(deploys[0])
        elif Pass(p) in acts:
            g.apply(Pass(p))
        else:
            g.apply(acts[rng.randrange(len(acts))])
    assert g.outcome() is not None and result(g).reason.value in ("turn_limit", "six_defeated", "no_units")
    assert g.turn <= 6


@pytest.mark.parametrize(
    "config",
    [
        RulesConfig(strike_back=True, only_enemy_targets=False),
        RulesConfig(adjacency="king", range_attack_blocked=True, rotate_second_player_arrows=False),
        RulesConfig(
            turn_limit=5, hand_limit_active_only=False, marking_stacks=False, ongoing_attach_any_unit=False
        ),
        RulesConfig(
            no_unit_loss_active_only=False,
            active_player_triggers_first=False,
            spoil_from_departed_source=False,
            start_squares_when_battlefield_empty=False,
            cp_reset_active_only=True,
        ),
    ],
)
def test_alternative_rules_configs_keep_every_invariant(config: RulesConfig) -> None:
    if not DECKS:
        pytest.skip("no sample card set")
    n = len(DECKS)
    for i in range(max(4, GAMES // 30)):
        play_checked([DECKS[i % n], DECKS[(i + 1) % n]], seed=500 + i, deep=(i == 0), config=config)
