"""What an action caused, in plain words per viewer: damage, defeats, heals, draws, CP and Energy, abilities.

Built only from the events of one log entry as ``player`` may see them (``views.events_view``, the
engine's one filter for secret events, C-8): a drawn card is named only to its owner, a card put on the
bottom of the deck is never named to the other player. Each consequence is a JSON object:
``{"text", "kind", "square": [row, col] | None, "amount": int | None}`` with ``row`` the rank minus one
and ``col`` the file index (a1 = [0, 0], squares named from the first player's seat, C-2.1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import views
from .actions import ChooseCard, Deploy, Move, PlayEvent, square_name
from .config import FILES

if TYPE_CHECKING:
    from .state import GameState

# The ability's trigger as players call it (C-7 keywords by name; the others by when they happen).
TRIGGER_WORDS = {
    "deploying": "Deploying",
    "casting": "Casting",
    "spoil": "Spoil",
    "marking": "Marking",
    "formation": "Formation",
    "start_of_turn": "start-of-turn",
    "start_of_planning": "start-of-Planning",
    "start_of_defending": "start-of-Defending",
    "on_attack": "on-attack",
    "on_defeated": "when-defeated",
    "planning_activated": "activated",
    "defending_activated": "activated",
    "on_play": "event",
}
# Events the action's own line already says (or that say nothing to a player).
SILENT = frozenset({"keep", "bottom", "outcome"})
CHOSEN = frozenset({"pay_energy", "retire_energy", "energy", "discard"})


def square_of(name: Any) -> list[int] | None:
    """'c3' -> [2, 2] ([rank - 1, file index]); None for anything else."""
    if not isinstance(name, str) or len(name) != 2 or name[0] not in FILES or not name[1].isdigit():
        return None
    return [int(name[1]) - 1, FILES.index(name[0])]


def _item(text: str, kind: str, square: Any = None, amount: int | None = None) -> dict[str, Any]:
    return {"text": text, "kind": kind, "square": square_of(square), "amount": amount}


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _effect_words(text: str) -> str:
    """What an ability does, from its card text: "Deploying: when this unit enters the battlefield, deal
    1000 damage …" -> "deal 1000 damage …" (the keyword and its timing clause are named already)."""
    what = text.split(":", 1)[1].strip() if ":" in text else text.strip()
    head, sep, rest = what.partition(", ")
    if sep and head.lower().startswith(("when ", "whenever ", "at the start ", "at the end ")):
        what = rest
    return what


def squares_before(g: GameState) -> dict[int, str]:
    """Where each unit stands now (taken before an action: a unit it removes has no square after)."""
    return {uid: square_name(u.sq) for uid, u in g.units.items()}


