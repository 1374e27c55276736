"""W-20 hidden information over a whole seeded game: `player_view(h)` and `log_view(h)` never show
another house's face-down orders (W-20.1), bids (W-20.5) or chosen house cards (W-20.6) before the
reveal, the order of the Westeros and wildling decks (W-20.7, W-20.8) or the seed/RNG state (W-20.9).

Three checks at every decision of the game, for every house and the spectator:
1. direct: the decoded JSON has no RNG/agenda keys, decks only as counts, hidden slots as null, and
   the log holds no event addressed to someone else and no wildling card before it was revealed;
2. perturbation: a copy whose hidden parts are changed (decks reshuffled, RNG reseeded, other
   houses' face-down orders, bids and chosen cards replaced) gives exactly the same views;
3. alternative choice: at each secret choice, two different choices leave the others' views equal.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from random import Random
from typing import Any

import pytest

from boardgame.engine.agents import GreedyAgent, RandomAgent
from boardgame.engine.data import load_default_game_data
from boardgame.engine.game import WesterosState, new_game
from boardgame.engine.structures import Order

from .conftest import check_secret_choice_hidden

DATA = load_default_game_data()
SEEDS = [int(s) for s in os.environ.get("WESTEROS_VIEW_SEEDS", "2").split(",")]
FORBIDDEN_KEYS = {"rng", "agenda", "seed", "seed_hidden"}


def walk(obj: Any, path: str = "") -> Iterator[tuple[str, str | None, Any]]:
    """Yield (path, key, value) for every dict entry and (path, None, list) for every list."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield path, k, v
            yield from walk(v, f"{path}.{k}")
    elif isinstance(obj, list):
        yield path, None, obj
        for i, v in enumerate(obj):
            yield from walk(v, f"{path}[{i}]")


def perturbed(st: WesterosState, viewer: str | None) -> WesterosState:
    """A copy that differs from `st` only in what `viewer` must not know."""
    cp = st.clone()
    rng = Random(99)
    for deck in cp.wdecks.values():
        rng.shuffle(deck)
    rng.shuffle(cp.wildling_deck)
    cp.rng.seed(12345)
    tokens = sorted(DATA.tokens)
    if not cp.orders_revealed:
        for area, (h, tok) in list(cp.orders.items()):
            if h != viewer:
                cp.orders[area] = Order(h, tokens[(tokens.index(tok) + 1) % len(tokens)])
    p = cp.pending
    if p is not None:
        for h in list(p.bids or {}):
            if h != viewer and p.bids is not None:
                p.bids[h] += 1
        for h, card in list((p.chosen or {}).items()):
            if h != viewer and p.chosen is not None:
                p.chosen[h] = "not_" + card
    return cp


def check_direct(st: WesterosState, viewer: str | None, seen_log: dict[str | None, int]) -> None:
    view = st.player_view(viewer)
    log = view.pop("log")
    view = json.loads(json.dumps(view))  # what a client decodes
    decks = [list(d) for d in st.wdecks.values()] + [list(st.wildling_deck)]
    for path, key, value in walk(view):
        assert key not in FORBIDDEN_KEYS, f"{viewer} sees {path}.{key}"
        if key is None and len(value) > 1:
            assert value not in decks, f"{viewer} sees a deck order at {path}"
    assert all(isinstance(n, int) for n in view["wdecks"].values()) and isinstance(view["wildling_deck"], int)
    if not st.orders_revealed:
        for area, (owner, tok) in view["orders"].items():
            assert owner == viewer or tok is None, f"{viewer} sees {owner}'s order in {area}"
    if view["pending"]:
        for key in ("bids", "chosen"):
            for h, v in view["pending"].get(key, {}).items():
                assert h == viewer or v is None, f"{viewer} sees {h}'s {key}"
    assert log == st.log_view(viewer)
    # the log, checked once per new event: nothing addressed to others, no unrevealed wildling card
    start = seen_log.get(viewer, 0)
    revealed = {e["wildling_card"] for e in st.log[:start] if "wildling_card" in e}
    names = {c: v["name"] for c, v in DATA.wildling_cards.items()}
    for e in st.log_view(viewer, start):
        assert "to" not in e or (viewer is not None and viewer in e["to"]), e
        if "wildling_card" in e:
            revealed.add(e["wildling_card"])
        if "to" not in e:
            for cid, name in names.items():
                if cid not in revealed:
                    assert cid not in e["text"] and name not in e["text"], f"{viewer} learns {cid}: {e}"
    seen_log[viewer] = len(st.log)


def check_perturbation(st: WesterosState, viewer: str | None) -> None:
    cp = perturbed(st, viewer)
    assert cp.player_view(viewer) == st.player_view(viewer), f"hidden state leaks to {viewer}"
    assert cp.log_view(viewer) == st.log_view(viewer)


@pytest.mark.parametrize("seed", SEEDS)
def test_views_never_leak_hidden_information_over_a_whole_game_w_20(seed: int) -> None:
    st = new_game(DATA, player_count=4, seed=seed)
    rng = Random(seed)
    agents = {h: (GreedyAgent(rng) if i % 2 else RandomAgent(rng)) for i, h in enumerate(st.houses)}
    seen: set[str] = set()
    seen_log: dict[str | None, int] = {}
    steps = 0
    while not st.is_terminal():
        viewers = [*st.houses, None]
        for viewer in viewers:
            check_direct(st, viewer, seen_log)
        check_perturbation(st, viewers[steps % len(viewers)])
        p = rng.choice(st.current_players())
        check_secret_choice_hidden(st, p)
        if st.pending is not None:
            kind = st.pending.kind
            seen.add((st.pending.decision or kind) + (f"/{st.step}" if kind == "bid" else ""))
        st.apply(agents[p].choose(st, p))
        steps += 1
        assert steps < 5000
    for viewer in [*st.houses, None]:
        check_direct(st, viewer, seen_log)
    # the game went through every kind of secret step the test is about
    assert {"orders", "bid/clash_of_kings", "house_card"} <= seen, sorted(seen)
    if seed == 2:  # the default game also has a wildling bid, a Raven look and a Tyrion re-choice
        assert {"bid/wildling_attack", "raven_bury", "tyrion"} <= seen, sorted(seen)
