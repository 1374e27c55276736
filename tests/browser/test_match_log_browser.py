"""The match log in a real browser: what an action caused reaches both players' logs, a timeout
is logged as a timeout, and a match lost that way reads "lost on time" — never a rules text (C-6.2).

A daphne server and a real Celery worker (embedded beat: the deadline sweep) share a fresh SQLite file
database and Redis, so a clock that runs out is enforced as in production and pushed to the pages live.
Positions come from `tests.browser.seed_match_log` (a started match, rigged). Fails (never skips) when
Chromium is missing; needs Redis (skips locally, fails in CI).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from matches.clocks import TIMEOUTS_TO_FORFEIT
from tests.services import ROOT, Worker, daphne, redis_reachable, unavailable

pytestmark = [pytest.mark.browser, pytest.mark.celery_worker]

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
DAMAGE = "takes 1000 damage from Stonehide Ram"


class Site:
    def __init__(self, url: str, env: dict[str, str]) -> None:
        self.url, self.env = url, env

    def seed(self, mode: str) -> int:
        out = subprocess.run(
            [sys.executable, "-m", "tests.browser.seed_match_log", mode],
            cwd=ROOT, env=self.env, check=True, capture_output=True, text=True,
        )  # fmt: skip
        return int(out.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """daphne + a Celery worker with beat on one fresh SQLite database seeded with cards, users, decks."""
    redis_url = os.environ.get("BROWSER_TEST_REDIS_URL", "redis://127.0.0.1:6379/14")
    if not redis_reachable(redis_url):
        unavailable(f"Redis is unreachable at {redis_url}")
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    tmp = tmp_path_factory.mktemp("matchlog")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "CELERY_TASK_ALWAYS_EAGER", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.dev",
        DEBUG="1",
        SECRET_KEY="browser-test-key",
        DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
        VAR_DIR=str(tmp / "var"),
        REDIS_URL=redis_url,
        CELERY_TASK_ALWAYS_EAGER="0",  # clocks run out in the worker, as in production
        DB_CONN_MAX_AGE="0",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )

    def run(*args: str) -> None:
        subprocess.run([sys.executable, *args], cwd=ROOT, env=env, check=True, capture_output=True)

    run("manage.py", "migrate", "--noinput")
    run("-m", "tests.browser.seed_browser")
    worker = Worker(env, Path(tmp))
    worker.start()
    with daphne(env, tmp) as url:
        yield Site(url, env)
    worker.stop()


def open_match(browser: Any, site: Site, name: str | None, match_id: int, *, phone: bool = False) -> Any:
    """A page of `name` (None: an anonymous spectator) on the match, once its board is drawn."""
    viewport = {"width": 390, "height": 844} if phone else {"width": 1400, "height": 900}
    page = browser.new_context(viewport=viewport, bypass_csp=True).new_page()
    page.set_default_timeout(10000)
    if name:
        page.goto(f"{site.url}/accounts/login/")
        page.fill("input[name=username]", name)
        page.fill("input[name=password]", f"pw-{name}-123")
        page.locator("form:has(input[name=password]) [type=submit]").click()
        page.wait_for_load_state()
    page.goto(f"{site.url}/play/{match_id}/")
    page.wait_for_selector("[data-testid=board]:visible")
    return page


def test_a_deploying_abilitys_damage_appears_in_both_players_logs_c_7_2(
    chromium_browser: Any, site: Site
) -> None:
    match_id = site.seed("deploy")
    alice = open_match(chromium_browser, site, "alice", match_id)
    bob = open_match(chromium_browser, site, "bob", match_id, phone=True)
    alice.locator(".hand-card[data-name='Stonehide Ram']").click()
    alice.locator("[data-testid=square-c4]").click()
    if alice.locator("#selection [data-testid=action]").count():  # one matching move left: confirm it
        alice.locator("#selection [data-testid=action]").first.click()
    for page in (alice, bob):
        page.wait_for_function(f"document.querySelector('#log').innerText.includes({DAMAGE!r})")
        line = page.locator("#log > li", has_text="Deploy Stonehide Ram to c4")  # automatic passes may follow
        assert "Deploy Stonehide Ram to c4" in line.locator(".log-text").inner_text()
        caused = line.locator("[data-testid=log-consequences] [role=listitem]")
        texts = caused.all_inner_texts()
        assert any(DAMAGE in t and "−1000" in t for t in texts), texts
        assert any("Stonehide Ram's Deploying ability" in t for t in texts), texts
        assert line.locator("li").count() == 0  # one <li> per entry, its consequences inside
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    alice.context.close()
    bob.context.close()


def test_a_timeout_is_logged_as_a_timeout_and_the_loss_reads_on_time(
    chromium_browser: Any, site: Site
) -> None:
    match_id = site.seed("timeout")  # alice has no unit: her automatic pass ends the Planning phase (C-5.4)
    alice = open_match(chromium_browser, site, "alice", match_id)
    bob = open_match(chromium_browser, site, "bob", match_id, phone=True)
    spectator = open_match(chromium_browser, site, None, match_id)
    for page in (alice, bob, spectator):
        page.wait_for_function("document.body.dataset.status === 'finished'", timeout=20000)
        line = page.locator("#log > li").last
        assert line.locator(".log-text").inner_text() == (
            "alice's time ran out — automatic pass: the Planning phase ends."
        )
        assert "log-timeout" in (line.get_attribute("class") or "")
        result = page.locator("[data-testid=result]").inner_text()
        assert result == "bob wins — alice lost on time", result
        assert "C-6.2" not in page.locator("body").inner_text()
    for page in (alice, bob, spectator):
        page.context.close()


def test_the_third_timeout_in_a_row_forfeits_on_time(chromium_browser: Any, site: Site) -> None:
    match_id = site.seed("forfeit")
    bob = open_match(chromium_browser, site, "bob", match_id)
    bob.wait_for_function("document.body.dataset.status === 'finished'", timeout=20000)
    result = bob.locator("[data-testid=result]").inner_text()
    assert result == f"bob wins — alice lost on time (out of time {TIMEOUTS_TO_FORFEIT} turns in a row)"
    bob.context.close()
