"""The card search query language (Scryfall style): text -> AST -> Django ``Q``.

Grammar (``or`` binds looser than the implicit AND; ``-`` negates a term or a group)::

    query   := or_expr?
    or_expr := and_expr ("or" and_expr)*
    and_expr:= unary+                      (implicit AND; a bare "and" is allowed and ignored)
    unary   := "-" unary | "(" or_expr ")" | term
    term    := KEY OP VALUE | WORD | "quoted phrase"

Free words and quoted phrases match the name OR the rules text (case-insensitive), in any of the
site's languages: a Thai or Chinese name or text matches as a substring (Thai has no spaces between
words), whatever language the reader reads. Keys, operators
and values are listed in ``KEYS``; docs/card-format.md has the user documentation. Positions in
errors are 0-based character offsets into the query.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.db.models import Q
from django.utils.translation import gettext

from cards.data_translations import all_languages

MAX_QUERY_LENGTH = 1000
MAX_DEPTH = 32  # brackets and negations together
# Words and filters in one query. Each word is matched in three languages and two fields, so a query of
# hundreds of words built an SQL expression deeper than the database parses (SQLite: 1000 levels).
MAX_TERMS = 40
MAX_NUMBER = 2_000_000_000  # beyond any card value; keeps SQL integers in range
DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")  # C-1.2
OPERATORS = ("<=", ">=", "!=", ":", "=", "<", ">")
TYPE_VALUES = ("unit", "event", "planning", "defensive", "ongoing")
IS_VALUES = ("legendary", "unique", "unit", "event")

# key alias -> canonical key
KEYS: dict[str, str] = {
    "f": "faction",
    "faction": "faction",
    "t": "type",
    "type": "type",
    "cp": "cp",
    "e": "energy",
    "energy": "energy",
    "pow": "power",
    "power": "power",
    "hp": "health",
    "health": "health",
    "kw": "keyword",
    "keyword": "keyword",
    "is": "is",
    "a": "arrows",
    "arrows": "arrows",
    "name": "name",
    "o": "text",
    "text": "text",
}
NUMERIC_FIELDS = {"cp": "command_cost", "energy": "energy_cost", "power": "power", "health": "health"}
THOUSANDS_KEYS = {"power", "health"}  # values below 100 are thousands: pow>=3 means pow>=3000
KNOWN_KEYS_TEXT = ", ".join(
    "/".join(alias for alias, canonical in KEYS.items() if canonical == key)
    for key in dict.fromkeys(KEYS.values())
)


class QuerySyntaxError(ValueError):
    """A malformed query; ``position`` is the 0-based offset of the offending text."""

    def __init__(self, message: str, position: int, hint: str = ""):
        if hint:
            full = gettext("%(message)s at position %(position)s (%(hint)s)") % {
                "message": message,
                "position": position,
                "hint": hint,
            }
        else:
            full = gettext("%(message)s at position %(position)s") % {
                "message": message,
                "position": position,
            }
        super().__init__(full)
        self.message = full
        self.position = position


# ---------------------------------------------------------------- AST


@dataclass(frozen=True)
class Text:
    """Free text: every character sequence must occur in the name or the rules text."""

    value: str
    position: int


@dataclass(frozen=True)
class Term:
    """``key op value`` with a canonical key and an already validated value."""

    key: str
    op: str
    value: object
    position: int


@dataclass(frozen=True)
class Not:
    child: Node


@dataclass(frozen=True)
class And:
    children: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    children: tuple[Node, ...]


Node = Text | Term | Not | And | Or

# ---------------------------------------------------------------- tokens


@dataclass(frozen=True)
class Token:
    kind: str  # "word", "phrase", "(", ")", "-", "or", "and"
    text: str
    position: int


def tokenize(query: str) -> list[Token]:
    """Split a query into tokens, keeping each token's position; quotes may appear inside a word."""
    tokens: list[Token] = []
    i, n = 0, len(query)
    while i < n:
        ch = query[i]
        if ch.isspace():
            i += 1
        elif ch in "()":
            tokens.append(Token(ch, ch, i))
            i += 1
        elif ch == "-" and (i == 0 or not query[i - 1].isalnum()):
            tokens.append(Token("-", ch, i))
            i += 1
        elif ch == '"':
            end = query.find('"', i + 1)
            if end < 0:
                raise QuerySyntaxError(gettext("unclosed quote"), i)
            tokens.append(Token("phrase", query[i + 1 : end], i))
            i = end + 1
        else:
            start, parts = i, []
            while i < n and not query[i].isspace() and query[i] not in "()":
                if query[i] == '"':  # key:"quoted value"
                    end = query.find('"', i + 1)
                    if end < 0:
                        raise QuerySyntaxError(gettext("unclosed quote"), i)
                    parts.append(query[i + 1 : end])
                    i = end + 1
                else:
                    parts.append(query[i])
                    i += 1
            text = "".join(parts)
            lowered = query[start:i].lower()
            kind = lowered if lowered in ("or", "and") else "word"
            tokens.append(Token(kind, text, start))
    return tokens


