"""Rules coverage cannot silently regress: every rule of C-4 … C-8 is cited by a test, every digest rule
and Decision has a row in docs/commandeer-rules-coverage.md, every "where" names real code, and the page
is current (``UPDATE_COVERAGE=1`` regenerates it)."""

from __future__ import annotations

import importlib
import os
from dataclasses import fields

import pytest

from matches.engine.config import RulesConfig
from matches.engine.tests import coverage_table as ct


def _digest() -> tuple[list[str], list[str]]:
    """The digest's rules and Decisions; a missing digest FAILS the guard tests (never a skip)."""
    try:
        return ct.digest_rules()
    except FileNotFoundError as exc:
        pytest.fail(str(exc))


def test_the_digest_is_found_beside_the_repository_or_by_the_environment_variable() -> None:
    assert ct.DIGEST.is_file(), f"missing rules digest: {ct.DIGEST} ({ct.DIGEST_ENV} overrides the path)"


def test_a_missing_digest_is_an_error_naming_where_it_was_looked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ct, "DIGEST", ct.ROOT / "no-such-digest.md")
    with pytest.raises(FileNotFoundError, match=r"\.\./shared/rules/commandeer\.md.*COMMANDEER_RULES_DIGEST"):
        ct.digest_rules()


def test_digest_parses_into_every_numbered_rule_and_decision() -> None:
    RULES, DECISIONS = _digest()
    assert RULES[0] == "C-1.1" and RULES[-1] == "C-8" and "C-5.10" in RULES and len(RULES) == len(set(RULES))
    assert {"C-1.2", "C-2.5", "C-3.5", "C-5.2", "C-5.6", "C-6.5", "C-7.1"} <= set(DECISIONS)


def test_the_parser_finds_rules_in_names_and_docstrings() -> None:
    cited = {
        m for a, b in ct.RULE_IN_NAME.findall("test_x_c_5_10_c_6_2_and_c_8") for m in [ct._rule_of(a, b)]
    }
    assert cited == {"C-5.10", "C-6.2", "C-8"}
    assert ct.RULE_IN_NAME.findall("test_c_5_1x") == []  # not a rule number


def test_every_rule_of_sections_four_to_eight_is_cited_by_a_test() -> None:
    RULES, _ = _digest()
    cites = ct.citations()
    checked = [r for r in RULES if 4 <= int(r[2:].split(".")[0]) <= 8]
    assert len(checked) == 29  # C-4.1 … C-4.6, C-5.1 … C-5.11, C-6.1 … C-6.5, C-7.1 … C-7.6, C-8
    uncited = [r for r in checked if not cites.get(r)]
    assert uncited == [], f"rules cited by no test: {uncited}"


def test_every_test_citation_is_a_real_rule() -> None:
    RULES, _ = _digest()
    unknown = {r: tests for r, tests in ct.citations().items() if r not in RULES}
    assert unknown == {}, f"tests cite rule numbers that the digest does not have: {unknown}"


def test_every_digest_rule_and_decision_has_a_row() -> None:
    RULES, DECISIONS = _digest()
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
    _digest()
    text = ct.render()
    if os.environ.get("UPDATE_COVERAGE"):
        ct.DOC.write_text(text)
    assert ct.DOC.exists(), "run UPDATE_COVERAGE=1 pytest matches/engine/tests/test_rules_coverage.py"
    assert ct.DOC.read_text() == text, (
        "docs/commandeer-rules-coverage.md is stale: regenerate (UPDATE_COVERAGE=1)"
    )
