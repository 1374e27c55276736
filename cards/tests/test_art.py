"""Card art: uploads checked by their content, thumbnails made once, the placeholder, caching, the API."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation
from PIL import Image

from cards.art import (
    ART_MAX_BYTES,
    ART_SIZES,
    art_by_name,
    forget_art,
    placeholder_svg,
    placeholder_version,
)
from cards.card_files import cards_export, cards_import
from cards.models import Card

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_cached_art() -> None:
    """The cache outlives each test's database rollback: start without these cards' cached URLs."""
    forget_art(["Ember Scout", "No Such Card"])


def picture(
    fmt: str = "PNG", size: tuple[int, int] = (400, 300), name: str = "art.png"
) -> SimpleUploadedFile:
    """A real picture of `size` in `fmt`, as an upload."""
    buffer = io.BytesIO()
    Image.new("RGB", size, (200, 80, 40)).save(buffer, format=fmt)
    return SimpleUploadedFile(name, buffer.getvalue(), content_type=f"image/{fmt.lower()}")


def _form(card: Card, **extra: Any) -> dict[str, Any]:
    """The admin change form's fields of `card` as they stand."""
    texts = {
        f"{field}_{lang}": getattr(card, f"{field}_{lang}") or ""
        for field in ("name", "rules_text", "flavor_text")
        for lang in ("en", "th", "zh_hans")
    }
    return {
        **texts,
        "slug": card.slug,
        "faction": card.faction_id,
        "card_type": card.card_type,
        "command_cost": card.command_cost,
        "energy_cost": card.energy_cost,
        "power": card.power or "",
        "health": card.health or "",
        "arrows": card.arrows,
        "event_type": card.event_type,
        "abilities": json.dumps(card.abilities),
        "keywords": [k.pk for k in card.keywords.all()],
        **extra,
    }


def _upload(admin_client: Any, card: Card, upload: SimpleUploadedFile) -> Any:
    return admin_client.post(f"/admin/cards/card/{card.pk}/change/", _form(card, art=upload))


def test_staff_upload_is_stored_under_a_new_name_with_thumbnails_in_the_pages_sizes(small_set, admin_client):
    card = Card.objects.get(slug="ember-scout")
    response = _upload(admin_client, card, picture("PNG", (1200, 800), name="whatever.gif"))
    assert response.status_code == 302, response.context["adminform"].form.errors
    card.refresh_from_db()
    # named after the card, with the extension of the format found in the bytes, not the uploaded name
    assert card.art.name.startswith("cards/art/ember-scout-") and card.art.name.endswith(".png")
    for spec, size in (("art_thumb", ART_SIZES["thumb"]), ("art_card", ART_SIZES["card"])):
        path = Path(settings.MEDIA_ROOT) / getattr(card, spec).name
        assert path.exists(), f"{spec} was made when the art was saved"
        with Image.open(path) as thumb:
            assert (thumb.format, thumb.size) == ("WEBP", size)
    first = card.art.name
    assert _upload(admin_client, card, picture("JPEG", (640, 480), name="b.jpg")).status_code == 302
    card.refresh_from_db()
    assert card.art.name != first and card.art.name.endswith(".jpg"), "a new upload never reuses a URL"


@pytest.mark.parametrize(
    ("upload", "message"),
    [
        (SimpleUploadedFile("notes.png", b"just some text, not a picture\n" * 10), "Upload a valid image"),
        (picture("GIF", (200, 150), name="anim.gif"), "GIF pictures are not accepted"),
        (picture("PNG", (5000, 100), name="wide.png"), "each side must be between 64 and 4096 pixels"),
        (picture("PNG", (40, 40), name="tiny.png"), "each side must be between 64 and 4096 pixels"),
    ],
    ids=["text-named-png", "gif", "too-wide", "too-small"],
)
def test_admin_refuses_what_is_not_an_acceptable_picture_with_a_form_error(
    small_set, admin_client, upload, message
):
    card = Card.objects.get(slug="ember-scout")
    response = _upload(admin_client, card, upload)
    assert response.status_code == 200, "the form is shown again, not a 500"
    errors = response.context["adminform"].form.errors["art"]
    assert any(message in e for e in errors), errors
    card.refresh_from_db()
    assert not card.art


def test_admin_refuses_a_file_over_the_byte_limit(small_set, admin_client):
    card = Card.objects.get(slug="ember-scout")
    buffer = io.BytesIO()
    # noise does not compress: a 1400x1400 PNG of random bytes is over 5 MB
    Image.frombytes("RGB", (1400, 1400), os.urandom(1400 * 1400 * 3)).save(buffer, "PNG")
    assert buffer.tell() > ART_MAX_BYTES
    response = _upload(admin_client, card, SimpleUploadedFile("big.png", buffer.getvalue()))
    assert response.status_code == 200
    assert any("at most 5 MB" in e for e in response.context["adminform"].form.errors["art"])


