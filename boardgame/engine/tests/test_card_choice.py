"""The AI's house card (`card_choice`, W-9.4): a combat's cards as a zero-sum game whose equilibrium mix
the rollout policy draws from and the search weighs its choice by, so the side choosing first cannot read
the reply (a pure best reply to a uniform draw, the earlier model, was read and beaten every time)."""

from __future__ import annotations

from random import Random

import pytest

from boardgame.engine.actions import PlayHouseCard
from boardgame.engine.card_choice import card_game, card_mix, equilibrium
from boardgame.engine.game import WesterosState
from boardgame.engine.heuristics import greedy_score, policy_action
from boardgame.engine.search import SearchAgent

from .conftest import combat, pending, pure_python_only


def _greyjoy_defends(att_units: list[str], def_units: list[str] | None = None) -> WesterosState:
    """A Lannister march from Stoney Sept on Greyjoy in Harrenhal (a castle), both hands full, both cards
    still to choose; Greyjoy holds the Valyrian Steel Blade and tops Fiefdoms (the set-up)."""
    st = combat(att_units, def_units or ["footman"], None, None, dfn="greyjoy")
    assert pending(st).kind == "house_card" and set(pending(st).players) == {"lannister", "greyjoy"}
    return st


def _policy_picks(st: WesterosState, house: str, n: int = 40) -> list[str]:
    out = []
    for i in range(n):
        a = policy_action(st.clone(), house, Random(i), 0.6)
        assert isinstance(a, PlayHouseCard)
        out.append(a.card)
    return out


def _gap(u: list[list[float]], x: list[float], y: list[float]) -> float:
    """Exploitability: what the best pure replies to `y` and to `x` gain over each other (0 at equilibrium)."""
    best_row = max(sum(a * b for a, b in zip(row, y, strict=True)) for row in u)
    best_col = min(sum(u[i][j] * x[i] for i in range(len(u))) for j in range(len(u[0])))
    return best_row - best_col


@pytest.mark.parametrize(
    ("u", "x", "y"),
    [
        ([[1, -1], [-1, 1]], [0.5, 0.5], [0.5, 0.5]),  # matching pennies
        ([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], [1 / 3] * 3, [1 / 3] * 3),  # rock, paper, scissors
        ([[2, 3], [0, 1]], [1.0, 0.0], [1.0, 0.0]),  # a dominant row, then the column that loses least
        ([[3, -1], [-2, 1]], [3 / 7, 4 / 7], [2 / 7, 5 / 7]),  # an uneven mix (value 1/7)
    ],
)
def test_equilibrium_of_small_zero_sum_games(u: list[list[float]], x: list[float], y: list[float]) -> None:
    gx, gy = equilibrium(u, 400)
    assert gx == pytest.approx(x, abs=0.03) and gy == pytest.approx(y, abs=0.03)
    assert _gap(u, *equilibrium(u)) < 0.05  # the default iterations: within 5% of a combat's worth


def test_balon_against_a_strong_army_w_9_4_w_17_1() -> None:
    """Knight and footman (3) against a footman, Blade and tie-break (W-9.6, W-9.8): Euron (4) loses only to
    Tywin's 4 plus the army's lead, but Balon sets every Lannister card to 0 and wins against all seven, so
    the equilibrium is Balon for sure, and Lannister, beaten anyway, plays a card it does not need."""
    st = _greyjoy_defends(["footman", "knight"])
    assert card_mix(st, "greyjoy") == {"balon_greyjoy": 1.0}
    assert set(_policy_picks(st, "greyjoy")) == {"balon_greyjoy"}
    assert set(card_mix(st, "lannister")) <= {"cersei_lannister", "ser_kevan_lannister", "tyrion_lannister"}
    # The greedy level's one-step score (unchanged) still plays the highest printed strength.
    legal = [a for a in st.legal_actions("greyjoy") if isinstance(a, PlayHouseCard)]
    assert max(legal, key=lambda a: greedy_score(st, "greyjoy", a)).card == "euron_crows_eye"


