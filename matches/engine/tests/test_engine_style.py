"""One engine style (docs/style.md 18): rule modules are plain functions taking the state; ``GameState``
keeps its data and its interface, assembled from nothing bound at run time; the engine's modules import
one another without a circle; no module reaches into another module's private names."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from matches.engine.state import GameState

ENGINE = Path(__file__).resolve().parents[1]


def _modules() -> dict[str, ast.Module]:
    return {p.stem: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(ENGINE.glob("*.py"))}


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _runtime_imports(tree: ast.Module) -> set[str]:
    """Engine modules a module imports when it runs (at its top or inside a function), not for types."""
    out: set[str] = set()
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if _is_type_checking(node):
            continue
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            out.update([node.module] if node.module else [a.name for a in node.names])
        stack.extend(ast.iter_child_nodes(node))
    return out


def test_every_method_of_the_state_is_written_in_its_class() -> None:
    bound = [
        name
        for name, value in vars(GameState).items()
        if inspect.isfunction(value) and not value.__qualname__.startswith("GameState.")
    ]
    assert bound == []


def test_the_state_class_holds_no_attribute_taken_from_a_rule_module() -> None:
    modules = {p.stem for p in ENGINE.glob("*.py")} - {"state"}
    taken = [
        name
        for name, value in vars(GameState).items()
        # a compiled class's own methods carry no module (None); a function taken from a module names it
        if (getattr(value, "__module__", None) or "").rsplit(".", 1)[-1] in modules
    ]
    assert taken == []


def test_engine_modules_import_one_another_without_a_circle() -> None:
    graph = {name: _runtime_imports(tree) for name, tree in _modules().items()}
    on_a_circle = []
    for start in graph:
        seen: set[str] = set()
        stack = list(graph[start])
        while stack:
            m = stack.pop()
            if m == start:
                on_a_circle.append(start)
                break
            if m not in seen:
                seen.add(m)
                stack.extend(graph.get(m, ()))
    assert on_a_circle == []


def test_no_module_reaches_into_another_modules_private_names() -> None:
    names = set(_modules())
    reaches = []
    for name, tree in _modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                reaches += [
                    f"{name}: from .{node.module} import {a.name}"
                    for a in node.names
                    if a.name.startswith("_")
                ]
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in names
                and node.attr.startswith("_")
            ):
                reaches.append(f"{name}: {node.value.id}.{node.attr}")
    assert reaches == []


def test_rule_modules_read_no_private_attribute_of_the_state() -> None:
    state_names = {"st", "g", "state", "self"}
    reaches = []
    for name, tree in _modules().items():
        if name == "state":
            continue
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef) or not fn.args.args:
                continue
            first = fn.args.args[0]
            if first.annotation is None or ast.unparse(first.annotation) != "GameState":
                continue
            for node in ast.walk(fn):
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and node.value.id in state_names | {first.arg}
                    and node.attr.startswith("_")
                ):
                    reaches.append(f"{name}.{fn.name}: {node.value.id}.{node.attr}")
    assert reaches == []