# ---------------------------------------------------------------- parser

_TERM = re.compile(r"^([A-Za-z]+)(<=|>=|!=|:|=|<|>)(.*)$", re.DOTALL)


class _Parser:
    def __init__(self, query: str):
        self.query = query
        self.tokens = tokenize(query)
        self.i = 0

    def peek(self) -> Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> Token:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def parse(self) -> Node:
        if not self.tokens:
            return And(())
        node = self.or_expr(0)
        token = self.peek()
        if token is not None:  # only a stray ")" can stop or_expr early
            raise QuerySyntaxError(gettext("unmatched ')'"), token.position)
        return node

    def or_expr(self, depth: int) -> Node:
        if depth > MAX_DEPTH:
            token = self.peek()
            raise QuerySyntaxError(gettext("query is nested too deeply"), token.position if token else 0)
        children = [self.and_expr(depth)]
        while (token := self.peek()) is not None and token.kind == "or":
            self.take()
            children.append(self.and_expr(depth))
        return children[0] if len(children) == 1 else Or(tuple(children))

    def and_expr(self, depth: int) -> Node:
        children: list[Node] = []
        while (token := self.peek()) is not None and token.kind not in ("or", ")"):
            if token.kind == "and":
                self.take()
                if not children:
                    raise QuerySyntaxError(gettext("'and' needs a term before it"), token.position)
                nxt = self.peek()
                if nxt is None or nxt.kind in ("or", ")", "and"):
                    raise QuerySyntaxError(gettext("'and' needs a term after it"), token.position)
                continue
            children.append(self.unary(depth))
        if not children:
            where = token.position if token is not None else len(self.query)
            if token is not None:
                message = gettext("expected a search term before '%(text)s'") % {"text": token.text}
            else:
                message = gettext("expected a search term before the end of the query")
            raise QuerySyntaxError(message, where)
        return children[0] if len(children) == 1 else And(tuple(children))

    def unary(self, depth: int) -> Node:
        token = self.take()
        if depth > MAX_DEPTH:  # negations nest like brackets: 960 '-' were a RecursionError in SQL
            raise QuerySyntaxError(gettext("query is nested too deeply"), token.position)
        if token.kind == "-":
            nxt = self.peek()
            if nxt is None or nxt.kind in ("or", "and", ")"):
                raise QuerySyntaxError(gettext("'-' must be followed by a term or a group"), token.position)
            return Not(self.unary(depth + 1))
        if token.kind == "(":
            inner = self.or_expr(depth + 1)
            close = self.peek()
            if close is None or close.kind != ")":
                raise QuerySyntaxError(gettext("unclosed '('"), token.position)
            self.take()
            return inner
        if token.kind == "phrase":
            if not token.text.strip():
                raise QuerySyntaxError(gettext("empty quoted phrase"), token.position)
            return Text(token.text, token.position)
        return self.word(token)

    def word(self, token: Token) -> Node:
        text = token.text
        if text.lower() == "legendary":
            return Term("is", ":", "legendary", token.position)
        match = _TERM.match(text)
        if match is None:
            return Text(text, token.position)
        raw_key, op, value = match.groups()
        key = KEYS.get(raw_key.lower())
        if key is None:
            raise QuerySyntaxError(
                gettext("unknown search key '%(key)s'") % {"key": raw_key},
                token.position,
                gettext("known: %(values)s") % {"values": KNOWN_KEYS_TEXT},
            )
        value_pos = token.position + len(raw_key) + len(op)
        if value == "":
            raise QuerySyntaxError(gettext("'%(key)s' needs a value") % {"key": raw_key + op}, value_pos)
        return _term(key, raw_key, op, value, value_pos, token.position)


