"""Hidden information (W-20): which actions are secret, and determinization for search.

One source for both facts: the play layer asks `WesterosState.secret_action`, an AI searching the game
asks `WesterosState.determinize`, both defined here.
"""

from __future__ import annotations

from random import Random
from typing import TYPE_CHECKING

from . import combat
from .actions import Action, Bid, PlaceOrder, PlayHouseCard, RavenSwap
from .structures import Order

if TYPE_CHECKING:
    from .game import WesterosState

# W-20 / W-5.1 / W-5.5 / W-9.4 / W-14.2: choices made face down, revealed together later. Their content
# stays hidden from the other houses (the play layer shows "X places an order face down").
SECRET_ACTIONS: tuple[type[Action], ...] = (PlaceOrder, RavenSwap, Bid, PlayHouseCard)
SECRET_ACTION_KINDS: frozenset[str] = frozenset(cls.kind for cls in SECRET_ACTIONS)

HIDDEN_EVENT_TEXT = "(hidden)"


def blank_random() -> Random:
    """A `Random` to be given its state at once (`setstate`, or replaced): `Random()` would first seed itself
    from the operating system's entropy (8 µs, a third of a clone's cost) only to have it overwritten."""
    return Random.__new__(Random)


def secret_action(action: Action) -> bool:
    """Whether the action's content is hidden from the other houses (W-20)."""
    return action.kind in SECRET_ACTION_KINDS


def _shuffle_unknown(deck: list[str], fixed: set[int], rng: Random) -> None:
    """Shuffle in place the cards of `deck` whose index is not in `fixed` (those stay where they are).

    The unknown cards are sorted first: the result depends only on which cards are unknown and on `rng`,
    never on their real order (a searcher must not learn it from a sample).
    """
    free = [i for i in range(len(deck)) if i not in fixed]
    cards = sorted(deck[i] for i in free)
    rng.shuffle(cards)
    for i, c in zip(free, cards, strict=True):
        deck[i] = c


def determinize(state: WesterosState, player: str, rng: Random) -> WesterosState:
    """A full state `player` cannot tell from `state`, every part hidden from it resampled with `rng`.

    Resampled: other houses' face-down orders (W-5.1, consistent with their tokens, bans and ★ limit),
    their bids and house cards chosen but not yet revealed (W-14.2, W-9.4), the order of the cards of
    the Westeros decks and the wildling deck that no house has seen since the last shuffle (a card the
    player looked at with the Messenger Raven stays, W-5.5), the private log entries of others, and the
    engine RNG. ``result.player_view(player) == state.player_view(player)``.

    Canonical: the result depends only on what `player` can know and on `rng` (hidden parts are drawn
    from sorted candidates in a fixed order), so ``determinize(determinize(s, p, r1), p, Random(k))`` and
    ``determinize(s, p, Random(k))`` are the same state. An agent that reads the game only through its
    samples (`information.Information`) cannot act on anything hidden from it.
    """
    st = state.clone_without_rng(blank_random())  # its own RNG is drawn from `rng` last, below
    others = [h for h in st.turn_order() if h != player]
    if not st.orders_revealed and st.orders:
        for h in others:
            areas = sorted(a for a, (oh, _t) in st.orders.items() if oh == h)
            for a in areas:
                del st.orders[a]
            for a in areas:
                st.orders[a] = Order(h, rng.choice(st.unused_tokens(h)))
        st.orders = {a: st.orders[a] for a in sorted(st.orders)}
    p = st.pending
    if p is not None:
        bids = p.bids
        if bids:
            for h in others:
                if h in bids:
                    bids[h] = rng.randint(0, st.power[h])
        chosen = p.chosen
        if chosen and st.combat is not None:
            for h in others:
                if h in chosen:
                    chosen[h] = rng.choice(combat.card_options(st, h))
    for k, deck in sorted(st.wdecks.items()):
        n = len(deck)
        _shuffle_unknown(deck, set(range(n - min(n, st.deck_known[k]), n)), rng)
    wild = st.wildling_deck
    n = len(wild)
    known = min(n, st.deck_known["wildling"])
    rk = st.raven_knows
    if rk is not None and rk["where"] == "bottom":
        fixed = set(range(max(0, n - 1 - known), n - 1))  # the buried card sits under the public run
        if rk["house"] == player or known >= n:
            fixed.add(n - 1)
    else:
        fixed = set(range(n - known, n))
        if rk is not None and rk["house"] == player and n:
            fixed.add(0)
    _shuffle_unknown(wild, fixed, rng)
    if rk is not None and rk["where"] == "top" and n:
        rk["card"] = wild[0]
    elif rk is not None and n:
        rk["card"] = wild[-1]
    for i, ev in enumerate(st.log):
        to = ev.get("to")
        if to is not None and player not in to:
            st.log[i] = {"n": ev["n"], "round": ev["round"], "text": HIDDEN_EVENT_TEXT, "to": to}
    st.rng = Random(rng.getrandbits(64))
    st.invalidate_control()
    return st
