"""The API docs render in a browser with no internet: every request stays on the site."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _offline(page: Any, live_server: Any) -> list[str]:
    """Abort every request to another host (as on a machine without internet) and list them."""
    own = urlsplit(live_server.url).netloc
    elsewhere: list[str] = []

    def route(r: Any) -> None:
        if urlsplit(r.request.url).netloc == own:
            r.continue_()
        else:
            elsewhere.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    return elsewhere


def test_swagger_ui_renders_every_operation_offline(live_server: Any, browser_page: Any) -> None:
    from django.test import Client

    operations = sum(
        1
        for item in Client().get("/api/schema/?format=json").json()["paths"].values()
        for method in item
        if method in {"get", "post", "put", "patch", "delete"}
    )
    page = browser_page
    elsewhere = _offline(page, live_server)
    page.goto(f"{live_server.url}/api/docs/")
    page.locator(".opblock").first.wait_for()
    assert page.locator(".opblock").count() == operations
    assert page.locator(".opblock-summary-path", has_text="/api/decks/validate/").count() == 1
    assert elsewhere == []


def test_redoc_renders_offline(live_server: Any, browser_page: Any) -> None:
    page = browser_page
    elsewhere = _offline(page, live_server)
    page.goto(f"{live_server.url}/api/redoc/")
    page.locator("h2", has_text="Validate a card list without saving it (C-3)").first.wait_for()
    assert page.locator("h2", has_text="A deck by its share id").count() == 1
    # Nothing leaves the site, not even the "API docs by Redocly" footer's logo (frontend/js/redoc_init.js).
    assert elsewhere == []


def test_redoc_breaks_no_rule_of_the_sites_csp(live_server: Any, chromium_browser: Any) -> None:
    """Without bypass_csp: the search worker (blob:) is allowed on this page, and nothing is refused."""
    context = chromium_browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: refused.append(str(e)))
    page.goto(f"{live_server.url}/api/redoc/")
    page.locator("h2", has_text="Validate a card list without saving it (C-3)").first.wait_for()
    page.locator("[role=search] input").first.press_sequentially("revision")  # the worker's index answers
    page.locator("[data-role='search:results'] li", has_text="revision").first.wait_for()
    context.close()
    assert refused == []
