"""The shapes of the state's internal records, as typed dicts: units in an area, queued agenda steps,
the pending decision, the running march and combat (W-3.3, W-7.1, W-9).

They stay plain dicts at run time, so the stored JSON format and everything that reads a snapshot or a
player view are unchanged; `mypy --strict` checks every key the rules read or write.
"""

from __future__ import annotations

from typing import Required, TypedDict


class Units(TypedDict):
    """One house's units in an area (W-1.3); routed units (W-9.10.5) are listed apart."""

    house: str
    routed: list[str]
    units: list[str]


class Step(TypedDict, total=False):
    """A queued step of the agenda: `t` names it (`dispatch.Task`); the other keys are its arguments."""

    t: Required[str]
    phase: str
    first: bool
    strength: int | None
    exclude: str | None
    card: str
    houses: list[str]
    otype: str
    idx: int
    house: str
    port: str
    left: int
    n: int
    area: str | None
    purpose: str
    track: str
    groups: list[list[str]]
    result: list[str]
    bids: dict[str, int]
    task: Step
    nw: bool
    who: str
    bid: int


class Pending(TypedDict, total=False):
    """The decision the game waits for: its kind (`dispatch.PendingKind`), who owes it, and its context."""

    kind: Required[str]
    players: Required[list[str]]
    decision: str  # a menu decision (`dispatch.Decision`) and its options
    options: list[str]
    points: dict[str, int]  # mustering points left per area (W-13)
    bids: dict[str, int]  # secret bids so far (W-14.2, W-16.3)
    chosen: dict[str, str]  # secret house cards so far (W-9.4)
    task: Step  # the bid or tie-break step this decision belongs to
    effect: Step  # the wildling effect a tie-break decides (W-16.6)
    port: str
    left: int
    n: int
    area: str | None
    opponent: str


class March(TypedDict):
    """The March order being resolved (W-7.1): units sent into a hostile area wait in `combat_units`."""

    house: str
    source: str
    token: str
    combat_dest: str | None
    combat_units: list[str]


# The running combat (W-9); "from" is a keyword, hence the functional form. A combat against a neutral
# force (W-11.1) carries only the keys it needs.
Combat = TypedDict(
    "Combat",
    {
        "attacker": str,
        "defender": str,
        "neutral": bool,
        "area": str,
        "from": str,
        "att_units": list[str],
        "token": str,
        "support": dict[str, str],
        "support_queue": list[str],
        "cards": dict[str, str | None],
        "excluded": dict[str, list[str]],
        "imm_done": list[str],
        "blade": str | None,
        "winner": str | None,  # known after W-9.8
        "loser": str | None,
        "loras": bool,
        "arianne": bool,
        "tyrion_done": bool,
        "casualties": int,
    },
    total=False,
)
