"""Applying an action (C-4, C-5.2, C-5.5, C-5.6, C-6.4): what each action and each answer does.

Dispatch is by table: ``ACTION_HANDLERS`` keyed by the action's class, ``ANSWER_HANDLERS`` keyed by the
kind of the pending decision the action answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import abilities, board, choices, combat, effects, phases, results
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
from .results import Reason
from .steps import Step

if TYPE_CHECKING:
    from .state import GameState


def apply_action(st: GameState, a: Action) -> None:
    """Apply ``a``: a Concede at any time (C-6.4), else the answer to the pending decision, else the
    action of the current step."""
    if type(a) is Concede:
        results.finish(st, 1 - a.player, Reason.CONCESSION)
        return
    dec = st.choice
    if dec is not None:
        ANSWER_HANDLERS[dec.kind](st, a, dec)
        return
    try:
        handler = ACTION_HANDLERS[type(a)]
    except KeyError:
        raise IllegalActionError(f"{a.to_json()} does not answer anything now") from None
    handler(st, a)


def _play_card(st: GameState, p: int, card: int, op: Op) -> None:
    """C-5.2 / C-5.3: pay the Command cost, hold the card in limbo, queue ``op``, then ask for Energy."""
    d = st.defs[card]
    side = st.sides[p]
    board.take_from_hand(st, side, card)
    side.cp -= d.command_cost
    st.limbo.append(card)
    st.ops.append(op)
    if d.energy_cost:
        choices.card_choice(st, DecisionKind.PAY_ENERGY, p, "energy", d.energy_cost, for_card=card)


def _do_deploy(st: GameState, a: Deploy) -> None:
    _play_card(st, a.player, a.card, Op(OpKind.DEPLOY, card=a.card, square=a.square))


def _do_play_event(st: GameState, a: PlayEvent) -> None:
    _play_card(st, a.player, a.card, Op(OpKind.EVENT, card=a.card, target=a.target))


def _do_move(st: GameState, a: Move) -> None:
    st.sides[a.player].cp -= 1
    board.move_unit(st, a.unit, a.square)
    combat.settle(st, None)


def _do_reinforce(st: GameState, a: Reinforce) -> None:
    side = st.sides[a.player]
    side.cp -= 1
    board.draw(st, a.player, st.config.reinforce_draw)
    if side.hand:
        choices.card_choice(st, DecisionKind.REINFORCE_ENERGY, a.player, "hand", 1)


def _do_activate(st: GameState, a: Activate) -> None:
    ab = st.defs[a.card].abilities[a.ability]
    cost = ab.get("cost") or {}
    st.sides[a.player].cp -= cost.get("cp", 0)
    key = (a.card, a.ability)
    st.used[key] = st.used.get(key, 0) + 1
    st.ops.append(Op(OpKind.ACTIVATE, card=a.card, ability=a.ability, player=a.player))
    if cost.get("energy", 0):
        choices.card_choice(st, DecisionKind.PAY_ENERGY, a.player, "energy", cost["energy"], for_card=a.card)


def _do_attack(st: GameState, a: Attack) -> None:
    combat.attack(st, a.unit, a.target)


# Where a Pass leads from each input step of the turn.
PASS_TO = {Step.PLANNING: Step.PLANNING_END, Step.DEFENDING: Step.COMBAT, Step.COMBAT: Step.COMBAT_END}


def _do_pass(st: GameState, a: Pass) -> None:
    st.step = PASS_TO.get(st.step, st.step)


def _do_keep(st: GameState, a: Keep) -> None:
    st.event("keep", player=a.player)
    if st.setup_player == st.first:
        st.setup_player = 1 - st.first
    else:
        phases.begin_play(st)


def _do_mulligan(st: GameState, a: Mulligan) -> None:
    """C-4.4: shuffle the hand in, draw anew, then put k cards on the bottom (the k-th mulligan)."""
    side = st.sides[a.player]
    side.deck.extend(side.hand)
    side.hand.clear()
    st.rng.shuffle(side.deck)
    side.mulligans += 1
    board.draw(st, a.player, st.config.opening_hand)
    choices.card_choice(st, DecisionKind.BOTTOM, a.player, "hand", side.mulligans)


def _do_choose_commander(st: GameState, a: ChooseCommander) -> None:
    side = st.sides[a.player]
    if a.name is not None:
        for c in side.deck:
            if st.defs[c].name == a.name:
                side.deck.remove(c)
                side.commander = c
                break
    phases.next_commander_chooser(st, a.player + 1)


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


def _answer_card(st: GameState, a: Action, dec: Decision) -> None:
    assert isinstance(a, ChooseCard)
    choices.pick_card(st, a.card)


def _answer_target(st: GameState, a: Action, dec: Decision) -> None:
    assert isinstance(a, ChooseTarget) and st.resolution is not None
    st.choice = None
    st.resolution.chosen = a.target


def _answer_move_square(st: GameState, a: Action, dec: Decision) -> None:
    assert isinstance(a, ChooseSquare)
    st.choice = None
    r = st.resolution
    assert r is not None and r.moving is not None
    uid = r.moving.pop(0)
    if uid in st.units:
        board.move_unit(st, uid, a.square)
        combat.settle(st, combat.cause_of(st, r))
    if effects.continue_moves(st, r):
        combat.effect_done(st, r)


def _answer_order(st: GameState, a: Action, dec: Decision) -> None:
    assert isinstance(a, ChooseTrigger)
    st.choice = None
    abilities.start_trigger(st, st.triggers.pop(a.index))


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
