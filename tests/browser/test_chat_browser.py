"""Match chat in headless Chromium against a live daphne server (HTTP + WebSockets, Redis channel layer
when reachable).

1. Commandeer: two players and a spectator chat live at one table; "<script>" stays text; the spectator
   writes in the spectator channel, which the players do not get while the game runs; a player mutes
   the other; unread badges; history survives a reload. Screenshots at 1400×900 and 390×844.
2. Westeros, three houses: a private message between two houses reaches exactly those two — checked on
   the third player's and a spectator's DOM and on every WebSocket frame they received.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.services import ROOT, daphne, redis_reachable

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

SHOTS = os.environ.get("CHAT_SCREENSHOTS")  # a folder: keep screenshots of both pages at both sizes
SEED = """
import django; django.setup()
from django.contrib.auth import get_user_model
from matches.tests.commandeer_fixtures import legal_deck
for name, faction in (("alice", "stonehold"), ("bob", "tidewardens"), ("carol", "cinder-legion"), ("dave", None)):
    user = get_user_model().objects.create_user(name, password=f"pw-{name}-123")
    if faction:
        legal_deck(user, faction)
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A daphne server on a fresh SQLite database (cards, users alice/bob/carol with a deck, dave)."""
    tmp = tmp_path_factory.mktemp("chat")
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
    )
    redis_url = os.environ.get("BROWSER_TEST_REDIS_URL", "redis://127.0.0.1:6379/14")
    if redis_reachable(redis_url):  # the production channel layer (and the throttles' cache)
        import redis

        redis.Redis.from_url(redis_url).flushdb()
        env["REDIS_URL"] = redis_url

    def run(*args: str) -> None:
        subprocess.run([sys.executable, *args], cwd=ROOT, env=env, check=True, capture_output=True)

    run("manage.py", "migrate", "--noinput")
    run("-c", SEED)
    with daphne(env, tmp) as url:
        yield url


class User:
    """One browser context (a signed-in user, or an anonymous spectator) recording every WebSocket frame."""

    def __init__(self, browser: Any, url: str, name: str | None, size: tuple[int, int] = (1400, 900)) -> None:
        self.ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, bypass_csp=True)
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(10000)
        self.url, self.name = url, name
        self.frames: list[str] = []
        self.errors: list[str] = []
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        if name:
            self.page.goto(f"{url}/accounts/login/")
            self.page.fill("input[name=username]", name)
            self.page.fill("input[name=password]", f"pw-{name}-123")
            self.page.locator("form:has(input[name=password]) [type=submit]").click()
            self.page.wait_for_load_state()
        else:
            self.page.goto(f"{url}/")

    def _frame(self, payload: Any) -> None:
        self.frames.append(payload if isinstance(payload, str) else payload.decode("utf-8", "replace"))

    def api(self, method: str, path: str, body: Any = None) -> Any:
        """A JSON API call from this page (session cookie and CSRF token), answered as {status, data}."""
        return self.page.evaluate(
            """async ([method, path, body]) => {
                const token = (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || "";
                const r = await fetch(path, {method, headers: {"Content-Type": "application/json",
                    "X-CSRFToken": token}, body: body === null ? undefined : JSON.stringify(body)});
                return {status: r.status, data: await r.json().catch(() => null)};
            }""",
            [method, path, body],
        )

    def open_chat(self) -> None:
        self.page.wait_for_selector("[data-testid=chat-toggle]:visible")  # folded, only its button shows
        if self.page.get_attribute("[data-testid=chat-toggle]", "aria-expanded") != "true":
            self.page.click("[data-testid=chat-toggle]")
        self.page.wait_for_selector("[data-testid=chat-input]:visible")

    def tab(self, label_start: str) -> None:
        self.page.click(f"[data-testid=chat-tab]:has-text('{label_start}')")

    def say(self, text: str) -> None:
        self.page.fill("[data-testid=chat-input]", text)
        self.page.press("[data-testid=chat-input]", "Enter")
        self.page.wait_for_function(
            "(t) => [...document.querySelectorAll('[data-testid=chat-text]')].some((n) => n.textContent === t)",
            arg=text,
        )

    def texts(self) -> list[str]:
        return self.page.locator("[data-testid=chat-text]").all_text_contents()

    def wait_text(self, text: str, timeout: float = 10000) -> None:
        self.page.wait_for_function(
            "(t) => [...document.querySelectorAll('[data-testid=chat-text]')].some((n) => n.textContent === t)",
            arg=text,
            timeout=timeout,
        )

    def shot(self, name: str) -> None:
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))

    def close(self) -> None:
        assert not self.errors, f"JavaScript errors on {self.name}'s page: {self.errors}"
        self.ctx.close()


def _deck_id(user: User) -> int:
    decks = user.api("GET", "/api/decks/?page_size=50", None)["data"]
    return int((decks.get("results") if isinstance(decks, dict) else decks)[0]["id"])


def test_two_players_and_a_spectator_chat_live_in_a_commandeer_match(
    server: str, chromium_browser: Any
) -> None:
    alice, bob = User(chromium_browser, server, "alice"), User(chromium_browser, server, "bob")
    dave = User(chromium_browser, server, "dave")
    created = alice.api(
        "POST",
        "/api/matches/",
        {"kind": "commandeer", "deck_id": _deck_id(alice), "spectator_chat": True, "auto_start": False},
    )
    assert created["status"] == 201, created
    match_id = created["data"]["id"]
    assert bob.api("POST", f"/api/matches/{match_id}/join/", {"deck_id": _deck_id(bob)})["status"] == 200
    assert alice.api("POST", f"/api/matches/{match_id}/start/", None)["status"] == 200
    for u in (alice, bob, dave):
        u.page.goto(f"{server}/play/{match_id}/")
        u.page.wait_for_selector("[data-testid=board]:visible")
        u.open_chat()

    # live at the table, and markup stays text
    hostile = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2"> good luck'
    alice.say(hostile)
    for u in (bob, dave):
        u.wait_text(hostile)
        assert u.page.evaluate("window.pwned === undefined")
        assert (
            u.page.locator("[data-testid=chat-messages] script, [data-testid=chat-messages] img").count() == 0
        )
    bob.say("Thanks, you too!")
    alice.wait_text("Thanks, you too!")
    dave.wait_text("Thanks, you too!")

    # the spectator reads the table but writes only in the spectator channel, which players do not get
    assert dave.page.is_disabled("[data-testid=chat-input]")
    assert "players" in (dave.page.get_attribute("[data-testid=chat-input]", "placeholder") or "")
    assert alice.page.locator("[data-testid=chat-tab]").all_text_contents() == ["Table"]
    dave.tab("Spectators")
    dave.say("Spectators here: what a start")
    time.sleep(1.0)
    for u in (alice, bob):
        assert all("what a start" not in f for f in u.frames)
        assert "what a start" not in u.page.content()

    # the counter, the length bound and unread badges
    dave.page.fill("[data-testid=chat-input]", "x" * 12)
    assert dave.page.text_content("[data-testid=chat-count]") == "12/500"
    assert dave.page.get_attribute("[data-testid=chat-input]", "maxlength") == "500"
    dave.page.fill("[data-testid=chat-input]", "")
    bob.page.click("[data-testid=chat-toggle]")  # bob folds the chat away
    alice.say("Your move.")
    bob.page.wait_for_selector("[data-testid=chat-unread]:visible")
    assert bob.page.text_content("[data-testid=chat-unread]") == "1"
    dave.page.wait_for_selector("[data-testid=chat-tab][data-channel=table] .chat-tab-unread")
    bob.open_chat()
    assert bob.page.locator("[data-testid=chat-unread]:visible").count() == 0

    # alice mutes bob: his messages leave her page now and after a reload (filtered on the server)
    alice.page.click("[data-testid=chat-message][data-author=bob] [data-testid=chat-author]")
    alice.page.click("[data-testid=chat-mute]")
    alice.page.wait_for_function("!document.querySelector('[data-testid=chat-message][data-author=bob]')")
    dave.tab("Table")
    bob.say("Can you hear me?")
    dave.wait_text("Can you hear me?")
    time.sleep(0.5)
    assert "Can you hear me?" not in alice.texts()
    alice.page.reload()
    alice.open_chat()
    alice.wait_text("Your move.")
    assert not any("hear me" in t or "Thanks" in t for t in alice.texts())
    alice.page.click("[data-testid=chat-unmute]")
    alice.wait_text("Can you hear me?")

    # history survives a reload, in order
    bob.page.reload()
    bob.open_chat()
    bob.wait_text("Can you hear me?")
    assert bob.texts() == [hostile, "Thanks, you too!", "Your move.", "Can you hear me?"]
    bob.shot("commandeer-1400")
    dave.shot("commandeer-spectator-1400")

    phone = User(chromium_browser, server, "carol", size=(390, 844))
    phone.page.goto(f"{server}/play/{match_id}/")
    phone.page.wait_for_selector("[data-testid=chat-toggle]:visible")  # folded: a button in the header
    assert phone.page.get_attribute("[data-testid=chat-toggle]", "aria-expanded") == "false"  # a drawer
    phone.shot("commandeer-390-closed")
    phone.open_chat()
    phone.wait_text("Your move.")
    assert phone.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    phone.shot("commandeer-390-open")
    for u in (alice, bob, dave, phone):
        u.close()


def test_a_private_message_in_a_three_house_westeros_game_reaches_exactly_two_houses(
    server: str, chromium_browser: Any
) -> None:
    alice, bob, carol = (User(chromium_browser, server, n) for n in ("alice", "bob", "carol"))
    dave = User(chromium_browser, server, "dave")
    created = alice.api(
        "POST",
        "/api/matches/",
        {"kind": "westeros", "rules_config": {"player_count": 3, "house": "stark"}, "auto_start": False},
    )
    assert created["status"] == 201, created
    match_id = created["data"]["id"]
    for u in (bob, carol):
        assert u.api("POST", f"/api/matches/{match_id}/join/", {})["status"] == 200
    assert alice.api("POST", f"/api/matches/{match_id}/start/", None)["status"] == 200
    for u in (alice, bob, carol, dave):
        u.page.goto(f"{server}/westeros/games/{match_id}/")
        u.page.wait_for_selector("[data-testid=board] svg")
        u.open_chat()
    # seat 0 Stark (alice), then set-up order: Lannister (bob), Baratheon (carol) (W-1.1)
    assert alice.page.locator("[data-testid=chat-tab]").all_text_contents() == [
        "Table",
        "Lannister (bob)",
        "Baratheon (carol)",
    ]
    assert dave.page.locator("[data-testid=chat-tab]").all_text_contents() == ["Table"]

    secret = "Stark to Lannister: let us both march on Baratheon"
    alice.tab("Lannister")
    alice.say(secret)
    note = alice.page.text_content("[data-testid=chat-private-note]") or ""
    assert "only you and Lannister (bob) read this" in note
    bob.page.wait_for_selector("[data-testid=chat-tab]:has-text('Stark') .chat-tab-unread")
    bob.tab("Stark")
    bob.wait_text(secret)
    bob.say("Agreed, quietly.")
    alice.wait_text("Agreed, quietly.")
    carol.tab("Table")
    carol.say("Hello everyone")
    for u in (alice, bob, dave):
        u.page.click("[data-testid=chat-tab]:has-text('Table')")
        u.wait_text("Hello everyone")
    time.sleep(1.5)  # anything in flight arrives

    for outsider in (carol, dave):
        html = outsider.page.content()
        assert "march on Baratheon" not in html and "quietly" not in html
        assert outsider.frames, "the socket carried frames"
        for frame in outsider.frames:
            assert "march on Baratheon" not in frame and "quietly" not in frame
            assert "private:lannister-stark" not in frame
        assert all(
            json.loads(f).get("channel") in (None, "table")
            for f in outsider.frames
            if json.loads(f).get("type") == "chat"
        )
        answer = outsider.api("GET", f"/api/matches/{match_id}/chat/?channel=private:lannister-stark", None)
        assert answer["status"] == 403 and "march" not in json.dumps(answer["data"])
    chats = [json.loads(f) for f in bob.frames if '"type": "chat"' in f or '"type":"chat"' in f]
    assert any(c.get("message", {}).get("body") == secret for c in chats)
    alice.tab("Lannister")
    alice.shot("westeros-private-1400")
    phone = User(chromium_browser, server, "bob", size=(390, 844))
    phone.page.goto(f"{server}/westeros/games/{match_id}/")
    phone.open_chat()
    phone.tab("Stark")
    phone.wait_text(secret)
    assert phone.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    phone.shot("westeros-private-390")
    for u in (alice, bob, carol, dave, phone):
        u.close()
