"""Which text the database can store: one rule for request bodies, URLs and decklists (pure Python, no Django)."""

from __future__ import annotations


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
