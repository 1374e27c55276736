"""The rules pages: the project's rules reference (docs/rules/) in the viewer's language (frontend.rules)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.safestring import mark_safe

from .rules import GAMES, render_rules, rules_language


def rules_page(request: HttpRequest, game: str) -> HttpResponse:
    """One game's numbered rules, each rule an anchor (`#C-6.2`), with a contents list by section."""
    language = rules_language(translation.get_language())
    document = render_rules(game, language)
    other = next(name for name in GAMES if name != game)
    return render(
        request,
        "frontend/rules.html",
        {
            "game": game,
            "document": document,
            "other_game": other,
            "current_language": language,
            # markdown-it renders with raw HTML off: the text of the rules files is escaped.
            "intro_html": mark_safe(document.intro_html),
            "rules_html": mark_safe(document.html),
        },
    )
