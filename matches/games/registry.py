"""The registry of game kinds: which games can be played online, looked up by a match's `kind`."""

from __future__ import annotations

import importlib
import os
from typing import Any, TypeAlias

from django.utils.translation import gettext

from config.errors import ApplicationError
from matches.games.commandeer import CommandeerGame
from matches.games.kind import A, GameKind, S
from matches.games.westeros import WesterosGame

# The registry's games: the kind comes from a database row, so its state and action types are known only
# at run time — the one place where a game's `S` and `A` are `Any`.
AnyGame: TypeAlias = "GameKind[Any, Any]"

_REGISTRY: dict[str, AnyGame] = {}


_loaded = False


def register(game: GameKind[S, A]) -> GameKind[S, A]:
    """Make a game kind playable online."""
    _REGISTRY[game.kind] = game
    return game


def _load_modules() -> None:
    """Import the adapters' modules once; MATCHES_EXTRA_GAMES (comma list) adds more, e.g. test games."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    extra = [m.strip() for m in os.environ.get("MATCHES_EXTRA_GAMES", "").split(",") if m.strip()]
    if "commandeer" not in _REGISTRY:
        register(CommandeerGame())
    if "westeros" not in _REGISTRY:
        register(WesterosGame())
    for name in extra:
        importlib.import_module(name)


def get_game(kind: str) -> AnyGame:
    """The game of a kind, or a clear 400 naming the kinds on offer."""
    _load_modules()
    try:
        return _REGISTRY[kind]
    except KeyError:
        raise ApplicationError(
            "unknown_game",
            gettext("Unknown game kind '%(kind)s'.") % {"kind": kind},
            extra={"kinds": sorted(_REGISTRY)},
        ) from None


def game_kinds() -> list[str]:
    """Kinds that can be played now."""
    _load_modules()
    return sorted(_REGISTRY)
