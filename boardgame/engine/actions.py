"""Westeros actions: frozen dataclasses with a stable JSON form and a plain-words description.

Every decision a house makes is one of these, offered by `WesterosState.legal_actions` (docs/style.md §3).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from .game import WesterosState


class IllegalActionError(ValueError):
    """An action that is not in `legal_actions` for the current situation (docs/style.md §4)."""


def _name(area: str | None) -> str:
    return "nowhere" if area is None else area.replace("_", " ").title()


# W-1.6: the printed face of each order token ("March +1", "Consolidate Power ★"), for every log line.
ORDER_LABELS: dict[str, str] = {
    "march_minus_one": "March −1",
    "march": "March +0",
    "march_plus_one": "March +1 ★",
    "defense_plus_one": "Defense +1",
    "defense_plus_two": "Defense +2 ★",
    "support": "Support +0",
    "support_plus_one": "Support +1 ★",
    "raid": "Raid",
    "raid_special": "Raid ★",
    "consolidate_power": "Consolidate Power",
    "consolidate_power_special": "Consolidate Power ★",
}


# Menu options whose words name order tokens (Put to the Sword, W-4.5): said with the printed names.
OPTION_WORDS: dict[str, str] = {
    "no_march_plus_one": "no March +1 ★ orders",
    "no_defense_orders": "no Defense orders",
}


def option_words(option: str) -> str:
    """A menu option in words ("no_march_plus_one" → "no March +1 ★ orders", else underscores as spaces)."""
    return OPTION_WORDS.get(option, option.replace("_", " "))


def order_label(token: str) -> str:
    """The printed name of an order token (W-1.6), never its id ("march_plus_one" → "March +1 ★")."""
    return ORDER_LABELS.get(token, token.replace("_", " ").title())


@dataclass(frozen=True)
class Action:
    """Base: every action names the house (player) taking it."""

    player: str
    kind: ClassVar[str] = "action"

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.kind}
        for f in fields(self):
            v = getattr(self, f.name)
            d[f.name] = list(v) if isinstance(v, tuple) else v
        return d

    def describe(self, state: WesterosState | None = None) -> str:
        return f"{self.player} {self.kind}"


@dataclass(frozen=True)
class PlaceOrder(Action):
    """W-5.1: place one order token face down in an area with own units."""

    area: str = ""
    token: str = ""
    kind: ClassVar[str] = "place_order"

    def describe(self, state: WesterosState | None = None) -> str:
        return f"{self.player.title()} places {order_label(self.token)} in {_name(self.area)}"


@dataclass(frozen=True)
class RemoveOrder(Action):
    """W-5.1: take back one's own face-down order from `area` while still placing (before declaring the
    orders complete), to place another there; the token returns to the house's unused tokens."""

    area: str = ""
    kind: ClassVar[str] = "remove_order"

    def describe(self, state: WesterosState | None = None) -> str:
        return f"{self.player.title()} takes back the order in {_name(self.area)}"


@dataclass(frozen=True)
class FinishOrders(Action):
    """W-5.1: declare the orders complete."""

    kind: ClassVar[str] = "finish_orders"

    def describe(self, state: WesterosState | None = None) -> str:
        return f"{self.player.title()} has placed all orders"


@dataclass(frozen=True)
class ReopenOrders(Action):
    """W-5.1 / W-5.4 (engine Decision): a house that declared its orders complete takes that back while
    another house is still placing, to change its face-down orders; it owes the Planning decision again."""

    kind: ClassVar[str] = "reopen_orders"

    def describe(self, state: WesterosState | None = None) -> str:
        return f"{self.player.title()} is changing its orders"


@dataclass(frozen=True)
class RavenSwap(Action):
    """W-5.5(a): replace the order in `area` with the unused token `token`."""

    area: str = ""
    token: str = ""
    kind: ClassVar[str] = "raven_swap"

    def describe(self, state: WesterosState | None = None) -> str:
        return f"{self.player.title()} uses the Messenger Raven to swap the order in {_name(self.area)} for {order_label(self.token)}"


@dataclass(frozen=True)
class ResolveRaid(Action):
    """W-7.2: resolve the Raid in `area`, removing the order in `target` (or none)."""

    area: str = ""
    target: str | None = None
    kind: ClassVar[str] = "resolve_raid"

    def describe(self, state: WesterosState | None = None) -> str:
        if self.target is None:
            return f"{self.player.title()} resolves the Raid in {_name(self.area)} without a target"
        return f"{self.player.title()} raids {_name(self.target)} from {_name(self.area)}"


@dataclass(frozen=True)
class ChooseMarch(Action):
    """W-6.2: pick which March order to resolve now."""

    area: str = ""
    kind: ClassVar[str] = "choose_march"

    def describe(self, state: WesterosState | None = None) -> str:
        return f"{self.player.title()} resolves the March order in {_name(self.area)}"


@dataclass(frozen=True)
class MarchMove(Action):
    """W-7.1.1: move this group of units (unit types) into `dest`."""

    units: tuple[str, ...] = ()
    dest: str = ""
    kind: ClassVar[str] = "march_move"

    def describe(self, state: WesterosState | None = None) -> str:
        return f"{self.player.title()} marches {', '.join(self.units)} into {_name(self.dest)}"


@dataclass(frozen=True)
class EndMarch(Action):
    """W-7.1.5: finish the march, optionally leaving a power token in the vacated area."""

    leave_power_token: bool = False
    kind: ClassVar[str] = "end_march"

    def describe(self, state: WesterosState | None = None) -> str:
        extra = ", leaving a power token behind" if self.leave_power_token else ""
        return f"{self.player.title()} completes the march{extra}"


