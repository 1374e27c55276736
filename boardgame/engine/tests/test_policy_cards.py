"""The rollout policy's house card (`heuristics.house_card_choice`, W-9.4): the best reply to the
opponent's cards taken as equally likely, as the search plays it, so that the house choosing first models
its opponent's reply (Balon Greyjoy against a strong card) instead of assuming the strongest card in hand."""

from __future__ import annotations

from random import Random

from boardgame.engine.actions import PlayHouseCard
from boardgame.engine.game import WesterosState
from boardgame.engine.heuristics import greedy_score, house_card_choice, policy_action

from .conftest import combat, pending


def _greyjoy_defends(att_units: list[str]) -> WesterosState:
    """A Lannister march from Stoney Sept on a Greyjoy footman in Harrenhal (a castle), both hands full,
    both cards still to choose; Greyjoy holds the Valyrian Steel Blade and tops Fiefdoms (the set-up)."""
    st = combat(att_units, ["footman"], None, None, dfn="greyjoy")
    assert pending(st).kind == "house_card" and "greyjoy" in pending(st).players
    return st


def _picks(st: WesterosState, house: str, n: int = 20) -> set[str]:
    out = set()
    for i in range(n):
        a = policy_action(st.clone(), house, Random(i), 0.6)
        assert isinstance(a, PlayHouseCard)
        out.add(a.card)
    return out


def test_balon_against_a_strong_army_w_9_4_w_17_1() -> None:
    """Knight and footman (3) against a footman, Blade and tie-break (W-9.6, W-9.8): Euron (4) loses only to
    Tywin's 4 plus the army's lead, but Balon sets every Lannister card to 0 and wins against all seven."""
    st = _greyjoy_defends(["footman", "knight"])
    assert _picks(st, "greyjoy") == {"balon_greyjoy"}
    # The greedy level's one-step score (unchanged) still plays the highest printed strength.
    legal = [a for a in st.legal_actions("greyjoy") if isinstance(a, PlayHouseCard)]
    assert max(legal, key=lambda a: greedy_score(st, "greyjoy", a)).card == "euron_crows_eye"


def test_a_strong_card_is_kept_when_a_weaker_one_wins_as_surely() -> None:
    """A footman against a footman: Theon (defending a castle, +1 and a sword) and Balon win against every
    Lannister card, so Euron stays in hand; Theon's extra sword makes it the pick."""
    st = _greyjoy_defends(["footman"])
    assert _picks(st, "greyjoy") == {"theon_greyjoy"}


def test_the_attacker_reads_the_defenders_reply_too() -> None:
    """Lannister's reply to Greyjoy's seven cards taken as equally likely, a footman against a footman:
    Greyjoy wins ties and holds the Blade, so Lannister's best cards beat only Greyjoy's three weakest.
    Tywin (4) and Gregor (3) win those same three; Gregor's three swords kill more and Tywin stays in hand."""
    st = _greyjoy_defends(["footman"])
    acts = [a for a in st.legal_actions("lannister") if isinstance(a, PlayHouseCard)]
    before = dict(st.combat.cards) if st.combat is not None else None
    choice = house_card_choice(st, "lannister", acts, Random(0), 0.0)
    assert isinstance(choice, PlayHouseCard) and choice.card == "ser_gregor_clegane"
    # The running combat is left as it was (no card revealed by the look-ahead).
    assert st.combat is not None and st.combat.cards == before == {"lannister": None, "greyjoy": None}
