"""Deck admin pages open for staff and show the deck read-only with its live legality."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from decks.services import deck_create
from decks.tests.factories import legal_payload


@pytest.fixture
def staff_client(db):
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw-root-123")
    client = Client()
    client.force_login(admin)
    return client


def test_staff_see_decks_with_cards_and_legality(cards, staff_client):
    owner = get_user_model().objects.create_user("ivy", password="pw-ivy-123")
    body = legal_payload()
    deck = deck_create(
        owner=owner,
        name=body["name"],
        faction="fire",
        commander="blaze-queen",
        cards=[(c["card"], c["count"]) for c in body["cards"]],
    )
    listing = staff_client.get("/admin/decks/deck/")
    assert listing.status_code == 200 and b"Fire deck" in listing.content
    page = staff_client.get(f"/admin/decks/deck/{deck.pk}/change/")
    assert page.status_code == 200
    assert b"Ember Scout" in page.content and b"Legal" in page.content
    assert staff_client.get("/admin/decks/deck/add/").status_code == 403
