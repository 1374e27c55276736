"""Text, JSON and share-code decklists: parsing, errors with line numbers, suggestions, round trips."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.formats import (
    SHARE_CODE_PREFIX,
    DeckFormatError,
    MappingCatalog,
    decode_share_code,
    encode_share_code,
    export_json,
    export_text,
    parse_any,
    parse_json,
    parse_text,
    resolve,
)
from decks.tests.factories import LEGAL_TEXT, POOL, facts
from decks.validation import validate_deck

CATALOG = MappingCatalog([facts(c["name"]) for c in POOL])


def read(text: str):
    return resolve(parse_text(text), CATALOG)


def counts(resolved) -> dict[str, int]:
    return {card.name: n for card, n in resolved.entries}


def test_legal_text_reads_and_validates():
    deck = read(LEGAL_TEXT)
    assert deck.ok
    assert sum(counts(deck).values()) == 50
    assert deck.commander.name == "Blaze Queen"
    assert validate_deck(deck.entries, commander=deck.commander).valid


def test_nx_form_comments_blank_lines_and_case_are_accepted():
    deck = read(
        "# my deck\n\n3x ember scout\n  2 EMBER SCOUT  \n# units\n1x Blaze queen\ncommander:  blaze QUEEN\n"
    )
    assert deck.ok
    assert counts(deck) == {"Ember Scout": 5, "Blaze Queen": 1}
    assert deck.commander.name == "Blaze Queen"


def test_copies_are_summed_across_lines_then_validated_c_3_2():
    deck = read("3 Ember Scout\n2 Ember Scout\n")
    assert counts(deck) == {"Ember Scout": 5}
    assert [i.rule for i in validate_deck(deck.entries).errors] == ["C-3.1", "C-3.2"]


def test_every_bad_line_is_reported_with_its_line_number():
    deck = read("4 Ember Scout\nEmber Scout\n0 Ash Runner\n4 Ash Runner\nfour Kiln Warden\n")
    assert [(e.line, e.code) for e in deck.errors] == [(2, "bad_line"), (3, "bad_count"), (5, "bad_line")]
    assert counts(deck) == {"Ember Scout": 4, "Ash Runner": 4}


def test_unknown_card_names_the_line_and_suggests_close_names():
    deck = read("4 Ember Scout\n4 Embr Scout\n# x\n2 Blaze Quen\n1 Zzzzzz\n")
    unknown = [(e.line, e.text, e.suggestions) for e in deck.errors]
    assert unknown == [
        (2, "Embr Scout", ["Ember Scout"]),
        (4, "Blaze Quen", ["Blaze Queen"]),
        (5, "Zzzzzz", []),
    ]
    assert "did you mean Ember Scout?" in deck.errors[0].message


def test_unknown_card_on_two_lines_is_reported_on_both():
    deck = read("1 Embr Scout\n4 Ash Runner\n2 embr scout\n")
    assert [e.line for e in deck.errors] == [1, 3]


def test_unknown_commander_and_second_commander_line_are_errors():
    deck = read("Commander: Blaze Quen\n1 Blaze Queen\nCommander: Blaze Queen\n")
    assert [(e.line, e.code) for e in deck.errors] == [(1, "unknown_card"), (3, "duplicate_commander")]


def test_text_export_is_grouped_and_reimports_exactly():
    deck = read(LEGAL_TEXT)
    text = export_text(deck.entries, commander=deck.commander, name="Fire", faction="Fire")
    assert text.splitlines()[:3] == ["# Deck: Fire", "# Faction: Fire", "Commander: Blaze Queen"]
    assert "# Units (33)" in text and "# Events (17)" in text
    again = read(text)
    assert again.ok and counts(again) == counts(deck) and again.commander.name == "Blaze Queen"


def test_json_round_trip_and_name_fallback():
    deck = read(LEGAL_TEXT)
    doc = export_json(deck.entries, commander=deck.commander, name="Fire", faction="fire", notes="n")
    again = resolve(parse_json(doc), CATALOG)
    assert again.ok and counts(again) == counts(deck)
    assert (again.name, again.faction, again.notes, again.commander.name) == (
        "Fire",
        "fire",
        "n",
        "Blaze Queen",
    )
    by_name = resolve(
        parse_json({"cards": [{"name": "ember scout", "count": 2}, {"card": "ember-scout", "count": 1}]}),
        CATALOG,
    )
    assert counts(by_name) == {"Ember Scout": 3}


@pytest.mark.parametrize(
    "doc, code",
    [
        ("{not json", "bad_json"),
        ("[]", "bad_json"),
        ('{"format": "other"}', "bad_json"),
        ('{"cards": 3}', "bad_json"),
    ],
)
def test_bad_json_documents_are_format_errors(doc, code):
    with pytest.raises(DeckFormatError) as info:
        parse_json(doc)
    assert info.value.code == code


def test_bad_json_entries_are_reported_by_position():
    parsed = parse_json(
        {"cards": [{"card": "ember-scout", "count": 0}, "x", {"count": 1}, {"card": "nope", "count": 1}]}
    )
    deck = resolve(parsed, CATALOG)
    assert [(e.line, e.code) for e in deck.errors] == [
        (1, "bad_count"),
        (2, "bad_entry"),
        (3, "bad_entry"),
        (4, "unknown_card"),
    ]


def test_share_code_round_trip():
    deck = read(LEGAL_TEXT)
    code = encode_share_code(deck.entries, commander=deck.commander, faction="fire")
    assert code.startswith(SHARE_CODE_PREFIX) and code.isascii() and len(code) < 260
    again = resolve(decode_share_code(code), CATALOG)
    assert again.ok and counts(again) == counts(deck)
    assert again.commander.name == "Blaze Queen" and again.faction == "fire"
    assert parse_any(code).entries == decode_share_code(code).entries


@pytest.mark.parametrize("code", ["XYZ1abc", "CMD1", "CMD1!!!!", "CMD1AAAA", "CMD2eJwDAAAAAAE"])
def test_bad_share_code_is_a_clear_error(code):
    with pytest.raises(DeckFormatError) as info:
        decode_share_code(code)
    assert info.value.code == "bad_share_code"
    assert "share code" in info.value.message


def test_damaged_share_code_is_detected():
    deck = read(LEGAL_TEXT)
    code = encode_share_code(deck.entries)
    flipped = code[:20] + ("A" if code[20] != "A" else "B") + code[21:]
    with pytest.raises(DeckFormatError):
        decode_share_code(flipped)


def test_auto_detection_of_the_input_kind():
    assert parse_any("4 Ember Scout").entries[0].by == "name"
    assert parse_any('{"cards": [{"card": "ember-scout", "count": 1}]}').entries[0].by == "slug"
    with pytest.raises(DeckFormatError):
        parse_any("x", "yaml")


deck_strategy = st.dictionaries(
    st.sampled_from([c["name"] for c in POOL]), st.integers(min_value=1, max_value=99), min_size=1
).flatmap(lambda d: st.tuples(st.just(d), st.one_of(st.none(), st.sampled_from(sorted(d)))))


@settings(max_examples=60, deadline=None)
@given(deck_strategy)
def test_every_format_round_trips_any_deck(deck):
    wanted, commander_name = deck
    entries = [(facts(n), c) for n, c in wanted.items()]
    commander = facts(commander_name) if commander_name else None
    for parsed in (
        parse_text(export_text(entries, commander=commander, name="x")),
        parse_json(export_json(entries, commander=commander)),
        decode_share_code(encode_share_code(entries, commander=commander)),
    ):
        again = resolve(parsed, CATALOG)
        assert again.ok
        assert counts(again) == wanted
        assert (again.commander.name if again.commander else None) == commander_name


@pytest.mark.parametrize(
    "data, code", [(["4 Ember Scout"], "bad_input"), (7, "bad_input"), ("4 x\n" * 30_000, "too_long")]
)
def test_input_that_is_not_a_decklist_is_refused(data, code):
    with pytest.raises(DeckFormatError) as info:
        parse_any(data)
    assert info.value.code == code
