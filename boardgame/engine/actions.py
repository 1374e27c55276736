"""Westeros actions: frozen dataclasses with a stable JSON form and a plain-words description.

Every decision a house makes is one of these, offered by `WesterosState.legal_actions` (docs/style.md §3).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar

from .messages import Msg, area, card, gettext_noop, house, listing, msg, nested, term

if TYPE_CHECKING:
    from .game import WesterosState


class IllegalActionError(ValueError):
    """An action that is not in `legal_actions` for the current situation (docs/style.md §4)."""


def _name(area: str | None) -> str:
    return "nowhere" if area is None else area.replace("_", " ").title()


# W-1.6: the printed face of each order token ("March +1", "Consolidate Power ★"), for every log line.
ORDER_LABELS: dict[str, str] = {
    "march_minus_one": gettext_noop("March −1"),
    "march": gettext_noop("March +0"),
    "march_plus_one": gettext_noop("March +1 ★"),
    "defense_plus_one": gettext_noop("Defense +1"),
    "defense_plus_two": gettext_noop("Defense +2 ★"),
    "support": gettext_noop("Support +0"),
    "support_plus_one": gettext_noop("Support +1 ★"),
    "raid": gettext_noop("Raid"),
    "raid_special": gettext_noop("Raid ★"),
    "consolidate_power": gettext_noop("Consolidate Power"),
    "consolidate_power_special": gettext_noop("Consolidate Power ★"),
}


# Menu options whose words name order tokens (Put to the Sword, W-4.5): said with the printed names.
OPTION_WORDS: dict[str, str] = {
    "no_march_plus_one": gettext_noop("no March +1 ★ orders"),
    "no_defense_orders": gettext_noop("no Defense orders"),
}


def option_words(option: str) -> str:
    """A menu option in words ("no_march_plus_one" → "no March +1 ★ orders", else underscores as spaces)."""
    return OPTION_WORDS.get(option, option.replace("_", " "))


def order_label(token: str) -> str:
    """The printed name of an order token (W-1.6), never its id ("march_plus_one" → "March +1 ★")."""
    return ORDER_LABELS.get(token, token.replace("_", " ").title())


def order_term(token: str) -> dict[str, str]:
    """An order token as a message parameter: its printed name, a catalogue term (W-1.6)."""
    return term(order_label(token))


# W-1.6 the units, as terms: by id where the words always showed the id, and in words.
UNIT_TERMS: dict[str, str] = {
    "footman": gettext_noop("footman"),
    "knight": gettext_noop("knight"),
    "ship": gettext_noop("ship"),
    "siege_engine": gettext_noop("siege_engine"),
    "siege engine": gettext_noop("siege engine"),
}


def unit_term(unit: str) -> dict[str, str]:
    return term(UNIT_TERMS.get(unit, unit))


def _card_words(c: str) -> str:
    return c.replace("_", " ").title()


# How an action description names things in English: areas and house cards by their printed words.
DESCRIBE_NAMES = {"area": _name, "card": _card_words}


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

    def message(self, state: WesterosState | None = None) -> Msg:
        """The action in words, as a message (docs/westeros-engine.md, "Messages")."""
        return msg(gettext_noop("%(player)s %(kind)s"), player=self.player, kind=self.kind)

    def describe(self, state: WesterosState | None = None) -> str:
        """The action in English words (`message` rendered)."""
        return self.message(state).english(**DESCRIBE_NAMES)


@dataclass(frozen=True)
class PlaceOrder(Action):
    """W-5.1: place one order token face down in an area with own units."""

    area: str = ""
    token: str = ""
    kind: ClassVar[str] = "place_order"

    def message(self, state: WesterosState | None = None) -> Msg:
        return msg(
            gettext_noop("%(player)s places %(order)s in %(area)s"),
            player=house(self.player),
            order=order_term(self.token),
            area=area(self.area),
        )


@dataclass(frozen=True)
class RemoveOrder(Action):
    """W-5.1: take back one's own face-down order from `area` while still placing (before declaring the
    orders complete), to place another there; the token returns to the house's unused tokens."""

    area: str = ""
    kind: ClassVar[str] = "remove_order"

    def message(self, state: WesterosState | None = None) -> Msg:
        return msg(
            gettext_noop("%(player)s takes back the order in %(area)s"),
            player=house(self.player),
            area=area(self.area),
        )


