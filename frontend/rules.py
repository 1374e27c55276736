"""The rules reference (docs/rules/*.md) as HTML pages, and rule citations (C-6.2, W-7.1) as links.

The Markdown files are the project's own rules; their format is described at the top of each English file:
a section is a heading that starts with its number (`## C-5 Turn structure`, `### W-7.1 March`), a rule is
a list item that starts with its bold number (`- **C-5.2 Planning actions.** …`). Each number becomes the
anchor id of its heading or list item, so `/rules/commandeer/#C-5.2` opens that rule, and every citation
of another rule in the text becomes a link to it.

Rendering is markdown-it-py with raw HTML off (the files cannot inject markup) and is done once per file,
language and modification time in each process: the files are part of the deployed code.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.urls import reverse
from markdown_it import MarkdownIt
from markdown_it.token import Token

GAMES: dict[str, str] = {"commandeer": "C", "westeros": "W"}
PREFIX_GAME: dict[str, str] = {prefix: game for game, prefix in GAMES.items()}
# The languages a rules file exists in; any other active language reads the English file.
RULES_LANGUAGES = ("en", "th", "zh-hans")

# A citation: C-6, C-6.2, W-9.10.1. The digits after a dot are required, so a sentence's full stop after
# "C-5.2." is not taken into the number. Only Latin letters and digits join a number: Thai and Chinese text
# may follow it without a space ("见W-9.4的").
RULE_NUMBER = re.compile(r"(?<![A-Za-z0-9_-])([CW])-(\d+(?:\.\d+)*)(?![A-Za-z0-9_-]|\.[A-Za-z0-9_])")
_LEADING_NUMBER = re.compile(r"^([CW]-\d+(?:\.\d+)*)(?![A-Za-z0-9_-]|\.[A-Za-z0-9_])\s*")


def rules_dir() -> Path:
    return Path(settings.BASE_DIR) / "docs" / "rules"


def rules_language(language: str | None) -> str:
    """The rules file's language for Django's active language code; English for any other."""
    code = (language or "").lower()
    if code in RULES_LANGUAGES:
        return code
    if code.startswith("zh-hans") or code in ("zh-cn", "zh-sg"):
        return "zh-hans"
    if code.startswith("th"):
        return "th"
    return "en"


def rules_path(game: str, language: str) -> Path:
    suffix = "" if language == "en" else f".{language}"
    return rules_dir() / f"{game}{suffix}.md"


def rules_url(game: str, number: str = "") -> str:
    url = reverse(f"rules-{game}")
    return f"{url}#{number}" if number else url


@dataclass(frozen=True)
class TocEntry:
    anchor: str
    title: str
    level: int  # 2 for a section, 3 for a numbered group inside it (W-7.1 March)


@dataclass(frozen=True)
class RulesDocument:
    game: str
    language: str  # the language of the file actually rendered (English when a translation is missing)
    title: str
    intro_html: str  # what the file says before its first section: how it is laid out, its sources
    html: str  # the numbered sections
    toc: tuple[TocEntry, ...]
    anchors: tuple[str, ...]  # every rule number in the file, in order


def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


def _link(href: str, content: str, css: str) -> list[Token]:
    opening = Token("link_open", "a", 1)
    opening.attrSet("href", href)
    opening.attrSet("class", css)
    return [opening, _text(content), Token("link_close", "a", -1)]


def _citation_links(content: str, game: str, known: dict[str, frozenset[str]]) -> list[Token]:
    """A text token's content split into text and links for every citation of a rule that exists."""
    out: list[Token] = []
    position = 0
    for match in RULE_NUMBER.finditer(content):
        number = match.group(0)
        target_game = PREFIX_GAME[match.group(1)]
        if number not in known.get(target_game, frozenset()):
            continue
        if match.start() > position:
            out.append(_text(content[position : match.start()]))
        href = f"#{number}" if target_game == game else rules_url(target_game, number)
        out.extend(_link(href, number, css="rule-ref"))
        position = match.end()
    if not out:
        return [_text(content)]
    if position < len(content):
        out.append(_text(content[position:]))
    return out


def _number_anchor(inline: Token, number: str) -> None:
    """Turn the leading number of a heading or a rule's bold lead into the visible link to its own anchor."""
    children = inline.children or []
    for index, child in enumerate(children):
        if child.type != "text" or not child.content:
            continue
        if not child.content.startswith(number):
            return
        rest = child.content[len(number) :]
        replacement = _link(f"#{number}", number, css="rule-num")
        if rest:
            replacement.append(_text(rest))
        children[index : index + 1] = replacement
        return


def _rewrite_doc_link(token: Token) -> None:
    """Links between the rules files point at the rules pages; links to other docs keep only their text."""
    href = token.attrGet("href")
    if not isinstance(href, str) or "://" in href or href.startswith("#"):
        return
    name = href.rsplit("/", 1)[-1].split("#", 1)[0]
    for game in GAMES:
        if href.count("/") == 0 and re.fullmatch(rf"{game}(\.[a-z-]+)?\.md", name):
            token.attrSet("href", rules_url(game))
            return
    token.attrs.pop("href", None)
    token.meta["drop"] = True


