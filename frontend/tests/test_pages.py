"""Page views: each page renders, the deck builder needs a login, and private decks stay private."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from cards.models import Card, Faction
from decks.models import Deck, Visibility

pytestmark = pytest.mark.django_db


@pytest.fixture
def card() -> Card:
    faction = Faction.objects.create(name="Ember", slug="ember", color="#c0392b")
    return Card.objects.create(
        name="Ember Scout",
        faction=faction,
        card_type="unit",
        command_cost=1,
        energy_cost=0,
        power=2000,
        health=3000,
        arrows=["N", "NE"],
    )


@pytest.fixture
def alice() -> User:
    return User.objects.create_user("alice", password="pw-alice-123")


@pytest.fixture
def bob() -> User:
    return User.objects.create_user("bob", password="pw-bob-123")


def deck_of(owner: User, visibility: str = Visibility.PRIVATE, name: str = "Alice's deck") -> Deck:
    return Deck.objects.create(owner=owner, name=name, visibility=visibility)


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- public pages -------------------------------------------------------------------------------------


@pytest.mark.parametrize("url_name", ["home", "login", "signup", "card-list"])
def test_public_page_renders_for_anonymous_visitor(client: Client, url_name: str) -> None:
    response = client.get(reverse(url_name))
    assert response.status_code == 200
    assert b'href="/play/"' in response.content  # the base nav links the lobby


def test_base_nav_shows_the_signed_in_user_and_a_logout_form(alice: User) -> None:
    response = logged_in(alice).get(reverse("home"))
    assert response.status_code == 200
    assert response.context["user"].username == "alice"
    assert b'data-testid="nav-username">alice<' in response.content
    assert f'action="{reverse("logout")}"'.encode() in response.content


def test_card_detail_renders_known_card_and_404s_unknown(client: Client, card: Card) -> None:
    response = client.get(reverse("card-detail", args=[card.slug]))
    assert response.status_code == 200
    assert b"Ember Scout" in response.content
    assert client.get(reverse("card-detail", args=["no-such-card"])).status_code == 404


def test_card_browser_has_query_help_and_filters(client: Client) -> None:
    content = client.get(reverse("card-list")).content.decode()
    for syntax in (
        "f:cinder",
        "t:unit",
        "cp&lt;=3",
        "e&gt;=1",
        "pow&gt;=3000",
        "hp&lt;4000",
        "kw:marking",
        "legendary",
    ):
        assert syntax in content, syntax
    for name in ('data-filter="faction"', 'data-filter="type"', 'data-filter="cost"'):
        assert name in content


def test_static_assets_of_the_pages_exist() -> None:
    for path in (
        "frontend/css/app.css",
        "frontend/js/api.js",
        "frontend/js/dom.js",
        "frontend/js/live.js",
        "frontend/js/snapshots.js",
        "frontend/js/cards.js",
        "frontend/js/card_search.js",
        "frontend/js/card_detail.js",
        "frontend/js/decks.js",
        "frontend/js/deck_list.js",
        "frontend/js/deck_builder.js",
        "frontend/js/deck_view.js",
    ):
        assert finders.find(path), path


# --- accounts -----------------------------------------------------------------------------------------


def test_signup_creates_the_account_logs_in_and_goes_to_decks(client: Client) -> None:
    response = client.post(
        reverse("signup"),
        {"username": "carol", "password1": "a-long-pass-123", "password2": "a-long-pass-123"},
    )
    assert response.status_code == 302
    assert response.url == reverse("deck-list")
    assert User.objects.filter(username="carol").exists()
    assert client.get(reverse("deck-list")).status_code == 200  # logged in


def test_signup_shows_form_errors_and_creates_nothing(client: Client) -> None:
    response = client.post(reverse("signup"), {"username": "carol", "password1": "x", "password2": "y"})
    assert response.status_code == 200
    assert response.context["form"].errors
    assert not User.objects.filter(username="carol").exists()


def test_signup_ignores_an_offsite_next(client: Client) -> None:
    response = client.post(
        reverse("signup") + "?next=https://evil.example/",
        {"username": "dave", "password1": "a-long-pass-123", "password2": "a-long-pass-123"},
    )
    assert response.status_code == 302
    assert response.url == reverse("deck-list")


def test_login_and_logout_through_the_auth_views(client: Client, alice: User) -> None:
    response = client.post(reverse("login"), {"username": "alice", "password": "pw-alice-123"})
    assert response.status_code == 302
    assert client.get(reverse("deck-list")).status_code == 200
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert client.get(reverse("deck-list")).status_code == 302


# --- decks ----------------------------------------------------------------------------------------------


def test_deck_list_requires_login(client: Client) -> None:
    response = client.get(reverse("deck-list"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    assert "next=/decks/" in response.url


@pytest.mark.parametrize("visibility", [Visibility.PRIVATE, Visibility.UNLISTED])
def test_deck_builder_requires_login_for_a_deck_that_is_not_public(
    client: Client, alice: User, visibility: str
) -> None:
    deck = deck_of(alice, visibility)
    response = client.get(reverse("deck-builder", args=[deck.pk]))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_a_public_deck_is_shown_read_only_without_signing_in_issue_14(client: Client, alice: User) -> None:
    deck = deck_of(alice, Visibility.PUBLIC)
    response = client.get(reverse("deck-builder", args=[deck.pk]))
    assert response.status_code == 200
    assert [t.name for t in response.templates][0] == "frontend/decks/view.html"
    assert b'data-testid="copy-deck"' not in response.content  # copying needs an account


def test_the_public_deck_browser_needs_no_sign_in_issue_14(client: Client) -> None:
    response = client.get(reverse("deck-public"))
    assert response.status_code == 200
    assert b"data-public-browser" in response.content and b"Most liked" in response.content


def test_deck_list_renders_for_a_user(alice: User) -> None:
    response = logged_in(alice).get(reverse("deck-list"))
    assert response.status_code == 200
    assert b"data-new-deck" in response.content
    assert b"data-import-deck" in response.content


def test_owner_gets_the_builder(alice: User) -> None:
    deck = deck_of(alice)
    response = logged_in(alice).get(reverse("deck-builder", args=[deck.pk]))
    assert response.status_code == 200
    assert "frontend/decks/builder.html" in [t.name for t in response.templates]
    assert f'data-api-url="/api/decks/{deck.pk}/"'.encode() in response.content


def test_the_builder_takes_the_deck_minimum_from_the_deck_rules_c_3_1(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    from matches.engine.deckrules import DeckRules

    deck = deck_of(alice)
    monkeypatch.setattr("frontend.views.DEFAULT_RULES", DeckRules(min_cards=40))
    response = logged_in(alice).get(reverse("deck-builder", args=[deck.pk]))
    assert b'data-min-cards="40"' in response.content
    path = finders.find("frontend/js/deck_builder.js")
    assert isinstance(path, str)
    with open(path, encoding="utf-8") as f:
        js = f.read()
    assert "/ 50" not in js and "root.dataset.minCards" in js


@pytest.mark.parametrize("visibility", [Visibility.PRIVATE, Visibility.UNLISTED])
def test_another_users_non_public_deck_is_404(alice: User, bob: User, visibility: str) -> None:
    deck = deck_of(alice, visibility, name="Secret plan")
    response = logged_in(bob).get(reverse("deck-builder", args=[deck.pk]))
    assert response.status_code == 404
    assert b"Secret plan" not in response.content


def test_unknown_deck_is_404(alice: User) -> None:
    assert logged_in(alice).get(reverse("deck-builder", args=[987654])).status_code == 404


def test_another_users_public_deck_is_read_only(alice: User, bob: User) -> None:
    deck = deck_of(alice, Visibility.PUBLIC, name="Open book")
    response = logged_in(bob).get(reverse("deck-builder", args=[deck.pk]))
    assert response.status_code == 200
    templates = [t.name for t in response.templates]
    assert "frontend/decks/view.html" in templates
    assert "frontend/decks/builder.html" not in templates
    assert b"data-save" not in response.content


@pytest.mark.parametrize("visibility", [Visibility.UNLISTED, Visibility.PUBLIC])
def test_shared_link_shows_unlisted_and_public_decks_to_anyone(
    client: Client, alice: User, visibility: str
) -> None:
    deck = deck_of(alice, visibility, name="Shared list")
    response = client.get(reverse("deck-shared", args=[deck.share_id]))
    assert response.status_code == 200
    assert b"Shared list" in response.content
    assert f'data-api-url="/api/decks/shared/{deck.share_id}/"'.encode() in response.content


def test_shared_link_of_a_private_deck_is_404(client: Client, alice: User) -> None:
    deck = deck_of(alice, Visibility.PRIVATE, name="Hidden")
    assert client.get(reverse("deck-shared", args=[deck.share_id])).status_code == 404
    assert logged_in(alice).get(reverse("deck-shared", args=[deck.share_id])).status_code == 404
