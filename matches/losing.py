"""The question before a move that loses at once: does this action end the match with its player losing?

Asked by the submit path when the page sends `guard: true` (services/submit.py): the action is applied to a
copy of the state, never to the match, and the engine's own result check (C-6.3: after every action) says
whether the match would end with the submitter losing. Nothing here names a rule of one game: a Commandeer
player ending Planning with no unit on the battlefield (C-6.2) and one taking a sixth Defeated card with an
attack (C-6.1) are caught alike. One copy per guarded submit (under a millisecond), so the legal actions of
every snapshot carry no such flag: flagging each of them would apply up to a few hundred copies per view
(measured: 5 ms on average, 160 ms at worst per Commandeer decision).

Only an avoidable loss is reported: when every legal action loses (the last pass of the turn limit, C-6.5)
there is nothing to choose instead and asking would only delay the end.
"""

from __future__ import annotations

from typing import Any

from matches.games.kind import Player, Result
from matches.games.registry import AnyGame


def _loses(game: AnyGame, state: Any, seat: Player, action: Any) -> Result | None:
    after = game.apply(game.clone(state), action)
    if not game.is_terminal(after):
        return None
    result = game.outcome(after)
    return result if result.winner is not None and result.winner != seat else None


def avoidable_loss(game: AnyGame, state: Any, seat: Player, action: Any, legal: list[Any]) -> Result | None:
    """The result when `action` ends the match at once with `seat` losing while another of its `legal`
    actions does not; None otherwise. `state` is left as it was."""
    result = _loses(game, state, seat, action)
    if result is None:
        return None
    for other in legal:
        if other != action and _loses(game, state, seat, other) is None:
            return result
    return None
