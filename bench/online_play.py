"""Benchmark of online play over HTTP: N concurrent matches against a running ASGI server.

By default it starts daphne itself on PostgreSQL (a fresh `bench_online` database) with Redis (channel
layer + Celery broker), seeds users/decks/tokens through the ORM, then drives N matches at once, each
by a thread that reads the mover's state and submits a random legal action (with an idempotency key)
until the match ends or has M actions. A second thread hits `/api/health/` during the run, so the
trivial endpoint's latency is measured under the same load. Prints a table and one JSON line.

    .venv/bin/python bench/online_play.py --matches 8 --actions 60
    .venv/bin/python bench/online_play.py --url http://127.0.0.1:8000   # a server you started
      (then DATABASE_URL must name the server's database: users and decks are seeded through it)
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DB = "postgresql://postgres@127.0.0.1:5432/bench_online"
DEFAULT_REDIS = "redis://127.0.0.1:6379/12"


class Client:
    """A keep-alive HTTP/1.1 JSON client authenticated with an API token (one per thread)."""

    def __init__(self, base: str, token: str | None = None) -> None:
        u = urllib.parse.urlsplit(base)
        self.host, self.port = u.hostname or "127.0.0.1", u.port or 80
        self.token = token
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        for attempt in range(2):
            t0 = time.perf_counter()
            try:
                self.conn.request(method, path, body=data, headers=headers)
                resp = self.conn.getresponse()
                raw = resp.read()
                elapsed = time.perf_counter() - t0
                return resp.status, (json.loads(raw) if raw else None), elapsed
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
                if attempt:
                    raise
        raise AssertionError("unreachable")


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = max(0, min(len(s) - 1, round(p / 100 * (len(s) - 1))))
    return s[k]


def prepare_database(env: dict[str, str]) -> None:
    """Create a fresh benchmark database and migrate it."""
    import psycopg

    url = urllib.parse.urlsplit(env["DATABASE_URL"])
    name = url.path.lstrip("/")
    admin = url._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True,
                   capture_output=True)  # fmt: skip


def seed(n_matches: int, kind: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Two users per match with API tokens (and legal decks for Commandeer), through the ORM."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    factions = ["stonehold", "tidewardens", "cinder-legion", "veilborn"]
    User = get_user_model()
    pairs = []
    run = uuid.uuid4().hex[:6]
    for i in range(n_matches):
        pair = []
        for side in (0, 1):
            user = User.objects.create_user(f"bench-{run}-{i}-{side}", password=None)
            info: dict[str, Any] = {"token": Token.objects.create(user=user).key, "deck_id": None}
            if kind == "commandeer":
                from matches.tests.commandeer_fixtures import legal_deck

                info["deck_id"] = legal_deck(user, factions[(i + side) % 4]).pk
            pair.append(info)
        pairs.append((pair[0], pair[1]))
    return pairs


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    client = Client(f"http://127.0.0.1:{port}")
    for _ in range(200):
        try:
            if client.call("GET", "/api/health/")[0] == 200:
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("daphne did not start")


def drive_match(base: str, a: dict[str, Any], b: dict[str, Any], kind: str, max_actions: int, seed: int,
                out: dict[str, Any]) -> None:  # fmt: skip
    """Create, join, start and play one match with random legal actions; record submit latencies."""
    rng = random.Random(seed)
    ca, cb = Client(base, a["token"]), Client(base, b["token"])
    body: dict[str, Any] = {
        "kind": kind,
        "deck_id": a["deck_id"],
        "time_control": {"initial_s": 600, "increment_s": 10},
    }
    body["rules_config"] = {"turn_limit": 30} if kind == "commandeer" else {"target": 10**6}
    status, m, _ = ca.call("POST", "/api/matches/", body)
    assert status == 201, m
    mid = m["id"]
    assert cb.call("POST", f"/api/matches/{mid}/join/", {"deck_id": b["deck_id"]})[0] == 200
    status, state, _ = ca.call("POST", f"/api/matches/{mid}/start/")
    assert status == 200, state
    clients = {0: ca, 1: cb}
    applied = 0
    while applied < max_actions:
        current = state.get("current_players") or []
        if state["status"] != "active" or not current:
            break
        mover = clients[current[0]]
        status, state, _ = mover.call("GET", f"/api/matches/{mid}/state/")
        if state["status"] != "active" or not state["legal_actions"]:
            continue
        choice = rng.choice(state["legal_actions"])["action"]
        status, res, elapsed = mover.call(
            "POST", f"/api/matches/{mid}/actions/",
            {"action": choice, "state_version": state["state_version"], "idempotency_key": uuid.uuid4().hex},
        )  # fmt: skip
        if status == 200:
            applied += 1
            out["submit"].append(elapsed)
            state = {"status": res["status"], "current_players": res["current_players"]}
        else:
            out["errors"].append(status)
            status, state, _ = mover.call("GET", f"/api/matches/{mid}/state/")
    out["actions"] += applied


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", help="a running server; omitted: start daphne on PostgreSQL + Redis")
    ap.add_argument("--matches", type=int, default=int(os.environ.get("BENCH_MATCHES", 8)))
    ap.add_argument("--actions", type=int, default=int(os.environ.get("BENCH_ACTIONS", 60)), help="per match")
    ap.add_argument("--kind", default="commandeer")
    ap.add_argument("--port", type=int, default=0, help="port of the first daphne it starts (0: free ports)")
    ap.add_argument(
        "--servers", type=int, default=1, help="daphne processes to start (matches spread over them)"
    )
    args = ap.parse_args()

    env = dict(os.environ)
    env.setdefault("DATABASE_URL", DEFAULT_DB)
    env.setdefault("REDIS_URL", DEFAULT_REDIS)
    env.update(DJANGO_SETTINGS_MODULE="config.settings.test", SECRET_KEY=env.get("SECRET_KEY", "bench-key"),
               CELERY_TASK_ALWAYS_EAGER="0", LOG_LEVEL="WARNING", DEBUG="0")  # fmt: skip
    if args.kind != "commandeer":
        env["MATCHES_EXTRA_GAMES"] = "matches.tests.fakegame"
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    procs: list[subprocess.Popen[bytes]] = []
    if args.url is None:
        prepare_database(env)
    pairs = seed(args.matches, args.kind)
    if args.url is None:
        bases = []
        for i in range(max(1, args.servers)):
            port = args.port + i if args.port else free_port()
            procs.append(start_server(env, port))
            bases.append(f"http://127.0.0.1:{port}")
    else:
        bases = [args.url.rstrip("/")]
    base = bases[0]
    try:
        out: dict[str, Any] = {"submit": [], "errors": [], "actions": 0}
        health: list[float] = []
        done = threading.Event()

        def probe() -> None:
            c = Client(base)
            while not done.is_set():
                health.append(c.call("GET", "/api/health/")[2])
                time.sleep(0.02)

        prober = threading.Thread(target=probe, daemon=True)
        threads = [
            threading.Thread(
                target=drive_match, args=(bases[i % len(bases)], a, b, args.kind, args.actions, i, out)
            )
            for i, (a, b) in enumerate(pairs)
        ]
        t0 = time.perf_counter()
        prober.start()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t0
        done.set()
        prober.join(5)
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(10)
    ms = lambda xs, p: round(1000 * percentile(xs, p), 2)  # noqa: E731
    result = {
        "bench": "online_play",
        "kind": args.kind,
        "matches": args.matches,
        "actions": out["actions"],
        "wall_s": round(wall, 2),
        "actions_per_s": round(out["actions"] / wall, 1) if wall else 0,
        "submit_ms": {
            "p50": ms(out["submit"], 50),
            "p95": ms(out["submit"], 95),
            "p99": ms(out["submit"], 99),
        },
        "health_ms": {"p50": ms(health, 50), "p95": ms(health, 95), "p99": ms(health, 99)},
        "health_samples": len(health),
        "submit_errors": len(out["errors"]),
        "database": env["DATABASE_URL"].split("://")[0],
        "redis": bool(env.get("REDIS_URL")),
        "server": f"daphne ({len(procs)} process{'es' if len(procs) > 1 else ''})" if procs else base,
    }
    print(
        f"online play: {args.matches} concurrent {args.kind} matches, {out['actions']} actions in {wall:.1f}s"
    )
    print(f"  throughput      {result['actions_per_s']} actions/s")
    print(f"  submit latency  p50 {result['submit_ms']['p50']} ms  p95 {result['submit_ms']['p95']} ms  "
          f"p99 {result['submit_ms']['p99']} ms")  # fmt: skip
    print(f"  /api/health/    p50 {result['health_ms']['p50']} ms  p95 {result['health_ms']['p95']} ms  "
          f"p99 {result['health_ms']['p99']} ms  (same load)")  # fmt: skip
    if out["errors"]:
        print(f"  submit errors   {len(out['errors'])} (status codes {sorted(set(out['errors']))})")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
