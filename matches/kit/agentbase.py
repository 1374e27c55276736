"""What every agent of both engines is built with.

``Cls(rng, budget_s=None, *, iterations=None, opponent_deck_known=True, params=None)``: ``budget_s`` None
means the level's budget in ``params.level_budget_s`` (CPU seconds, ``budget.Budget``); ``iterations``
replaces the clock by a fixed number of simulations (a deterministic choice, for tests);
``opponent_deck_known`` is Commandeer's assumption that the opponent's decklist is public (Westeros agents
accept it and have nothing to know); ``params`` the engine's AI parameters (None: the engine's defaults,
``default_params``). An agent never reads a module global tunable: everything it may vary is in
``self.params``.
"""

from __future__ import annotations

import copyreg
import dataclasses
from collections.abc import Mapping
from random import Random
from typing import Any, ClassVar, Generic, Protocol, TypeVar


class LevelParams(Protocol):
    """What the base needs of an engine's AI parameters: the levels' budgets."""

    @property
    def level_budget_s(self) -> Mapping[str, float]: ...


P = TypeVar("P", bound=LevelParams)


def _by_fields(value: Any) -> tuple[type, tuple[object, ...]]:
    return type(value), tuple(getattr(value, f.name) for f in dataclasses.fields(value))


def picklable_by_fields(*classes: type) -> None:
    """Pickle (and copy) these frozen dataclasses by calling the class with their fields. The default,
    which restores the attributes one by one, fails on a frozen class compiled by mypyc (no ``__dict__``
    to fill, and its ``__setattr__`` refuses); the benches hand AI parameters to worker processes."""
    for cls in classes:
        assert dataclasses.is_dataclass(cls) and all(f.init for f in dataclasses.fields(cls)), cls
        copyreg.pickle(cls, _by_fields)


class AgentBase(Generic[P]):
    """The constructor every agent shares; the class's ``name`` (its level) picks its default budget."""

    name: ClassVar[str] = "agent"

    def __init__(
        self,
        rng: Random,
        budget_s: float | None = None,
        *,
        iterations: int | None = None,
        opponent_deck_known: bool = True,
        params: P | None = None,
    ) -> None:
        self.params: P = self.default_params() if params is None else params
        self.rng = rng
        self.budget_s = self.params.level_budget_s.get(self.name, 0.0) if budget_s is None else budget_s
        self.iterations = iterations
        self.opponent_deck_known = opponent_deck_known

    def default_params(self) -> P:
        """The engine's default parameters (each engine's base class names them)."""
        raise NotImplementedError(f"{type(self).__name__} names no default AI parameters")


__all__ = ["AgentBase", "LevelParams"]
