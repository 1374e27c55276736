"""Rules coverage cannot silently regress: every rule of C-4 … C-8 is cited by a test, every numbered rule
and Decision has a row in docs/commandeer-rules-coverage.md, every "where" names real code, and the page
is current (``UPDATE_COVERAGE=1`` regenerates it)."""

from __future__ import annotations

import importlib
import os
import re
from dataclasses import fields

import pytest

from matches.engine.config import RulesConfig
from matches.engine.tests import coverage_table as ct


def _rules() -> tuple[list[str], list[str]]:
    """The numbered rules and Decisions; a missing reference FAILS the guard tests (never a skip)."""
    try:
        return ct.numbered_rules()
    except FileNotFoundError as exc:
        pytest.fail(str(exc))


def test_the_rules_reference_is_in_the_repository() -> None:
    assert ct.RULES_DOC == ct.ROOT / "docs" / "rules" / "commandeer.md"
    assert ct.RULES_DOC.is_file(), f"missing rules reference: {ct.RULES_DOC}"


def test_a_missing_rules_reference_is_an_error_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ct, "RULES_DOC", ct.ROOT / "no-such-rules.md")
    with pytest.raises(FileNotFoundError, match=r"docs/rules/commandeer\.md.*no-such-rules\.md"):
        ct.numbered_rules()


def test_the_reference_parses_into_every_numbered_rule_and_decision() -> None:
    RULES, DECISIONS = _rules()
    assert RULES[0] == "C-1.1" and RULES[-1] == "C-8" and "C-5.10" in RULES and len(RULES) == len(set(RULES))
    assert (
        len(RULES) == 44
    )  # C-1.1 … C-1.5, C-2.1 … C-2.5, C-3.1 … C-3.5, C-4.1 … C-4.6, C-5.1 … C-5.11, C-6.1 … C-6.5,
    # C-7.1 … C-7.6, C-8
    assert DECISIONS == ["C-1.2", "C-2.5", "C-3.5", "C-5.2", "C-5.6", "C-6.5", "C-7.1"]


def test_every_decision_names_where_it_is_configured() -> None:
    """A Decision says which RulesConfig field holds it, or says that it is not a field."""
    names = {f.name for f in fields(RulesConfig)}
    text = ct.RULES_DOC.read_text(encoding="utf-8")
    for rule in _rules()[1]:
        item = re.search(rf"^- \*\*{re.escape(rule)}\b.*?(?=^- \*\*C-|^#)", text, re.M | re.S)
        assert item is not None, rule
        fields_named = set(re.findall(r"RulesConfig\.(\w+)", item[0]))
        assert fields_named <= names, f"{rule} names unknown fields {fields_named - names}"
        assert fields_named or "Not a `RulesConfig` field" in item[0], f"{rule} does not say where it is set"


def test_the_parser_finds_rules_in_names_and_docstrings() -> None:
    cited = {
        m for a, b in ct.RULE_IN_NAME.findall("test_x_c_5_10_c_6_2_and_c_8") for m in [ct._rule_of(a, b)]
    }
    assert cited == {"C-5.10", "C-6.2", "C-8"}
    assert ct.RULE_IN_NAME.findall("test_c_5_1x") == []  # not a rule number


def test_every_rule_of_sections_four_to_eight_is_cited_by_a_test() -> None:
    RULES, _ = _rules()
    cites = ct.citations()
    checked = [r for r in RULES if 4 <= int(r[2:].split(".")[0]) <= 8]
    assert len(checked) == 29  # C-4.1 … C-4.6, C-5.1 … C-5.11, C-6.1 … C-6.5, C-7.1 … C-7.6, C-8
    uncited = [r for r in checked if not cites.get(r)]
    assert uncited == [], f"rules cited by no test: {uncited}"


def test_every_test_citation_is_a_real_rule() -> None:
    RULES, _ = _rules()
    unknown = {r: tests for r, tests in ct.citations().items() if r not in RULES}
    assert unknown == {}, f"tests cite rule numbers that docs/rules/commandeer.md does not have: {unknown}"


def test_every_numbered_rule_and_decision_has_a_row() -> None:
    RULES, DECISIONS = _rules()
    assert list(ct.RULES) == RULES
    assert set(ct.DECISIONS) == set(DECISIONS)
    assert all(row.status in (ct.IMPLEMENTED, ct.PARTIAL, ct.MISSING) for row in ct.RULES.values())
    assert all(row.note for row in ct.RULES.values() if row.status != ct.IMPLEMENTED), "say what is missing"


def _resolve(ref: str) -> object:
    module, _, qualname = ref.partition(":")
    obj: object = importlib.import_module("matches.engine." + module.removesuffix(".py"))
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def test_every_where_reference_names_real_engine_code() -> None:
    refs = {w for row in [*ct.RULES.values(), *ct.DECISIONS.values()] for w in row.where}
    missing = []
    for ref in sorted(refs):
        try:
            _resolve(ref)
        except (ImportError, AttributeError):
            missing.append(ref)
    assert missing == []


def test_every_rules_config_field_is_used_by_a_test() -> None:
    users = ct.config_users()
    assert set(users) == {f.name for f in fields(RulesConfig)}
    assert [name for name, tests in users.items() if not tests] == []


def test_the_coverage_page_is_current() -> None:
    _rules()
    text = ct.render()
    if os.environ.get("UPDATE_COVERAGE"):
        ct.DOC.write_text(text)
    assert ct.DOC.exists(), "run UPDATE_COVERAGE=1 pytest matches/engine/tests/test_rules_coverage.py"
    assert ct.DOC.read_text() == text, (
        "docs/commandeer-rules-coverage.md is stale: regenerate (UPDATE_COVERAGE=1)"
    )
