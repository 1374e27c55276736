"""The battlefield and the zones (C-2): squares, lines and adjacency, units, each player's zones.

Squares are 0..35 (a1 = 0, f6 = 35, C-2.1). The functions take the state as their first argument and
call no other rule module: every rule area above builds on these (entering the battlefield, with its
Deploying triggers, is ``phases._place``, a queued step).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import (
    square_name,
)
from .config import BOARD_SIZE

if TYPE_CHECKING:
    from .state import GameState


NSQ = BOARD_SIZE * BOARD_SIZE


START_SQUARES = (14, 15, 20, 21)  # c3, d3, c4, d4 (C-2.2)


DELTAS = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}


ROTATE = {"N": "S", "NE": "SW", "E": "W", "SE": "NW", "S": "N", "SW": "NE", "W": "E", "NW": "SE"}


def _line(sq: int, d: str) -> tuple[int, ...]:
    x, y = sq % BOARD_SIZE, sq // BOARD_SIZE
    dx, dy = DELTAS[d]
    out = []
    x, y = x + dx, y + dy
    while 0 <= x < BOARD_SIZE and 0 <= y < BOARD_SIZE:
        out.append(y * BOARD_SIZE + x)
        x, y = x + dx, y + dy
    return tuple(out)


LINES: tuple[dict[str, tuple[int, ...]], ...] = tuple({d: _line(sq, d) for d in DELTAS} for sq in range(NSQ))


def _neighbours(king: bool) -> tuple[tuple[int, ...], ...]:
    dirs = list(DELTAS) if king else ["N", "E", "S", "W"]
    return tuple(tuple(LINES[sq][d][0] for d in dirs if LINES[sq][d]) for sq in range(NSQ))


NEIGHBOURS_ORTHO = _neighbours(False)


NEIGHBOURS_KING = _neighbours(True)


class Unit:
    """A unit on the battlefield: its square and the counters that vanish when it leaves (C-5.7)."""

    __slots__ = (
        "id",
        "owner",
        "sq",
        "damage",
        "pmod",
        "hmod",
        "tpmod",
        "thmod",
        "range_perm",
        "range_turn",
        "attacked",
        "hit_turn",
        "attached",
        "entered",
    )

    def __init__(self, uid: int, owner: int, sq: int, entered: int) -> None:
        self.id = uid
        self.owner = owner
        self.sq = sq
        self.damage = 0
        self.pmod = 0  # permanent Power modifier
        self.hmod = 0  # permanent Health modifier
        self.tpmod = 0  # until end of turn
        self.thmod = 0
        self.range_perm = False
        self.range_turn = False
        self.attacked = False  # has attacked this turn (C-5.6)
        self.hit_turn = -1  # last turn it was attacked (C-7.3)
        self.attached: list[int] = []  # Ongoing events (C-1.3)
        self.entered = entered

    def copy(self) -> Unit:
        # Through the constructor, not ``Unit.__new__``: a class compiled by mypyc runs ``__init__`` in
        # ``__new__`` (docs/speed.md).
        u = Unit(self.id, self.owner, self.sq, self.entered)
        u.damage = self.damage
        u.pmod, u.hmod, u.tpmod, u.thmod = self.pmod, self.hmod, self.tpmod, self.thmod
        u.range_perm, u.range_turn, u.attacked, u.hit_turn = (
            self.range_perm,
            self.range_turn,
            self.attacked,
            self.hit_turn,
        )
        u.attached = list(self.attached)
        return u


class Side:
    """One player's zones and counters (C-2.4). ``deck`` holds the top card LAST."""

    __slots__ = (
        "hand",
        "deck",
        "energy",
        "retired",
        "defeated",
        "removed",
        "commander",
        "revealed",
        "cp",
        "mulligans",
    )

    def __init__(self) -> None:
        self.hand: list[int] = []
        self.deck: list[int] = []
        self.energy: list[int] = []
        self.retired: list[int] = []
        self.defeated: list[int] = []
        self.removed: list[int] = []
        self.commander: int | None = None
        self.revealed = False
        self.cp = 0
        self.mulligans = 0

    def copy(self) -> Side:
        s = Side()  # not ``Side.__new__``: see ``Unit.copy``
        s.hand, s.deck, s.energy = list(self.hand), list(self.deck), list(self.energy)
        s.retired, s.defeated, s.removed = list(self.retired), list(self.defeated), list(self.removed)
        s.commander, s.revealed, s.cp, s.mulligans = self.commander, self.revealed, self.cp, self.mulligans
        return s

    def zone(self, name: str) -> list[int]:
        """The zone called ``name`` (one of ``ZONES``, C-2.4), the list itself (callers change it)."""
        if name == "hand":
            return self.hand
        if name == "energy":
            return self.energy
        if name == "retired":
            return self.retired
        if name == "deck":
            return self.deck
        if name == "defeated":
            return self.defeated
        if name == "removed":
            return self.removed
        raise ValueError(f"unknown zone {name!r} (zones: {', '.join(ZONES)})")


