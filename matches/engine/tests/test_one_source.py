"""One fact, one place (docs/style.md): the sample card file's path is named only by ``matches.engine.decks``
within the engine and the card app; no engine file or doc names an absolute path of a machine."""

from __future__ import annotations

import ast
import re

from matches.engine.decks import REPOSITORY_ROOT, SAMPLE_CARDS, SAMPLE_CARDS_RELATIVE

AREAS = ("matches/engine", "cards", "bench")


def _string_constants(source: str) -> list[str]:
    """Every string literal of a module that is not a docstring."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_the_sample_card_path_has_one_source() -> None:
    assert (
        SAMPLE_CARDS == REPOSITORY_ROOT / SAMPLE_CARDS_RELATIVE and (REPOSITORY_ROOT / "manage.py").exists()
    )
    naming = []
    for area in AREAS:
        for path in sorted((REPOSITORY_ROOT / area).rglob("*.py")):
            if any(s.endswith(SAMPLE_CARDS.name) for s in _string_constants(path.read_text())):
                naming.append(str(path.relative_to(REPOSITORY_ROOT)))
    assert naming == ["matches/engine/decks.py"]


def test_no_engine_file_or_commandeer_doc_names_an_absolute_machine_path() -> None:
    absolute = re.compile(r"(?<![\w.])/(?:work|home|Users|tmp)/")
    files = [
        *sorted((REPOSITORY_ROOT / "matches" / "engine").rglob("*.py")),
        *sorted((REPOSITORY_ROOT / "docs").glob("commandeer-*.md")),
        REPOSITORY_ROOT / "docs" / "card-abilities.md",
    ]
    offenders = [str(p.relative_to(REPOSITORY_ROOT)) for p in files if absolute.search(p.read_text())]
    assert offenders == []
