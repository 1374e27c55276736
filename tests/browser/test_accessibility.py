"""Every page, signed out and in, in English and Thai, through axe-core: no critical or serious finding.

axe-core is the engine browsers' own audits and most accessibility tools run; the `axe-playwright-python`
package (dev extras) ships its script and injects it through Playwright, so no file is vendored here and a
new axe-core arrives with the package. The pages are those of tests/browser/test_every_page_in_every_language
(its live daphne server and seeded data: a Commandeer match in play, a finished one, a Westeros game, decks,
cards, rules, profile, settings, lobby) plus a Commandeer match against the AI created from the page.

The Thai pages are checked as well as the English ones because contrast and name checks depend on the text
(Thai line heights, longer labels).
"""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

# The live server and its pages; pytest finds the fixture in this module's names.
from tests.browser.test_every_page_in_every_language import SIGNED_OUT, pages, site  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

LANGUAGES = ("en", "th")
BLOCKING = {"critical", "serious"}

CREATE_AI_MATCH = """async (deck) => {
  const token = document.cookie.split("; ").find((c) => c.startsWith("csrftoken=")).split("=")[1];
  const answer = await fetch("/api/matches/", {
    method: "POST",
    headers: {"Content-Type": "application/json", "X-CSRFToken": token},
    body: JSON.stringify({kind: "commandeer", deck_id: deck, vs_ai: true, ai_agent: "easy"}),
  });
  return (await answer.json()).id;
}"""


# axe-core's default rules plus "label-content-name-mismatch" (WCAG 2.5.3, label in name: a voice-control user
# says what they see), which axe still calls experimental and leaves off.
OPTIONS = {"resultTypes": ["violations"], "rules": {"label-content-name-mismatch": {"enabled": True}}}
# A board square holding a unit and a hand card show a picture of a card (its name beside ⚔ power, ♥ health,
# costs, attack arrows, rules text) and are named in words ("C3, your Blazing Lancer, power 2000, …";
# "Blazing Lancer; 3 CP, 2 Energy; …"): the name starts with or holds the card's name, the text a player
# reads off it (tests/browser/test_keyboard_browser.py checks that), never the symbols, which is what the
# experimental rule asks.
PICTURES = {"label-content-name-mismatch": ".board .square, .hand-card"}


def findings(page: Any) -> list[str]:
    """The page's critical and serious axe-core violations, one line per rule with the nodes it names."""
    results = Axe().run(page, options=OPTIONS)
    lines = []
    for violation in results.response["violations"]:
        if violation["impact"] not in BLOCKING:
            continue
        nodes = [n for n in violation["nodes"] if not is_picture(page, violation["id"], n["target"])]
        if not nodes:
            continue
        summary = nodes[0].get("failureSummary", "").replace("\n", " ")[:300]
        where = [n["html"][:120] for n in nodes[:5]]
        lines.append(f"{violation['id']} ({violation['impact']}, {len(nodes)}): {where} — {summary}")
    return lines


def is_picture(page: Any, rule: str, target: list[Any]) -> bool:
    """Whether the node is a board square the rule `rule` may not judge (PICTURES)."""
    if rule not in PICTURES or len(target) != 1 or not isinstance(target[0], str):
        return False
    return bool(
        page.evaluate("([t, s]) => document.querySelector(t)?.matches(s)", [target[0], PICTURES[rule]])
    )


def visit(page: Any, url: str, wait_for: str) -> None:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    if wait_for:
        page.wait_for_selector(wait_for, state="attached")
    page.wait_for_timeout(150)  # the last render after the data came


