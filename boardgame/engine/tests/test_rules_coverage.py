"""Rules coverage (the issue's contract): every W-4 … W-18 rule of the digest is cited by a test, and
scenario tests mention every house card, Westeros card and wildling card at least once.

The rule ids live in `westeros_rule_ids.txt` next to this file and are checked against the digest,
found at `../shared/rules/westeros.md` relative to the repository root (the folder holding
`manage.py`) or at the path in the environment variable `WESTEROS_RULES_DIGEST`. A missing digest
fails the guard (it never skips). The rule-by-rule table is docs/westeros-rules-coverage.md.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from .conftest import _DATA

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[2]  # the folder holding manage.py


def digest_path() -> Path:
    """Where the rules digest is: `WESTEROS_RULES_DIGEST`, else `../shared/rules/westeros.md` from the root."""
    override = os.environ.get("WESTEROS_RULES_DIGEST")
    return Path(override) if override else REPO_ROOT.parent / "shared" / "rules" / "westeros.md"


IDS_FILE = HERE / "westeros_rule_ids.txt"
CHECKED_SECTIONS = range(4, 19)  # W-4 … W-18 must each be cited by a test
COVERAGE_DOC = REPO_ROOT / "docs" / "westeros-rules-coverage.md"


def rule_key(rule: str) -> tuple[int, ...]:
    return tuple(int(x) for x in rule.split("."))


def parse_digest(text: str) -> list[str]:
    """Rule ids of the digest: headings (`## W-9`), bold ids (`**W-9.10`) and numbered sub-items
    of a bare title (`- **W-9.10 Retreat and routing.**` then `1.`, `2.` … → W-9.10.1, W-9.10.2)."""
    ids: set[str] = set()
    current: str | None = None
    for line in text.splitlines():
        m = re.match(r"^#+ W-(\d+(?:\.\d+)*)\b", line) or re.match(r"^\s*- \*\*W-(\d+(?:\.\d+)*)", line)
        if m:
            ids.add(m.group(1))
            # only a heading or a bare bold title opens a numbered list of sub-rules (W-9.10, W-22)
            current = m.group(1) if line.startswith("#") or line.rstrip().endswith("**") else None
            ids.update(re.findall(r"\*\*W-(\d+(?:\.\d+)+)", line))
            continue
        if line.startswith("#"):
            current = None
        ids.update(re.findall(r"^\s*- \*\*W-(\d+(?:\.\d+)+)", line))
        n = re.match(r"^\s*(\d+)\.\s", line)
        if n and current is not None:
            ids.add(f"{current}.{n.group(1)}")
    return sorted(ids, key=rule_key)


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


def test_stored_rule_ids_match_the_digest() -> None:
    digest = digest_path()
    assert digest.is_file(), (
        f"rules digest not found at {digest}: put the shared folder beside the clone or set WESTEROS_RULES_DIGEST"
    )
    assert stored_ids() == parse_digest(digest.read_text(encoding="utf-8"))


def test_a_missing_digest_fails_the_guard(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("WESTEROS_RULES_DIGEST", str(tmp_path / "absent.md"))
    with pytest.raises(AssertionError, match="rules digest not found"):
        test_stored_rule_ids_match_the_digest()


def test_every_rule_of_w_4_to_w_18_is_cited_by_a_test() -> None:
    missing = uncited(stored_ids(), cited_rules(all_test_sources()))
    assert missing == [], f"rules cited by no test: {', '.join('W-' + m for m in missing)}"


def test_the_coverage_checker_notices_an_uncited_rule() -> None:
    ids = ["7.1.1", "7.1.2", "9.8", "19.1"]
    assert uncited(ids, cited_rules("def test_x_w_7_1_1(): ...  # W-9.8")) == ["7.1.2"]
    assert parse_digest(
        "## W-9 Combat\n- **W-9.10 Retreat.**\n  1. a\n  2. b\n- **W-9.11** x at\n  2. y\n## W-10 x\n"
    ) == [
        "9",
        "9.10",
        "9.10.1",
        "9.10.2",
        "9.11",
        "10",
    ]


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
