"""Which text the database can store: one rule for request bodies, URLs and decklists (pure Python, no Django)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def unstorable_character(text: str) -> str | None:
    """A description of the first character of `text` PostgreSQL cannot store in text, or None.

    NUL (U+0000) is refused by PostgreSQL's text types and lone surrogates (U+D800-U+DFFF) cannot be
    encoded in UTF-8 at all; either failed at write or lookup time with a 500. ASCII text (nearly
    every value) needs one scan for NUL.
    """
    if "\x00" in text:
        return "a NUL character (U+0000)"
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"a lone surrogate (U+{ord(text[exc.start]):04X})"
    return None


def first_unstorable(value: Any) -> tuple[str, str] | None:
    """(where, what) for the first string, key or value, in a JSON-like `value` that the database cannot
    store, e.g. ("cards[3].name", "a NUL character (U+0000)"); None when every string is storable."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            problem = unstorable_character(item)
            if problem:
                return where or "(value)", problem
        elif isinstance(item, Mapping):
            for key, child in item.items():
                inner = f"{where}.{key}" if where else str(key)
                if isinstance(key, str) and (problem := unstorable_character(key)):
                    return f"a key of {where or '(value)'}", problem
                stack.append((child, inner))
        elif isinstance(item, list | tuple):
            stack.extend((child, f"{where}[{index}]") for index, child in enumerate(item))
    return None
