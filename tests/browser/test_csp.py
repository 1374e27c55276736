"""The site's Content-Security-Policy holds in a real browser: the main pages load and run with no
violation reported (no inline script, no eval, nothing from another site), and the error pages are
the site's own. Each page runs in a context that enforces the policy (no `bypass_csp`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from boardgame import dataset as board_dataset
from matches.services.lobby import match_create
from matches.tests.commandeer_fixtures import legal_deck, load_cards

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Recorded from the first moment of every document, before any page script runs.
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`);
});
"""


@pytest.fixture
def strict_page(chromium_browser: Any) -> Iterator[tuple[Any, list[str]]]:
    """A page under the site's real CSP; console lines about the policy and page errors are collected."""
    context = chromium_browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(15_000)
    problems: list[str] = []
    page.on(
        "console",
        lambda m: problems.append(f"console: {m.text}") if "Content Security Policy" in m.text else None,
    )
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    yield page, problems
    context.close()


def _check(page: Any, problems: list[str], url: str, ready: str) -> None:
    page.goto(url)
    try:
        page.locator(ready).first.wait_for(state="attached")
        page.wait_for_timeout(300)  # late scripts and fetches
        ran = ""
    except PlaywrightTimeout:
        ran = f"{ready} never appeared (a blocked script?)"
    violations = page.evaluate("window.__cspViolations")
    assert violations == [] and problems == [] and not ran, f"{url}: {violations + problems + [ran]}"
    assert "script-src 'self'" in (page.context.request.get(url).headers.get("content-security-policy") or "")


def test_main_pages_run_without_a_csp_violation(live_server: Any, strict_page: tuple[Any, list[str]]) -> None:
    page, problems = strict_page
    load_cards()
    board_dataset.game_data_import(data=board_dataset.bundled_data())
    user = get_user_model().objects.create_user("alice", password="pw-alice-123")
    deck = legal_deck(user, "stonehold")
    commandeer = match_create(user=user, kind="commandeer", deck_id=deck.pk, vs_ai=True)
    westeros = match_create(
        user=user, kind="westeros", vs_ai=True, rules_config={"player_count": 3, "house": "stark"}
    )
    url = live_server.url

    page.goto(f"{url}/accounts/login/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "pw-alice-123")
    page.click("form.form button[type=submit]")
    page.wait_for_url(f"{url}/")

    _check(page, problems, f"{url}/", ".hero")
    _check(page, problems, f"{url}/cards/", "[data-testid=card-tile]")
    _check(page, problems, f"{url}/decks/", "[data-testid=my-decks] a")
    _check(page, problems, f"{url}/decks/{deck.pk}/", "#deck-builder[data-ready=true]")
    _check(page, problems, f"{url}/play/", "[data-testid=play-ai], form, main")
    # (live_server speaks no WebSocket: the page shows "connecting" and its scripts have run)
    _check(page, problems, f"{url}/play/{commandeer.pk}/", "[data-testid=connection]")
    _check(page, problems, f"{url}/westeros/games/{westeros.pk}/", "svg [data-area-id]")
    _check(page, problems, f"{url}/westeros/map/?players=3", "svg [data-area-id]")
    _check(page, problems, f"{url}/api/docs/", ".swagger-ui .opblock")
    _check(page, problems, f"{url}/no-such-page/", "[data-testid=error-page]")
