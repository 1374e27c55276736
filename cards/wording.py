"""The words of the card database's refusals, in the language of the person reading them.

Records are read in English (``SOURCE_LANGUAGE``: model fields, lookups by name), so a write runs under
``in_source_language``, which notes the reader's language before it switches; ``say`` words a message in it.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.utils import translation
from django.utils.translation import gettext, gettext_noop

SOURCE_LANGUAGE = "en"  # records, exports and lookups by name are English whatever the viewer reads
# `in_source_language` notes the reader's language before it switches, and `say` words messages in it.
_READER: contextvars.ContextVar[str | None] = contextvars.ContextVar("card_errors_reader", default=None)
_F = TypeVar("_F", bound=Callable[..., Any])


def in_source_language(fn: _F) -> _F:
    """Run ``fn`` with English active (model fields, lookups), its error messages in the caller's language."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        token = _READER.set(_READER.get() or translation.get_language() or SOURCE_LANGUAGE)
        try:
            with translation.override(SOURCE_LANGUAGE):
                return fn(*args, **kwargs)
        finally:
            _READER.reset(token)

    return wrapper  # type: ignore[return-value]


def in_reader_language() -> translation.override:
    return translation.override(_READER.get() or translation.get_language())


def say(template: str, **params: Any) -> str:
    """``template`` (a ``gettext_noop``'d message) in the reader's language, with named ``params``."""
    with in_reader_language():
        text = gettext(template)
    return text % params if params else text


def unknown_field(fields: Iterable[str]) -> str:
    return say(gettext_noop("unknown field (allowed: %(fields)s, translations)"), fields=", ".join(fields))
