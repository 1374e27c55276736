"""Deck test fixtures (the card pool lives in factories.py so tests can import its helpers)."""

import pytest
from django.contrib.auth import get_user_model

from decks.tests.factories import cards, pool_facts  # noqa: F401


@pytest.fixture
def alice(db):
    return get_user_model().objects.create_user("alice", password="pw-alice-123")


@pytest.fixture
def bob(db):
    return get_user_model().objects.create_user("bob", password="pw-bob-123")


@pytest.fixture
def carol(db):
    return get_user_model().objects.create_user("carol", password="pw-carol-123")
