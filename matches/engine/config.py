"""Rules configuration: every Decision of the rules digest (C-x.y "Decision") in ONE frozen dataclass.

The engine reads these values and nothing else for the rules the source leaves open, so a change of
house rules is a change of this object (tests in ``tests/test_config.py`` pin each default).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

BOARD_SIZE = 6
FILES = "abcdef"


def default_edge_penalties(per_line: int = 3000) -> tuple[int, ...]:
    """C-2.3: the board layout as data — Health reduction per square, ``per_line`` per border line touched."""
    out = []
    for y in range(BOARD_SIZE):
        for x in range(BOARD_SIZE):
            lines = (x in (0, BOARD_SIZE - 1)) + (y in (0, BOARD_SIZE - 1))
            out.append(per_line * lines)
    return tuple(out)


@dataclass(frozen=True)
class RulesConfig:
    """The project's rules defaults (Decisions of docs/rules digest), documented field by field."""

    # C-1.2 Decision: arrows are relative to the owner; the second player's arrows are rotated 180°.
    rotate_second_player_arrows: bool = True
    # C-2.5 Decision: adjacency is orthogonal (4 neighbours). "king" = 8 neighbours (alternative).
    adjacency: str = "orthogonal"
    # C-2.3: Health reduction per border line an edge square touches (3000 edge, 6000 corner) ...
    edge_penalty_per_line: int = 3000
    # ... or an explicit per-square layout (36 ints, index = rank*6 + file); None = computed from above.
    board_layout: tuple[int, ...] | None = None
    # C-5.2 Reinforce: cards drawn, then 1 card from hand to Energy.
    reinforce_draw: int = 2
    # C-5.2 Decision: with fewer cards in the deck draw what there is; with an empty deck Reinforce is illegal.
    reinforce_needs_card_in_deck: bool = True
    # C-5.6 Decision: only enemy units may be targeted by an attack ...
    only_enemy_targets: bool = True
    # ... and the attacked unit does not strike back (True: a surviving target deals its Power back).
    strike_back: bool = False
    # C-7.1 Decision: units in between do not block a Range Attack.
    range_attack_blocked: bool = False
    # C-6.5 Decision: after this many turns of EACH player the match ends; fewer Defeated cards wins.
    turn_limit: int = 30
    # C-4.3 / C-4.4 / C-4.6 / C-5.1 / C-5.9 / C-6.1 numbers.
    opening_hand: int = 6
    max_mulligans: int = 5  # the k-th mulligan puts k cards on the bottom; k may not reach the hand size
    cp_per_turn: int = 3
    first_turn_cp: int = 2
    hand_limit: int = 7
    defeated_to_lose: int = 6
    # C-7.4: the Marking bonus for Range Attack units; each Marking attack adds one more bonus (stacks).
    marking_bonus: int = 1000
    marking_stacks: bool = True
    # C-1.3 Decision: an Ongoing event is played in the Planning phase and may attach to any unit
    # (False: only to its owner's units).
    ongoing_attach_any_unit: bool = True
    # C-5.9 Decision: the hand limit is checked for the active player in their own End phase.
    hand_limit_active_only: bool = True
    # Termination guard (C-6.5 spirit): an activated ability with once_per_turn=false is usable at most
    # this many times per turn.
    activation_limit_per_turn: int = 5

    def edge_penalties(self) -> tuple[int, ...]:
        """The per-square Health reduction (C-2.3)."""
        if self.board_layout is not None:
            if len(self.board_layout) != BOARD_SIZE * BOARD_SIZE:
                raise ValueError("board_layout must have 36 entries")
            return tuple(self.board_layout)
        return default_edge_penalties(self.edge_penalty_per_line)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (stored in positions)."""
        d = asdict(self)
        if d["board_layout"] is not None:
            d["board_layout"] = list(d["board_layout"])
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> RulesConfig:
        """Inverse of ``to_dict``; unknown keys are an error so typos are caught."""
        if not data:
            return cls()
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"unknown rules config fields: {', '.join(sorted(unknown))}")
        kwargs = dict(data)
        if kwargs.get("board_layout") is not None:
            kwargs["board_layout"] = tuple(kwargs["board_layout"])
        if kwargs.get("adjacency", "orthogonal") not in ("orthogonal", "king"):
            raise ValueError("adjacency must be 'orthogonal' or 'king'")
        return cls(**kwargs)
