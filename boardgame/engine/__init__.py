"""Westeros rules engine (A Game of Thrones: The Board Game, 2nd ed.): pure Python, no Django."""

# ruff: noqa: E402 (activate must run before the engine's modules are imported)
from matches.kit.compiled import activate

activate("boardgame.engine")  # compiled modules when current, else pure Python (docs/speed.md)

from .actions import Action, IllegalActionError, action_from_json
from .config import RulesConfig
from .data import GameData, load_default_game_data
from .game import ROUND_STRUCTURE, Outcome, Phase, Reason, WesterosState, houses_in_play, new_game, replay
from .position import from_position

__all__ = [
    "ROUND_STRUCTURE",
    "Action",
    "GameData",
    "IllegalActionError",
    "Outcome",
    "Phase",
    "Reason",
    "RulesConfig",
    "WesterosState",
    "action_from_json",
    "from_position",
    "houses_in_play",
    "load_default_game_data",
    "new_game",
    "replay",
]
