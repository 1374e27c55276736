"""`{% module_preloads "frontend/match.js" %}`: a `<link rel="modulepreload">` for every module a page's
entry module imports, directly or through others.

Without it the browser finds the match page's modules one import level at a time (match.js, then
match_render.js, then card_component.js …: a waterfall four requests deep); with it every module is
asked for at once while the HTML is read. The links carry the fingerprinted names (config/storage.py),
which are cached for a year, so a second visit asks for none of them.
"""

from __future__ import annotations

import posixpath
import re
from functools import lru_cache

from django import template
from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

register = template.Library()

# Static relative imports only (`import … from "./x.js"`, `export … from "./x.js"`, `import "./x.js"`):
# the pages use no dynamic import().
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^;'"]*?(?:\bfrom\s*)?["'](\.{1,2}/[^"']+\.js)["']""", re.M)


def _imports(name: str) -> list[str]:
    path = finders.find(name)
    if not path or isinstance(path, list):
        return []
    with open(path, encoding="utf-8") as source:
        text = source.read()
    folder = posixpath.dirname(name)
    return [posixpath.normpath(posixpath.join(folder, target)) for target in IMPORT.findall(text)]


def _graph(entry: str) -> tuple[str, ...]:
    """Every module `entry` imports, directly or not, in the order first met (the entry itself left out)."""
    seen: dict[str, None] = {}
    todo = [entry]
    while todo:
        for found in _imports(todo.pop()):
            if found != entry and found not in seen:
                seen[found] = None
                todo.append(found)
    return tuple(seen)


_cached_graph = lru_cache(maxsize=32)(_graph)


@register.simple_tag
def module_preloads(entry: str) -> SafeString:
    modules = _graph(entry) if settings.DEBUG else _cached_graph(entry)  # edited files show at once in DEBUG
    return format_html_join("\n", '<link rel="modulepreload" href="{}">', ((static(m),) for m in modules))
