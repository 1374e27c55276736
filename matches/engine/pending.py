"""What the engine holds between actions, as typed values: the pending decision a player must answer,
queued triggered abilities (C-5.1), the ability being resolved (C-1.5) and queued steps (``ops``).

Each has ``to_json`` / ``from_json`` giving exactly the objects of the position format
(docs/commandeer-position.md: ``decision``, ``triggers``, ``resolution``, ``ops``), key order included,
so stored matches load and save byte for byte as before. ``queue`` adds a triggered ability to the
state's queue; it lives here, below every rule module that triggers abilities (combat, abilities, phases).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import GameState


class DecisionKind(StrEnum):
    """The choices a player may be asked to make one at a time."""

    BOTTOM = "bottom"  # C-4.4: put a card of the hand on the bottom of the deck after a mulligan
    PAY_ENERGY = "pay_energy"  # C-5.3: pay Energy for a card or an ability
    REINFORCE_ENERGY = "reinforce_energy"  # C-5.2: Reinforce puts a hand card into Energy
    DISCARD = "discard"  # C-5.9 hand limit, or a discard effect
    RETIRE_ENERGY = "retire_energy"  # a retire_energy effect
    TARGET = "target"  # a chosen_* effect target (C-1.5)
    MOVE_SQUARE = "move_square"  # where a move effect puts a unit
    ORDER = "order"  # C-5.1 / C-5.5: which of several triggered abilities resolves next


CARD_CHOICES = frozenset(
    {
        DecisionKind.BOTTOM,
        DecisionKind.PAY_ENERGY,
        DecisionKind.REINFORCE_ENERGY,
        DecisionKind.DISCARD,
        DecisionKind.RETIRE_ENERGY,
    }
)


def _int_list(value: Any, what: str) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise ValueError(f"{what} must be a list of integers")
    return list(value)


@dataclass(slots=True)
class Decision:
    """A choice ``player`` must make now. Card choices name a ``zone`` and how many cards remain
    (``count``), with what they pay ``for`` or the ``reason`` (``effect`` / ``hand_limit``); the other
    kinds list their ``options`` (unit ids, squares, or indexes into the trigger queue)."""

    kind: DecisionKind
    player: int
    zone: str | None = None
    count: int = 0
    for_card: int | None = None
    reason: str | None = None
    options: list[int] | None = None
    effect: str | None = None
    source: int | None = None
    unit: int | None = None
    labels: list[str] | None = None

    def copy(self) -> Decision:
        return Decision(
            self.kind,
            self.player,
            self.zone,
            self.count,
            self.for_card,
            self.reason,
            None if self.options is None else list(self.options),
            self.effect,
            self.source,
            self.unit,
            None if self.labels is None else list(self.labels),
        )

    def to_json(self) -> dict[str, Any]:
        """The position format's ``decision`` object."""
        out: dict[str, Any] = {"kind": self.kind.value, "player": self.player}
        if self.kind in CARD_CHOICES:
            out["zone"] = self.zone
            out["count"] = self.count
            if self.for_card is not None:
                out["for"] = self.for_card
            if self.reason is not None:
                out["reason"] = self.reason
            return out
        out["options"] = list(self.options or [])
        if self.kind is DecisionKind.TARGET:
            out["effect"] = self.effect
            out["source"] = self.source
        elif self.kind is DecisionKind.MOVE_SQUARE:
            out["unit"] = self.unit
        elif self.kind is DecisionKind.ORDER:
            out["labels"] = list(self.labels or [])
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Decision:
        """Inverse of ``to_json``; raises ValueError naming the problem."""
        try:
            kind = DecisionKind(data["kind"])
        except ValueError:
            raise ValueError(f"unknown decision kind {data.get('kind')!r}") from None
        player = int(data["player"])
        if kind in CARD_CHOICES:
            zone = data["zone"]
            if zone not in ("hand", "energy"):
                raise ValueError(f"decision {kind.value}: zone must be hand or energy, not {zone!r}")
            return cls(kind, player, zone, int(data["count"]), data.get("for"), data.get("reason"))
        options = _int_list(data["options"], f"decision {kind.value}: options")
        if kind is DecisionKind.TARGET:
            return cls(kind, player, options=options, effect=str(data["effect"]), source=int(data["source"]))
        if kind is DecisionKind.MOVE_SQUARE:
            return cls(kind, player, options=options, unit=int(data["unit"]))
        return cls(kind, player, options=options, labels=[str(x) for x in data["labels"]])


