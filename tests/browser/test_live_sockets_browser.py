"""A socket refused for being one too many (close code 4429) in headless Chromium against a live daphne
server: the page says why, in the template's (translated) words, and does not reconnect.

The server allows one socket per user and match (MATCHES_WS_MAX_PER_MATCH=1), so a second tab of the
same match is the one too many, on both game pages (they share js/live.js).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.services import ROOT, daphne, redis_reachable

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

MESSAGE = "This match is open in too many tabs or windows. Close some, then reload this page."
SEED = """
import django; django.setup()
from django.contrib.auth import get_user_model
from matches.services.lobby import match_create
from matches.tests.commandeer_fixtures import legal_deck
alice = get_user_model().objects.create_user("alice", password="pw-alice-123")
deck = legal_deck(alice, "stonehold")
print(match_create(user=alice, kind="commandeer", deck_id=deck.pk).pk)
print(match_create(user=alice, kind="westeros", rules_config={"player_count": 3}).pk)
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, int]]:
    """A daphne server allowing one socket per user and match: (its URL, a Commandeer and a Westeros match)."""
    tmp = tmp_path_factory.mktemp("sockets")
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.dev",
        DEBUG="1",
        SECRET_KEY="browser-test-key",
        DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
        VAR_DIR=str(tmp / "var"),
        CELERY_TASK_ALWAYS_EAGER="1",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
        MATCHES_WS_MAX_PER_MATCH="1",
    )
    redis_url = os.environ.get("BROWSER_TEST_REDIS_URL", "redis://127.0.0.1:6379/14")
    if redis_reachable(redis_url):  # the production channel layer: the sockets are counted in Redis
        import redis

        redis.Redis.from_url(redis_url).flushdb()
        env["REDIS_URL"] = redis_url

    def run(*args: str) -> str:
        done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, check=True, capture_output=True)
        return done.stdout.decode()

    run("manage.py", "migrate", "--noinput")
    commandeer, westeros = (int(word) for word in run("-c", SEED).split()[-2:])  # after load_cards output
    with daphne(env, tmp) as url:
        yield url, commandeer, westeros


@pytest.mark.parametrize("page_path", ["/play/{commandeer}/", "/westeros/games/{westeros}/"])
def test_a_tab_too_many_says_so_and_does_not_reconnect(
    chromium_browser: Any, site: tuple[str, int, int], page_path: str
) -> None:
    url, commandeer, westeros = site
    path = page_path.format(commandeer=commandeer, westeros=westeros)
    ctx = chromium_browser.new_context(bypass_csp=True)
    try:
        first = ctx.new_page()
        first.set_default_timeout(10000)
        first.goto(f"{url}/accounts/login/")
        first.fill("input[name=username]", "alice")
        first.fill("input[name=password]", "pw-alice-123")
        first.locator("form:has(input[name=password]) [type=submit]").click()
        first.wait_for_load_state()
        first.goto(f"{url}{path}")
        first.wait_for_selector("[data-testid=connection][data-state=live]")

        second = ctx.new_page()  # the same user (one session), the same match
        second.set_default_timeout(10000)
        opened: list[str] = []
        closed: list[Any] = []
        second.on("websocket", lambda ws: (opened.append(ws.url), ws.on("close", lambda _: closed.append(1))))
        second.goto(f"{url}{path}")
        second.wait_for_selector("[data-testid=connection][data-state=down]")
        assert second.locator("[data-testid=connection]").inner_text() == MESSAGE
        time.sleep(3)  # the ordinary back-off would have reconnected within 0.5 s, then 1 s, 2 s
        assert len(opened) == 1 and len(closed) == 1
        assert second.locator("[data-testid=connection]").inner_text() == MESSAGE
        assert first.locator("[data-testid=connection]").get_attribute("data-state") == "live"
    finally:
        ctx.close()
