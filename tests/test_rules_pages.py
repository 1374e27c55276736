"""The rules pages (/rules/commandeer/, /rules/westeros/) and rule citations as links.

Every rule number of the English rules file (docs/rules/<game>.md, parsed here from the Markdown itself) is
an anchor id on the page in each language; the page is in the viewer's language with English as the
fallback; `rule_links` links citations in text only after escaping it.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.template import Context, Template
from django.template.loader import render_to_string
from django.test import override_settings
from django.utils import translation
from django.utils.safestring import mark_safe

from frontend import rules
from frontend.templatetags.rules import rule_links

RULES_DIR = Path(__file__).resolve().parents[1] / "docs" / "rules"
# A rule is a list item led by its bold number; a section or group is a heading led by its number.
RULE_ITEM = re.compile(r"^ *- \*\*([CW]-\d+(?:\.\d+)*)(?=[\s.*:])", re.MULTILINE)
RULE_HEADING = re.compile(r"^#{2,6} +([CW]-\d+(?:\.\d+)*)\b", re.MULTILINE)

LANGUAGES = [("en", "English"), ("th", "ไทย"), ("zh-hans", "简体中文")]
# What the page's own words read as in each language (frontend/locale).
CONTENTS = {"en": "Contents", "th": "สารบัญ", "zh-hans": "目录"}
# A word of each translated file's title, so the page shows that file and not another.
TITLE_WORD = {"en": "rules reference", "th": "กติกาอ้างอิง", "zh-hans": "规则参考"}


def _english_numbers(game: str) -> list[str]:
    text = (RULES_DIR / f"{game}.md").read_text(encoding="utf-8")
    return RULE_HEADING.findall(text) + RULE_ITEM.findall(text)


def _middleware() -> list[str]:
    """The site's middleware with a language resolver: Django's LocaleMiddleware where none is installed."""
    middleware = list(settings.MIDDLEWARE)
    if not any(name.endswith(("LocaleMiddleware", "LanguageMiddleware")) for name in middleware):
        middleware.insert(
            middleware.index("django.middleware.common.CommonMiddleware"),
            "django.middleware.locale.LocaleMiddleware",
        )
    return middleware


@pytest.fixture
def languages() -> Any:
    with override_settings(LANGUAGE_CODE="en", LANGUAGES=LANGUAGES, MIDDLEWARE=_middleware()):
        yield


class _Page(HTMLParser):
    """The ids, the lang of the rules body, and the links of a rendered page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.body_lang: str | None = None
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if named.get("id"):
            self.ids.append(str(named["id"]))
        if named.get("data-testid") == "rules-body":
            self.body_lang = named.get("lang")
        if tag == "a" and named.get("href"):
            self.hrefs.append(str(named["href"]))


def _get(client: Any, url: str, language: str) -> tuple[Any, _Page]:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    page = _Page()
    page.feed(response.content.decode())
    return response, page


def test_the_markdown_numbers_are_parsed() -> None:
    # The parse below is what the page tests lean on: it must find the files' rules, not an empty list.
    assert len(_english_numbers("commandeer")) >= 40
    assert {"C-5", "C-5.2", "C-6.5", "C-8"} <= set(_english_numbers("commandeer"))
    assert {"W-7", "W-7.1", "W-7.1.1", "W-9.10.1", "W-22"} <= set(_english_numbers("westeros"))


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["commandeer", "westeros"])
@pytest.mark.parametrize("language", ["en", "th", "zh-hans"])
def test_each_page_in_each_language_anchors_every_rule(
    client: Any, languages: Any, game: str, language: str
) -> None:
    response, page = _get(client, f"/rules/{game}/", language)
    assert response.status_code == 200
    assert page.body_lang == language
    text = response.content.decode()
    assert TITLE_WORD[language] in text
    assert CONTENTS[language] in text
    numbers = _english_numbers(game)
    missing = [number for number in numbers if number not in page.ids]
    assert not missing, f"rules without an anchor on /rules/{game}/ in {language}: {missing}"
    # Each anchor is also a visible link to itself, and each section is in the contents.
    for number in numbers:
        assert f'href="#{number}"' in text, number
    sections = [number for number in numbers if re.fullmatch(r"[CW]-\d+", number)]
    toc = text[
        text.index('data-testid="rules-toc"') : text.index("</nav>", text.index('data-testid="rules-toc"'))
    ]
    for section in sections:
        assert f'href="#{section}"' in toc, section


