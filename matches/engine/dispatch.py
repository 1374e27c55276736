"""Applying an action (C-4, C-5.2, C-5.5, C-5.6, C-6.4): what each action and each answer does."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import (
    Action,
    Activate,
    Attack,
    ChooseCard,
    ChooseCommander,
    ChooseSquare,
    ChooseTarget,
    ChooseTrigger,
    Concede,
    Deploy,
    IllegalActionError,
    Keep,
    Move,
    Mulligan,
    Pass,
    PlayEvent,
    Reinforce,
)
from .choices import CARD_CHOICES
from .phases import Step
from .results import Reason

if TYPE_CHECKING:
    from .state import GameState


def _dispatch(self: GameState, a: Action) -> None:
    t = type(a)
    if t is Concede:
        self._finish(1 - a.player, Reason.CONCESSION)
        return
    dec = self.decision
    if dec is not None:
        self._answer(a, dec)
        return
    p = a.player
    side = self.sides[p]
    if t is Deploy:
        assert isinstance(a, Deploy)
        d = self.defs[a.card]
        self._take_from_hand(side, a.card)
        side.cp -= d.command_cost
        self.limbo.append(a.card)
        self.ops.append({"op": "deploy", "card": a.card, "square": a.square})
        if d.energy_cost:
            self._card_choice("pay_energy", p, "energy", d.energy_cost, **{"for": a.card})
    elif t is PlayEvent:
        assert isinstance(a, PlayEvent)
        d = self.defs[a.card]
        self._take_from_hand(side, a.card)
        side.cp -= d.command_cost
        self.limbo.append(a.card)
        self.ops.append({"op": "event", "card": a.card, "target": a.target})
        if d.energy_cost:
            self._card_choice("pay_energy", p, "energy", d.energy_cost, **{"for": a.card})
    elif t is Move:
        assert isinstance(a, Move)
        side.cp -= 1
        self._move_unit(a.unit, a.square)
        self._settle(None)
    elif t is Reinforce:
        side.cp -= 1
        self._draw(p, self.config.reinforce_draw)
        if side.hand:
            self._card_choice("reinforce_energy", p, "hand", 1)
    elif t is Activate:
        assert isinstance(a, Activate)
        ab = self.defs[a.card].abilities[a.ability]
        cost = ab.get("cost") or {}
        side.cp -= cost.get("cp", 0)
        key = (a.card, a.ability)
        self.used[key] = self.used.get(key, 0) + 1
        self.ops.append({"op": "activate", "card": a.card, "ability": a.ability, "player": p})
        if cost.get("energy", 0):
            self._card_choice("pay_energy", p, "energy", cost["energy"], **{"for": a.card})
    elif t is Attack:
        assert isinstance(a, Attack)
        self._attack(a.unit, a.target)
    elif t is Pass:
        step = self.step
        if step is Step.PLANNING:
            self.step = Step.PLANNING_END
        elif step is Step.DEFENDING:
            self.step = Step.COMBAT
        elif step is Step.COMBAT:
            self.step = Step.COMBAT_END
    elif t is Keep:
        self._ev("keep", player=p)
        if self.setup_player == self.first:
            self.setup_player = 1 - self.first
        else:
            self._begin_play()
    elif t is Mulligan:
        # C-4.4: shuffle the hand in, draw anew, then put k cards on the bottom (the k-th mulligan).
        side.deck.extend(side.hand)
        side.hand.clear()
        self.rng.shuffle(side.deck)
        side.mulligans += 1
        self._draw(p, self.config.opening_hand)
        self._card_choice("bottom", p, "hand", side.mulligans)
    elif t is ChooseCommander:
        assert isinstance(a, ChooseCommander)
        if a.name is not None:
            for c in side.deck:
                if self.defs[c].name == a.name:
                    side.deck.remove(c)
                    side.commander = c
                    break
        self._next_commander_chooser(p + 1)
    else:
        raise IllegalActionError(f"{a.to_json()} does not answer anything now")


def _answer(self: GameState, a: Action, dec: dict[str, Any]) -> None:
    kind = dec["kind"]
    if kind in CARD_CHOICES:
        assert isinstance(a, ChooseCard)
        self._pick_card(a.card)
    elif kind == "target":
        assert isinstance(a, ChooseTarget)
        self.decision = None
        assert self.resolution is not None
        self.resolution["chosen"] = a.target
    elif kind == "move_square":
        assert isinstance(a, ChooseSquare)
        self.decision = None
        r = self.resolution
        assert r is not None
        uid = r["moving"].pop(0)
        if uid in self.units:
            self._move_unit(uid, a.square)
            self._settle(self._cause(r))
        if self._continue_moves(r):
            self._effect_done(r)
    elif kind == "order":
        assert isinstance(a, ChooseTrigger)
        self.decision = None
        self._start_trigger(self.triggers.pop(a.index))
    else:  # pragma: no cover
        raise AssertionError(kind)
