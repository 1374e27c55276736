"""Every page's own text in Thai and Chinese: each page's content (the <main> of the page and its title)
read in `th` and `zh-hans` holds no English word of the interface, and the catalogues of the page
templates and views are complete (no empty or fuzzy entry). The site's frame (header, nav, footer) is
checked with the frame's own tests.

The words that may stay in Latin script: brand names, rule numbers, usernames, data not translated here
(card and deck names the fixtures make), the search syntax, and the terms the Thai column of
docs/glossary.md itself keeps in Latin script ("Command Point", "Energy Zone", "Planning event" …).
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import polib
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client, override_settings
from django.utils import translation

from boardgame import dataset as board_dataset
from cards.models import Card, Faction
from decks.models import Deck, Visibility
from matches import storage
from matches.games.registry import game_kinds, get_game
from matches.models import Match, MatchStatus
from matches.services import lobby, submit
from matches.tests.commandeer_fixtures import legal_deck, load_cards

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = [
    ROOT / app / "locale" / lang / "LC_MESSAGES" / "django.po"
    for app in ("frontend", "matches")
    for lang in ("th", "zh_Hans")
]
LANGS = ["th", "zh-hans"]

# Text attributes a reader sees or hears (a screen reader reads aria-label; a tooltip shows title).
TEXT_ATTRS = {"title", "aria-label", "placeholder", "alt", "label", "data-too-many-sockets"}
SKIP_TAGS = {"script", "style", "code", "kbd", "template", "svg", "textarea"}
# Brand names, proper names and technical names the pages keep in every language.
ALWAYS_ALLOWED = {
    "commandeer",
    "tcg",
    "westeros",
    "json",
    "ai",
    "cp",
    "utc",
    "openskill",
    "glicko",
    "plackett",
    "luce",
    "nul",
    "id",
    "vs",
}
FIXTURE_WORDS = {"alice", "bob", "ember", "scout", "deck"}  # fixture data
# Search syntax shown as it is typed (the example word "drake", compass codes as in `a:ne`), key names.
SYNTAX_WORDS = {"drake", "ne", "tab", "ctrl"}
# Game data and play-layer text that other parts of the site translate (django-modeltranslation for the
# Westeros areas; the seat titles "Lannister (AI, normal)" of matches.models.Seat and the result line
# "bob conceded" of matches.summary on My games; the import format's
# example decklist "# Deck: <faction> example" of decks.selectors): allowed here until those land.
DATA_NOT_YET = {"easy", "normal", "hard", "example", "commander", "conceded"}


def _latin_terms_of_the_glossary() -> set[str]:
    """Latin-script words of the glossary's Thai column: the terms Thai text keeps as they are."""
    words: set[str] = set()
    for line in (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and not set(cells[1]) <= {"-", " "}:
            words |= {w.lower() for w in re.findall(r"[A-Za-z]+", cells[1])}
    return words


THAI_LATIN = _latin_terms_of_the_glossary()


class _VisibleText(HTMLParser):
    """The text of <main> and of the <title> (its page part, before " · "), plus the readable attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.in_main = 0
        self.skip = 0
        self.in_title = False
        self.title = ""
        self.chunks: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "main":
            self.in_main += 1
        if tag == "title" and not self.in_main:
            self.in_title = True
        if self.in_main and not self.skip:
            self.chunks += [v for k, v in attrs if k in TEXT_ATTRS and v]
        if tag in SKIP_TAGS and self.in_main:
            self.skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "main":
            self.in_main -= 1
        if tag == "title":
            self.in_title = False
        if tag in SKIP_TAGS and self.in_main and self.skip:
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title += data
        elif self.in_main and not self.skip:
            self.chunks.append(data)


def english_words(html: str, lang: str, extra: set[str]) -> list[str]:
    parser = _VisibleText()
    parser.feed(html)
    text = " ".join([parser.title.split(" · ")[0], *parser.chunks])
    text = re.sub(r"\b[CW]-\d+(\.\d+)*\b", " ", text)  # rule numbers
    text = re.sub(r"\b[a-z]+:[a-z]+\b", " ", text)  # search syntax (f:cinder, kw:marking)
    allowed = ALWAYS_ALLOWED | FIXTURE_WORDS | SYNTAX_WORDS | DATA_NOT_YET | extra
    allowed |= THAI_LATIN if lang == "th" else set()
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w.lower() not in allowed]


@pytest.fixture(scope="module", autouse=True)
def _compiled_catalogues() -> None:
    """The .mo files are build products: compile the catalogues for this test."""
    call_command("compilemessages", locale=["th", "zh_Hans"], verbosity=0, ignore=[".venv", "node_modules"])
    translation.trans_real._translations = {}  # reload the catalogues just compiled


def _i18n_settings() -> Any:
    middleware = list(settings.MIDDLEWARE)
    if "django.middleware.locale.LocaleMiddleware" not in middleware:
        middleware.insert(
            middleware.index("django.contrib.sessions.middleware.SessionMiddleware") + 1,
            "django.middleware.locale.LocaleMiddleware",
        )
    return override_settings(
        MIDDLEWARE=middleware,
        LANGUAGE_CODE="en",
        LANGUAGES=[("en", "English"), ("th", "ไทย"), ("zh-hans", "简体中文")],
    )


@pytest.fixture
def world(django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    """A signed-in player with a deck, a card, a waiting and a started match, a Westeros game and a profile."""
    alice = User.objects.create_user("alice", password="pw-alice-123")
    bob = User.objects.create_user("bob", password="pw-bob-123")
    load_cards()  # the sample set, for the legal decks of the rated match
    faction = Faction.objects.create(name="Ember", slug="ember", color="#c0392b")
    card = Card.objects.create(
        name="Ember Scout",
        faction=faction,
        card_type="unit",
        command_cost=1,
        energy_cost=0,
        power=2000,
        health=3000,
        arrows=["N", "NE"],
    )
    deck = Deck.objects.create(owner=alice, name="Deck", visibility=Visibility.PUBLIC)
    bobs = Deck.objects.create(owner=bob, name="Deck", visibility=Visibility.PUBLIC)
    board_dataset.game_data_import(data=board_dataset.bundled_data())
    waiting = lobby.match_create(user=alice, kind="westeros", rules_config={"player_count": 3})
    with django_capture_on_commit_callbacks(execute=True):
        westeros = lobby.match_create(
            user=alice, kind="westeros", vs_ai=True, rules_config={"player_count": 3}
        )
    return {
        "alice": alice,
        "card": card,
        "deck": deck,
        "bobs": bobs,
        "waiting": waiting,
        "westeros": westeros,
        "finished": _rated_commandeer_match(alice, bob),
    }


def _rated_commandeer_match(alice: User, bob: User) -> Match:
    """A rated Commandeer match played for a while, then conceded by bob (C-6.4): profile, leaderboard rows."""
    match = lobby.match_create(
        user=alice,
        kind="commandeer",
        deck_id=legal_deck(alice, "stonehold").pk,
        rules_config={"turn_limit": 12},
        rated=True,
        time_control={"initial_s": 600},
    )
    lobby.match_join(match_id=match.pk, user=bob, deck_id=legal_deck(bob, "tidewardens").pk)
    lobby.match_start(match_id=match.pk, user=alice)
    game, rng, users = get_game(match.kind), random.Random(1), {0: alice, 1: bob}
    for _ in range(40):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        state = storage.load_state(match, game)
        seat = game.current_players(state)[0]
        action = game.ai_action(state, seat, rng=rng, agent="greedy")
        submit.action_submit(
            match_id=match.pk,
            user=users[seat],
            action_json=game.action_to_json(action),
            state_version=match.state_version,
        )
    match.refresh_from_db()
    if match.status == MatchStatus.ACTIVE:
        lobby.match_concede(match_id=match.pk, user=bob)
    match.refresh_from_db()
    return match


def _data_words() -> set[str]:
    """The words of names that are data: areas, houses, cards, factions, decks, test games."""
    data = board_dataset.bundled_data()
    names = [a["name"] for a in data["map"]["areas"]] + [h.title() for h in HOUSES]
    # the test games other test modules register in this process are offered in the lobby too
    names += [get_game(k).label for k in game_kinds() if k not in ("commandeer", "westeros")]
    # card, faction and deck names (data: translated in the database, or named by their players)
    names += [*Card.objects.values_list("name", flat=True), *Faction.objects.values_list("name", flat=True)]
    names += list(Deck.objects.values_list("name", flat=True))
    return {w.lower() for name in names for w in re.findall(r"[A-Za-z]+", name)}


HOUSES = ("stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell")


def _pages(w: dict[str, Any]) -> list[str]:
    return [
        "/",
        "/cards/",
        f"/cards/{w['card'].slug}/",
        "/decks/",
        "/decks/public/",
        f"/decks/{w['deck'].pk}/",
        f"/decks/{w['bobs'].pk}/",
        f"/decks/shared/{w['bobs'].share_id}/",
        "/play/",
        "/play/mine/",
        f"/play/{w['waiting'].pk}/",
        f"/play/{w['waiting'].pk}/replay/",
        f"/play/{w['finished'].pk}/",
        f"/play/{w['finished'].pk}/replay/",
        f"/play/join/{w['waiting'].invite_token}/",
        f"/westeros/games/{w['westeros'].pk}/",
        f"/westeros/games/{w['westeros'].pk}/replay/",
        "/westeros/map/",
        "/westeros/map/?players=3",
        "/players/alice/",
        "/leaderboard/commandeer/",
        "/leaderboard/westeros/",
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_reads_in_the_language_asked_for(world: dict[str, Any], lang: str) -> None:
    client = Client(headers={"accept-language": lang})
    client.force_login(world["alice"])
    assert world["finished"].status == MatchStatus.FINISHED  # the profile's games, the leaderboard's rows
    left: dict[str, list[str]] = {}
    data_words = _data_words()
    with _i18n_settings():
        for url in _pages(world):
            response = client.get(url, follow=True)
            assert response.status_code == 200, url
            if url == "/leaderboard/commandeer/":
                assert b'data-testid="leaderboard"' in response.content  # its table was read too
            words = english_words(response.content.decode(), lang, data_words)
            if words:
                left[url] = words
    assert left == {}, f"English words left in {lang}: {left}"


def test_the_checker_finds_english_it_is_shown() -> None:
    """The check above can fail: an English sentence in <main> or a title attribute is reported."""
    html = '<title>Decks · Commandeer</title><main><p title="Rating change">Ratings ไทย</p><script>var x="Loading"</script></main>'
    assert english_words(html, "th", set()) == ["Decks", "Rating", "change", "Ratings"]
    assert english_words("<main><p>ค่า Command Point และ C-6.2</p></main>", "th", set()) == []


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: "/".join(p.parts[-5:]))
def test_the_catalogues_have_no_empty_or_fuzzy_entry(path: Path) -> None:
    po = polib.pofile(str(path))
    assert len(po) > 0
    assert not po.metadata_is_fuzzy
    assert [e.msgid for e in po if e.fuzzy or e.obsolete] == []
    assert [e.msgid for e in po if not e.translated()] == []


def test_a_game_term_follows_the_glossary() -> None:
    """Spot checks of the glossary's terms in the catalogues (docs/glossary.md)."""
    expected = {
        "th": {"Command cost": "ค่า Command", "House Stark": "บ้าน Stark", "Mulligan": "Mulligan"},
        "zh-hans": {"Command cost": "指挥费用", "House Stark": "史塔克家族", "Mulligan": "调度"},
    }
    for lang, terms in expected.items():
        with translation.override(lang):
            assert {english: translation.gettext(english) for english in terms} == terms


def test_the_wildling_card_texts_name_who_in_the_readers_language_w_16_7() -> None:
    from frontend.westeros_views import _card_texts

    data = board_dataset.bundled_data()
    with translation.override("zh-hans"):
        texts = _card_texts(data)["wildling"]
    assert texts and all("bidder" not in t["text"] and "Everyone" not in t["text"] for t in texts.values())
    assert any(t["text"].startswith(("最少出价者：", "最多出价者：", "其余玩家：")) for t in texts.values())


@pytest.mark.parametrize(("lang", "heading"), [("th", "การ์ด"), ("zh-hans", "卡牌"), ("en", "Cards")])
def test_the_language_cookie_chooses_the_pages_language_too(lang: str, heading: str) -> None:
    client = Client(headers={"accept-language": "en"})
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    with _i18n_settings():
        response = client.get("/cards/")
    assert f"<h1>{heading}</h1>" in response.content.decode()
