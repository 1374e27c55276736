"""Both game pages in Thai and in Chinese, in headless Chromium: what the pages' JavaScript writes (the
decision panel, its hints and buttons, phases, side panels, hand, clocks, the Westeros tracks, houses,
combat and area panels, the end-of-game summary) carries no English UI word.

A Commandeer match against the AI is played to its end by clicking (the live daphne server of
test_browser_match), a Westeros game against AI houses through its first decisions (orders placed by
clicking, Ready). The language comes from the `django_language` cookie, as the switcher sets it.

Allowed Latin words: the Thai game terms the glossary keeps in Latin script (docs/glossary.md), brand names,
rule numbers, usernames and seat names, and names from the game data (cards, areas) that have no translation
in the seeded data. The log (rendered per viewer from its messages) and the end-of-game reason are read
too. SCREENSHOT_DIR keeps a picture of each page at 1400×900 and 390×844.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

# The live daphne server (SQLite, eager AI moves) and the clicking of test_browser_match; pytest finds the
# fixture in this module's names.
from tests.browser.test_browser_match import click_one_move, server  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

LANGUAGES = ("th", "zh-hans")
SIZES = ((1400, 900), (390, 844))

# Game terms docs/glossary.md keeps in Latin script inside Thai text (Chinese translates them all).
THAI_LATIN_TERMS = {
    "Planning",
    "Defending",
    "Combat",
    "End",
    "Phase",
    "Energy",
    "Zone",
    "Retired",
    "Defeated",
    "Removed",
    "Commander",
    "Command",
    "Point",
    "Legendary",
    "Unique",
    "Mulligan",
    "Reinforce",
    "Range",
    "Attack",
    "Deploying",
    "Casting",
    "Spoil",
    "Marking",
    "Formation",
    "Power",
    "Health",
    "event",
    "Ongoing",
    "Defensive",
    "Westeros",
    "Iron",
    "Throne",
    "Fiefdoms",
    "King's",
    "Court",
    "Valyrian",
    "Steel",
    "Blade",
    "Messenger",
    "Raven",
    "Clash",
    "of",
    "Kings",
    "Wildling",
    "Wildlings",
    "Stark",
    "Lannister",
    "Baratheon",
    "Greyjoy",
    "Tyrell",
    "Martell",
    "En",
    "STA",
    "LAN",
    "BAR",
    "GRE",
    "TYR",
    "MAR",  # the houses' short names on the tracks
}
# Abbreviations and key names that stay Latin in every language.
EVERYWHERE = {"CP", "AI", "Esc", "Enter", "HTTP", "Commandeer", "TCG", "II", "III"}  # II, III: Westeros decks

# Regions the pages' JavaScript fills, the log with them (a Westeros action's tooltip excepted: below).
MATCH_REGIONS = (
    "#prompt",
    "#hint",
    "#whose",
    "#phase",
    "#turn",
    "#turns-left",
    "#side-top",
    "#side-bottom",
    "#hand",
    "#clocks",
    "#selection",
    "#conn",
    "#game-over-title",
    "#game-over-body",
    "[data-testid=log]",
)
WESTEROS_REGIONS = (
    "#wx-phase",
    "#wx-you",
    "#wx-turn",
    "#wx-tracks",
    "#wx-supply",
    "#wx-wildlings",
    "#wx-westeros",
    "#wx-houses",
    "#wx-hand",
    "#wx-decide-title",
    "#wx-waiting",
    "#wx-area",
    "#wx-combat",
    "#wx-hand-strip",
    "#wx-conn",
    "#wx-log",
)


def english_words(text: str, lang: str, names: set[str]) -> list[str]:
    """The Latin-script words of `text` that are neither allowed terms nor names of the game's data."""
    for name in sorted(names, key=len, reverse=True):  # multi-word names first ("The Shivering Sea")
        if name:
            text = text.replace(name, " ")
    text = re.sub(r"\b[CW]-\d+(?:\.\d+)*\b", " ", text)  # rule numbers stay as they are
    allowed = EVERYWHERE | (THAI_LATIN_TERMS if lang == "th" else set())
    return [w for w in re.findall(r"[A-Za-z][A-Za-z']+", text) if w not in allowed]


# What the game data writes inside those regions: a card's rules text and notes, a Westeros card's effect
# (read as data: translated where the data is, allowed by name where it is not).
SERVER_TEXT = ".hc-text, .hc-note, .wx-effect, .wx-effect-full"


