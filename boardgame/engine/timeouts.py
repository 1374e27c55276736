"""The documented default decision of a house whose clock ran out (W-3.3), one per pending step.

`TIMEOUT_DEFAULTS` is the table in words (shown to players and tested); `timeout_action` is the same
table as code. Each default is one of `legal_actions(house)`, chosen to be the most passive choice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import (
    Action,
    Bid,
    Choose,
    DeclareSupport,
    EndMarch,
    FinishOrders,
    PlaceOrder,
    ResolveConsolidate,
    ResolveRaid,
)

if TYPE_CHECKING:
    from .game import WesterosState

TIMEOUT_DEFAULTS: dict[str, str] = {
    "orders": "finish the orders when the engine allows it (W-22.3); else the most passive token still "
    "unused (Defense, Support, Consolidate Power, Raid, March) in the first area without an order — "
    "the engine demands an order in every area while tokens remain (W-5.1)",
    "raven": "pass: keep the orders, do not look at the wildling deck (W-5.5)",
    "raid": "resolve the Raid without a target, i.e. remove it (W-7.2)",
    "march_select": "resolve the first March order in area order (W-6.2: one must be resolved)",
    "march_move": "end the march without moving, leaving no power token (W-7.1.5)",
    "support": "support nobody (W-9.2)",
    "house_card": "the first legal house card in hand order (W-9.4)",
    "consolidate": "consolidate power (no mustering) with the first order (W-7.5)",
    "muster": "stop mustering (W-13)",
    "bid": "bid 0 power tokens (W-14.2, W-16.3)",
    "choose": "a 'pass'/'none'/'no'/'done'-like option when offered, else the first option listed",
}
# Order tokens from the most passive to the most aggressive, and menu options that decline.
PASSIVE_TOKENS = ("defense", "support", "consolidate_power", "raid", "march")
PASSIVE_OPTIONS = ("pass", "none", "no", "done", "decline", "skip", "keep")


def timeout_action(state: WesterosState, house: str) -> Action:
    """The default of `TIMEOUT_DEFAULTS` for `house` at the pending step; raises ValueError if it has none."""
    legal = state.legal_actions(house)
    if not legal:
        raise ValueError(f"{house} has no decision to make now (waiting for {state.current_players()})")
    step = state.pending.kind if state.pending is not None else ""
    if step == "orders":
        finish = [a for a in legal if isinstance(a, FinishOrders)]
        if finish:
            return finish[0]
        places = [a for a in legal if isinstance(a, PlaceOrder)]
        here = [a for a in places if a.area == places[0].area]
        for prefix in PASSIVE_TOKENS:
            for a in here:
                if a.token.startswith(prefix):
                    return a
        return here[0]
    if step == "raid":
        return next((a for a in legal if isinstance(a, ResolveRaid) and a.target is None), legal[0])
    if step == "march_move":
        return next((a for a in legal if isinstance(a, EndMarch) and not a.leave_power_token), legal[0])
    if step == "support":
        return next((a for a in legal if isinstance(a, DeclareSupport) and a.side == "none"), legal[0])
    if step == "consolidate":
        return next((a for a in legal if isinstance(a, ResolveConsolidate) and not a.muster), legal[0])
    if step == "bid":
        return min((a for a in legal if isinstance(a, Bid)), key=lambda a: a.amount)
    choices = [a for a in legal if isinstance(a, Choose)]
    for option in PASSIVE_OPTIONS:  # raven "pass", muster "done", decline a card ability, ...
        for c in choices:
            if c.option == option:
                return c
    return legal[0]
