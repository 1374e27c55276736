"""What an action caused, in plain words per viewer: damage, defeats, heals, draws, CP and Energy, abilities.

Built only from the events of one log entry as ``player`` may see them (``views.events_view``, the
engine's one filter for secret events, C-8): a drawn card is named only to its owner, a card put on the
bottom of the deck is never named to the other player. Each consequence is a JSON object:
``{"text", "message", "kind", "square": [row, col] | None, "amount": int | None}`` (``message``: the
JSON of a ``Msg``, ``text`` its English) with ``row`` the rank minus one
and ``col`` the file index (a1 = [0, 0], squares named from the first player's seat, C-2.1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import views
from .actions import ChooseCard, Deploy, Move, PlayEvent, square_name
from .config import FILES
from .messages import Msg, ability, card, gettext_noop, listing, msg, nested, term

if TYPE_CHECKING:
    from .state import GameState

# The ability's trigger as players call it (C-7 keywords by name; the others by when they happen): terms.
TRIGGER_WORDS = {
    "deploying": gettext_noop("Deploying"),
    "casting": gettext_noop("Casting"),
    "spoil": gettext_noop("Spoil"),
    "marking": gettext_noop("Marking"),
    "formation": gettext_noop("Formation"),
    "start_of_turn": gettext_noop("start-of-turn"),
    "start_of_planning": gettext_noop("start-of-Planning"),
    "start_of_defending": gettext_noop("start-of-Defending"),
    "on_attack": gettext_noop("on-attack"),
    "on_defeated": gettext_noop("when-defeated"),
    "planning_activated": gettext_noop("activated"),
    "defending_activated": gettext_noop("activated"),
    "on_play": gettext_noop("event"),
}
# Events the action's own line already says (or that say nothing to a player).
SILENT = frozenset({"keep", "bottom", "outcome"})
CHOSEN = frozenset({"pay_energy", "retire_energy", "energy", "discard"})


def square_of(name: Any) -> list[int] | None:
    """'c3' -> [2, 2] ([rank - 1, file index]); None for anything else."""
    if not isinstance(name, str) or len(name) != 2 or name[0] not in FILES or not name[1].isdigit():
        return None
    return [int(name[1]) - 1, FILES.index(name[0])]


def _item(m: Msg, kind: str, square: Any = None, amount: int | None = None) -> dict[str, Any]:
    return {
        "text": m.english(),
        "message": m.to_json(),
        "kind": kind,
        "square": square_of(square),
        "amount": amount,
    }


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

    def name(ref: Any) -> dict[str, Any]:
        return card(str(ref["card"])) if isinstance(ref, dict) else nested(Msg(gettext_noop("a card")))

    def cid(ref: Any) -> int | None:
        return int(ref["id"]) if isinstance(ref, dict) else None

    def square(ref: Any) -> str | None:
        c = cid(ref)
        if c is None:
            return None
        u = g.units.get(c)
        return where.get(c) or (square_name(u.sq) if u is not None else None)

    def who(p: Any) -> int:
        return int(p) + 1

    for ev in views.events_view(g, entry["events"], player):
        kind = ev.get("type")
        ref = ev.get("card")
        if kind in SILENT:
            continue
        if isinstance(action, ChooseCard) and kind in CHOSEN and action.card == cid(ref):
            continue  # the chosen card's move is the action's own line ("Pay … for …", "Discard …")
        if kind == "deploy":
            c = cid(ref)
            if c is not None:
                where[c] = ev["square"]
            if isinstance(action, Deploy) and action.card == c and square_name(action.square) == ev["square"]:
                continue
            m = msg(
                gettext_noop("%(card)s enters the battlefield at %(square)s."),
                card=name(ref),
                square=ev["square"],
            )
            out.append(_item(m, "zone", ev["square"]))
        elif kind == "move":
            c = cid(ref)
            if c is not None:
                where[c] = ev["to"]
            if isinstance(action, Move) and action.unit == c:
                continue
            m = msg(
                gettext_noop("%(card)s moves from %(from)s to %(to)s."),
                card=name(ref),
                to=ev["to"],
                **{"from": ev["frm"]},
            )
            out.append(_item(m, "zone", ev["to"]))
        elif kind == "trigger":
            source = cid(ref)
            d = g.defs.get(source) if source is not None else None
            index = int(ev["ability"])
            data = d.abilities[index] if d is not None and index < len(d.abilities) else {}
            label = term(TRIGGER_WORDS.get(str(data.get("trigger", "")), gettext_noop("triggered")))
            what = _effect_words(str(data.get("text") or ""))
            if what and d is not None:  # the card's own text, as printed
                m = msg(
                    gettext_noop("%(card)s's %(timing)s ability: %(effect)s"),
                    card=name(ref),
                    timing=label,
                    effect=ability(d.name, index, what),
                )
            else:
                m = msg(gettext_noop("%(card)s's %(timing)s ability resolves."), card=name(ref), timing=label)
            out.append(_item(m, "ability", square(ref)))
        elif kind == "damage":
            if isinstance(ev.get("source"), int):
                m = msg(
                    gettext_noop("%(card)s takes %(amount)s damage from %(source)s."),
                    card=name(ref),
                    amount=ev["amount"],
                    source=card(g.card_name(ev["source"])),
                )
            else:
                m = msg(
                    gettext_noop("%(card)s takes %(amount)s damage."), card=name(ref), amount=ev["amount"]
                )
            out.append(_item(m, "damage", square(ref), ev["amount"]))
        elif kind == "attack":
            target = ev.get("target")
            m = msg(gettext_noop("%(card)s takes %(amount)s damage."), card=name(target), amount=ev["damage"])
            out.append(_item(m, "damage", square(target), ev["damage"]))
        elif kind == "strike_back":
            target = ev.get("target")
            m = msg(
                gettext_noop("%(card)s strikes back: %(target)s takes %(amount)s damage."),
                card=name(ref),
                target=name(target),
                amount=ev["damage"],
            )
            out.append(_item(m, "damage", square(target), ev["damage"]))
        elif kind == "defeated":
            c = cid(ref)
            if c is not None:
                where[c] = ev["square"]
            m = msg(
                gettext_noop("%(card)s is defeated (to Player %(player)s's Defeated zone)."),
                card=name(ref),
                player=who(ev["player"]),
            )
            out.append(_item(m, "defeat", ev["square"]))
        elif kind == "heal":
            m = msg(gettext_noop("%(card)s heals %(amount)s damage."), card=name(ref), amount=ev["amount"])
            out.append(_item(m, "heal", square(ref), ev["amount"]))
        elif kind == "modify":
            stat = term("Power" if ev["stat"] == "power" else "Health")
            if ev.get("duration") == "permanent":
                key = gettext_noop("%(card)s gets %(amount)s %(stat)s permanently.")
            else:
                key = gettext_noop("%(card)s gets %(amount)s %(stat)s until end of turn.")
            m = msg(key, card=name(ref), amount=_signed(ev["amount"]), stat=stat)
            out.append(_item(m, "modify", square(ref), ev["amount"]))
        elif kind == "grant_range_attack":
            out.append(
                _item(
                    msg(gettext_noop("%(card)s gains Range Attack."), card=name(ref)), "modify", square(ref)
                )
            )
        elif kind in ("return_to_hand", "removed"):
            c = cid(ref)
            if kind == "removed":
                m = msg(gettext_noop("%(card)s is removed from the game."), card=name(ref))
            elif c is not None:
                m = msg(
                    gettext_noop("%(card)s returns to Player %(player)s's hand."),
                    card=name(ref),
                    player=who(g.owners[c]),
                )
            else:
                m = msg(gettext_noop("%(card)s returns to its owner's hand."), card=name(ref))
            out.append(_item(m, "zone", where.get(c) if c is not None else None))
        elif kind == "draw":
            cards = ev.get("cards")
            if isinstance(cards, list):  # the owner (the engine's filter keeps the names to them)
                n = len(cards)
                m = msg(
                    gettext_noop("Player %(player)s draws %(cards)s."),
                    player=who(ev["player"]),
                    cards=listing([name(c) for c in cards]),
                )
            else:
                n = int(ev.get("count", 1))
                if n == 1:
                    m = msg(gettext_noop("Player %(player)s draws a card."), player=who(ev["player"]))
                else:
                    m = msg(
                        gettext_noop("Player %(player)s draws %(count)s cards."),
                        player=who(ev["player"]),
                        count=n,
                    )
            out.append(_item(m, "draw", None, n))
        elif kind == "cp":
            n = int(ev["amount"])
            if n >= 0:
                m = msg(
                    gettext_noop("Player %(player)s gains %(amount)s CP."), player=who(ev["player"]), amount=n
                )
            else:
                m = msg(
                    gettext_noop("Player %(player)s loses %(amount)s CP."),
                    player=who(ev["player"]),
                    amount=-n,
                )
            out.append(_item(m, "cp", None, n))
        elif kind == "energy":
            m = msg(
                gettext_noop("%(card)s goes into Player %(player)s's Energy zone."),
                card=name(ref),
                player=who(ev["player"]),
            )
            out.append(_item(m, "energy", None, 1))
        elif kind == "pay_energy":
            m = msg(
                gettext_noop("Player %(player)s pays %(card)s from Energy (to Retired)."),
                player=who(ev["player"]),
                card=name(ref),
            )
            out.append(_item(m, "energy", None, -1))
        elif kind == "retire_energy":
            m = msg(
                gettext_noop("Player %(player)s retires %(card)s from Energy."),
                player=who(ev["player"]),
                card=name(ref),
            )
            out.append(_item(m, "energy", None, -1))
        elif kind == "discard":
            m = msg(
                gettext_noop("Player %(player)s discards %(card)s."), player=who(ev["player"]), card=name(ref)
            )
            out.append(_item(m, "zone"))
        elif kind == "event":
            if isinstance(action, PlayEvent) and action.card == cid(ref):
                continue
            m = msg(
                gettext_noop("Player %(player)s plays %(card)s."), player=who(ev["player"]), card=name(ref)
            )
            out.append(_item(m, "zone"))
        elif kind == "reveal":
            m = msg(
                gettext_noop("Player %(player)s reveals %(card)s as Commander."),
                player=who(ev["player"]),
                card=name(ref),
            )
            out.append(_item(m, "zone"))
        elif kind == "first_player":
            out.append(
                _item(msg(gettext_noop("Player %(player)s goes first."), player=who(ev["player"])), "turn")
            )
        elif kind == "turn":
            m = msg(
                gettext_noop("Turn %(turn)s: Player %(player)s's turn begins."),
                turn=ev["turn"],
                player=who(ev["player"]),
            )
            out.append(_item(m, "turn"))
    return out
