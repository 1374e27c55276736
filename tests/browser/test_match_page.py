"""The Commandeer match page a player understands at a glance, in headless Chromium.

A card's full text on hover in the hand and on the board; the second player's board drawn from their side
(own units at the bottom, in "your" colour) with attack directions named as drawn; the current decision and
its choices on screen without scrolling at 1400×900 and on a 390×844 phone; automatic passes for a phase
whose only action is Pass. Screenshots go to SCREENSHOT_DIR when it is set.
"""

# ruff: noqa: F811  (the live-server fixtures are imported from test_browser_match and named as parameters)
from __future__ import annotations

import os
import re
import time
from typing import Any

import pytest

from matches.engine.board import DELTAS, ROTATE  # C-1.2: the engine's own direction table
from tests.browser.test_browser_match import (  # noqa: F401  (fixtures: the live server, Chromium)
    Player,
    browser,
    click_one_move,
    server,
    wait_version,
)
from tests.browser.test_match_log_browser import DAMAGE, open_match, site  # noqa: F401  (rigged positions)

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}
# screen direction of each arrow glyph: (dx, dy) with y growing downwards, as on the page
GLYPH = {
    "↑": (0, -1),
    "↗": (1, -1),
    "→": (1, 0),
    "↘": (1, 1),
    "↓": (0, 1),
    "↙": (-1, 1),
    "←": (-1, 0),
    "↖": (-1, -1),
}


class Viewer(Player):
    """A Player whose browser window has a given size (a phone gets touch)."""

    def __init__(self, browser: Any, url: str, name: str | None, viewport: dict[str, int] = DESKTOP) -> None:
        self.viewport = viewport
        self.turn_limit = "2"  # of the last match `_against_ai` started
        super().__init__(browser, url, None)
        self.ctx.close()
        phone = viewport["width"] < 700
        self.ctx = browser.new_context(bypass_csp=True, viewport=viewport, has_touch=phone, is_mobile=phone)
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(8000)
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        self.name = name
        if name:
            self.page.goto(f"{url}/accounts/login/")
            self.page.fill("input[name=username]", name)
            self.page.fill("input[name=password]", f"pw-{name}-123")
            self.page.locator("form:has(input[name=password]) [type=submit]").click()
            self.page.wait_for_load_state()

    def shot(self, name: str) -> None:
        shots = os.environ.get("SCREENSHOT_DIR")
        if shots:
            self.page.screenshot(path=f"{shots}/{name}.png")


def _against_ai(v: Viewer, turn_limit: str = "2") -> None:
    v.turn_limit = turn_limit
    page = v.page
    page.goto(f"{v.url}/play/")
    page.select_option("[data-testid=turn-limit]", turn_limit)
    page.click("[data-testid=play-ai]")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    page.wait_for_selector("[data-testid=board]:visible")


def _step(v: Viewer, deploys: dict[str, int]) -> bool:
    """One move of `v` by clicking when it is theirs (True), else wait a little (False)."""
    from playwright.sync_api import Error as PlaywrightError

    if not v.my_move():
        time.sleep(0.1)
        return False
    version = v.version()
    try:
        click_one_move(v, deploys)
    except PlaywrightError:
        return False
    end = time.monotonic() + 6
    while v.version() <= version and v.status() == "active" and time.monotonic() < end:
        time.sleep(0.05)
    return True


def _play_until(v: Viewer, done: Any, limit: int = 200, again: Any = None) -> None:
    """Click moves until `done()`. `again`: how to start a fresh match when this one ends first (random
    clicks can lose every unit early, C-6.2, or reach the turn limit, C-6.5), at most three times; by default
    a new match against the AI with the last one's turn limit."""
    deploys: dict[str, int] = {}
    again = again or (lambda: _against_ai(v, v.turn_limit))
    restarts = 3
    for _ in range(limit):
        if done():
            return
        if v.status() != "active" and restarts:
            restarts -= 1
            again()
            continue
        assert v.status() == "active", "the match ended first"
        _step(v, deploys)
    raise AssertionError("the situation never came")


