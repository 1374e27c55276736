"""Deck builder API: CRUD with live legality, visibility and permissions, import/export, stats, revisions."""

from __future__ import annotations

import pytest

from decks.models import Deck, DeckRevision
from decks.tests.factories import LEGAL_TEXT, client_for, legal_payload

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck(cards, alice) -> dict:
    response = client_for(alice).post("/api/decks/", legal_payload(), format="json")
    assert response.status_code == 201, response.content
    return response.json()


# --- create / read / update ------------------------------------------------------------------------


def test_create_returns_the_deck_with_live_legality(deck):
    assert deck["legality"] == {"valid": True, "errors": [], "warnings": []}
    assert deck["card_count"] == 50 and deck["commander"] == {"slug": "blaze-queen", "name": "Blaze Queen"}
    assert deck["visibility"] == "private" and deck["is_owner"] and len(deck["share_id"]) >= 16


def test_an_invalid_draft_can_be_saved_and_reports_its_errors(cards, alice):
    body = legal_payload(cards=[{"card": "ember-scout", "count": 5}])
    response = client_for(alice).post("/api/decks/", body, format="json")
    assert response.status_code == 201
    legality = response.json()["legality"]
    assert legality["valid"] is False
    assert [e["rule"] for e in legality["errors"]] == ["C-3.1", "C-3.2", "C-4.1"]


