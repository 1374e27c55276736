"""Scenario helpers: build positions (docs/commandeer-position.md) from the test pool in a few lines."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from matches.engine import GameState, Outcome
from matches.engine.actions import Action, ChooseCard, ChooseSquare, ChooseTarget, ChooseTrigger
from matches.engine.tests.pool import pool_cards
from matches.kit.tests.pure_only import pure_python_only as skip_when_compiled


def pure_python_only() -> None:
    """Skip a test that replaces an engine function or method, or subclasses an engine class, when the
    Commandeer engine is compiled; the pure-Python pass of ``make test`` runs it (docs/speed.md)."""
    skip_when_compiled("matches.engine")


DUMMIES: list[dict[str, Any]] = [
    {
        "name": "Dummy",
        "faction": "test",
        "type": "unit",
        "command_cost": 1,
        "energy_cost": 0,
        "power": 1000,
        "health": 9000,
        "arrows": [],
        "legendary": False,
        "unique": False,
        "event_type": None,
        "keywords": [],
        "rules_text": "",
        "abilities": [],
        "flavor_text": "",
    },
    {
        "name": "Weakling",
        "faction": "test",
        "type": "unit",
        "command_cost": 1,
        "energy_cost": 0,
        "power": 1000,
        "health": 1000,
        "arrows": [],
        "legendary": False,
        "unique": False,
        "event_type": None,
        "keywords": [],
        "rules_text": "",
        "abilities": [],
        "flavor_text": "",
    },
    {
        "name": "Brute",
        "faction": "test",
        "type": "unit",
        "command_cost": 1,
        "energy_cost": 0,
        "power": 50000,
        "health": 9000,
        "arrows": ["N", "NE", "E", "SE", "S", "SW", "W", "NW"],
        "legendary": False,
        "unique": False,
        "event_type": None,
        "keywords": [],
        "rules_text": "",
        "abilities": [],
        "flavor_text": "",
    },
]


def catalog(extra: Iterable[dict[str, Any]] = ()) -> dict[str, dict[str, Any]]:
    cards = [*pool_cards(), *DUMMIES, *extra]
    return {c["name"]: c for c in cards}


def side(**zones: Any) -> dict[str, Any]:
    """A player entry: zones as lists of card names, plus cp etc."""
    out: dict[str, Any] = {"cp": 0}
    out.update(zones)
    return out


def unit(square: str, card: str, owner: int, **extra: Any) -> dict[str, Any]:
    return {"square": square, "card": card, "owner": owner, **extra}


def position(
    *,
    board: Iterable[dict[str, Any]] = (),
    p0: dict[str, Any] | None = None,
    p1: dict[str, Any] | None = None,
    step: str = "planning",
    turn: int = 3,
    active: int = 0,
    first: int = 0,
    config: dict[str, Any] | None = None,
    extra_cards: Iterable[dict[str, Any]] = (),
    **rest: Any,
) -> GameState:
    data: dict[str, Any] = {
        "format": "commandeer-position",
        "version": 1,
        "turn": turn,
        "active": active,
        "first_player": first,
        "step": step,
        "players": [p0 or side(deck=["Dummy"] * 10), p1 or side(deck=["Dummy"] * 10)],
        "board": list(board),
        **rest,
    }
    if config:
        data["config"] = config
    return GameState.from_dict(data, catalog=catalog(extra_cards), seed=1)


def result(g: GameState) -> Outcome:
    """The outcome, which must exist."""
    out = g.outcome()
    assert out is not None, "the match should be over"
    return out


def at(g: GameState, square: str) -> int:
    """Id of the unit on ``square``."""
    from matches.engine.actions import square_index

    uid = g.board[square_index(square)]
    assert uid is not None, f"no unit on {square}"
    return uid


def in_zone(g: GameState, player: int, zone: str) -> list[str]:
    return [g.defs[c].name for c in g.sides[player].zone(zone)]


def first_choice(g: GameState) -> Action:
    """The first legal answer to the pending decision."""
    p = g.current_players()[0]
    return g.legal_actions(p)[0]


def resolve_choices(g: GameState, limit: int = 50) -> list[Action]:
    """Answer pending decisions (targets, squares, cards, trigger order) with the first option."""
    done: list[Action] = []
    while g.decision is not None and limit:
        a = first_choice(g)
        assert isinstance(a, ChooseCard | ChooseTarget | ChooseSquare | ChooseTrigger)
        g.apply(a)
        done.append(a)
        limit -= 1
    return done
