"""W-20 What each house may see: the log and the player view.

Functions over a `WesterosState` (the state holds the data; the rules live here, by rule number),
reached through the dispatch tables of `dispatch.py`.
"""

from __future__ import annotations

import marshal
from typing import TYPE_CHECKING, Any

from . import combat
from .structures import STATE_CODECS

if TYPE_CHECKING:
    from .game import WesterosState


def log_view(st: WesterosState, player: str | None, start: int = 0) -> list[dict[str, Any]]:
    """Events from number `start` that `player` may see (private ones only to their addressees).

    A state loaded from a log-less snapshot (``to_dict(log=False)``) holds only the events made since.
    """
    return [
        dict(e)
        for e in st.log[max(0, start - st.log_start) :]
        if "to" not in e or (player is not None and player in e["to"])
    ]


# W-20: the view is built from these lists only; a state field or pending-decision key not named here is
# never shown (test_views_allow_list checks that every field is classified).
PUBLIC_FIELDS = (
    "houses",
    "round",
    "phase",
    "step",
    "threat",
    "tracks",
    "power",
    "supply",
    "hands",  # W-17: house cards in hand are open information
    "discards",
    "units",
    "tokens",
    "garrisons",
    "neutral",
    "impassable",
    "orders_revealed",
    "bans",
    "blade_used",
    "raven_used",
    "revealed",
    "combat",  # W-9: cards appear there only once revealed (choices wait in `Pending.chosen`)
    "march",
    "winner",
    "end_reason",
    "decisions",
    "seat_houses",
    "deck_known",
)
# Shown in part: face-down orders (W-20.1), deck contents as counts (W-20.7/20.8), the Raven's card (W-20.4),
# the pending decision with others' bids and chosen cards masked (W-20.5/20.6).
MASKED_FIELDS = ("orders", "wdecks", "wildling_deck", "raven_knows", "pending")
HIDDEN_FIELDS = ("rng", "agenda", "log", "seed_hidden")  # W-20.9 (the log is shown through log_view)
PENDING_PUBLIC = ("kind", "players", "decision", "options", "points", "task", "effect", "port", "left", "n",
                  "area", "opponent")  # fmt: skip
PENDING_MASKED = ("bids", "chosen")


def _copy(v: Any) -> Any:
    return marshal.loads(marshal.dumps(v))


def _public(st: WesterosState, f: str) -> Any:
    """A public field's value; the running combat and march as they are stored (`to_json`)."""
    if f == "combat":
        return None if st.combat is None else st.combat.to_json()
    if f == "march":
        return None if st.march is None else st.march.to_json()
    if f in STATE_CODECS:  # typed values (units, phase, ...) as they are stored
        return STATE_CODECS[f][0](getattr(st, f))
    return getattr(st, f)


def player_view(st: WesterosState, player: str | None = None) -> dict[str, Any]:
    """What `player` may see (None = spectator), built from the allow-lists above (docs/style.md §7)."""
    d: dict[str, Any] = _copy({f: _public(st, f) for f in PUBLIC_FIELDS})
    if st.orders_revealed:
        d["orders"] = STATE_CODECS["orders"][0](st.orders)
    else:
        d["orders"] = {a: [h, t if h == player else None] for a, (h, t) in st.orders.items()}
    d["wdecks"] = {k: len(v) for k, v in st.wdecks.items()}
    d["wildling_deck"] = len(st.wildling_deck)
    rk = st.raven_knows
    d["raven_knows"] = (
        dict(rk)
        if rk and rk["house"] == player
        else ({"house": rk["house"], "card": None, "where": rk["where"]} if rk else None)
    )
    p = st.pending
    if p is None:
        d["pending"] = None
    else:
        raw = p.to_json()
        view = _copy({k: raw[k] for k in PENDING_PUBLIC if k in raw})
        for key in PENDING_MASKED:
            if key in raw:
                view[key] = {h: (_copy(v) if h == player else None) for h, v in raw[key].items()}
        d["pending"] = view
    d["log"] = log_view(st, player)
    d["log_length"] = st.log_length
    # Public facts derived from the board, so clients need not re-implement the rules (W-8.1, W-18,
    # W-9.3: combat numbers use only what is on the table: the house cards are revealed by then).
    d["castles"] = {h: st.castle_count(h) for h in st.houses}
    d["control"] = {a: h for a in st.data.land_areas if (h := st.control(a)) is not None}
    parts: dict[str, list[list[Any]]] = {}
    d["combat_strength"] = combat.combat_numbers(st, parts) if st.combat is not None else None
    d["combat_parts"] = parts or None  # each side's contributions to its strength (W-9.3)
    d["player"] = player
    d["current_players"] = st.current_players()
    return d
