"""Commandeer TCG rules engine (pure Python, no Django): ``new_match`` → ``GameState``; see docs/commandeer-engine.md."""

# ruff: noqa: E402 (activate must run before the engine's modules are imported)
from matches.kit.compiled import activate

activate("matches.engine")  # compiled modules when current, else pure Python (docs/speed.md)

from .actions import Action, IllegalActionError, action_from_json
from .cards import CardDef, build_deck, card_from_dict, load_card_file
from .config import RulesConfig
from .results import Outcome, Reason
from .setup import new_match, replay
from .state import GameState
from .steps import Step

__all__ = [
    "Action",
    "CardDef",
    "GameState",
    "IllegalActionError",
    "Outcome",
    "Reason",
    "RulesConfig",
    "Step",
    "action_from_json",
    "build_deck",
    "card_from_dict",
    "load_card_file",
    "new_match",
    "replay",
]
