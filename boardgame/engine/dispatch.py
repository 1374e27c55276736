"""Dispatch tables: every pending decision kind, agenda task and menu decision, keyed by an enum.

The enums live in `structures.py` with the records that carry them (`Pending.kind`, `Step.t`,
`Pending.decision`); the engine finds the rule function here, so a search for a handler finds its caller
(no names built from strings). A test checks that the tables cover every enum member.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

__all__ = ["DECISIONS", "DO", "LEGAL", "TASKS", "Decision", "PendingKind", "Task"]

from . import (
    combat,
    house_cards,
    marches,
    planning,
    raid_consolidate,
    retreat,
    rounds,
    westeros_phase,
    wildlings,
)
from .actions import Action, Choose
from .structures import Decision, Pending, PendingKind, Step, Task, need

if TYPE_CHECKING:
    from .game import WesterosState


def legal_choose(st: WesterosState, p: str) -> list[Action]:
    """A menu decision: one Choose per pending option."""
    assert st.pending is not None
    dec = need(st.pending.decision).value
    return [Choose(p, dec, o) for o in st.pending.options]


def do_choose(st: WesterosState, a: Action) -> None:
    """Answer a menu decision: the handler of `DECISIONS` for it gets the pending context."""
    assert isinstance(a, Choose) and st.pending is not None
    ctx = st.pending
    st.pending = None
    DECISIONS[need(ctx.decision)](st, a.player, a.option, ctx)


LEGAL: dict[PendingKind, Callable[[WesterosState, str], list[Action]]] = {
    PendingKind.ORDERS: planning.legal_orders,
    PendingKind.RAVEN: planning.legal_raven,
    PendingKind.RAID: raid_consolidate.legal_raid,
    PendingKind.CONSOLIDATE: raid_consolidate.legal_consolidate,
    PendingKind.MARCH_SELECT: marches.legal_march_select,
    PendingKind.MARCH_MOVE: marches.legal_march_move,
    PendingKind.SUPPORT: combat.legal_support,
    PendingKind.HOUSE_CARD: combat.legal_house_card,
    PendingKind.MUSTER: westeros_phase.legal_muster,
    PendingKind.BID: westeros_phase.legal_bid,
    PendingKind.CHOOSE: legal_choose,
}
DO: dict[PendingKind, Callable[[WesterosState, Action], None]] = {
    PendingKind.ORDERS: planning.do_orders,
    PendingKind.RAVEN: planning.do_raven,
    PendingKind.RAID: raid_consolidate.do_raid,
    PendingKind.CONSOLIDATE: raid_consolidate.do_consolidate,
    PendingKind.MARCH_SELECT: marches.do_march_select,
    PendingKind.MARCH_MOVE: marches.do_march_move,
    PendingKind.SUPPORT: combat.do_support,
    PendingKind.HOUSE_CARD: combat.do_house_card,
    PendingKind.MUSTER: westeros_phase.do_muster,
    PendingKind.BID: westeros_phase.do_bid,
    PendingKind.CHOOSE: do_choose,
}
TASKS: dict[Task, Callable[[WesterosState, Step], None]] = {
    Task.ROUND: rounds.t_round,
    Task.ADVANCE_ROUND: rounds.t_advance_round,
    Task.RESOLVE_WESTEROS: rounds.t_resolve_westeros,
    Task.RAIDS: rounds.t_raids,
    Task.MARCHES: rounds.t_marches,
    Task.CONSOLIDATE: rounds.t_consolidate,
    Task.CYCLE: rounds.t_cycle,
    Task.CLEANUP: rounds.t_cleanup,
    Task.VICTORY_CHECK: rounds.t_victory_check,
    Task.ASSIGN_ORDERS: planning.t_assign_orders,
    Task.REVEAL_ORDERS: planning.t_reveal_orders,
    Task.MESSENGER_RAVEN: planning.t_messenger_raven,
    Task.MARCH_END: marches.t_march_end,
    Task.PORT_SYNC: marches.t_port_sync,
    Task.PORT_TAKEOVER: marches.t_port_takeover,
    Task.NEUTRAL_RESOLVE: marches.t_neutral_resolve,
    Task.COMBAT_SUPPORT: combat.t_combat_support,
    Task.COMBAT_CARDS: combat.t_combat_cards,
    Task.COMBAT_BLADE: combat.t_combat_blade,
    Task.COMBAT_RESOLVE: combat.t_combat_resolve,
    Task.COMBAT_CASUALTIES: combat.t_combat_casualties,
    Task.CASUALTY_PICK: combat.t_casualty_pick,
    Task.COMBAT_CLEANUP: combat.t_combat_cleanup,
    Task.COMBAT_RETREAT: retreat.t_combat_retreat,
    Task.RETREAT_SUPPLY: retreat.t_retreat_supply,
    Task.COMBAT_CANCEL: house_cards.t_combat_cancel,
    Task.COMBAT_IMMEDIATE: house_cards.t_combat_immediate,
    Task.COMBAT_WIN_EFFECTS: house_cards.t_combat_win_effects,
    Task.COMBAT_AFTER: house_cards.t_combat_after,
    Task.REVEAL_WESTEROS: westeros_phase.t_reveal_westeros,
    Task.WESTEROS_CARD: westeros_phase.t_westeros_card,
    Task.SUPPLY_ADJUST: westeros_phase.t_supply_adjust,
    Task.RECONCILE: westeros_phase.t_reconcile,
    Task.MUSTER_ALL: westeros_phase.t_muster_all,
    Task.BID: westeros_phase.t_bid,
    Task.RANK: westeros_phase.t_rank,
    Task.WILDLING_ATTACK: wildlings.t_wildling_attack,
    Task.WILDLING_RESOLVE: wildlings.t_wildling_resolve,
    Task.WILDLING_EFFECT: wildlings.t_wildling_effect,
    Task.WL_REWARD: wildlings.t_wl_reward,
    Task.WL_LOWEST: wildlings.t_wl_lowest,
    Task.WL_OTHER: wildlings.t_wl_other,
    Task.CROW_REWARD: wildlings.t_crow_reward,
    Task.CROW_KNIGHTS: wildlings.t_crow_knights,
    Task.DESTROY_N: wildlings.t_destroy_n,
}
DECISIONS: dict[Decision, Callable[[WesterosState, str, str, Pending], None]] = {
    Decision.RAVEN_BURY: planning.on_raven_bury,
    Decision.PORT_TAKEOVER: marches.on_port_takeover,
    Decision.BLADE: combat.on_blade,
    Decision.CASUALTY: combat.on_casualty,
    Decision.RETREAT: retreat.on_retreat,
    Decision.ROBB_RETREAT: retreat.on_robb_retreat,
    Decision.RETREAT_LOSS: retreat.on_retreat_loss,
    Decision.TYRION: house_cards.on_tyrion,
    Decision.AERON: house_cards.on_aeron,
    Decision.DORAN: house_cards.on_doran,
    Decision.QUEEN_OF_THORNS: house_cards.on_queen_of_thorns,
    Decision.CERSEI: house_cards.on_cersei,
    Decision.RENLY: house_cards.on_renly,
    Decision.PATCHFACE: house_cards.on_patchface,
    Decision.THRONE_OF_BLADES: westeros_phase.on_throne_of_blades,
    Decision.DARK_WINGS: westeros_phase.on_dark_wings,
    Decision.PUT_TO_THE_SWORD: westeros_phase.on_put_to_the_sword,
    Decision.RECONCILE: westeros_phase.on_reconcile,
    Decision.TIE_ORDER: westeros_phase.on_tie_order,
    Decision.WILDLING_TIE: wildlings.on_wildling_tie,
    Decision.KBW_REWARD: wildlings.on_kbw_reward,
    Decision.KBW_TRACK: wildlings.on_kbw_track,
    Decision.CROW_REWARD: wildlings.on_crow_reward,
    Decision.CROW_KNIGHT: wildlings.on_crow_knight,
    Decision.DISCARD_CARD: wildlings.on_discard_card,
    Decision.MAMMOTH_REWARD: wildlings.on_mammoth_reward,
    Decision.PREEMPTIVE: wildlings.on_preemptive,
    Decision.PREEMPTIVE_TRACK: wildlings.on_preemptive_track,
    Decision.HORDE_AREA: wildlings.on_horde_area,
    Decision.HORDE_REWARD: wildlings.on_horde_reward,
    Decision.DESTROY: wildlings.on_destroy,
}
