"""Card choices a player makes one card at a time (C-4.4 mulligan bottom, C-5.3 Energy payment, C-5.2
Reinforce, C-5.9 hand limit, discard and retire effects); forced picks are made automatically."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .cards import CardDef

if TYPE_CHECKING:
    from .state import GameState


CARD_CHOICES = frozenset({"bottom", "pay_energy", "reinforce_energy", "discard", "retire_energy"})


def _distinct(ids: Iterable[int], defs: Mapping[int, CardDef]) -> list[int]:
    """One id per distinct card name (same-name cards are interchangeable), first occurrence."""
    seen: set[str] = set()
    out = []
    for i in ids:
        n = defs[i].name
        if n not in seen:
            seen.add(n)
            out.append(i)
    return out


def _card_choice(self: GameState, kind: str, player: int, zone: str, count: int, **extra: Any) -> None:
    """Ask ``player`` to pick ``count`` cards of ``zone`` one at a time; forced picks are automatic."""
    cards = self.sides[player].zone(zone)
    count = min(count, len(cards))
    if count <= 0:
        self._choice_done(kind, extra)
        return
    self.decision = {"kind": kind, "player": player, "zone": zone, "count": count, **extra}
    self._autopick()


def _autopick(self: GameState) -> None:
    dec = self.decision
    while dec is not None and dec["kind"] in CARD_CHOICES:
        cards = self.sides[dec["player"]].zone(dec["zone"])
        if len(cards) > dec["count"] and len(_distinct(cards, self.defs)) > 1:
            return
        self._pick_card(cards[-1], auto=True)
        dec = self.decision


def _pick_card(self: GameState, c: int, auto: bool = False) -> None:
    dec = self.decision
    assert dec is not None
    p = dec["player"]
    side = self.sides[p]
    kind = dec["kind"]
    if kind == "bottom":
        side.hand.remove(c)
        side.deck.insert(0, c)
        self._ev("bottom", player=p, card=c, secret=True)
    elif kind == "pay_energy" or kind == "retire_energy":
        side.energy.remove(c)
        side.retired.append(c)
        self._ev(kind, player=p, card=c)
    elif kind == "reinforce_energy":
        side.hand.remove(c)
        side.energy.append(c)
        self._ev("energy", player=p, card=c)
    elif kind == "discard":
        side.hand.remove(c)
        side.retired.append(c)
        self._ev("discard", player=p, card=c)
    dec["count"] -= 1
    if dec["count"] <= 0 or not side.zone(dec["zone"]):
        self.decision = None
        self._choice_done(kind, dec)
    elif not auto:
        self._autopick()


def _choice_done(self: GameState, kind: str, dec: Mapping[str, Any]) -> None:
    if kind in ("discard", "retire_energy") and dec.get("reason") == "effect":
        r = self.resolution
        assert r is not None
        self._effect_done(r)
