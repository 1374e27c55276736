"""`manage.py validate_deck`: one JSON object on stdout; exit 0 valid, 1 invalid, 2 unreadable/unknown."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from decks.tests.factories import FACTIONS, LEGAL_TEXT, POOL


def run(*args: str) -> tuple[int, dict]:
    out = StringIO()
    with pytest.raises(SystemExit) as info:
        call_command("validate_deck", *args, stdout=out)
    return info.value.code, json.loads(out.getvalue())


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "deck.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_valid_deck_exits_0(cards, tmp_path):
    code, result = run(write(tmp_path, LEGAL_TEXT))
    assert code == 0
    assert result == {"valid": True, "errors": [], "warnings": []}


def test_invalid_deck_exits_1_with_rule_numbers(cards, tmp_path):
    code, result = run(write(tmp_path, LEGAL_TEXT.replace("4 Ember Scout", "5 Ember Scout\n1 Tide Caller")))
    assert code == 1
    assert result["valid"] is False
    assert [(e["rule"], e["cards"]) for e in result["errors"]] == [
        ("C-3.2", ["Ember Scout"]),
        ("C-3.4", ["Tide Caller"]),
    ]
    assert result["errors"][0]["message"] == "5 copies of Ember Scout: at most 4 (C-3.2)"
    assert set(result) == {"valid", "errors", "warnings"}


def test_too_few_cards_exits_1(cards, tmp_path):
    code, result = run(write(tmp_path, LEGAL_TEXT.replace("4 Ember Scout", "3 Ember Scout")))
    assert code == 1
    assert result["errors"][0]["message"] == "49 cards: a deck needs at least 50 (C-3.1)"


def test_unknown_card_exits_2_with_line_and_suggestion(cards, tmp_path):
    code, result = run(write(tmp_path, LEGAL_TEXT.replace("Ember Scout", "Embr Scout")))
    assert code == 2
    [error] = result["errors"]
    assert error["rule"] is None and error["line"] == 1
    assert error["cards"] == ["Embr Scout"] and error["suggestions"] == ["Ember Scout"]


def test_unreadable_file_exits_2(db, tmp_path):
    code, result = run(str(tmp_path / "missing.txt"))
    assert code == 2
    assert result["valid"] is False and result["errors"][0]["rule"] is None


def test_bad_line_exits_2(cards, tmp_path):
    code, result = run(write(tmp_path, "four Ember Scout\n" + LEGAL_TEXT))
    assert code == 2 and result["errors"][0]["line"] == 1


def test_plain_card_file_instead_of_the_database(tmp_path):
    cards_file = tmp_path / "cards.json"
    factions = [{"slug": s, "name": n, "description": "", "color": "#000000"} for s, n in FACTIONS.items()]
    cards_file.write_text(
        json.dumps(
            {"format": "commandeer-cards", "version": 1, "factions": factions, "keywords": [], "cards": POOL}
        )
    )
    code, result = run(write(tmp_path, LEGAL_TEXT), "--cards", str(cards_file))
    assert code == 0 and result["valid"] is True
