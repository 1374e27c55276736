"""Every card's abilities run from its data (C-1.5): one scenario per card and trigger, for the test pool
and for every card of the sample set ``cards/data/sample_cards.json``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from matches.engine import load_card_file
from matches.engine.decks import SAMPLE_CARDS as SAMPLE
from matches.engine.tests.card_harness import run_trigger, triggers_of
from matches.engine.tests.pool import pool_cards


def _sample_cards() -> list[dict[str, Any]]:
    if not SAMPLE.exists():
        return []
    data = json.loads(SAMPLE.read_text())
    load_card_file(data)  # every sample card parses and its abilities validate against the vocabulary
    return list(data["cards"])


POOL = pool_cards()
SAMPLE_CARDS = _sample_cards()


def _cases(cards: list[dict[str, Any]]) -> list[Any]:
    out = []
    for c in cards:
        trigs = triggers_of(c)
        if not trigs:
            out.append(pytest.param(c, None, id=f"{c['name']}-vanilla"))
        for t in trigs:
            out.append(pytest.param(c, t, id=f"{c['name']}-{t}"))
    return out


def _check(card: dict[str, Any], trigger: str | None, cards: list[dict[str, Any]]) -> None:
    catalog = {c["name"]: c for c in cards}
    if trigger is None:  # no ability: the card still loads and (units) can be deployed
        from matches.engine.tests.card_harness import Scenario

        sc = Scenario(card, "deploying" if card["type"] == "unit" else "on_play", catalog)
        assert sc.action is not None
        sc.g.apply(sc.action)
        while sc.g.decision is not None:
            sc.g.apply(sc.g.legal_actions(sc.g.current_players()[0])[0])
        if card["type"] == "unit":
            assert sc.g.board[14] is not None and sc.g.defs[sc.g.board[14]].name == card["name"]
        return
    problems = run_trigger(card, trigger, catalog)
    assert problems == []


@pytest.mark.parametrize(("card", "trigger"), _cases(POOL))
def test_pool_card_ability_does_what_its_data_says_c_1_5(card: dict[str, Any], trigger: str | None) -> None:
    _check(card, trigger, POOL)


@pytest.mark.skipif(not SAMPLE_CARDS, reason="sample card set not written yet")
@pytest.mark.parametrize(("card", "trigger"), _cases(SAMPLE_CARDS))
def test_sample_card_ability_does_what_its_data_says_c_1_5(card: dict[str, Any], trigger: str | None) -> None:
    _check(card, trigger, SAMPLE_CARDS)
