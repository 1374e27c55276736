"""Pages and API answers are compressed; static files get fingerprinted names (cached for a year) and the
pages' ES modules import each other by those names (config/storage.py)."""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}


@pytest.mark.parametrize("path", ["/", "/api/schema/?format=json", "/rules/commandeer/"])
def test_pages_and_api_answers_are_gzipped_when_the_client_accepts_it(path: str) -> None:
    plain = Client().get(path)
    packed = Client().get(path, **GZIP)
    assert packed.status_code == plain.status_code == 200
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    body = gzip.decompress(packed.content)
    assert len(packed.content) < len(body) / 2  # well worth it
    assert "Content-Encoding" not in plain


def test_static_files_get_fingerprinted_names_and_modules_import_them(tmp_path: Path, settings: Any) -> None:
    storages = {**settings.STORAGES, "staticfiles": {"BACKEND": "config.storage.StaticStorage"}}
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=storages):
        call_command("collectstatic", "--noinput", verbosity=0)
        page = Client().get("/decks/public/").content.decode()
    linked = re.findall(r'(?:src|href)="/static/([^"]+)"', page)
    assert linked and all(re.search(r"\.[0-9a-f]{12}\.\w+$", name) for name in linked), linked
    modules = list(tmp_path.glob("frontend/**/*.[0-9a-f]*.js"))
    assert modules
    imports = 0
    for module in modules:
        for target in re.findall(r'^(?:import|export)\b[^;]*?from\s*"(\.[^"]+)"', module.read_text(), re.M):
            assert re.search(r"\.[0-9a-f]{12}\.js$", target), (module.name, target)
            assert (module.parent / target).resolve().is_file(), (module.name, target)
            imports += 1
    assert imports > 50


def test_the_match_page_preloads_every_module_its_entry_imports() -> None:
    """One round trip for the whole module graph instead of a waterfall one import level at a time."""
    from django.contrib.staticfiles import finders

    from frontend.templatetags.modules import _graph, module_preloads

    graph = _graph("frontend/match.js")
    assert {"frontend/match_render.js", "frontend/js/api.js", "frontend/js/i18n.js"} <= set(graph)
    assert "frontend/match.js" not in graph and all(finders.find(name) for name in graph)
    links = str(module_preloads("frontend/match.js"))
    assert links.count('rel="modulepreload"') == len(graph) and "/static/frontend/js/live.js" in links