def region_text(page: Any, regions: tuple[str, ...]) -> str:
    """The visible text of the regions, and the titles and aria-labels in them (read aloud, shown on hover)."""
    return str(
        page.evaluate(
            """([regions, server]) => {
             const out = [];
             for (const root of regions.flatMap((sel) => [...document.querySelectorAll(sel)])) {
               if (!root.checkVisibility()) continue;
               const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
               for (let t = walker.nextNode(); t; t = walker.nextNode()) {
                 const el = t.parentElement;
                 if (el && el.checkVisibility() && !el.closest(server)) out.push(t.textContent);
               }
               for (const n of root.querySelectorAll("[title], [aria-label]")) { // the region's own: the template's
                 // a Westeros action button's tooltip is the server's description of the action
                 if (n.closest(server) || n.matches("#wx-actions [data-testid=action], #wx-area [data-testid=action]")) continue;
                 out.push(n.getAttribute("title") || "", n.getAttribute("aria-label") || "");
               }
             }
             return out.join("\\n");
           }""",
            [list(regions), SERVER_TEXT],
        )
    )


def new_player(chromium: Any, url: str, name: str, password: str, lang: str, size: tuple[int, int]) -> Any:
    width, height = size
    ctx = chromium.new_context(bypass_csp=True, viewport={"width": width, "height": height})
    ctx.add_cookies([{"name": "django_language", "value": lang, "url": url}])
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto(f"{url}/accounts/login/")
    assert page.locator("html").get_attribute("lang") == lang
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", password)
    page.locator("form:has(input[name=password]) [type=submit]").click()
    page.wait_for_url(lambda u: "/accounts/login/" not in u)
    return page


def shoot(page: Any, name: str) -> None:
    shots = os.environ.get("SCREENSHOT_DIR")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{shots}/{name}.png")


def seat_names(page: Any) -> set[str]:
    names = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=seat], .side-name, .clock span')].map((n) => n.textContent)"
    )
    return {n.strip() for n in names if n}


class Mover:
    """What click_one_move and the waits of test_browser_match need of a player."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.name = "carol"

    def version(self) -> int:
        return int(self.page.evaluate("document.body.dataset.version || -1"))

    def status(self) -> str:
        return str(self.page.evaluate("document.body.dataset.status || ''"))

    def my_move(self) -> bool:
        return (
            self.page.locator("#whose[data-mine='1']").count() > 0
            and self.page.locator("body[data-submitting]").count() == 0
        )


def card_names(page: Any) -> set[str]:
    """The card names and rules texts of the view's catalogue (game data) and the engine's reasons why a
    card cannot be played and the result's words (server texts), as the page holds them."""
    texts = page.evaluate(
        """() => {
             const snap = window.matchConnection && window.matchConnection.snapshot;
             const view = (snap && snap.view) || {};
             const catalog = view.catalog || {};
             const result = (snap && snap.result) || {};
             return [...Object.keys(catalog), ...Object.values(catalog).map((c) => c.rules_text || ""),
                     ...Object.values(view.unplayable || {}), result.text || "", result.reason || ""];
           }"""
    )
    return {t for t in texts if t}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_commandeer_match_against_the_ai_reads_in_the_language(
    server: str,  # noqa: F811 (the imported fixture)
    chromium_browser: Any,
    lang: str,
) -> None:
    from playwright.sync_api import Error as PlaywrightError

    page = new_player(chromium_browser, server, "carol", "pw-carol-123", lang, SIZES[0])
    page.goto(f"{server}/play/")
    page.select_option("[data-testid=turn-limit]", "2")
    page.click("[data-testid=play-ai]")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    page.wait_for_selector("[data-testid=board]:visible")
    page.wait_for_selector("#conn[data-state]")  # the script's word, not the template's first one
    mover, deploys, found, names, shot = Mover(page), {}, {}, set(), False
    for step in range(400):
        if mover.status() in ("finished", "aborted"):
            break
        text = region_text(page, MATCH_REGIONS)
        names |= card_names(page) | seat_names(page)  # after the text: a live update may have come between
        words = english_words(text, lang, names)
        if words:
            found[step] = words
        if (
            not shot and step >= 8 and (page.locator(".unit").count() or step >= 20)
        ):  # mid-match, units on the board
            shot = True
            shoot(page, f"match-{lang}-1400")
            page.set_viewport_size({"width": 390, "height": 844})
            page.wait_for_timeout(300)
            shoot(page, f"match-{lang}-390")
            text = region_text(page, MATCH_REGIONS)
            names |= card_names(page) | seat_names(page)
            words = english_words(text, lang, names)
            if words:
                found["phone"] = words
            page.set_viewport_size({"width": 1400, "height": 900})
        if not mover.my_move():
            time.sleep(0.05)
            continue
        version = mover.version()
        try:
            click_one_move(mover, deploys)  # type: ignore[arg-type]
        except PlaywrightError:  # the page re-rendered under the click: try again
            pass
        end = time.monotonic() + 5
        while mover.version() <= version and mover.status() == "active" and time.monotonic() < end:
            time.sleep(0.03)
    assert mover.status() == "finished"
    page.wait_for_selector("#game-over-title:visible")
    page.wait_for_function("document.querySelector('#game-over-body').textContent.length > 0")
    text = region_text(page, MATCH_REGIONS)
    names |= card_names(page) | seat_names(page)
    words = english_words(text, lang, names)
    if words:
        found["over"] = words
    assert found == {}, f"English words on the {lang} match page: {found}"
    assert page.errors == []
    page.context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_westeros_game_against_ai_houses_reads_in_the_language(
    live_server: Any, chromium_browser: Any, lang: str
) -> None:
    from django.contrib.auth.models import User

    from boardgame import dataset as board_dataset
    from matches.services import lobby as match_services

    board_dataset.game_data_import(data=board_dataset.bundled_data())
    user = User.objects.create_user("ned", password="pw-ned-12345")
    match = match_services.match_create(
        user=user, kind="westeros", vs_ai=True, rules_config={"player_count": 3, "house": "stark"}
    )
    for size in SIZES:
        page = new_player(chromium_browser, live_server.url, "ned", "pw-ned-12345", lang, size)
        page.goto(f"{live_server.url}/westeros/games/{match.pk}/")
        page.locator("[data-testid=map-hint]").wait_for()
        data = page.evaluate(
            """() => ({map: JSON.parse(document.getElementById('wx-map-data').textContent),
                       cards: JSON.parse(document.getElementById('wx-house-cards').textContent) || {},
                       texts: JSON.parse(document.getElementById('wx-card-texts').textContent) || {}})"""
        )
        # Names and texts of the game data (areas, house cards, Westeros and wildling cards) and seat names.
        names = {a["name"] for a in data["map"]["areas"]}
        for card in [*data["cards"].values(), *[c for deck in data["texts"].values() for c in deck.values()]]:
            names |= {card.get("name") or "", card.get("effect") or "", card.get("text") or ""}
        names |= set(page.evaluate("() => (window.matchConnection.snapshot.seats || []).map((s) => s.name)"))
        found: dict[str, list[str]] = {}
        words = english_words(region_text(page, WESTEROS_REGIONS), lang, names)
        if words:
            found["orders"] = words
        if size == SIZES[0]:
            # A few decisions: an order in every area (clicking its token), then Ready.
            for _ in range(8):
                tokens = page.locator("[data-testid=orders-plan] .wx-plan-tokens button")
                if not tokens.count():
                    break
                version = page.evaluate("document.body.dataset.version")
                tokens.first.click()
                page.wait_for_function(f"document.body.dataset.version !== '{version}'")
                words = english_words(region_text(page, WESTEROS_REGIONS), lang, names)
                if words:
                    found.setdefault("placing", []).extend(words)
            page.locator("svg .wx-area[data-area-id=winterfell]").dispatch_event("click")
            words = english_words(region_text(page, WESTEROS_REGIONS), lang, names)
            if words:
                found["area"] = words
        shoot(page, f"westeros-{lang}-{size[0]}")
        assert found == {}, f"English words on the {lang} Westeros page at {size}: {found}"
        assert page.errors == []
        page.context.close()


