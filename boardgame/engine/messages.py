"""Game text as a key plus parameters: the engine never writes a finished sentence for a reader.

A `Msg` names its English template (the key, extracted for the catalogue by Django's makemessages through
`gettext_noop`) and its parameters: numbers, plain strings, or tagged references the play layer names in
the reader's language — `{"area": id}`, `{"house": id}`, `{"card": id}` (a house, Westeros or wildling
card), `{"term": english}` (a `gettext_noop`'d word: an order token's printed face, a track, a unit),
`{"msg": {...}}` (a nested message), `{"list": [...]}`. `english()` renders it in English for the log the
state stores, tests and the CLI (docs/westeros-engine.md, "Messages").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

TAGS = ("area", "house", "card", "term", "msg", "list")


def gettext_noop(s: str) -> str:
    """Marks `s` for the catalogue (the name makemessages extracts by default); returns it unchanged."""
    return s


Namer = Callable[[str], str]


def _house(h: str) -> str:
    return h.title()


def _plain(v: str) -> str:
    return v


@dataclass(frozen=True)
class Msg:
    """One game text: `key` is the English template with named %-placeholders, `params` fill them."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "params": {k: _param_json(v) for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Msg:
        return cls(
            str(d["key"]), {str(k): _param_from_json(v) for k, v in dict(d.get("params") or {}).items()}
        )

    def english(self, **namers: Namer) -> str:
        """The English sentence. Tagged parameters are named by `namers[tag]` when given, else houses
        title-cased and areas, cards and terms as they are written (the form the stored log keeps)."""
        return self.key % {k: _english(v, namers) for k, v in self.params.items()}


def _param_json(v: Any) -> Any:
    if isinstance(v, Msg):
        return {"msg": v.to_json()}
    if isinstance(v, dict) and "list" in v:
        return {"list": [_param_json(x) for x in v["list"]]}
    if isinstance(v, dict) and "msg" in v and isinstance(v["msg"], Msg):
        return {"msg": v["msg"].to_json()}
    return v


def _param_from_json(v: Any) -> Any:
    if isinstance(v, dict) and "msg" in v:
        return {"msg": Msg.from_json(v["msg"])}
    if isinstance(v, dict) and "list" in v:
        return {"list": [_param_from_json(x) for x in v["list"]]}
    return v


def _english(v: Any, namers: Mapping[str, Namer]) -> Any:
    if isinstance(v, Msg):
        return v.english(**namers)
    if not isinstance(v, dict):
        return v
    if "msg" in v:
        m = v["msg"]
        return (m if isinstance(m, Msg) else Msg.from_json(m)).english(**namers)
    if "list" in v:
        return ", ".join(str(_english(x, namers)) for x in v["list"])
    for tag in ("house", "area", "card", "term"):
        if tag in v:
            default = _house if tag == "house" else _plain
            return namers.get(tag, default)(str(v[tag]))
    raise ValueError(f"not a message parameter: {v!r}")


def area(a: str) -> dict[str, str]:
    return {"area": a}


def house(h: str) -> dict[str, str]:
    return {"house": h}


def card(c: str) -> dict[str, str]:
    return {"card": c}


def term(t: str) -> dict[str, str]:
    return {"term": t}


def listing(items: list[Any]) -> dict[str, list[Any]]:
    return {"list": items}


def nested(m: Msg) -> dict[str, Msg]:
    return {"msg": m}


def params_of(key: str) -> set[str]:
    """The placeholder names of a key ("%(house)s wins" → {"house"})."""
    import re

    return set(re.findall(r"%\((\w+)\)", key))


def msg(key: str, **params: Any) -> Msg:
    """`Msg(key, params)` with the parameters as keywords: `msg(gettext_noop("%(house)s bids"), house=house(p))`."""
    return Msg(key, params)
