"""W-3 round structure and W-6 action-phase cycling and clean-up.

Functions over a `WesterosState` (the state holds the data; the rules live here, by rule number),
reached through the dispatch tables of `dispatch.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import ROUND_STRUCTURE, order_type
from .structures import Step

if TYPE_CHECKING:
    from .game import WesterosState


def t_round(st: WesterosState, task: Step) -> None:
    steps: list[Step] = []
    for phase, phase_steps in ROUND_STRUCTURE:
        if phase == "westeros" and task.get("first"):
            continue  # W-3.1: round 1 skips the Westeros phase
        for step, _who in phase_steps:
            steps.append({"t": step, "phase": phase})
    st._push(*steps)


def enter(st: WesterosState, task: Step) -> None:
    st.phase = task.get("phase", st.phase)
    st.step = task["t"]


def t_advance_round(st: WesterosState, task: Step) -> None:
    enter(st, task)
    st.round += 1  # W-4.1(1)
    st._event(f"Round {st.round} begins")


def t_resolve_westeros(st: WesterosState, task: Step) -> None:
    enter(st, task)


def t_raids(st: WesterosState, task: Step) -> None:
    enter(st, task)
    st._push({"t": "cycle", "otype": "raid", "idx": 0})


def t_marches(st: WesterosState, task: Step) -> None:
    enter(st, task)
    st._push({"t": "cycle", "otype": "march", "idx": 0})


def t_consolidate(st: WesterosState, task: Step) -> None:
    enter(st, task)
    st._push({"t": "cycle", "otype": "consolidate_power", "idx": 0})


def t_cycle(st: WesterosState, task: Step) -> None:
    order = st.turn_order()
    n = len(order)
    kind = {"raid": "raid", "march": "march_select", "consolidate_power": "consolidate"}[task["otype"]]
    for k in range(n):
        h = order[(task["idx"] + k) % n]
        if any(oh == h and order_type(t) == task["otype"] for oh, t in st.orders.values()):
            st._push({"t": "cycle", "otype": task["otype"], "idx": (order.index(h) + 1) % n})
            st._ask(kind, [h])
            return


def t_cleanup(st: WesterosState, task: Step) -> None:
    """W-6.3: remove orders, rally routed units, refresh Blade and Raven; end after round 10."""
    enter(st, task)
    st.orders = {}
    st.orders_revealed = False
    for u in st.units.values():
        if u["routed"]:
            u["units"].extend(u["routed"])
            u["routed"] = []
    st.blade_used = False
    st.raven_used = False
    st.bans = []
    if st.round >= st.config.max_rounds:
        st._finish(st._final_ranking()[0], "round_limit")
        return
    st._push({"t": "round"})


def t_victory_check(st: WesterosState, task: Step) -> None:
    st._check_victory()
