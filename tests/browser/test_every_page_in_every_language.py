"""Every page of the site in Thai and in Chinese, as a browser shows it once the pages' scripts have run:
`document.body.innerText` (the frame, the page, what the scripts wrote) and the tooltips and labels
(`title`, `aria-label`, `placeholder`) hold no English word of the interface.

The server-side twin (frontend/tests/test_page_translations.py) reads the templates' HTML; this one reads
what the JavaScript writes too (legality panels, lists loaded from the API, the live match page, the
Westeros board). One browser context per language visits the pages in sequence on a live daphne server
(HTTP and WebSockets) seeded by this module (run as a script, see `seed`).

Latin-script words that may stay: brand names (Commandeer, Westeros, A Game of Thrones …), rule numbers,
usernames, numbers and units, the terms the Thai column of docs/glossary.md keeps in Latin script (Thai
only), and names and texts of the game data (cards, factions, keywords, areas, houses, house cards) that
have no translation in the language. What the server writes is read too: the game logs and replays, the
engines' action descriptions, reasons and results (rendered per viewer from their messages), the seats'
names ("AI (hard)"), and the card abilities' descriptions (cards.describe through the catalogue).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

LANGUAGES = ("th", "zh-hans")
USERS = ("alice", "bob", "carol")
# Brand and product names, written the same in every language (phrases first: they hold common words).
BRANDS = ("A Game of Thrones", "Commandeer TCG", "Commandeer", "Westeros", "TCG")
# Abbreviations, units and key names every language keeps: Command Points (CP), the AI players, the keys
# named in hints, file formats, the API (the footer's link to the API docs), the rating systems named on
# the leaderboard, the Westeros decks' numbers (II, III), the publisher and FAQ the Westeros rules cite, and
# the compass codes of attack arrows (N, NE … as the card search types them).
EVERYWHERE = {
    "cp",
    "ai",
    "esc",
    "ctrl",  # a key name (the deck builder's Ctrl+Z undo), as printed on the keyboard
    "enter",
    "tab",
    "utc",
    "json",
    "api",
    "vs",
    "id",
    "openskill",
    "glicko",
    "plackett",
    "luce",
    "ii",
    "iii",
    "ffg",
    "faq",
    *("n", "ne", "e", "se", "s", "sw", "w", "nw"),
}
# The site's language menu names each language in its own script: "English" is the English language's name.
LANGUAGE_NAMES = {"english"}
# Houses' short names on the Westeros tracks and the Westeros terms the Thai text keeps in Latin script
# (as tests/browser/test_i18n_game_pages_browser.py allows them).
# "En" is the Energy cost's short label; the Thai Westeros rules keep the Night's Watch's name and a
# programmer's "docstring" (the implementation notes) in Latin script.
THAI_TRACK_AND_CARD_TERMS = {
    *("sta", "lan", "bar", "gre", "tyr", "mar"),
    *("messenger", "raven", "king's", "court", "en", "night's", "watch", "docstring"),
}
# Technical names (code, key names) the rules pages and hints show as they are typed.
TECHNICAL = "code, pre, kbd"


def thai_latin_terms() -> set[str]:
    """The Latin-script words of the glossary's Thai column (docs/glossary.md), lower case."""
    words: set[str] = set()
    for line in (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and not set(cells[1]) <= {"-", " "}:
            words |= {w.lower() for w in re.findall(r"[A-Za-z]+", cells[1])}
    return words


def english_words(
    text: str,
    lang: str,
    texts: set[str],
    names: frozenset[str] = frozenset(),
    extra: frozenset[str] = frozenset(),
) -> list[str]:
    """The Latin-script words of `text` that are no allowed term, brand, username or data: `texts` are
    the data's texts as the language shows them, `names` the data's names (cards, areas, decks …)."""
    for name in sorted(
        texts | names | set(BRANDS), key=len, reverse=True
    ):  # "The Shivering Sea" before "Sea"
        if len(name) > 1:
            text = text.replace(name, " ")
    text = re.sub(r"\b[CW]-\d+(?:\.\d+)*\b", " ", text)  # rule numbers stay as they are
    text = re.sub(r"https?://\S+", " ", text)  # addresses (a deck's share link)
    text = re.sub(r"[\w./-]+\.(?:md|py|json)\b", " ", text)  # file names the rules pages cite
    text = re.sub(r"\b[a-z]+:[a-z]+\b", " ", text)  # search syntax as it is typed (f:cinder, kw:marking)
    # the import format's example decklist: its keywords are read in English ("# Deck: … example", "Commander:")
    text = re.sub(r"^# Deck: .* example$|^Commander: ", " ", text, flags=re.M)
    text = re.sub(
        r"\b\d+(?:[.,:]\d+)*\s?(?:CP|E|s|m|h|ms|px)\b", " ", text
    )  # numbers with units: 3 CP, 5 E, 10 s
    allowed = EVERYWHERE | LANGUAGE_NAMES | set(USERS) | extra
    # a data name may be shown shortened ("Nerissa, Voice…") or over two lines (a map label): its words
    allowed |= {
        w.lower() for name in names if len(name.split()) <= 6 for w in re.findall(r"[A-Za-z][A-Za-z']+", name)
    }
    if lang == "th":
        allowed |= thai_latin_terms() | THAI_TRACK_AND_CARD_TERMS
    # a board label's deliberate abbreviation of a unit's card name ("Guar." for Guardian, "GDMK" initials)
    name_words = [w.lower() for name in names for w in re.findall(r"[A-Za-z][A-Za-z']+", name)]
    initials = {"".join(w[0] for w in re.findall(r"[A-Za-z][A-Za-z']*", name)).lower() for name in names}

    def shortened(word: str, at: int) -> bool:
        low = word.lower()
        if word.isupper() and low in initials:
            return True
        return text[at + len(word) : at + len(word) + 1] == "." and any(n.startswith(low) for n in name_words)

    return [
        m[0]
        for m in re.finditer(r"[A-Za-z][A-Za-z']+", text)
        if m[0].lower() not in allowed and not shortened(m[0], m.start())
    ]


def seed() -> dict[str, Any]:
    """Add to seed_browser's users and decks what every page needs (run in the server's environment):
    public decks, a Commandeer match in play and one finished, a Westeros game against AI houses. Answers
    the ids and, per language, the data texts that have no translation in it."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from modeltranslation.translator import translator

    from boardgame import dataset as board_dataset
    from cards.models import Card
    from decks.models import Deck, Visibility
    from frontend.tests.test_page_translations import _rated_commandeer_match
    from matches.services import lobby

    users = {u.username: u for u in get_user_model().objects.filter(username__in=USERS)}
    alice, bob = users["alice"], users["bob"]
    board_dataset.game_data_import(data=board_dataset.bundled_data())
    Deck.objects.filter(owner__in=[alice, bob]).update(visibility=Visibility.PUBLIC)
    alices, bobs = Deck.objects.get(owner=alice), Deck.objects.get(owner=bob)
    live = lobby.match_create(
        user=alice, kind="commandeer", deck_id=alices.pk, rules_config={"turn_limit": 12}
    )
    lobby.match_join(match_id=live.pk, user=bob, deck_id=bobs.pk)
    lobby.match_start(match_id=live.pk, user=alice)
    finished = _rated_commandeer_match(alice, bob)
    westeros = lobby.match_create(user=alice, kind="westeros", vs_ai=True, rules_config={"player_count": 3})

    # every translated field's text as each language shows it: its translation, or the English it falls back to
    shown_texts: dict[str, dict[str, set[str]]] = {
        kind: {lang: set() for lang in LANGUAGES} for kind in ("names", "texts")
    }
    for model in translator.get_registered_models(abstract=False):
        if model.__name__.startswith("Historical"):
            continue
        fields = translator.get_options_for_model(model).fields
        for obj in model.objects.all():
            for field in fields:
                english = getattr(obj, f"{field}_en", None) or ""
                for lang in LANGUAGES:
                    # the data's own words in the language (or the English ones it keeps): data, not the UI's
                    shown = getattr(obj, f"{field}_{lang.replace('-', '_')}", None) or english
                    if shown:
                        shown_texts["names" if field == "name" else "texts"][lang].add(shown)
    data = {kind: {lang: sorted(t) for lang, t in by_lang.items()} for kind, by_lang in shown_texts.items()}
    # the users' decks are named by them, in any language
    deck_names = sorted(set(Deck.objects.values_list("name", flat=True)))
    return {
        "card": Card.objects.order_by("name").first().slug,
        "deck": alices.pk,
        "bobs": bobs.pk,
        "shared": bobs.share_id,
        "live": live.pk,
        "finished": finished.pk,
        "westeros": westeros.pk,
        "data": data,
        "decks": deck_names,
    }


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    """A daphne server as production shows the site (DEBUG off: the branded error pages) on a fresh SQLite
    database, the catalogues compiled; its URL and what `seed` made."""
    # imported here: run as a script (`seed`), this module must not load Django models before setup
    from tests.services import daphne, redis_reachable

    tmp = tmp_path_factory.mktemp("every-page")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "CELERY_TASK_ALWAYS_EAGER", "DEBUG"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.dev",
        DEBUG="0",
        SECRET_KEY="browser-test-key",
        DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
        VAR_DIR=str(tmp / "var"),
        CELERY_TASK_ALWAYS_EAGER="1",  # AI seats move inside the request's on-commit hook (no worker)
        AI_BUDGET_SCALE="0.05",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    redis_url = os.environ.get("BROWSER_TEST_REDIS_URL", "redis://127.0.0.1:6379/14")
    if redis_reachable(redis_url):
        env["REDIS_URL"] = redis_url

    def run(*args: str) -> str:
        done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True)
        assert done.returncode == 0, f"{args}: {done.stderr[-3000:]}"
        return done.stdout

    run("manage.py", "compilemessages", "-l", "th", "-l", "zh_Hans", "-i", ".venv", "-i", "node_modules")
    run("manage.py", "migrate", "--noinput")
    run("-m", "tests.browser.seed_browser")
    made = json.loads(run("-m", "tests.browser.test_every_page_in_every_language").strip().splitlines()[-1])
    with daphne(env, tmp) as url:
        yield url, made


def pages(made: dict[str, Any]) -> list[tuple[str, str]]:
    """(address, what to wait for: a selector the page's script fills, or "" for the page as loaded)."""
    return [
        ("/", ""),
        ("/cards/", "[data-testid=card-tile], .card-tile"),
        (f"/cards/{made['card']}/", "#card-detail h1"),
        ("/decks/", ""),
        ("/decks/public/", "#public-decks[data-ready=true]"),
        (f"/decks/{made['deck']}/", "[data-legality-badge] .status"),
        (f"/decks/{made['bobs']}/", "[data-legality-badge] .status"),
        (f"/decks/shared/{made['shared']}/", "[data-legality-badge] .status"),
        ("/play/", ""),
        ("/play/mine/", ""),
        (f"/play/{made['live']}/", "#conn[data-state]"),
        (f"/play/{made['finished']}/", "#game-over-title"),
        (f"/play/{made['finished']}/replay/", ""),
        (f"/westeros/games/{made['westeros']}/", "[data-testid=map-hint]"),
        ("/westeros/map/", ""),
        ("/players/alice/", ""),
        ("/leaderboard/commandeer/", ""),
        ("/leaderboard/westeros/", ""),
        ("/accounts/settings/", ""),
        ("/rules/commandeer/", ""),
        ("/rules/westeros/", ""),
        ("/learn/commandeer/", "[data-testid=tutorial-instruction]:not(:empty)"),
        ("/learn/westeros/", "[data-testid=tutorial-instruction]:not(:empty)"),
        ("/no-such-page/", ""),
    ]


SIGNED_OUT = ("/accounts/login/", "/accounts/signup/")

READ_PAGE = """(technical) => {
  // the technical names are taken out of what is read (this is the visit's end)
  for (const n of document.querySelectorAll(technical)) n.style.display = "none";
  const attrs = [];
  for (const n of document.body.querySelectorAll("[title], [aria-label], [placeholder]")) {
    if (n.closest(technical)) continue;
    for (const a of ["title", "aria-label", "placeholder"]) if (n.getAttribute(a)) attrs.push(n.getAttribute(a));
  }
  return [document.body.innerText, attrs.join("\\n"), document.title].join("\\n");
}"""
# A match page's game data: the names and texts of the cards in the match's catalogue, as the page holds them.
MATCH_DATA = """() => {
  const snap = window.matchConnection && window.matchConnection.snapshot;
  const catalog = (snap && snap.view && snap.view.catalog) || {};
  const strings = (list) => list.filter((t) => typeof t === "string" && t);
  const cards = Object.values(catalog);
  return [strings([...Object.keys(catalog), ...cards.flatMap((c) => [c.name, c.display_name])]),
          strings(cards.map((c) => c.rules_text))];
}"""


def read(page: Any, url: str, wait_for: str) -> str:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    if wait_for:
        page.wait_for_selector(wait_for, state="attached")
    page.wait_for_timeout(150)  # a last render after the data came
    return str(page.evaluate(READ_PAGE, TECHNICAL))


def visit_every_page(
    chromium: Any, url: str, made: dict[str, Any], lang: str
) -> tuple[dict[str, list[str]], list[str]]:
    """Every page in `lang` in one browser context: the English words left per page, the script errors."""
    texts = set(made["data"]["texts"][lang])
    names = frozenset(made["data"]["names"][lang]) | frozenset(made["decks"])
    context = chromium.new_context(bypass_csp=True, viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": "django_language", "value": lang, "url": url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    found: dict[str, list[str]] = {}
    try:
        for path in SIGNED_OUT:
            words = english_words(read(page, f"{url}{path}", ""), lang, texts, names)
            if words:
                found[path] = words
        assert page.locator("html").get_attribute("lang") == lang
        page.goto(f"{url}/accounts/login/")
        page.fill("input[name=username]", "alice")
        page.fill("input[name=password]", "pw-alice-123")
        page.locator("form:has(input[name=password]) [type=submit]").click()
        page.wait_for_url(lambda u: "/accounts/login/" not in u)
        for path, wait_for in pages(made):
            text = read(page, f"{url}{path}", wait_for)
            match_names, match_texts = page.evaluate(MATCH_DATA)
            words = english_words(text, lang, texts | set(match_texts), names | frozenset(match_names))
            if words:
                found[path] = sorted(set(words))
    finally:
        context.close()
    return found, errors


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_reads_in_the_language(
    site: tuple[str, dict[str, Any]], chromium_browser: Any, lang: str
) -> None:
    url, made = site
    found, errors = visit_every_page(chromium_browser, url, made, lang)
    assert found == {}, f"English words left on the {lang} pages: {found}"
    assert errors == []


def test_the_check_finds_english() -> None:
    """The check itself: an English word is found; terms, brands, rule numbers, units and data are not."""
    assert english_words("Not legal yet · ยังไม่ถูกต้อง", "th", set()) == ["Not", "legal", "yet"]
    assert english_words("ค่า Command Point 3 CP, C-3.3 · Commandeer TCG · alice", "th", set()) == []
    assert english_words("Command Point 指挥点", "zh-hans", set()) == ["Command", "Point"]
    assert english_words("《A Game of Thrones》 Blazing Lancer 卡组", "zh-hans", {"Blazing Lancer"}) == []
    # a data name's words (a shortened card name), never a data text's: "Each other unit" is no name
    assert english_words(
        "Nerissa, Voice… 3 cards", "th", set(), frozenset({"Nerissa, Voice of the Deep"})
    ) == ["cards"]
    assert english_words("Each other unit", "zh-hans", {"Each other unit gets +1000."}) == [
        "Each",
        "other",
        "unit",
    ]


if __name__ == "__main__":
    print(json.dumps(seed()))
