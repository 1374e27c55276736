"""The card search query language: parsing into an AST, errors with positions, and matching cards."""

from __future__ import annotations

import pytest

from cards.search import And, Not, Or, QuerySyntaxError, Term, Text, parse
from cards.selectors import card_search


def names(query: str) -> list[str]:
    return sorted(card_search(query).values_list("name", flat=True))


# ---------------------------------------------------------------- parsing (no database)


def test_free_words_and_phrases_parse_to_text_nodes():
    assert parse('ember "deal 1000"') == And((Text("ember", 0), Text("deal 1000", 6)))


def test_terms_parse_with_canonical_keys_and_values():
    assert parse("f:ember") == Term("faction", ":", "ember", 0)
    assert parse("faction=ember") == Term("faction", ":", "ember", 0)
    assert parse("t:Unit") == Term("type", ":", "unit", 0)
    assert parse("cp<=2") == Term("cp", "<=", 2, 0)
    assert parse("e:1") == Term("energy", "=", 1, 0)
    assert parse("kw:Range-Attack") == Term("keyword", ":", "range_attack", 0)
    assert parse("a:n,ne") == Term("arrows", ":", ("N", "NE"), 0)
    assert parse("is:legendary") == parse("legendary") == Term("is", ":", "legendary", 0)


def test_power_and_health_below_100_are_thousands():
    assert parse("pow>=3") == Term("power", ">=", 3000, 0)
    assert parse("hp:2.5") == Term("health", "=", 2500, 0)
    assert parse("pow>=3000") == Term("power", ">=", 3000, 0)
    assert parse("pow<4k") == Term("power", "<", 4000, 0)
    assert parse("cp=3") == Term("cp", "=", 3, 0), "costs are not scaled"


def test_negation_or_and_parentheses_build_the_tree():
    tree = parse("(kw:spoil or kw:marking) -is:legendary f:tide")
    assert tree == And(
        (
            Or((Term("keyword", ":", "spoil", 1), Term("keyword", ":", "marking", 13))),
            Not(Term("is", ":", "legendary", 26)),
            Term("faction", ":", "tide", 39),
        )
    )


def test_and_binds_tighter_than_or():
    assert parse("a b or c") == Or((And((Text("a", 0), Text("b", 2))), Text("c", 7)))
    assert parse("a and b") == And((Text("a", 0), Text("b", 6)))


def test_not_equal_is_a_negated_term():
    assert parse("f!=ember") == Not(Term("faction", ":", "ember", 0))


def test_hyphen_inside_a_word_is_not_negation():
    assert parse("self-heal") == Text("self-heal", 0)


def test_empty_query_matches_everything():
    assert parse("   ") == And(())


@pytest.mark.parametrize(
    ("query", "message", "position"),
    [
        ("ember xyz:1", "unknown search key 'xyz' at position 6 (known: f/faction, t/type, cp", 6),
        ("pow>=abc", "'pow' needs a number, not 'abc' at position 5", 5),
        ("pow>=1.2345", "'pow' needs a whole number", 5),
        ("t:elf", "unknown type 'elf' at position 2", 2),
        ("is:rare", "unknown 'is:' value 'rare' at position 3", 3),
        ("a:UP", "unknown direction 'UP' at position 2", 2),
        ("f<3", "'f' supports only ':', '=' and '!=', not '<' at position 0", 0),
        ("cp>=", "'cp>=' needs a value at position 4", 4),
        ("(kw:spoil", "unclosed '(' at position 0", 0),
        ("kw:spoil)", "unmatched ')' at position 8", 8),
        ('"deal damage', "unclosed quote at position 0", 0),
        ("or ember", "expected a search term before 'or' at position 0", 0),
        ("ember or", "expected a search term before the end of the query at position 8", 8),
        ("ember -", "'-' must be followed by a term or a group at position 6", 6),
        ("()", "expected a search term before ')' at position 1", 1),
        ('""', "empty quoted phrase at position 0", 0),
        ("x" * 1001, "query is longer than 1000 characters", 1000),
        ("(" * 40 + "a" + ")" * 40, "nested too deeply", 33),
    ],
)
def test_malformed_queries_raise_with_message_and_position(query, message, position):
    with pytest.raises(QuerySyntaxError) as excinfo:
        parse(query)
    assert message in excinfo.value.message
    assert excinfo.value.position == position