@dataclass(frozen=True)
class FinishOrders(Action):
    """W-5.1: declare the orders complete."""

    kind: ClassVar[str] = "finish_orders"

    def message(self, state: WesterosState | None = None) -> Msg:
        return msg(gettext_noop("%(player)s has placed all orders"), player=house(self.player))


@dataclass(frozen=True)
class ReopenOrders(Action):
    """W-5.1 / W-5.4 (engine Decision): a house that declared its orders complete takes that back while
    another house is still placing, to change its face-down orders; it owes the Planning decision again."""

    kind: ClassVar[str] = "reopen_orders"

    def message(self, state: WesterosState | None = None) -> Msg:
        return msg(gettext_noop("%(player)s is changing its orders"), player=house(self.player))


@dataclass(frozen=True)
class RavenSwap(Action):
    """W-5.5(a): replace the order in `area` with the unused token `token`."""

    area: str = ""
    token: str = ""
    kind: ClassVar[str] = "raven_swap"

    def message(self, state: WesterosState | None = None) -> Msg:
        return msg(
            gettext_noop("%(player)s uses the Messenger Raven to swap the order in %(area)s for %(order)s"),
            player=house(self.player),
            area=area(self.area),
            order=order_term(self.token),
        )


@dataclass(frozen=True)
class ResolveRaid(Action):
    """W-7.2: resolve the Raid in `area`, removing the order in `target` (or none)."""

    area: str = ""
    target: str | None = None
    kind: ClassVar[str] = "resolve_raid"

    def message(self, state: WesterosState | None = None) -> Msg:
        if self.target is None:
            return msg(
                gettext_noop("%(player)s resolves the Raid in %(area)s without a target"),
                player=house(self.player),
                area=area(self.area),
            )
        return msg(
            gettext_noop("%(player)s raids %(target)s from %(area)s"),
            player=house(self.player),
            target=area(self.target),
            area=area(self.area),
        )


@dataclass(frozen=True)
class ChooseMarch(Action):
    """W-6.2: pick which March order to resolve now."""

    area: str = ""
    kind: ClassVar[str] = "choose_march"

    def message(self, state: WesterosState | None = None) -> Msg:
        return msg(
            gettext_noop("%(player)s resolves the March order in %(area)s"),
            player=house(self.player),
            area=area(self.area),
        )


@dataclass(frozen=True)
class MarchMove(Action):
    """W-7.1.1: move this group of units (unit types) into `dest`."""

    units: tuple[str, ...] = ()
    dest: str = ""
    kind: ClassVar[str] = "march_move"

    def message(self, state: WesterosState | None = None) -> Msg:
        units = listing([unit_term(u) for u in self.units])
        return msg(
            gettext_noop("%(player)s marches %(units)s into %(dest)s"),
            player=house(self.player),
            units=units,
            dest=area(self.dest),
        )


@dataclass(frozen=True)
class EndMarch(Action):
    """W-7.1.5: finish the march, optionally leaving a power token in the vacated area."""

    leave_power_token: bool = False
    kind: ClassVar[str] = "end_march"

    def message(self, state: WesterosState | None = None) -> Msg:
        if self.leave_power_token:
            return msg(
                gettext_noop("%(player)s completes the march, leaving a power token behind"),
                player=house(self.player),
            )
        return msg(gettext_noop("%(player)s completes the march"), player=house(self.player))


@dataclass(frozen=True)
class DeclareSupport(Action):
    """W-9.2: support `side` (a combatant house) or "none"."""

    side: str = "none"
    kind: ClassVar[str] = "declare_support"

    def message(self, state: WesterosState | None = None) -> Msg:
        if self.side == "none":
            return msg(gettext_noop("%(player)s supports nobody"), player=house(self.player))
        return msg(
            gettext_noop("%(player)s supports %(side)s"), player=house(self.player), side=house(self.side)
        )


@dataclass(frozen=True)
class PlayHouseCard(Action):
    """W-9.4: secretly choose a house card for this combat."""

    card: str = ""
    kind: ClassVar[str] = "play_house_card"

    def message(self, state: WesterosState | None = None) -> Msg:
        return msg(gettext_noop("%(player)s plays %(card)s"), player=house(self.player), card=card(self.card))


