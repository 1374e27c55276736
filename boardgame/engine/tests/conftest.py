"""Fixtures and helpers for the Westeros engine tests (no database)."""

from __future__ import annotations

from typing import Any

import pytest

from boardgame.engine.actions import (
    Action,
    Choose,
    ChooseMarch,
    DeclareSupport,
    EndMarch,
    MarchMove,
    PlayHouseCard,
    ResolveRaid,
)
from boardgame.engine.data import GameData, load_default_game_data
from boardgame.engine.game import Outcome, WesterosState
from boardgame.engine.position import from_position

_DATA = load_default_game_data()


@pytest.fixture(scope="session")
def gd() -> GameData:
    return _DATA


def pos(**kw: Any) -> WesterosState:
    """A position (docs/westeros-position.md) with 6 houses unless told otherwise."""
    if "houses" not in kw and "player_count" not in kw:
        kw["player_count"] = 6
    return from_position(_DATA, kw)


def do(st: WesterosState, action: Action) -> WesterosState:
    """Apply a checked action (fails the test if it is not legal)."""
    st.apply(action)
    return st


def choose(st: WesterosState, player: str, decision: str, option: str) -> WesterosState:
    return do(st, Choose(player, decision, option))


def raid_actions(st: WesterosState, player: str) -> list[ResolveRaid]:
    """The legal Raid resolutions of `player`."""
    return [a for a in st.legal_actions(player) if isinstance(a, ResolveRaid)]


def pending(st: WesterosState) -> dict[str, Any]:
    """The pending decision (the test expects one)."""
    assert st.pending is not None, "no decision is pending"
    return st.pending


def combat_of(st: WesterosState) -> dict[str, Any]:
    """The running combat (the test expects one)."""
    assert st.combat is not None, "no combat is running"
    return st.combat


def outcome_of(st: WesterosState) -> Outcome:
    """The outcome of a finished game."""
    out = st.outcome()
    assert out is not None, "the game is not over"
    return out


def pending_decision(st: WesterosState) -> tuple[str, list[str]]:
    assert st.pending is not None
    return st.pending.get("decision", st.pending["kind"]), list(st.pending["players"])


def combat(
    att_units: list[str],
    def_units: list[str],
    att_card: str | None,
    def_card: str | None,
    *,
    att: str = "lannister",
    dfn: str = "stark",
    src: str = "stoney_sept",
    dest: str = "harrenhal",
    token: str = "march",
    extra_units: dict[str, list[str]] | None = None,
    orders: dict[str, str] | None = None,
    supports: dict[str, str] | None = None,
    blocker_order: bool = True,
    **kw: Any,
) -> WesterosState:
    """Set up a march from `src` into `dest` and drive it up to (and including) the house cards."""
    units = {src: [att, *att_units]}
    if def_units:
        units[dest] = [dfn, *def_units]
    units.update(extra_units or {})
    all_orders = {src: token, **(orders or {})}
    # A Consolidate Power order of an uninvolved house keeps the round from reaching clean-up.
    blocker = next(h for h in ("martell", "tyrell", "baratheon") if h not in (att, dfn))
    barea = {"martell": "sunspear", "tyrell": "highgarden", "baratheon": "kingswood"}[blocker]
    if blocker_order and barea not in units:
        units[barea] = [blocker, "footman"]
        all_orders[barea] = "consolidate_power"
    st = pos(units=units, orders=all_orders, start="action", **kw)
    do(st, ChooseMarch(att, src))
    do(
        st,
        MarchMove(
            att, tuple(sorted(att_units, key=["footman", "knight", "siege_engine", "ship"].index)), dest
        ),
    )
    do(st, EndMarch(att, False))
    for _ in range(10):
        if st.pending and st.pending["kind"] == "support":
            p = st.pending["players"][0]
            do(st, DeclareSupport(p, (supports or {}).get(p, "none")))
    if st.pending and st.pending["kind"] == "house_card":
        for h, card in ((att, att_card), (dfn, def_card)):
            if card is not None and h in st.pending["players"]:
                do(st, PlayHouseCard(h, card))
    return st
