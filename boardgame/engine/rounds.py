"""W-3 round structure and W-6 action-phase cycling and clean-up.

Functions over a `WesterosState` (the state holds the data; the rules live here, by rule number),
reached through the dispatch tables of `dispatch.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import ROUND_STRUCTURE, order_type
from .messages import gettext_noop, msg
from .structures import PendingKind, Phase, Reason, RoundStep, Step, Task, Units

if TYPE_CHECKING:
    from .game import WesterosState


# W-6.2: the decision each order type asks of the house whose turn it is.
CYCLE_KINDS = {
    "raid": PendingKind.RAID,
    "march": PendingKind.MARCH_SELECT,
    "consolidate_power": PendingKind.CONSOLIDATE,
}


# W-3.1: the steps of a round, from ROUND_STRUCTURE (steps are values, shared by every round).
ROUND_STEPS = tuple(
    Step(Task(step.value), phase=phase) for phase, steps in ROUND_STRUCTURE for step, _who in steps
)
FIRST_ROUND_STEPS = tuple(
    s for s in ROUND_STEPS if s.phase is not Phase.WESTEROS
)  # round 1 skips the Westeros phase


def t_round(st: WesterosState, task: Step) -> None:
    st.push(*(FIRST_ROUND_STEPS if task.first else ROUND_STEPS))


def enter(st: WesterosState, task: Step) -> None:
    if task.phase is not None:
        st.phase = task.phase
    st.step = RoundStep(task.t.value)


def t_advance_round(st: WesterosState, task: Step) -> None:
    enter(st, task)
    st.round += 1  # W-4.1(1)
    st.event(msg(gettext_noop("Round %(round)s begins"), round=st.round))


def t_resolve_westeros(st: WesterosState, task: Step) -> None:
    enter(st, task)


def t_raids(st: WesterosState, task: Step) -> None:
    enter(st, task)
    st.push(Step(Task.CYCLE, otype="raid", idx=0))


def t_marches(st: WesterosState, task: Step) -> None:
    enter(st, task)
    st.push(Step(Task.CYCLE, otype="march", idx=0))


def t_consolidate(st: WesterosState, task: Step) -> None:
    enter(st, task)
    st.push(Step(Task.CYCLE, otype="consolidate_power", idx=0))


def t_cycle(st: WesterosState, task: Step) -> None:
    """W-6.2: the next house in turn order, from `idx` on, with an order of the type resolves one."""
    order = st.turn_order()
    n = len(order)
    otype, idx = task.otype, task.idx
    assert otype is not None and idx is not None
    for k in range(n):
        i = (idx + k) % n
        h = order[i]
        if any(oh == h and order_type(t) == otype for oh, t in st.orders.values()):
            st.push(Step(Task.CYCLE, otype=otype, idx=(i + 1) % n))
            st.ask(CYCLE_KINDS[otype], [h])
            return


def t_cleanup(st: WesterosState, task: Step) -> None:
    """W-6.3: remove orders, rally routed units, refresh Blade and Raven; end after round 10."""
    enter(st, task)
    st.orders = {}
    st.orders_revealed = False
    for a, u in st.units.items():
        if u.routed:
            st.units[a] = Units(u.house, u.units + u.routed, ())  # the same house: control is unchanged
    st.blade_used = False
    st.raven_used = False
    st.bans = []
    if st.round >= st.config.max_rounds:
        st.finish(st.final_ranking()[0], Reason.ROUND_LIMIT)
        return
    st.push(Step(Task.ROUND))


def t_victory_check(st: WesterosState, task: Step) -> None:
    st.check_victory()
