"""The one deck validator, rule by rule at each boundary (C-3.1–C-3.5, C-4.1). No database."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.cardfacts import CardFacts
from decks.tests.factories import COMMONS, POOL, facts, legal_entries
from decks.validation import DeckRules, validate_deck


def codes(result) -> list[tuple[str, str]]:
    return [(i.rule, i.code) for i in result.errors]


def with_count(name: str, count: int) -> list[tuple[CardFacts, int]]:
    return [(card, count if card.name == name else n) for card, n in legal_entries()]


def test_the_legal_deck_is_valid_with_no_warning():
    result = validate_deck(legal_entries(), commander=facts("Blaze Queen"), faction="fire")
    assert result.valid and result.errors == [] and result.warnings == []
    assert result.total_cards == 50


def test_49_cards_is_rejected_c_3_1():
    result = validate_deck(with_count("Ember Scout", 3))
    assert not result.valid
    assert [i.message for i in result.errors] == ["49 cards: a deck needs at least 50 (C-3.1)"]
    assert codes(result) == [("C-3.1", "too_few_cards")]


def test_50_cards_is_enough_c_3_1():
    assert validate_deck(legal_entries()).valid


def test_fourth_copy_is_allowed_c_3_2():
    assert validate_deck(with_count("Ember Scout", 4)).valid


def test_fifth_copy_is_rejected_c_3_2():
    result = validate_deck(with_count("Ember Scout", 5))
    assert [i.message for i in result.errors] == ["5 copies of Ember Scout: at most 4 (C-3.2)"]
    assert result.errors[0].cards == ["Ember Scout"]


def test_copies_are_summed_across_entries_c_3_2():
    entries = legal_entries() + [(facts("Ember Scout"), 1)]
    result = validate_deck(entries)
    assert codes(result) == [("C-3.2", "too_many_copies")]
    assert "5 copies of Ember Scout" in result.errors[0].message


def test_copies_are_summed_by_name_case_insensitively_c_3_2():
    other = CardFacts(name="EMBER SCOUT", faction="fire", card_type="unit")
    result = validate_deck(legal_entries() + [(other, 1)])
    assert codes(result) == [("C-3.2", "too_many_copies")]


def test_one_legendary_unit_is_allowed_c_3_3():
    assert validate_deck(with_count("Blaze Queen", 1)).valid


def test_second_copy_of_a_legendary_unit_is_rejected_c_3_3():
    result = validate_deck(with_count("Blaze Queen", 2))
    assert codes(result) == [("C-3.3", "too_many_copies_of_one_of")]
    assert result.errors[0].message.startswith("2 copies of Blaze Queen: a Legendary unit")
    assert result.errors[0].cards == ["Blaze Queen"]


def test_one_unique_event_is_allowed_and_a_second_is_rejected_c_3_3():
    assert validate_deck(with_count("Inferno", 1)).valid
    result = validate_deck(with_count("Inferno", 2))
    assert codes(result) == [("C-3.3", "too_many_copies_of_one_of")]
    assert "a Unique event" in result.errors[0].message


def test_two_factions_are_rejected_naming_the_off_faction_cards_c_3_4():
    result = validate_deck(legal_entries() + [(facts("Tide Caller"), 1)])
    assert codes(result) == [("C-3.4", "mixed_factions")]
    assert result.errors[0].cards == ["Tide Caller"]
    assert "Tide Caller (Water)" in result.errors[0].message and "not Fire" in result.errors[0].message


def test_declared_faction_makes_every_other_card_off_faction_c_3_4():
    result = validate_deck(legal_entries(), faction={"slug": "water", "name": "Water"})
    assert codes(result) == [("C-3.4", "mixed_factions")]
    assert len(result.errors[0].cards) == 14


def test_single_faction_has_no_faction_error_c_3_4():
    assert validate_deck(legal_entries(), faction="fire").valid


def without_blaze_queen() -> list[tuple[CardFacts, int]]:
    """The legal deck with its Legendary unit swapped for a 50th common card."""
    spare = CardFacts(name="Ash Scout", faction="fire", card_type="unit")
    return [(c, n) for c, n in legal_entries() if c.name != "Blaze Queen"] + [(spare, 1)]


def test_deck_without_legendary_is_legal_with_a_warning_c_3_5():
    result = validate_deck(without_blaze_queen())
    assert result.valid and result.total_cards == 50
    assert [(w.rule, w.code) for w in result.warnings] == [("C-3.5", "no_legendary_unit")]


def test_commander_must_be_a_legendary_unit_c_4_1():
    result = validate_deck(legal_entries(), commander=facts("Ember Scout"))
    assert codes(result) == [("C-4.1", "commander_not_legendary")]


def test_commander_must_be_in_the_deck_c_4_1():
    result = validate_deck(without_blaze_queen(), commander=facts("Blaze Queen"))
    assert codes(result) == [("C-4.1", "commander_not_in_deck")]


def test_several_problems_are_all_reported():
    entries = [(facts("Ember Scout"), 5), (facts("Blaze Queen"), 2), (facts("Tide Caller"), 1)]
    rules = {i.rule for i in validate_deck(entries).errors}
    assert rules == {"C-3.1", "C-3.2", "C-3.3", "C-3.4"}


def test_plain_card_json_is_accepted():
    entries = [(c, 4) for c in POOL if c["name"] in COMMONS] + [(POOL[12], 1), (POOL[13], 1)]
    assert validate_deck(entries, commander=POOL[12], faction="fire").valid


def test_database_rows_are_accepted(cards):
    entries = [(cards[n], 4) for n in COMMONS] + [(cards["Blaze Queen"], 1), (cards["Tide Caller"], 2)]
    result = validate_deck(entries, commander=cards["Blaze Queen"], faction=cards["Blaze Queen"].faction)
    assert codes(result) == [("C-3.4", "mixed_factions")]


def test_rules_config_holds_the_numbers():
    small = DeckRules(min_cards=10, max_copies=2)
    result = validate_deck([(facts("Ember Scout"), 3), (facts("Ash Runner"), 8)], rules=small)
    assert {i.rule for i in result.errors} == {"C-3.2"}


def test_a_count_below_one_is_a_programming_error():
    with pytest.raises(ValueError):
        validate_deck([(facts("Ember Scout"), 0)])


def test_validation_of_a_60_card_deck_is_fast():
    entries = legal_entries() + [(facts("Ember Scout"), 10)]
    validate_deck(entries)
    runs = []
    for _ in range(50):
        start = time.perf_counter()
        validate_deck(entries, commander=facts("Blaze Queen"), faction="fire")
        runs.append(time.perf_counter() - start)
    runs.sort()
    assert runs[len(runs) // 2] < 0.002  # target 2 ms (bench/decks.py measures it properly)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from([c["name"] for c in POOL]), st.integers(1, 6)), max_size=30),
    st.randoms(use_true_random=False),
)
def test_splitting_or_reordering_entries_never_changes_the_verdict(entries, rng):
    """Copies are summed by name: how a list is split into lines or ordered does not matter (C-3.2)."""
    merged: dict[str, int] = {}
    for name, count in entries:
        merged[name] = merged.get(name, 0) + count
    shuffled = [(facts(name), count) for name, count in entries]
    rng.shuffle(shuffled)
    a = validate_deck(shuffled)
    b = validate_deck([(facts(name), count) for name, count in merged.items()])
    assert a.valid == b.valid
    assert sorted((i.rule, tuple(sorted(i.cards))) for i in a.errors) == sorted(
        (i.rule, tuple(sorted(i.cards))) for i in b.errors
    )
    assert a.total_cards == sum(merged.values())
    too_many = {n for n, c in merged.items() if c > (1 if n in ("Blaze Queen", "Inferno") else 4)}
    assert {name for i in a.errors if i.rule in ("C-3.2", "C-3.3") for name in i.cards} == too_many
