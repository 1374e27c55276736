"""One conformance suite for both engines (docs/style.md 2 and 14): the game interface of
``matches.interface``.

Seeded random playouts of Commandeer and of Westeros (3-6 houses); at sampled states every member of the
``Game`` protocol is checked against the others: legal actions, checked and unchecked apply, clone,
to_dict/from_dict, outcome, timeout defaults, secret actions, explanations of illegal actions, and
``determinize`` (the player's own view is unchanged, hidden parts do vary, the result plays on).

Size from ``CONFORMANCE_GAMES`` (games per case, default 2) and ``CONFORMANCE_EVERY`` (check every n-th
state; by default 7 for Commandeer and 20 for Westeros, whose games are ten times longer and whose checks
cost more); set them on demand, e.g. ``CONFORMANCE_GAMES=10 CONFORMANCE_EVERY=3`` for a long run.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import Any, cast

import pytest

from boardgame.engine import WesterosState, load_default_game_data, new_game
from matches.engine import GameState, new_match
from matches.engine.decks import default_decks
from matches.interface import Game

GAMES = int(os.environ.get("CONFORMANCE_GAMES", "2"))
EVERY = int(os.environ["CONFORMANCE_EVERY"]) if os.environ.get("CONFORMANCE_EVERY") else None
MAX_STEPS = 4000  # every game of either engine ends well before this (C-6.5 turn limit, W-3.1 ten rounds)


@dataclass(frozen=True)
class Case:
    name: str
    new: Callable[[int], Any]
    load: Callable[[dict[str, Any]], Any]
    every: int  # check every n-th state unless CONFORMANCE_EVERY says otherwise


def _commandeer(seed: int) -> GameState:
    decks = list(default_decks().values())
    first, second = decks[seed % len(decks)], decks[(seed + 1) % len(decks)]
    return new_match(first, second, seed=seed)


_DATA = load_default_game_data()


def _westeros(players: int) -> Callable[[int], WesterosState]:
    return lambda seed: new_game(_DATA, player_count=players, seed=seed)


CASES = [
    Case("commandeer", _commandeer, GameState.from_dict, every=7),
    *(Case(f"westeros-{n}", _westeros(n), WesterosState.from_dict, every=20) for n in (3, 4, 6)),
]


def _typed(state: Any) -> Game[Any, Any]:
    """Where mypy checks that both engines' states are `Game`s (this function is type-checked)."""
    return cast("Game[Any, Any]", state)


def _commandeer_is_a_game(state: GameState) -> Game[int, Any]:
    return state


def _westeros_is_a_game(state: WesterosState) -> Game[str, Any]:
    return state


def _dump(state: Any) -> str:
    return json.dumps(state.to_dict(), sort_keys=True, default=str)


def _dump_without_rng(state: Any) -> str:
    """The snapshot less the RNG state: what ``determinize`` must vary besides reseeding."""
    data = {k: v for k, v in state.to_dict().items() if k not in ("rng", "seed_hidden")}
    return json.dumps(data, sort_keys=True, default=str)


def _check_state(case: Case, g: Game[Any, Any], rng: Random, stats: dict[str, int]) -> None:
    players = list(g.players())
    current = g.current_players()
    assert set(current) <= set(players), f"current players {current} are not seats {players}"
    before = _dump(g)

    # to_dict / from_dict round-trip; clone is independent and equal; the decision step survives both
    loaded = case.load(g.to_dict())
    assert _dump(loaded) == before
    step = g.decision_step()
    assert (
        hash(step) == hash(loaded.decision_step())
        and step == loaded.decision_step() == g.clone().decision_step()
    )
    copy = g.clone()
    assert _dump(copy) == before

    if g.is_terminal():
        out = g.outcome()
        assert out is not None and (out.winner is None or out.winner in players)
        assert all(g.legal_actions(p) == [] for p in players) or current == []
        return
    assert g.outcome() is None
    assert current, "a running game has someone to act"
    assert any(g.legal_actions(p) for p in current), "a current player has a legal action"

    for p in current:
        legal = g.legal_actions(p)
        if not legal:
            continue
        # the timeout default is one of the legal actions
        assert g.timeout_action(p) in legal
        for a in legal:
            stats["secret"] += bool(g.secret_action(a))
        # checked and unchecked apply agree
        a = rng.choice(legal)
        checked, unchecked = g.clone(), g.clone()
        checked.apply(a)
        unchecked.apply_unchecked(a)
        assert _dump(checked) == _dump(unchecked)
        # an action that was legal here and is no longer legal afterwards is refused and explained
        if not any(a in checked.legal_actions(q) for q in checked.players()):
            with pytest.raises(ValueError):
                checked.clone().apply(a)
            reason = checked.explain_illegal(a)
            assert isinstance(reason, str) and reason.strip()
            stats["explained"] += 1

        # determinize: own view unchanged, own options unchanged, hidden parts resampled, still playable
        view = g.player_view(p)
        plain = _dump_without_rng(g)
        variants = set()
        for k in range(3):
            d = g.determinize(p, Random(rng.random()))
            assert d.player_view(p) == view, f"{case.name}: determinize changed what {p} sees"
            assert d.legal_actions(p) == legal
            variants.add(_dump_without_rng(d))
            walk = d.clone()
            for _ in range(3 + k):
                if walk.is_terminal():
                    break
                movers = [q for q in walk.current_players() if walk.legal_actions(q)]
                walk.apply(rng.choice(walk.legal_actions(rng.choice(movers))))
        stats["determinized"] += 1
        stats["varied"] += len(variants - {plain}) > 0
    assert _dump(g) == before, "checking a state must not change it"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_engine_conforms_to_the_game_interface_on_random_playouts(case: Case) -> None:
    stats = {"secret": 0, "explained": 0, "determinized": 0, "varied": 0}
    every = EVERY or case.every
    for game in range(GAMES):
        seed = 1000 + game
        rng = Random(seed)
        g = _typed(case.new(seed))
        for step in range(MAX_STEPS):
            if step % every == 0 or g.is_terminal():
                _check_state(case, g, rng, stats)
            if g.is_terminal():
                break
            movers = [p for p in g.current_players() if g.legal_actions(p)]
            player = rng.choice(movers)
            g.apply(rng.choice(g.legal_actions(player)))
        else:
            pytest.fail(f"{case.name} seed {seed} did not end in {MAX_STEPS} actions")
    assert stats["determinized"] > 0
    assert stats["varied"] > 0, "determinize never resampled a hidden part"
    assert stats["secret"] > 0, "no action was ever secret (orders, bids, commander, mulligan bottom)"
    assert stats["explained"] > 0, "no stale action was explained"
