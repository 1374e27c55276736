"""The game interface's conformance suite (``matches.kit.conformance``) on every engine: Commandeer and
Westeros at 3, 4 and 6 houses, seeded random playouts (docs/style.md 2 and 14).

One size knob: ``CONFORMANCE_GAMES`` (games per engine, default 2), e.g. ``CONFORMANCE_GAMES=10`` for a
long run.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest

from boardgame.engine import WesterosState, load_default_game_data, new_game
from boardgame.engine.actions import Action as WesterosAction
from boardgame.engine.actions import action_from_json as westeros_action
from matches.engine import GameState, new_match
from matches.engine.actions import Action as CommandeerAction
from matches.engine.actions import Concede
from matches.engine.actions import action_from_json as commandeer_action
from matches.engine.decks import default_decks
from matches.interface import Game
from matches.kit.conformance import EngineCase, run

GAMES = int(os.environ.get("CONFORMANCE_GAMES", "2"))


def _commandeer(seed: int) -> GameState:
    decks = list(default_decks().values())
    return new_match(decks[seed % len(decks)], decks[(seed + 1) % len(decks)], seed=seed)


_DATA = load_default_game_data()


def _westeros(players: int) -> Callable[[int], WesterosState]:
    return lambda seed: new_game(_DATA, player_count=players, seed=seed)


CASES = [
    EngineCase(
        "commandeer",
        _commandeer,
        GameState.from_dict,
        commandeer_action,
        every=7,
        concedes=lambda a: isinstance(a, Concede),
    ),
    *(
        EngineCase(f"westeros-{n}", _westeros(n), WesterosState.from_dict, westeros_action, every=20)
        for n in (3, 4, 6)
    ),
]


def _commandeer_is_a_game(state: GameState) -> Game[int, CommandeerAction]:
    """Where mypy checks that the engine's state is a ``Game`` (this module is type-checked)."""
    return state


def _westeros_is_a_game(state: WesterosState) -> Game[str, WesterosAction]:
    return state


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_engine_conforms_to_the_game_interface_on_random_playouts(case: EngineCase) -> None:
    tally = run(case, GAMES)
    assert tally.states > GAMES and tally.games == GAMES