def _walk_inline(inline: Token, game: str, known: dict[str, frozenset[str]]) -> None:
    children: list[Token] = []
    links: list[bool] = []  # for each open link: was it dropped (its text kept, its <a> not)?
    for child in inline.children or []:
        if child.type == "link_open":
            _rewrite_doc_link(child)
            dropped = bool(child.meta.get("drop"))
            links.append(dropped)
            if not dropped:
                children.append(child)
        elif child.type == "link_close":
            if not (links and links.pop()):
                children.append(child)
        elif child.type == "text" and not links:
            children.extend(_citation_links(child.content, game, known))
        else:
            children.append(child)
    inline.children = children


def _iter_with_inline(tokens: list[Token]) -> Iterator[tuple[int, Token, Token | None]]:
    for index, token in enumerate(tokens):
        nxt = tokens[index + 1] if index + 1 < len(tokens) else None
        yield index, token, nxt


def _rule_number_of_item(tokens: list[Token], index: int) -> tuple[str, Token] | None:
    """A list item's rule number: its first paragraph starts with a bold number."""
    if index + 2 >= len(tokens) or tokens[index + 1].type != "paragraph_open":
        return None
    inline = tokens[index + 2]
    children = [child for child in inline.children or [] if not (child.type == "text" and not child.content)]
    if len(children) < 2 or children[0].type != "strong_open" or children[1].type != "text":
        return None
    match = _LEADING_NUMBER.match(children[1].content)
    return (match.group(1), inline) if match else None


def _scan_numbers(tokens: list[Token]) -> list[str]:
    numbers: list[str] = []
    for index, token, nxt in _iter_with_inline(tokens):
        if token.type == "heading_open" and nxt is not None and nxt.type == "inline":
            match = _LEADING_NUMBER.match(nxt.content)
            if match:
                numbers.append(match.group(1))
        elif token.type == "list_item_open":
            found = _rule_number_of_item(tokens, index)
            if found:
                numbers.append(found[0])
    return numbers


def _heading_title(inline: Token) -> str:
    return inline.content.strip()


@lru_cache(maxsize=32)
def _render_cached(game: str, language: str, path: str, mtime_ns: int) -> RulesDocument:
    md = _markdown()
    tokens = md.parse(Path(path).read_text(encoding="utf-8"))
    known = {other: frozenset(english_anchors(other)) for other in GAMES if other != game}
    known[game] = frozenset(_scan_numbers(tokens)) | (
        frozenset(english_anchors(game)) if language != "en" else frozenset()
    )

    title = ""
    toc: list[TocEntry] = []
    anchors: list[str] = []
    body: list[Token] = []
    skip_until = -1
    for index, token, nxt in _iter_with_inline(tokens):
        if index <= skip_until:
            continue
        if token.type == "heading_open" and token.tag == "h1" and not title and nxt is not None:
            title = _heading_title(nxt)
            skip_until = index + 2  # the h1 is the page's own heading, outside the body
            continue
        if token.type == "heading_open" and nxt is not None and nxt.type == "inline":
            match = _LEADING_NUMBER.match(nxt.content)
            if match:
                number = match.group(1)
                token.attrSet("id", number)
                token.attrSet("class", "rule-heading")
                anchors.append(number)
                if token.tag in ("h2", "h3"):
                    toc.append(TocEntry(anchor=number, title=_heading_title(nxt), level=int(token.tag[1])))
                _number_anchor(nxt, number)
        elif token.type == "list_item_open":
            found = _rule_number_of_item(tokens, index)
            if found:
                number, inline = found
                token.attrSet("id", number)
                token.attrSet("class", "rule")
                anchors.append(number)
                _number_anchor(inline, number)
        if token.type == "inline":
            _walk_inline(token, game, known)
        body.append(token)

    first_section = next(
        (index for index, token in enumerate(body) if token.type == "heading_open" and token.attrGet("id")),
        len(body),
    )
    return RulesDocument(
        game=game,
        language=language,
        title=title,
        intro_html=md.renderer.render(body[:first_section], md.options, {}),
        html=md.renderer.render(body[first_section:], md.options, {}),
        toc=tuple(toc),
        anchors=tuple(anchors),
    )


def render_rules(game: str, language: str | None) -> RulesDocument:
    """The rules of `game` in the language closest to `language` (English when there is no such file)."""
    if game not in GAMES:
        raise KeyError(game)
    chosen = rules_language(language)
    path = rules_path(game, chosen)
    if not path.is_file():
        chosen, path = "en", rules_path(game, "en")
    return _render_cached(game, chosen, str(path), path.stat().st_mtime_ns)


@lru_cache(maxsize=8)
def _english_anchors_cached(game: str, mtime_ns: int) -> tuple[str, ...]:
    tokens = _markdown().parse(rules_path(game, "en").read_text(encoding="utf-8"))
    return tuple(_scan_numbers(tokens))


def english_anchors(game: str) -> tuple[str, ...]:
    """Every rule number of the English file of `game`, in order: the numbers the site links to."""
    return _english_anchors_cached(game, rules_path(game, "en").stat().st_mtime_ns)


def known_rule(number: str) -> str | None:
    """The game whose rules define `number` (C-6.2 → "commandeer"), or None for a number no rule has."""
    game = PREFIX_GAME.get(number[:1])
    if game is None or number not in english_anchors(game):
        return None
    return game
