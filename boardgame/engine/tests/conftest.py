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
from boardgame.engine.structures import Combat, Pending
from matches.kit.tests.pure_only import pure_python_only as skip_when_compiled

_DATA = load_default_game_data()


def pure_python_only() -> None:
    """Skip a test that replaces an engine function or method, or subclasses an engine class, when the
    Westeros engine is compiled; the pure-Python pass of ``make test`` runs it (docs/speed.md)."""
    skip_when_compiled("boardgame.engine")


@pytest.fixture(scope="session")
def gd() -> GameData:
    return _DATA


# Stark's house cards but Eddard Stark (W-17.1): a hand (or discard pile) with Eddard on the other side.
STARK_CARDS_BUT_EDDARD = (
    "robb_stark",
    "roose_bolton",
    "greatjon_umber",
    "ser_rodrik_cassel",
    "the_blackfish",
    "catelyn_stark",
)
SECRET_KINDS = ("orders", "bid", "house_card")  # choices made in secret, all revealed together (W-20)


def pos(**kw: Any) -> WesterosState:
    """A position (docs/westeros-position.md) with 6 houses unless told otherwise."""
    if "houses" not in kw and "player_count" not in kw:
        kw["player_count"] = 6
    return from_position(_DATA, kw)


def last_round(units: dict[str, list[str]], supply: dict[str, int]) -> WesterosState:
    """A 3-player game (no garrisons) at the Action phase of round 10, the last one (W-18.2)."""
    return pos(player_count=3, round=10, start="action", garrisons={}, units=units, supply=supply)


def do(st: WesterosState, action: Action) -> WesterosState:
    """Apply a checked action (fails the test if it is not legal)."""
    st.apply(action)
    return st


def choose(st: WesterosState, player: str, decision: str, option: str) -> WesterosState:
    return do(st, Choose(player, decision, option))


def raid_actions(st: WesterosState, player: str) -> list[ResolveRaid]:
    """The legal Raid resolutions of `player`."""
    return [a for a in st.legal_actions(player) if isinstance(a, ResolveRaid)]


def pending(st: WesterosState) -> Pending:
    """The pending decision (the test expects one)."""
    assert st.pending is not None, "no decision is pending"
    return st.pending


def combat_of(st: WesterosState) -> Combat:
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
    return (st.pending.decision or st.pending.kind), list(st.pending.players)


def march_on_harrenhal(supporters: dict[str, list[str]]) -> WesterosState:
    """A Lannister footman marches from Stoney Sept on a Stark footman in Harrenhal; each area of
    `supporters` ({area: [house, *units]}) holds a Support order. Stops when support is asked (W-9.2)."""
    st = pos(
        units={"stoney_sept": ["lannister", "footman"], "harrenhal": ["stark", "footman"], **supporters},
        orders={"stoney_sept": "march", **dict.fromkeys(supporters, "support")},
        start="action",
    )
    do(st, ChooseMarch("lannister", "stoney_sept"))
    do(st, MarchMove("lannister", ("footman",), "harrenhal"))
    do(st, EndMarch("lannister", False))
    return st


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
        if st.pending and st.pending.kind == "support":
            p = st.pending.players[0]
            do(st, DeclareSupport(p, (supports or {}).get(p, "none")))
    if st.pending and st.pending.kind == "house_card":
        for h, card in ((att, att_card), (dfn, def_card)):
            if card is not None and h in st.pending.players:
                do(st, PlayHouseCard(h, card))
    return st


def check_secret_choice_hidden(st: WesterosState, p: str) -> None:
    """W-20.1/20.5/20.6: two different secret choices of `p` leave every other player's view and log
    identical (nothing to check on the last choice, which reveals everything at once)."""
    if st.pending is None or st.pending.kind not in SECRET_KINDS or len(st.pending.players) < 2:
        return
    by_slot: dict[str, list[Action]] = {}
    for a in st.legal_actions(p):
        by_slot.setdefault(str(getattr(a, "area", "") or a.kind), []).append(a)
    pair = next((g[:2] for g in by_slot.values() if len(g) >= 2), None)
    if pair is None:
        return
    s1, s2 = st.clone(), st.clone()
    s1.apply(pair[0])
    s2.apply(pair[1])
    for h in [*st.houses, None]:
        if h != p:
            assert s1.player_view(h) == s2.player_view(h), f"{p}'s secret {pair[0].kind} leaks to {h}"
            assert s1.log_view(h) == s2.log_view(h), f"{p}'s secret {pair[0].kind} leaks to {h}'s log"
