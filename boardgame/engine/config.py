"""Rules settings kept in one place: every W-22 Decision is a field here (see westeros.md W-22)."""

from __future__ import annotations

from dataclasses import MISSING, Field, asdict, dataclass, field, fields
from typing import Any

# Bounds of a field are its metadata (read by `check_field` here and by the play layer's generated API
# serializers, matches/rules_api.py): "rule", "min"/"max" (ints), "api": False (players may not set it).
# Every bound keeps a game finite and playable: the round track has 10 spaces (W-3.1), and a house needs
# at least 3 castles/strongholds to win (no house starts with more than 2, so nobody wins before play) and
# at most the map's 20 (W-18.1: beyond that only the last round could end the game anyway).
MAX_CASTLES = 20


@dataclass(frozen=True)
class RulesConfig:
    """Defaults follow the digest; each field names the rule it settles.

    Decisions kept as fixed behaviour (no switch, the alternative is not implemented):
    W-22.2 Winter is Coming reshuffles the whole deck; W-22.3 houses short of legal tokens leave
    areas without orders; W-22.4 one support declaration per house per combat; W-22.6 combat
    sub-step order of S&R; W-22.8 derived influence order for fewer than 6 players (data); W-22.9 after
    Doran Martell moves the acting house on the Iron Throne track, play goes on from its old position
    number; W-22.10 Mace Tyrell killing the last defending unit does not stop the combat; W-22.13 a
    combatant may support either side. Engine Decision (W-5.1 / W-5.4, the table's face-down tokens):
    a house may take back a placed order until it is Ready, and its Ready until the last house is Ready.
    """

    # W-22.1 / W-15.2: Dark Wings, Dark Words power option gives port income too (S&R) if True.
    dark_wings_port_income: bool = field(default=False, metadata={"rule": "W-22.1"})
    # W-11.1: other houses' Support orders may back a march on a neutral force. The march is legal if
    # the marcher's units, modifier and every eligible Support order reach the token's value; after
    # the others declare, a march that falls short leaves the units where they came from (engine
    # Decision). False: only the marcher's own Support orders count (always enough once legal).
    neutral_force_other_support: bool = field(default=True, metadata={"rule": "W-11.1"})
    # W-22.5 / W-10.6: ships in a port whose land area becomes uncontrolled are destroyed.
    orphan_port_ships_destroyed: bool = field(default=True, metadata={"rule": "W-22.5"})
    # W-22.7 / W-2.1: keep the Lannister port ship with 3 players (S&R drops it).
    three_player_lannister_port_ship: bool = field(default=True, metadata={"rule": "W-22.7"})
    # W-22.11: Arianne Martell defending (and losing) with a Martell power token in the embattled area:
    # the token stays and Martell keeps control (S&R). False: the token is removed (unofficial FAQ).
    arianne_keeps_power_token: bool = field(default=True, metadata={"rule": "W-22.11"})
    # W-22.12 / W-16.8: Massing on the Milkwater discards no card if that would empty the hand. False:
    # the printed card (every highest card goes; an emptied hand takes back the rest of the pile, W-17.2).
    milkwater_keeps_one_card: bool = field(default=True, metadata={"rule": "W-22.12"})
    # W-3.1: number of rounds.
    max_rounds: int = field(default=10, metadata={"rule": "W-3.1", "min": 1, "max": 10})
    # W-18.1: castles/strongholds needed for an immediate win.
    castles_to_win: int = field(default=7, metadata={"rule": "W-18.1", "min": 3, "max": MAX_CASTLES})
    # W-16.4: Night's Watch wins on a tie (>=), the official rule.
    nights_watch_wins_ties: bool = field(default=True, metadata={"rule": "W-16.4"})
    # Keep a human-readable event log in the state (off makes bulk simulation faster).
    event_log: bool = field(default=True, metadata={"api": False})

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> RulesConfig:
        """Inverse of ``to_dict``, checked field by field (type and bounds: the fields' metadata).

        Unknown keys are an error so typos are caught; a ValueError names the field and what it accepts.
        """
        if not d:
            return cls()
        if not isinstance(d, dict):
            raise ValueError("the rules config must be an object of field: value")
        by_name = {f.name: f for f in fields(cls)}
        unknown = set(d) - set(by_name)
        if unknown:
            raise ValueError(f"unknown rules config fields: {', '.join(sorted(map(str, unknown)))}")
        return cls(**{name: check_field(by_name[name], value) for name, value in d.items()})


def check_field(f: Field[Any], value: Any) -> Any:
    """``value`` for the config field ``f`` when its type and bounds allow it, else ValueError naming ``f``.

    Strict JSON types: a bool is only ``true``/``false``; an int is an integer, never a bool or a float.
    (The Commandeer engine's config checks its fields the same way; the engines share no code.)
    """
    meta = f.metadata
    default = f.default if f.default is not MISSING else None
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ValueError(f"{f.name} must be true or false")
    elif isinstance(default, int):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{f.name} must be an integer")
        low, high = meta.get("min", value), meta.get("max", value)
        if not low <= value <= high:
            raise ValueError(f"{f.name} must be from {low} to {high} ({meta.get('rule', '')})")
    return value