def test_the_form_error_reads_in_the_staff_language(small_set, admin_client):
    card = Card.objects.get(slug="ember-scout")
    admin_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "th"
    response = _upload(admin_client, card, picture("GIF", (200, 150), name="a.gif"))
    assert response.status_code == 200
    html = response.content.decode()
    with translation.override("th"):
        thai = translation.gettext("%(kind)s pictures are not accepted: upload a JPEG, PNG or WebP picture.")
    assert thai != "%(kind)s pictures are not accepted: upload a JPEG, PNG or WebP picture."
    assert thai % {"kind": "GIF"} in html


def test_api_gives_the_placeholder_until_there_is_art_then_the_thumbnails(small_set, admin_client, client):
    body = client.get("/api/cards/ember-scout/").json()
    art = body["art"]
    assert art["placeholder"] is True and art["full"] is None
    assert art["thumb"] == art["card"] and "/cards/ember-scout/art.svg?v=" in art["thumb"]
    card = Card.objects.get(slug="ember-scout")
    assert _upload(admin_client, card, picture()).status_code == 302
    art = client.get("/api/cards/").json()["results"]
    art = next(c["art"] for c in art if c["slug"] == "ember-scout")
    assert art["placeholder"] is False
    assert art["full"].startswith("http://testserver/media/cards/art/ember-scout-")
    assert art["thumb"].endswith(".webp") and art["card"].endswith(".webp") and art["thumb"] != art["card"]
    response = client.get(art["thumb"].removeprefix("http://testserver"))
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    assert b"".join(response.streaming_content)[8:12] == b"WEBP"


def test_placeholder_is_an_svg_in_the_faction_colours_with_its_costs_cached_for_a_year(small_set, client):
    card = Card.objects.select_related("faction").get(slug="ember-scout")
    url = client.get("/api/cards/ember-scout/").json()["art"]["thumb"]
    response = client.get(url.removeprefix("http://testserver"))
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    svg = response.content.decode()
    assert (
        svg.startswith("<svg")
        and f">{card.command_cost}</text>" in svg
        and f">{card.energy_cost}</text>" in svg
    )
    # the faction's colour, lightened and darkened, makes the background
    assert card.faction.color.lower() not in ("", "#666666")
    # an old version (the costs changed since) gets today's drawing, kept only briefly
    stale = client.get("/cards/ember-scout/art.svg?v=old")
    assert "max-age=300" in stale["Cache-Control"] and stale.content == response.content
    assert client.get("/cards/no-such-card/art.svg").status_code == 404


def test_placeholder_version_follows_what_it_draws():
    facts = {"color": "#c0392b", "card_type": "unit", "command_cost": 3, "energy_cost": 1}
    assert placeholder_version(**facts) == placeholder_version(**facts)
    assert placeholder_version(**facts) != placeholder_version(**{**facts, "command_cost": 4})
    assert placeholder_version(**facts) != placeholder_version(**{**facts, "color": "#2980b9"})


def test_placeholder_never_writes_an_unchecked_colour_into_the_svg():
    svg = placeholder_svg(
        color='"/><script>alert(1)</script>', card_type="event", command_cost=2, energy_cost=0
    )
    assert "<script" not in svg and "#666666" not in svg  # grey, shaded
    assert 'stop-color="#' in svg


def test_match_catalog_thumbnails_by_english_name(small_set, admin_client):
    card = Card.objects.get(slug="ember-scout")
    assert "/cards/ember-scout/art.svg?v=" in art_by_name(["Ember Scout"])["Ember Scout"]["thumb"]
    assert _upload(admin_client, card, picture()).status_code == 302
    thumbs = art_by_name(["Ember Scout", "No Such Card"])
    assert set(thumbs) == {"Ember Scout"} and thumbs["Ember Scout"]["thumb"].endswith(".webp")


def test_export_leaves_the_art_out_and_a_re_import_keeps_it(small_set, admin_client):
    """The card text formats carry no pictures (docs/card-format.md): the art survives a re-import."""
    card = Card.objects.get(slug="ember-scout")
    card.energy_cost = 2  # the file changes the card, so the import saves it
    assert _upload(admin_client, card, picture()).status_code == 302
    card.refresh_from_db()
    stored = card.art.name
    exported = cards_export()
    record = next(c for c in exported["cards"] if c["name"] == "Ember Scout")
    assert not {k for k in record if "art" in k}, record.keys()
    record["energy_cost"] = 3
    report = cards_import(exported)
    assert not report.errors and report.cards["updated"] == 1, report
    card.refresh_from_db()
    assert (card.energy_cost, card.art.name) == (3, stored)


def test_match_catalog_art_is_cached_and_forgotten_when_the_card_or_its_faction_changes(
    small_set, django_assert_num_queries
):
    art_by_name(["Ember Scout", "No Such Card"])
    with django_assert_num_queries(0):
        first = art_by_name(["Ember Scout", "No Such Card"])
        assert art_by_name(["No Such Card"]) == {}
    card = Card.objects.select_related("faction").get(slug="ember-scout")
    card.command_cost += 1
    card.save()
    assert art_by_name(["Ember Scout"])["Ember Scout"]["thumb"] != first["Ember Scout"]["thumb"]
    faction = card.faction
    faction.color = "#123456"
    faction.save()
    with django_assert_num_queries(1):
        recoloured = art_by_name(["Ember Scout"])["Ember Scout"]["thumb"]
    assert recoloured != first["Ember Scout"]["thumb"]
