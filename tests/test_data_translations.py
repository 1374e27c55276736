"""The game data carries its Thai and Chinese translations, field by field.

Every record of the card and Westeros data files holds `"translations": {"th": {...}, "zh-hans": {...}}` with
each of its readable text fields (ids, numbers, enums and rule-engine codes are not translated). A field left
out, a Thai text with no Thai in it, a Chinese text with no Chinese, a number lost on the way, a keyword or a
name that is not the glossary's (docs/glossary.md) fails here. Thai keeps proper names in Latin script where
the glossary says so, so a Thai `name` may equal the English one; every other Thai text is written in Thai.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.test_rules_translations import CJK, THAI, _glossary_rows

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("th", "zh-hans")
CARDS = "cards/data/sample_cards.json"
WESTEROS = "boardgame/data/westeros/"

# file -> (section, readable fields of each record of that section); a section may be a list or an object
READABLE: dict[str, list[tuple[str, tuple[str, ...]]]] = {
    CARDS: [
        ("factions", ("name", "description")),
        ("keywords", ("name", "reminder_text")),
        ("cards", ("name", "rules_text", "flavor_text")),
    ],
    WESTEROS + "map.json": [("areas", ("name",))],
    WESTEROS + "setup.json": [("houses", ("name",))],
    WESTEROS + "house_cards.json": [("cards", ("name", "effect"))],
    WESTEROS + "westeros_cards.json": [("cards", ("name", "effect"))],
    WESTEROS + "wildling_cards.json": [("cards", ("name", "nights_watch_victory", "wildling_victory"))],
}
# An English sentence left in a translation: six Latin words in a row (names such as "A King Beyond the
# Wall" are shorter; code names such as wildling_cards.json are one word).
ENGLISH_RUN = re.compile(r"(?:[A-Za-z][A-Za-z'’]* +){5,}[A-Za-z][A-Za-z'’]*")
NUMBER = re.compile(r"\d+")


def _load(path: str) -> Any:
    return json.loads((ROOT / path).read_text(encoding="utf-8"))


def _records(data: Any, path: str) -> Iterator[tuple[str, dict[str, Any], tuple[str, ...]]]:
    for section, fields in READABLE[path]:
        records = data[section]
        items = records.items() if isinstance(records, dict) else enumerate(records)
        for key, record in items:
            yield f"{section}[{key}] {record.get('name')!r}", record, fields


def _leaves(value: Any, prefix: str) -> Iterator[tuple[str, str]]:
    """A text field as (dotted path, text); an object of texts (wildling victories) gives one per key."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _leaves(inner, f"{prefix}.{key}")
    elif isinstance(value, str) and value:
        yield prefix, value


