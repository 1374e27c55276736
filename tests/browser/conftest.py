"""Headless Debian Chromium through Playwright's sync API, for tests marked `browser`.

Playwright's own browser download cannot work here, so the system Chromium is used. A missing
Chromium makes the tests FAIL (never skip): CI installs it. Playwright's sync API runs an event
loop in the test thread, so Django's async-safety check is switched off for these tests.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# `chromium_browser` (one Playwright and Chromium per session) comes from tests/conftest.py.


@pytest.fixture
def browser_page(chromium_browser: object, request: pytest.FixtureRequest) -> Iterator[object]:
    """A fresh page (laptop size); JavaScript errors on the page fail the test.

    Set BROWSER_SCREENSHOTS=<dir> to keep a screenshot of the last state of each test.
    """
    # bypass_csp: Playwright evaluates `wait_for_function` predicates with eval, which the site's CSP
    # forbids; tests/browser/test_csp.py checks the policy in contexts without it.
    context = chromium_browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    shots = os.environ.get("BROWSER_SCREENSHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(shots) / f"{request.node.name}.png"), full_page=True)
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture(autouse=True)
def _close_what_the_test_opened(request: pytest.FixtureRequest) -> Iterator[None]:
    """Closes every browser context a test opened and left open (a player object's pages, say): a match
    page left running keeps its socket, clocks and animations busy in a renderer of its own, and a dozen
    of them starve the later tests of the two cores. Contexts of module-scoped fixtures, made before the
    test, stay open."""
    if "chromium_browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("chromium_browser")
    before = set(browser.contexts)
    yield
    for context in browser.contexts:
        if context not in before:
            context.close()
