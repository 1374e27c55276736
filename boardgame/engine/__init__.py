"""Westeros rules engine (A Game of Thrones: The Board Game, 2nd ed.): pure Python, no Django."""

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
