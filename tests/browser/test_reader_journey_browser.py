"""A Thai reader and a Chinese reader, start to finish, in headless Chromium: sign up, build a deck in the
deck builder, play a Commandeer match against the AI to its end (the game's own rules: no shortened turn
limit, no concession), play a Westeros game against AI houses to its end (a one-round game, W-3.1's round
count being a rules setting, ends by W-18.2), chat at the table, and read both rules pages — without
meeting an English sentence.

At every step the whole page is read as the browser shows it (`document.body.innerText`, tooltips and
labels) and checked with the every-page test's detector (`english_words`): brand names, rule numbers,
usernames, the Thai column's Latin terms and the game data's untranslated names and texts are allowed,
nothing else. The server is the every-page test's (`site`: daphne, the seeded users, decks and Westeros
data, eager AI moves with AI_BUDGET_SCALE).
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from matches.engine.decks import SAMPLE_CARDS
from tests.browser.test_browser_match import click_one_move
from tests.browser.test_deck_builder import pick_cards
from tests.browser.test_every_page_in_every_language import (
    MATCH_DATA,
    READ_PAGE,
    TECHNICAL,
    english_words,
    site,
)
from tests.browser.test_i18n_game_pages_browser import Mover
from tests.browser.test_westeros_online import click_simplest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

__all__ = ["site"]  # the imported fixture: pytest finds it in this module's names

LANGUAGES = ("th", "zh-hans")
SAMPLE = SAMPLE_CARDS  # what the site's seed loads
WESTEROS_DATA = """() => {
  const read = (id) => { const n = document.getElementById(id); return n ? JSON.parse(n.textContent) || {} : {}; };
  const map = read("wx-map-data"), cards = read("wx-house-cards"), texts = read("wx-card-texts");
  const out = (map.areas || []).map((a) => a.name);
  for (const c of [...Object.values(cards), ...Object.values(texts).flatMap((d) => Object.values(d))])
    out.push(c.name || "", c.effect || "", c.text || "");
  return out.filter(Boolean);
}"""


class Reader:
    """One reader's browser context and what the detector allows on their pages."""

    def __init__(self, chromium: Any, url: str, made: dict[str, Any], lang: str, name: str) -> None:
        self.url, self.lang, self.name = url, lang, name
        self.texts = set(made["data"]["texts"][lang])
        self.names = set(made["data"]["names"][lang]) | set(made["decks"])
        self.ctx = chromium.new_context(bypass_csp=True, viewport={"width": 1280, "height": 900})
        self.ctx.add_cookies([{"name": "django_language", "value": lang, "url": url}])
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(20_000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(f"{self.page.url}: {error}"))
        # a native dialog would block every later evaluate: note it (the site asks in its own dialogs) and go on
        self.page.on(
            "dialog", lambda dialog: (self.errors.append(f"native dialog: {dialog.message}"), dialog.accept())
        )
        self.found: dict[str, list[str]] = {}

    def check(self, step: str) -> None:
        """Read the page as shown now; note any English word under `step`."""
        text = str(self.page.evaluate(READ_PAGE, TECHNICAL))
        names, texts = self.page.evaluate(MATCH_DATA)
        if self.page.locator("#wx-map-data").count():
            names = [*names, *self.page.evaluate(WESTEROS_DATA)]
        words = english_words(
            text,
            self.lang,
            self.texts | set(texts),
            frozenset(self.names | set(names)),
            frozenset(
                {f"reader{language[:2]}" for language in LANGUAGES}
            ),  # usernames, the other reader's too
        )
        if words:
            self.found.setdefault(step, [])
            self.found[step] = sorted(set(self.found[step]) | set(words))

    def visit(self, path: str, step: str, wait_for: str = "") -> None:
        self.page.goto(f"{self.url}{path}")
        self.page.wait_for_load_state("networkidle")
        if wait_for:
            self.page.wait_for_selector(wait_for, state="attached")
        self.check(step)


def sign_up(r: Reader) -> None:
    r.visit("/accounts/signup/", "sign up")
    r.page.fill("#id_username", r.name)
    r.page.fill("#id_password1", "a-long-pass-123")
    r.page.fill("#id_password2", "a-long-pass-123")
    r.page.click("form.form button[type=submit]")
    r.page.wait_for_url(f"{r.url}/decks/")
    assert r.page.text_content("[data-testid=nav-username]") == r.name
    r.check("deck list")


def build_deck(r: Reader) -> int:
    """A 50-card deck of one faction, each card found by the builder's search and added by clicking."""
    from django.utils.text import slugify

    faction, plan = pick_cards(json.loads(SAMPLE.read_text(encoding="utf-8")))
    r.page.fill("[data-testid=new-deck-name]", "deck")
    r.page.wait_for_selector(f"[data-testid=new-deck-faction] option[value='{faction}']", state="attached")
    r.page.select_option("[data-testid=new-deck-faction]", faction)
    r.page.click("[data-testid=new-deck-submit]")
    r.page.wait_for_url(re.compile(r"/decks/\d+/$"))
    r.page.wait_for_selector("#deck-builder[data-ready=true]")
    deck_id = int(re.search(r"/decks/(\d+)/", r.page.url).group(1))  # type: ignore[union-attr]
    r.names.add("deck")
    search = r.page.locator("#builder-search")
    for index, (card, copies) in enumerate(plan):
        search.locator("[data-testid=card-search-input]").fill(f'name:"{card["name"]}"')
        search.locator("[data-testid=card-search-input]").press("Enter")
        tile = search.locator(f"[data-testid=card-tile][data-card='{slugify(card['name'])}']")
        tile.wait_for()
        for _ in range(copies):
            tile.locator("[data-testid=add-card]").click()
        if index == 0:
            r.check("deck builder (illegal deck)")  # the legality panel explains what is missing
    r.page.locator("[data-testid=legality-error]").first.wait_for(state="detached")
    # the builder saves as you go: wait until its state line says the last change is saved
    r.page.wait_for_selector("[data-testid=save-state][data-state=saved]", timeout=15_000)
    r.page.wait_for_load_state("networkidle")
    r.check("deck builder (legal deck, saved)")
    return deck_id


