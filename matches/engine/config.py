"""Rules configuration: every Decision of the rules digest (C-x.y "Decision") in ONE frozen dataclass.

The engine reads these values and nothing else for the rules the source leaves open, so a change of
house rules is a change of this object (``tests/test_config.py`` pins each default and tests each
alternative; ``docs/commandeer-rules-coverage.md`` lists every rule and Decision).
"""

from __future__ import annotations

from dataclasses import MISSING, Field, asdict, dataclass, field, fields
from typing import Any

BOARD_SIZE = 6
FILES = "abcdef"
# C-2.3 / C-7.4: the largest Health reduction per border line (and Marking bonus) a match may set: above
# the toughest unit's Health (9000 in the card data), so any value a designer wants is reachable.
MAX_EDGE_PENALTY = 20000

# Bounds of a field are its metadata (read by `check_field` here and by the API's generated serializers,
# matches/rules_api.py): "rule" (its rule number), "min"/"max" (ints), "choices" (strings), "length" /
# "item_min" / "item_max" (the board layout), "api": False (not settable by players). Each bound keeps
# every match finite and playable: the turn limit ends it (C-6.5), a deck has at least 50 cards (C-3.1)
# so an opening hand of up to 20 plus 10 mulligans of ever fewer cards can always be drawn, a player
# always gets at least 1 CP per turn and may always hold at least 1 card.


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
    """The project's rules defaults (the Decisions of the rules digest and the engine), field by field.

    Every field carries a comment naming its rule and why the default is what it is; the table of all
    fields is in docs/commandeer-position.md and docs/commandeer-rules-coverage.md.
    """

    # C-1.2 Decision: arrows are relative to the owner ("N" points at the opponent's side); the second
    # player's arrows are therefore rotated 180° on the board. False: arrows are absolute board directions.
    rotate_second_player_arrows: bool = field(default=True, metadata={"rule": "C-1.2"})
    # C-2.5 Decision: adjacency is orthogonal (4 neighbours), as the digest says. "king" = 8 neighbours.
    adjacency: str = field(
        default="orthogonal", metadata={"rule": "C-2.5", "choices": ("orthogonal", "king")}
    )
    # C-2.3: Health reduction per border line an edge square touches (3000 edge, 6000 corner), from the
    # publisher's English rules page.
    edge_penalty_per_line: int = field(
        default=3000, metadata={"rule": "C-2.3", "min": 0, "max": MAX_EDGE_PENALTY}
    )
    # C-2.3: or an explicit per-square layout (36 ints, index = rank*6 + file) — the board layout is data;
    # None = computed from edge_penalty_per_line.
    board_layout: tuple[int, ...] | None = field(
        default=None,
        metadata={
            "rule": "C-2.3",
            "length": BOARD_SIZE * BOARD_SIZE,
            "item_min": 0,
            "item_max": 2 * MAX_EDGE_PENALTY,
        },
    )
    # C-5.2: Reinforce draws this many cards, then 1 card of the hand goes to Energy.
    reinforce_draw: int = field(default=2, metadata={"rule": "C-5.2", "min": 0, "max": 10})
    # C-5.2 Decision: with fewer cards in the deck draw what there is; with an empty deck Reinforce is
    # illegal (True). False: Reinforce stays legal and only moves a hand card to Energy.
    reinforce_needs_card_in_deck: bool = field(default=True, metadata={"rule": "C-5.2"})
    # C-5.6 Decision: only enemy units may be targeted by an attack (the digest's Decision).
    only_enemy_targets: bool = field(default=True, metadata={"rule": "C-5.6"})
    # C-5.6 Decision: the attacked unit does not strike back (True: a surviving target deals its Power back).
    strike_back: bool = field(default=False, metadata={"rule": "C-5.6"})
    # C-7.1 Decision: units in between do not block a Range Attack (True: the first unit on the line blocks).
    range_attack_blocked: bool = field(default=False, metadata={"rule": "C-7.1"})
    # C-6.5 Decision: after this many turns of EACH player the match ends; fewer Defeated cards wins.
    turn_limit: int = field(default=30, metadata={"rule": "C-6.5", "min": 1, "max": 200})
    # C-4.3: each player draws this many cards (and C-4.4: a mulligan draws this many again).
    opening_hand: int = field(default=6, metadata={"rule": "C-4.3", "min": 1, "max": 20})
    # C-4.4 (engine Decision): at most this many mulligans (also never so many that the hand would be
    # empty), because the k-th mulligan bottoms k cards and the set-up must end.
    max_mulligans: int = field(default=5, metadata={"rule": "C-4.4", "min": 0, "max": 10})
    # C-5.1: CP gained at the start of each turn.
    cp_per_turn: int = field(default=3, metadata={"rule": "C-5.1", "min": 1, "max": 20})
    # C-4.6: CP of the first player's first turn.
    first_turn_cp: int = field(default=2, metadata={"rule": "C-4.6", "min": 0, "max": 20})
    # C-5.9: the hand limit checked in the End phase.
    hand_limit: int = field(default=7, metadata={"rule": "C-5.9", "min": 1, "max": 40})
    # C-6.1: a player with this many Defeated cards loses at once.
    defeated_to_lose: int = field(default=6, metadata={"rule": "C-6.1", "min": 1, "max": 40})
    # C-7.4: the Marking bonus dealt by Range Attack units to a marked enemy unit.
    marking_bonus: int = field(default=1000, metadata={"rule": "C-7.4", "min": 0, "max": MAX_EDGE_PENALTY})
    # C-7.4 (engine Decision): each Marking attack on the same unit adds one more bonus (the digest is
    # silent on several Marking units). False: a unit is marked once per turn, whatever the number.
    marking_stacks: bool = field(default=True, metadata={"rule": "C-7.4"})
    # C-1.3 (engine Decision): an Ongoing event is played in the Planning phase and may attach to any unit
    # (the digest says "a target unit"). False: only to its owner's units.
    ongoing_attach_any_unit: bool = field(default=True, metadata={"rule": "C-1.3"})
    # C-5.9 (engine Decision): the hand limit is checked for the active player in their own End phase
    # (the End phase is theirs). False: both players discard down in every End phase.
    hand_limit_active_only: bool = field(default=True, metadata={"rule": "C-5.9"})
    # C-5.2 / C-6.5 (engine Decision, termination guard): an activated ability with once_per_turn=false
    # is usable at most this many times per turn, so every Planning phase ends.
    activation_limit_per_turn: int = field(default=5, metadata={"rule": "C-6.5", "min": 1, "max": 20})
    # C-5.4 / C-5.10 / C-6.2 Decision: the "no unit on the battlefield" loss is checked for the ACTIVE
    # player only (C-5.10 says "their End phase"; checking both players at the end of the first player's
    # first Planning phase would make the second player lose before their first turn). False: the other
    # player is checked too once they have had a turn; both without units is a draw.
    no_unit_loss_active_only: bool = field(default=True, metadata={"rule": "C-6.2"})
    # C-5.1 / C-5.5 Decision: when both players have triggered abilities waiting, the active player's
    # resolve first (each player orders their own). False: the other player's resolve first.
    active_player_triggers_first: bool = field(default=True, metadata={"rule": "C-5.5"})
    # C-7.5 Decision: Spoil triggers even when the unit that caused the defeat has already left the
    # battlefield (e.g. its own on_defeated ability defeats an enemy). False: only while it is still there.
    spoil_from_departed_source: bool = field(default=True, metadata={"rule": "C-7.5"})
    # C-2.2 / C-5.2 (engine Decision): whenever the battlefield is empty, a unit is deployed on a start
    # square — the first unit of the game, and again after every unit has left (the digest names only the
    # first unit; strictly read, a later empty battlefield would leave no legal square at all). False: only
    # the first unit of the game; a later empty battlefield offers no deploy square.
    start_squares_when_battlefield_empty: bool = field(default=True, metadata={"rule": "C-2.2"})
    # C-5.11: at the end of a turn the remaining CP of BOTH players is reset to 0 (the Thai sentence names no
    # owner), so CP the other player gained during this turn (an ability in their Defending phase, a Spoil or
    # on_defeated gain) does not carry into their own turn. True: only the active player's CP is reset.
    cp_reset_active_only: bool = field(default=False, metadata={"rule": "C-5.11"})

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
        """Inverse of ``to_dict``, checked field by field (type, bounds, choices: the fields' metadata).

        Unknown keys are an error so typos are caught; a ValueError names the field and what it accepts.
        """
        if not data:
            return cls()
        if not isinstance(data, dict):
            raise ValueError("the rules config must be an object of field: value")
        key = _memo_key(data)  # every stored position names its config: checked once per distinct config
        hit = _CHECKED.get(key) if key is not None else None
        if hit is not None:
            return hit
        by_name = {f.name: f for f in fields(cls)}
        unknown = set(data) - set(by_name)
        if unknown:
            raise ValueError(f"unknown rules config fields: {', '.join(sorted(map(str, unknown)))}")
        kwargs = {name: check_field(by_name[name], value) for name, value in data.items()}
        config = cls(**kwargs)
        if key is not None and len(_CHECKED) < _CHECKED_SIZE:
            _CHECKED[key] = config
        return config


