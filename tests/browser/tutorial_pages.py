"""What the two tutorials' browser tests share (test_tutorial_browser.py, test_tutorial_westeros_browser.py):
the step the page shows, a page in a language at a size (a phone in Thai from the lobby…), pictures of the
steps worth one, and the walk through every step to the end — each test says how one step is made.

TUTORIAL_SCREENSHOTS=<dir> keeps a picture of the steps in `pictures` at the size the test names
(docs/screenshots/tutorial-<game>-<step>-<what>-<size>.png are taken this way).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1400, "height": 900}
# a language's own script, to tell that a text is translated
SCRIPTS = {"th": re.compile("[\u0e00-\u0e7f]"), "zh-hans": re.compile("[\u4e00-\u9fff]")}


def step_of(page: Any) -> int:
    """The step the page shows (-1 before the lesson has loaded)."""
    return int(page.evaluate("document.body.dataset.tutorialStep || '-1'"))


def wait_for_step(page: Any, step: int) -> None:
    page.wait_for_function(f"document.body.dataset.tutorialStep === '{step}'")


def written_in(text: str, language: str) -> bool:
    return bool(SCRIPTS[language].search(text))


@contextmanager
def tutorial_page(
    chromium_browser: Any, live_server: Any, *, language: str = "en", viewport: dict[str, int] = DESKTOP
) -> Iterator[Any]:
    """A page in its own browser context, `language` chosen as a reader would (the language cookie), at
    `viewport`; JavaScript errors on the page fail the test."""
    # bypass_csp: Playwright evaluates `wait_for_function` predicates with eval, which the site's CSP
    # forbids (tests/browser/test_csp.py checks the policy without it)
    context = chromium_browser.new_context(viewport=viewport, bypass_csp=True)
    if language != "en":
        host = live_server.url.split("//", 1)[1].split(":")[0]
        context.add_cookies([{"name": "django_language", "value": language, "domain": host, "path": "/"}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def open_from(page: Any, live_server: Any, start: str, link: str, *, language: str = "en") -> None:
    """Go to `start` (the home page, the lobby) and follow its tutorial link, as a newcomer does."""
    page.goto(f"{live_server.url}{start}")
    page.click(f"[data-testid={link}]")
    wait_for_step(page, 0)  # a new visitor starts at the first step
    assert page.locator("html").get_attribute("lang") == language


def shoot(page: Any, game: str, pictures: dict[int, str], size: str) -> None:
    """A picture of this step when it is one of `pictures` and TUTORIAL_SCREENSHOTS asks for them."""
    shots = os.environ.get("TUTORIAL_SCREENSHOTS")
    step = step_of(page)
    if shots and step in pictures:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.mouse.move(1, 1)  # no card text open under the pointer
        page.wait_for_timeout(250)
        page.screenshot(path=str(Path(shots) / f"tutorial-{game}-{step:02d}-{pictures[step]}-{size}.png"))


def play_to_the_end(
    page: Any,
    total: int,
    make_step: Callable[[Any, int], None],
    *,
    before_step: Callable[[Any, int], None] | None = None,
) -> list[str]:
    """Make every step from the page's current one to the end with `make_step(page, step)`; answer the
    instructions seen, in order. `before_step` sees each step first (a picture, a check)."""
    seen = []
    for _ in range(total + 1):
        step = step_of(page)
        if before_step:
            before_step(page, step)
        if page.locator("[data-testid=tutorial-done]").is_visible():
            break
        seen.append(page.locator("[data-testid=tutorial-instruction]").inner_text())
        make_step(page, step)
        wait_for_step(page, step + 1)
    assert step_of(page) == total
    assert page.locator("[data-testid=tutorial-done]").is_visible()
    return seen


def press_the_one_button(page: Any) -> None:
    """A step made with a button: exactly one is offered to press (the step's, or "Next")."""
    buttons = page.locator("[data-testid=tutorial-next], [data-testid=tutorial-action]")
    assert buttons.count() == 1, "one button to press"
    buttons.click()


def axe_findings(page: Any) -> list[str]:
    """The page's critical and serious axe-core findings (tests/browser/test_accessibility.py's check)."""
    from tests.browser.test_accessibility import findings

    return findings(page)
