"""Card art in headless Chromium: staff upload it in the admin, it shows as thumbnails on the card page, in
the card database and in the deck builder; a bad file is a form error; a card without art shows its
placeholder; every unit on the board names its card in full or by an abbreviation no other card on the
board shares, never cut, with its art, at 1400×900 and 390×844.

Screenshots go to CARD_ART_SCREENSHOTS (docs/screenshots) when it is set.
"""

# ruff: noqa: F811  (the live-site fixture is imported from test_match_log_browser and named as a parameter)
from __future__ import annotations

import io
import os
import subprocess
import sys
from typing import Any

import pytest
from PIL import Image, ImageDraw

from tests.browser.test_match_log_browser import Site, site  # noqa: F401  (the live site)
from tests.services import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.celery_worker]

DESKTOP = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}
CARD = "Stonehide Ram"
SLUG = "stonehide-ram"


def _seed(site: Site, mode: str) -> int:
    out = subprocess.run(
        [sys.executable, "-m", "tests.browser.seed_card_art", mode],
        cwd=ROOT, env=site.env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return int(out.stdout.strip().splitlines()[-1])


def _shot(page: Any, name: str) -> None:
    shots = os.environ.get("CARD_ART_SCREENSHOTS")
    if shots:
        page.screenshot(path=f"{shots}/{name}.png")


def _png(size: tuple[int, int] = (800, 600)) -> bytes:
    """A real picture: a ram's silhouette-ish shapes on a sky, so a thumbnail is seen to be this one."""
    image = Image.new("RGB", size, (96, 140, 190))
    draw = ImageDraw.Draw(image)
    w, h = size
    draw.rectangle((0, int(h * 0.7), w, h), fill=(90, 110, 60))
    draw.ellipse((int(w * 0.25), int(h * 0.35), int(w * 0.75), int(h * 0.8)), fill=(140, 120, 100))
    draw.ellipse((int(w * 0.6), int(h * 0.2), int(w * 0.85), int(h * 0.5)), fill=(120, 100, 80))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def _login(browser: Any, site: Site, name: str, viewport: dict[str, int] = DESKTOP) -> Any:
    page = browser.new_context(viewport=viewport, bypass_csp=True).new_page()
    page.set_default_timeout(30000)  # uploads of a few MB through the admin on a busy machine
    page.goto(f"{site.url}/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", f"pw-{name}-123")
    page.locator("form:has(input[name=password]) [type=submit]").click()
    page.wait_for_load_state()
    return page


def _loaded(page: Any, selector: str) -> dict[str, Any]:
    """src and natural size of the first image matching `selector`, once it has loaded (or failed)."""
    img = page.locator(selector).first
    img.scroll_into_view_if_needed()
    page.wait_for_function(
        "(s) => { const i = document.querySelector(s); return i && i.complete; }", arg=selector
    )
    return img.evaluate(
        "(i) => ({src: i.currentSrc || i.src, width: i.naturalWidth, height: i.naturalHeight})"
    )


def _submit_art(page: Any, site: Site, name: str, mime: str, data: bytes) -> None:
    page.goto(f"{site.url}/admin/cards/card/?q={CARD.replace(' ', '+')}")
    page.locator("#result_list a", has_text=CARD).first.click()
    page.set_input_files("input[name=art]", files=[{"name": name, "mimeType": mime, "buffer": data}])
    page.locator("input[name=_continue]").click()
    page.wait_for_load_state()


def test_bad_files_are_form_errors_then_staff_art_shows_on_the_card_page_database_and_builder(
    chromium_browser: Any, site: Site
) -> None:
    _seed(site, "staff")
    admin = _login(chromium_browser, site, "curator")
    # a text file named .png: a form error on the field, never a server error
    _submit_art(admin, site, "art.png", "image/png", b"not a picture at all\n" * 40)
    errors = admin.locator(".field-art .errorlist, .errors.field-art .errorlist")
    assert errors.count() and "image" in errors.first.inner_text().lower()
    assert "Server Error" not in admin.content()
    # a picture too large: by its sides, then by its bytes (noise does not compress)
    _submit_art(admin, site, "wide.png", "image/png", _png((5000, 400)))
    assert "between 64 and 4096 pixels" in admin.locator(".field-art .errorlist").first.inner_text()
    noisy = io.BytesIO()
    Image.frombytes("RGB", (1400, 1400), os.urandom(1400 * 1400 * 3)).save(noisy, "PNG")
    _submit_art(admin, site, "noise.png", "image/png", noisy.getvalue())
    assert "at most 5 MB" in admin.locator(".field-art .errorlist").first.inner_text()

    _submit_art(admin, site, "ram.png", "image/png", _png())
    assert admin.locator(".messagelist .success").count(), admin.content()[:2000]
    preview = _loaded(admin, ".field-art_preview img")
    assert "/media/" in preview["src"] and preview["width"] == 480

    player = _login(chromium_browser, site, "alice")
    player.goto(f"{site.url}/cards/{SLUG}/")
    big = _loaded(player, "#card-detail [data-testid=card-art]")
    assert "/media/art-cache/" in big["src"] and big["src"].endswith(".webp")
    assert (big["width"], big["height"]) == (480, 360)

    player.goto(f"{site.url}/cards/?q={CARD.replace(' ', '+')}")
    player.wait_for_selector(f"[data-testid=card-tile][data-card={SLUG}]")
    tile = _loaded(player, f"[data-testid=card-tile][data-card={SLUG}] [data-testid=card-art]")
    assert "/media/art-cache/" in tile["src"] and tile["width"] == 480

    deck_id = player.evaluate(
        """async () => {
             const decks = await (await fetch('/api/decks/')).json();
             return (decks.results || decks)[0].id;  // alice's one deck (stonehold), with the Ram

           }"""
    )
    for viewport, size in ((DESKTOP, "1400"), (PHONE, "390")):
        page = player if viewport is DESKTOP else _login(chromium_browser, site, "alice", PHONE)
        page.goto(f"{site.url}/decks/{deck_id}/")
        row = f"[data-testid=deck-row][data-card={SLUG}] [data-testid=card-art]"
        page.wait_for_selector(row)
        thumb = _loaded(page, row)
        # a saved deck's row knows the card by its slug: the redirect leads to the art's thumbnail
        final = page.evaluate("async (src) => (await fetch(src)).url", thumb["src"])
        assert "/media/art-cache/" in final and final.endswith(".webp"), final
        assert (thumb["width"], thumb["height"]) == (160, 120)
        # every row shows a picture: its art or its placeholder, never a broken image
        page.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid=deck-row] img')].every((i) => i.complete)"
        )
        broken = page.evaluate(
            "() => [...document.querySelectorAll('[data-testid=deck-row] img')].filter((i) => !i.naturalWidth).map((i) => i.src)"
        )
        assert broken == []
        page.locator("[data-decklist]").scroll_into_view_if_needed()
        _shot(page, f"card-art-builder-{size}")


