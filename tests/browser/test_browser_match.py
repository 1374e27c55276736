"""Playwright in headless Chromium against a live daphne server (HTTP + WebSockets).

Two players create, join, start and play a Commandeer match to the end by clicking, each seeing the
other's moves live; a third user spectates (never sees a hand); the replay page steps through the
match; a second test plays a whole match against the AI. Fails (never skips) when Chromium is missing.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.services import ROOT, daphne, redis_reachable

pytestmark = pytest.mark.browser

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A daphne server on a fresh SQLite file database seeded with cards, users and decks."""
    tmp = tmp_path_factory.mktemp("live")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "CELERY_TASK_ALWAYS_EAGER"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.dev",
        DEBUG="1",
        SECRET_KEY="browser-test-key",
        DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
        VAR_DIR=str(tmp / "var"),
        CELERY_TASK_ALWAYS_EAGER="1",  # AI seats move inside the request's on-commit hook (no worker)
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    env.setdefault(
        "AI_BUDGET_SCALE", "0.05"
    )  # eager AI moves run inside requests: searching levels think little

    redis_url = os.environ.get("BROWSER_TEST_REDIS_URL", "redis://127.0.0.1:6379/14")
    if redis_reachable(redis_url):  # the production channel layer; in-memory otherwise
        env["REDIS_URL"] = redis_url

    def run(*args: str) -> None:
        subprocess.run([sys.executable, *args], cwd=ROOT, env=env, check=True, capture_output=True)

    run("manage.py", "migrate", "--noinput")
    run("-m", "tests.browser.seed_browser")
    with daphne(env, tmp) as url:
        yield url


@pytest.fixture(scope="module")
def browser(chromium_browser: Any) -> Any:
    """The session's one headless Chromium (tests/conftest.py)."""
    return chromium_browser


class Player:
    """One browser context: a logged-in user (or a spectator) with a recorder of WebSocket messages."""

    def __init__(self, browser: Any, url: str, name: str | None) -> None:
        self.ctx = browser.new_context(bypass_csp=True)  # wait_for_function evals; the CSP forbids eval
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(8000)
        self.url, self.name = url, name
        self.messages: list[dict[str, Any]] = []
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        if name:
            self.page.goto(f"{url}/accounts/login/")
            self.page.fill("input[name=username]", name)
            self.page.fill("input[name=password]", f"pw-{name}-123")
            self.page.locator("form:has(input[name=password]) [type=submit]").click()
            self.page.wait_for_load_state()

    def _frame(self, payload: Any) -> None:
        self.messages.append(json.loads(payload))

    def version(self) -> int:
        return int(self.page.evaluate("document.body.dataset.version || -1"))

    def status(self) -> str:
        return str(self.page.evaluate("document.body.dataset.status || ''"))

    def my_move(self) -> bool:
        return (
            self.page.locator("#whose[data-mine='1']").count() > 0
            and self.page.locator("body[data-submitting]").count() == 0
        )


