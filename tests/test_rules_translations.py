"""The rules references in Thai and Chinese follow the English one rule for rule.

`docs/rules/<game>.md` is the source; `<game>.th.md` and `<game>.zh-hans.md` translate it with the same
headings and the same bold rule numbers (C-x.y, W-x.y), so the site can anchor every rule in every
language. A rule added to, moved in or removed from one file and not the others fails here, and so does a
translation left in English. The glossary (docs/glossary.md), where the translations take their terms,
must name every area, house, card, track, faction and keyword of the game data in all three languages.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

RULES = Path(__file__).resolve().parents[1] / "docs" / "rules"
GAMES = ("commandeer", "westeros")
LANGUAGES = ("th", "zh-hans")

RULE_ITEM = re.compile(r"^(?P<indent> *)- \*\*(?P<number>[CW]-\d+(?:\.\d+)*)(?=[\s.*:])(?P<rest>.*)$")
HEADING = re.compile(r"^(?P<hashes>#{1,6}) +(?P<title>.*)$")
HEADING_NUMBER = re.compile(r"^(?P<number>[CW]-\d+(?:\.\d+)*)\b(?P<rest>.*)$")

THAI = re.compile(r"[\u0e00-\u0e7f]")
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
SCRIPT = {"th": THAI, "zh-hans": CJK}
FOREIGN = {"th": CJK, "zh-hans": THAI}
# What a translation keeps as it is: code, link targets, rule numbers.
KEPT = re.compile(r"`[^`]*`|\]\([^)]*\)|\b[CW]-\d+(?:\.\d+)*\b")
# The longest run of Latin words a translation may hold (proper names such as "A Game of Thrones: The Board
# Game"); an English sentence left untranslated is longer.
MAX_LATIN_RUN = 7
ENGLISH_RUN = re.compile(r"(?:[A-Za-z][A-Za-z'’]* +){" + str(MAX_LATIN_RUN) + r",}[A-Za-z][A-Za-z'’]*")


@dataclass
class Outline:
    """A rules page reduced to what every language must share, plus each rule's text."""

    headings: list[tuple[int, str | None]] = field(default_factory=list)
    rules: list[tuple[int, str]] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)


def outline(text: str) -> Outline:
    """Headings as (level, number or None), rules as (depth, number) in order, and the text of each rule.

    A rule's text is its list item with the lines that continue it (nested non-rule items included); a
    numbered heading's text is its title and the paragraph under it (a section without numbered items is
    one rule, C-8, W-20).
    """
    result = Outline()
    current: str | None = None
    for line in text.splitlines():
        heading = HEADING.match(line)
        item = RULE_ITEM.match(line)
        if heading:
            numbered = HEADING_NUMBER.match(heading["title"])
            number = numbered["number"] if numbered else None
            result.headings.append((len(heading["hashes"]), number))
            current = number
            if number is not None:
                result.rules.append((0, number))
                result.texts[number] = numbered["rest"] if numbered else ""
        elif item:
            current = item["number"]
            depth = 1 + len(item["indent"]) // 2
            result.rules.append((depth, current))
            result.texts[current] = item["rest"]
        elif not line.strip():
            # a blank line ends an item; a heading's paragraph ends at its first list item or heading
            if current is not None and result.rules and result.rules[-1][0] > 0:
                current = None
        elif current is not None:
            result.texts[current] += " " + line.strip()
    return result


def differences(english: str, translation: str) -> list[str]:
    """What the translation lacks, adds or reorders against the English page (empty when they agree)."""
    source, other = outline(english), outline(translation)
    found: list[str] = []
    missing = [n for _, n in source.rules if n not in other.texts]
    extra = [n for _, n in other.rules if n not in source.texts]
    if missing:
        found.append(f"rules missing from the translation: {', '.join(missing)}")
    if extra:
        found.append(f"rules not in the English page: {', '.join(extra)}")
    if not missing and not extra and source.rules != other.rules:
        pairs = zip(source.rules, other.rules, strict=True)
        first = next((a, b) for a, b in pairs if a != b)
        found.append(f"rules out of order or nesting: English has {first[0]}, the translation {first[1]}")
    if source.headings != other.headings:
        found.append(f"headings differ: English {source.headings}, translation {other.headings}")
    return found


def _prose(text: str) -> str:
    return KEPT.sub(" ", text)