@dataclass(frozen=True)
class ResolveConsolidate(Action):
    """W-7.5: resolve the Consolidate Power order in `area` (muster=True: ★ mustering)."""

    area: str = ""
    muster: bool = False
    kind: ClassVar[str] = "resolve_consolidate"

    def message(self, state: WesterosState | None = None) -> Msg:
        if self.muster:
            return msg(
                gettext_noop("%(player)s musters with the order in %(area)s"),
                player=house(self.player),
                area=area(self.area),
            )
        return msg(
            gettext_noop("%(player)s consolidates power with the order in %(area)s"),
            player=house(self.player),
            area=area(self.area),
        )


@dataclass(frozen=True)
class Muster(Action):
    """W-13: recruit `unit` (placed in `dest`) or upgrade a footman in `area` to `unit`."""

    area: str = ""
    unit: str = ""
    dest: str = ""
    upgrade: bool = False
    kind: ClassVar[str] = "muster"

    def message(self, state: WesterosState | None = None) -> Msg:
        unit = unit_term(self.unit.replace("_", " "))
        if self.upgrade:
            return msg(
                gettext_noop("%(player)s upgrades a footman in %(area)s to a %(unit)s"),
                player=house(self.player),
                area=area(self.area),
                unit=unit,
            )
        return msg(
            gettext_noop("%(player)s musters a %(unit)s from %(area)s into %(dest)s"),
            player=house(self.player),
            unit=unit,
            area=area(self.area),
            dest=area(self.dest),
        )


@dataclass(frozen=True)
class Bid(Action):
    """W-14.2 / W-16.3: secret bid of available power tokens."""

    amount: int = 0
    kind: ClassVar[str] = "bid"

    def message(self, state: WesterosState | None = None) -> Msg:
        return msg(gettext_noop("%(player)s bids %(amount)s"), player=house(self.player), amount=self.amount)


@dataclass(frozen=True)
class Choose(Action):
    """Any menu decision: `decision` names it, `option` is the pick (see DECISIONS)."""

    decision: str = ""
    option: str = ""
    kind: ClassVar[str] = "choose"

    def message(self, state: WesterosState | None = None) -> Msg:
        return msg(
            gettext_noop("%(player)s — %(decision)s: %(option)s"),
            player=house(self.player),
            decision=term(decision_words(self.decision)),
            option=option_param(state, self.option),
        )

    def describe(self, state: WesterosState | None = None) -> str:
        # The option in the words the log has always used (ids with spaces), whatever it names.
        words = option_words(self.option).replace(":", " ")
        legacy = {"player": self.player.title(), "decision": decision_words(self.decision), "option": words}
        return self.message(state).key % legacy


# W-20: what others read of a secret decision (the order placed face down, the bid, the chosen card).
SECRET_WORDS: dict[str, str] = {
    "place_order": gettext_noop("%(player)s places an order face down."),
    "raven_swap": gettext_noop("%(player)s uses the Messenger Raven."),
    "bid": gettext_noop("%(player)s makes a secret bid."),
    "play_house_card": gettext_noop("%(player)s chooses a house card."),
}


def secret_message(a: Action) -> Msg:
    """The action as a house that may not see its content reads it (W-20)."""
    key = SECRET_WORDS.get(a.kind) or gettext_noop("%(player)s makes a secret choice.")
    return msg(key, player=house(a.player))


def decision_words(decision: str) -> str:
    return DECISIONS.get(decision, decision.replace("_", " "))


def option_param(state: WesterosState | None, option: str) -> Any:
    """A menu option as a message parameter: the area, house, card or unit it names, else its words."""
    if ":" in option:  # "area:unit", a unit to destroy (W-12, W-16)
        where, unit = option.split(":", 1)
        return nested(
            msg(
                gettext_noop("%(unit)s in %(area)s"), unit=unit_term(unit.replace("_", " ")), area=area(where)
            )
        )
    if state is not None:
        if option in state.data.areas:
            return area(option)
        if option in state.houses:
            return house(option)
        if option in state.data.house_cards:
            return card(option)
    if option in UNIT_TERMS:
        return unit_term(option.replace("_", " "))
    for words in (TRACK_WORDS, CARD_OPTION_WORDS, WHERE_WORDS, MENU_WORDS):
        if option in words:
            return term(words[option])
    return term(option_words(option))