def test_a_card_without_art_shows_its_placeholder_in_its_faction_colours(
    chromium_browser: Any, site: Site
) -> None:
    page = _login(chromium_browser, site, "bob")
    page.goto(f"{site.url}/cards/")
    page.wait_for_selector("[data-testid=card-tile] [data-testid=card-art][data-art=placeholder]")
    slug = page.locator("[data-testid=card-tile]:has([data-art=placeholder])").first.get_attribute(
        "data-card"
    )
    placeholder = _loaded(page, f"[data-testid=card-tile][data-card='{slug}'] [data-testid=card-art]")
    assert "/art.svg?v=" in placeholder["src"] and placeholder["width"] > 0
    page.goto(f"{site.url}/cards/{slug}/")
    detail = _loaded(page, "#card-detail [data-testid=card-art]")
    assert "/art.svg?v=" in detail["src"] and detail["width"] > 0
    broken = page.evaluate(
        "() => [...document.images].filter((i) => i.complete && !i.naturalWidth).map((i) => i.src)"
    )
    assert broken == []


LABELS = """() => [...document.querySelectorAll('[data-testid=unit]')].map((u) => {
  const label = u.querySelector('[data-testid=unit-label]');
  const art = u.querySelector('img');
  return {
    name: u.dataset.name, label: label.textContent,
    sw: label.scrollWidth, cw: label.clientWidth, sh: label.scrollHeight, ch: label.clientHeight,
    art: art ? art.complete && art.naturalWidth > 0 : false,
  };
})"""


@pytest.mark.parametrize(("viewport", "size"), [(DESKTOP, "1400"), (PHONE, "390")])
def test_every_unit_on_the_board_names_its_card_distinctly_uncut_with_its_art(
    chromium_browser: Any, site: Site, viewport: dict[str, int], size: str
) -> None:
    match_id = _seed(site, "board")
    page = _login(chromium_browser, site, "alice", viewport)
    page.goto(f"{site.url}/play/{match_id}/")
    page.wait_for_selector("[data-testid=board]:visible")
    page.wait_for_function("() => document.querySelectorAll('[data-testid=unit] img').length >= 12")
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=unit] img')].every((i) => i.complete)"
    )
    units = page.evaluate(LABELS)
    assert len(units) >= 12
    by_card: dict[str, set[str]] = {}
    for unit in units:
        by_card.setdefault(unit["name"], set()).add(unit["label"])
        assert unit["art"], f"{unit['name']}: its art did not load"
        assert "…" not in unit["label"] and unit["label"].strip(), unit
        assert unit["sw"] <= unit["cw"] and unit["sh"] <= unit["ch"], f"label cut: {unit}"
    assert all(len(labels) == 1 for labels in by_card.values()), "one card reads the same everywhere"
    labels = [next(iter(v)) for v in by_card.values()]
    assert len(set(labels)) == len(labels), f"two cards read alike: {by_card}"
    assert len(by_card) >= 4, by_card
    # the hand shows its cards' art too
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=hand-card] img')].every((i) => i.complete)"
    )
    hand = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=hand-card] img')].map((i) => i.complete && i.naturalWidth > 0)"
    )
    assert hand and all(hand)
    page.locator("[data-testid=board]").scroll_into_view_if_needed()
    _shot(page, f"card-art-board-{size}")