def _number(raw_key: str, key: str, value: str, position: int) -> int:
    text = value.lower()
    scale = 1
    if text.endswith("k"):
        text, scale = text[:-1], 1000
    try:
        number = Decimal(text)
    except InvalidOperation:
        raise QuerySyntaxError(
            gettext("'%(key)s' needs a number, not '%(value)s'") % {"key": raw_key, "value": value}, position
        ) from None
    if not number.is_finite() or number < 0:
        raise QuerySyntaxError(
            gettext("'%(key)s' needs a number, not '%(value)s'") % {"key": raw_key, "value": value}, position
        )
    number *= scale
    if key in THOUSANDS_KEYS and scale == 1 and number < 100:
        number *= 1000  # pow>=3 means pow>=3000 (C-1.1: written in thousands)
    if number != number.to_integral_value():
        raise QuerySyntaxError(
            gettext("'%(key)s' needs a whole number, not '%(value)s'") % {"key": raw_key, "value": value},
            position,
        )
    if number > MAX_NUMBER:
        raise QuerySyntaxError(
            gettext("'%(key)s' value '%(value)s' is too large") % {"key": raw_key, "value": value}, position
        )
    return int(number)


def _term(key: str, raw_key: str, op: str, value: str, value_pos: int, position: int) -> Node:
    if key in NUMERIC_FIELDS:
        return Term(key, "=" if op == ":" else op, _number(raw_key, key, value, value_pos), position)
    if op not in (":", "=", "!="):
        raise QuerySyntaxError(
            gettext("'%(key)s' supports only ':', '=' and '!=', not '%(op)s'") % {"key": raw_key, "op": op},
            position,
        )
    lowered = value.lower()
    if key == "type" and lowered not in TYPE_VALUES:
        raise QuerySyntaxError(
            gettext("unknown type '%(value)s'") % {"value": value},
            value_pos,
            gettext("known: %(values)s") % {"values": ", ".join(TYPE_VALUES)},
        )
    if key == "is" and lowered not in IS_VALUES:
        raise QuerySyntaxError(
            gettext("unknown 'is:' value '%(value)s'") % {"value": value},
            value_pos,
            gettext("known: %(values)s") % {"values": ", ".join(IS_VALUES)},
        )
    if key == "arrows":
        arrows = [a.strip().upper() for a in value.split(",")]
        bad = [a for a in arrows if a not in DIRECTIONS]
        if bad:
            raise QuerySyntaxError(
                gettext("unknown direction '%(value)s'") % {"value": bad[0]},
                value_pos,
                gettext("known: %(values)s") % {"values": ", ".join(DIRECTIONS)},
            )
        return Term(key, op, tuple(arrows), position)
    if key == "keyword":
        lowered = lowered.replace("-", "_")
    term = Term(key, ":", lowered if key in ("type", "is", "keyword") else value, position)
    return Not(term) if op == "!=" else term


def parse(query: str) -> Node:
    """Parse a query into its AST; raise QuerySyntaxError with a position on malformed input."""
    if len(query) > MAX_QUERY_LENGTH:
        raise QuerySyntaxError(
            gettext("query is longer than %(max)s characters") % {"max": MAX_QUERY_LENGTH}, MAX_QUERY_LENGTH
        )
    if "\x00" in query:
        raise QuerySyntaxError(gettext("query contains a NUL character"), query.index("\x00"))
    tree = _Parser(query).parse()
    if _count_terms(tree) > MAX_TERMS:
        raise QuerySyntaxError(
            gettext("query has more than %(max)s words and filters") % {"max": MAX_TERMS}, len(query)
        )
    return tree


def _count_terms(node: Node) -> int:
    if isinstance(node, And | Or):
        return sum(_count_terms(child) for child in node.children)
    if isinstance(node, Not):
        return _count_terms(node.child)
    return 1


# ---------------------------------------------------------------- AST -> Q


def _any_language(field: str, lookup: str, value: object) -> Q:
    """``field`` (e.g. "name", "faction__name") matches ``value`` in English, Thai or Chinese."""
    *path, name = field.split("__")
    q = Q()
    for column in all_languages(name):
        q |= Q(**{"__".join([*path, column, lookup]): value})
    return q


