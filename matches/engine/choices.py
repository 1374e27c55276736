"""Card choices a player makes one card at a time (C-4.4 mulligan bottom, C-5.3 Energy payment, C-5.2
Reinforce, C-5.9 hand limit, discard and retire effects); forced picks are made automatically."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from . import combat
from .cards import CardDef
from .pending import CARD_CHOICES, Decision, DecisionKind

if TYPE_CHECKING:
    from .board import Side
    from .state import GameState


def distinct(ids: Iterable[int], defs: Mapping[int, CardDef]) -> list[int]:
    """One id per distinct card name (same-name cards are interchangeable), first occurrence."""
    seen: set[str] = set()
    out = []
    for i in ids:
        n = defs[i].name
        if n not in seen:
            seen.add(n)
            out.append(i)
    return out


def card_choice(
    st: GameState,
    kind: DecisionKind,
    player: int,
    zone: str,
    count: int,
    *,
    for_card: int | None = None,
    reason: str | None = None,
) -> None:
    """Ask ``player`` to pick ``count`` cards of ``zone`` one at a time; forced picks are automatic."""
    cards = st.sides[player].zone(zone)
    count = min(count, len(cards))
    if count <= 0:
        _choice_done(st, kind, reason)
        return
    st.choice = Decision(kind, player, zone, count, for_card, reason)
    _autopick(st)


def _autopick(st: GameState) -> None:
    dec = st.choice
    while dec is not None and dec.kind in CARD_CHOICES:
        assert dec.zone is not None
        cards = st.sides[dec.player].zone(dec.zone)
        if len(cards) > dec.count and len(distinct(cards, st.defs)) > 1:
            return
        pick_card(st, cards[-1], auto=True)
        dec = st.choice


def _pick_bottom(st: GameState, side: Side, p: int, c: int) -> None:
    """C-4.4: the card goes under the deck, secretly."""
    side.hand.remove(c)
    side.deck.insert(0, c)
    st.event("bottom", player=p, card=c, secret=True)


def _pick_pay_energy(st: GameState, side: Side, p: int, c: int) -> None:
    """C-5.3: a paid Energy card goes to the Retired zone."""
    side.energy.remove(c)
    side.retired.append(c)
    st.event("pay_energy", player=p, card=c)


def _pick_retire_energy(st: GameState, side: Side, p: int, c: int) -> None:
    side.energy.remove(c)
    side.retired.append(c)
    st.event("retire_energy", player=p, card=c)


def _pick_reinforce_energy(st: GameState, side: Side, p: int, c: int) -> None:
    """C-5.2: Reinforce puts a hand card into the Energy zone."""
    side.hand.remove(c)
    side.energy.append(c)
    st.event("energy", player=p, card=c)


def _pick_discard(st: GameState, side: Side, p: int, c: int) -> None:
    side.hand.remove(c)
    side.retired.append(c)
    st.event("discard", player=p, card=c)


# What picking one card does, by the kind of card choice.
CARD_PICKS: dict[DecisionKind, Callable[[GameState, Side, int, int], None]] = {
    DecisionKind.BOTTOM: _pick_bottom,
    DecisionKind.PAY_ENERGY: _pick_pay_energy,
    DecisionKind.RETIRE_ENERGY: _pick_retire_energy,
    DecisionKind.REINFORCE_ENERGY: _pick_reinforce_energy,
    DecisionKind.DISCARD: _pick_discard,
}


def pick_card(st: GameState, c: int, auto: bool = False) -> None:
    """The player (or ``autopick``) picks card ``c`` for the pending card choice."""
    dec = st.choice
    assert dec is not None and dec.zone is not None
    p = dec.player
    side = st.sides[p]
    CARD_PICKS[dec.kind](st, side, p, c)
    dec.count -= 1
    if dec.count <= 0 or not side.zone(dec.zone):
        st.choice = None
        _choice_done(st, dec.kind, dec.reason)
    elif not auto:
        _autopick(st)


def _choice_done(st: GameState, kind: DecisionKind, reason: str | None) -> None:
    """A discard or retire effect's choice is over: the ability goes on with its next effect."""
    if reason == "effect" and (kind is DecisionKind.DISCARD or kind is DecisionKind.RETIRE_ENERGY):
        r = st.resolution
        assert r is not None
        combat.effect_done(st, r)
