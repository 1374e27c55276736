"""The order the Westeros search tries its candidates in: best first by the one-step prior, so equal scores
and a short budget go to the prior's choice. A house far behind scores every option close to 0 (its win
chance, `heuristics.evaluate`, or exactly 0 when a simulation ends with another house's win), and the search
used to play the first legal option then: defenders supported the attacker of their own castle (W-9.2)."""

from __future__ import annotations

from random import Random

import pytest

from boardgame.engine import search
from boardgame.engine.actions import ChooseMarch, DeclareSupport, EndMarch, MarchMove
from boardgame.engine.game import WesterosState
from boardgame.engine.heuristics import evaluate
from boardgame.engine.information import Information
from boardgame.engine.search import SearchAgent

from .conftest import do, pending, pos, pure_python_only

# Lannister's power tokens hold five more castles (W-8.2) and its armies two of them: Stark is far behind.
LANNISTER_EMPIRE = dict.fromkeys(
    ["highgarden", "sunspear", "dragonstone", "storms_end", "oldtown"], "lannister"
)


def _stark_far_behind() -> WesterosState:
    """Round 9: two Lannister knights march from Stoney Sept on a Stark footman in Harrenhal; two Stark
    knights in Riverrun hold a Support order (W-9.2) and Stark is asked whom it supports: without its own
    support Stark loses Harrenhal in most combats, with it Stark wins most. Lannister's footmen in
    Lannisport and Oldtown keep Stark far behind with the seat constants too (`WesterosAIParams.seat_prior`
    counts against the Lannister seat)."""
    st = pos(
        units={
            "stoney_sept": ["lannister", "knight", "knight"],
            "harrenhal": ["stark", "footman"],
            "riverrun": ["stark", "knight", "knight"],
            "highgarden": ["lannister", "knight", "footman"],
            "storms_end": ["lannister", "knight", "footman"],
            "lannisport": ["lannister", "footman", "footman", "footman"],
            "oldtown": ["lannister", "footman", "footman"],
        },
        orders={"stoney_sept": "march", "riverrun": "support"},
        tokens=LANNISTER_EMPIRE,
        start="action",
        round=9,
        supply={"lannister": 6},
    )
    do(st, ChooseMarch("lannister", "stoney_sept"))
    do(st, MarchMove("lannister", ("knight", "knight"), "harrenhal"))
    do(st, EndMarch("lannister", False))
    assert pending(st).kind == "support" and pending(st).players == ["stark"]
    return st


def test_a_house_far_behind_supports_its_own_defence_w_9_2() -> None:
    st = _stark_far_behind()
    assert evaluate(st, "stark") < 0.1 < 0.8 < evaluate(st, "lannister")
    for seed in range(3):
        a = SearchAgent(Random(seed), iterations=12).choose(st, "stark")
        assert a == DeclareSupport("stark", "stark"), a


def test_candidates_come_best_first_by_the_prior() -> None:
    """A short budget simulates the first candidates and equal scores go to the earlier one: own side first."""
    st = _stark_far_behind()
    info = Information(st, "stark")
    cands = SearchAgent(Random(0)).candidates(info, info.legal_actions())
    assert cands[0] == (DeclareSupport("stark", "stark"),)
    assert {c[0] for c in cands} == set(info.legal_actions())


@pytest.mark.pure_only
def test_equal_scores_go_to_the_prior_w_9_2(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every simulation lost (another house wins, W-18.1): all options score 0 and the prior decides (it
    used to be the first legal option, supporting the attacker)."""
    pure_python_only()
    monkeypatch.setattr(search, "rollout", lambda *args, **kwargs: 0.0)
    st = _stark_far_behind()
    assert SearchAgent(Random(0), iterations=12).choose(st, "stark") == DeclareSupport("stark", "stark")
    assert SearchAgent(Random(0), iterations=12).choose(st.clone(), "stark") == DeclareSupport(
        "stark", "stark"
    )
