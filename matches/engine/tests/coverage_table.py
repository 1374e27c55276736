"""The rules-coverage table (docs/commandeer-rules-coverage.md): where each numbered rule lives, and its tests.

The "where" and "status" columns are kept here by hand; the "tests" columns are found by reading the
engine's test files (a test cites a rule by its name, ``..._c_5_7``, or its docstring, ``C-5.7``) and,
for the rules-config table, by which tests use a field. ``render()`` writes the document;
``test_rules_coverage.py`` checks it is current (regenerate with ``UPDATE_COVERAGE=1``).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, fields
from pathlib import Path

from matches.engine.config import RulesConfig

ROOT = Path(__file__).resolve().parents[3]  # the repository root: the folder that holds manage.py
# The numbered rules live in the repository, so a bare clone checks its code against them.
RULES_DOC_RELATIVE = "docs/rules/commandeer.md"
RULES_DOC = ROOT / RULES_DOC_RELATIVE


def read_rules_doc() -> str:
    """The rules reference's text; a missing file is an error naming it (the guard tests fail, never skip)."""
    if not RULES_DOC.is_file():
        raise FileNotFoundError(
            f"the Commandeer rules reference is missing: {RULES_DOC_RELATIVE} ({RULES_DOC})"
        )
    return RULES_DOC.read_text(encoding="utf-8")


DOC = ROOT / "docs" / "commandeer-rules-coverage.md"
TESTS_DIR = Path(__file__).resolve().parent

IMPLEMENTED, PARTIAL, MISSING = "implemented", "partial", "missing"


@dataclass(frozen=True)
class Row:
    """One rule: where the engine implements it (``file:Qualified.name``), status, and what is left out."""

    where: tuple[str, ...]
    status: str = IMPLEMENTED
    note: str = ""


