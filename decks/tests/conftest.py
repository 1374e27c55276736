"""Deck test fixtures (the card pool lives in factories.py so tests can import its helpers)."""

from decks.tests.factories import cards, pool_facts  # noqa: F401