def test_a_cards_text_shows_on_hover_in_the_hand_and_on_the_board(server: str, browser: Any) -> None:
    v = Viewer(browser, server, "carol")
    page = v.page
    _against_ai(v)

    def ready() -> bool:
        return (
            v.my_move()
            and page.locator("[data-testid=unit]").count() > 0
            and page.locator("[data-testid=hand-card]").count() > 0
        )

    _play_until(v, ready)
    pop = page.locator("[data-testid=card-pop]")
    card = page.locator("[data-testid=hand-card]").first
    name = card.get_attribute("data-name") or ""
    card.hover()
    pop.wait_for(state="visible")
    assert name in pop.inner_text()
    text = page.evaluate("(n) => window.matchConnection.snapshot.view.catalog[n].rules_text || ''", name)
    if text:
        assert text[:40] in pop.locator(".rules-text").inner_text()
    v.shot("hover-hand-1400")
    page.mouse.move(1, 1)
    pop.wait_for(state="hidden")

    unit = page.locator("[data-testid=unit]").first
    unit_name = unit.get_attribute("data-name") or ""
    unit.hover()
    pop.wait_for(state="visible")
    body = pop.inner_text()
    assert unit_name in body and "On the board:" in body and "Health" in body
    v.shot("hover-board-1400")
    # keyboard: the focused card opens as a dialog with "i", Escape closes it
    page.mouse.move(1, 1)
    page.locator("[data-testid=hand-card]").first.focus()
    page.keyboard.press("i")
    page.locator("[data-testid=card-pop-close]").wait_for(state="visible")
    page.keyboard.press("Escape")
    pop.wait_for(state="hidden")

    # the log names cards too: a unit's name in "… Deploy X to c3." shows that card on hover
    in_log = page.locator("[data-testid=log] .log-card", has_text=unit_name).first
    in_log.scroll_into_view_if_needed()
    in_log.hover()
    pop.wait_for(state="visible")
    assert unit_name in pop.inner_text()
    v.ctx.close()


