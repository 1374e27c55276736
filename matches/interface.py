"""The one game interface (docs/style.md 2), as a typing.Protocol generic in the player and action types.

Both rules engines implement it, and everything that runs a game uses it: the AI kit's conformance suite and
arena (``matches.kit``) directly, the play layer through ``matches.games.kind.GameKind``, whose state type
is bound to ``Game`` and which asks every rules question of the state through it.

Pure Python: no Django. The engines never import this module — they conform structurally, and
``mypy --strict`` checks it where the play layer and the conformance suite bind an engine to ``Game``.

Players are the engine's own identifiers (Commandeer: seat numbers 0/1; Westeros: house ids); the
engine's ``players()`` lists them in seat order, so seat ``i`` of a match plays ``players()[i]``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from enum import Enum
from random import Random
from typing import Any, Protocol, Self, TypeVar

P = TypeVar("P")  # a player identifier
A = TypeVar("A")  # an action (a frozen dataclass of the engine)
P_co = TypeVar("P_co", covariant=True)


class Outcome(Protocol[P_co]):
    """A terminal state's result: the winner (None = draw) and why, as an engine enum."""

    @property
    def winner(self) -> P_co | None: ...

    @property
    def reason(self) -> Enum: ...


class Game(Protocol[P, A]):
    """A game state. ``apply`` mutates in place; ``clone`` gives an independent copy."""

    def players(self) -> Sequence[P]:
        """Every player in seat order (fixed for the whole game)."""
        ...

    def current_players(self) -> list[P]:
        """Players who must act now (several at once in simultaneous steps: orders, bids)."""
        ...

    def legal_actions(self, player: P) -> list[A]:
        """The single source of truth for what ``player`` may do now (docs/style.md 3)."""
        ...

    def apply(self, action: A) -> None:
        """Apply a legal action; raise the engine's ``IllegalActionError`` (a ValueError) otherwise."""
        ...

    def apply_unchecked(self, action: A) -> None:
        """Apply an action known to be legal (search, replay): no legality check."""
        ...

    def is_terminal(self) -> bool: ...

    def outcome(self) -> Outcome[P] | None:
        """The result of a terminal state; None while the game runs."""
        ...

    def clone(self) -> Self: ...

    def player_view(self, player: P | None) -> dict[str, Any]:
        """What ``player`` may see (None: a spectator), built from an allow-list (docs/style.md 7)."""
        ...

    def to_dict(self, *, log: bool = True) -> dict[str, Any]:
        """JSON-ready snapshot (``log=False`` leaves the event log out)."""
        ...

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self: ...

    def determinize(self, player: P, rng: Random) -> Self:
        """A full state consistent with everything ``player`` can know, every hidden part resampled
        with ``rng``: ``result.player_view(player) == self.player_view(player)``."""
        ...

    def secret_action(self, action: A) -> bool:
        """Whether the action's content is hidden from the other players (a face-down order, a bid)."""
        ...

    def decision_step(self) -> Hashable:
        """Names the decision step now open. A timeout takes ``timeout_action`` defaults for a player until
        this changes (Westeros Planning wants an order per area, W-5.1; a Commandeer default ends its step)."""
        ...

    def timeout_action(self, player: P) -> A:
        """The documented default taken for ``player`` when their clock runs out: always legal."""
        ...

    def explain_illegal(self, action: A) -> str:
        """Why ``action`` is not legal now, in words a player understands."""
        ...
