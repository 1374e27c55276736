"""Set-up (C-4): creating a match from two decks, Commanders, first player, opening hands, replay."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from random import Random
from typing import Any

from . import phases
from .actions import (
    Action,
    action_from_json,
)
from .cards import CardDef, deck_problems
from .config import RulesConfig
from .position import catalog_from
from .state import GameState
from .steps import Step

Deck = Mapping[str, Any]


def new_match(
    deck_a: Deck, deck_b: Deck, *, seed: int, config: RulesConfig | None = None, check_decks: bool = True
) -> GameState:
    """Start a match (C-4). A deck is {"cards": [card dicts, one per copy], "commander": name | None}."""
    config = config or RulesConfig()
    rng = Random(seed)
    decks = [deck_a, deck_b]
    catalogs = []
    for i, deck in enumerate(decks):
        if not isinstance(deck, Mapping) or not isinstance(deck.get("cards"), list):
            raise ValueError(f"deck {i}: must be an object with a 'cards' list")
        try:
            cat = catalog_from(deck["cards"])
        except ValueError as exc:
            raise ValueError(f"deck {i}: {exc}") from exc
        catalogs.append(cat)
    catalog = catalog_from([*catalogs[0].values(), *catalogs[1].values()])
    per_player = [
        [catalog[c["name"] if not isinstance(c, CardDef) else c.name] for c in d["cards"]] for d in decks
    ]
    if check_decks:
        for i, cards in enumerate(per_player):
            problems = deck_problems(cards)
            if problems:
                raise ValueError(f"deck {i} is not legal: " + "; ".join(problems))
    total = sum(len(c) for c in per_player)
    ids = list(range(total))
    rng.shuffle(ids)  # ids reveal nothing about deck-list positions
    defs: dict[int, CardDef] = {}
    owners: dict[int, int] = {}
    g = GameState(config, defs, owners, rng)
    k = 0
    for p, cards in enumerate(per_player):
        for d in cards:
            cid = ids[k]
            k += 1
            defs[cid] = d
            owners[cid] = p
            g.sides[p].deck.append(cid)
        g.sides[p].deck.sort()
    for p, deck in enumerate(decks):
        name = deck.get("commander")
        if name is None:
            continue
        side = g.sides[p]
        match = [c for c in side.deck if defs[c].name == name]
        if not match or not g.is_legendary_unit(match[0]):
            raise ValueError(f"deck {p}: commander {name!r} must be a Legendary unit of the deck (C-4.1)")
        side.deck.remove(match[0])
        side.commander = match[0]
    g.step = Step.COMMANDER
    phases.next_commander_chooser(g, 0)
    phases.advance(g)
    if g.events:  # set-up consequences (first player, opening hands) when no choice was needed
        g.log.append({"n": 0, "player": None, "action": None, "decision": None, "events": g.events})
        g.events = []
    return g


def replay(
    decks: Sequence[Deck],
    seed: int,
    actions: Iterable[Action | Mapping[str, Any]],
    config: RulesConfig | None = None,
) -> GameState:
    """Re-run a match from its decks, seed and actions (checked); reproduces the final state exactly."""
    g = new_match(decks[0], decks[1], seed=seed, config=config)
    for a in actions:
        g.apply(a if isinstance(a, Action) else action_from_json(a))
    return g