def wait_version(players: list[Player], version: int, timeout: float = 15) -> None:
    """Every page shows `version` (or later) — the live WebSocket updates arrived."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if all(p.version() >= version for p in players):
            return
        time.sleep(0.05)
    raise AssertionError(f"pages at {[p.version() for p in players]}, expected {version}")


def click_one_move(p: Player, deploys: dict[str, int]) -> None:
    """Choose one legal move by clicking, like a person: keep, deploy by hand-card + square, attack, pass."""
    page = p.page
    asked = page.locator("dialog.ask[open] .button-danger")
    if asked.count():  # the guard rail asks before a move that loses at once (C-6.2): go through with it
        asked.first.click()
        return
    buttons = page.locator("#actions [data-testid=action]:visible")
    types = [b.get_attribute("data-type") for b in buttons.all()]
    if "keep" in types:  # mulligan (C-4.4) a hand without a unit that can be deployed on turn 1
        costs = [c.inner_text() for c in page.locator(".hand-card.hand-unit .hc-costs").all()]
        cheap = any(re.search(r"CP [0-2] · En 0", c) for c in costs)
        wanted = "keep" if cheap or "mulligan" not in types else "mulligan"
        buttons.nth(types.index(wanted)).click()
        return
    if "choose_commander" in types:
        buttons.nth(types.index("choose_commander")).click()
        return
    phase = page.locator("#phase").get_attribute("data-phase") or ""  # the engine's name, in any language
    key = f"{page.locator('#turn').inner_text()}-{phase}"
    units = page.locator(".hand-card.hand-unit.selectable")
    hand = units if units.count() else page.locator(".hand-card.selectable")
    if phase.startswith("planning") and hand.count() and deploys.get(key, 0) < 2:
        deploys[key] = deploys.get(key, 0) + 1
        hand.first.click()
        square = page.locator(".square.selectable")
        if square.count():
            square.first.click()
            return
        page.locator("#selection [data-testid=action]").first.click()
        return
    me = page.locator("#match-app").get_attribute("data-you")
    mine = page.locator(f".unit.selectable[data-owner='{me}']")
    if phase.startswith("combat") and mine.count():
        mine.first.click()
        target = page.locator(".unit.selectable")
        if target.count():
            target.first.click()
        if page.locator("[data-testid=confirm]:visible").count():  # attacks wait for a confirmation
            page.locator("[data-testid=confirm]").click()
            return
        if (
            page.locator("body[data-submitting]").count() == 0
            and page.locator("#selection [data-testid=action]").count()
        ):
            page.locator("#selection [data-testid=action]").first.click()
        return
    if "pass" in types:
        buttons.nth(types.index("pass")).click()
        return
    if hand.count():  # a choice of a card from hand (reinforce, discard, bottom)
        hand.first.click()
        return
    if buttons.count():
        buttons.first.click()
        return
    page.locator("details.all-moves summary").click()
    page.locator("details.all-moves [data-testid=action]").first.click()


def play_until_over(players: list[Player], watchers: list[Player], limit: int = 400) -> int:
    from playwright.sync_api import Error as PlaywrightError

    deploys: dict[str, int] = {}
    shots = os.environ.get("SCREENSHOT_DIR")  # optional: pictures of the pages mid-match
    stalls = 0
    for step in range(limit):
        if shots and step == 14:
            for i, p in enumerate(players + watchers):
                p.page.screenshot(path=f"{shots}/match-{i}.png", full_page=True)
        if all(p.status() in ("finished", "aborted") for p in players + watchers):
            return players[0].version()
        mover = next((p for p in players if p.status() == "active" and p.my_move()), None)
        if mover is None:
            time.sleep(0.05)
            continue
        version = mover.version()
        try:
            click_one_move(mover, deploys)
        except PlaywrightError:  # the page re-rendered under the click (a live update): try again
            pass
        end = time.monotonic() + 5
        while mover.version() <= version and mover.status() == "active" and time.monotonic() < end:
            time.sleep(0.03)
        if mover.version() <= version and mover.status() == "active":
            err = mover.page.locator("#action-error:visible")
            stalls += 1
            assert stalls < 4, err.inner_text() if err.count() else "no progress after 4 tries"
            mover.page.reload()
            mover.page.wait_for_selector("[data-testid=board]:visible")
            continue
        stalls = 0
        wait_version(players + watchers, mover.version())
    raise AssertionError("the match did not end")


def hand_leaks(messages: list[dict[str, Any]], viewer: int | None) -> list[str]:
    """Every recorded message: a 'hand' key only on the viewer's own side, never a deck list or seed."""
    problems = []
    for m in messages:
        match = m.get("match") or {}
        view = match.get("view") or {}
        for i, side in enumerate(view.get("players", [])):
            if "hand" in side and i != viewer:
                problems.append(f"v{match.get('state_version')}: hand of player {i}")
            if "deck" in side:
                problems.append(f"v{match.get('state_version')}: deck of player {i}")
        if "seed" in match or "deck_snapshot" in json.dumps(match):
            problems.append("seed or deck snapshot sent")
    return problems


