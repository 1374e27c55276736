"""The rules pages in a real browser: `/rules/westeros/#W-7.1` in Thai opens with that rule in view, at
1400×900 and on a 390×844 phone (where the contents fold above the text); rule_links.js links citations in
a text node with <a> elements only.

Set RULES_SCREENSHOTS=<dir> to keep a picture of each page in Thai and Chinese at both sizes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.test import override_settings
from django.test.testcases import LiveServerThread

from tests.test_rules_pages import LANGUAGES, _middleware

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"1400": {"width": 1400, "height": 900}, "390": {"width": 390, "height": 844}}


@pytest.fixture
def rules_server() -> Iterator[str]:
    """A live server whose middleware resolves the language (its handler loads middleware as it starts)."""
    with override_settings(LANGUAGE_CODE="en", LANGUAGES=LANGUAGES, MIDDLEWARE=_middleware()):
        thread = LiveServerThread("localhost", StaticFilesHandler, port=0)
        thread.daemon = True
        thread.start()
        thread.is_ready.wait(timeout=30)
        if thread.error:
            raise thread.error
        try:
            yield f"http://localhost:{thread.port}"
        finally:
            thread.terminate()


def _page(browser: Any, size: str, language: str) -> Any:
    context = browser.new_context(
        viewport=SIZES[size],
        locale=language,
        extra_http_headers={"Accept-Language": language},
        bypass_csp=True,
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def _in_view(page: Any, selector: str) -> dict[str, float]:
    return page.evaluate(
        """(selector) => {
          const r = document.querySelector(selector).getBoundingClientRect();
          return {top: r.top, bottom: r.bottom, height: innerHeight, width: innerWidth, right: r.right};
        }""",
        selector,
    )


@pytest.mark.parametrize("size", ["1400", "390"])
def test_a_rule_link_opens_the_rule_in_view_in_thai(
    rules_server: str, chromium_browser: Any, size: str
) -> None:
    page = _page(chromium_browser, size, "th")
    page.goto(f"{rules_server}/rules/westeros/#W-7.1")
    page.wait_for_load_state("load")
    assert page.locator("[data-testid=rules-body]").get_attribute("lang") == "th"
    heading = page.locator('[id="W-7.1"]')
    assert heading.count() == 1
    assert "W-7.1" in heading.inner_text()
    box = _in_view(page, '[id="W-7.1"]')
    # The rule's heading is at the top of the window (scrolled to), not merely somewhere on the page.
    assert 0 <= box["top"] < box["height"] * 0.25, box
    assert box["right"] <= box["width"] + 1, box
    # No horizontal scrolling: Thai lines break inside the column.
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1")
    toc = page.locator("[data-testid=rules-toc]")
    if size == "390":
        assert not toc.is_visible()  # folded on a phone, one tap opens it
        page.locator("[data-testid=rules-toc-toggle]").click()
        assert toc.is_visible()
        page.locator('[data-testid=rules-toc] a[href="#W-9"]').click()
        page.wait_for_function("location.hash === '#W-9'")
        assert 0 <= _in_view(page, '[id="W-9"]')["top"] < SIZES[size]["height"] * 0.25
    else:
        assert toc.is_visible()
        assert page.locator("[data-testid=rules-toc-toggle]").is_visible() is False
        # The contents stay beside the text while it scrolls.
        page.locator('[id="W-20"]').scroll_into_view_if_needed()
        aside = _in_view(page, ".rules-aside")
        assert 0 <= aside["top"] < 40, aside
        # A citation inside a rule opens that rule.
        page.locator('[id="W-1.13"] a.rule-ref[href="#W-9.10"]').click()
        page.wait_for_function("location.hash === '#W-9.10'")
        assert 0 <= _in_view(page, '[id="W-9.10"]')["top"] < SIZES[size]["height"] * 0.25
    assert "สารบัญ" in page.content()
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_rule_links_js_links_a_text_node_without_parsing_html(
    rules_server: str, chromium_browser: Any
) -> None:
    page = _page(chromium_browser, "1400", "en")
    page.goto(f"{rules_server}/rules/commandeer/")
    result = page.evaluate(
        """async () => {
          const mod = await import('/static/frontend/js/rule_links.js');
          const box = document.createElement('p');
          box.textContent = '<img src=x onerror=alert(1)> Illegal: C-3.2, C-3.3 and W-7.1.4. ABC-5.2 C-5.2a 见W-9.4的';
          document.body.append(box);
          const count = mod.linkRulesInTextNode(box.firstChild);
          const links = [...box.querySelectorAll('a')].map(a => [a.getAttribute('href'), a.textContent, a.className]);
          const tree = document.createElement('div');
          tree.innerHTML = '<span>see C-6.2</span><a href="/x">C-6.1</a><code>C-5.1</code>';
          const inTree = mod.linkRules(tree);
          return {count, links, text: box.textContent, imgs: box.querySelectorAll('img').length,
                  inTree, treeHtml: tree.innerHTML, none: mod.ruleLinked('no numbers here'),
                  href: mod.ruleHref('W-7.1')};
        }"""
    )
    assert result["count"] == 4
    assert result["links"] == [
        ["/rules/commandeer/#C-3.2", "C-3.2", "rule-ref"],
        ["/rules/commandeer/#C-3.3", "C-3.3", "rule-ref"],
        ["/rules/westeros/#W-7.1.4", "W-7.1.4", "rule-ref"],
        ["/rules/westeros/#W-9.4", "W-9.4", "rule-ref"],
    ]
    assert result["imgs"] == 0 and result["text"].startswith("<img src=x onerror=alert(1)>")
    assert result["inTree"] == 1
    assert result["treeHtml"] == (
        '<span>see <a class="rule-ref" href="/rules/commandeer/#C-6.2">C-6.2</a></span>'
        '<a href="/x">C-6.1</a><code>C-5.1</code>'
    )
    assert result["none"] is None
    assert result["href"] == "/rules/westeros/#W-7.1"
    page.context.close()


@pytest.mark.parametrize("game", ["westeros", "commandeer"])
@pytest.mark.parametrize("language", ["th", "zh-hans"])
@pytest.mark.parametrize("size", ["1400", "390"])
def test_each_rules_page_fits_its_width_in_each_language(
    rules_server: str, chromium_browser: Any, game: str, language: str, size: str, tmp_path: Path
) -> None:
    """No sideways scrolling (Thai runs long), the picture taken: into RULES_SCREENSHOTS (docs/screenshots)
    when set, else a temporary folder."""
    out = Path(os.environ.get("RULES_SCREENSHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    page = _page(chromium_browser, size, language)
    anchor = "#W-7.1" if game == "westeros" else "#C-5.2"
    page.goto(f"{rules_server}/rules/{game}/{anchor}")
    page.wait_for_load_state("load")
    if size == "390":
        page.locator("[data-testid=rules-toc-toggle]").click()
        page.evaluate("scrollTo(0, 0)")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.screenshot(path=str(out / f"rules-{game}-{language}-{size}.png"))
    assert (out / f"rules-{game}-{language}-{size}.png").stat().st_size > 10_000
    page.context.close()
