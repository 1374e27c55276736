"""Any text is either a valid query that the database runs, or a QuerySyntaxError — never a crash.

Sizes come from CARDS_SEARCH_EXAMPLES (small by default, raise it for a longer run).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.search import QuerySyntaxError, parse, parse_query
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
