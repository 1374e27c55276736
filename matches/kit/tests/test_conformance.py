"""The conformance suite fails an engine that breaks the interface (each check can fail)."""

from __future__ import annotations

from typing import Any

import pytest

from matches.engine import GameState, new_match
from matches.engine.actions import Concede
from matches.engine.actions import action_from_json as commandeer_action
from matches.engine.decks import default_decks
from matches.kit.conformance import EngineCase, run
from matches.kit.tests.pure_only import pure_python_only


def _deal(seed: int) -> GameState:
    decks = list(default_decks().values())
    return new_match(decks[0], decks[1], seed=seed)


def _case(**kwargs: Any) -> EngineCase:
    base: dict[str, Any] = {
        "name": "commandeer",
        "new": _deal,
        "load": GameState.from_dict,
        "action_from_json": commandeer_action,
        "every": 5,
        "concedes": lambda a: isinstance(a, Concede),
    }
    return EngineCase(**{**base, **kwargs})


class _LeakyView(GameState):
    """Shows the opponent's hand: what a view must never do (C-8)."""

    def player_view(self, player: int | None) -> dict[str, Any]:
        view = super().player_view(player)
        if player is not None:
            view["leak"] = list(self.sides[1 - player].hand)
        return view


def _leaky(seed: int) -> GameState:
    g = _deal(seed)
    g.__class__ = _LeakyView
    return g


def test_an_honest_engine_passes() -> None:
    tally = run(_case(), 1)
    assert tally.games == 1 and tally.states > 3


@pytest.mark.pure_only
def test_a_view_that_shows_hidden_cards_fails() -> None:
    pure_python_only("matches.engine")  # swaps the state's class for a subclass: not on a compiled class
    with pytest.raises(AssertionError, match="determinize changed what"):
        run(_case(new=_leaky), 1)


def test_a_lossy_snapshot_fails() -> None:
    def forgetful(data: Any) -> GameState:
        return GameState.from_dict({**data, "turn": data["turn"] + 1})

    with pytest.raises(AssertionError, match="to_dict/from_dict changed the state"):
        run(_case(load=forgetful), 1)


def test_a_replay_that_does_not_reproduce_fails() -> None:
    dealt: list[int] = []

    def drifting(seed: int) -> GameState:
        dealt.append(seed)
        return _deal(seed + (len(dealt) > 2))  # the third deal of a seed (the replay's) is another game

    with pytest.raises(AssertionError, match="replay does not reproduce"):
        run(_case(new=drifting), 1)