def test_unknown_slugs_are_a_400_naming_them_and_nothing_is_saved(cards, alice):
    body = legal_payload(
        cards=[{"card": "nope", "count": 1}, {"card": "ember-scout", "count": 1}, {"card": "zap", "count": 2}]
    )
    response = client_for(alice).post("/api/decks/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_cards"
    assert response.json()["extra"]["cards"] == ["nope", "zap"]
    assert Deck.objects.count() == 0


@pytest.mark.parametrize("bad", [{"count": 0}, {"count": "x"}, {"card": ""}])
def test_bad_entries_are_a_400(cards, alice, bad):
    body = legal_payload(cards=[{"card": "ember-scout", "count": 1, **bad}])
    response = client_for(alice).post("/api/decks/", body, format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid"


def test_unknown_faction_is_a_400(cards, alice):
    response = client_for(alice).post("/api/decks/", legal_payload(faction="earth"), format="json")
    assert response.status_code == 400 and response.json()["code"] == "unknown_faction"


def test_duplicate_slugs_are_summed(cards, alice):
    body = legal_payload(cards=[{"card": "ember-scout", "count": 3}, {"card": "ember-scout", "count": 2}])
    data = client_for(alice).post("/api/decks/", body, format="json").json()
    assert data["cards"][0]["count"] == 5 and "C-3.2" in [e["rule"] for e in data["legality"]["errors"]]


def test_patch_changes_only_given_fields(deck, alice):
    response = client_for(alice).patch(f"/api/decks/{deck['id']}/", {"notes": "aggro"}, format="json")
    assert response.status_code == 200
    data = response.json()
    assert data["notes"] == "aggro" and data["card_count"] == 50 and data["name"] == "Fire deck"


def test_put_replaces_the_deck(deck, alice):
    response = client_for(alice).put(f"/api/decks/{deck['id']}/", {"name": "Empty"}, format="json")
    data = response.json()
    assert data["card_count"] == 0 and data["commander"] is None and data["faction"] is None


def test_list_own_decks_only(deck, cards, alice, bob):
    client_for(bob).post("/api/decks/", legal_payload("Bob's"), format="json")
    names = [d["name"] for d in client_for(alice).get("/api/decks/").json()["results"]]
    assert names == ["Fire deck"]


def test_anonymous_cannot_list_own_decks_or_create(deck):
    assert client_for().get("/api/decks/").status_code == 401
    assert client_for().post("/api/decks/", legal_payload(), format="json").status_code in (401, 403)


# --- visibility ------------------------------------------------------------------------------------


def test_private_deck_is_404_for_others_and_anonymous(deck, bob):
    for client in (client_for(bob), client_for()):
        assert client.get(f"/api/decks/{deck['id']}/").status_code == 404
        assert client.get(f"/api/decks/{deck['id']}/export/").status_code == 404
        assert client.get(f"/api/decks/{deck['id']}/stats/").status_code == 404
        assert client.get(f"/api/decks/shared/{deck['share_id']}/").status_code == 404


def test_others_can_never_change_a_deck(deck, alice, bob):
    url = f"/api/decks/{deck['id']}/"
    bob_client = client_for(bob)
    assert bob_client.patch(url, {"name": "mine"}, format="json").status_code == 404
    assert bob_client.delete(url).status_code == 404
    client_for(alice).patch(url, {"visibility": "public"}, format="json")
    assert bob_client.patch(url, {"name": "mine"}, format="json").status_code == 403
    assert bob_client.put(url, {"name": "mine"}, format="json").status_code == 403
    assert bob_client.delete(url).status_code == 403
    assert bob_client.post(f"{url}revisions/1/restore/").status_code == 403
    assert Deck.objects.get().name == "Fire deck"


def test_unlisted_deck_is_readable_by_share_id_only(deck, alice, bob):
    client_for(alice).patch(f"/api/decks/{deck['id']}/", {"visibility": "unlisted"}, format="json")
    anon = client_for()
    assert anon.get(f"/api/decks/{deck['id']}/").status_code == 404
    shared = anon.get(f"/api/decks/shared/{deck['share_id']}/")
    assert shared.status_code == 200
    assert shared.json()["card_count"] == 50 and shared.json()["share_id"] is None
    assert anon.get(f"/api/decks/shared/{deck['share_id']}/export/?format=code").status_code == 200
    assert anon.get("/api/decks/shared/not-a-real-id/").status_code == 404
    assert client_for(bob).get("/api/decks/?public=1").json()["count"] == 0


def test_public_decks_are_listed_for_everyone(deck, alice):
    client_for(alice).patch(f"/api/decks/{deck['id']}/", {"visibility": "public"}, format="json")
    data = client_for().get("/api/decks/?public=1").json()
    assert [d["name"] for d in data["results"]] == ["Fire deck"]
    assert data["results"][0]["legality"]["valid"] is True and data["results"][0]["owner"] == "alice"
    assert client_for().get(f"/api/decks/{deck['id']}/").status_code == 200
    assert client_for().get("/api/decks/?public=1&search=water").json()["count"] == 0


def test_owner_deletes(deck, alice):
    assert client_for(alice).delete(f"/api/decks/{deck['id']}/").status_code == 204
    assert not Deck.objects.exists()


# --- validate / import / export --------------------------------------------------------------------


def test_validate_without_saving(cards):
    body = legal_payload(cards=[{"card": "blaze-queen", "count": 2}, {"card": "tide-caller", "count": 1}])
    response = client_for().post("/api/decks/validate/", body, format="json")
    assert response.status_code == 200
    assert [e["rule"] for e in response.json()["errors"]] == ["C-3.1", "C-3.3", "C-3.4"]
    assert not Deck.objects.exists()


def test_validate_unknown_slug_is_400(cards):
    response = client_for().post(
        "/api/decks/validate/", {"cards": [{"card": "nope", "count": 1}]}, format="json"
    )
    assert response.status_code == 400 and response.json()["extra"]["cards"] == ["nope"]


def test_import_text_reports_lines_and_suggestions(cards):
    response = client_for().post(
        "/api/decks/import/", {"data": "4 Ember Scout\n2 Embr Scout\n"}, format="json"
    )
    data = response.json()
    assert response.status_code == 200
    assert data["errors"][0]["line"] == 2 and data["errors"][0]["suggestions"] == ["Ember Scout"]
    assert data["entries"][0]["count"] == 4
    assert data["legality"]["valid"] is False  # of the 4 cards read: too few (C-3.1)


def test_a_partial_import_saves_the_lines_it_knows_and_lists_the_rest_with_fixes(cards, alice):
    body = {"data": "4 Ember Scout\n2 Embr Scout\n3 Zzzzqqq\n", "save": True, "name": "Typo"}
    response = client_for(alice).post("/api/decks/import/", body, format="json")
    assert response.status_code == 201
    data = response.json()
    assert {e["card"]: e["count"] for e in data["deck"]["cards"]} == {"ember-scout": 4}
    typo, unknown = data["errors"]
    assert (typo["line"], typo["text"], typo["count"]) == (2, "Embr Scout", 2)
    assert typo["suggested_cards"] == [{"card": "ember-scout", "name": "Ember Scout"}]
    assert (unknown["line"], unknown["count"], unknown["suggested_cards"]) == (3, 3, [])
    assert Deck.objects.get().entries.get().count == 4


def test_an_import_with_no_known_line_is_a_400_listing_each_line(cards, alice):
    body = {"data": "2 Embr Scout\nfour scouts\n", "save": True}
    response = client_for(alice).post("/api/decks/import/", body, format="json")
    assert response.status_code == 400 and response.json()["code"] == "import_errors"
    assert "nothing was imported" in response.json()["message"]
    errors = response.json()["extra"]["errors"]
    assert [e["line"] for e in errors] == [1, 2]
    assert errors[0]["suggested_cards"] == [{"card": "ember-scout", "name": "Ember Scout"}]
    preview = client_for().post("/api/decks/import/", {"data": "2 Embr Scout"}, format="json")
    assert preview.status_code == 400 and not Deck.objects.exists()


def test_import_and_save(cards, alice):
    body = {"data": LEGAL_TEXT, "save": True, "name": "Imported"}
    response = client_for(alice).post("/api/decks/import/", body, format="json")
    assert response.status_code == 201
    data = response.json()
    assert data["legality"]["valid"] and data["deck"]["name"] == "Imported"
    assert data["deck"]["faction"]["slug"] == "fire" and data["deck"]["commander"]["slug"] == "blaze-queen"


def test_import_with_errors_saves_nothing(cards, alice):
    body = {"data": "1 Nope", "save": True}
    response = client_for(alice).post("/api/decks/import/", body, format="json")
    assert response.status_code == 400 and response.json()["code"] == "import_errors"
    assert not Deck.objects.exists()


def test_bad_share_code_is_a_clear_400(cards):
    response = client_for().post(
        "/api/decks/import/", {"data": "CMD1garbage", "format": "code"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "bad_share_code" and "share code" in response.json()["message"]


@pytest.mark.parametrize("kind", ["text", "json", "code"])
def test_export_then_import_gives_the_same_deck(deck, alice, kind):
    client = client_for(alice)
    exported = client.get(f"/api/decks/{deck['id']}/export/?format={kind}")
    assert exported.status_code == 200 and exported.json()["format"] == kind
    imported = client.post(
        "/api/decks/import/", {"data": exported.json()["content"], "format": kind}, format="json"
    ).json()
    assert imported["errors"] == []
    assert {e["card"]: e["count"] for e in imported["entries"]} == {
        c["card"]: c["count"] for c in deck["cards"]
    }
    assert imported["commander"]["slug"] == "blaze-queen"


def test_export_unknown_format_is_400(deck, alice):
    response = client_for(alice).get(f"/api/decks/{deck['id']}/export/?format=yaml")
    assert response.status_code == 400 and response.json()["code"] == "invalid_format"


# --- stats / sample hand ---------------------------------------------------------------------------


def test_stats(deck, alice):
    stats = client_for(alice).get(f"/api/decks/{deck['id']}/stats/").json()
    assert stats["types"] == {"unit": 33, "event": 17} and stats["draw_pile"] == 49
    assert stats["keywords"] == {"marking": 4, "range_attack": 8}


def test_sample_hand_is_seeded(deck, alice):
    url = f"/api/decks/{deck['id']}/sample-hand/"
    client = client_for(alice)
    first = client.get(url, {"seed": 42}).json()
    assert len(first["hand"]) == 6 and first["seed"] == 42
    assert client.get(url, {"seed": 42}).json() == first
    assert client.get(url, {"seed": 42, "mulligans": 1}).json()["mulligans"] == 1
    assert isinstance(client.get(url).json()["seed"], int)
    assert client.get(url, {"seed": "x"}).status_code == 400


# --- revisions -------------------------------------------------------------------------------------


def test_every_write_creates_a_revision_and_restore_adds_one(deck, alice):
    client = client_for(alice)
    url = f"/api/decks/{deck['id']}/"
    client.patch(url, {"name": "Renamed", "cards": [{"card": "ember-scout", "count": 2}]}, format="json")
    revisions = client.get(f"{url}revisions/").json()
    assert [r["number"] for r in revisions] == [2, 1]
    assert revisions[0]["snapshot"]["name"] == "Renamed" and len(revisions[1]["snapshot"]["cards"]) == 14
    assert client.get(f"{url}revisions/1/").json()["snapshot"]["commander"] == "blaze-queen"
    restored = client.post(f"{url}revisions/1/restore/")
    assert restored.status_code == 200
    assert restored.json()["name"] == "Fire deck" and restored.json()["card_count"] == 50
    assert restored.json()["legality"]["valid"]
    assert list(DeckRevision.objects.values_list("number", "note")) == [
        (3, "restored revision 1"),
        (2, "saved"),
        (1, "created"),
    ]


def test_revisions_are_private_to_the_owner(deck, bob):
    assert client_for(bob).get(f"/api/decks/{deck['id']}/revisions/").status_code == 404
    assert client_for(bob).post(f"/api/decks/{deck['id']}/revisions/1/restore/").status_code == 404


def test_restoring_a_missing_revision_is_404(deck, alice):
    assert client_for(alice).post(f"/api/decks/{deck['id']}/revisions/9/restore/").status_code == 404


def test_failed_write_is_not_half_applied(deck, alice):
    body = {"name": "Changed", "cards": [{"card": "nope", "count": 1}]}
    assert client_for(alice).patch(f"/api/decks/{deck['id']}/", body, format="json").status_code == 400
    stored = Deck.objects.get()
    assert stored.name == "Fire deck" and stored.entries.count() == 14 and stored.revisions.count() == 1


def test_openapi_schema_documents_the_deck_api(db):
    response = client_for().get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in ("/api/decks/", "/api/decks/validate/", "/api/decks/{id}/export/", "/api/auth/signup/"):
        assert path in paths


# --- match start -----------------------------------------------------------------------------------


def test_match_snapshot_revalidates_and_freezes_the_deck(deck, alice, bob):
    from config.errors import ApplicationError
    from decks.selectors import deck_match_snapshot

    snap = deck_match_snapshot(user=alice, deck_id=deck["id"])
    assert snap["total_cards"] == 50 and snap["commander"] == "blaze-queen"
    ember = next(c for c in snap["cards"] if c["card"] == "ember-scout")
    assert ember["count"] == 4 and ember["data"]["type"] == "unit" and ember["data"]["faction"] == "fire"
    with pytest.raises(ApplicationError) as info:
        deck_match_snapshot(user=bob, deck_id=deck["id"])
    assert info.value.status_code == 404
    client_for(alice).patch(
        f"/api/decks/{deck['id']}/", {"cards": [{"card": "ember-scout", "count": 5}]}, format="json"
    )
    with pytest.raises(ApplicationError) as info:
        deck_match_snapshot(user=alice, deck_id=deck["id"])
    assert info.value.code == "invalid_deck" and "(C-3.1)" in info.value.message
    assert [e["rule"] for e in info.value.extra["legality"]["errors"]] == ["C-3.1", "C-3.2", "C-4.1"]


@pytest.mark.parametrize("data", [["4 Ember Scout"], 12, None])
def test_import_of_a_non_decklist_is_a_400(cards, data):
    response = client_for().post("/api/decks/import/", {"data": data}, format="json")
    assert response.status_code == 400


def test_deck_list_query_count_does_not_grow_with_decks(cards, alice, django_assert_max_num_queries):
    for n in range(6):
        client_for(alice).post("/api/decks/", legal_payload(f"Deck {n}"), format="json")
    with django_assert_max_num_queries(8):
        response = client_for(alice).get("/api/decks/")
    assert response.json()["count"] == 6


def test_restoring_a_revision_whose_card_slug_changed_is_a_clear_400(deck, cards, alice):
    client = client_for(alice)
    client.patch(f"/api/decks/{deck['id']}/", {"cards": [{"card": "ash-runner", "count": 1}]}, format="json")
    cards["Ember Scout"].slug = "ember-scout-v2"
    cards["Ember Scout"].save()
    response = client.post(f"/api/decks/{deck['id']}/revisions/1/restore/")
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_cards" and response.json()["extra"]["cards"] == ["ember-scout"]
    assert Deck.objects.get().revisions.count() == 2