ZONES = ("hand", "deck", "energy", "retired", "defeated", "removed")


def deploy_squares(st: GameState) -> list[int]:
    """C-5.2: empty squares a unit may be deployed to: next to any unit, or a start square (C-2.2)
    for the first unit of the game — and on any later empty battlefield unless
    ``RulesConfig.start_squares_when_battlefield_empty`` is off."""
    board = st.board
    if not st.units:
        if st.units_deployed and not st.config.start_squares_when_battlefield_empty:
            return []
        return [s for s in START_SQUARES if board[s] is None]
    nb = st.nb
    out = set()
    for u in st.units.values():
        for s in nb[u.sq]:
            if board[s] is None:
                out.add(s)
    return sorted(out)


def move_squares(st: GameState, uid: int, counts: dict[int, int] | None = None) -> list[int]:
    """C-5.2: empty squares adjacent to another card than ``uid`` itself."""
    if counts is None:
        counts = neighbour_counts(st)
    own = st.nb[st.units[uid].sq]
    return [s for s, n in counts.items() if n > 1 or (n == 1 and s not in own)]


def neighbour_counts(st: GameState) -> dict[int, int]:
    """Empty square -> number of occupied neighbours (only squares with at least one), sorted by square."""
    board = st.board
    nb = st.nb
    counts: dict[int, int] = {}
    for u in st.units.values():
        for s in nb[u.sq]:
            if board[s] is None:
                counts[s] = counts.get(s, 0) + 1
    return dict(sorted(counts.items()))


def draw(st: GameState, p: int, n: int) -> None:
    """Player ``p`` draws up to ``n`` cards from the top of the deck (fewer when it runs out)."""
    side = st.sides[p]
    drawn = []
    for _ in range(n):
        if not side.deck:
            break
        c = side.deck.pop()
        side.hand.append(c)
        drawn.append(c)
    if drawn:
        st.event("draw", player=p, cards=drawn, secret=True)


def units_of(st: GameState, p: int) -> list[int]:
    """Player ``p``'s units on the battlefield, by id."""
    return sorted(uid for uid, u in st.units.items() if u.owner == p)


def move_unit(st: GameState, uid: int, sq: int) -> None:
    """Move a unit to the empty square ``sq`` (C-5.2 Move, or a move effect)."""
    u = st.units[uid]
    st.cont_cache = None
    st.board[u.sq] = None
    st.board[sq] = uid
    st.event("move", card=uid, frm=square_name(u.sq), to=square_name(sq))
    u.sq = sq


def leave(st: GameState, uid: int) -> Unit:
    """Take a unit off the battlefield; its Ongoing events go to their owners' Retired zones (C-1.3)."""
    u = st.units.pop(uid)
    st.cont_cache = None
    st.board[u.sq] = None
    for ev in u.attached:
        st.sides[st.owners[ev]].retired.append(ev)
    st.marks.pop(uid, None)
    return u


def take_from_hand(st: GameState, side: Side, c: int) -> None:
    """Take a played card from the hand, or from the Commander zone (C-4.5)."""
    if side.commander == c:
        side.commander = None
    else:
        side.hand.remove(c)