def play_commandeer(r: Reader, deck_id: int) -> None:
    """Against the AI with the deck just built, the lobby's quick length (C-6.5: two turns each, so the
    journey fits the CI's time), played to the engine's end."""
    r.visit("/play/", "lobby")
    r.page.select_option("[data-testid=deck]", str(deck_id))
    r.page.select_option("[data-testid=turn-limit]", "2")
    r.page.click("[data-testid=play-ai]")
    r.page.wait_for_url(re.compile(r"/play/\d+/$"))
    r.page.wait_for_selector("#conn[data-state]")
    from playwright.sync_api import Error as PlaywrightError

    mover, deploys = Mover(r.page), {}
    mover.name = r.name
    moves, started = 0, time.monotonic()
    for _ in range(3000):
        if mover.status() in ("finished", "aborted"):
            break
        assert time.monotonic() - started < 300, (
            f"the quick match did not end in 5 minutes ({moves} moves; decision: "
            f"{r.page.locator('#decision').inner_text()[:300]!r})"
        )
        if not mover.my_move():
            time.sleep(0.05)
            continue
        if moves % 4 == 0:
            r.check("Commandeer match")
        version = mover.version()
        try:
            click_one_move(mover, deploys)  # type: ignore[arg-type]
        except PlaywrightError:  # the page re-rendered under the click: try again
            pass
        moves += 1
        end = time.monotonic() + 5
        while mover.version() <= version and mover.status() == "active" and time.monotonic() < end:
            time.sleep(0.03)
    assert mover.status() == "finished"
    result = r.page.evaluate("window.matchConnection.snapshot.result")
    assert result["reason"] in ("six_defeated", "no_units", "turn_limit"), result  # the rules' own end
    r.page.wait_for_selector("#game-over-title:visible")
    r.page.wait_for_function("document.querySelector('#game-over-body').textContent.length > 0")
    r.check("Commandeer game over")

    # chat at the table: the message is shown, the chat's frame in the reader's language
    if r.page.get_attribute("[data-testid=chat-toggle]", "aria-expanded") != "true":
        r.page.click("[data-testid=chat-toggle]")
    r.page.wait_for_selector("[data-testid=chat-input]:visible")
    r.page.fill("[data-testid=chat-input]", "gg")
    r.page.press("[data-testid=chat-input]", "Enter")
    r.page.locator("[data-testid=chat-messages]").filter(has_text="gg").wait_for()
    r.names.add("gg")
    r.check("chat")
    r.visit(re.sub(r"^https?://[^/]+", "", r.page.url).rstrip("/") + "/replay/", "replay")


def play_westeros(r: Reader) -> None:
    """Against two AI houses, one round (W-3.1's setting), every decision clicked, to the end (W-18.2)."""
    match_id = r.page.evaluate(
        """async () => {
             const csrf = document.cookie.split("; ").find((c) => c.startsWith("csrftoken=")).split("=")[1];
             const answer = await fetch("/api/matches/", {method: "POST", credentials: "same-origin",
               headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
               body: JSON.stringify({kind: "westeros", vs_ai: true, ai_agent: "easy",
                 time_control: {per_move_s: 600, bank_s: 0},
                 rules_config: {player_count: 3, seating: "choose", house: "stark", max_rounds: 1}})});
             return (await answer.json()).id;
           }"""
    )
    assert isinstance(match_id, int), match_id
    r.visit(f"/westeros/games/{match_id}/", "Westeros game", "[data-testid=map-hint]")
    started, clicks = time.monotonic(), 0
    while r.page.evaluate("document.body.dataset.status || ''") != "finished":
        assert time.monotonic() - started < 240, "the one-round game did not end in 4 minutes"
        mine = r.page.locator("[data-testid=whose-turn][data-mine='1']").count() == 1
        if not mine or r.page.locator("body[data-submitting]").count():
            time.sleep(0.05)
            continue
        if clicks % 10 == 0:
            r.check("Westeros game")
        version = r.page.evaluate("document.body.dataset.version || ''")
        try:
            click_simplest(r.page)
        except Exception:  # the page re-rendered under the click (a live update): look again
            continue
        clicks += 1
        end = time.monotonic() + 10
        while r.page.evaluate("document.body.dataset.version || ''") == version and time.monotonic() < end:
            time.sleep(0.03)
    r.page.wait_for_selector("[data-testid=result]:visible")
    r.check("Westeros game over")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_reader_signs_up_builds_plays_both_games_chats_and_reads_the_rules(
    site: tuple[str, dict[str, Any]], chromium_browser: Any, lang: str
) -> None:
    url, made = site
    started = time.monotonic()
    r = Reader(chromium_browser, url, made, lang, f"reader{lang[:2]}")
    try:
        sign_up(r)
        deck_id = build_deck(r)
        play_commandeer(r, deck_id)
        play_westeros(r)
        r.visit("/rules/commandeer/", "Commandeer rules")
        r.visit("/rules/westeros/", "Westeros rules")
    finally:
        r.ctx.close()
    assert r.found == {}, f"English words met by the {lang} reader: {r.found}"
    assert r.errors == []
    print(f"{lang}: the whole journey took {time.monotonic() - started:.0f} s")
