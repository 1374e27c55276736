"""Soak test of `make run`'s default set-up: does it stay up under play for half an hour?

It starts `make run` itself (SQLite, the filesystem broker, a Celery worker, under honcho: the same
processes a developer gets), seeds players through the ORM, then for `--minutes` keeps `--matches`
AI matches in play over the HTTP API (a scripted client per match plays random legal actions; the AI
answers through Celery; a finished match is followed by a new one) plus `--browsers` headless
Chromium clients, each keeping a match page open and clicking its actions (WebSocket updates). Every
15 s it samples the resident memory of each process of `make run`. At the end it stops `make run`
with one SIGINT (as Ctrl-C would) and checks that everything stopped.

It prints: matches finished, actions, 5xx count, processes that crashed or vanished, error lines in
the log, latency p50/p95 of state reads and submits, RSS of each process over time, and one JSON
line. The full log of `make run` is kept under var/log/.

    .venv/bin/python bench/soak.py                    # 10 matches + 2 browsers for 30 minutes
    .venv/bin/python bench/soak.py --minutes 3        # a short check
    .venv/bin/python bench/soak.py --url http://127.0.0.1:8000   # a `make run` you started (no process figures)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
from online_play import Client, percentile  # noqa: E402

FACTIONS = ["stonehold", "tidewardens", "cinder-legion", "veilborn"]
SAMPLE_EVERY_S = 15
STUCK_AFTER_S = 180  # no new state version for this long: the match counts as stuck and is left
ERROR_LINE = re.compile(
    r"Traceback|Segmentation fault|Fatal Python error|\bERROR\b|\bCRITICAL\b|crashed|exited with status"
)


# ---- set-up ---------------------------------------------------------------------------------------------
def seed(n_api: int, n_browser: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Players with tokens and legal decks, created through the ORM (sign-up is throttled per address)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from matches.tests.commandeer_fixtures import legal_deck

    User = get_user_model()
    run = uuid.uuid4().hex[:6]
    players: list[dict[str, Any]] = []
    for i in range(n_api + n_browser):
        name = f"soak-{run}-{i}"
        password = uuid.uuid4().hex
        user = User.objects.create_user(name, password=password)
        players.append(
            {
                "username": name,
                "password": password,
                "token": Token.objects.create(user=user).key,
                "deck_id": legal_deck(user, FACTIONS[i % len(FACTIONS)]).pk,
            }
        )
    from django.db import connections

    connections.close_all()  # the server writes the same SQLite file from now on
    return players[:n_api], players[n_api:]


def start_make_run(port: int, log_path: Path) -> subprocess.Popen[bytes]:
    """`make run` in a session of its own (so one SIGINT to its group is a Ctrl-C), output to a log file."""
    log = log_path.open("wb")
    return subprocess.Popen(
        ["make", "run", f"PORT={port}", "HOST=127.0.0.1"],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def wait_until_up(base: str, proc: subprocess.Popen[bytes] | None, timeout_s: float = 600) -> None:
    client = Client(base)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise SystemExit(f"make run exited with status {proc.returncode} before serving")
        try:
            if client.call("GET", "/api/health/")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(1)
    raise SystemExit("the server did not answer /api/health/ in time")


# ---- processes ------------------------------------------------------------------------------------------
def _proc_table() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, command line) of every process."""
    table: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except (OSError, IndexError, ValueError):
            continue
        table[pid] = (ppid, cmd) if (pid := int(entry.name)) else (ppid, cmd)
    return table


def _label(cmd: str, parent_cmd: str) -> str | None:
    if "runserver" in cmd or "uvicorn" in cmd or "daphne" in cmd:
        return "web"
    if "celery" in cmd:
        return "worker-child" if "celery" in parent_cmd else "worker"
    if "config.procfile" in cmd:
        return "honcho"
    return None