def _center(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _check_attack_named_as_drawn(v: Viewer) -> bool:
    """In the viewer's Combat phase: pick an attacker, read the confirmation and check it against the board."""
    page = v.page
    me = page.locator("#match-app").get_attribute("data-you")
    attackers = page.locator(f".unit.selectable[data-owner='{me}']")
    if not attackers.count():
        return False
    attackers.first.click()
    if page.locator(".unit.selectable").count():
        page.locator(".unit.selectable").first.click()
    confirm = page.locator("[data-testid=confirm-text]")
    confirm.wait_for(state="visible")
    text = confirm.inner_text()
    glyph = next(g for g in GLYPH if g in text)
    ax, ay = _center(page, f".unit.picked[data-owner='{me}']")
    tx, ty = _center(page, ".unit.confirm-target")
    dx, dy = GLYPH[glyph]
    # the target lies in the named direction as drawn on this screen (any distance: Range Attack, C-7.1)
    sign = lambda x: (x > 5) - (x < -5)  # noqa: E731
    assert (sign(tx - ax), sign(ty - ay)) == (dx, dy), (text, (ax, ay), (tx, ty))
    attacker = page.locator(f".unit.picked[data-owner='{me}']")
    assert glyph in attacker.locator(".arrows").inner_text()  # the unit's own arrow is drawn that way
    v.shot(f"confirm-attack-{v.name}-{v.viewport['width']}")
    page.locator("[data-testid=confirm]").click()
    return True


def _deploy_to_threaten(v: Viewer) -> bool:
    """In the Planning phase, deploy (by clicking) a unit next to an enemy one that its arrows point at (C-5.6)."""
    page = v.page
    if not v.my_move():
        return False
    snap = page.evaluate("window.matchConnection.snapshot")
    view, me = snap["view"], snap["you"]
    if view["step"] != "planning" or view["decision"]:
        return False
    enemies = {u["square"] for u in view["board"] if u["owner"] != me}
    for a in snap["legal_actions"]:
        act = a["action"]
        if act["type"] != "deploy":
            continue
        arrows = (
            view["catalog"][
                next(
                    c["card"]
                    for c in view["players"][me]["hand"] + [view["players"][me]["commander"] or {}]
                    if c.get("id") == act["card"]
                )
            ]["arrows"]
            or []
        )
        x, y = "abcdef".index(act["square"][0]), int(act["square"][1]) - 1
        for arrow in arrows:
            dx, dy = DELTAS[ROTATE[arrow] if me != view["first_player"] else arrow]  # C-1.2: owner-relative
            if 0 <= x + dx < 6 and 0 <= y + dy < 6 and f"{'abcdef'[x + dx]}{y + dy + 1}" in enemies:
                version = v.version()
                page.click(f"[data-token='c:{act['card']}']")
                page.click(f"[data-testid=square-{act['square']}]")
                page.wait_for_function(f"Number(document.body.dataset.version) > {version}")
                return True
    return False


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1400x900", "390x844"])
def test_player_two_sees_own_units_at_the_bottom_and_attacks_named_as_drawn(
    server: str, browser: Any, viewport: dict[str, int]
) -> None:
    from playwright.sync_api import Error as PlaywrightError

    alice, bob = Viewer(browser, server, "alice"), Viewer(browser, server, "bob")  # the lobby at desktop size
    carol = Viewer(browser, server, "carol", viewport)

    a, b = alice.page, bob.page

    def start_match() -> None:
        for p in (alice, bob):
            p.page.set_viewport_size(DESKTOP)
        a.goto(f"{server}/play/")
        # each size its own settings: the lobby takes the same "create" again within seconds as one click
        a.select_option("[data-testid=turn-limit]", "10" if viewport is DESKTOP else "")
        a.uncheck("[data-testid=auto-start]")  # this test starts it with the button
        a.click("[data-testid=create-match]")
        a.wait_for_url(re.compile(r"/play/\d+/$"))
        match_id = int(a.url.rstrip("/").split("/")[-1])
        b.goto(f"{server}/play/{match_id}/")
        b.click("#join-here [data-testid=join]")
        a.wait_for_function("document.querySelectorAll('[data-testid=seat]').length === 2")
        a.click("[data-testid=start]")
        for p in (alice, bob):
            p.page.wait_for_selector("[data-testid=board]:visible")
            p.page.set_viewport_size(viewport)
            p.viewport = viewport
        carol.page.goto(f"{server}/play/{match_id}/")
        carol.page.wait_for_selector("[data-testid=board]:visible")

    start_match()
    deploys: dict[str, int] = {}
    checked: dict[str, int] = {}
    restarts = 0
    end = time.monotonic() + 240
    while time.monotonic() < end:
        if alice.status() != "active":
            if checked or restarts >= 2:
                break
            # Random steps can end a match (a side with no unit loses, C-6.2) before any attack was offered:
            # that match proves nothing either way, so play a fresh one.
            restarts += 1
            start_match()
            deploys.clear()
            continue
        mover = next((p for p in (alice, bob) if p.my_move()), None)
        if mover is None:
            time.sleep(0.05)
            continue
        page = mover.page
        if (page.get_attribute("#phase", "data-phase") or "").startswith("combat") and checked.get(
            mover.name or "", 0
        ) < 2:
            version = mover.version()
            try:
                attacked = _check_attack_named_as_drawn(mover)
            except PlaywrightError:  # the page re-rendered under the click (a live update): look again
                mover.page.keyboard.press("Escape")
                continue
            if attacked:
                checked[mover.name or ""] = checked.get(mover.name or "", 0) + 1
                until = time.monotonic() + 6
                while mover.version() <= version and time.monotonic() < until:
                    time.sleep(0.05)
                continue
        if not _deploy_to_threaten(mover):
            _step(mover, deploys)
        if len(checked) == 2:
            break
    assert checked, f"no attack was offered in the match (status {alice.status()}, version {alice.version()})"

    wait_version([alice, bob, carol], max(alice.version(), bob.version()))
    for viewer, seat in ((alice, 0), (bob, 1), (carol, None)):
        page = viewer.page
        first = page.evaluate("window.matchConnection.snapshot.view.first_player")
        bottom = first if seat is None else seat  # a spectator sees the first player's side (C-2.1)
        # the three boxes in one script: a live update re-renders the side panels (replaced, not patched),
        # and one locator's box taken between two renders measured a detached panel (None)
        board, own, other = page.evaluate(
            """(ids) => ids.map((id) => {
                const r = document.querySelector(`[data-testid=${id}]`).getBoundingClientRect();
                return {y: r.y, height: r.height};
            })""",
            ["board", f"side-{bottom}", f"side-{1 - bottom}"],
        )
        assert (
            own["y"] > board["y"] + board["height"] - 5 > other["y"]
        )  # own side below the board, the other above
        assert page.locator("[data-testid=board]").get_attribute("data-bottom") == str(bottom)
        for unit in page.locator("[data-testid=unit]").all():
            owner = int(unit.get_attribute("data-owner") or -1)
            cls = unit.get_attribute("class") or ""
            assert ("mine" in cls) == (owner == bottom) and ("theirs" in cls) == (owner != bottom)
        viewer.shot(f"orientation-{viewer.name}-{viewport['width']}")
    # the flipped viewer (not the first player) is the one whose view this feature turns around
    assert a.evaluate("document.querySelector('#board').dataset.flip") != b.evaluate(
        "document.querySelector('#board').dataset.flip"
    )
    for p in (alice, bob, carol):
        p.ctx.close()


def _in_view(page: Any, selector: str) -> bool:
    return bool(
        page.evaluate(
            """(sel) => { const n = document.querySelector(sel); if (!n) return false;
            const r = n.getBoundingClientRect();
            return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5; }""",
            selector,
        )
    )


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1400x900", "390x844"])
def test_the_decision_and_its_choices_are_on_screen_without_scrolling(
    server: str, browser: Any, viewport: dict[str, int]
) -> None:
    v = Viewer(browser, server, "carol", viewport)
    page = v.page
    _against_ai(v)

    def planning_with_reinforce() -> bool:
        return (
            v.my_move()
            and (page.get_attribute("#phase", "data-phase") or "").startswith("planning")
            and page.locator("#actions [data-type=reinforce]").count() > 0
        )

    _play_until(v, planning_with_reinforce)
    page.evaluate("window.scrollTo(0, 0)")
    size = f"{viewport['width']}x{viewport['height']}"
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")  # no sideways scroll
    assert _in_view(page, "[data-testid=prompt]") and _in_view(page, "#actions [data-type=pass]")
    assert re.search(r"\d+ of \d+", page.inner_text("[data-testid=turn]"))  # turns counted against the limit
    if viewport is PHONE:  # the squares leave room: the whole hand strip shows above the fixed decision bar
        # and stay comfortable tap targets (44 CSS px)
        assert (
            page.evaluate(
                "() => Math.min(...[...document.querySelectorAll('.board .square')].map((s) => s.getBoundingClientRect().height))"
            )
            >= 44
        )
        assert page.evaluate(
            """() => { const bar = document.getElementById("decision").getBoundingClientRect();
            const cards = [...document.querySelectorAll(".hand-card")];
            return cards.length > 0 && cards.every((c) => c.getBoundingClientRect().bottom <= bar.top + 0.5); }"""
        )
    v.shot(f"planning-{size}")
    page.click("#actions [data-type=reinforce]")
    page.wait_for_function("document.querySelector('[data-testid=hint]').textContent.includes('Energy zone')")
    page.evaluate("window.scrollTo(0, 0)")
    assert "Reinforce" in page.inner_text("[data-testid=prompt]")
    assert page.locator(".hand-card.selectable").count() > 0
    assert _in_view(page, "[data-testid=hint]") and _in_view(page, ".hand-card.selectable")
    assert _in_view(page, "[data-testid=board]")
    v.shot(f"reinforce-{size}")
    version = v.version()
    page.locator(".hand-card.selectable").first.click()
    page.wait_for_function(f"Number(document.body.dataset.version) > {version}")
    v.ctx.close()


def test_auto_pass_skips_a_phase_with_no_action_and_can_be_turned_off(server: str, browser: Any) -> None:
    v = Viewer(browser, server, "bob")
    page = v.page
    _against_ai(v, "10")
    assert page.locator("[data-testid=auto-pass]").is_checked()  # on by default
    _play_until(v, lambda: page.locator("[data-testid=log] li.log-auto").count() > 0)
    line = page.locator("[data-testid=log] li.log-auto").first
    assert "ends the" in line.inner_text() and "(automatic pass: nothing else to do)" in line.inner_text()

    def turn_it_off() -> None:
        page.locator("#play-settings summary").click()
        with page.expect_response(re.compile(r"/seat/$")) as res:
            page.locator("[data-testid=auto-pass]").uncheck()
        assert res.value.status == 200
        page.reload()
        page.wait_for_selector("[data-testid=board]:visible")
        assert not page.locator("[data-testid=auto-pass]").is_checked()  # stored: it holds after a reload
        autos["before"] = page.locator("[data-testid=log] li.log-auto").count()

    def fresh_match_with_it_off() -> None:
        # random clicks can end a match first (C-6.2); the setting is per seat, so a new match needs it again
        _against_ai(v, "10")
        turn_it_off()

    autos: dict[str, int] = {}
    turn_it_off()

    def only_pass() -> bool:  # with it off, a phase with nothing to do waits for bob's own click
        types = [b.get_attribute("data-type") for b in page.locator("#actions [data-testid=action]").all()]
        return v.my_move() and types == ["pass"] and page.locator(".selectable").count() == 0

    _play_until(v, only_pass, again=fresh_match_with_it_off)
    version = v.version()
    page.keyboard.press("e")  # the keyboard's end-phase key
    page.wait_for_function(f"Number(document.body.dataset.version) > {version}")
    assert page.locator("[data-testid=log] li.log-auto").count() == autos["before"]  # none since it went off
    v.ctx.close()


def test_on_a_phone_a_tap_opens_a_cards_text_and_it_can_be_dismissed(server: str, browser: Any) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    v = Viewer(browser, server, "alice", PHONE)
    page = v.page
    _against_ai(v)
    close = page.locator("[data-testid=card-pop-close]")
    for attempt in range(3):
        _play_until(v, lambda: v.my_move() and page.locator(".unit:not(.selectable)").count() > 0)
        unit = page.locator(".unit:not(.selectable)").first
        name = unit.get_attribute("data-name") or ""
        unit.tap()
        try:
            close.wait_for(state="visible", timeout=4000)
            break
        except PlaywrightTimeout:
            # A live update redrew the board between the look and the tap (the unit became one to select,
            # and the tap selected it): a player taps again, and so does the test.
            if attempt == 2:
                raise
            page.keyboard.press("Escape")
    pop = page.locator("[data-testid=card-pop]")
    assert name in pop.inner_text() and "On the board:" in pop.inner_text()
    box = pop.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]  # a sheet on the screen
    v.shot("tap-unit-390x844")
    close.tap()
    pop.wait_for(state="hidden")
    v.ctx.close()