def _keyword_q(value: str) -> Q:
    from cards.models import Card

    through = Card.keywords.through
    spaced = value.replace("_", " ")
    matching = through.objects.filter(
        Q(keyword__code__iexact=value)
        | _any_language("keyword__name", "iexact", value)
        | _any_language("keyword__name", "iexact", spaced)
    )
    return Q(pk__in=matching.values("card_id"))


def _term_q(term: Term) -> Q:
    key, value = term.key, term.value
    if key in NUMERIC_FIELDS:
        field = NUMERIC_FIELDS[key]
        lookup = {"=": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte", "!=": "exact"}[term.op]
        q = Q(**{f"{field}__{lookup}": value})
        return Q(**{f"{field}__isnull": False}) & ~q if term.op == "!=" else q
    if key == "faction":
        text = str(value)
        return (
            Q(faction__slug__iexact=text)
            | _any_language("faction__name", "istartswith", text)
            | Q(faction__slug__istartswith=text)
        )
    if key == "type":
        if value in ("unit", "event"):
            return Q(card_type=value)
        return Q(card_type="event", event_type=value)
    if key == "is":
        if value in ("unit", "event"):
            return Q(card_type=value)
        return Q(**{str(value): True})
    if key == "keyword":
        return _keyword_q(str(value))
    if key == "arrows":
        q = Q()
        for arrow in value:  # type: ignore[attr-defined]
            # Text match on the stored JSON list (portable across SQLite and PostgreSQL); the quotes
            # make "N" not match "NE".
            q &= Q(arrows__icontains=f'"{arrow}"')
        return q
    if key == "name":
        return _any_language("name", "icontains", value)
    if key == "text":
        return _any_language("rules_text", "icontains", value)
    raise AssertionError(f"unhandled key {key}")  # pragma: no cover - KEYS and _term_q move together


def to_q(node: Node) -> Q:
    """Translate an AST into a Django Q object over Card."""
    if isinstance(node, Text):
        return _any_language("name", "icontains", node.value) | _any_language(
            "rules_text", "icontains", node.value
        )
    if isinstance(node, Term):
        return _term_q(node)
    if isinstance(node, Not):
        return ~to_q(node.child)
    if isinstance(node, And):
        q = Q()
        for child in node.children:
            q &= to_q(child)
        return q
    q = Q()
    for child in node.children:
        q |= to_q(child)
    return q


def _terms(node: Node) -> list[Term]:
    if isinstance(node, Term):
        return [node]
    if isinstance(node, Not):
        return _terms(node.child)
    if isinstance(node, And | Or):
        return [t for child in node.children for t in _terms(child)]
    return []


def check_values(node: Node) -> None:
    """A faction or keyword that names none in the card database is an error listing the valid ones, not a
    silent "No cards match" (the parser knows the fixed values; these two live in the database)."""
    from cards.models import Faction, Keyword

    for term in _terms(node):
        text = str(term.value)
        if term.key == "faction":
            known = Faction.objects.filter(
                Q(slug__istartswith=text) | _any_language("name", "istartswith", text)
            ).exists()
            if not known:
                raise QuerySyntaxError(
                    gettext("unknown faction '%(value)s'") % {"value": text},
                    term.position,
                    gettext("known: %(values)s")
                    % {"values": ", ".join(Faction.objects.order_by("slug").values_list("slug", flat=True))},
                )
        elif term.key == "keyword":
            spaced = text.replace("_", " ")
            known = Keyword.objects.filter(
                Q(code__iexact=text)
                | _any_language("name", "iexact", text)
                | _any_language("name", "iexact", spaced)
            ).exists()
            if not known:
                raise QuerySyntaxError(
                    gettext("unknown keyword '%(value)s'") % {"value": text},
                    term.position,
                    gettext("known: %(values)s")
                    % {"values": ", ".join(Keyword.objects.order_by("code").values_list("code", flat=True))},
                )


def parse_query(text: str) -> Q:
    """Parse a search query into a ``Q`` over Card; raise QuerySyntaxError(message, position)."""
    tree = parse(text)
    check_values(tree)
    return to_q(tree)