def server_processes(root_pid: int) -> dict[int, str]:
    """The processes under `make run` worth watching, pid -> label (web, worker, worker-child, honcho)."""
    table = _proc_table()
    found: dict[int, str] = {}
    todo = [root_pid]
    while todo:
        pid = todo.pop()
        for child, (ppid, cmd) in table.items():
            if ppid == pid:
                label = _label(cmd, table.get(pid, (0, ""))[1])
                if label:
                    found[child] = label
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    """Whether a process still runs (a zombie waiting to be reaped does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


# ---- players --------------------------------------------------------------------------------------------
class Stats:
    """Counters shared by the player threads (a lock around every update)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.matches_started = self.matches_finished = self.actions = self.stuck = 0
        self.status_counts: dict[int, int] = {}
        self.read_s: list[float] = []
        self.submit_s: list[float] = []
        self.connection_errors = 0

    def record(self, status: int, elapsed: float, kind: str) -> None:
        with self.lock:
            self.status_counts[status] = self.status_counts.get(status, 0) + 1
            (self.submit_s if kind == "submit" else self.read_s).append(elapsed)


def api_player(base: str, player: dict[str, Any], stats: Stats, deadline: float, rng: random.Random) -> None:
    """Play AI matches back to back with random legal actions until the deadline."""
    client = Client(base, player["token"])
    while time.monotonic() < deadline:
        try:
            status, match, elapsed = client.call(
                "POST", "/api/matches/", {"kind": "commandeer", "deck_id": player["deck_id"], "vs_ai": True}
            )
            stats.record(status, elapsed, "read")
            if status != 201:
                time.sleep(2)
                continue
            with stats.lock:
                stats.matches_started += 1
            play_one(client, match["id"], stats, deadline, rng)
        except OSError:
            with stats.lock:
                stats.connection_errors += 1
            client = Client(base, player["token"])
            time.sleep(2)


def play_one(client: Client, match_id: int, stats: Stats, deadline: float, rng: random.Random) -> None:
    last_version, last_change = -1, time.monotonic()
    while time.monotonic() < deadline:
        status, state, elapsed = client.call("GET", f"/api/matches/{match_id}/state/")
        stats.record(status, elapsed, "read")
        if status != 200:
            time.sleep(1)
            continue
        if state["status"] != "active":
            with stats.lock:
                stats.matches_finished += state["status"] == "finished"
            return
        if state["state_version"] != last_version:
            last_version, last_change = state["state_version"], time.monotonic()
        elif time.monotonic() - last_change > STUCK_AFTER_S:
            with stats.lock:
                stats.stuck += 1
            client.call("POST", f"/api/matches/{match_id}/concede/", {})
            return
        if not state["legal_actions"]:
            time.sleep(0.5)  # the AI's turn: a Celery task answers
            continue
        body = {
            "action": rng.choice(state["legal_actions"])["action"],
            "state_version": state["state_version"],
            "idempotency_key": uuid.uuid4().hex,
        }
        status, _, elapsed = client.call("POST", f"/api/matches/{match_id}/actions/", body)
        stats.record(status, elapsed, "submit")
        if status == 200:
            with stats.lock:
                stats.actions += 1
        time.sleep(0.2)  # a person takes a moment; the soak is about time, not throughput


