"""docs/card-abilities.md covers the whole vocabulary, is up to date, and its examples are valid."""

from __future__ import annotations

import json
import re

import pytest
from django.core.management import CommandError, call_command

from cards.describe import describe_ability
from cards.vocabulary_doc import DOC_PATH, render_document
from matches.engine.vocabulary import EFFECTS, KEYWORDS, PARAM_KINDS, TARGETS, TRIGGERS, validate_ability

DOC = DOC_PATH.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", [*TRIGGERS, *EFFECTS, *TARGETS, *KEYWORDS])
def test_every_vocabulary_name_is_documented(name):
    assert f"`{name}`" in DOC


def test_every_parameter_kind_is_documented():
    for kind in PARAM_KINDS:
        assert f"| {kind} |" in DOC


def test_generated_tables_are_up_to_date():
    assert render_document(DOC) == DOC, "run: python manage.py ability_docs"


def test_ability_docs_check_fails_on_a_stale_document(tmp_path, monkeypatch):
    stale = tmp_path / "card-abilities.md"
    stale.write_text(DOC.replace("| `deploying` |", "| `deploy` |"))
    monkeypatch.setattr("cards.management.commands.ability_docs.DOC_PATH", stale)
    with pytest.raises(CommandError, match="out of date"):
        call_command("ability_docs", "--check")


def test_worked_examples_are_valid_and_their_plain_words_match():
    """Each ```json example followed by '→ "..."' validates and describes to exactly that sentence."""
    examples = re.findall(r"```json\n([^`]*)```\n→ \"(.*?)\"\n", DOC)
    assert len(examples) >= 5
    for text, sentence in examples:
        ability = json.loads(text)
        card_type = "event" if ability["trigger"] in ("on_play", "attached") else "unit"
        event_type = "ongoing" if ability["trigger"] == "attached" else "planning"
        assert validate_ability(ability, card_type=card_type, event_type=event_type) == [], text
        assert describe_ability(ability) == sentence