@dataclass(frozen=True, slots=True)
class TriggerContext:
    """What a triggered ability refers to: the square a defeated unit left, the unit it defeated (Spoil),
    the unit it attacked, or the unit an Ongoing event is attached to."""

    square: int | None = None
    defeated: int | None = None
    attack_target: int | None = None
    attached: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.square is not None:
            out["square"] = self.square
        if self.defeated is not None:
            out["defeated"] = self.defeated
        if self.attack_target is not None:
            out["attack_target"] = self.attack_target
        if self.attached is not None:
            out["attached"] = self.attached
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TriggerContext:
        unknown = set(data) - {"square", "defeated", "attack_target", "attached"}
        if unknown:
            raise ValueError(f"unknown trigger context fields: {', '.join(sorted(unknown))}")
        return cls(data.get("square"), data.get("defeated"), data.get("attack_target"), data.get("attached"))


NO_CONTEXT = TriggerContext()


@dataclass(frozen=True, slots=True)
class Trigger:
    """A triggered (or activated) ability waiting to resolve: ability ``ability`` of card ``source``."""

    source: int
    ability: int
    controller: int
    ctx: TriggerContext = NO_CONTEXT

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "ability": self.ability,
            "controller": self.controller,
            "ctx": self.ctx.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Trigger:
        return cls(
            int(data["source"]),
            int(data["ability"]),
            int(data["controller"]),
            TriggerContext.from_json(data.get("ctx") or {}),
        )


@dataclass(slots=True)
class Resolution:
    """The ability resolving now: its next ``effect`` index, a ``chosen`` target waiting to be used and
    the units a move effect still has to place (``moving``)."""

    trigger: Trigger
    effect: int = 0
    chosen: int | None = None
    moving: list[int] | None = None

    @property
    def source(self) -> int:
        return self.trigger.source

    @property
    def controller(self) -> int:
        return self.trigger.controller

    @property
    def ctx(self) -> TriggerContext:
        return self.trigger.ctx

    def copy(self) -> Resolution:
        return Resolution(
            self.trigger, self.effect, self.chosen, None if self.moving is None else list(self.moving)
        )

    def to_json(self) -> dict[str, Any]:
        out = self.trigger.to_json()
        out["effect"] = self.effect
        if self.chosen is not None:
            out["chosen"] = self.chosen
        if self.moving is not None:
            out["moving"] = list(self.moving)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Resolution:
        moving = data.get("moving")
        return cls(
            Trigger.from_json(data),
            int(data.get("effect", 0)),
            data.get("chosen"),
            None if moving is None else _int_list(moving, "resolution moving"),
        )


class OpKind(StrEnum):
    """Queued automatic steps, run last in, first out once no decision or trigger is pending."""

    DEPLOY = "deploy"  # C-5.2: the unit enters the battlefield (after its Energy is paid)
    EVENT = "event"  # C-1.3: the event resolves (after its Energy is paid)
    RETIRE = "retire"  # C-1.3: a resolved Planning/Defensive event goes to the Retired zone
    ACTIVATE = "activate"  # C-5.2 / C-5.5: an activated ability starts (after its Energy is paid)
    HAND_LIMIT = "hand_limit"  # C-5.9: discard down to the hand limit


@dataclass(frozen=True, slots=True)
class Op:
    """One queued step; which fields it uses depends on its kind (``to_json`` lists them)."""

    kind: OpKind
    card: int | None = None
    square: int | None = None
    target: int | None = None
    ability: int | None = None
    player: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"op": self.kind.value}
        k = self.kind
        if k is OpKind.HAND_LIMIT:
            out["player"] = self.player
            return out
        out["card"] = self.card
        if k is OpKind.DEPLOY:
            out["square"] = self.square
        elif k is OpKind.EVENT:
            out["target"] = self.target
        elif k is OpKind.ACTIVATE:
            out["ability"] = self.ability
            out["player"] = self.player
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Op:
        try:
            kind = OpKind(data["op"])
        except ValueError:
            raise ValueError(f"unknown op {data.get('op')!r}") from None
        return cls(
            kind,
            data.get("card"),
            data.get("square"),
            data.get("target"),
            data.get("ability"),
            data.get("player"),
        )


def queue(st: GameState, source: int, idx: int, controller: int, ctx: TriggerContext = NO_CONTEXT) -> None:
    """A triggered ability waits to resolve (C-5.1: in an order its controller chooses)."""
    st.triggers.append(Trigger(source, idx, controller, ctx))
