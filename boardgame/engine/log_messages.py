"""W-20 The log as messages: an event stored with its English words read back as its message.

The stored log keeps the words it has always kept (`Board.event`: the storage format of every stored game),
so a game stored before the engine spoke in messages and one stored today read the same way. Each key's
placeholders are typed by their names (a house is one capitalised word, an area an id or its printed
name, a number digits, ...); an event's words are matched against every key of the catalogue, the most
specific match wins, and the parameters come back as the tagged references the engine emitted.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .actions import ORDER_LABELS, UNIT_TERMS
from .messages import Msg, area, card, house, listing, msg, nested, term

_HOUSE = r"[A-Z][a-z]+"
_AREA = r"[a-z][a-z0-9_]*|[A-Z][A-Za-z0-9']*(?: [A-Z][A-Za-z0-9']*)*"  # an id, or as printed (Title Case)
_NUM = r"-?\d+"
_TEXT = r".+?"
_HOUSES = r"[a-z]+(?:, [a-z]+)*"
_AMOUNTS = r"[a-z]+ -?\d+(?:, [a-z]+ -?\d+)*"

# What each placeholder name holds (the names the engine's keys use).
KINDS: dict[str, str] = {
    **dict.fromkeys(("house", "player", "owner", "defender", "side", "attacker"), "house"),
    **dict.fromkeys(("area", "dest", "port", "target"), "area"),
    **dict.fromkeys(("n", "got", "need", "total", "strength", "round", "amount", "attack", "defense"), "int"),
    **dict.fromkeys(("order", "old"), "order"),
    **dict.fromkeys(("track", "option", "where", "reason", "unit", "decision"), "term"),
    "deck": "deck",
    "card": "card",
    "cards": "cards",
    "units": "units",
    "houses": "houses",
    "bids": "amounts",
    "levels": "amounts",
    "action": "action",
}
PATTERNS: dict[str, str] = {
    "house": _HOUSE,
    "area": _AREA,
    "int": _NUM,
    "deck": r"\d",
    "order": "|".join(re.escape(x) for x in sorted(ORDER_LABELS.values(), key=len, reverse=True)),
    "term": _TEXT,
    "card": _TEXT,
    "cards": _TEXT,
    "units": _TEXT,
    "houses": _HOUSES,
    "amounts": _AMOUNTS,
    "action": _TEXT,
}


@functools.cache
def engine_keys() -> tuple[str, ...]:
    """Every key of the engine (its `gettext_noop` literals), the most specific (longest words) first."""
    keys: set[str] = set()
    for path in Path(__file__).resolve().parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "gettext_noop":
                if (
                    node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)
                ):
                    keys.add(node.args[0].value)
    return tuple(sorted(keys, key=lambda k: (-len(re.sub(r"%\(\w+\)s", "", k)), k)))


@functools.cache
def _compiled() -> tuple[tuple[str, re.Pattern[str]], ...]:
    out = []
    for key in engine_keys():
        names = re.findall(r"%\((\w+)\)s", key)
        if not names or any(n not in KINDS for n in names) or len(set(names)) != len(names):
            continue
        parts = re.split(r"%\(\w+\)s", key)
        rx = re.escape(parts[0])
        for name, lit in zip(names, parts[1:], strict=True):
            rx += f"(?P<{name}>{PATTERNS[KINDS[name]]})" + re.escape(lit)
        out.append((key, re.compile(rx + r"\Z")))
    return tuple(out)


def _area_id(words: str) -> str:
    return words if words.islower() else words.lower().replace(" ", "_")


def message_of(text: str, card_id: Callable[[str], str] | None = None) -> Msg | None:
    """The message whose English words `text` is (None if no key says it). `card_id` maps a card's
    printed name back to its id (events that name cards as printed)."""
    plain = {k for k in engine_keys() if "%(" not in k}
    if text in plain:
        return Msg(text, {})
    for key, rx in _compiled():
        m = rx.match(text)
        if m is None:
            continue
        params: dict[str, Any] = {}
        ok = True
        for name, value in m.groupdict().items():
            p = _param(KINDS[name], value, card_id)
            if p is None:
                ok = False
                break
            params[name] = p
        if ok:
            return Msg(key, params)
    return None


_LABEL_TERMS = {label: label for label in ORDER_LABELS.values()}


def _param(kind: str, value: str, card_id: Callable[[str], str] | None) -> Any:
    if kind == "house":
        return house(value.lower())
    if kind == "area":
        return area(_area_id(value))
    if kind == "int":
        return int(value)
    if kind == "deck":
        return value
    if kind == "order":
        return term(value)
    if kind == "term":
        return term(UNIT_TERMS.get(value, value))
    if kind == "card":
        return card(card_id(value) if card_id is not None else value)
    if kind == "cards":
        return listing([card(c) for c in value.split(", ")])
    if kind == "units":
        return listing([term(UNIT_TERMS.get(u, u)) for u in value.split(", ")])
    if kind == "houses":
        return listing([house(h) for h in value.split(", ")])
    if kind == "amounts":
        items = [x.rsplit(" ", 1) for x in value.split(", ")]
        return listing([nested(msg("%(house)s %(n)s", house=house(h), n=int(n))) for h, n in items])
    if kind == "action":
        inner = message_of(value, card_id)
        return None if inner is None else nested(inner)
    return None


def event_message(event: Mapping[str, Any], card_names: Mapping[str, str] | None = None) -> Msg | None:
    """The message of a stored log event (`Board.event`); `card_names`: printed name → card id. A card the
    event names in its own fields ("card", "wildling_card") is that one; a Westeros card whose name two
    decks print reads back as the first deck's (the same card: the same name and text)."""
    own = [str(event[k]) for k in ("card", "wildling_card") if isinstance(event.get(k), str)]

    def lookup(name: str) -> str:
        for cid in own:
            if (
                card_names is not None
                and card_names.get(name) is not None
                and cid.split(":")[-1] == card_names[name].split(":")[-1]
            ):
                return cid
        return card_names.get(name, name) if card_names is not None else name

    return message_of(str(event["text"]), lookup)
