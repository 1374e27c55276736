"""The "new deck" form creates one deck per form token: a double click or a resent POST opens the
deck the first submit created (without the token a double click on "Create deck" made two decks)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from decks.models import Deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice_client() -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_user("alice", password="pw-alice-123"))
    return client


def _form_token(client: Client) -> str:
    page = client.get("/decks/").content.decode()
    found = re.search(r'name="form_token" value="([^"]+)"', page)
    assert found, "the new-deck form carries a one-time token"
    return found.group(1)


def test_the_same_form_sent_twice_creates_one_deck(alice_client: Client) -> None:
    token = _form_token(alice_client)
    first = alice_client.post("/decks/", {"name": "Twice", "faction": "", "form_token": token})
    second = alice_client.post("/decks/", {"name": "Twice", "faction": "", "form_token": token})
    assert first.status_code == second.status_code == 302
    assert Deck.objects.filter(name="Twice").count() == 1
    deck = Deck.objects.get(name="Twice")
    assert first["Location"] == second["Location"] == f"/decks/{deck.pk}/"


def test_a_new_page_load_gives_a_new_token_and_a_second_deck(alice_client: Client) -> None:
    for _ in range(2):
        alice_client.post("/decks/", {"name": "Again", "form_token": _form_token(alice_client)})
    assert Deck.objects.filter(name="Again").count() == 2


@pytest.mark.parametrize(
    "form, message",
    [
        ({"name": "No token"}, "out of date"),
        ({"name": "", "form_token": "t" * 22}, "needs a name"),
        ({"name": "Bad faction", "faction": "no-such-faction", "form_token": "u" * 22}, "faction"),
        ({"name": "a\x00b", "form_token": "v" * 22}, "nul"),
    ],
)
def test_a_bad_form_is_shown_again_with_the_reason(
    alice_client: Client, form: dict[str, Any], message: str
) -> None:
    response = alice_client.post("/decks/", form)
    assert response.status_code == 400
    assert message in response.content.decode().lower()
    assert not Deck.objects.exists()
