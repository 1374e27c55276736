"""Actions: every rules choice a person makes is one of these small frozen values (docs/style.md §5).

Each action has a stable JSON form (``to_json`` / ``action_from_json``) and a human-readable
``describe(state)``. Cards are named by their instance id in the match; squares by index 0..35
(a1 = 0, f6 = 35) in memory and by name ("c3") in JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar

from .config import BOARD_SIZE, FILES
from .messages import Msg, card, gettext_noop, msg, nested, term

if TYPE_CHECKING:
    from .state import GameState


class IllegalActionError(ValueError):
    """Raised by ``GameState.apply`` for an action that is not in ``legal_actions``; names action and why."""


def square_name(sq: int) -> str:
    """0 -> 'a1', 35 -> 'f6' (C-2.1)."""
    return f"{FILES[sq % BOARD_SIZE]}{sq // BOARD_SIZE + 1}"


def square_index(name: str) -> int:
    """'c3' -> 14; raises ValueError for a name outside a1–f6."""
    if not isinstance(name, str) or len(name) != 2 or name[0] not in FILES or name[1] not in "123456":
        raise ValueError(f"not a square: {name!r} (a1–f6)")
    return (int(name[1]) - 1) * BOARD_SIZE + FILES.index(name[0])


@dataclass(frozen=True, slots=True)
class Action:
    """Base: who acts. Subclasses add their fields and a ``kind`` used in JSON."""

    kind: ClassVar[str] = ""
    player: int

    def to_json(self) -> dict[str, Any]:
        """Stable JSON form: {"type": kind, "player": p, ...fields}; squares by name."""
        out: dict[str, Any] = {"type": self.kind}
        for name in own_fields(type(self)):
            value = getattr(self, name)
            out[name] = square_name(value) if name == "square" and value is not None else value
        out["player"] = self.player
        return out

    def describe(self, state: GameState) -> str:
        """What the action does, in English (``message`` for every language)."""
        return self.message(state).english()

    def message(self, state: GameState) -> Msg:
        """What the action does, as a message (docs/commandeer-engine.md, "Messages")."""
        return describe_action(self, state.card_name, state.decision, state.phase_name())


_OWN_FIELDS: dict[type[Action], tuple[str, ...]] = {}


def own_fields(cls: type[Action]) -> tuple[str, ...]:
    """The fields an action kind adds to ``player``, in declaration order (its JSON keys' order). Read from
    the dataclass, not ``__slots__``: a class compiled by mypyc has no ``__slots__``."""
    names = _OWN_FIELDS.get(cls)
    if names is None:
        names = _OWN_FIELDS[cls] = tuple(f.name for f in fields(cls) if f.name != "player")
    return names


@dataclass(frozen=True, slots=True)
class ChooseCommander(Action):
    """C-4.1: choose a Legendary unit of the deck as Commander (None = no Commander)."""

    kind: ClassVar[str] = "choose_commander"
    name: str | None


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """C-4.4: keep the current hand."""

    kind: ClassVar[str] = "keep"


@dataclass(frozen=True, slots=True)
class Mulligan(Action):
    """C-4.4: shuffle the hand back, draw again, then put k cards on the bottom."""

    kind: ClassVar[str] = "mulligan"


@dataclass(frozen=True, slots=True)
class ChooseCard(Action):
    """Pick one card for the pending decision (mulligan bottom, Energy payment, Reinforce, discard…)."""

    kind: ClassVar[str] = "choose_card"
    card: int


@dataclass(frozen=True, slots=True)
class Deploy(Action):
    """C-5.2: deploy a unit from hand or Commander zone to an empty square."""

    kind: ClassVar[str] = "deploy"
    card: int
    square: int


@dataclass(frozen=True, slots=True)
class PlayEvent(Action):
    """C-1.3 / C-5.2 / C-5.5: play an event; ``target`` is the unit an Ongoing event attaches to."""

    kind: ClassVar[str] = "play_event"
    card: int
    target: int | None = None


@dataclass(frozen=True, slots=True)
class Move(Action):
    """C-5.2: move one of your units (1 CP) to an empty square adjacent to another card."""

    kind: ClassVar[str] = "move"
    unit: int
    square: int


@dataclass(frozen=True, slots=True)
class Reinforce(Action):
    """C-5.2: pay 1 CP, draw 2, then put 1 card from hand into Energy."""

    kind: ClassVar[str] = "reinforce"


@dataclass(frozen=True, slots=True)
class Activate(Action):
    """C-5.2 / C-5.5: use an activated ability (``ability`` = index in the card's abilities)."""

    kind: ClassVar[str] = "activate"
    card: int
    ability: int


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """C-5.6 / C-7.1: attack with ``unit`` along arrow ``direction`` (absolute board direction)."""

    kind: ClassVar[str] = "attack"
    unit: int
    direction: str
    target: int


@dataclass(frozen=True, slots=True)
class ChooseTarget(Action):
    """Pick the unit a ``chosen_*`` effect target resolves to."""

    kind: ClassVar[str] = "choose_target"
    target: int


@dataclass(frozen=True, slots=True)
class ChooseSquare(Action):
    """Pick the destination square of a ``move`` effect."""

    kind: ClassVar[str] = "choose_square"
    square: int


@dataclass(frozen=True, slots=True)
class ChooseTrigger(Action):
    """C-5.1: pick which of your simultaneously triggered abilities resolves next (index in the queue)."""

    kind: ClassVar[str] = "choose_trigger"
    index: int


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """End your part of the current phase (Planning, Defending or Combat)."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Concede(Action):
    """C-6.4: concede the match (any time)."""

    kind: ClassVar[str] = "concede"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        ChooseCommander,
        Keep,
        Mulligan,
        ChooseCard,
        Deploy,
        PlayEvent,
        Move,
        Reinforce,
        Activate,
        Attack,
        ChooseTarget,
        ChooseSquare,
        ChooseTrigger,
        Pass,
        Concede,
    )
}

_INT_FIELDS = {"player", "card", "unit", "target", "ability", "index"}


def action_from_json(data: Any) -> Action:
    """Inverse of ``Action.to_json``; raises ValueError naming the problem for malformed input."""
    if not isinstance(data, dict):
        raise ValueError("an action must be a JSON object")
    cls = ACTION_TYPES.get(data.get("type"))  # type: ignore[arg-type]
    if cls is None:
        raise ValueError(f"unknown action type {data.get('type')!r} (known: {', '.join(ACTION_TYPES)})")
    kwargs: dict[str, Any] = {}
    for name in ("player", *own_fields(cls)):
        if name not in data:
            if name == "target" and cls is PlayEvent:
                kwargs[name] = None
                continue
            raise ValueError(f"action {cls.kind}: missing field {name!r}")
        value = data[name]
        if name == "square":
            value = square_index(value)
        elif name in _INT_FIELDS:
            if value is None and name == "target" and cls is PlayEvent:
                pass
            elif isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"action {cls.kind}: field {name!r} must be an integer")
        elif name == "direction":
            if value not in ("N", "NE", "E", "SE", "S", "SW", "W", "NW"):
                raise ValueError(f"action {cls.kind}: bad direction {value!r}")
        elif name == "name":
            if value is not None and not isinstance(value, str):
                raise ValueError(f"action {cls.kind}: name must be a string or null")
        kwargs[name] = value
    if kwargs["player"] not in (0, 1):
        raise ValueError("player must be 0 or 1")
    return cls(**kwargs)


_CHOICE_TEXT = {
    "bottom": gettext_noop("Put %(card)s on the bottom of the deck"),
    "pay_energy": gettext_noop("Pay 1 Energy: %(card)s"),
    "reinforce_energy": gettext_noop("Put %(card)s into the Energy zone"),
    "discard": gettext_noop("Discard %(card)s"),
    "retire_energy": gettext_noop("Retire %(card)s from the Energy zone"),
}
# The same choices as the clause of "… automatic choice: …" (a default chosen when a clock ran out).
_CHOICE_CLAUSE = {
    "bottom": gettext_noop("put %(card)s on the bottom of the deck."),
    "pay_energy": gettext_noop("pay 1 Energy: %(card)s."),
    "reinforce_energy": gettext_noop("put %(card)s into the Energy zone."),
    "discard": gettext_noop("discard %(card)s."),
    "retire_energy": gettext_noop("retire %(card)s from the Energy zone."),
}


def _player(action: Action) -> int:
    """A player as messages name them: 1 or 2."""
    return action.player + 1


def describe_action(
    action: Action, name_of: Any, decision: dict[str, Any] | None, phase: str | None = None
) -> Msg:
    """What an action does, as a message; ``decision`` is the pending decision it answers (if any)."""
    p = _player(action)
    if isinstance(action, ChooseCommander):
        if action.name:
            return msg(
                gettext_noop("Player %(player)s chooses %(card)s as Commander"),
                player=p,
                card=card(action.name),
            )
        return msg(gettext_noop("Player %(player)s plays without a Commander"), player=p)
    if isinstance(action, Keep):
        return msg(gettext_noop("Player %(player)s keeps the hand"), player=p)
    if isinstance(action, Mulligan):
        return msg(gettext_noop("Player %(player)s takes a mulligan"), player=p)
    if isinstance(action, ChooseCard):
        kind = decision.get("kind", "") if decision else ""
        chosen = card(name_of(action.card))
        if kind == "pay_energy" and decision is not None and decision.get("for") is not None:
            return msg(
                gettext_noop("Pay 1 Energy for %(for)s: %(card)s"),
                card=chosen,
                **{"for": card(name_of(decision["for"]))},
            )
        return msg(_CHOICE_TEXT.get(kind, gettext_noop("Choose %(card)s")), card=chosen)
    if isinstance(action, Deploy):
        return msg(
            gettext_noop("Deploy %(card)s to %(square)s"),
            card=card(name_of(action.card)),
            square=square_name(action.square),
        )
    if isinstance(action, PlayEvent):
        if action.target is not None:
            return msg(
                gettext_noop("Play %(card)s attached to %(target)s"),
                card=card(name_of(action.card)),
                target=card(name_of(action.target)),
            )
        return msg(gettext_noop("Play %(card)s"), card=card(name_of(action.card)))
    if isinstance(action, Move):
        return msg(
            gettext_noop("Move %(card)s to %(square)s (1 CP)"),
            card=card(name_of(action.unit)),
            square=square_name(action.square),
        )
    if isinstance(action, Reinforce):
        return msg(gettext_noop("Reinforce (1 CP): draw 2, put 1 card into Energy"))
    if isinstance(action, Activate):
        return msg(
            gettext_noop("Use ability %(number)s of %(card)s"),
            number=action.ability + 1,
            card=card(name_of(action.card)),
        )
    if isinstance(action, Attack):
        return msg(
            gettext_noop("%(unit)s attacks %(target)s (%(direction)s)"),
            unit=card(name_of(action.unit)),
            target=card(name_of(action.target)),
            direction=term(action.direction),
        )
    if isinstance(action, ChooseTarget):
        return msg(gettext_noop("Target %(card)s"), card=card(name_of(action.target)))
    if isinstance(action, ChooseSquare):
        return msg(gettext_noop("Move it to %(square)s"), square=square_name(action.square))
    if isinstance(action, ChooseTrigger):
        if decision and "labels" in decision and 0 <= action.index < len(decision["labels"]):
            return resolve_label(decision["labels"][action.index])
        return msg(gettext_noop("Resolve triggered ability %(number)s next"), number=action.index + 1)
    if isinstance(action, Pass):
        if phase:
            return msg(
                gettext_noop("Player %(player)s ends the %(phase)s phase"), player=p, phase=term(phase)
            )
        return msg(gettext_noop("Player %(player)s ends the phase"), player=p)
    if isinstance(action, Concede):
        return msg(gettext_noop("Player %(player)s concedes"), player=p)
    return msg(gettext_noop("%(action)s"), action=repr(action))


def resolve_label(label: str) -> Msg:
    """Choosing a triggered ability by its label ("<card>: <ability text>", card text as printed)."""
    return msg(gettext_noop("Resolve %(label)s next"), label=label)


def secret_message(action: Action, sentence: bool) -> Msg:
    """What another player learns of a secret action (C-8): that a choice was made, not which;
    ``sentence``: with the full stop of a sentence (the play layer's descriptions) or without (the log)."""
    p = _player(action)
    if isinstance(action, ChooseCommander):
        if sentence:
            return msg(gettext_noop("Player %(player)s decides about a Commander."), player=p)
        return msg(gettext_noop("Player %(player)s decides about a Commander"), player=p)
    if sentence:
        return msg(gettext_noop("Player %(player)s puts a card on the bottom of the deck."), player=p)
    return msg(gettext_noop("Player %(player)s puts a card on the bottom of the deck"), player=p)


def action_sentence(action: Action, what: Msg) -> Msg:
    """``what`` (``describe_action``) as a sentence naming the player: "Player 1: Deploy X to c3." (a
    description that names the player already only gets its full stop)."""
    text = what.english()
    if what.key.startswith("Player %(player)s"):
        return what if text.endswith((".", ")")) else msg(gettext_noop("%(action)s."), action=nested(what))
    if text.endswith((".", ")")):
        return msg(gettext_noop("Player %(player)s: %(action)s"), player=_player(action), action=nested(what))
    return msg(gettext_noop("Player %(player)s: %(action)s."), player=_player(action), action=nested(what))


def timeout_message(
    action: Action, what: Msg, phase: str, decision: dict[str, Any] | None, name_of: Any
) -> Msg:
    """The default a clock chose for ``action``'s player (``what``: its description for the viewer, or
    None when the choice is secret to them): "Player 2's time ran out — automatic pass: …"."""
    p = _player(action)
    if isinstance(action, Pass):
        return msg(
            gettext_noop("Player %(player)s's time ran out — automatic pass: the %(phase)s phase ends."),
            player=p,
            phase=term(phase),
        )
    if isinstance(action, Keep):
        return msg(
            gettext_noop("Player %(player)s's time ran out — the hand is kept automatically."), player=p
        )
    return msg(
        gettext_noop("Player %(player)s's time ran out — automatic choice: %(choice)s"),
        player=p,
        choice=nested(_clause(action, what, decision, name_of)),
    )


def timeout_secret(action: Action) -> Msg:
    """The default a clock chose, to a player who may not see it (C-8)."""
    return msg(gettext_noop("Player %(player)s's time ran out — automatic choice."), player=_player(action))


def _clause(action: Action, what: Msg, decision: dict[str, Any] | None, name_of: Any) -> Msg:
    """The defaults a clock chooses, worded to follow "automatic choice:"."""
    if isinstance(action, ChooseCommander):
        if action.name:
            return msg(gettext_noop("chooses %(card)s as Commander."), card=card(action.name))
        return msg(gettext_noop("plays without a Commander."))
    if isinstance(action, ChooseCard):
        kind = decision.get("kind", "") if decision else ""
        chosen = card(name_of(action.card))
        if kind == "pay_energy" and decision is not None and decision.get("for") is not None:
            return msg(
                gettext_noop("pay 1 Energy for %(for)s: %(card)s."),
                card=chosen,
                **{"for": card(name_of(decision["for"]))},
            )
        return msg(_CHOICE_CLAUSE.get(kind, gettext_noop("choose %(card)s.")), card=chosen)
    if isinstance(action, ChooseTarget):
        return msg(gettext_noop("target %(card)s."), card=card(name_of(action.target)))
    if isinstance(action, ChooseSquare):
        return msg(gettext_noop("move it to %(square)s."), square=square_name(action.square))
    if isinstance(action, ChooseTrigger):
        if what.key == resolve_label("").key:
            return msg(gettext_noop("resolve %(label)s next."), label=what.params["label"])
        return msg(gettext_noop("resolve triggered ability %(number)s next."), number=action.index + 1)
    return action_sentence(action, what)
