"""Fixtures for the Westeros data tests: the bundled data set loaded into the test database."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from boardgame import dataset


@pytest.fixture
def bundle() -> dict[str, Any]:
    """The bundled JSON files (six sections and layout) as one export-format dict."""
    return dataset.bundled_data()


@pytest.fixture
def westeros(db: Any, bundle: dict[str, Any]) -> dict[str, Any]:
    """The bundled data imported into the database; returns the bundle."""
    dataset.game_data_import(data=bundle)
    return bundle


@pytest.fixture
def staff_client(client: Any, db: Any) -> Any:
    user = get_user_model().objects.create_superuser("curator", "curator@example.com", "pw")
    client.force_login(user)
    return client
