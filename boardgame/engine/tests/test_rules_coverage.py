"""Rules coverage: every W-4 … W-18 rule of the rules reference is cited by a test, and scenario tests
mention every house card, Westeros card and wildling card at least once.

The rule ids live in `westeros_rule_ids.txt` next to this file and are checked against the rules
reference `docs/rules/westeros.md` in the repository (a missing file fails the guard; it never skips).
The rule-by-rule table is docs/westeros-rules-coverage.md.
"""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from boardgame.engine.config import RulesConfig
from matches.kit.compiled import docstring_of

from .conftest import _DATA

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[2]  # the folder holding manage.py
RULES_DOC = REPO_ROOT / "docs" / "rules" / "westeros.md"
IDS_FILE = HERE / "westeros_rule_ids.txt"
CHECKED_SECTIONS = range(4, 19)  # W-4 … W-18 must each be cited by a test
COVERAGE_DOC = REPO_ROOT / "docs" / "westeros-rules-coverage.md"


def rule_key(rule: str) -> tuple[int, ...]:
    return tuple(int(x) for x in rule.split("."))


def parse_rules(text: str) -> list[str]:
    """Rule ids of the reference: headings that start with one (`## W-9`, `### W-7.1`) and list items
    that start with one in bold (`- **W-9.8 Victor.**`, nested `  - **W-9.10.1**`)."""
    ids = re.findall(r"^#+ W-(\d+(?:\.\d+)*)\b", text, re.M)
    ids += re.findall(r"^\s*- \*\*W-(\d+(?:\.\d+)*)\b", text, re.M)
    assert len(ids) == len(set(ids)), (
        f"a rule number is used twice: {sorted(i for i in ids if ids.count(i) > 1)}"
    )
    return sorted(ids, key=rule_key)


def rules_text(path: Path = RULES_DOC) -> str:
    assert path.is_file(), f"rules reference not found at {path}"
    return path.read_text(encoding="utf-8")


def stored_ids() -> list[str]:
    return [ln.strip() for ln in IDS_FILE.read_text(encoding="utf-8").splitlines() if ln.strip()]


def all_test_sources() -> str:
    """Every test module but this one (its own examples must not count as citations)."""
    me = Path(__file__).resolve()
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(HERE.glob("test_*.py")) if p != me)


def cited_rules(source: str) -> set[str]:
    """`w_9_10_4` in test names and `W-9.10.4` in docstrings/comments."""
    names = {m.replace("_", ".") for m in re.findall(r"(?:(?<=_)|(?<!\w))w_(\d+(?:_\d+)*)", source)}
    return names | set(re.findall(r"W-(\d+(?:\.\d+)*)", source))


def leaves(ids: list[str]) -> list[str]:
    return [i for i in ids if not any(j.startswith(i + ".") for j in ids)]


def uncited(ids: list[str], cited: set[str]) -> list[str]:
    return [
        i
        for i in leaves(ids)
        if rule_key(i)[0] in CHECKED_SECTIONS and not any(c == i or c.startswith(i + ".") for c in cited)
    ]


def test_the_repository_root_holds_manage_py() -> None:
    assert (REPO_ROOT / "manage.py").is_file(), f"{REPO_ROOT} is not the repository root"


def test_stored_rule_ids_match_the_rules_reference() -> None:
    assert stored_ids() == parse_rules(rules_text())


def test_a_missing_rules_reference_fails_the_guard(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match="rules reference not found"):
        rules_text(tmp_path / "absent.md")


def _decision_items() -> dict[str, str]:
    """W-22.n → the text of its list item."""
    section = rules_text().split("## W-22 ", 1)[1]
    return dict(re.findall(r"^- \*\*W-(22\.\d+)\*\*(.*?)(?=^- \*\*W-|\Z)", section, re.M | re.S))


def test_every_decision_says_where_it_is_configured() -> None:
    """Each W-22 Decision names its RulesConfig field, or is fixed behaviour the class's docstring names."""
    by_rule = {f.name: f.metadata.get("rule") for f in fields(RulesConfig)}
    items = _decision_items()
    assert sorted(items, key=rule_key) == [i for i in stored_ids() if i.startswith("22.")]
    for rule, text in items.items():
        named = re.findall(r"Field\s+`(\w+)`", text)
        for name in named:
            assert by_rule.get(name) == f"W-{rule}", (
                f"W-{rule} names {name}, which is not its RulesConfig field"
            )
        if "Fixed behaviour" in text:
            assert f"W-{rule} " in " ".join((docstring_of(RulesConfig) or "").split()), (
                f"W-{rule} is not in the docstring"
            )
        assert named or "Fixed behaviour" in text or "not built" in text, (
            f"W-{rule} does not say where it is set"
        )
    for name, field_rule in by_rule.items():
        if field_rule and field_rule.startswith("W-22."):
            assert f"`{name}`" in items[field_rule[2:]], f"{field_rule} does not name its field {name}"


def test_every_rule_of_w_4_to_w_18_is_cited_by_a_test() -> None:
    missing = uncited(stored_ids(), cited_rules(all_test_sources()))
    assert missing == [], f"rules cited by no test: {', '.join('W-' + m for m in missing)}"


def test_the_coverage_checker_notices_an_uncited_rule() -> None:
    ids = ["7.1.1", "7.1.2", "9.8", "19.1"]
    assert uncited(ids, cited_rules("def test_x_w_7_1_1(): ...  # W-9.8")) == ["7.1.2"]
    assert parse_rules(
        "## W-9 Combat\n- **W-9.10 Retreat.**\n  - **W-9.10.1** a\n  - **W-9.10.2** b\n- **W-9.11** x at\n"
        "  2. not a rule\n### W-10.1 x\n- **W-10.1.1** y\n"
    ) == ["9", "9.10", "9.10.1", "9.10.2", "9.11", "10.1", "10.1.1"]


@pytest.mark.parametrize(
    "what,ids",
    [
        ("house card", sorted(_DATA.house_cards)),
        ("westeros card", sorted({c.split(":", 1)[1] for c in _DATA.westeros_cards})),
        ("wildling card", sorted(_DATA.wildling_cards)),
    ],
)
def test_scenario_tests_mention_every_card(what: str, ids: list[str]) -> None:
    source = all_test_sources()
    # cards without text are covered by one parametrised test over the data (test_combat.py)
    textless = (
        {c for c, v in _DATA.house_cards.items() if v["effect"] is None} if what == "house card" else set()
    )
    missing = [c for c in ids if c not in textless and f'"{c}"' not in source]
    assert missing == [], f"no scenario test uses the {what}(s) {missing}"


def test_the_coverage_document_lists_every_rule() -> None:
    assert COVERAGE_DOC.is_file(), f"{COVERAGE_DOC} is missing"
    text = COVERAGE_DOC.read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| W-(\d+(?:\.\d+)*) ", text, re.M))
    missing = [i for i in stored_ids() if i not in listed]
    assert missing == [], f"rules missing from the coverage table: {missing}"
