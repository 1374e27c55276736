"""Public decks: browse, search and sort without signing in, likes, copies; the card page's
list; and the deck-builder behaviour that lives in the API: import line forms, the
`# Deck:` name, faction display names in legality, C-4.4 sample hands and exact draw odds."""

from __future__ import annotations

from typing import Any

import pytest

from decks.models import Deck, DeckLike, Visibility
from decks.selectors import public_decks
from decks.tests.factories import COMMONS, client_for, legal_payload

pytestmark = pytest.mark.django_db

ANONYMOUS_REFUSED = {401, 403}


def make_deck(user, name: str, visibility: str = Visibility.PUBLIC, **extra: Any) -> dict[str, Any]:
    response = client_for(user).post(
        "/api/decks/", legal_payload(name, visibility=visibility, **extra), format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()


@pytest.fixture
def decks(cards, alice, bob) -> dict[str, dict[str, Any]]:
    return {
        "fire": make_deck(alice, "Alice Fire", Visibility.PUBLIC),
        "small": make_deck(
            bob,
            "Bob Water",
            Visibility.PUBLIC,
            faction="water",
            commander=None,
            cards=[{"card": "tide-caller", "count": 4}],
        ),
        "private": make_deck(alice, "Alice Secret", Visibility.PRIVATE),
        "unlisted": make_deck(bob, "Bob Unlisted", Visibility.UNLISTED),
    }


def names(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [d["name"] for d in response.json()["results"]]


# --- browsing --------------------------------------------------------------------------------------


def test_anonymous_visitors_browse_public_decks_only(decks):
    listed = names(client_for().get("/api/decks/public/"))
    assert sorted(listed) == ["Alice Fire", "Bob Water"]  # never private or unlisted ones


def test_private_and_unlisted_decks_are_never_listed_even_to_their_owner(decks, alice, bob):
    for user in (alice, bob):
        listed = names(client_for(user).get("/api/decks/public/", {"q": "Alice"}))
        assert "Alice Secret" not in listed and "Bob Unlisted" not in listed


def test_search_matches_deck_names_and_card_names(decks):
    client = client_for()
    assert names(client.get("/api/decks/public/", {"q": "water"})) == ["Bob Water"]
    assert names(client.get("/api/decks/public/", {"q": "tide caller"})) == ["Bob Water"]
    assert names(client.get("/api/decks/public/", {"q": "Ember Scout"})) == ["Alice Fire"]
    assert names(client.get("/api/decks/public/", {"q": "no such thing"})) == []


def test_filter_by_card_and_by_faction(decks):
    client = client_for()
    assert names(client.get("/api/decks/public/", {"card": "ember-scout"})) == ["Alice Fire"]
    assert names(client.get("/api/decks/public/", {"faction": "water"})) == ["Bob Water"]
    response = client.get("/api/decks/public/", {"faction": "lava"})
    assert response.status_code == 400 and response.json()["code"] == "unknown_faction"


def test_sort_newest_most_liked_and_by_faction(decks, carol):
    client = client_for()
    assert names(client.get("/api/decks/public/")) == ["Bob Water", "Alice Fire"]  # newest first
    assert client_for(carol).post(f"/api/decks/{decks['fire']['id']}/like/").status_code == 200
    assert names(client.get("/api/decks/public/", {"sort": "liked"})) == ["Alice Fire", "Bob Water"]
    assert names(client.get("/api/decks/public/", {"sort": "faction"})) == ["Alice Fire", "Bob Water"]
    assert client.get("/api/decks/public/", {"sort": "random"}).status_code == 400


def test_pages_are_bounded(decks):
    client = client_for()
    first = client.get("/api/decks/public/", {"page_size": 1})
    assert first.json()["count"] == 2 and len(first.json()["results"]) == 1 and first.json()["next"]
    assert len(client.get("/api/decks/public/", {"page_size": 1000}).json()["results"]) == 2  # capped at 60
    assert client.get("/api/decks/public/", {"page": 99}).status_code == 404
    assert client.get("/api/decks/public/", {"q": "x" * 101}).status_code == 400


def test_profile_selector_lists_one_players_public_decks(decks, alice, bob):
    assert [d.name for d in public_decks(owner=alice)] == ["Alice Fire"]
    assert [d.name for d in public_decks(owner="bob")] == ["Bob Water"]
    assert names(client_for().get("/api/decks/public/", {"owner": "bob"})) == ["Bob Water"]


# --- likes -----------------------------------------------------------------------------------------


def test_anonymous_visitors_cannot_like(decks):
    response = client_for().post(f"/api/decks/{decks['fire']['id']}/like/")
    assert response.status_code in ANONYMOUS_REFUSED
    assert DeckLike.objects.count() == 0


def test_one_like_per_player_liking_twice_changes_nothing_and_unlike_takes_it_back(decks, bob, carol):
    url = f"/api/decks/{decks['fire']['id']}/like/"
    assert client_for(bob).post(url).json() == {"liked": True, "like_count": 1}
    assert client_for(bob).post(url).json() == {"liked": True, "like_count": 1}
    assert client_for(carol).post(url).json() == {"liked": True, "like_count": 2}
    assert client_for(bob).delete(url).json() == {"liked": False, "like_count": 1}
    assert client_for(bob).delete(url).json() == {"liked": False, "like_count": 1}
    listed = client_for(carol).get("/api/decks/public/").json()["results"]
    fire = next(d for d in listed if d["id"] == decks["fire"]["id"])
    assert fire["like_count"] == 1 and fire["liked"] is True
    anonymous = client_for().get(f"/api/decks/{decks['fire']['id']}/").json()
    assert anonymous["like_count"] == 1 and anonymous["liked"] is False


def test_no_like_for_your_own_deck_nor_for_one_you_cannot_see(decks, alice, bob):
    own = client_for(alice).post(f"/api/decks/{decks['fire']['id']}/like/")
    assert own.status_code == 403 and own.json()["code"] == "own_deck"
    hidden = client_for(alice).post(f"/api/decks/{decks['unlisted']['id']}/like/")
    assert hidden.status_code == 404
    private = client_for(bob).post(f"/api/decks/{decks['private']['id']}/like/")
    assert private.status_code == 404
    assert DeckLike.objects.count() == 0


# --- copies ----------------------------------------------------------------------------------------


def test_copy_makes_a_private_copy_with_the_same_cards(decks, bob):
    response = client_for(bob).post(f"/api/decks/{decks['fire']['id']}/copy/", {}, format="json")
    assert response.status_code == 201, response.content
    copy = response.json()
    assert copy["name"] == "Alice Fire (copy)" and copy["owner"] == "bob" and copy["visibility"] == "private"
    assert {(c["card"], c["count"]) for c in copy["cards"]} == {
        (c["card"], c["count"]) for c in decks["fire"]["cards"]
    }
    assert copy["commander"] == decks["fire"]["commander"] and copy["legality"]["valid"]
    assert copy["copied_from"] == {"id": decks["fire"]["id"], "name": "Alice Fire", "owner": "alice"}
    assert Deck.objects.get(pk=copy["id"]).revisions.count() == 1


def test_copy_takes_a_given_name_and_keeps_long_names_in_bounds(decks, alice, bob):
    named = client_for(bob).post(f"/api/decks/{decks['fire']['id']}/copy/", {"name": "Mine"}, format="json")
    assert named.json()["name"] == "Mine"
    long = make_deck(alice, "L" * 100)
    copied = client_for(bob).post(f"/api/decks/{long['id']}/copy/", {}, format="json").json()
    assert len(copied["name"]) == 100 and copied["name"].endswith(" (copy)")


def test_copy_needs_an_account_and_a_deck_you_may_see(decks, bob):
    assert client_for().post(f"/api/decks/{decks['fire']['id']}/copy/").status_code in ANONYMOUS_REFUSED
    assert client_for(bob).post(f"/api/decks/{decks['private']['id']}/copy/").status_code == 404
    before = Deck.objects.count()
    share = Deck.objects.get(pk=decks["unlisted"]["id"]).share_id
    assert client_for(bob).post(f"/api/decks/shared/{share}/copy/").status_code == 201  # a shared link
    assert Deck.objects.count() == before + 1


# --- import forms and the deck name ---------------------------------------------------------------


@pytest.mark.parametrize(
    "line", ["Ember Scout x3", "3x Ember Scout", "3 Ember Scout", "3 x Ember Scout", "Ember Scout ×3"]
)
def test_import_accepts_every_count_form(cards, line):
    result = client_for().post("/api/decks/import/", {"data": line}, format="json").json()
    assert result["errors"] == []
    assert [(e["name"], e["count"]) for e in result["entries"]] == [("Ember Scout", 3)]


def test_the_deck_line_names_the_imported_deck(cards, alice):
    text = (
        "# Deck: Burn Pile\n" + "\n".join(f"{name} x4" for name in COMMONS) + "\n1 Blaze Queen\n1 Inferno\n"
    )
    preview = client_for().post("/api/decks/import/", {"data": text}, format="json").json()
    assert preview["name"] == "Burn Pile" and preview["legality"]["valid"]
    saved = client_for(alice).post("/api/decks/import/", {"data": text, "save": True}, format="json")
    assert saved.status_code == 201 and saved.json()["deck"]["name"] == "Burn Pile"
    named = client_for(alice).post(
        "/api/decks/import/", {"data": text, "save": True, "name": "Given"}, format="json"
    )
    assert named.json()["deck"]["name"] == "Given"  # a name typed in the form wins


def test_a_bad_line_names_real_example_forms(cards):
    result = client_for().post("/api/decks/import/", {"data": "four scouts"}, format="json").json()
    assert "'Blazing Lancer x3'" in result["extra"]["errors"][0]["message"]


def test_an_unknown_card_suggests_each_name_once(cards):
    error = (
        client_for()
        .post("/api/decks/import/", {"data": "2 Embr Scout"}, format="json")
        .json()["extra"]["errors"][0]
    )
    assert error["suggestions"] == ["Ember Scout"] and error["message"].count("Ember Scout") == 1


def test_legality_names_the_faction_not_its_slug_c_3_4(cards):
    body = {
        "faction": "fire",
        "cards": [{"card": "ember-scout", "count": 4}, {"card": "tide-caller", "count": 1}],
    }
    result = client_for().post("/api/decks/validate/", body, format="json").json()
    mixed = next(e for e in result["errors"] if e["rule"] == "C-3.4")
    assert "not Fire:" in mixed["message"] and "Tide Caller (Water)" in mixed["message"]
    body["faction"] = "water"
    only_other = client_for().post("/api/decks/validate/", body, format="json").json()
    assert "not Water:" in next(e for e in only_other["errors"] if e["rule"] == "C-3.4")["message"]
    assert "not fire" not in str(result) and "not water" not in str(only_other)


# --- sample hand and draw odds through the API (C-4.3, C-4.4, C-5.2) -------------------------------


def test_sample_hand_mulligan_owes_k_cards_to_the_bottom_c_4_4(decks, alice):
    url = f"/api/decks/{decks['fire']['id']}/sample-hand/"
    for k in range(6):
        deal = client_for(alice).get(url, {"seed": 9, "mulligans": k}).json()
        assert len(deal["hand"]) == 6 and deal["bottom"] == k and len(deal["upcoming"]) == 10
    too_many = client_for(alice).get(url, {"seed": 9, "mulligans": 6})
    assert too_many.status_code == 400 and "0 to 5" in too_many.json()["message"]


def test_draw_odds_api(decks):
    url = f"/api/decks/{decks['fire']['id']}/draw-odds/"
    odds = client_for().get(url, {"turns": 2, "reinforces": 3, "first": 1}).json()
    assert odds["cards_seen"] == [6, 10, 16]  # going first: 2 CP on turn 1 (C-4.6), then 3 Reinforces
    second = client_for().get(url, {"turns": 2, "reinforces": 3, "first": 0}).json()
    assert second["cards_seen"] == [6, 12, 18]
    queen = next(c for c in odds["cards"] if c["name"] == "Blaze Queen")
    assert queen["commander"] and set(queen["probabilities"]) == {1.0}
    for bad in ({"turns": 0}, {"turns": 16}, {"reinforces": 4}, {"mulligans": 6}, {"first": 2}):
        response = client_for().get(url, bad)
        assert response.status_code == 400 and response.json()["code"] == "invalid_parameter"


# --- pages -----------------------------------------------------------------------------------------


def test_the_import_placeholder_is_a_decklist_of_real_cards_that_imports_cleanly(cards, alice):
    from django.test import Client

    from decks.selectors import example_decklist

    client = Client()
    client.force_login(alice)
    page = client.get("/decks/").content.decode()
    example = example_decklist()
    assert example and f'placeholder="{example}"' in page.replace("&#x27;", "'")
    result = client_for().post("/api/decks/import/", {"data": example}, format="json").json()
    assert result["errors"] == [] and result["name"] == "Fire example"
    assert {"Commander: Blaze Queen", "1 Blaze Queen"} <= set(example.splitlines())
    assert any(line.endswith(" x2") for line in example.splitlines())  # shows the 'Name xN' form


def test_a_copy_credits_its_public_source_on_the_builder_page(decks, bob):
    from django.test import Client

    copy = client_for(bob).post(f"/api/decks/{decks['fire']['id']}/copy/", {}, format="json").json()
    client = Client()
    client.force_login(bob)
    page = client.get(f"/decks/{copy['id']}/").content.decode()
    assert "Copied from" in page and f'href="/decks/{decks["fire"]["id"]}/"' in page
