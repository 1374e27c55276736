"""Any text is either a valid query that the database runs, or a QuerySyntaxError — never a crash.

Sizes come from CARDS_SEARCH_EXAMPLES (small by default, raise it for a longer run).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.search import MAX_QUERY_LENGTH, QuerySyntaxError, parse, parse_query
from cards.selectors import card_search

EXAMPLES = int(os.environ.get("CARDS_SEARCH_EXAMPLES", "150"))
PIECES = [
    "ember", "scout", '"deal 1000"', "f:tide", "f:", "t:unit", "t:ongoing", "t:x", "cp>=2", "cp<", "pow>=3",
    "hp!=2.5", "e:1", "kw:spoil", "kw:range-attack", "is:unique", "legendary", "a:N,NE", "a:Q", "-", "(",
    ")", "or", "and", "OR", '"', "name:scout", "o:draw", "xyz:1", "pow>=1e9", "-kw:marking", "-(", "f!=ember",
]  # fmt: skip
queries = st.one_of(
    st.lists(st.sampled_from(PIECES), max_size=8).map(" ".join),
    st.lists(st.sampled_from(PIECES), max_size=8).map("".join),
    st.text(alphabet=list('abfkptw:=<>!-()" ,.0123456789NESW\x00'), max_size=30),
)


@settings(max_examples=EXAMPLES, deadline=None)
@given(queries)
def test_parser_returns_a_tree_or_a_positioned_error(query):
    try:
        parse(query)
    except QuerySyntaxError as exc:
        assert 0 <= exc.position <= max(len(query), 1000)
        assert f"at position {exc.position}" in exc.message


@pytest.mark.django_db
@settings(
    max_examples=max(EXAMPLES // 3, 10),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(query=queries)
def test_every_parsed_query_runs_on_the_database(small_set, query):
    try:
        parse_query(query)
    except QuerySyntaxError:
        return
    results = list(card_search(query))
    assert len(results) <= 6


# Long queries at the length bound: runs of negations, brackets and terms, the shapes of a query
# that once broke search, "960 '-' signs and a word" (a RecursionError in SQL: the depth limit counted
# brackets only).
long_queries = st.builds(
    lambda prefix, n, word: (prefix * n)[: MAX_QUERY_LENGTH - len(word)] + word,
    st.sampled_from(["-", "- ", "-(", "(", "(-", "a ", "a or ", "-a ", "kw:spoil ", "(a or -b) "]),
    st.integers(min_value=1, max_value=MAX_QUERY_LENGTH),
    st.sampled_from(["word", "f:tide", "pow>=3", "-x", ")"]),
)


@pytest.mark.django_db
@settings(
    max_examples=max(EXAMPLES // 5, 10),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(query=long_queries)
def test_long_queries_are_a_syntax_error_or_run_never_a_crash(small_set, query):
    try:
        parse_query(query)
    except QuerySyntaxError as exc:
        assert exc.message
        return
    assert len(list(card_search(query))) <= 6


@pytest.mark.django_db
def test_960_negations_and_a_word_is_a_400_naming_the_depth(small_set):
    from rest_framework.test import APIClient

    response = APIClient().get("/api/cards/", {"q": "-" * 960 + "word"})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_query" and "nested too deeply" in response.json()["message"]
    assert APIClient().get("/api/cards/", {"q": "-" * 10 + "word"}).status_code == 200


@pytest.mark.django_db
def test_a_query_of_too_many_words_is_a_400_naming_the_limit(small_set):
    """Each word is matched in three languages: hundreds of them made an SQL expression too deep to parse."""
    from rest_framework.test import APIClient

    from cards.search import MAX_TERMS

    response = APIClient().get("/api/cards/", {"q": " or ".join(["a"] * (MAX_TERMS + 1))})
    assert response.status_code == 400
    assert (
        response.json()["code"] == "invalid_query" and f"more than {MAX_TERMS}" in response.json()["message"]
    )
    assert APIClient().get("/api/cards/", {"q": " or ".join(["a"] * MAX_TERMS)}).status_code == 200
