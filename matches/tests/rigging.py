"""Put a started Commandeer match into a hand-picked position (docs/commandeer-position.md), for tests.

The position is built from the match's own cards (its decks, the card ids it dealt), written as both the
current state and the start snapshot (so the replay starts there), with a new seed (so no process holds a
cached state of the old position under the same key) and the clocks moved to whoever acts now.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from matches.games.registry import get_game
from matches.models import Match, Seat
from matches.services.submit import move_clocks

DEPLOYER = (
    "Stonehide Ram"  # stonehold: "Deploying: deal 1000 damage to each enemy unit adjacent to this unit"
)


def _take(zones: list[list[dict[str, Any]]], wanted: Any) -> dict[str, Any]:
    for zone in zones:
        for ref in zone:
            if wanted(ref):
                zone.remove(ref)
                return ref
    raise LookupError("no such card in the match")


def rig_deploying_position(match: Match, *, own_unit: bool = False) -> Match:
    """Seat 0 (a stonehold deck) is in its Planning phase with 3 CP and Stonehide Ram in hand; seat 1 has
    a unit on c3 (c4 is a legal square for the Ram, next to it). `own_unit`: seat 0 also has a unit on d3
    (so ending its Planning phase does not lose by C-5.4)."""
    game = get_game("commandeer")
    data = game.load(match.state).to_dict(log=False)
    cards = data["cards"]
    p0, p1 = data["players"]
    for side in (p0, p1):
        if side.get("commander") is not None:
            side["hand"].append(side["commander"])
        side.update(commander=None, commander_revealed=False, mulligans=0, cp=0)
    ram = _take([p0["hand"], p0["deck"]], lambda r: r["card"] == DEPLOYER)

    def is_unit(ref: dict[str, Any]) -> bool:
        facts = cards[ref["card"]]
        return facts["type"] == "unit" and not facts.get("abilities") and facts["health"] > 1000

    board = [{"square": "c3", **_take([p1["deck"], p1["hand"]], is_unit), "owner": 1}]
    if own_unit:
        board.append({"square": "d3", **_take([p0["deck"], p0["hand"]], is_unit), "owner": 0})
    p0["hand"].insert(0, ram)
    p0["cp"] = 3
    data.update(
        step="planning", turn=3, active=0, first_player=0, setup_player=0, decision=None, resolution=None,
        triggers=[], ops=[], limbo=[], used=[], marks=[], outcome=None, board=board, units_deployed=len(board),
    )  # fmt: skip
    state = game.load(data)
    snapshot = game.dump(state)
    Match.objects.filter(pk=match.pk).update(state=snapshot, state_base=snapshot, seed=match.seed + 1)
    match = Match.objects.get(pk=match.pk)
    seats = list(Seat.objects.filter(match=match).order_by("position"))
    move_clocks(match, game, seats, state, timezone.now())
    for s in seats:
        s.has_moved = True
        s.save()
    return match
