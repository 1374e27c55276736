"""The play layer's modules import each other in one direction only: no import circle among `matches`
modules (tests and migrations aside), built from the module-level imports with `ast`."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "matches"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _play_layer_modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE).parts
        if "tests" in rel or "migrations" in rel:
            continue
        found[_module_name(path)] = path
    return found


def _imports_at_module_level(path: Path, name: str, known: set[str]) -> set[str]:
    """The `matches` modules that ``name`` imports at module level, including under a top-level `if`/`try`
    (not inside functions, which run later; not under `if TYPE_CHECKING`), each resolved to the longest known module. Parent packages
    are left out: importing `a.b.c` runs `a.b` first, but a package that imports its own submodules is
    no circle."""
    is_package = path.name == "__init__.py"
    targets: set[str] = set()

    def add(dotted: str) -> None:
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        if dotted and dotted != name:
            targets.add(dotted)

    def visit(stmts: list[ast.stmt]) -> None:
        for node in stmts:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    add(alias.name)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name if is_package else name.rpartition(".")[0]
                    for _ in range(node.level - 1):
                        base = base.rpartition(".")[0]
                    module = f"{base}.{node.module}" if node.module else base
                else:
                    module = node.module or ""
                for alias in node.names:  # `from pkg import submodule` imports the submodule
                    add(f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module)
            elif isinstance(node, ast.If) and ast.unparse(node.test) in (
                "TYPE_CHECKING",
                "typing.TYPE_CHECKING",
            ):
                visit(node.orelse)  # only the type checker runs the body
            elif isinstance(node, ast.If | ast.Try):
                visit(node.body)
                visit(node.orelse)
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)
                visit(getattr(node, "finalbody", []))

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return targets


def _import_graph() -> dict[str, set[str]]:
    modules = _play_layer_modules()
    known = set(modules)
    return {name: _imports_at_module_level(path, name, known) for name, path in modules.items()}


def _a_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph`` (as a path that ends where it starts), or None."""
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (found := walk(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := walk(node)):
            return found
    return None


def test_the_cycle_finder_reports_a_circle_and_accepts_a_tree() -> None:
    assert _a_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _a_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_sees_the_imports_that_run_at_module_level() -> None:
    graph = _import_graph()
    assert "matches.services.submit" in graph["matches.apis"]
    assert "matches.models" in graph["matches.services.submit"]
    assert "matches.games.registry" in graph["matches.services.submit"]


def test_the_play_layer_modules_import_each_other_without_a_circle() -> None:
    cycle = _a_cycle(_import_graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])
