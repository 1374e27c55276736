"""The sample-set checker (cards/data/check_sample.py) passes the real set and names what a broken copy breaks."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from cards.data import check_sample
from cards.describe import describe_ability

pytestmark = pytest.mark.skipif(not check_sample.DEFAULT_PATH.exists(), reason="no sample card set")


@pytest.fixture(scope="module")
def sample() -> dict[str, Any]:
    return json.loads(check_sample.DEFAULT_PATH.read_text(encoding="utf-8"))


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, list[str]]:
    """Run the checker's main(); return its exit code and the problems it printed."""
    code = check_sample.main(argv)
    out = capsys.readouterr().out
    return code, [line.removeprefix("PROBLEM: ") for line in out.splitlines() if line.startswith("PROBLEM: ")]


def write(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def first_card(data: dict[str, Any], **where: Any) -> dict[str, Any]:
    return next(c for c in data["cards"] if all(c[k] == v for k, v in where.items()) and c["abilities"])


def test_real_sample_set_passes(capsys):
    code, problems = run(capsys, [])
    assert problems == []
    assert code == 0


def test_rules_text_that_disagrees_with_the_abilities_fails(sample, tmp_path, capsys):
    broken = copy.deepcopy(sample)
    card = first_card(broken, type="unit")
    printed = card["rules_text"]
    card["rules_text"] = printed + "\nDraw 3 cards."
    code, problems = run(capsys, [write(tmp_path, broken)])
    assert code == 1
    assert problems == [f"{card['name']}: rules_text must say exactly what the abilities do: {printed!r}"]


def test_ability_changed_without_its_words_fails(sample, tmp_path, capsys):
    broken = copy.deepcopy(sample)
    card = next(
        c
        for c in broken["cards"]
        if any(e["effect"] == "deal_damage" for a in c["abilities"] for e in a["effects"])
    )
    i, ability = next(
        (i, a)
        for i, a in enumerate(card["abilities"])
        if any(e["effect"] == "deal_damage" for e in a["effects"])
    )
    effect = next(e for e in ability["effects"] if e["effect"] == "deal_damage")
    effect["amount"] += 1000  # the abilities now do more than the printed text says
    code, problems = run(capsys, [write(tmp_path, broken)])
    assert code == 1
    expected = describe_ability(ability, event_type=card["event_type"])
    assert problems == [f"{card['name']}: abilities[{i}].text must be {expected!r}"]


def test_faction_with_too_few_cards_fails(sample, tmp_path, capsys):
    broken = copy.deepcopy(sample)
    slug = broken["factions"][0]["slug"]
    own = [c for c in broken["cards"] if c["faction"] == slug]
    least = check_sample.MIN_DISTINCT_PER_FACTION
    drop = {c["name"] for c in own[: len(own) - (least - 1)]}
    broken["cards"] = [c for c in broken["cards"] if c["name"] not in drop]
    code, problems = run(capsys, [write(tmp_path, broken)])
    assert code == 1
    assert f"faction '{slug}': {least - 1} distinct cards, at least {least}" in problems


def test_five_cp_card_fails_because_cp_is_not_saved_c_5_1_c_5_4(sample, tmp_path, capsys):
    broken = copy.deepcopy(sample)
    card = next(c for c in broken["cards"] if c["type"] == "unit" and c["command_cost"] == 3)
    card["command_cost"] = 5
    code, problems = run(capsys, [write(tmp_path, broken)])
    assert code == 1
    assert problems == [f"{card['name']}: command_cost 5 outside 1-3 (3 CP a turn, not saved: C-5.1, C-5.4)"]


def test_unreadable_file_fails(tmp_path, capsys):
    path = tmp_path / "cards.json"
    path.write_text("{not json", encoding="utf-8")
    assert check_sample.main([str(path)]) == 1
    assert "cannot read" in capsys.readouterr().out


def test_translations_pass_and_a_bad_one_is_named(sample, tmp_path, capsys):
    translated = copy.deepcopy(sample)
    card = translated["cards"][0]
    card["translations"] = {"zh-hans": {"name": "测试卡"}, "th": {"rules_text": "ข้อความ"}}
    translated["factions"][0]["translations"] = {"zh-hans": {"name": "余烬军团"}}
    translated["keywords"][0]["translations"] = {"th": {"reminder_text": "ข้อความอธิบายความสามารถ"}}
    code, problems = run(capsys, [write(tmp_path, translated)])
    assert (code, problems) == (0, [])
    card["translations"]["th"] = {"name": "ก" * 81}
    code, problems = run(capsys, [write(tmp_path, translated)])
    assert code == 1
    assert problems == [f"{card['name']}: translations.th.name: at most 80 characters"]
    translated["keywords"][0]["translations"] = {"fr": {"name": "x"}}
    code, problems = run(capsys, [write(tmp_path, translated)])
    assert problems == ["keywords[0].translations: unknown language 'fr' (allowed: th, zh-hans)"]
