"""Decklist formats: plain text, JSON and the compact share code (docs/deck-formats.md).

Pure Python. Parsing turns input into card *names/slugs* with counts and line-numbered errors;
resolving looks them up in a `CardCatalog` (the database through `decks.selectors.DbCatalog`, or
`MappingCatalog` over plain card data) and adds "did you mean" suggestions for unknown names.

A decklist may name cards in English, Thai or Chinese (a name is looked up in English first, then in
each translation); what this module writes (text, JSON, share codes) is always English names and slugs,
whatever language the reader reads, so a list shared between players of two languages still resolves.
"""

from __future__ import annotations

import base64
import binascii
import difflib
import json
import re
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.utils import translation
from django.utils.translation import gettext, pgettext

from cards.data_translations import TRANSLATION_LANGUAGES
from config.text import unstorable_character
from decks.cardfacts import card_facts

MAX_COUNT = 99  # a parse limit only; C-3.2/C-3.3 limits are the validator's job
MAX_INPUT_CHARS = 100_000  # a decklist is a few hundred characters; refuse megabytes early
MAX_CODE_BYTES = 1 << 20  # a share code's decompressed body (a few hundred bytes); no zip bombs
MAX_JSON_DEPTH = 16  # a deck document nests 3 deep (document, cards, entry)
MAX_SUGGESTED = 50  # unknown names that get "did you mean" (difflib over every card name is not free)
SHARE_CODE_PREFIX = "CMD1"
SOURCE_LANGUAGE = "en"  # the language of every export and share code (card names), and of lookups first
JSON_FORMAT = "commandeer-deck"
JSON_VERSION = 1

# "3 Blazing Lancer", "3x Blazing Lancer", "3 x Blazing Lancer" (count first) ...
_ENTRY_RE = re.compile(r"^(\d+)\s*[xX×]?\s+(\S.*)$")
# ... and "Blazing Lancer x3", "Blazing Lancer x 3", "Blazing Lancer ×3" (count last, Moxfield/Arena style)
_ENTRY_COUNT_LAST_RE = re.compile(r"^(\S.*?)\s+[xX×]\s*(\d+)$")
# "# Deck: Name" names the deck (export_text writes it); other "#" lines are comments
_DECK_NAME_RE = re.compile(r"^#\s*deck\s*:\s*(.*)$", re.IGNORECASE)
ENTRY_EXAMPLES = ("3 Blazing Lancer", "3x Blazing Lancer", "Blazing Lancer x3")
_COMMANDER_RE = re.compile(r"^commander\s*:\s*(.*)$", re.IGNORECASE)