def test_a_close_combat_is_a_mixed_choice_that_cannot_be_read() -> None:
    """Two footmen and a knight (4) against a knight in a castle with the Blade and the tie-break (4): each
    side's best card depends on the other's, so each mixes two cards near half and half and neither side
    gains by a pure reply to the other's mix; the rollout policy plays both of its cards."""
    st = _greyjoy_defends(["footman", "footman", "knight"], ["knight"])
    att, dfn = card_mix(st, "lannister"), card_mix(st, "greyjoy")
    assert set(att) == {"tywin_lannister", "ser_kevan_lannister"}
    assert set(dfn) == {"euron_crows_eye", "balon_greyjoy"}
    assert all(0.3 < p < 0.7 for p in (*att.values(), *dfn.values()))
    rows, cols, u = card_game(st)
    x = [att.get(r, 0.0) for r in rows]
    y = [dfn.get(k, 0.0) for k in cols]
    assert _gap(u, x, y) < 0.05
    for house, mix in (("lannister", att), ("greyjoy", dfn)):
        picks = _policy_picks(st, house)
        assert set(picks) == set(mix), f"{house} drew {sorted(set(picks))}"


def test_a_kept_card_is_the_only_option_while_the_other_side_chooses_again_w_17_1() -> None:
    """Tyrion Lannister sent Greyjoy's card back: Lannister's Tyrion stays on the table, so the game is
    Greyjoy's choice against that one card."""
    st = _greyjoy_defends(["footman"])
    assert st.combat is not None
    st.combat.cards["lannister"] = "tyrion_lannister"
    rows, cols, _u = card_game(st)
    assert rows == ["tyrion_lannister"] and len(cols) == 7
    assert card_mix(st, "lannister") == {"tyrion_lannister": 1.0}


def test_both_sides_get_what_a_fresh_solve_gives() -> None:
    """The solved combat is kept for the other side's question (one solve per combat), never for another
    state or a changed choice."""
    st = _greyjoy_defends(["footman", "footman", "knight"], ["knight"])
    first = {h: card_mix(st, h) for h in ("lannister", "greyjoy")}
    assert first == {h: card_mix(st.clone(), h) for h in ("greyjoy", "lannister")}
    assert st.combat is not None
    st.combat.cards["lannister"] = "tyrion_lannister"
    assert card_mix(st, "lannister") == {"tyrion_lannister": 1.0}
    assert card_mix(st, "greyjoy") != first["greyjoy"]


@pytest.mark.pure_only
def test_the_look_ahead_leaves_the_combat_untouched() -> None:
    st = _greyjoy_defends(["footman"])
    before = st.to_dict()
    card_mix(st, "lannister")
    card_mix(st, "greyjoy")
    assert st.to_dict() == before
    assert st.combat is not None and st.combat.cards == {"lannister": None, "greyjoy": None}


def _search_choices(monkeypatch: pytest.MonkeyPatch, values: dict[str, float], n: int = 40) -> list[str]:
    """`hard`'s cards in the close combat when its simulations rate the cards `values` (others 0.2)."""
    pure_python_only()  # replaces SearchAgent.search_values
    st = _greyjoy_defends(["footman", "footman", "knight"], ["knight"])

    def rated(
        self: SearchAgent,
        info: object,
        cands: list[tuple[PlayHouseCard, ...]],
        clock: object,
        *,
        log: bool = True,
    ) -> list[tuple[int, float]]:
        assert not log  # house cards weigh chances (`card_temperature`), not their log
        return [(i, values.get(c[0].card, 0.2)) for i, c in enumerate(cands)]

    monkeypatch.setattr(SearchAgent, "search_values", rated)
    picks = []
    for seed in range(n):
        a = SearchAgent(Random(seed), iterations=8).choose(st.clone(), "greyjoy")
        assert isinstance(a, PlayHouseCard)
        picks.append(a.card)
    return picks


def test_the_search_draws_its_card_from_the_mix_w_9_4(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the rest of the game rates the cards alike, `hard` plays its mix: both of its cards, not the
    same one every time, and seldom another."""
    picks = _search_choices(monkeypatch, {})
    mixed = [c for c in picks if c in ("euron_crows_eye", "balon_greyjoy")]
    assert len(mixed) >= 34, picks
    assert 10 <= picks.count("euron_crows_eye") <= 30, picks


def test_the_search_overrules_the_mix_when_the_game_rates_a_card_far_higher(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A card the simulations rate 0.1 (a tenth of a win) above the mix's cards is played every time."""
    picks = _search_choices(monkeypatch, {"asha_greyjoy": 0.3})
    assert set(picks) == {"asha_greyjoy"}, picks