RULES: dict[str, Row] = {
    "C-1.1": Row(("cards.py:CardDef", "cards.py:card_from_dict")),
    "C-1.2": Row(("cards.py:card_from_dict", "combat.py:arrows_of")),
    "C-1.3": Row(
        (
            "legality.py:_legal_planning",
            "legality.py:_legal_defending",
            "abilities.py:resolve_event",
            "board.py:leave",
        ),
        note="Ongoing events are played in the Planning phase (RulesConfig.ongoing_attach_any_unit).",
    ),
    "C-1.4": Row(
        ("deckrules.py:is_one_of", "cards.py:CardDef.max_copies"),
        note="Legendary/Unique only limit copies (C-3.3) and who may be Commander (C-4.1); no other in-match rule.",
    ),
    "C-1.5": Row(
        (
            "vocabulary.py:validate_abilities",
            "effects.py:EFFECT_IMPLS",
            "abilities.py:TRIGGER_IMPLS",
            "abilities.py:resume",
        )
    ),
    "C-2.1": Row(("actions.py:square_name", "actions.py:square_index")),
    "C-2.2": Row(("board.py:START_SQUARES", "board.py:deploy_squares")),
    "C-2.3": Row(("config.py:RulesConfig.edge_penalties", "continuous.py:stats", "combat.py:settle")),
    "C-2.4": Row(("board.py:Side", "board.py:ZONES")),
    "C-2.5": Row(("board.py:NEIGHBOURS_ORTHO", "state.py:GameState._setup_derived")),
    "C-3.1": Row(
        (
            "deckrules.py:DeckRules",
            "deckrules.py:copy_issues",
            "cards.py:deck_problems",
            "setup.py:new_match",
        ),
        note="One source: deckrules.py, used by the engine and decks/validation.py (deck builder).",
    ),
    "C-3.2": Row(
        ("deckrules.py:copy_issues", "deckrules.py:max_copies"), note="Also read by decks/validation.py."
    ),
    "C-3.3": Row(
        ("deckrules.py:is_one_of", "deckrules.py:copy_issues"), note="Also read by decks/validation.py."
    ),
    "C-3.4": Row(("deckrules.py:faction_issue",), note="Also read by decks/validation.py."),
    "C-3.5": Row(
        ("setup.py:new_match", "phases.py:next_commander_chooser"),
        note="The engine plays without a Commander; the builder's warning is decks/validation.py.",
    ),
    "C-4.1": Row(
        ("setup.py:new_match", "phases.py:next_commander_chooser", "dispatch.py:_do_choose_commander")
    ),
    "C-4.2": Row(("phases.py:_after_commanders",)),
    "C-4.3": Row(("phases.py:_after_commanders", "board.py:draw")),
    "C-4.4": Row(
        (
            "dispatch.py:_do_mulligan",
            "choices.py:card_choice",
            "choices.py:pick_card",
            "views.py:log_view",
            "views.py:player_view",
        ),
        note="'In turn' = the first player finishes all their mulligans, then the second player decides. "
        "Capped by RulesConfig.max_mulligans.",
    ),
    "C-4.5": Row(("phases.py:begin_play", "legality.py:_legal_planning", "board.py:take_from_hand")),
    "C-4.6": Row(("phases.py:_step_start_cp",), note="The START_CP step, RulesConfig.first_turn_cp."),
    "C-5.1": Row(
        ("phases.py:_step_turn_start", "abilities.py:next_trigger", "dispatch.py:_answer_order"),
        note="TURN_START then START_CP steps.",
    ),
    "C-5.2": Row(
        (
            "legality.py:_legal_planning",
            "board.py:deploy_squares",
            "board.py:move_squares",
            "legality.py:_legal_activations",
            "dispatch.py:ACTION_HANDLERS",
        )
    ),
    "C-5.3": Row(("choices.py:card_choice", "choices.py:pick_card")),
    "C-5.4": Row(("phases.py:_step_planning_end", "results.py:no_unit_loss"), note="PLANNING_END step."),
    "C-5.5": Row(
        ("phases.py:_step_defending_start", "legality.py:_legal_defending", "abilities.py:next_trigger"),
        note="DEFENDING_START step.",
    ),
    "C-5.6": Row(("legality.py:_legal_combat", "combat.py:attack_options", "combat.py:attack")),
    "C-5.7": Row(("combat.py:attack", "combat.py:settle", "combat.py:defeat", "board.py:leave")),
    "C-5.8": Row(("phases.py:_step_combat_end",), note="COMBAT_END step."),
    "C-5.9": Row(
        ("phases.py:_step_end", "phases.py:_op_hand_limit", "choices.py:card_choice"),
        note="END step, hand_limit op.",
    ),
    "C-5.10": Row(("phases.py:_end_turn", "results.py:no_unit_loss")),
    "C-5.11": Row(
        ("phases.py:_end_turn", "config.py:RulesConfig.cp_reset_active_only"),
        note="Both players' remaining CP is reset (RulesConfig.cp_reset_active_only=False).",
    ),
    "C-6.1": Row(
        ("combat.py:settle",),
        note="Both players reaching the count at once is a draw (engine choice, not configurable).",
    ),
    "C-6.2": Row(("results.py:no_unit_loss",)),
    "C-6.3": Row(
        (
            "combat.py:settle",
            "state.py:GameState.apply",
            "state.py:GameState.apply_unchecked",
            "abilities.py:resume",
        ),
        note="An effect on several units deals its damage together and is checked once, right after it.",
    ),
    "C-6.4": Row(("state.py:GameState.legal_actions", "dispatch.py:apply_action")),
    "C-6.5": Row(("phases.py:_end_turn",)),
    "C-7.1": Row(("combat.py:attack_options", "continuous.py:has_range")),
    "C-7.2": Row(
        ("phases.py:_place",),
        note="Deploying triggers even if the unit is defeated at once on entering (edge square).",
    ),
    "C-7.3": Row(
        ("phases.py:_step_turn_start", "combat.py:attack"),
        note="Unit.hit_turn = last turn the unit was attacked.",
    ),
    "C-7.4": Row(("combat.py:attack", "phases.py:_end_turn")),
    "C-7.5": Row(
        ("combat.py:defeat", "combat.py:settle", "combat.py:cause_of"),
        note="Every defeat in the same check after an attack or effect counts as caused by it (knock-on "
        "defeats, e.g. a lost Health bonus, included).",
    ),
    "C-7.6": Row(
        (
            "continuous.py:bonuses",
            "continuous.py:largest_group",
            "continuous.py:formation_holds",
            "legality.py:_legal_activations",
            "vocabulary.py:validate_ability",
        ),
        note="'Active': the `formation` trigger (continuous); 'usable': `x` on an activated trigger. The "
        "owner's largest connected group counts, whether or not the unit is in it.",
    ),
    "C-8": Row(("views.py:player_view", "views.py:log_view", "views.py:events_view")),
}