def _page(game: str, language: str | None = None) -> str:
    name = f"{game}.md" if language is None else f"{game}.{language}.md"
    return (RULES / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_translation_has_the_english_rules_and_headings_in_the_same_order(game: str, language: str) -> None:
    assert differences(_page(game), _page(game, language)) == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_rule_of_the_translation_is_written_in_its_script(game: str, language: str) -> None:
    texts = outline(_page(game, language)).texts
    untranslated = [n for n, t in texts.items() if not SCRIPT[language].search(_prose(t))]
    assert untranslated == []
    foreign = [n for n, t in texts.items() if FOREIGN[language].search(t)]
    assert foreign == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_no_english_sentence_is_left_in_a_translation(game: str, language: str) -> None:
    for number, text in outline(_page(game, language)).texts.items():
        prose = _prose(text)
        runs = ENGLISH_RUN.findall(prose)
        assert runs == [], f"{number} keeps English text: {runs}"


def test_the_english_pages_have_unique_numbered_rules() -> None:
    for game in GAMES:
        numbers = [n for _, n in outline(_page(game)).rules]
        assert len(numbers) == len(set(numbers)) and len(numbers) > 20
        assert all(n.startswith(game[0].upper() + "-") for n in numbers)


def test_a_rule_dropped_from_a_translation_is_reported() -> None:
    english = _page("commandeer")
    translation = _page("commandeer", "th")
    without = "\n".join(line for line in translation.splitlines() if not line.startswith("- **C-5.8 "))
    assert differences(english, without) == ["rules missing from the translation: C-5.8"]


def test_a_rule_added_to_the_english_page_alone_is_reported() -> None:
    english = _page("westeros") + "\n- **W-22.99 New.** A rule written in English only.\n"
    assert differences(english, _page("westeros", "zh-hans")) == [
        "rules missing from the translation: W-22.99"
    ]


def test_rules_swapped_in_a_translation_are_reported() -> None:
    lines = _page("commandeer", "zh-hans").splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("- **C-3.1"))
    lines[first], lines[first + 1] = lines[first + 1], lines[first]
    assert differences(_page("commandeer"), "\n".join(lines)) == [
        "rules out of order or nesting: English has (1, 'C-3.1'), the translation (1, 'C-3.2')"
    ]


GLOSSARY = RULES.parent / "glossary.md"
DATA = RULES.parents[1]


def _glossary_rows() -> dict[str, tuple[str, str]]:
    """English term → (Thai, Chinese), from every table row of docs/glossary.md."""
    rows: dict[str, tuple[str, str]] = {}
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 4 and not set(cells[0]) <= {"-", " "}:
            rows[cells[0]] = (cells[1], cells[2])
    return rows


def _data_names() -> list[str]:
    """The names the site shows from the game data: areas, houses, cards, factions, keywords."""

    def load(path: str) -> Any:
        return json.loads((DATA / path).read_text(encoding="utf-8"))

    westeros = "boardgame/data/westeros/"
    names = [a["name"] for a in load(westeros + "map.json")["areas"]]
    names += [h["name"] for h in load(westeros + "setup.json")["houses"].values()]
    names += [c["name"] for c in load(westeros + "house_cards.json")["cards"]]
    names += [c["name"] for c in load(westeros + "westeros_cards.json")["cards"]]
    names += [c["name"] for c in load(westeros + "wildling_cards.json")["cards"]]
    names += [t["name"] for t in load(westeros + "tracks.json")["influence_tracks"]]
    cards = load("cards/data/sample_cards.json")
    names += [f["name"] for f in cards["factions"]] + [k["name"] for k in cards["keywords"]]
    return sorted(set(names))


def test_the_glossary_gives_thai_and_chinese_for_every_name_in_the_game_data() -> None:
    rows = _glossary_rows()
    names = _data_names()
    assert len(names) > 100
    # an influence track and a keyword may be listed under their longer glossary entry
    aliases = {
        "Iron Throne": "Iron Throne track",
        "Fiefdoms": "Fiefdoms track",
        "King's Court": "King's Court track",
    }
    aliases["Formation"] = "Formation X"
    missing = [n for n in names if aliases.get(n, n) not in rows]
    assert missing == []
    for name in names:
        thai, chinese = rows[aliases.get(name, name)]
        assert thai and CJK.search(chinese) and not THAI.search(chinese), name