def test_two_players_play_a_match_by_clicking_while_a_third_spectates_then_replay(
    server: str, browser: Any
) -> None:
    alice, bob, carol = (
        Player(browser, server, "alice"),
        Player(browser, server, "bob"),
        Player(browser, server, "carol"),
    )
    a = alice.page
    a.goto(f"{server}/play/")
    a.select_option("[data-testid=turn-limit]", "2")
    a.uncheck("[data-testid=auto-start]")  # this test starts it with the button
    a.click("[data-testid=create-match]")
    a.wait_for_url(re.compile(r"/play/\d+/$"))
    match_id = int(a.url.rstrip("/").split("/")[-1])
    a.wait_for_selector("[data-testid=waiting-room]:visible")
    b = bob.page
    b.goto(f"{server}/play/")
    b.click(f"[data-testid=match-item][data-match='{match_id}'] [data-testid=open-match]")
    b.click("#join-here [data-testid=join]")
    a.wait_for_function(
        "document.querySelectorAll('[data-testid=seat]').length === 2"
    )  # live in alice's page
    a.click("[data-testid=start]")
    for p in (alice, bob):
        p.page.wait_for_selector("[data-testid=board]:visible")
    carol.page.goto(f"{server}/play/{match_id}/")
    carol.page.wait_for_selector("[data-testid=board]:visible")
    assert carol.page.locator("[data-testid=hand-card]").count() == 0
    assert carol.page.locator("[data-testid=concede]:visible").count() == 0

    # a dropped connection: bob misses moves while offline, then the reconnect resyncs his page
    for _ in range(3):
        if not alice.my_move() and not bob.my_move():
            time.sleep(0.2)
    offline, online = (bob, alice) if alice.my_move() else (alice, bob)
    before = offline.version()
    offline.page.evaluate("window.matchConnection.drop(2500)")
    offline.page.wait_for_selector("[data-testid=connection][data-state=down]")
    click_one_move(online, {})
    deadline = time.monotonic() + 2
    while online.version() == before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert online.version() > before and offline.version() == before  # nothing arrives while offline
    offline.page.wait_for_selector("[data-testid=connection][data-state=live]", timeout=10000)
    wait_version([offline], online.version())

    # the mover's own page renders its move from the submit's answer at once (no socket message, no
    # resync): the answer's log delta (`log_since`) is appended to the log the page holds, not swapped in
    end = time.monotonic() + 5
    while not (alice.my_move() or bob.my_move()) and time.monotonic() < end:
        time.sleep(0.05)
    mover = alice if alice.my_move() else bob
    assert mover.my_move()
    before = mover.version()
    mover.page.evaluate("window.matchConnection.drop(6000)")
    mover.page.wait_for_selector("[data-testid=connection][data-state=down]")
    heard = len(mover.messages)
    click_one_move(mover, {})
    mover.page.wait_for_function(f"Number(document.body.dataset.version) > {before}", timeout=4000)
    assert mover.page.locator("[data-testid=connection][data-state=down]").count() == 1
    assert len(mover.messages) == heard
    lines = mover.page.locator("[data-testid=log] li")
    # the move and any automatic passes it led to (the opponent's phase with nothing but Pass) arrive together
    assert int(lines.last.get_attribute("data-version") or -1) == mover.version() >= before + 1
    assert lines.count() == mover.version()  # the whole log so far: the new line joined the held ones
    mover.page.wait_for_selector("[data-testid=connection][data-state=live]", timeout=10000)
    wait_version([alice, bob, carol], mover.version())

    final = play_until_over([alice, bob], [carol])
    for p in (alice, bob, carol):
        p.page.wait_for_selector("[data-testid=result]:visible")
        assert "wins" in p.page.inner_text("[data-testid=result]") or "Draw" in p.page.inner_text(
            "[data-testid=result]"
        )
    log_text = carol.page.inner_text("[data-testid=log]")
    assert "Deploy" in log_text  # units were deployed by clicking a hand card and a square
    log_lines = carol.page.locator("[data-testid=log] li").count()
    assert log_lines == final  # the spectator saw every action in plain words
    assert hand_leaks(alice.messages, 0) == [] and hand_leaks(bob.messages, 1) == []
    assert hand_leaks(carol.messages, None) == []
    assert len(alice.messages) >= final // 2 and any(
        "hand" in s
        for m in alice.messages
        for s in ((m.get("match") or {}).get("view") or {}).get("players", [])[:1]
    )

    r = carol.page
    r.click("[data-testid=replay-link]")
    r.wait_for_selector("[data-testid=replay-frame]")
    r.wait_for_function("document.body.dataset.frame === '0'")
    for i in range(1, 6):
        r.click("[data-testid=replay-next]")
        r.wait_for_function(f"document.body.dataset.frame === '{i}'")
        assert r.inner_text("[data-testid=replay-text]")
    r.click("[data-testid=replay-last]")
    r.wait_for_function(f"document.body.dataset.frame === '{final}'")
    assert r.inner_text("[data-testid=replay-frame]") == f"Step {final} of {final}"
    assert r.locator("[data-testid=hand-card]").count() == 0
    r.click("[data-testid=replay-prev]")
    r.wait_for_function(f"document.body.dataset.frame === '{final - 1}'")
    for p in (alice, bob, carol):
        p.ctx.close()