@dataclass(frozen=True)
class DeclareSupport(Action):
    """W-9.2: support `side` (a combatant house) or "none"."""

    side: str = "none"
    kind: ClassVar[str] = "declare_support"

    def describe(self, state: WesterosState | None = None) -> str:
        if self.side == "none":
            return f"{self.player.title()} supports nobody"
        return f"{self.player.title()} supports {self.side.title()}"


@dataclass(frozen=True)
class PlayHouseCard(Action):
    """W-9.4: secretly choose a house card for this combat."""

    card: str = ""
    kind: ClassVar[str] = "play_house_card"

    def describe(self, state: WesterosState | None = None) -> str:
        return f"{self.player.title()} plays {self.card.replace('_', ' ').title()}"


@dataclass(frozen=True)
class ResolveConsolidate(Action):
    """W-7.5: resolve the Consolidate Power order in `area` (muster=True: ★ mustering)."""

    area: str = ""
    muster: bool = False
    kind: ClassVar[str] = "resolve_consolidate"

    def describe(self, state: WesterosState | None = None) -> str:
        what = "musters with" if self.muster else "consolidates power with"
        return f"{self.player.title()} {what} the order in {_name(self.area)}"


@dataclass(frozen=True)
class Muster(Action):
    """W-13: recruit `unit` (placed in `dest`) or upgrade a footman in `area` to `unit`."""

    area: str = ""
    unit: str = ""
    dest: str = ""
    upgrade: bool = False
    kind: ClassVar[str] = "muster"

    def describe(self, state: WesterosState | None = None) -> str:
        if self.upgrade:
            return f"{self.player.title()} upgrades a footman in {_name(self.area)} to a {self.unit.replace('_', ' ')}"
        return f"{self.player.title()} musters a {self.unit.replace('_', ' ')} from {_name(self.area)} into {_name(self.dest)}"


@dataclass(frozen=True)
class Bid(Action):
    """W-14.2 / W-16.3: secret bid of available power tokens."""

    amount: int = 0
    kind: ClassVar[str] = "bid"

    def describe(self, state: WesterosState | None = None) -> str:
        return f"{self.player.title()} bids {self.amount}"


@dataclass(frozen=True)
class Choose(Action):
    """Any menu decision: `decision` names it, `option` is the pick (see DECISIONS)."""

    decision: str = ""
    option: str = ""
    kind: ClassVar[str] = "choose"

    def describe(self, state: WesterosState | None = None) -> str:
        text = DECISIONS.get(self.decision, self.decision.replace("_", " "))
        return f"{self.player.title()} — {text}: {option_words(self.option).replace(':', ' ')}"


DECISIONS: dict[str, str] = {
    "raven": "Messenger Raven",
    "raven_bury": "top wildling card goes to",
    "throne_of_blades": "A Throne of Blades",
    "dark_wings": "Dark Wings, Dark Words",
    "put_to_the_sword": "Put to the Sword",
    "blade": "Valyrian Steel Blade",
    "tyrion": "Tyrion Lannister",
    "aeron": "Aeron Damphair",
    "doran": "Doran Martell sends the opponent to the bottom of",
    "queen_of_thorns": "Queen of Thorns removes the order in",
    "casualty": "destroys as casualty",
    "retreat": "retreats to",
    "robb_retreat": "Robb Stark sends the loser to",
    "retreat_loss": "destroys to fit supply on retreat",
    "reconcile": "destroys to fit supply",
    "destroy": "destroys own unit",
    "cersei": "Cersei Lannister removes the order in",
    "renly": "Renly Baratheon upgrades a footman in",
    "patchface": "Patchface discards",
    "port_takeover": "ship in the captured port",
    "muster_done": "finishes mustering",
    "tie_order": "Iron Throne holder breaks the tie for",
    "wildling_tie": "Iron Throne holder names the bidder",
    "kbw_reward": "A King Beyond the Wall: position 1 of",
    "kbw_track": "A King Beyond the Wall: bottom of",
    "crow_reward": "Crow Killers: knight replaces a footman in",
    "crow_knight": "Crow Killers: knight replaced in",
    "discard_card": "Massing on the Milkwater discards",
    "mammoth_reward": "Mammoth Riders: takes back",
    "preemptive": "Preemptive Raid penalty",
    "preemptive_track": "Preemptive Raid: drops on",
    "horde_area": "The Horde Descends in",
    "horde_reward": "The Horde Descends: musters in",
}

ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        PlaceOrder,
        RemoveOrder,
        FinishOrders,
        ReopenOrders,
        RavenSwap,
        ResolveRaid,
        ChooseMarch,
        MarchMove,
        EndMarch,
        DeclareSupport,
        PlayHouseCard,
        ResolveConsolidate,
        Muster,
        Bid,
        Choose,
    )
}


def action_from_json(d: dict[str, Any]) -> Action:
    """Inverse of `Action.to_json`; raises ValueError on unknown types or fields."""
    try:
        cls = ACTION_TYPES[d["type"]]
    except (KeyError, TypeError) as exc:
        raise ValueError(f"unknown action {d!r}") from exc
    kwargs = {k: v for k, v in d.items() if k != "type"}
    if "units" in kwargs:
        kwargs["units"] = tuple(kwargs["units"])
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ValueError(f"bad fields for {d['type']}: {exc}") from exc