# The Decisions of the rules reference: where the default is kept (RulesConfig) and which code reads it.
DECISIONS: dict[str, Row] = {
    "C-1.2": Row(("config.py:RulesConfig.rotate_second_player_arrows", "combat.py:arrows_of")),
    "C-2.5": Row(("config.py:RulesConfig.adjacency", "state.py:GameState._setup_derived")),
    "C-3.5": Row(
        ("setup.py:new_match",),
        note="Not a RulesConfig field: the engine simply allows no Commander; the warning is the builder's "
        "(decks/validation.py, `warn_without_legendary`).",
    ),
    "C-5.2": Row(
        (
            "config.py:RulesConfig.reinforce_needs_card_in_deck",
            "legality.py:_legal_planning",
            "board.py:draw",
        )
    ),
    "C-5.6": Row(
        ("config.py:RulesConfig.only_enemy_targets", "config.py:RulesConfig.strike_back", "combat.py:attack")
    ),
    "C-6.5": Row(("config.py:RulesConfig.turn_limit", "phases.py:_end_turn")),
    "C-7.1": Row(("config.py:RulesConfig.range_attack_blocked", "combat.py:attack_options")),
}

# Things the rules leave open that the engine decides without a RulesConfig field (listed, honest).
UNCONFIGURED = (
    "Drawing from an empty deck draws nothing; an empty deck does not lose (no rule says otherwise).",
    "Both players reaching C-6.1's count in the same check is a draw.",
    "Deploying (C-7.2) triggers even if the new unit is defeated at once on an edge square.",
    "Knock-on defeats in the same state check count as caused by the attack or ability (C-7.5 Spoil).",
    "The defender's CP is 0 in the Defending phase unless an effect gave CP (C-5.4/C-5.11 reset CP), so a "
    "Defensive event with a Command cost needs gained CP; the sample set's Defensive events cost 0 CP.",
)

RULE_IN_NAME = re.compile(r"(?:^|_)c_(\d+)(?:_(\d+))?(?=_(?!\d)|$)")
RULE_IN_TEXT = re.compile(r"C-(\d+)(?:\.(\d+))?")


def numbered_rules(text: str | None = None) -> tuple[list[str], list[str]]:
    """The numbered rules of docs/rules/commandeer.md (``C-1.1`` … ``C-7.6``, and ``C-8`` which has no sub-rules) and the
    rules that carry a **Decision**, in the order of the page."""
    text = read_rules_doc() if text is None else text
    rules: list[str] = []
    decisions: list[str] = []
    current = ""
    for line in text.splitlines():
        bullet = re.match(r"- \*\*(C-\d+\.\d+)", line)
        heading = re.match(r"#+ (C-\d+) ", line)
        if bullet:
            current = bullet[1]
            rules.append(current)
        elif heading:
            current = ""
            if not re.search(rf"\*\*{heading[1]}\.\d+", text):  # a section without sub-rules is one rule
                current = heading[1]
                rules.append(current)
        elif line.startswith("#"):
            current = ""
        if "Decision:**" in line and current and current not in decisions:
            decisions.append(current)
    return rules, decisions


def _rule_of(major: str, minor: str | None) -> str:
    return f"C-{major}.{minor}" if minor else f"C-{major}"


def engine_tests() -> list[tuple[str, str, str]]:
    """(file stem, test name, source) of every test function in the engine's test files."""
    out = []
    for path in sorted(TESTS_DIR.glob("test_*.py")):
        source = path.read_text()
        tree = ast.parse(source)
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                out.append((path.stem, node.name, ast.get_source_segment(source, node) or ""))
    return out


def citations() -> dict[str, list[str]]:
    """Rule number -> ``file::test`` names citing it (in the test's name or docstring)."""
    out: dict[str, list[str]] = {}
    for stem, name, source in engine_tests():
        cited = {_rule_of(a, b) for a, b in RULE_IN_NAME.findall(name)}
        node = ast.parse(source).body[0]
        assert isinstance(node, ast.FunctionDef)
        doc = ast.get_docstring(node) or ""
        cited |= {_rule_of(a, b) for a, b in RULE_IN_TEXT.findall(doc)}
        for rule in cited:
            out.setdefault(rule, []).append(f"{stem}::{name}")
    return out


