"""C-3 deck rules have one source (``matches.engine.deckrules``): the engine's match-start check and the
deck builder's validator give the same verdict and the same messages."""

from __future__ import annotations

from typing import Any

import pytest

from decks.validation import validate_deck
from matches.engine import build_deck, card_from_dict, load_card_file, new_match
from matches.engine.cards import deck_problems
from matches.engine.deckrules import DEFAULT_DECK_RULES, DeckRules, deck_issues, max_copies
from matches.engine.tests.pool import pool_file

CAT = load_card_file(pool_file())


def _deck(faction: str = "ember") -> list[dict[str, Any]]:
    return list(build_deck(CAT, faction)["cards"])


def _builder_messages(cards: list[dict[str, Any]]) -> list[str]:
    counts: dict[str, list[Any]] = {}
    for c in cards:
        counts.setdefault(c["name"], [c, 0])[1] += 1
    verdict = validate_deck([(c, n) for c, n in counts.values()])
    return [i.message for i in verdict.errors]


def _engine_messages(cards: list[dict[str, Any]]) -> list[str]:
    return deck_problems([card_from_dict(c) for c in cards])


@pytest.mark.django_db  # the builder names an off-faction card's faction as the database translates it
@pytest.mark.parametrize(
    "change",
    ["legal", "too_few", "fifth_copy", "second_legendary", "mixed"],
)
def test_engine_and_builder_agree_on_every_deck_rule_c_3_1_c_3_2_c_3_3_c_3_4(change: str) -> None:
    cards = _deck()
    if change == "too_few":
        cards = cards[:49]
    elif change == "fifth_copy":
        plain = next(c for c in cards if not c.get("legendary") and not c.get("unique"))
        cards = cards + [plain] * (5 - sum(1 for c in cards if c["name"] == plain["name"]))
    elif change == "second_legendary":
        legend = next(c for c in CAT.values() if c.legendary and c.faction == "ember" and c.type == "unit")
        cards = cards + [dict(legend.raw)] * 2
    elif change == "mixed":
        cards = cards + [dict(next(c for c in CAT.values() if c.faction == "tide").raw)]
    engine, builder = _engine_messages(cards), _builder_messages(cards)
    assert engine == builder
    assert (engine == []) == (change == "legal")


def test_the_deck_rules_numbers_are_the_digests_c_3_1_c_3_2_c_3_3() -> None:
    assert (DEFAULT_DECK_RULES.min_cards, DEFAULT_DECK_RULES.max_copies) == (50, 4)
    legend = next(c for c in CAT.values() if c.legendary and c.type == "unit")
    plain = next(c for c in CAT.values() if not c.legendary and not c.unique)
    assert max_copies(legend) == legend.max_copies() == 1 and max_copies(plain) == plain.max_copies() == 4


def test_other_deck_rules_change_both_checks_c_3_1() -> None:
    cards = [card_from_dict(c) for c in _deck()[:40]]
    pairs = [(c, 1) for c in cards]
    assert [i.code for i in deck_issues(pairs)] == ["too_few_cards"]
    assert deck_issues(pairs, rules=DeckRules(min_cards=40)) == []


def test_a_match_refuses_an_illegal_deck_with_the_builders_message_c_3_1() -> None:
    with pytest.raises(ValueError, match=r"49 cards: a deck needs at least 50 \(C-3.1\)"):
        new_match({"cards": _deck()[:49]}, {"cards": _deck("tide")}, seed=1)