def check_every_page(chromium: Any, url: str, made: dict[str, Any], lang: str) -> dict[str, list[str]]:
    context = chromium.new_context(bypass_csp=True, viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": "django_language", "value": lang, "url": url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    found: dict[str, list[str]] = {}
    try:
        for path in (*SIGNED_OUT, "/", "/cards/", "/rules/commandeer/"):
            visit(page, f"{url}{path}", "")
            if lines := findings(page):
                found[f"signed out {path}"] = lines
        page.goto(f"{url}/accounts/login/")
        page.fill("input[name=username]", "alice")
        page.fill("input[name=password]", "pw-alice-123")
        page.locator("form:has(input[name=password]) [type=submit]").click()
        page.wait_for_url(lambda u: "/accounts/login/" not in u)
        ai_match = page.evaluate(CREATE_AI_MATCH, made["deck"])
        for path, wait_for in [*pages(made), (f"/play/{ai_match}/", "#conn[data-state]")]:
            visit(page, f"{url}{path}", wait_for)
            if lines := findings(page):
                found[path] = lines
    finally:
        context.close()
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_page_has_a_critical_or_serious_axe_finding(
    site: tuple[str, dict[str, Any]],  # noqa: F811
    chromium_browser: Any,
    lang: str,
) -> None:
    url, made = site
    found = check_every_page(chromium_browser, url, made, lang)
    report = "\n".join(f"{path}:\n  " + "\n  ".join(lines) for path, lines in found.items())
    assert found == {}, f"axe-core findings on the {lang} pages:\n{report}"


ACTIVE = "(sel) => { const a = document.activeElement; return Boolean(a && a.matches(sel)); }"
# Where an area sits on the drawn map, as the map's arrow keys measure it (WesterosMap.anchor).
FOCUSED_AREA = """() => {
  const a = document.activeElement;
  if (!a || !a.matches(".wx-area")) return null;
  const box = a.getBBox();
  const port = a.dataset.kind === "port";
  return {id: a.dataset.areaId, x: port ? box.x + box.width / 2 : Number(a.dataset.x),
          y: port ? box.y + box.height / 2 : Number(a.dataset.y)};
}"""


def tabs_until(page: Any, selector: str, limit: int = 60) -> int:
    """How many Tab presses from where the focus is bring it onto `selector`."""
    for n in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate(ACTIVE, selector):
            return n
    raise AssertionError(f"{selector} never got the focus in {limit} Tabs")


def test_westeros_orders_are_a_few_keys_away_and_the_map_is_one_tab_stop(
    site: tuple[str, dict[str, Any]],  # noqa: F811
    chromium_browser: Any,
) -> None:
    url, made = site
    context = chromium_browser.new_context(bypass_csp=True, viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", "pw-alice-123")
    page.locator("form:has(input[name=password]) [type=submit]").click()
    page.wait_for_url(lambda u: "/accounts/login/" not in u)
    game = f"{url}/westeros/games/{made['westeros']}/"
    first_order = "[data-plan-area] .wx-plan-area"  # the first area of the orders plan (W-5.1)
    try:
        page.goto(game)
        page.wait_for_selector(first_order)
        # the skip link is the second Tab stop; from the decision's heading the first order is a Tab or two on
        assert tabs_until(page, "[data-testid=skip-to-orders]") == 2
        page.keyboard.press("Enter")
        assert page.evaluate(ACTIVE, "#wx-decide-title")
        assert tabs_until(page, first_order) <= 2

        # without the skip link: the header, the map as ONE stop, its zoom buttons, then the orders (was 77)
        page.goto(game)
        page.wait_for_selector(first_order)
        assert page.locator(".wx-area[tabindex='0']").count() == 1
        assert tabs_until(page, first_order) <= 22

        # Tab reaches the map on an area with a choice; the arrow keys move on the map, the stop follows
        page.goto(game)
        page.wait_for_selector(first_order)
        tabs_until(page, ".wx-area")
        assert "mark-actionable" in (
            page.evaluate("() => document.activeElement.getAttribute('class')") or ""
        )
        page.locator(".wx-area[data-area-id='harrenhal']").focus()  # mid-map: every direction has a neighbour
        for key, axis, sign in (
            ("ArrowDown", "y", 1),
            ("ArrowRight", "x", 1),
            ("ArrowUp", "y", -1),
            ("ArrowLeft", "x", -1),
        ):
            before = page.evaluate(FOCUSED_AREA)
            page.keyboard.press(key)
            after = page.evaluate(FOCUSED_AREA)
            assert after is not None and after["id"] != before["id"], key
            assert (after[axis] - before[axis]) * sign > 0, (key, before, after)
            assert page.locator(".wx-area[tabindex='0']").get_attribute("data-area-id") == after["id"]
        # Enter and Space choose the focused area (it shows as pressed; the decision turns to it)
        for key in ("Enter", " "):
            page.keyboard.press("ArrowDown")
            here = page.evaluate(FOCUSED_AREA)["id"]
            page.keyboard.press(key)
            page.wait_for_function("(id) => document.body.dataset.selectedArea === id", arg=here)
            assert page.locator(f".wx-area[data-area-id='{here}']").get_attribute("aria-pressed") == "true"
            assert page.evaluate(FOCUSED_AREA)["id"] == here  # the focus stays on the map
        # Tab leaves the map at once, and the log is a Tab stop named by its heading
        page.keyboard.press("Tab")
        assert not page.evaluate(ACTIVE, ".wx-area")
        tabs_until(page, "#wx-log", limit=200)
        assert page.locator("#wx-log").get_attribute("aria-labelledby") == "wx-log-title"
    finally:
        context.close()
