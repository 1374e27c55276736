"""Rules settings kept in one place: every W-22 Decision is a field here (see westeros.md W-22)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class RulesConfig:
    """Defaults follow the digest; each field names the rule it settles.

    Decisions kept as fixed behaviour (no switch, the alternative is not implemented):
    W-22.2 Winter is Coming reshuffles the whole deck; W-22.3 houses short of legal tokens leave
    areas without orders; W-22.4 one support declaration per house per combat; W-22.6 combat
    sub-step order of S&R; W-22.8 derived influence order for fewer than 6 players (data); W-22.9 after
    Doran Martell moves the acting house on the Iron Throne track, play goes on from its old position
    number; W-22.10 Mace Tyrell killing the last defending unit does not stop the combat; W-22.13 a
    combatant may support either side.
    """

    # W-22.1 / W-15.2: Dark Wings, Dark Words power option gives port income too (S&R) if True.
    dark_wings_port_income: bool = False
    # W-11.1: other houses' Support orders may back a march on a neutral force. The march is legal if
    # the marcher's units, modifier and every eligible Support order reach the token's value; after
    # the others declare, a march that falls short leaves the units where they came from (engine
    # Decision). False: only the marcher's own Support orders count (always enough once legal).
    neutral_force_other_support: bool = True
    # W-22.5 / W-10.6: ships in a port whose land area becomes uncontrolled are destroyed.
    orphan_port_ships_destroyed: bool = True
    # W-22.7 / W-2.1: keep the Lannister port ship with 3 players (S&R drops it).
    three_player_lannister_port_ship: bool = True
    # W-22.11: Arianne Martell defending (and losing) with a Martell power token in the embattled area:
    # the token stays and Martell keeps control (S&R). False: the token is removed (unofficial FAQ).
    arianne_keeps_power_token: bool = True
    # W-22.12 / W-16.8: Massing on the Milkwater discards no card if that would empty the hand. False:
    # the printed card (every highest card goes; an emptied hand takes back the rest of the pile, W-17.2).
    milkwater_keeps_one_card: bool = True
    # W-3.1: number of rounds.
    max_rounds: int = 10
    # W-18.1: castles/strongholds needed for an immediate win.
    castles_to_win: int = 7
    # W-16.4: Night's Watch wins on a tie (>=), the official rule.
    nights_watch_wins_ties: bool = True
    # Keep a human-readable event log in the state (off makes bulk simulation faster).
    event_log: bool = True

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> RulesConfig:
        return cls(**(d or {}))