# W-14: the influence tracks, as menu options name them and as the track results name them.
TRACK_WORDS: dict[str, str] = {
    "iron_throne": gettext_noop("iron throne"),
    "fiefdoms": gettext_noop("fiefdoms"),
    "kings_court": gettext_noop("kings court"),
}
TRACK_NAMES: dict[str, str] = {
    "iron_throne": gettext_noop("Iron Throne"),
    "fiefdoms": gettext_noop("Fiefdoms"),
    "kings_court": gettext_noop("Kings Court"),
}


def track_term(track: str) -> dict[str, str]:
    return term(TRACK_WORDS.get(track, track.replace("_", " ")))


# The options of the Westeros cards that offer a choice (W-15) and of the Messenger Raven (W-5.5).
CARD_OPTION_WORDS: dict[str, str] = {
    "supply": gettext_noop("supply"),
    "mustering": gettext_noop("mustering"),
    "nothing": gettext_noop("nothing"),
    "clash_of_kings": gettext_noop("clash of kings"),
    "collect_power": gettext_noop("collect power"),
    "no_restriction": gettext_noop("no restriction"),
    **OPTION_WORDS,
}
WHERE_WORDS: dict[str, str] = {"top": gettext_noop("top"), "bottom": gettext_noop("bottom")}
# The other menus' options (W-5.5, W-9, W-11, W-16, W-17).
MENU_WORDS: dict[str, str] = {
    "pass": gettext_noop("pass"),
    "look": gettext_noop("look"),
    "use": gettext_noop("use"),
    "cancel": gettext_noop("cancel"),
    "keep": gettext_noop("keep"),
    "swap": gettext_noop("swap"),
    "none": gettext_noop("none"),
    "done": gettext_noop("done"),
    "replace": gettext_noop("replace"),
    "destroy": gettext_noop("destroy"),
    "destroy_units": gettext_noop("destroy units"),
    "drop_tracks": gettext_noop("drop tracks"),
}


def house_amount(h: str, n: int) -> dict[str, Msg]:
    """ "stark 3" in a list of bids or supply levels."""
    return nested(msg(gettext_noop("%(house)s %(n)s"), house=house(h), n=n))


DECISIONS: dict[str, str] = {
    "raven": gettext_noop("Messenger Raven"),
    "raven_bury": gettext_noop("top wildling card goes to"),
    "throne_of_blades": gettext_noop("A Throne of Blades"),
    "dark_wings": gettext_noop("Dark Wings, Dark Words"),
    "put_to_the_sword": gettext_noop("Put to the Sword"),
    "blade": gettext_noop("Valyrian Steel Blade"),
    "tyrion": gettext_noop("Tyrion Lannister"),
    "aeron": gettext_noop("Aeron Damphair"),
    "doran": gettext_noop("Doran Martell sends the opponent to the bottom of"),
    "queen_of_thorns": gettext_noop("Queen of Thorns removes the order in"),
    "casualty": gettext_noop("destroys as casualty"),
    "retreat": gettext_noop("retreats to"),
    "robb_retreat": gettext_noop("Robb Stark sends the loser to"),
    "retreat_loss": gettext_noop("destroys to fit supply on retreat"),
    "reconcile": gettext_noop("destroys to fit supply"),
    "destroy": gettext_noop("destroys own unit"),
    "cersei": gettext_noop("Cersei Lannister removes the order in"),
    "renly": gettext_noop("Renly Baratheon upgrades a footman in"),
    "patchface": gettext_noop("Patchface discards"),
    "port_takeover": gettext_noop("ship in the captured port"),
    "muster_done": gettext_noop("finishes mustering"),
    "tie_order": gettext_noop("Iron Throne holder breaks the tie for"),
    "wildling_tie": gettext_noop("Iron Throne holder names the bidder"),
    "kbw_reward": gettext_noop("A King Beyond the Wall: position 1 of"),
    "kbw_track": gettext_noop("A King Beyond the Wall: bottom of"),
    "crow_reward": gettext_noop("Crow Killers: knight replaces a footman in"),
    "crow_knight": gettext_noop("Crow Killers: knight replaced in"),
    "discard_card": gettext_noop("Massing on the Milkwater discards"),
    "mammoth_reward": gettext_noop("Mammoth Riders: takes back"),
    "preemptive": gettext_noop("Preemptive Raid penalty"),
    "preemptive_track": gettext_noop("Preemptive Raid: drops on"),
    "horde_area": gettext_noop("The Horde Descends in"),
    "horde_reward": gettext_noop("The Horde Descends: musters in"),
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