def test_the_english_words_check_finds_english() -> None:
    """The check itself: an English hint is found, the allowed terms and names are not."""
    assert english_words("Choose a target (C-5.2)", "th", set()) == ["Choose", "target"]
    assert english_words("ช่วง Planning Phase ของคุณ — 3 CP", "th", set()) == []
    assert english_words("计划阶段 Planning", "zh-hans", set()) == ["Planning"]
    assert english_words("โจมตี Blazing Lancer", "th", {"Blazing Lancer"}) == []
    assert json.dumps(english_words("", "th", set())) == "[]"


def test_board_names_are_shortened_between_thai_words_never_inside_one(
    server: str,  # noqa: F811 (the imported fixture)
    chromium_browser: Any,
) -> None:
    """A unit's name on a board square (match_render.js shortName) ends after a whole word (Intl.Segmenter
    finds Thai words, which have no spaces between them); the full name stays in the square's label."""
    page = new_player(chromium_browser, server, "carol", "pw-carol-123", "th", SIZES[0])
    page.goto(f"{server}/play/")
    result = page.evaluate(
        """async () => {
             const { shortName } = await import("/static/frontend/match_render.js");
             const seg = new Intl.Segmenter("th", { granularity: "word" });
             const names = ["อัศวินเพลิงผู้พิทักษ์ปราการศิลา", "อัศวินเพลิงผู้พิทักษ์แห่งกระแสน้ำ", "Ignara, the Dawn Pyre of the Cinder Legion"];
             return names.map((name) => {
               const short = shortName(name, 16);
               const ends = new Set([0]);
               for (const s of seg.segment(name)) ends.add(s.index + s.segment.length);
               const kept = short.replace(/…$/, "").trimEnd();
               return { name, short, prefix: name.startsWith(kept), atWordEnd: ends.has(kept.length) };
             });
           }"""
    )
    for row in result:
        assert row["prefix"] and row["atWordEnd"], row
        assert row["short"].endswith("…") and len(row["short"]) <= 17, row
    page.context.close()
