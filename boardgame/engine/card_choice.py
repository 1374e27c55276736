"""The AI's house card (W-9.4): a combat's card choice as the simultaneous game it is.

Both sides of a combat choose a house card face down and reveal them together, so a side that always played
the same reply to the same position could be read and beaten by the side choosing first (in three
full-budget tables of `hard` houses, Greyjoy won all 15 of its attacks that way). Here a combat's cards
are a zero-sum matrix game: every pair of options is played out with the engine's own `combat_numbers`
(card texts, support, Defense orders, garrison), plus the unused Valyrian Steel Blade (W-9.6) and the
Fiefdoms tie-break (W-9.8); its equilibrium, found by regret matching, gives each side a mixed strategy.
The rollout policy draws its cards from it, and the search draws the opponent's face-down card from it
(`search.SearchAgent`) and its own final choice among the cards its simulations rate as good.

Pure functions of what both sides may see: the hands of house cards are public (W-20: every discard pile
is open, so every hand is known); a card chosen face down is never read (W-20.6).
"""

from __future__ import annotations

import threading
from random import Random
from typing import TYPE_CHECKING

from .combat import card_options, combat_numbers, victor, wins_ties

if TYPE_CHECKING:
    from .game import WesterosState

SWORD_BONUS = 0.05  # per sword beyond the loser's fortifications: the casualties a win inflicts (W-9.9)
KEEP_STRONG = 0.02  # per printed strength of the card played: a strong card kept for later is worth a little
SOLVER_ITERATIONS = 60  # about 1 ms for 7 x 7; the strategies' exploitability about 1% of a combat
MIN_SHARE = 0.05  # smaller shares of the solver's averages are its noise: dropped


def blade_and_tie(st: WesterosState, p: str, foe: str) -> tuple[int, int, bool]:
    """What the unused Valyrian Steel Blade may add to `p` and to `foe` (W-9.6: its holder, once per round)
    and whether `p` wins a tie against `foe` (W-9.8: the higher on the Fiefdoms track)."""
    blade = None if st.blade_used else st.holder("fiefdoms")
    return int(blade == p), int(blade == foe), wins_ties(st, p, foe)


def _result(st: WesterosState, att_card: str, def_card: str) -> float:
    """The attacker's result minus the defender's in the running combat if they play these cards:
    1 for the win, swords beyond the loser's fortifications adding `SWORD_BONUS` each."""
    c = st.combat
    assert c is not None
    att, dfn = c.attacker, c.defender
    saved = c.cards
    c.cards = {att: att_card, dfn: def_card}
    try:
        nums = combat_numbers(st)
    finally:
        c.cards = saved
    a_blade, d_blade, _ties = blade_and_tie(st, att, dfn)
    if victor(st, att, dfn, nums[att]["strength"] + a_blade, nums[dfn]["strength"] + d_blade) == att:
        return 1.0 + SWORD_BONUS * max(0, nums[att]["swords"] - nums[dfn]["forts"])
    return -1.0 - SWORD_BONUS * max(0, nums[dfn]["swords"] - nums[att]["forts"])


def _options(st: WesterosState, h: str) -> list[str]:
    """`h`'s cards to choose from; only its revealed card when it keeps one while the other side chooses
    again (Tyrion Lannister, Aeron Damphair: W-17.1)."""
    c = st.combat
    assert c is not None
    shown = c.cards.get(h)
    return [shown] if shown is not None else card_options(st, h)


def card_game(st: WesterosState) -> tuple[list[str], list[str], list[list[float]]]:
    """The running combat's card choice as a zero-sum game: the attacker's options (rows), the defender's
    (columns) and the attacker's payoff, each side's strong cards played at a small cost."""
    c = st.combat
    assert c is not None and not c.neutral
    rows, cols = _options(st, c.attacker), _options(st, c.defender)
    cost = {x: KEEP_STRONG * int(st.data.house_cards[x]["strength"]) for x in (*rows, *cols)}
    u = [[_result(st, r, k) - cost[r] + cost[k] for k in cols] for r in rows]
    return rows, cols, u


def equilibrium(u: list[list[float]], iterations: int = SOLVER_ITERATIONS) -> tuple[list[float], list[float]]:
    """Mixed strategies of the zero-sum game `u` (row player's payoff) at or near its equilibrium: dominated
    options are dropped (a card that never does better than another), a saddle point is the exact answer
    (most combats: one card wins or loses whatever the other side plays), else regret matching+ on what is
    left, with alternating updates and linearly weighted averages (Tammelin 2014, "CFR+")."""
    rows, cols = _undominated(u)
    small = [[u[i][j] for j in cols] for i in rows]
    saddle = _saddle(small)
    if saddle is not None:
        x, y = [0.0] * len(rows), [0.0] * len(cols)
        x[saddle[0]], y[saddle[1]] = 1.0, 1.0
    elif len(rows) == len(cols) == 2:  # no saddle point: each side makes the other indifferent
        (a, b), (c, d) = small
        x = [(d - c) / (a - b - c + d), (a - b) / (a - b - c + d)]
        y = [(d - b) / (a - b - c + d), (a - c) / (a - b - c + d)]
    else:
        x, y = _regret_matching(small, iterations)
    fx, fy = [0.0] * len(u), [0.0] * len(u[0])
    for i, p in zip(rows, x, strict=True):
        fx[i] = p
    for j, p in zip(cols, y, strict=True):
        fy[j] = p
    return fx, fy


