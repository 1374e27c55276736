"""Game text as messages: a key (the English template with named %-placeholders) plus parameters.

The engine never builds a finished sentence for a reader: it says what happened, what an action does, why
an action is illegal or how a match ended as a ``Msg``; the play layer renders it in each viewer's language
from the catalogue in ``matches/engine/locale`` (docs/commandeer-engine.md, "Messages"). ``english()``
renders the English text (logs, tests, the CLI, and the texts the play layer still sends).

Parameters are JSON values: numbers and strings that need no translation (square names "c3", a player's
number), or tagged references rendered per language: ``{"card": "<English card name>"}``,
``{"term": "<a gettext_noop'd English term>"}``, ``{"msg": <nested message JSON>}``, ``{"list": [...]}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def gettext_noop(s: str) -> str:
    """Marks ``s`` for the catalogue (the name Django's makemessages extracts) and returns it unchanged."""
    return s


# Terms a message names as {"term": …}: directions (C-1.2), phases (C-5), choices, ability timings, stats.
TERMS: tuple[str, ...] = (
    gettext_noop("N"),
    gettext_noop("NE"),
    gettext_noop("E"),
    gettext_noop("SE"),
    gettext_noop("S"),
    gettext_noop("SW"),
    gettext_noop("W"),
    gettext_noop("NW"),
    gettext_noop("Setup"),
    gettext_noop("Planning"),
    gettext_noop("Defending"),
    gettext_noop("Combat"),
    gettext_noop("End"),
    gettext_noop("Deploying"),
    gettext_noop("Casting"),
    gettext_noop("Spoil"),
    gettext_noop("Marking"),
    gettext_noop("Formation"),
    gettext_noop("start-of-turn"),
    gettext_noop("start-of-Planning"),
    gettext_noop("start-of-Defending"),
    gettext_noop("on-attack"),
    gettext_noop("when-defeated"),
    gettext_noop("activated"),
    gettext_noop("event"),
    gettext_noop("triggered"),
    gettext_noop("Power"),
    gettext_noop("Health"),
    gettext_noop("hand"),
    gettext_noop("deck"),
    gettext_noop("energy"),
    gettext_noop("retired"),
    gettext_noop("defeated"),
    gettext_noop("removed"),
    gettext_noop("commander"),
    gettext_noop("bottom"),
    gettext_noop("pay_energy"),
    gettext_noop("reinforce_energy"),
    gettext_noop("discard"),
    gettext_noop("retire_energy"),
    gettext_noop("target"),
    gettext_noop("move_square"),
    gettext_noop("order"),
    gettext_noop("mulligan"),
    gettext_noop("none"),
    gettext_noop("planning"),
    gettext_noop("defensive"),
    gettext_noop("ongoing"),
    gettext_noop("choose_commander"),
    gettext_noop("keep"),
    gettext_noop("choose_card"),
    gettext_noop("deploy"),
    gettext_noop("play_event"),
    gettext_noop("move"),
    gettext_noop("reinforce"),
    gettext_noop("activate"),
    gettext_noop("attack"),
    gettext_noop("choose_target"),
    gettext_noop("choose_square"),
    gettext_noop("choose_trigger"),
    gettext_noop("pass"),
    gettext_noop("concede"),
)
_TERMS = frozenset(TERMS)


@dataclass(frozen=True, slots=True)
class Msg:
    """A message: ``key`` is the English template (``gettext_noop``'d), ``params`` its JSON parameters."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "params": dict(self.params)}

    @classmethod
    def from_json(cls, data: Any) -> Msg:
        """Inverse of ``to_json``; raises ValueError for anything that is not a message."""
        if not isinstance(data, dict) or not isinstance(data.get("key"), str):
            raise ValueError("a message must be a JSON object with a string 'key'")
        params = data.get("params", {})
        if not isinstance(params, dict):
            raise ValueError("a message's 'params' must be a JSON object")
        return cls(data["key"], dict(params))

    def english(self) -> str:
        """The message in English: the key with every parameter rendered."""
        if not self.params:
            return self.key
        return self.key % {name: english_param(value) for name, value in self.params.items()}


def english_param(value: Any) -> str:
    """A parameter as English text (tagged references by their English names)."""
    if isinstance(value, dict):
        if "ability" in value:
            return str(value.get("text", ""))
        if "card" in value:
            return str(value["card"])
        if "term" in value:
            return str(value["term"])
        if "msg" in value:
            return Msg.from_json(value["msg"]).english()
        if "list" in value:
            return ", ".join(english_param(v) for v in value["list"])
    return str(value)


def card(name: str) -> dict[str, str]:
    """A card named by its English name (the play layer shows the viewer's translation)."""
    return {"card": name}


def ability(card_name: str, index: int, text: str) -> dict[str, Any]:
    """What ability ``index`` of card ``card_name`` (its English name) does, as ``text`` words it in English;
    the play layer words it in the reader's language from the card's ability data (C-1.5)."""
    return {"ability": {"card": card_name, "index": index}, "text": text}


def term(word: str) -> dict[str, str]:
    """A glossary term; ``word`` must be one of ``TERMS`` (so the catalogue has it)."""
    if word not in _TERMS:
        raise ValueError(f"not a message term: {word!r}")
    return {"term": word}


def nested(msg: Msg) -> dict[str, Any]:
    """A message inside a message."""
    return {"msg": msg.to_json()}


def listing(items: list[Any]) -> dict[str, Any]:
    """A list of parameters, rendered joined ("a, b, c" in English)."""
    return {"list": list(items)}


def msg(key: str, **params: Any) -> Msg:
    """``Msg(key, params)``; ``key`` must be a ``gettext_noop``'d literal at the call site."""
    return Msg(key, params)
