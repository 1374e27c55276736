"""Winning and losing (C-6): the outcome of a match and the checks that end it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from .messages import Msg, gettext_noop
from .steps import Step

if TYPE_CHECKING:
    from .state import GameState


class Reason(StrEnum):
    """Why a match ended (C-6)."""

    SIX_DEFEATED = "six_defeated"  # C-6.1
    NO_UNITS = "no_units"  # C-6.2 (C-5.4, C-5.10)
    TURN_LIMIT = "turn_limit"  # C-6.5
    CONCESSION = "concession"  # C-6.4


@dataclass(frozen=True)
class Outcome:
    """The result: ``winner`` 0/1, or None for a draw."""

    winner: int | None
    reason: Reason

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason.value}

    def message(self) -> Msg:
        """Why the match ended, in words (C-6)."""
        return Msg(REASON_TEXT[self.reason])


# Why a match ended, as players read it (C-6).
REASON_TEXT: dict[Reason, str] = {
    Reason.SIX_DEFEATED: gettext_noop("six cards in the Defeated zone (C-6.1)"),
    Reason.NO_UNITS: gettext_noop("no unit on the battlefield (C-6.2)"),
    Reason.TURN_LIMIT: gettext_noop("turn limit reached: fewer Defeated cards wins (C-6.5)"),
    Reason.CONCESSION: gettext_noop("concession (C-6.4)"),
}


def no_unit_loss(st: GameState) -> bool:
    """C-5.4 / C-5.10 / C-6.2: a player with no unit on the battlefield now loses; True if one did.

    Who is checked is a Decision (``RulesConfig.no_unit_loss_active_only``): the active player, or
    also the other player once they have had a turn (turn 2 on); both without units is a draw.
    """
    ap = st.active
    players = [ap] if st.config.no_unit_loss_active_only or st.turn < 2 else [ap, 1 - ap]
    owners = {u.owner for u in st.units.values()}
    losers = [p for p in players if p not in owners]
    if not losers:
        return False
    finish(st, None if len(losers) == 2 else 1 - losers[0], Reason.NO_UNITS)
    return True


def finish(st: GameState, winner: int | None, reason: Reason) -> None:
    """The match ends with ``winner`` (None: a draw) for ``reason`` (C-6); the first result stands."""
    if st.outcome_ is None:
        st.outcome_ = Outcome(winner, reason)
        st.step = Step.OVER
        st.choice = None
        st.event("outcome", winner=winner, reason=reason.value)
