"""One fact, one place (docs/style.md, "As it grows"): a grep over the repository's code proves each fact
has one source.

- which actions are secret: the engines' `secret_action` only (the play layer asks the state);
- the AI agent names: `matches.agents` only (both engines' registries hold exactly those names);
- handing a seat to the AI: `matches.services.ai_seats.hand_seat_to_ai` only;
- the sample card file's path: `matches.engine.decks.SAMPLE_CARDS` only;
- the error shape `{code, message, extra}`: `config.errors.error_body` (and its schema, `ApiErrorSerializer`);
- no import cycle between the play layer's reads and writes.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SKIP_PARTS = {".venv", "node_modules", ".git", "migrations", "tests", "__pycache__"}


def _code_files(*, under: str = "") -> list[Path]:
    """The project's Python files (tests, migrations and third-party code left out)."""
    return [
        p for p in sorted((ROOT / under).rglob("*.py")) if not SKIP_PARTS & set(p.relative_to(ROOT).parts)
    ]


def _files_matching(pattern: str, *, under: str = "") -> set[str]:
    rx = re.compile(pattern)
    return {str(p.relative_to(ROOT)) for p in _code_files(under=under) if rx.search(p.read_text())}


def test_which_actions_are_secret_is_decided_by_the_engines_only() -> None:
    assert _files_matching(r"SECRET_DECISIONS\s*=") == {"matches/engine/information.py"}
    assert _files_matching(r"def secret_action") <= {
        "matches/engine/state.py",
        "boardgame/engine/game.py",
        "boardgame/engine/hidden.py",
        "matches/interface.py",
    }
    games = (ROOT / "matches/games/kind.py").read_text()
    assert "state.secret_action(action)" in games and "ChooseCommander) or" not in games


def test_ai_agent_names_have_one_registry_for_both_games() -> None:
    from boardgame.engine.agents import AGENTS as westeros_agents
    from matches.agents import AGENT_NAMES, make_agent
    from matches.engine.agents import AGENTS as commandeer_agents

    assert set(commandeer_agents) == set(westeros_agents) == set(AGENT_NAMES)
    literal = r"""["'](greedy|random|flatmc)["']\s*,\s*["'](greedy|random|flatmc)["']"""
    # the benchmark arenas pair agents into match-ups ("hard", "greedy"): that is data, not a registry
    assert _files_matching(literal) - ARENA_FILES == {"matches/agents.py"}
    levels = r"""["'](easy|normal|hard)["']\s*,\s*["'](easy|normal|hard)["']"""
    assert _files_matching(levels) <= {"matches/agents.py"} | ENGINE_AGENT_FILES | ARENA_FILES
    assert _files_matching(r"\bAI_AGENTS\b") == set()
    import random

    assert type(make_agent("westeros", "random", random.Random(1))).__name__ == "RandomAgent"


ENGINE_AGENT_FILES = {"matches/engine/agents.py", "boardgame/engine/agents.py"}
ARENA_FILES = {"matches/kit/arena.py"}  # the match-ups of the strength bench, shared by both engines


def test_every_level_has_its_budget_in_each_engine_and_the_registry_scales_it(settings: Any) -> None:
    """The levels' thinking times live in the engines (LEVEL_BUDGET_S); AI_BUDGET_SCALE multiplies them."""
    from boardgame.engine import agents as westeros
    from matches.agents import LEVELS, level_budget_s
    from matches.engine import agents as commandeer

    for module, kind in ((commandeer, "commandeer"), (westeros, "westeros")):
        assert set(LEVELS) <= set(module.LEVEL_BUDGET_S)
        budgets = [module.LEVEL_BUDGET_S[name] for name in LEVELS]
        assert budgets == sorted(budgets) and budgets[-1] > 0  # easy may answer at once (0: no search)
        settings.AI_BUDGET_SCALE = 0.5
        assert level_budget_s(kind, "hard") == 0.5 * module.LEVEL_BUDGET_S["hard"]
        settings.AI_BUDGET_SCALE = 1000.0  # clamped
        assert level_budget_s(kind, "hard") == 10.0 * module.LEVEL_BUDGET_S["hard"]


def test_one_function_hands_a_seat_to_the_ai() -> None:
    assert _files_matching(r"\.ai_agent\s*=[^=]") == {"matches/services/ai_seats.py"}


def test_the_sample_card_file_is_named_in_one_place() -> None:
    named = _files_matching(r"""["']sample_cards\.json["']|["']cards/data/sample_cards\.json["']""")
    named |= {
        str(p.relative_to(ROOT))
        for p in (ROOT / "tests/browser").glob("*.py")
        if 'sample_cards.json"' in p.read_text()
    }
    assert named == {"matches/engine/decks.py"}


def test_the_error_shape_is_built_in_one_place() -> None:
    shape = r"""\{\s*["']code["']\s*:[^}]*["']message["']\s*:[^}]*["']extra["']\s*:"""
    # frontend/errors.py answers the same shape for Django's own error pages under /api/
    assert _files_matching(shape) - {"frontend/errors.py"} == {"config/errors.py"}
    assert len(re.findall(shape, (ROOT / "config/errors.py").read_text())) == 1
    assert _files_matching(r"\n\s+extra = serializers\.") == {"config/schema.py"}  # ApiErrorSerializer


def test_reads_do_not_import_writes() -> None:
    selectors = (ROOT / "matches/selectors.py").read_text()
    storage = (ROOT / "matches/storage.py").read_text()
    assert "matches.services" not in selectors and "import services" not in selectors
    assert "matches.services" not in storage and "matches.selectors" not in storage
