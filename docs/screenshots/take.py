"""Re-take the pictures in docs/screenshots/: both game pages and the pages around them, at 1400×900 and
at 390×844 (a phone).

    make screenshots                      # or: .venv/bin/python docs/screenshots/take.py [--out DIR]

It needs nothing running and no server installed: a throwaway SQLite database and Celery's filesystem
broker in a temporary directory, its own web server and Celery worker on a free port (the `make run`
stack), Debian's Chromium (`/usr/bin/chromium`, or CHROMIUM=...). It seeds the sample cards, the Westeros
map and three users (alice, bob, carol) with a legal deck each, then plays through the JSON API (the
pages only render): a Commandeer match of alice against the AI to turn 3, one of alice against bob seen by
bob (the second player, whose board is drawn from his side) until alice concedes (the end-of-game
panel, the replay), and a Westeros game of alice's house against
five AI houses into its second round. The AI thinks 1/10 of its time (AI_BUDGET_SCALE).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SIZES = ((1400, 900, "desktop"), (390, 844, "phone"))
SEED_USERS = """
import django; django.setup()
from django.core.management import call_command
call_command("load_westeros", verbosity=0)
from tests.browser.seed_browser import main
main()
"""

# In the page: pick a move the way a plain but purposeful player would (deploy, attack, move, reinforce
# before passing), submit it at the current version; returns the new version or null when not our turn.
PLAY_ONE = """
async ([matchId, prefer]) => {
  const csrf = (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || "";
  const la = await (await fetch(`/api/matches/${matchId}/legal-actions/`)).json();
  const actions = la.actions || [];
  if (!actions.length) return null;
  const rank = (a) => {
    const t = JSON.stringify(a.action).toLowerCase();
    for (let i = 0; i < prefer.length; i++) if (t.includes(prefer[i])) return i;
    return prefer.length;
  };
  actions.sort((x, y) => rank(x) - rank(y));
  const best = actions.filter((a) => rank(a) === rank(actions[0]));
  const pick = best[Math.floor(Math.random() * best.length)];
  const r = await fetch(`/api/matches/${matchId}/actions/`, {
    method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
    body: JSON.stringify({action: pick.action, state_version: la.state_version}),
  });
  const body = await r.json();
  return r.ok ? body.state_version : -1;
}
"""
COMMANDEER_PREFER = ["commander", "keep", "deploy", "attack", "move", "reinforce", "event"]
WESTEROS_PREFER = ["march", "support", "defen", "consolidate", "raid", "place", "bid", "muster", "resolve"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stack:
    """The `make run` stack in a temporary directory: SQLite, the filesystem broker, web + worker."""

    def __init__(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="screenshots-"))
        self.env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
        self.env.update(
            DJANGO_SETTINGS_MODULE="config.settings.dev",
            VAR_DIR=str(self.tmp / "var"),
            SECRET_KEY="screenshots-only",
            LOG_LEVEL="WARNING",
            PYTHONUNBUFFERED="1",
        )
        self.env.setdefault("AI_BUDGET_SCALE", "0.1")
        self.procs: list[subprocess.Popen[bytes]] = []
        self.run("manage.py", "migrate", "--noinput", "-v", "0")
        self.run("-c", SEED_USERS)
        self.url = f"http://127.0.0.1:{free_port()}"
        self.spawn("web", "manage.py", "runserver", "--noreload", self.url.split("//")[1])
        self.spawn("worker", "-m", "celery", "-A", "config", "worker", "-Q", "celery,ai", "-B", "-P", "solo",
                   "-l", "warning", "-s", str(self.tmp / "beat"))  # fmt: skip
        for _ in range(300):
            try:
                urllib.request.urlopen(f"{self.url}/api/health/", timeout=1)
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError((self.tmp / "web.log").read_text()[-3000:])

    def run(self, *args: str) -> None:
        done = subprocess.run([sys.executable, *args], cwd=ROOT, env=self.env, capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(done.stderr[-3000:])

    def spawn(self, name: str, *args: str) -> None:
        log = (self.tmp / f"{name}.log").open("w")
        self.procs.append(subprocess.Popen([sys.executable, *args], cwd=ROOT, env=self.env, stdout=log,
                                           stderr=subprocess.STDOUT, start_new_session=True))  # fmt: skip

    def close(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
        shutil.rmtree(self.tmp, ignore_errors=True)


class Shooter:
    def __init__(self, browser: Any, url: str, out: Path) -> None:
        self.browser, self.url, self.out = browser, url, out
        self.taken: list[str] = []

    def login(self, name: str, width: int = 1400, height: int = 900) -> Any:
        ctx = self.browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
        page = ctx.new_page()
        page.set_default_timeout(30_000)
        page.goto(f"{self.url}/accounts/login/")
        page.fill("input[name=username]", name)
        page.fill("input[name=password]", f"pw-{name}-123")
        page.locator("form:has(input[name=password]) [type=submit]").click()
        page.wait_for_url(lambda u: "/accounts/login/" not in u)
        return page

    def api(self, page: Any, method: str, path: str, body: Any = None) -> Any:
        return page.evaluate(
            """async ([method, path, body]) => {
                const csrf = (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || "";
                const r = await fetch(path, {method, credentials: "same-origin",
                    headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
                    body: body === null ? undefined : JSON.stringify(body)});
                const data = await r.json().catch(() => null);
                if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(data)}`);
                return data;
            }""",
            [method, path, body],
        )

    def shoot(
        self, page: Any, name: str, path: str, ready: str | None = None, click: str | None = None
    ) -> None:
        """`path` at both sizes (the viewport only: what a player sees without scrolling), after a click on
        `click` if given."""
        for width, height, label in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{self.url}{path}")
            if ready:
                page.wait_for_selector(ready)
            if click:
                page.click(click)
            page.wait_for_timeout(900)  # live connection, fonts, a short animation
            file = self.out / f"{name}-{label}.png"
            page.screenshot(path=str(file))
            self.taken.append(file.name)
            print(f"  {file.relative_to(ROOT) if file.is_relative_to(ROOT) else file}", flush=True)


def deck_of(shooter: Shooter, page: Any) -> int:
    decks = shooter.api(page, "GET", "/api/decks/", None)
    rows = decks.get("results", decks) if isinstance(decks, dict) else decks
    return int(rows[0]["id"])


def state(shooter: Shooter, page: Any, match_id: int) -> dict[str, Any]:
    return shooter.api(page, "GET", f"/api/matches/{match_id}/state/", None)


def play(
    shooter: Shooter, pages: list[Any], match_id: int, prefer: list[str], until: Any, limit: int = 600
) -> None:
    """Submit moves for the human `pages` (and wait for the AI) until `until(state)` or the match ends."""
    for _ in range(limit):
        snap = state(shooter, pages[0], match_id)
        if snap.get("status") != "active" or until(snap):
            return
        moved = False
        for page in pages:
            if page.evaluate(PLAY_ONE, [match_id, prefer]) not in (None, -1):
                moved = True
        if not moved:
            time.sleep(0.3)  # the AI's turn
    raise RuntimeError(f"match {match_id} did not reach the wanted point")


def turn_of(snap: dict[str, Any]) -> int:
    view = snap.get("view") or {}
    return int(view.get("turn") or view.get("round") or 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"), help="where the PNGs go")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if not Path(CHROMIUM).exists():
        sys.exit(f"Chromium is missing at {CHROMIUM} (apt-get install chromium, or set CHROMIUM=...)")
    from playwright.sync_api import sync_playwright

    print("Starting a throwaway stack (SQLite, filesystem broker, web server, Celery worker)…", flush=True)
    stack = Stack()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
            s = Shooter(browser, stack.url, out)
            alice, bob = s.login("alice"), s.login("bob")

            # Commandeer against the AI, to turn 3.
            m = s.api(alice, "POST", "/api/matches/",
                      {"kind": "commandeer", "deck_id": deck_of(s, alice), "vs_ai": True, "ai_agent": "easy"})  # fmt: skip
            play(s, [alice], m["id"], COMMANDEER_PREFER, lambda snap: turn_of(snap) >= 3)
            s.shoot(alice, "commandeer-vs-ai", f"/play/{m['id']}/", "[data-testid=board]")

            # Commandeer between two users, from the second player's side.
            m2 = s.api(alice, "POST", "/api/matches/",
                       {"kind": "commandeer", "deck_id": deck_of(s, alice), "is_public": True})  # fmt: skip
            s.api(bob, "POST", f"/api/matches/{m2['id']}/join/", {"deck_id": deck_of(s, bob)})
            s.api(alice, "POST", f"/api/matches/{m2['id']}/start/", {})
            play(s, [alice, bob], m2["id"], COMMANDEER_PREFER, lambda snap: turn_of(snap) >= 3)
            s.shoot(bob, "commandeer-second-player", f"/play/{m2['id']}/", "[data-testid=board]")
            # alice concedes: bob's page at the end (result, summary, rematch), then the replay (a match
            # the moves above already ended, C-6.2, shows its own end)
            if s.api(alice, "GET", f"/api/matches/{m2['id']}/state/")["status"] == "active":
                s.api(alice, "POST", f"/api/matches/{m2['id']}/concede/", {})
            s.shoot(bob, "commandeer-game-over", f"/play/{m2['id']}/", "[data-testid=result]:visible")
            s.shoot(alice, "commandeer-replay", f"/play/{m2['id']}/replay/", "[data-testid=log] li",
                    click="[data-testid=replay-last]")  # fmt: skip

            # Westeros: alice's house against five AI houses, into round 2.
            w = s.api(alice, "POST", "/api/matches/",
                      {"kind": "westeros", "vs_ai": True, "ai_agent": "easy",
                       "rules_config": {"player_count": 6, "house": "stark"}})  # fmt: skip
            play(s, [alice], w["id"], WESTEROS_PREFER, lambda snap: turn_of(snap) >= 2, limit=2000)
            s.shoot(alice, "westeros-game", f"/westeros/games/{w['id']}/", None)
            # alice concedes (an AI plays her house on) and the six AI houses play to the end: the result
            # banner names the winning house
            s.api(alice, "POST", f"/api/matches/{w['id']}/concede/", {})
            for _ in range(1200):
                if state(s, alice, w["id"]).get("status") != "active":
                    break
                time.sleep(0.5)
            s.shoot(
                alice, "westeros-game-over", f"/westeros/games/{w['id']}/", "[data-testid=result]:visible"
            )

            # Around the tables.
            s.shoot(alice, "lobby", "/play/", None)
            s.shoot(alice, "deck-builder", f"/decks/{deck_of(s, alice)}/", None)
            s.shoot(alice, "cards", "/cards/", None)
            for path, name in (("/play/mine/", "my-games"), ("/players/alice/", "profile"),
                               ("/decks/public/", "public-decks")):  # fmt: skip
                if alice.request.get(f"{stack.url}{path}").status == 200:  # pages a signed-in player has
                    s.shoot(alice, name, path, None)
            browser.close()
        (out / "index.json").write_text(json.dumps(sorted(s.taken), indent=1) + "\n")
        print(f"{len(s.taken)} screenshots in {out}")
    finally:
        stack.close()


if __name__ == "__main__":
    main()