def config_users() -> dict[str, list[str]]:
    """RulesConfig field -> tests whose body uses it (by name)."""
    names = [f.name for f in fields(RulesConfig)]
    out: dict[str, list[str]] = {n: [] for n in names}
    for stem, name, source in engine_tests():
        for n in names:
            if re.search(rf"\b{n}\b", source):
                out[n].append(f"{stem}::{name}")
    return out


def config_comments() -> dict[str, str]:
    """RulesConfig field -> its comment in config.py (the documented Decision), one line."""
    source = (Path(__file__).resolve().parents[1] / "config.py").read_text()
    out = {}
    for f in fields(RulesConfig):
        before = source.split(f"\n    {f.name}:")[0].splitlines()
        comment: list[str] = []
        for line in reversed(before):
            if not line.strip().startswith("#"):
                break
            comment.insert(0, line.strip().lstrip("#").strip())
        out[f.name] = " ".join(comment)
    return out


def _cell(items: list[str] | tuple[str, ...]) -> str:
    return "<br>".join(f"`{i}`" for i in items) if items else "—"


def render() -> str:
    """The whole coverage document."""
    rules, decisions = numbered_rules()
    cites = citations()
    counts = {IMPLEMENTED: 0, PARTIAL: 0, MISSING: 0}
    for r in rules:
        counts[RULES[r].status] += 1
    lines = [
        "# Commandeer rules coverage (engine audit)",
        "",
        "Every numbered rule and every **Decision** of the rules reference",
        "[docs/rules/commandeer.md](rules/commandeer.md):",
        "where the engine (`matches/engine/`) implements it, which engine tests check it, and its status.",
        "Generated by `matches/engine/tests/coverage_table.py` — the *where*/*status* columns are kept there",
        "by hand, the *tests* columns are read from the test files (a test cites a rule in its name,",
        "`..._c_5_7`, or its docstring). `test_rules_coverage.py` fails when a rule of C-4 … C-8 is cited by",
        "no test or when this page is stale; regenerate with",
        "`UPDATE_COVERAGE=1 .venv/bin/pytest matches/engine/tests/test_rules_coverage.py`.",
        "",
        f"**Summary:** {len(rules)} rules — {counts[IMPLEMENTED]} implemented, {counts[PARTIAL]} partial, "
        f"{counts[MISSING]} missing; {len(decisions)} Decisions, all in `RulesConfig` "
        "(C-3.5 is the deck builder's); "
        f"{len(fields(RulesConfig))} `RulesConfig` fields in all.",
        "",
        "## Rules",
        "",
        "| rule | where (matches/engine/…) | tests (matches/engine/tests/…) | status |",
        "|---|---|---|---|",
    ]
    for r in rules:
        row = RULES[r]
        status = row.status + (f": {row.note}" if row.note else "")
        lines.append(f"| {r} | {_cell(row.where)} | {_cell(sorted(cites.get(r, [])))} | {status} |")
    lines += [
        "",
        "## Digest Decisions",
        "",
        "| Decision | kept in / read by | tests | status |",
        "|---|---|---|---|",
    ]
    users = config_users()
    for r in decisions:
        row = DECISIONS[r]
        tests: set[str] = set()
        for w in row.where:
            if w.startswith("config.py:RulesConfig."):
                tests |= set(users.get(w.rsplit(".", 1)[1], []))
        if not tests:  # a Decision without a config field: the tests citing the rule
            tests = set(cites.get(r, []))
        status = row.status + (f": {row.note}" if row.note else "")
        lines.append(f"| {r} Decision | {_cell(row.where)} | {_cell(sorted(tests))} | {status} |")
    comments = config_comments()
    lines += [
        "",
        "## `RulesConfig` fields (every rules choice of the engine)",
        "",
        "Defaults are the project's rules; each field's comment in `matches/engine/config.py` names the rule",
        "and why. `tests/test_config.py` pins every default.",
        "",
        "| field | default | rule and reason | tests using it |",
        "|---|---|---|---|",
    ]
    defaults = RulesConfig()
    for f in fields(RulesConfig):
        value = getattr(defaults, f.name)
        lines.append(f"| `{f.name}` | `{value!r}` | {comments[f.name]} | {_cell(sorted(users[f.name]))} |")
    lines += [
        "",
        "## Open points the engine settles without a config field",
        "",
        *[f"- {item}" for item in UNCONFIGURED],
        "",
    ]
    return "\n".join(lines)
