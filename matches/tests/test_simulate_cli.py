"""``manage.py simulate``: one JSON object with games, wins, draws, averages and speed (no database)."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from matches.engine import build_deck, load_card_file
from matches.engine.decks import default_decks
from matches.engine.tests.pool import pool_file


@pytest.mark.skipif(not default_decks(), reason="no sample card set")
def test_simulate_commandeer_prints_one_json_object() -> None:
    out = StringIO()
    call_command(
        "simulate", "commandeer", "--games", "4", "--seed", "3", "--agents", "random,greedy", stdout=out
    )
    result = json.loads(out.getvalue())
    assert result["games"] == 4 and set(result["wins"]) == {"random", "greedy"}
    assert sum(result["wins"].values()) + result["draws"] == 4
    for key in ("average_turns", "average_actions", "actions_per_second"):
        assert result[key] > 0


def test_simulate_with_deck_files(tmp_path: Path) -> None:
    cat = load_card_file(pool_file())
    files = []
    for faction in ("ember", "tide"):
        f = tmp_path / f"{faction}.json"
        f.write_text(json.dumps(build_deck(cat, faction)))
        files.append(str(f))
    out = StringIO()
    call_command(
        "simulate", "commandeer", "--games", "2", "--agents", "random,random", "--decks", *files, stdout=out
    )
    result = json.loads(out.getvalue())
    assert set(result["wins"]) == {"random_a", "random_b"} and result["games"] == 2


def test_simulate_rejects_bad_agents() -> None:
    with pytest.raises(CommandError, match="unknown agent"):
        call_command("simulate", "commandeer", "--games", "1", "--agents", "random,wizard", stdout=StringIO())