def browser_client(base: str, username: str, password: str, deadline: float, seed_: int) -> dict[str, Any]:
    """One Chromium page: log in, "Play against the AI" from the lobby, click actions until the end,
    then the next match; returns its counts. Runs in a process of its own (Playwright's sync API)."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    rng = random.Random(seed_)
    out = {"matches": 0, "finished": 0, "clicks": 0, "page_errors": 0, "errors": []}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"),
            args=["--no-sandbox", "--disable-gpu"],
            headless=True,
        )
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(30_000)
        page.on("pageerror", lambda e: out.__setitem__("page_errors", out["page_errors"] + 1))
        page.goto(f"{base}/accounts/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", password)
        page.click("form.form button[type=submit]")
        page.wait_for_load_state()
        while time.monotonic() < deadline:
            try:
                page.goto(f"{base}/play/")
                page.locator("[data-testid=deck] option:not([value=''])").first.wait_for(state="attached")
                page.click("[data-testid=play-ai]")
                page.wait_for_url(re.compile(r"/play/\d+/$"))
            except PlaywrightError as error:
                out["errors"].append(str(error).splitlines()[0][:200])
                continue
            out["matches"] += 1
            while time.monotonic() < deadline:
                try:
                    if page.evaluate("document.body.dataset.status || ''") == "finished":
                        out["finished"] += 1
                        break
                    # moves with a card or square are listed under "All N moves": open it to reach them
                    summary = page.locator("details.all-moves:not([open]) > summary")
                    if summary.count():
                        summary.first.click(timeout=5_000)
                    buttons = page.locator("[data-testid=action]:visible")
                    count = buttons.count()
                    if count:
                        buttons.nth(rng.randrange(count)).click(timeout=5_000)
                        out["clicks"] += 1
                    page.wait_for_timeout(700)
                except PlaywrightError as error:  # a button re-rendered under the click: note it, reload
                    out["errors"].append(str(error).splitlines()[0][:200])
                    page.reload()
        browser.close()
    return out


# ---- the run --------------------------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--matches", type=int, default=10, help="AI matches kept in play over the API")
    parser.add_argument("--browsers", type=int, default=2, help="headless Chromium clients")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--url", help="a running server to use instead of starting `make run`")
    parser.add_argument("--browser-client", nargs=4, metavar=("BASE", "USER", "PASSWORD", "SECONDS"),
                        help=argparse.SUPPRESS)  # fmt: skip
    args = parser.parse_args()

    if args.browser_client:
        base, user, password, seconds = args.browser_client
        print(json.dumps(browser_client(base, user, password, time.monotonic() + float(seconds), hash(user))))
        return

    os.chdir(ROOT)
    if not args.url:  # a fresh clone has no database yet: `make run`'s own set-up steps first
        subprocess.run(["make", "--no-print-directory", "data"], check=True, stdout=subprocess.DEVNULL)
    api_players, browser_players = seed(args.matches, args.browsers)
    log_dir = ROOT / "var" / "log"
    log_dir.mkdir(parents=True, exist_ok=True)
    log_path = log_dir / f"soak-{time.strftime('%Y%m%d-%H%M%S')}.log"
    make = None
    if args.url:
        base = args.url.rstrip("/")
    else:
        base = f"http://127.0.0.1:{args.port}"
        make = start_make_run(args.port, log_path)
    wait_until_up(base, make)
    started = time.monotonic()
    deadline = started + args.minutes * 60
    print(f"soak: {args.matches} API matches + {args.browsers} browsers for {args.minutes} min against {base}"
          + (f" (make run log: {log_path.relative_to(ROOT)})" if make else ""), flush=True)  # fmt: skip

    stats = Stats()
    threads = [
        threading.Thread(target=api_player, args=(base, p, stats, deadline, random.Random(i)), daemon=True)
        for i, p in enumerate(api_players)
    ]
    browsers = [
        subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--browser-client",
                base,
                p["username"],
                p["password"],
                str(args.minutes * 60),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        for p in browser_players
    ]
    for t in threads:
        t.start()

    watched: dict[int, str] = server_processes(make.pid) if make else {}
    rss: dict[str, list[tuple[int, float]]] = {}
    vanished: list[str] = []
    while time.monotonic() < deadline:
        elapsed = int(time.monotonic() - started)
        if make:
            now = server_processes(make.pid)
            for pid, label in watched.items():
                if pid not in now and f"{label}:{pid}" not in vanished:
                    vanished.append(f"{label}:{pid}")
                    print(f"soak: {label} (pid {pid}) is gone after {elapsed} s", flush=True)
            watched.update(now)
            for pid, label in now.items():
                mb = rss_mb(pid)
                if mb is not None:
                    rss.setdefault(f"{label}:{pid}", []).append((elapsed, mb))
            if make.poll() is not None:
                print(f"soak: make run exited with status {make.returncode} after {elapsed} s", flush=True)
                break
        with stats.lock:
            print(f"soak: {elapsed:>5} s  actions {stats.actions}  finished {stats.matches_finished}  "
                  f"5xx {sum(n for s, n in stats.status_counts.items() if s >= 500)}", flush=True)  # fmt: skip
        time.sleep(min(SAMPLE_EVERY_S, max(0.0, deadline - time.monotonic())))

    for t in threads:
        t.join(timeout=60)
    browser_results = []
    for b in browsers:
        try:
            out, _ = b.communicate(timeout=120)
            browser_results.append(
                json.loads(out.strip().splitlines()[-1]) if out.strip() else {"error": "no output"}
            )
        except (subprocess.TimeoutExpired, json.JSONDecodeError, IndexError) as error:
            b.kill()
            browser_results.append({"error": str(error)[:200]})

    stopped_cleanly, left_running = None, []
    if make and make.poll() is None:
        os.killpg(make.pid, signal.SIGINT)  # one Ctrl-C
        try:
            make.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(make.pid, signal.SIGKILL)
        give_up = time.monotonic() + 10
        while True:
            left_running = [f"{label}:{pid}" for pid, label in watched.items() if _alive(pid)]
            if not left_running or time.monotonic() > give_up:
                break
            time.sleep(0.5)
        stopped_cleanly = (
            make.returncode is not None and make.returncode != -signal.SIGKILL and not left_running
        )

    log_text = log_path.read_text(errors="replace") if make else ""
    error_lines = [line for line in log_text.splitlines() if ERROR_LINE.search(line)]
    crashes = [line for line in log_text.splitlines() if "crashed:" in line or "Segmentation fault" in line]
    five_xx = sum(n for s, n in stats.status_counts.items() if s >= 500)
    summary = {
        "minutes": args.minutes,
        "api_matches": args.matches,
        "browsers": args.browsers,
        "matches_started": stats.matches_started,
        "matches_finished": stats.matches_finished + sum(r.get("finished", 0) for r in browser_results),
        "matches_stuck": stats.stuck,
        "actions": stats.actions + sum(r.get("clicks", 0) for r in browser_results),
        "status_counts": {str(k): v for k, v in sorted(stats.status_counts.items())},
        "5xx": five_xx,
        "connection_errors": stats.connection_errors,
        "crashes": len(crashes),
        "processes_gone": vanished,
        "error_lines": len(error_lines),
        "read_ms": {
            "p50": round(1000 * percentile(stats.read_s, 50), 1),
            "p95": round(1000 * percentile(stats.read_s, 95), 1),
        },
        "submit_ms": {
            "p50": round(1000 * percentile(stats.submit_s, 50), 1),
            "p95": round(1000 * percentile(stats.submit_s, 95), 1),
        },
        "rss_mb": {
            name: {"first": pts[0][1], "max": max(v for _, v in pts), "last": pts[-1][1]}
            for name, pts in rss.items()
        },
        "browsers_result": browser_results,
        "stopped_cleanly_on_sigint": stopped_cleanly,
        "left_running": left_running,
        "log": str(log_path.relative_to(ROOT)) if make else None,
    }
    print()
    print(
        f"matches finished {summary['matches_finished']} (started over the API {stats.matches_started}, stuck {stats.stuck})"
    )
    print(
        f"actions {summary['actions']}  5xx {five_xx}  connection errors {stats.connection_errors}  crashes {len(crashes)}"
    )
    print(f"state reads p50 {summary['read_ms']['p50']} ms  p95 {summary['read_ms']['p95']} ms;  "
          f"submits p50 {summary['submit_ms']['p50']} ms  p95 {summary['submit_ms']['p95']} ms")  # fmt: skip
    for name, pts in rss.items():
        series = "  ".join(f"{t // 60}m:{mb:.0f}" for t, mb in pts[:: max(1, len(pts) // 8)])
        print(f"RSS MB {name:<20} {series}  (max {max(v for _, v in pts):.0f})")
    if error_lines:
        print(f"{len(error_lines)} error lines in the log, the first ones:")
        for line in error_lines[:10]:
            print("   ", line[:200])
    print(f"stopped cleanly on one SIGINT: {stopped_cleanly}")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
