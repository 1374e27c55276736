"""The one place request JSON is parsed: bounded in size and depth, refusing what the database cannot store.

Every API view parses its body with `BoundedJSONParser` (the DRF default parser, config/settings/base.py).
Python's `json` raises `RecursionError` on a document nested ~1,000 deep, accepts `NaN`, `Infinity` and
`1e400` (an infinite float), and decodes `"\\u0000"` and lone surrogates (`"\\ud800"`) into strings that
PostgreSQL refuses at write time: each of those was a 500. Here each is a 400 naming the problem and,
where there is one, the field (`cards[2].card`); a body over Django's upload limit
(`DATA_UPLOAD_MAX_MEMORY_SIZE`) is a 413. The API takes JSON only: a form-encoded body answers 415
instead of being read as a different document (a form PUT `cards=1` once emptied a deck).
"""

from __future__ import annotations

import codecs
import json
import math
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from django.utils.translation import gettext
from rest_framework import parsers

from config.errors import RequestTooLarge, bad_json, character_problem
from config.text import unstorable_character

MAX_JSON_DEPTH = 64
"""Deepest nesting of arrays/objects a request body may have (real bodies nest 4 or 5 deep)."""


def upload_limit() -> int | None:
    """The largest body in bytes the site accepts (Django's DATA_UPLOAD_MAX_MEMORY_SIZE; None: no limit)."""
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def _field(path: tuple[str | int, ...]) -> str:
    """`("cards", 2, "card")` -> `cards[2].card`; the body itself is `(body)`."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out or "(body)"


def check_value(value: Any, *, max_depth: int = MAX_JSON_DEPTH) -> None:
    """Raise a 400 `ParseError` if the decoded JSON `value` nests deeper than `max_depth` or holds a string
    (key or value) PostgreSQL cannot store; walks iteratively, so any depth is safe to check."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        if isinstance(item, _NonFinite):
            raise bad_json(
                "non_finite_number",
                gettext("%(field)s is not a finite number: %(value)s.")
                % {"field": _field(path), "value": item.text},
                field=_field(path),
            )
        if isinstance(item, str):
            problem = unstorable_character(item)
            if problem:
                raise bad_json(
                    "invalid_character",
                    gettext("%(field)s contains %(problem)s.")
                    % {"field": _field(path), "problem": character_problem(problem)},
                    field=_field(path),
                )
            continue
        if not isinstance(item, dict | list):
            continue
        if len(path) >= max_depth:
            raise bad_json(
                "json_too_deep",
                gettext("JSON body is nested more than %(max)s levels deep (at %(field)s).")
                % {"max": max_depth, "field": _field(path)},
                field=_field(path),
            )
        if isinstance(item, dict):
            for key, child in item.items():
                problem = unstorable_character(key)
                if problem:
                    raise bad_json(
                        "invalid_character",
                        gettext("A key in %(field)s contains %(problem)s.")
                        % {"field": _field(path), "problem": character_problem(problem)},
                        field=_field(path),
                    )
                stack.append((child, (*path, key)))
        else:
            stack.extend((child, (*path, index)) for index, child in enumerate(item))


class _NonFinite:
    """Stands in the decoded value for a number JSON's grammar may hold but a float cannot (NaN, Infinity,
    1e400), so `check_value` can name the field that holds it."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _finite_float(text: str) -> float | _NonFinite:
    number = float(text)
    return number if math.isfinite(number) else _NonFinite(text[:40])


def loads(raw: bytes, encoding: str = "utf-8") -> Any:
    """Decode a request body into a checked JSON value; every refusal is a 400 `ParseError`."""
    try:
        text = codecs.decode(raw, encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        raise bad_json(
            "malformed_json", gettext("JSON body is not valid %(encoding)s.") % {"encoding": encoding}
        ) from exc
    try:
        value = json.loads(text, parse_constant=_NonFinite, parse_float=_finite_float)
    except RecursionError as exc:
        raise bad_json(
            "json_too_deep",
            gettext("JSON body is nested more than %(max)s levels deep.") % {"max": MAX_JSON_DEPTH},
        ) from exc
    except json.JSONDecodeError as exc:
        raise bad_json(
            "malformed_json",
            gettext("JSON parse error: %(error)s at line %(line)s column %(column)s.")
            % {"error": exc.msg, "line": exc.lineno, "column": exc.colno},
        ) from exc
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise bad_json("malformed_json", gettext("JSON parse error: %(error)s.") % {"error": exc}) from exc
    check_value(value)
    return value


def read_bounded(stream: IO[bytes], meta: Mapping[str, Any]) -> bytes:
    """The body, at most the upload limit: a larger declared or actual length raises a 413."""
    limit = upload_limit()
    if limit is not None:
        try:
            declared = int(meta.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = 0
        if declared > limit:
            raise RequestTooLarge(limit)
        raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise RequestTooLarge(limit)
        return raw
    return stream.read()


class BoundedJSONParser(parsers.JSONParser):
    """DRF's JSON parser with a size bound, a depth bound and only values the database can store."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        request = parser_context.get("request")
        meta = request.META if request is not None else {}
        return loads(read_bounded(stream, meta), encoding)
