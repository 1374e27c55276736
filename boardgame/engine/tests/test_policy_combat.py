"""The rollout policy's read of a combat (`heuristics.combat_outlook`, W-9): the search models the other
houses with this policy, so it must see what decides a fight — house cards (W-9.4), the Valyrian Steel
Blade (W-9.6), own Support orders (W-9.2) and the Fiefdoms tie-break (W-9.8) — not the units alone."""

from __future__ import annotations

from random import Random

from boardgame.engine.actions import ChooseMarch, MarchMove
from boardgame.engine.game import WesterosState
from boardgame.engine.heuristics import combat_outlook, greedy_score, policy_action

from .conftest import do, pos

FIEFDOMS_STARK_FIRST = ["stark", "lannister", "greyjoy", "tyrell", "martell", "baratheon"]
FIEFDOMS_LANNISTER_FIRST = ["lannister", "stark", "greyjoy", "tyrell", "martell", "baratheon"]
ATTACK = MarchMove("lannister", ("footman",), "harrenhal")


def _marching(fiefdoms: list[str], **kw: object) -> WesterosState:
    """A Lannister footman in Stoney Sept (March +0) may attack a Stark footman in Harrenhal; Lannister
    could also stay put (W-7.1). Both hands full, the Blade unused."""
    units = {"stoney_sept": ["lannister", "footman"], "harrenhal": ["stark", "footman"]}
    units.update(kw.pop("units", {}))  # type: ignore[call-overload]
    orders = {"stoney_sept": "march"}
    orders.update(kw.pop("orders", {}))  # type: ignore[call-overload]
    st = pos(units=units, orders=orders, tracks={"fiefdoms": fiefdoms}, start="action", **kw)
    do(st, ChooseMarch("lannister", "stoney_sept"))
    assert ATTACK in st.legal_actions("lannister")
    return st


def test_an_even_fight_goes_to_the_house_higher_on_fiefdoms_w_9_8() -> None:
    lost = _marching(FIEFDOMS_STARK_FIRST)
    won = _marching(FIEFDOMS_LANNISTER_FIRST)
    # Same units, same cards: the Blade's holder (W-9.6) and the tie-break (W-9.8) decide.
    assert combat_outlook(lost, "lannister", ATTACK) < 0 < combat_outlook(won, "lannister", ATTACK)  # type: ignore[operator]
    # greedy_score (the greedy level, unchanged) counts units alone and calls both a win.
    assert greedy_score(lost, "lannister", ATTACK) == greedy_score(won, "lannister", ATTACK)


def test_the_blade_counts_only_while_unused_w_9_6() -> None:
    fresh = combat_outlook(_marching(FIEFDOMS_STARK_FIRST), "lannister", ATTACK)
    used = combat_outlook(_marching(FIEFDOMS_STARK_FIRST, blade_used=True), "lannister", ATTACK)
    assert fresh is not None and used is not None and used == fresh + 1.0


def test_own_support_and_the_cards_in_hand_count_w_9_2_w_9_4() -> None:
    alone = combat_outlook(_marching(FIEFDOMS_STARK_FIRST), "lannister", ATTACK)
    backed = _marching(
        FIEFDOMS_STARK_FIRST, units={"riverrun": ["lannister", "knight"]}, orders={"riverrun": "support"}
    )
    weak = _marching(FIEFDOMS_STARK_FIRST, hands={"stark": ["catelyn_stark", "the_blackfish"]})
    assert alone is not None
    assert combat_outlook(backed, "lannister", ATTACK) == alone + 2.0  # a supporting knight
    edge = combat_outlook(weak, "lannister", ATTACK)
    assert edge is not None and edge > alone  # Stark holds only weak cards


def test_the_rollout_policy_stays_out_of_a_tie_it_would_lose_and_takes_one_it_wins() -> None:
    def attacks(st: WesterosState) -> int:
        return sum(policy_action(st.clone(), "lannister", Random(i), 0.6) == ATTACK for i in range(40))

    assert attacks(_marching(FIEFDOMS_LANNISTER_FIRST)) >= 30
    assert attacks(_marching(FIEFDOMS_STARK_FIRST)) <= 10


def test_no_outlook_without_a_house_to_fight() -> None:
    st = _marching(FIEFDOMS_STARK_FIRST, units={"harrenhal": ["lannister", "knight"]})
    assert combat_outlook(st, "lannister", MarchMove("lannister", ("footman",), "harrenhal")) is None


def test_the_policy_takes_the_castle_that_wins_the_game_w_18_1() -> None:
    """Stoney Sept's footman may walk into an empty Harrenhal (a castle) or Blackwater (none). With one
    castle short of `castles_to_win`, the policy takes Harrenhal, and with it the game, every time."""
    st = pos(
        units={
            "stoney_sept": ["lannister", "footman"],
            "lannisport": ["lannister", "footman"],
            "riverrun": ["lannister", "footman"],
        },
        orders={"stoney_sept": "march"},
        garrisons={},
        start="action",
        config={"castles_to_win": 3},
    )
    do(st, ChooseMarch("lannister", "stoney_sept"))
    take = MarchMove("lannister", ("footman",), "harrenhal")
    assert st.castle_count("lannister") == 2 and take in st.legal_actions("lannister")
    # With this much noise a plain castle (worth 5 more than Blackwater) loses the draw now and then.
    assert all(policy_action(st.clone(), "lannister", Random(i), 12.0) == take for i in range(40))
