"""Fixtures shared by the cross-app tests.

There is ONE Playwright instance per test session: Playwright's sync API runs an event loop in the
test thread, and a second ``sync_playwright()`` while the first is alive fails. Every browser test
(tests/browser) uses ``chromium_browser``. `make test` runs the browser tests in
a pytest process of their own, after the others, so that loop never meets the async tests.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.services import celery_producer, redis_url, shared_db, worker  # noqa: F401  (fixtures)

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def chromium_browser() -> Iterator[object]:
    """One headless Chromium for the session; fails loudly when it is not installed."""
    assert Path(CHROMIUM).exists(), f"Chromium not found at {CHROMIUM}: install it (apt-get install chromium)"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()
