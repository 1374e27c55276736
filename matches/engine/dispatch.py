"""Applying an action (C-4, C-5.2, C-5.5, C-5.6, C-6.4): what each action and each answer does.

Dispatch is by table: ``ACTION_HANDLERS`` keyed by the action's class, ``ANSWER_HANDLERS`` keyed by the
kind of the pending decision the action answers.
"""

from __future__ import annotations

from collections.abc import Callable
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
from .pending import Decision, DecisionKind, Op, OpKind
from .phases import Step
from .results import Reason

if TYPE_CHECKING:
    from .state import GameState


def _dispatch(self: GameState, a: Action) -> None:
    """Apply ``a``: a Concede at any time (C-6.4), else the answer to the pending decision, else the
    action of the current step."""
    if type(a) is Concede:
        self._finish(1 - a.player, Reason.CONCESSION)
        return
    dec = self.choice
    if dec is not None:
        ANSWER_HANDLERS[dec.kind](self, a, dec)
        return
    try:
        handler = ACTION_HANDLERS[type(a)]
    except KeyError:
        raise IllegalActionError(f"{a.to_json()} does not answer anything now") from None
    handler(self, a)


def _play_card(self: GameState, p: int, card: int, op: Op) -> None:
    """C-5.2 / C-5.3: pay the Command cost, hold the card in limbo, queue ``op``, then ask for Energy."""
    d = self.defs[card]
    side = self.sides[p]
    self._take_from_hand(side, card)
    side.cp -= d.command_cost
    self.limbo.append(card)
    self.ops.append(op)
    if d.energy_cost:
        self._card_choice(DecisionKind.PAY_ENERGY, p, "energy", d.energy_cost, for_card=card)


def _do_deploy(self: GameState, a: Deploy) -> None:
    self._play_card(a.player, a.card, Op(OpKind.DEPLOY, card=a.card, square=a.square))


def _do_play_event(self: GameState, a: PlayEvent) -> None:
    self._play_card(a.player, a.card, Op(OpKind.EVENT, card=a.card, target=a.target))


def _do_move(self: GameState, a: Move) -> None:
    self.sides[a.player].cp -= 1
    self._move_unit(a.unit, a.square)
    self._settle(None)


def _do_reinforce(self: GameState, a: Reinforce) -> None:
    side = self.sides[a.player]
    side.cp -= 1
    self._draw(a.player, self.config.reinforce_draw)
    if side.hand:
        self._card_choice(DecisionKind.REINFORCE_ENERGY, a.player, "hand", 1)


def _do_activate(self: GameState, a: Activate) -> None:
    ab = self.defs[a.card].abilities[a.ability]
    cost = ab.get("cost") or {}
    self.sides[a.player].cp -= cost.get("cp", 0)
    key = (a.card, a.ability)
    self.used[key] = self.used.get(key, 0) + 1
    self.ops.append(Op(OpKind.ACTIVATE, card=a.card, ability=a.ability, player=a.player))
    if cost.get("energy", 0):
        self._card_choice(DecisionKind.PAY_ENERGY, a.player, "energy", cost["energy"], for_card=a.card)


def _do_attack(self: GameState, a: Attack) -> None:
    self._attack(a.unit, a.target)


# Where a Pass leads from each input step of the turn.
PASS_TO = {Step.PLANNING: Step.PLANNING_END, Step.DEFENDING: Step.COMBAT, Step.COMBAT: Step.COMBAT_END}


def _do_pass(self: GameState, a: Pass) -> None:
    self.step = PASS_TO.get(self.step, self.step)


def _do_keep(self: GameState, a: Keep) -> None:
    self._ev("keep", player=a.player)
    if self.setup_player == self.first:
        self.setup_player = 1 - self.first
    else:
        self._begin_play()


def _do_mulligan(self: GameState, a: Mulligan) -> None:
    """C-4.4: shuffle the hand in, draw anew, then put k cards on the bottom (the k-th mulligan)."""
    side = self.sides[a.player]
    side.deck.extend(side.hand)
    side.hand.clear()
    self.rng.shuffle(side.deck)
    side.mulligans += 1
    self._draw(a.player, self.config.opening_hand)
    self._card_choice(DecisionKind.BOTTOM, a.player, "hand", side.mulligans)


def _do_choose_commander(self: GameState, a: ChooseCommander) -> None:
    side = self.sides[a.player]
    if a.name is not None:
        for c in side.deck:
            if self.defs[c].name == a.name:
                side.deck.remove(c)
                side.commander = c
                break
    self._next_commander_chooser(a.player + 1)


# What each action does when no decision is pending (its legality was checked before).
ACTION_HANDLERS: dict[type[Action], Callable[[GameState, Any], None]] = {
    Deploy: _do_deploy,
    PlayEvent: _do_play_event,
    Move: _do_move,
    Reinforce: _do_reinforce,
    Activate: _do_activate,
    Attack: _do_attack,
    Pass: _do_pass,
    Keep: _do_keep,
    Mulligan: _do_mulligan,
    ChooseCommander: _do_choose_commander,
}


def _answer_card(self: GameState, a: Action, dec: Decision) -> None:
    assert isinstance(a, ChooseCard)
    self._pick_card(a.card)


def _answer_target(self: GameState, a: Action, dec: Decision) -> None:
    assert isinstance(a, ChooseTarget) and self.resolution is not None
    self.choice = None
    self.resolution.chosen = a.target


def _answer_move_square(self: GameState, a: Action, dec: Decision) -> None:
    assert isinstance(a, ChooseSquare)
    self.choice = None
    r = self.resolution
    assert r is not None and r.moving is not None
    uid = r.moving.pop(0)
    if uid in self.units:
        self._move_unit(uid, a.square)
        self._settle(self._cause(r))
    if self._continue_moves(r):
        self._effect_done(r)


def _answer_order(self: GameState, a: Action, dec: Decision) -> None:
    assert isinstance(a, ChooseTrigger)
    self.choice = None
    self._start_trigger(self.triggers.pop(a.index))


# What the answer to each kind of pending decision does.
ANSWER_HANDLERS: dict[DecisionKind, Callable[[GameState, Action, Decision], None]] = {
    DecisionKind.BOTTOM: _answer_card,
    DecisionKind.PAY_ENERGY: _answer_card,
    DecisionKind.REINFORCE_ENERGY: _answer_card,
    DecisionKind.DISCARD: _answer_card,
    DecisionKind.RETIRE_ENERGY: _answer_card,
    DecisionKind.TARGET: _answer_target,
    DecisionKind.MOVE_SQUARE: _answer_move_square,
    DecisionKind.ORDER: _answer_order,
}
