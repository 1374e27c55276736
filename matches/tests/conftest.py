"""Fixtures of the online-play tests: users and the counting test game (proves the layer is game-agnostic)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

import matches.tests.fakegame  # noqa: F401  (registers kind "counting")
from matches.models import Match
from matches.services.lobby import match_create, match_join, match_start


@pytest.fixture
def make_user(db: Any) -> Any:
    def make(name: str) -> Any:
        return get_user_model().objects.create_user(username=name, password="pw-" + name)

    return make


@pytest.fixture
def alice(make_user: Any) -> Any:
    return make_user("alice")


@pytest.fixture
def bob(make_user: Any) -> Any:
    return make_user("bob")


@pytest.fixture
def carol(make_user: Any) -> Any:
    return make_user("carol")


@pytest.fixture
def started(alice: Any, bob: Any) -> Match:
    """A started public counting match, alice in seat 0 and bob in seat 1."""
    match = match_create(user=alice, kind="counting", time_control={"initial_s": 60, "increment_s": 5})
    match_join(match_id=match.pk, user=bob)
    match_start(match_id=match.pk, user=alice)
    match.refresh_from_db()
    return match


def mover(match: Match, alice: Any, bob: Any) -> tuple[Any, Any]:
    """(user to move, the other user) of a counting match."""
    match.refresh_from_db()
    turn = match.state["turn"]
    return (alice, bob) if turn == 0 else (bob, alice)