# ---------------------------------------------------------------- matching (database)


@pytest.mark.django_db
def test_free_text_matches_name_or_rules_text_case_insensitively(small_set):
    assert names("scout") == ["Ember Scout"]
    assert names("RANGE") == ["Tide Archer"]  # rules text "Range Attack. Marking."
    assert names("tide heal") == ["Tide Shield"], "every word must match"
    assert names('"deal 1000 damage"') == ["Ember Warlord", "Fire Rain"]


@pytest.mark.django_db
def test_faction_by_slug_or_name_prefix(small_set):
    assert names("f:tide") == ["Tide Archer", "Tide Phalanx", "Tide Shield"]
    assert names('faction:"Ember Leg"') == ["Ember Scout", "Ember Warlord", "Fire Rain"]


@pytest.mark.django_db
def test_type_and_event_types(small_set):
    assert names("t:event") == ["Fire Rain", "Tide Shield"]
    assert names("t:unit f:ember") == ["Ember Scout", "Ember Warlord"]
    assert names("t:defensive") == ["Tide Shield"]
    assert names("t:ongoing") == []


@pytest.mark.django_db
def test_numeric_comparisons(small_set):
    assert names("cp>=3") == ["Ember Warlord", "Tide Phalanx"]
    assert names("cp<2") == ["Ember Scout", "Fire Rain", "Tide Shield"]
    assert names("e:2") == ["Ember Warlord"]
    assert names("pow>=3.5") == names("pow>=3500") == ["Ember Warlord", "Tide Phalanx"]
    assert names("hp<=2000") == ["Tide Archer"]
    assert names("pow!=5000") == ["Ember Scout", "Tide Archer", "Tide Phalanx"], "!= matches units only"


@pytest.mark.django_db
def test_keywords_by_code_or_name_and_several_at_once(small_set):
    assert names("kw:marking") == ["Tide Archer"]
    assert names('kw:"range attack"') == ["Tide Archer"]
    assert names("kw:range_attack kw:marking") == ["Tide Archer"], "two keywords on the same card"
    assert names("-kw:spoil t:unit f:ember") == ["Ember Scout", "Ember Warlord"]
    assert names("-kw:deploying f:ember") == ["Ember Scout", "Fire Rain"]


@pytest.mark.django_db
def test_legendary_unique_and_arrows(small_set):
    assert names("legendary") == names("is:legendary") == ["Ember Warlord"]
    assert names("is:unique") == ["Tide Shield"]
    assert names("a:N") == ["Ember Scout", "Ember Warlord", "Tide Archer"], "'N' does not match 'NE' or 'NW'"
    assert names("a:NE") == ["Ember Warlord"]
    assert names("a:W,E") == ["Tide Phalanx"]


@pytest.mark.django_db
def test_or_parentheses_and_negated_groups(small_set):
    assert names("kw:formation or kw:deploying") == ["Ember Warlord", "Tide Phalanx"]
    assert names("f:tide (t:event or pow>=3500)") == ["Tide Phalanx", "Tide Shield"]
    assert names("-(f:tide or t:event)") == ["Ember Scout", "Ember Warlord"]
    assert names("name:scout or o:marking") == ["Ember Scout", "Tide Archer"]


@pytest.mark.django_db
def test_search_queryset_loads_faction_and_keywords_up_front(small_set, django_assert_num_queries):
    with django_assert_num_queries(2):
        cards = list(card_search("t:unit"))
        assert {k.code for c in cards for k in c.keywords.all()} >= {"deploying"}
        assert {c.faction.slug for c in cards} == {"ember", "tide"}