_CHECKED: dict[tuple[Any, ...], RulesConfig] = {}  # frozen values: safe to hand out again
_CHECKED_SIZE = 256


def _memo_key(data: dict[str, Any]) -> tuple[Any, ...] | None:
    """A key naming `data` exactly (each value with its type: 1 == True == 1.0), or None (a board layout)."""
    key = tuple((k, type(v), v) for k, v in data.items())
    try:
        hash(key)
    except TypeError:
        return None
    return key


def check_field(f: Field[Any], value: Any) -> Any:
    """``value`` for the config field ``f`` when its type and bounds allow it, else ValueError naming ``f``.

    Strict JSON types: a bool is only ``true``/``false``; an int is an integer, never a bool or a float.
    A board layout (``"length"`` metadata) is a list of that many ints (or null) and comes back a tuple.
    """
    meta = f.metadata
    name = f.name
    if "length" in meta:
        if value is None:
            return None
        if not isinstance(value, (list, tuple)) or len(value) != meta["length"]:
            raise ValueError(f"{name} must be a list of {meta['length']} integers (or null)")
        for item in value:
            if not _is_int(item) or not meta["item_min"] <= item <= meta["item_max"]:
                raise ValueError(
                    f"{name} entries must be integers from {meta['item_min']} to {meta['item_max']}"
                )
        return tuple(value)
    default = f.default if f.default is not MISSING else None
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ValueError(f"{name} must be true or false")
    elif isinstance(default, int):
        if not _is_int(value):
            raise ValueError(f"{name} must be an integer")
        low, high = meta.get("min", value), meta.get("max", value)
        if not low <= value <= high:
            raise ValueError(f"{name} must be from {low} to {high} ({meta.get('rule', '')})")
    elif isinstance(default, str):
        if not isinstance(value, str) or value not in meta.get("choices", (value,)):
            raise ValueError(f"{name} must be one of {', '.join(meta['choices'])}")
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