def consequences(
    g: GameState, player: int | None, before: dict[int, str] | None = None
) -> list[dict[str, Any]]:
    """The consequences of the last logged action as ``player`` may see them (None = spectator).

    ``before``: ``squares_before`` of the state the action was applied to (squares of units it took
    off the battlefield); without it such consequences have no square.
    """
    if not g.log or g.log[-1].get("action") is None:
        return []
    entry = g.log[-1]
    action = entry["action"]
    where: dict[int, str] = dict(before or {})
    out: list[dict[str, Any]] = []

    def name(ref: Any) -> str:
        return str(ref["card"]) if isinstance(ref, dict) else "a card"

    def cid(ref: Any) -> int | None:
        return int(ref["id"]) if isinstance(ref, dict) else None

    def square(ref: Any) -> str | None:
        c = cid(ref)
        if c is None:
            return None
        u = g.units.get(c)
        return where.get(c) or (square_name(u.sq) if u is not None else None)

    def who(p: Any) -> str:
        return f"Player {int(p) + 1}"

    for ev in views.events_view(g, entry["events"], player):
        kind = ev.get("type")
        card = ev.get("card")
        if kind in SILENT:
            continue
        if isinstance(action, ChooseCard) and kind in CHOSEN and action.card == cid(card):
            continue  # the chosen card's move is the action's own line ("Pay … for …", "Discard …")
        if kind == "deploy":
            c = cid(card)
            if c is not None:
                where[c] = ev["square"]
            if isinstance(action, Deploy) and action.card == c and square_name(action.square) == ev["square"]:
                continue
            out.append(_item(f"{name(card)} enters the battlefield at {ev['square']}.", "zone", ev["square"]))
        elif kind == "move":
            c = cid(card)
            if c is not None:
                where[c] = ev["to"]
            if isinstance(action, Move) and action.unit == c:
                continue
            out.append(_item(f"{name(card)} moves from {ev['frm']} to {ev['to']}.", "zone", ev["to"]))
        elif kind == "trigger":
            source = cid(card)
            d = g.defs.get(source) if source is not None else None
            ability = d.abilities[ev["ability"]] if d is not None and ev["ability"] < len(d.abilities) else {}
            label = TRIGGER_WORDS.get(str(ability.get("trigger", "")), "triggered")
            text = str(ability.get("text") or "")
            what = _effect_words(text)
            words = f"{name(card)}'s {label} ability"
            out.append(_item(f"{words}: {what}" if what else f"{words} resolves.", "ability", square(card)))
        elif kind == "damage":
            by = f" from {g.card_name(ev['source'])}" if isinstance(ev.get("source"), int) else ""
            out.append(
                _item(f"{name(card)} takes {ev['amount']} damage{by}.", "damage", square(card), ev["amount"])
            )
        elif kind == "attack":
            target = ev.get("target")
            out.append(
                _item(f"{name(target)} takes {ev['damage']} damage.", "damage", square(target), ev["damage"])
            )
        elif kind == "strike_back":
            target = ev.get("target")
            out.append(
                _item(
                    f"{name(card)} strikes back: {name(target)} takes {ev['damage']} damage.",
                    "damage",
                    square(target),
                    ev["damage"],
                )  # fmt: skip
            )
        elif kind == "defeated":
            c = cid(card)
            if c is not None:
                where[c] = ev["square"]
            out.append(
                _item(
                    f"{name(card)} is defeated (to {who(ev['player'])}'s Defeated zone).",
                    "defeat",
                    ev["square"],
                )
            )
        elif kind == "heal":
            out.append(
                _item(f"{name(card)} heals {ev['amount']} damage.", "heal", square(card), ev["amount"])
            )
        elif kind == "modify":
            stat = "Power" if ev["stat"] == "power" else "Health"
            until = "permanently" if ev.get("duration") == "permanent" else "until end of turn"
            out.append(
                _item(
                    f"{name(card)} gets {_signed(ev['amount'])} {stat} {until}.",
                    "modify",
                    square(card),
                    ev["amount"],
                )
            )
        elif kind == "grant_range_attack":
            out.append(_item(f"{name(card)} gains Range Attack.", "modify", square(card)))
        elif kind in ("return_to_hand", "removed"):
            c = cid(card)
            owner = who(g.owners[c]) if c is not None else "its owner"
            text = f"{name(card)} returns to {owner}'s hand." if kind == "return_to_hand" else (
                f"{name(card)} is removed from the game.")  # fmt: skip
            out.append(_item(text, "zone", where.get(c) if c is not None else None))
        elif kind == "draw":
            cards = ev.get("cards")
            if isinstance(cards, list):  # the owner (the engine's filter keeps the names to them)
                n = len(cards)
                text = f"{who(ev['player'])} draws {', '.join(name(c) for c in cards)}."
            else:
                n = int(ev.get("count", 1))
                text = f"{who(ev['player'])} draws {'a card' if n == 1 else f'{n} cards'}."
            out.append(_item(text, "draw", None, n))
        elif kind == "cp":
            n = int(ev["amount"])
            verb = "gains" if n >= 0 else "loses"
            out.append(_item(f"{who(ev['player'])} {verb} {abs(n)} CP.", "cp", None, n))
        elif kind == "energy":
            out.append(_item(f"{name(card)} goes into {who(ev['player'])}'s Energy zone.", "energy", None, 1))
        elif kind == "pay_energy":
            out.append(
                _item(f"{who(ev['player'])} pays {name(card)} from Energy (to Retired).", "energy", None, -1)
            )
        elif kind == "retire_energy":
            out.append(_item(f"{who(ev['player'])} retires {name(card)} from Energy.", "energy", None, -1))
        elif kind == "discard":
            out.append(_item(f"{who(ev['player'])} discards {name(card)}.", "zone"))
        elif kind == "event":
            if isinstance(action, PlayEvent) and action.card == cid(card):
                continue
            out.append(_item(f"{who(ev['player'])} plays {name(card)}.", "zone"))
        elif kind == "reveal":
            out.append(_item(f"{who(ev['player'])} reveals {name(card)} as Commander.", "zone"))
        elif kind == "first_player":
            out.append(_item(f"{who(ev['player'])} goes first.", "turn"))
        elif kind == "turn":
            out.append(_item(f"Turn {ev['turn']}: {who(ev['player'])}'s turn begins.", "turn"))
    return out