@pytest.mark.django_db
@pytest.mark.parametrize("accept", ["fr", "xx-yy", "de-CH,de;q=0.9", ""])
def test_an_unknown_or_unsupported_language_reads_english(client: Any, languages: Any, accept: str) -> None:
    response, page = _get(client, "/rules/westeros/", accept)
    assert response.status_code == 200
    assert page.body_lang == "en"
    assert TITLE_WORD["en"] in response.content.decode()
    assert "W-9.10.1" in page.ids


def test_a_missing_translation_falls_back_to_english(tmp_path: Path, settings: Any) -> None:
    (tmp_path / "docs" / "rules").mkdir(parents=True)
    for game in ("commandeer", "westeros"):
        source = (RULES_DIR / f"{game}.md").read_text(encoding="utf-8")
        (tmp_path / "docs" / "rules" / f"{game}.md").write_text(source, encoding="utf-8")
    settings.BASE_DIR = tmp_path
    document = rules.render_rules("commandeer", "th")
    assert document.language == "en"
    assert "rules reference" in document.title


def test_citations_in_the_rules_text_link_to_their_rule() -> None:
    document = rules.render_rules("westeros", "en")
    # W-1.13 "Routed" cites W-9.10 on the same page; W-22's list cites rules all over.
    assert '<a href="#W-9.10" class="rule-ref">W-9.10</a>' in document.html
    commandeer = rules.render_rules("commandeer", "zh-hans")
    assert '<a href="#C-5.7" class="rule-ref">C-5.7</a>' in commandeer.html
    # Links between the rules files open the other game's page; links to other docs keep only their text.
    assert 'href="/rules/westeros/"' in rules.render_rules("commandeer", "en").intro_html
    assert '.md"' not in document.html + document.intro_html
    # What precedes the first section (layout, sources) is kept apart from the rules, which start at W-1.
    assert "Sources." in document.intro_html and 'id="W-' not in document.intro_html
    assert document.html.startswith('<h2 id="W-1"')


def test_the_markdown_cannot_inject_markup(tmp_path: Path, settings: Any) -> None:
    (tmp_path / "docs" / "rules").mkdir(parents=True)
    (tmp_path / "docs" / "rules" / "westeros.md").write_text(
        (RULES_DIR / "westeros.md").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (tmp_path / "docs" / "rules" / "commandeer.md").write_text(
        "# Title\n\n## C-1 Cards\n\n- **C-1.1 Units.** <script>alert(1)</script> see C-1.1 and [x](javascript:alert(1))\n",
        encoding="utf-8",
    )
    settings.BASE_DIR = tmp_path
    document = rules.render_rules("commandeer", "en")
    assert "<script>" not in document.html
    assert "&lt;script&gt;" in document.html
    assert 'href="javascript:' not in document.html
    assert 'id="C-1.1"' in document.html


def test_each_file_is_rendered_once_per_process() -> None:
    first = rules.render_rules("westeros", "th")
    assert rules.render_rules("westeros", "th") is first
    assert rules.render_rules("westeros", "zh-hans") is not first


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("en", "en"),
        ("th", "th"),
        ("zh-hans", "zh-hans"),
        ("zh-cn", "zh-hans"),
        ("fr", "en"),
        (None, "en"),
        ("", "en"),
    ],
)
def test_rules_language(code: str | None, expected: str) -> None:
    assert rules.rules_language(code) == expected


# --- the rule_links filter ---------------------------------------------------------------------------------


def test_rule_links_links_both_games_lists_and_ranges() -> None:
    html = rule_links("Illegal deck: C-3.2, C-3.3 (see W-7.1.4 and C-5.2–C-5.4).")
    assert '<a class="rule-ref" href="/rules/commandeer/#C-3.2">C-3.2</a>' in html
    assert '<a class="rule-ref" href="/rules/commandeer/#C-3.3">C-3.3</a>' in html
    assert '<a class="rule-ref" href="/rules/westeros/#W-7.1.4">W-7.1.4</a>' in html
    assert '<a class="rule-ref" href="/rules/commandeer/#C-5.2">C-5.2</a>–<a class="rule-ref"' in html
    # The sentence's full stop stays outside the number; a number no rule has stays text.
    assert rule_links("Turn limit (C-6.5).").endswith("C-6.5</a>).")
    assert rule_links("C-99.9 and W-0") == "C-99.9 and W-0"
    # Only whole numbers: not a part of a word or a longer code.
    assert rule_links("ABC-5.2 x-C-5.2 C-5.2a") == "ABC-5.2 x-C-5.2 C-5.2a"


