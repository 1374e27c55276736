"""Default decks: a deterministic legal 50-card deck per faction of the sample set (shared by CLI, bench, tests)."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path
from typing import Any

from .cards import build_deck, factions_of, load_card_file

# The folder that holds manage.py, found from the imported ``matches`` package: a module compiled by mypyc
# (docs/speed.md) has no ``__file__`` while its top level runs.
REPOSITORY_ROOT = Path(str(files("matches"))).resolve().parent
# The one source of the sample card set's path (C-1 cards of every faction), relative to the repository
# root and absolute; the card app, the CLI, the benchmark and the tests all read it from here.
SAMPLE_CARDS_RELATIVE = "cards/data/sample_cards.json"
SAMPLE_CARDS = REPOSITORY_ROOT / SAMPLE_CARDS_RELATIVE


def load_sample(path: Path | str | None = None) -> dict[str, Any] | None:
    """The parsed sample card file, or None when it does not exist."""
    p = Path(path) if path else SAMPLE_CARDS
    if not p.exists():
        return None
    data: dict[str, Any] = json.loads(p.read_text(encoding="utf-8"))
    return data


def default_decks(path: Path | str | None = None) -> dict[str, dict[str, Any]]:
    """faction slug -> deck ({"cards": [...], "commander": None}); empty when there is no sample set."""
    data = load_sample(path)
    if data is None:
        return {}
    catalog = load_card_file(data)
    return {f: build_deck(catalog, f) for f in factions_of(catalog)}


def load_deck_file(path: Path | str) -> dict[str, Any]:
    """A deck JSON file: either the engine's deck form or a card file (the first faction's deck is built)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if isinstance(data, dict) and data.get("format") == "commandeer-cards":
        catalog = load_card_file(data)
        return build_deck(catalog, factions_of(catalog)[0])
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise ValueError(f"{path}: a deck file needs a 'cards' list (card JSON objects)")
    return {"cards": data["cards"], "commander": data.get("commander")}
