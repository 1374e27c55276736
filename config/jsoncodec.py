"""orjson for the large JSON on the hot path of online play, with the standard library as the fallback.

Every action writes the match's engine snapshot (about 12 KB of JSON) and every answer carries a player's
view of similar size. The standard library's encoder spends a noticeable share of an action's CPU on
both (`bench/online_play.py` measures it); orjson does the same work several times faster and
writes the same JSON: `OPT_NON_STR_KEYS` turns integer keys into strings as `json.dumps` does. What
orjson refuses (an integer beyond 64 bits, say) goes through `json.dumps`, which still raises on what
is not JSON at all.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> bytes:
    """UTF-8 JSON of `value`, compact."""
    try:
        return orjson.dumps(value, option=OPTIONS)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def loads(data: str | bytes | bytearray | memoryview) -> Any:
    """The value of a JSON document (raises `json.JSONDecodeError`, a `ValueError`, on bad input)."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(
            bytes(data) if isinstance(data, memoryview) else data
        )  # the standard library's error message, or what orjson alone refuses