def test_rule_links_escapes_before_linking() -> None:
    html = rule_links('<img src=x onerror="alert(1)"> C-6.2 <a href="#C-6.1">C-6.1</a> & "quoted"')
    assert "<img" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html
    assert '<a class="rule-ref" href="/rules/commandeer/#C-6.2">C-6.2</a>' in html
    assert "&amp; &quot;quoted&quot;" in html
    assert html.count("<a ") == html.count("</a>")
    assert all(tag.startswith('<a class="rule-ref"') for tag in re.findall(r"<a [^>]*>", html))


def test_rule_links_in_a_template_keeps_autoescape() -> None:
    template = Template("{% load rules %}{{ text|rule_links }}|{{ text }}")
    rendered = template.render(Context({"text": "<b>C-5.2</b>"}))
    linked, plain = rendered.split("|")
    assert linked == '&lt;b&gt;<a class="rule-ref" href="/rules/commandeer/#C-5.2">C-5.2</a>&lt;/b&gt;'
    assert plain == "&lt;b&gt;C-5.2&lt;/b&gt;"


@pytest.mark.django_db
def test_the_games_pages_link_their_rules(client: Any, languages: Any) -> None:
    with translation.override("en"):
        home = client.get("/").content.decode()
    assert 'href="/rules/commandeer/"' in home and 'href="/rules/westeros/"' in home
    # The deck builder's feature text cites C-3: the citation is a link to it.
    assert '(<a class="rule-ref" href="/rules/commandeer/#C-3">C-3</a>)' in home


def test_the_sample_hand_note_links_its_rule() -> None:
    html = render_to_string("frontend/decks/_hand_odds.html", {"max_mulligans": 2})
    assert '<a class="rule-ref" href="/rules/commandeer/#C-4.1">C-4.1</a>' in html


def test_rule_links_in_thai_and_chinese_text_without_spaces() -> None:
    assert (
        rule_links("见W-9.4的说明") == '见<a class="rule-ref" href="/rules/westeros/#W-9.4">W-9.4</a>的说明'
    )
    assert rule_links("ดูC-5.2ก่อน") == 'ดู<a class="rule-ref" href="/rules/commandeer/#C-5.2">C-5.2</a>ก่อน'


def test_rule_links_escapes_under_autoescape_off_and_keeps_safe_text() -> None:
    template = Template("{% load rules %}{% autoescape off %}{{ text|rule_links }}{% endautoescape %}")
    assert template.render(Context({"text": "<i>C-8</i>"})) == (
        '&lt;i&gt;<a class="rule-ref" href="/rules/commandeer/#C-8">C-8</a>&lt;/i&gt;'
    )
    assert (
        rule_links(mark_safe("<em>W-2</em>"))
        == '<em><a class="rule-ref" href="/rules/westeros/#W-2">W-2</a></em>'
    )
    assert rule_links(42) == "42"


@pytest.mark.django_db
@pytest.mark.parametrize("players", [3, 5])
def test_the_map_set_up_hint_links_w_2(client: Any, players: int) -> None:
    from boardgame import dataset as board_dataset

    board_dataset.game_data_import(data=board_dataset.bundled_data())
    html = client.get(f"/westeros/map/?players={players}").content.decode()
    assert '(<a class="rule-ref" href="/rules/westeros/#W-2">W-2</a>).' in html


@pytest.mark.django_db
def test_a_match_page_and_the_westeros_table_link_their_games_rules() -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client

    from matches.services import lobby

    alice = get_user_model().objects.create_user(username="alice-rules", password="x-Password-1")
    client = Client()
    client.force_login(alice)
    waiting = lobby.match_create(user=alice, kind="westeros", rules_config={"player_count": 3})
    html = client.get(f"/play/{waiting.pk}/").content.decode()
    assert '<a href="/rules/westeros/" data-testid="rules-link">' in html
    started = lobby.match_create(user=alice, kind="westeros", vs_ai=True, rules_config={"player_count": 3})
    table = client.get(f"/westeros/games/{started.pk}/").content.decode()
    assert '<a href="/rules/westeros/" data-testid="rules-link">' in table