def _lookup(tree: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        tree = tree.get(part) if isinstance(tree, dict) else None
    return tree


def _glossary_forms(english: str, rows: dict[str, tuple[str, str]]) -> tuple[set[str], set[str]] | None:
    """The Thai and Chinese forms the glossary allows for a name, or None when it does not list it.

    A Thai entry "Port of Pyke (ท่าเรือ Pyke)" or "Supply (เสบียง)" allows the whole entry and the Thai form in
    its parentheses; a keyword listed with its parameter ("Formation X") allows the form without it.
    """
    key, strip_x = (english, False) if english in rows else (english + " X", True)
    if key not in rows:
        return None
    thai, chinese = rows[key]
    if strip_x:
        thai, chinese = thai.removesuffix(" X"), chinese.removesuffix("X")
    thai_forms = {thai}
    inner = re.fullmatch(r".* \((?P<inner>[^()]*)\)", thai)
    if inner:
        thai_forms.add(inner["inner"])
    return thai_forms, {chinese}


def _keyword_names(cards: Any) -> list[tuple[str, dict[str, str]]]:
    """Each keyword's English name and its translated names (a keyword not yet translated is reported apart)."""
    found = []
    for keyword in cards["keywords"]:
        names = {lang: _lookup(keyword.get("translations"), f"{lang}.name") for lang in LANGUAGES}
        if all(isinstance(n, str) and n for n in names.values()):
            found.append((keyword["name"], names))
    return found


def translation_problems(path: str, data: Any) -> list[str]:
    """Everything wrong with the translations of one data file ([] when every record is complete)."""
    rows = _glossary_rows()
    keywords = _keyword_names(data) if path == CARDS else []
    problems: list[str] = []
    for where, record, fields in _records(data, path):
        translations = record.get("translations")
        if not isinstance(translations, dict) or set(translations) != set(LANGUAGES):
            problems.append(f"{path} {where}: translations must hold exactly {', '.join(LANGUAGES)}")
            continue
        for language in LANGUAGES:
            given = translations[language]
            # A nested English text (a wildling card's victory outcomes) is translated under its own key, the
            # model field's name: nights_watch_victory.highest_bidder -> "highest_bidder".
            readable = {dotted.rsplit(".", 1)[-1] for f in fields for dotted, _ in _leaves(record.get(f), f)}
            stray = sorted(set(given) - readable - set(fields))
            if stray:
                problems.append(f"{path} {where} {language}: not a readable field: {', '.join(stray)}")
            for field in fields:
                for dotted, english in _leaves(record.get(field), field):
                    text = given.get(dotted.rsplit(".", 1)[-1])
                    label = f"{path} {where} {language} {dotted}"
                    if not isinstance(text, str) or not text.strip():
                        problems.append(f"{label}: missing")
                        continue
                    terms = [translated[language] for _, translated in keywords]
                    problems += [
                        f"{label}: {p}" for p in _text_problems(language, dotted, english, text, terms)
                    ]
                    if field == "name":
                        forms = _glossary_forms(english, rows)
                        allowed = forms[LANGUAGES.index(language)] if forms else None
                        if allowed is not None and text not in allowed:
                            problems.append(f"{label}: {text!r} is not the glossary's {sorted(allowed)}")
                    for keyword, translated in keywords:
                        if field != "name" and keyword in english and translated[language] not in text:
                            problems.append(
                                f"{label}: keyword {keyword!r} is not written {translated[language]!r}"
                            )
    return problems


def _text_problems(language: str, field: str, english: str, text: str, terms: list[str]) -> list[str]:
    """What is wrong with one translated text; `terms` are keyword names the glossary keeps in Latin script."""
    found: list[str] = []
    if language == "zh-hans":
        if not CJK.search(text):
            found.append(f"{text!r} has no Chinese")
        if THAI.search(text):
            found.append(f"{text!r} has Thai in it")
    else:
        if CJK.search(text):
            found.append(f"{text!r} has Chinese in it")
        # a name the glossary keeps in Latin script is the English name itself, and a rules text may be
        # nothing but a keyword kept in Latin script ("Marking")
        bare = text
        for term in terms:
            bare = bare.replace(term, "")
        latin_only = (field == "name" and text == english) or not re.search(r"\w", bare)
        if not THAI.search(text) and not latin_only:
            found.append(f"{text!r} has no Thai")
    if field != "name" and ENGLISH_RUN.search(text):
        found.append(f"{text!r} keeps an English sentence")
    lost = sorted(set(NUMBER.findall(english)) - set(NUMBER.findall(text)), key=int)
    if lost:
        found.append(f"{text!r} lost the number(s) {', '.join(lost)}")
    return found


@pytest.mark.parametrize("path", sorted(READABLE))
def test_every_record_has_thai_and_chinese_for_each_readable_field(path: str) -> None:
    assert translation_problems(path, _load(path)) == []


def test_the_files_hold_every_record_the_site_shows() -> None:
    counts = {path: sum(1 for _ in _records(_load(path), path)) for path in READABLE}
    assert counts == {
        CARDS: 4 + 6 + 133,
        WESTEROS + "map.json": 58,
        WESTEROS + "setup.json": 6,
        WESTEROS + "house_cards.json": 42,
        WESTEROS + "westeros_cards.json": 17,
        WESTEROS + "wildling_cards.json": 9,
    }


def _card(data: Any, name: str) -> dict[str, Any]:
    return next(c for c in data["cards"] if c["name"] == name)


def test_a_removed_translation_is_reported() -> None:
    data = _load(CARDS)
    del _card(data, "Firestorm")["translations"]["th"]["rules_text"]
    assert translation_problems(CARDS, data) == [f"{CARDS} cards[11] 'Firestorm' th rules_text: missing"]


def test_a_record_without_translations_is_reported() -> None:
    data = _load(WESTEROS + "setup.json")
    del data["houses"]["stark"]["translations"]
    assert translation_problems(WESTEROS + "setup.json", data) == [
        f"{WESTEROS}setup.json houses[stark] 'Stark': translations must hold exactly th, zh-hans"
    ]


def test_a_missing_wildling_victory_text_is_reported() -> None:
    path = WESTEROS + "wildling_cards.json"
    data = _load(path)
    del data["cards"][0]["translations"]["zh-hans"]["everyone_else"]
    assert translation_problems(path, data) == [
        f"{path} cards[0] 'A King Beyond the Wall' zh-hans wildling_victory.everyone_else: missing"
    ]


def test_english_left_in_a_thai_text_and_thai_in_a_chinese_one_are_reported() -> None:
    data = copy.deepcopy(_load(CARDS))
    card = _card(data, "Battle Fury")
    card["translations"]["th"]["rules_text"] = card["rules_text"]
    card["translations"]["zh-hans"]["flavor_text"] = "ความโกรธ"
    problems = translation_problems(CARDS, data)
    assert any(p.endswith("has no Thai") and "th rules_text" in p for p in problems)
    assert any(p.endswith("keeps an English sentence") for p in problems)
    assert any("zh-hans flavor_text" in p and p.endswith("has Thai in it") for p in problems)


def test_a_changed_number_a_wrong_keyword_or_name_is_reported() -> None:
    data = _load(CARDS)
    card = _card(data, "Pyre Archer")
    card["translations"]["zh-hans"]["rules_text"] = "远射。"
    firestorm = _card(data, "Firestorm")["translations"]["zh-hans"]
    firestorm["rules_text"] = firestorm["rules_text"].replace("1000", "100")
    data["factions"][0]["translations"]["zh-hans"]["name"] = "灰烬兵团"
    problems = translation_problems(CARDS, data)
    assert any("'Pyre Archer' zh-hans rules_text: keyword 'Range Attack'" in p for p in problems)
    assert any("'Firestorm' zh-hans rules_text" in p and "lost the number(s) 1000" in p for p in problems)
    assert any(
        "factions[0] 'Cinder Legion' zh-hans name: '灰烬兵团' is not the glossary's" in p for p in problems
    )


def test_a_thai_name_may_stay_in_latin_script_but_a_thai_text_may_not() -> None:
    path = WESTEROS + "house_cards.json"
    data = _load(path)
    robb = next(c for c in data["cards"] if c["id"] == "robb_stark")
    assert robb["translations"]["th"]["name"] == "Robb Stark"
    robb["translations"]["th"]["effect"] = "Robb Stark"
    assert translation_problems(path, data) == [
        f"{path} cards[1] 'Robb Stark' th effect: 'Robb Stark' has no Thai"
    ]


def _without_translations(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_translations(v) for k, v in value.items() if k != "translations"}
    if isinstance(value, list):
        return [_without_translations(v) for v in value]
    return value


def test_the_english_data_under_the_translations_still_passes_the_data_checks() -> None:
    from boardgame.validation import game_data_errors
    from cards.data import check_sample

    field_errors, _name = check_sample.load_card_field_errors()
    problems, _summary = check_sample.check(_without_translations(_load(CARDS)), field_errors)
    assert problems == []
    sections = ("map", "tracks", "setup", "house_cards", "westeros_cards", "wildling_cards")
    westeros = {s: _without_translations(_load(f"{WESTEROS}{s}.json")) for s in sections}
    assert game_data_errors(westeros, layout=_load(WESTEROS + "layout.json")) == []