@pytest.mark.celery_worker  # the rigged-position site runs a Celery worker (test_match_log_browser.site)
def test_what_an_action_caused_is_animated_on_both_boards_c_7_2(chromium_browser: Any, site: Any) -> None:
    """A Deploying ability's 1000 damage (C-7.2) floats over the damaged unit's square on both pages."""
    match_id = site.seed("deploy")
    alice = open_match(chromium_browser, site, "alice", match_id)
    bob = open_match(chromium_browser, site, "bob", match_id, phone=True)
    watch = """window.__floats = [];
      new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes)
        if (n.classList && n.classList.contains('float')) window.__floats.push([n.textContent, n.closest('.square').dataset.square]);
      }).observe(document.getElementById('board'), { childList: true, subtree: true });"""
    for page in (alice, bob):
        page.evaluate(watch)
    alice.locator(".hand-card[data-name='Stonehide Ram']").click()
    alice.locator("[data-testid=square-c4]").click()
    if alice.locator("#selection [data-testid=action]").count():
        alice.locator("#selection [data-testid=action]").first.click()
    for page in (alice, bob):
        page.wait_for_function(f"document.querySelector('#log').innerText.includes({DAMAGE!r})")
        page.wait_for_function("window.__floats.length > 0")
        assert ["−1k", "c3"] in page.evaluate("window.__floats")  # the damaged unit stands on c3 ([2, 2])
    alice.context.close()
    bob.context.close()