def _undominated(u: list[list[float]]) -> tuple[list[int], list[int]]:
    """Rows and columns left when weakly dominated ones are dropped in turn (the first of equals kept)."""
    rows, cols = list(range(len(u))), list(range(len(u[0])))
    changed = True
    while changed:
        changed = False
        for i in list(rows):
            if any(k != i and all(u[k][j] >= u[i][j] for j in cols) and (k < i or any(
                    u[k][j] > u[i][j] for j in cols)) for k in rows):  # fmt: skip
                rows.remove(i)
                changed = True
        for j in list(cols):
            if any(k != j and all(u[i][k] <= u[i][j] for i in rows) and (k < j or any(
                    u[i][k] < u[i][j] for i in rows)) for k in cols):  # fmt: skip
                cols.remove(j)
                changed = True
    return rows, cols


def _saddle(u: list[list[float]]) -> tuple[int, int] | None:
    """A pure equilibrium: a cell that is its row's minimum and its column's maximum."""
    low = [min(r) for r in u]
    i = max(range(len(u)), key=lambda k: (low[k], -k))
    j = min(range(len(u[0])), key=lambda k: (max(r[k] for r in u), k))
    return (i, j) if low[i] == max(r[j] for r in u) else None


def _regret_matching(u: list[list[float]], iterations: int) -> tuple[list[float], list[float]]:
    n, m = len(u), len(u[0])
    cols = [[u[i][j] for i in range(n)] for j in range(m)]
    rx, ry = [0.0] * n, [0.0] * m
    ax, ay = [0.0] * n, [0.0] * m
    x, y = [1.0 / n] * n, [1.0 / m] * m
    for t in range(1, iterations + 1):
        vx = [sum(a * b for a, b in zip(row, y, strict=True)) for row in u]
        ev = sum(a * b for a, b in zip(x, vx, strict=True))
        rx = [max(0.0, r + v - ev) for r, v in zip(rx, vx, strict=True)]
        x = _normal(rx)
        vy = [-sum(a * b for a, b in zip(col, x, strict=True)) for col in cols]
        ev = sum(a * b for a, b in zip(y, vy, strict=True))
        ry = [max(0.0, r + v - ev) for r, v in zip(ry, vy, strict=True)]
        y = _normal(ry)
        ax = [a + t * p for a, p in zip(ax, x, strict=True)]
        ay = [a + t * p for a, p in zip(ay, y, strict=True)]
    return _normal(ax), _normal(ay)


def _normal(w: list[float]) -> list[float]:
    s = sum(w)
    return [v / s for v in w] if s > 0 else [1.0 / len(w)] * len(w)


_LAST = threading.local()  # the last combat solved in this thread: both sides ask in turn


def card_mix(st: WesterosState, house: str) -> dict[str, float]:
    """`house`'s equilibrium mix of house cards in the running combat (probabilities that sum to 1; a
    side with one option plays it)."""
    c = st.combat
    assert c is not None and house in (c.attacker, c.defender)
    key = (st, c, _options(st, c.attacker), _options(st, c.defender), st.blade_used)
    last = getattr(_LAST, "entry", None)
    # The entry holds the state and the combat themselves, so `is` cannot meet a recycled object.
    if last is not None and last[0][0] is st and last[0][1] is c and last[0][2:] == key[2:]:
        mixes: dict[str, dict[str, float]] = last[1]
    else:
        mixes = _solve(st)
        _LAST.entry = (key, mixes)
    return mixes[house]


def _solve(st: WesterosState) -> dict[str, dict[str, float]]:
    c = st.combat
    assert c is not None
    rows, cols, u = card_game(st)
    x, y = equilibrium(u)
    out = {}
    for house, options, probs in ((c.attacker, rows, x), (c.defender, cols, y)):
        mix = {k: p for k, p in zip(options, probs, strict=True) if p >= MIN_SHARE}
        total = sum(mix.values())
        out[house] = {k: p / total for k, p in mix.items()}
    return out


def draw(mix: dict[str, float], rng: Random) -> str:
    """One card drawn from `mix` (in sorted order, so the draw depends on the mix and `rng` alone)."""
    r = rng.random()
    acc = 0.0
    items = sorted(mix.items())
    for card, p in items:
        acc += p
        if r < acc:
            return card
    return items[-1][0]