def test_a_full_match_against_the_ai_by_clicking(server: str, browser: Any) -> None:
    carol = Player(browser, server, "carol")
    c = carol.page
    c.goto(f"{server}/play/")
    c.select_option("[data-testid=turn-limit]", "2")
    c.click("[data-testid=play-ai]")
    c.wait_for_url(re.compile(r"/play/\d+/$"))
    c.wait_for_selector("[data-testid=board]:visible")
    play_until_over([carol], [])
    c.wait_for_selector("[data-testid=result]:visible")
    ai_lines = c.locator("[data-testid=log] li.log-ai").count()
    assert "Deploy" in c.inner_text("[data-testid=log]")
    assert ai_lines > 0
    assert hand_leaks(carol.messages, 0) == []
    carol.ctx.close()


def test_a_late_snapshot_never_rolls_a_finished_match_back(server: str, browser: Any) -> None:
    """js/snapshots.js decides which snapshot a page holds. The answer to a player's last move (version N,
    active) can arrive after the socket pushed the AI's replies and the end (N+3, finished): it must not
    bring the match back to life (it did: the page showed 'Your move' and no result)."""
    viewer = Player(browser, server, None)
    viewer.page.goto(f"{server}/play/")
    verdicts = viewer.page.evaluate(
        """async () => {
          const { acceptSnapshot } = await import('/static/frontend/js/snapshots.js');
          const snap = (state_version, status) => ({ state_version, status, log: [], log_since: null });
          const held = (current, next) => acceptSnapshot(current, next).snapshot !== null;
          return {
            older_active_over_finished: held(snap(7, 'finished'), snap(4, 'active')),
            older_same_status: held(snap(7, 'active'), snap(4, 'active')),
            equal_active_over_finished: held(snap(7, 'finished'), snap(7, 'active')),
            equal_finished_over_active: held(snap(7, 'active'), snap(7, 'finished')),
            equal_aborted_over_waiting: held(snap(0, 'waiting'), snap(0, 'aborted')),
            equal_active_over_waiting: held(snap(0, 'waiting'), snap(0, 'active')),
            equal_same: held(snap(7, 'active'), snap(7, 'active')),
            newer: held(snap(7, 'active'), snap(8, 'finished')),
          };
        }"""
    )
    assert verdicts == {
        "older_active_over_finished": False,
        "older_same_status": False,
        "equal_active_over_finished": False,
        "equal_finished_over_active": True,
        "equal_aborted_over_waiting": True,
        "equal_active_over_waiting": True,
        "equal_same": True,
        "newer": True,
    }
    viewer.ctx.close()


def test_conceding_shows_the_result_and_reason(server: str, browser: Any) -> None:
    bob = Player(browser, server, "bob")
    page = bob.page
    page.goto(f"{server}/play/")
    page.click("[data-testid=play-ai]")
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    page.wait_for_selector("[data-testid=concede]:visible")
    deploys: dict[str, int] = {}
    for _ in range(40):  # past the set-up (C-4): a side is marked as the one to move
        if page.locator(".side-panel.active").count():
            break
        if bob.my_move():
            version = bob.version()
            click_one_move(bob, deploys)
            wait_version([bob], version + 1)
        else:
            time.sleep(0.1)
    assert page.locator(".side-panel.active .side-name .badge").count() == 1
    assert "turns left" in page.inner_text("#turns-left")  # C-6.5, while the match runs
    page.click("[data-testid=concede]")
    page.click("[data-testid=concede-question-yes]")  # asked first, in the page's own dialog (C-6.4)
    page.wait_for_selector("[data-testid=result]:visible")
    assert page.inner_text("[data-testid=result]") == "AI (normal) wins — bob conceded."
    # The match is over: no side is "to move" any more (the engine's view still names one).
    assert page.locator(".side-panel.active").count() == 0
    assert page.locator(".side-name .badge").count() == 0
    assert page.locator("[data-testid=unplayable-reason]").count() == 0  # nothing is played any more
    assert page.inner_text("#turns-left") == ""
    assert page.locator("[data-testid=replay-link]:visible").count() == 1
    # The replay's last step is the match's end: nobody is to act there either.
    page.click("[data-testid=replay-link]")
    page.wait_for_selector("[data-testid=replay-frame]")
    page.click("[data-testid=replay-last]")
    page.wait_for_function("document.body.dataset.frame !== '0'")
    assert page.locator(".side-panel.active").count() == 0
    assert page.inner_text("#whose") == ""
    bob.ctx.close()
