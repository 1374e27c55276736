"""Walking the declared turn structure (C-4 set-up steps, C-5 phases; the steps are ``steps.Step``):
``advance`` runs the automatic rules until a player must act (docs/style.md 6).

Automatic steps run by ``STEP_HANDLERS`` (a table keyed by ``Step``); input steps wait for an action;
a pending decision, the resolving ability, queued triggers and queued steps (``ops``, by ``OP_HANDLERS``,
keyed by ``OpKind``) come first. The C-4 set-up steps that follow the Commander and mulligan answers
(``next_commander_chooser``, ``after_commanders``, ``begin_play``) are here too; ``setup.new_match``
creates the match.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import abilities, board, choices, combat, pending, results
from .actions import square_name
from .board import Unit
from .pending import NO_CONTEXT, DecisionKind, Op, OpKind, Trigger
from .results import Reason
from .steps import INPUT_STEPS, Step

if TYPE_CHECKING:
    from .state import GameState


def advance(st: GameState) -> None:
    """Run automatic rules until a player must act or the match ends (C-5 declared steps)."""
    while st.outcome_ is None:
        if st.choice is not None:
            return
        if st.resolution is not None:
            abilities.resume(st)
            continue
        if st.triggers:
            abilities.next_trigger(st)
            continue
        if st.ops:
            op = st.ops.pop()
            OP_HANDLERS[op.kind](st, op)
            continue
        if st.step in INPUT_STEPS:
            return
        STEP_HANDLERS[st.step](st)


def _step_turn_start(st: GameState) -> None:
    """C-5.1 / C-7.3: start-of-turn, Casting and start-of-Planning abilities of the active player."""
    ap = st.active
    for uid in board.units_of(st, ap):
        d = st.defs[uid]
        u = st.units[uid]
        for idx in d.by_trigger.get("start_of_turn", ()):
            pending.queue(st, uid, idx, ap)
        if u.hit_turn != st.turn - 1:
            for idx in d.by_trigger.get("casting", ()):
                pending.queue(st, uid, idx, ap)
        for idx in d.by_trigger.get("start_of_planning", ()):
            pending.queue(st, uid, idx, ap)
    st.step = Step.START_CP


def _step_start_cp(st: GameState) -> None:
    """C-4.6 / C-5.1: the active player gains CP."""
    ap = st.active
    gain = st.config.first_turn_cp if st.turn == 1 else st.config.cp_per_turn
    st.sides[ap].cp += gain
    st.event("cp", player=ap, amount=gain)
    st.step = Step.PLANNING


def _step_planning_end(st: GameState) -> None:
    """C-5.4: no unit on the battlefield loses; unspent CP is lost."""
    if results.no_unit_loss(st):
        return
    st.sides[st.active].cp = 0
    st.step = Step.DEFENDING_START


def _step_defending_start(st: GameState) -> None:
    """C-5.5: start-of-Defending abilities of the defending player."""
    dp = 1 - st.active
    for uid in board.units_of(st, dp):
        for idx in st.defs[uid].by_trigger.get("start_of_defending", ()):
            pending.queue(st, uid, idx, dp)
    st.step = Step.DEFENDING


def _step_combat_end(st: GameState) -> None:
    """C-5.8: damage is removed from every unit."""
    for u in st.units.values():
        u.damage = 0
    st.step = Step.END
    combat.settle(st, None)


def _step_end(st: GameState) -> None:
    """C-5.9: queue the hand-limit checks (``RulesConfig.hand_limit_active_only``)."""
    ap = st.active
    players = [ap] if st.config.hand_limit_active_only else [ap, 1 - ap]
    for p in reversed(players):
        st.ops.append(Op(OpKind.HAND_LIMIT, player=p))
    st.step = Step.END_CHECK


def _end_turn(st: GameState) -> None:
    """C-5.10 / C-5.11 / C-6.5: end the turn: checks, turn-long effects end, CP reset, next player."""
    ap = st.active
    if results.no_unit_loss(st):  # C-5.10
        return
    for u in st.units.values():
        u.tpmod = u.thmod = 0
        u.range_turn = False
        u.attacked = False
    st.marks.clear()
    st.used.clear()
    st.sides[ap].cp = 0  # C-5.11: remaining CP of both players (RulesConfig.cp_reset_active_only)
    if not st.config.cp_reset_active_only:
        st.sides[1 - ap].cp = 0
    combat.settle(st, None)
    if st.outcome_ is not None:
        return
    if st.turn >= 2 * st.config.turn_limit:  # C-6.5 Decision
        d0, d1 = len(st.sides[0].defeated), len(st.sides[1].defeated)
        results.finish(st, None if d0 == d1 else (0 if d0 < d1 else 1), Reason.TURN_LIMIT)
        return
    st.turn += 1
    st.active = 1 - ap
    st.step = Step.TURN_START
    st.event("turn", turn=st.turn, player=st.active)


# The automatic steps of the turn, in the order they are walked (input steps wait for an action).
STEP_HANDLERS: dict[Step, Callable[[GameState], None]] = {
    Step.TURN_START: _step_turn_start,
    Step.START_CP: _step_start_cp,
    Step.PLANNING_END: _step_planning_end,
    Step.DEFENDING_START: _step_defending_start,
    Step.COMBAT_END: _step_combat_end,
    Step.END: _step_end,
    Step.END_CHECK: _end_turn,
}


def _place(st: GameState, c: int, sq: int) -> None:
    """Finish a deploy: the unit enters the battlefield (C-5.2) and Deploying triggers (C-7.2)."""
    if c in st.limbo:
        st.limbo.remove(c)
    p = st.owners[c]
    if st.board[sq] is not None:  # cannot happen through legal actions; keep the card safe
        st.sides[p].hand.append(c)
        return
    st.board[sq] = c
    st.units[c] = Unit(c, p, sq, st.turn)
    st.units_deployed += 1
    st.cont_cache = None
    st.event("deploy", player=p, card=c, square=square_name(sq))
    for idx in st.defs[c].by_trigger.get("deploying", ()):
        pending.queue(st, c, idx, p)
    combat.settle(st, None)


def _op_deploy(st: GameState, op: Op) -> None:
    assert op.card is not None and op.square is not None
    _place(st, op.card, op.square)


def _op_event(st: GameState, op: Op) -> None:
    assert op.card is not None
    abilities.resolve_event(st, op.card, op.target)


def _op_retire(st: GameState, op: Op) -> None:
    c = op.card
    if c is not None and c in st.limbo:
        st.limbo.remove(c)
        st.sides[st.owners[c]].retired.append(c)


def _op_activate(st: GameState, op: Op) -> None:
    assert op.card is not None and op.ability is not None and op.player is not None
    abilities.start_trigger(st, Trigger(op.card, op.ability, op.player, NO_CONTEXT))


def _op_hand_limit(st: GameState, op: Op) -> None:
    p = op.player
    assert p is not None
    extra = len(st.sides[p].hand) - st.config.hand_limit
    if extra > 0:  # C-5.9
        choices.card_choice(st, DecisionKind.DISCARD, p, "hand", extra, reason="hand_limit")


# What each queued step does.
OP_HANDLERS: dict[OpKind, Callable[[GameState, Op], None]] = {
    OpKind.DEPLOY: _op_deploy,
    OpKind.EVENT: _op_event,
    OpKind.RETIRE: _op_retire,
    OpKind.ACTIVATE: _op_activate,
    OpKind.HAND_LIMIT: _op_hand_limit,
}


def next_commander_chooser(st: GameState, start: int) -> None:
    """C-4.1: the next player (from ``start``) who may choose a Commander, else the set-up goes on."""
    for p in range(start, 2):
        side = st.sides[p]
        if side.commander is None and any(st.is_legendary_unit(c) for c in side.deck):
            st.setup_player = p
            return
    _after_commanders(st)


def _after_commanders(st: GameState) -> None:
    """C-4.2 / C-4.3: the first player is drawn, decks are shuffled, opening hands drawn; mulligans next."""
    st.first = st.rng.randrange(2)  # C-4.2
    st.event("first_player", player=st.first)
    for p in (0, 1):  # C-4.3
        st.rng.shuffle(st.sides[p].deck)
        board.draw(st, p, st.config.opening_hand)
    st.step = Step.MULLIGAN
    st.setup_player = st.first


def begin_play(st: GameState) -> None:
    """C-4.5: Commanders are revealed and the first turn starts."""
    for p in (0, 1):  # C-4.5
        side = st.sides[p]
        if side.commander is not None:
            side.revealed = True
            st.event("reveal", player=p, card=side.commander)
    st.turn = 1
    st.active = st.first
    st.step = Step.TURN_START
    st.event("turn", turn=1, player=st.first)