class DeckFormatError(ValueError):
    """Input that cannot be read at all (bad JSON document, damaged share code)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class LineError:
    """A problem with one line (text), one entry (JSON) or the whole input; `line` is 1-based."""

    code: str
    message: str
    line: int | None = None
    text: str = ""
    suggestions: list[str] = field(default_factory=list)
    # An unknown card's copies (all its lines; None for the Commander line) and its suggestions as
    # (slug, name): what a one-click fix adds in its place.
    count: int | None = None
    suggested_cards: list[tuple[str, str]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "line": self.line,
            "text": self.text,
            "suggestions": list(self.suggestions),
            "count": self.count,
            "suggested_cards": [{"card": slug, "name": name} for slug, name in self.suggested_cards],
        }


@dataclass
class DeckEntry:
    """A card reference (a name or a slug) with its copies summed over every line that named it."""

    ref: str
    count: int
    lines: list[int] = field(default_factory=list)
    by: str = "name"  # what `ref` holds: "name" (matched case-insensitively) or "slug"


@dataclass
class ParsedDeck:
    """A decklist read from text/JSON/code, before card lookup."""

    entries: list[DeckEntry]
    commander: str | None = None
    commander_line: int | None = None
    errors: list[LineError] = field(default_factory=list)
    commander_by: str = "name"  # "name" (text) or "slug" (JSON, share code)
    name: str = ""
    faction: str | None = None
    notes: str = ""


@dataclass
class ResolvedDeck:
    """A decklist whose references were looked up: cards with counts plus every problem found."""

    entries: list[tuple[Any, int]]
    commander: Any = None
    errors: list[LineError] = field(default_factory=list)
    name: str = ""
    faction: str | None = None
    notes: str = ""

    @property
    def ok(self) -> bool:
        return not self.errors


class CardCatalog(Protocol):
    """Where names and slugs are looked up (database or plain data)."""

    def by_names(self, names: Iterable[str]) -> dict[str, Any]:
        """Cards keyed by casefolded name, in the active language (`resolve` activates each in turn)."""
        ...

    def by_slugs(self, slugs: Iterable[str]) -> dict[str, Any]:
        """Cards keyed by slug."""
        ...

    def all_names(self) -> list[str]:
        """Every card name (for suggestions)."""
        ...


class MappingCatalog:
    """A catalog over an in-memory list of cards (rows, card-JSON mappings or CardFacts)."""

    def __init__(self, cards: Iterable[Any]):
        self._cards = list(cards)
        self._by_name = {card_facts(c, with_keywords=False).name.casefold(): c for c in self._cards}
        self._by_slug = {card_facts(c, with_keywords=False).slug: c for c in self._cards}
        # Card-JSON mappings may carry "translations" ({"th": {"name": ...}}): their names are found too.
        self._english: dict[str, str] = {}
        for c in self._cards:
            translations = c.get("translations") if isinstance(c, Mapping) else None
            for language, texts in (translations or {}).items():
                if language in TRANSLATION_LANGUAGES and isinstance(texts, Mapping) and texts.get("name"):
                    self._english.setdefault(str(texts["name"]).casefold(), str(c["name"]))

    def by_names(self, names: Iterable[str]) -> dict[str, Any]:
        return {k: self._by_name[k] for k in (n.casefold() for n in names) if k in self._by_name}

    def english_names(self, names: Iterable[str]) -> dict[str, str]:
        """{casefolded Thai or Chinese name: English name} of the cards named so."""
        return {k: self._english[k] for k in (n.casefold() for n in names) if k in self._english}

    def translated_names(self) -> list[str]:
        return [str(c["translations"][lang]["name"]) for c in self._cards if isinstance(c, Mapping)
                for lang in TRANSLATION_LANGUAGES if ((c.get("translations") or {}).get(lang) or {}).get("name")]  # fmt: skip

    def by_slugs(self, slugs: Iterable[str]) -> dict[str, Any]:
        return {s: self._by_slug[s] for s in slugs if s in self._by_slug}

    def all_names(self) -> list[str]:
        return [card_facts(c, with_keywords=False).name for c in self._cards]


def _add_entry(entries: dict[str, DeckEntry], ref: str, count: int, line: int | None, *, by: str) -> None:
    key = f"{by}:{ref.casefold() if by == 'name' else ref}"
    entry = entries.get(key)
    if entry is None:
        entries[key] = DeckEntry(ref=ref, count=count, lines=[line] if line else [], by=by)
    else:
        entry.count += count
        if line:
            entry.lines.append(line)


def _unknown_card_message(ref: str, by: str, suggestions: list[str]) -> str:
    """The message for an unknown card, with the names it may have meant (each language words it whole)."""
    if suggestions:
        listed = pgettext("list separator", ", ").join(suggestions)
        if by == "slug":
            template = gettext("unknown card slug '%(ref)s'; did you mean %(suggestions)s?")
        else:
            template = gettext("unknown card name '%(ref)s'; did you mean %(suggestions)s?")
        return template % {"ref": ref, "suggestions": listed}
    if by == "slug":
        return gettext("unknown card slug '%(ref)s'") % {"ref": ref}
    return gettext("unknown card name '%(ref)s'") % {"ref": ref}


def _storable(text: str, what: str) -> str:
    """`text` unchanged, or a DeckFormatError when it holds a character the database cannot store."""
    problem = unstorable_character(text)
    if problem:
        raise DeckFormatError(
            "bad_character", gettext("%(what)s contains %(problem)s") % {"what": what, "problem": problem}
        )
    return text


# --- text -------------------------------------------------------------------------------------------


def parse_text(text: str) -> ParsedDeck:
    """Read `N Card Name` / `Nx Card Name` / `Card Name xN` lines, one optional `Commander: Name`, a
    `# Deck: Name` line (the deck's name), other `#` comments and blank lines."""
    entries: dict[str, DeckEntry] = {}
    parsed = ParsedDeck(entries=[])
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        deck_name = _DECK_NAME_RE.match(line)
        if deck_name:
            if not parsed.name:  # the first "# Deck:" line wins
                parsed.name = _storable(
                    " ".join(deck_name.group(1).split())[:100],
                    gettext("line %(number)s") % {"number": number},
                )
            continue
        if not line or line.startswith("#"):
            continue
        commander = _COMMANDER_RE.match(line)
        if commander:
            name = commander.group(1).strip()
            if not name:
                parsed.errors.append(
                    LineError("bad_line", gettext("the Commander line names no card"), number, raw)
                )
            elif parsed.commander is not None:
                parsed.errors.append(
                    LineError(
                        "duplicate_commander",
                        gettext("a second Commander line (the first is on line %(line)s)")
                        % {"line": parsed.commander_line},
                        number,
                        raw,
                    )
                )
            else:
                parsed.commander, parsed.commander_line = name, number
            continue
        match = _ENTRY_RE.match(line)
        if match:
            digits, card_name = match.group(1), match.group(2)
        else:
            match = _ENTRY_COUNT_LAST_RE.match(line)
            if not match:
                parsed.errors.append(
                    LineError(
                        "bad_line",
                        gettext(
                            "expected a count and a card name, e.g. '%(first)s', '%(second)s' or '%(third)s'"
                        )
                        % dict(zip(("first", "second", "third"), ENTRY_EXAMPLES, strict=True)),
                        number,
                        raw,
                    )
                )
                continue
            card_name, digits = match.group(1), match.group(2)
        count = int(digits) if len(digits) <= 4 else MAX_COUNT + 1  # int() of 5,000 digits raises
        if not 1 <= count <= MAX_COUNT:
            parsed.errors.append(
                LineError(
                    "bad_count",
                    gettext("the count must be between 1 and %(max)s, got %(count)s")
                    % {"max": MAX_COUNT, "count": count},
                    number,
                    raw,
                )
            )
            continue
        _add_entry(entries, " ".join(card_name.split()), count, number, by="name")
    parsed.entries = list(entries.values())
    return parsed


@translation.override(SOURCE_LANGUAGE)
def export_text(
    entries: Sequence[tuple[Any, int]], *, commander: Any = None, name: str = "", faction: str = ""
) -> str:
    """Text decklist grouped into units and events (by cost, then name); re-imports to the same deck."""
    lines: list[str] = []
    if name:
        lines.append(f"# Deck: {' '.join(name.split())}")
    if faction:
        lines.append(f"# Faction: {faction}")
    if commander is not None:
        lines.append(f"Commander: {card_facts(commander, with_keywords=False).name}")
    summed: dict[str, list[Any]] = {}
    for card, count in entries:
        facts = card_facts(card, with_keywords=False)
        slot = summed.setdefault(facts.name.casefold(), [facts, 0])
        slot[1] += count
    for title, is_unit in (("Units", True), ("Events", False)):
        group = sorted(
            (v for v in summed.values() if v[0].is_unit == is_unit),
            key=lambda v: (v[0].command_cost, v[0].name.casefold()),
        )
        if not group:
            continue
        if lines:
            lines.append("")
        lines.append(f"# {title} ({sum(c for _, c in group)})")
        lines.extend(f"{count} {facts.name}" for facts, count in group)
    return "\n".join(lines) + "\n"


# --- JSON -------------------------------------------------------------------------------------------


@translation.override(SOURCE_LANGUAGE)
def export_json(
    entries: Sequence[tuple[Any, int]],
    *,
    commander: Any = None,
    name: str = "",
    faction: str | None = None,
    notes: str = "",
) -> dict[str, Any]:
    """The deck as a JSON document keyed by card slugs (names are informative)."""
    summed: dict[str, list[Any]] = {}
    for card, count in entries:
        facts = card_facts(card, with_keywords=False)
        summed.setdefault(facts.slug, [facts, 0])[1] += count
    return {
        "format": JSON_FORMAT,
        "version": JSON_VERSION,
        "name": name,
        "faction": faction,
        "commander": card_facts(commander, with_keywords=False).slug if commander is not None else None,
        "notes": notes,
        "cards": [
            {"card": f.slug, "name": f.name, "count": c}
            for f, c in sorted(summed.values(), key=lambda v: v[0].slug)
        ],
    }


def parse_json(document: str | Mapping[str, Any]) -> ParsedDeck:
    """Read the JSON document of `export_json`; entries may give `card` (slug) or only `name`."""
    if isinstance(document, str):
        data = _load_json(document)
    else:
        data = document
    if not isinstance(data, Mapping):
        raise DeckFormatError("bad_json", gettext("a deck JSON document must be an object"))
    if data.get("format", JSON_FORMAT) != JSON_FORMAT:
        raise DeckFormatError("bad_json", gettext("'format' must be '%(format)s'") % {"format": JSON_FORMAT})
    if data.get("version", JSON_VERSION) != JSON_VERSION:
        raise DeckFormatError(
            "bad_json",
            gettext("unsupported version %(version)s; this reads %(supported)s")
            % {"version": repr(data.get("version")), "supported": JSON_VERSION},
        )
    cards = data.get("cards", [])
    if not isinstance(cards, list):
        raise DeckFormatError("bad_json", gettext("'cards' must be a list of {card, count}"))
    parsed = ParsedDeck(entries=[], commander_by="slug")
    entries: dict[str, DeckEntry] = {}
    for index, item in enumerate(cards, start=1):
        if not isinstance(item, Mapping):
            parsed.errors.append(
                LineError(
                    "bad_entry", gettext("cards entry %(index)s must be an object") % {"index": index}, index
                )
            )
            continue
        count = item.get("count")
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
            parsed.errors.append(
                LineError(
                    "bad_count",
                    gettext("cards entry %(index)s: count must be a whole number 1–%(max)s")
                    % {"index": index, "max": MAX_COUNT},
                    index,
                )
            )
            continue
        slug, name = item.get("card"), item.get("name")
        if isinstance(slug, str) and slug:
            _add_entry(
                entries,
                _storable(slug, gettext("cards entry %(index)s") % {"index": index}),
                count,
                index,
                by="slug",
            )
        elif isinstance(name, str) and name.strip():
            name = _storable(name, gettext("cards entry %(index)s") % {"index": index})
            _add_entry(entries, " ".join(name.split()), count, index, by="name")
        else:
            parsed.errors.append(
                LineError(
                    "bad_entry",
                    gettext("cards entry %(index)s needs 'card' (a slug) or 'name'") % {"index": index},
                    index,
                )
            )
    parsed.entries = list(entries.values())
    commander = data.get("commander")
    parsed.commander = (
        _storable(commander, "'commander'") if isinstance(commander, str) and commander else None
    )
    parsed.name = _storable(str(data.get("name") or ""), "'name'")
    faction = data.get("faction")
    parsed.faction = _storable(faction, "'faction'") if isinstance(faction, str) else None
    parsed.notes = _storable(str(data.get("notes") or ""), "'notes'")
    return parsed


def _refuse_constant(name: str) -> Any:
    raise ValueError(gettext("%(value)s is not a finite number") % {"value": name})


def _finite_float(text: str) -> float:
    number = float(text)
    if number in (float("inf"), float("-inf")):
        raise ValueError(gettext("%(value)s is out of range") % {"value": text[:40]})
    return number


def _load_json(document: str) -> Any:
    """A deck document's value; malformed, non-finite or too deeply nested JSON is a `bad_json` error."""
    try:
        data = json.loads(document, parse_constant=_refuse_constant, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        raise DeckFormatError(
            "bad_json",
            gettext("not valid JSON: %(error)s at line %(line)s") % {"error": exc.msg, "line": exc.lineno},
        ) from exc
    except RecursionError as exc:
        raise DeckFormatError(
            "bad_json", gettext("the JSON is nested more than %(max)s levels deep") % {"max": MAX_JSON_DEPTH}
        ) from exc
    except ValueError as exc:  # the hooks' refusals, an integer of more than 4,300 digits
        raise DeckFormatError("bad_json", gettext("not valid JSON: %(error)s") % {"error": exc}) from exc
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        if depth >= MAX_JSON_DEPTH:
            raise DeckFormatError(
                "bad_json",
                gettext("the JSON is nested more than %(max)s levels deep") % {"max": MAX_JSON_DEPTH},
            )
        stack.extend((child, depth + 1) for child in children)
    return data


# --- share code -------------------------------------------------------------------------------------


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


class _Reader:
    def __init__(self, data: bytes):
        self.data, self.pos = data, 0

    def varint(self) -> int:
        shift = result = 0
        while True:
            if self.pos >= len(self.data) or shift > 28:
                raise DeckFormatError("bad_share_code", gettext("the share code is damaged (truncated)"))
            byte = self.data[self.pos]
            self.pos += 1
            result |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return result
            shift += 7

    def text(self) -> str:
        length = self.varint()
        chunk = self.data[self.pos : self.pos + length]
        if len(chunk) != length:
            raise DeckFormatError("bad_share_code", gettext("the share code is damaged (truncated)"))
        self.pos += length
        try:
            text = chunk.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DeckFormatError("bad_share_code", gettext("the share code is damaged (bad text)")) from exc
        if unstorable_character(text):
            raise DeckFormatError("bad_share_code", gettext("the share code is damaged (bad text)"))
        return text


@translation.override(SOURCE_LANGUAGE)
def encode_share_code(
    entries: Sequence[tuple[Any, int]], *, commander: Any = None, faction: str | None = None
) -> str:
    """`CMD1` + base64url(zlib(varint-encoded faction, commander and (slug, count) list sorted by slug))."""
    summed: dict[str, int] = {}
    for card, count in entries:
        slug = card_facts(card, with_keywords=False).slug
        summed[slug] = summed.get(slug, 0) + count
    body = bytearray()
    for text in (
        faction or "",
        card_facts(commander, with_keywords=False).slug if commander is not None else "",
    ):
        raw = text.encode("utf-8")
        body += _varint(len(raw)) + raw
    body += _varint(len(summed))
    for slug in sorted(summed):
        raw = slug.encode("utf-8")
        body += _varint(summed[slug]) + _varint(len(raw)) + raw
    packed = zlib.compress(bytes(body), 9)
    return SHARE_CODE_PREFIX + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def decode_share_code(code: str) -> ParsedDeck:
    """Read a share code back into slugs and counts; raise DeckFormatError for a bad or damaged code."""
    code = "".join(code.split())
    if not code.startswith(SHARE_CODE_PREFIX):
        raise DeckFormatError(
            "bad_share_code",
            gettext("a share code starts with '%(prefix)s' (unknown version or not a code)")
            % {"prefix": SHARE_CODE_PREFIX},
        )
    payload = code[len(SHARE_CODE_PREFIX) :]
    try:
        packed = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
        inflater = zlib.decompressobj()
        body = inflater.decompress(packed, MAX_CODE_BYTES)
    except (binascii.Error, ValueError, zlib.error) as exc:
        raise DeckFormatError(
            "bad_share_code", gettext("the share code is damaged (it does not decode)")
        ) from exc
    if inflater.unconsumed_tail:
        raise DeckFormatError(
            "bad_share_code", gettext("the share code is damaged (it decodes to too much data)")
        )
    if not inflater.eof:
        raise DeckFormatError("bad_share_code", gettext("the share code is damaged (it does not decode)"))
    reader = _Reader(body)
    faction, commander = reader.text(), reader.text()
    parsed = ParsedDeck(entries=[], commander_by="slug", faction=faction or None, commander=commander or None)
    for _ in range(reader.varint()):
        count = reader.varint()
        slug = reader.text()
        if not 1 <= count <= MAX_COUNT or not slug:
            raise DeckFormatError("bad_share_code", gettext("the share code is damaged (bad entry)"))
        parsed.entries.append(DeckEntry(ref=slug, count=count, by="slug"))
    if reader.pos != len(body):
        raise DeckFormatError("bad_share_code", gettext("the share code is damaged (trailing data)"))
    return parsed


def looks_like_share_code(text: str) -> bool:
    stripped = text.strip()
    return stripped.startswith(SHARE_CODE_PREFIX) and not any(c.isspace() for c in stripped)


def parse_any(data: str | Mapping[str, Any], kind: str = "auto") -> ParsedDeck:
    """Parse text, JSON or a share code; `kind` is "text", "json", "code" or "auto" (guess from the input)."""
    if not isinstance(data, (str, Mapping)):
        raise DeckFormatError(
            "bad_input", gettext("the decklist must be a string (text or share code) or a JSON object")
        )
    if isinstance(data, str) and len(data) > MAX_INPUT_CHARS:
        raise DeckFormatError(
            "too_long", gettext("the decklist is longer than %(max)s characters") % {"max": MAX_INPUT_CHARS}
        )
    if isinstance(data, str):
        _storable(data, gettext("the decklist"))
    if kind == "auto":
        if isinstance(data, Mapping):
            kind = "json"
        elif data.lstrip().startswith("{"):
            kind = "json"
        elif looks_like_share_code(data):
            kind = "code"
        else:
            kind = "text"
    if kind == "json":
        return parse_json(data)
    if not isinstance(data, str):
        raise DeckFormatError("bad_input", gettext("%(kind)s input must be a string") % {"kind": kind})
    if kind == "code":
        return decode_share_code(data)
    if kind == "text":
        return parse_text(data)
    raise DeckFormatError(
        "bad_input", gettext("unknown format '%(kind)s': use text, json or code") % {"kind": kind}
    )


# --- lookup -----------------------------------------------------------------------------------------


def _suggest(ref: str, names: list[str]) -> list[str]:
    folded = {n.casefold(): n for n in names}
    return [folded[m] for m in difflib.get_close_matches(ref.casefold(), list(folded), n=3, cutoff=0.6)]


def _translations_of(catalog: CardCatalog) -> Any:
    """The catalog's own translated names (plain data), else the card database's (a `DbCatalog`)."""
    if hasattr(catalog, "english_names"):
        return catalog
    from cards import selectors  # the database's translations; plain-data catalogs never get here

    return selectors


def _by_names_any_language(catalog: CardCatalog, names: list[str]) -> dict[str, Any]:
    """Cards by casefolded name: English names first, then the Thai and Chinese names of what is left
    (read as the card's English name, so any catalog resolves them the same way)."""
    found = catalog.by_names(names) if names else {}
    missing = [n for n in names if n.casefold() not in found]
    if missing:
        english = _translations_of(catalog).english_names(missing)
        by_english = catalog.by_names(english.values())
        found.update({k: by_english[v.casefold()] for k, v in english.items() if v.casefold() in by_english})
    return found


def _all_names_any_language(catalog: CardCatalog) -> list[str]:
    """Every card name in every language, for "did you mean" (a Thai typo gets a Thai suggestion)."""
    return list(dict.fromkeys([*catalog.all_names(), *_translations_of(catalog).translated_names()]))


def resolve(parsed: ParsedDeck, catalog: CardCatalog) -> ResolvedDeck:
    """Look every reference up; an unknown one becomes an error per line with close names suggested.

    Names match in English, then in Thai and Chinese; the resolved cards read (and sum) by English name.
    The errors are worded in the caller's language.
    """
    return _resolve(parsed, catalog, translation.get_language() or SOURCE_LANGUAGE)


@translation.override(SOURCE_LANGUAGE)
def _resolve(parsed: ParsedDeck, catalog: CardCatalog, reader: str) -> ResolvedDeck:
    result = ResolvedDeck(
        entries=[], errors=list(parsed.errors), name=parsed.name, faction=parsed.faction, notes=parsed.notes
    )
    names = [e.ref for e in parsed.entries if e.by == "name"]
    slugs = [e.ref for e in parsed.entries if e.by == "slug"]
    if parsed.commander:
        (names if parsed.commander_by == "name" else slugs).append(parsed.commander)
    found_names = _by_names_any_language(catalog, names)
    found_slugs = catalog.by_slugs(slugs) if slugs else {}
    all_names: list[str] | None = None

    def lookup(ref: str, by: str) -> Any:
        return found_names.get(ref.casefold()) if by == "name" else found_slugs.get(ref)

    suggested = 0

    def unknown(ref: str, lines: list[int], by: str, count: int | None) -> None:
        nonlocal all_names, suggested
        suggestions: list[str] = []
        if suggested < MAX_SUGGESTED:
            if all_names is None:
                all_names = _all_names_any_language(catalog)
            suggestions = _suggest(ref, all_names)
            suggested += 1
        found = _by_names_any_language(catalog, suggestions) if suggestions else {}
        cards = [
            (card_facts(found[n.casefold()], with_keywords=False).slug, n)
            for n in suggestions
            if n.casefold() in found
        ]
        with translation.override(reader):
            message = _unknown_card_message(ref, by, suggestions)
        where: list[int | None] = list(lines) or [None]
        for line in where:
            result.errors.append(LineError("unknown_card", message, line, ref, suggestions, count, cards))

    summed: dict[str, list[Any]] = {}  # casefolded name -> [card, count]: copies summed by name
    for entry in parsed.entries:
        card = lookup(entry.ref, entry.by)
        if card is None:
            unknown(entry.ref, entry.lines, entry.by, entry.count)
        else:
            key = card_facts(card, with_keywords=False).name.casefold()
            summed.setdefault(key, [card, 0])[1] += entry.count
    result.entries = [(card, count) for card, count in summed.values()]
    if parsed.commander:
        result.commander = lookup(parsed.commander, parsed.commander_by)
        if result.commander is None:
            unknown(
                parsed.commander,
                [parsed.commander_line] if parsed.commander_line else [],
                parsed.commander_by,
                None,
            )
    result.errors.sort(key=lambda e: (e.line is None, e.line or 0))
    return result
