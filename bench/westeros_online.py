"""Benchmark of Westeros online play: K concurrent 6-house games played by AI houses through the server.

Starts the whole stack itself — a fresh PostgreSQL database, Redis (channel layer + Celery broker),
daphne, and Celery workers (with beat for the deadline sweep) — then opens K games over the HTTP API
the way a player would: each bench user creates a 6-player game against five AI houses and concedes at
once, so an AI takes the sixth seat too (a 3+ player concession hands the seat to the AI). From then on
every decision is an AI move made by `matches.tasks.ai_move` through the action service (lock, check,
apply, log, broadcast). Figures are read back from the action log:

- decisions/s: all actions of all games / wall time from the first start to the last finish;
- decision latency: time between consecutive actions of one game (p50/p95), i.e. what one AI
  decision costs end to end: task hand-off, lock, engine, write, broadcast;
- game time: started_at → finished_at per game (median, max).

    .venv/bin/python bench/westeros_online.py --games 4 --workers 2
Prints a table and one JSON line.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PG_ADMIN = os.environ.get("BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
SEED_TOKENS = """
import django, json; django.setup()
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
tokens = []
for i in range({n}):
    user = get_user_model().objects.create_user(f"bench-wx-{{i}}", password=None)
    tokens.append(Token.objects.create(user=user).key)
print("TOKENS", json.dumps(tokens))
"""


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[max(0, min(len(s) - 1, round(p / 100 * (len(s) - 1))))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def call(base: str, token: str, method: str, path: str, body: Any = None) -> Any:
    """One JSON request with token auth; raises on an error status."""
    u = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(u.hostname or "127.0.0.1", u.port or 80, timeout=60)
    headers = {"Accept": "application/json", "Authorization": f"Token {token}"}
    data = None
    if body is not None:
        data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
    conn.request(method, path, body=data, headers=headers)
    resp = conn.getresponse()
    raw = resp.read()
    conn.close()
    if resp.status >= 400:
        raise RuntimeError(f"{method} {path}: {resp.status} {raw[:300]!r}")
    return json.loads(raw) if raw else None


class Stack:
    """PostgreSQL database + daphne + Celery workers, torn down on close."""

    def __init__(self, workers: int, tmp: Path) -> None:
        import psycopg

        self.db = f"bench_westeros_{uuid.uuid4().hex[:6]}"
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.db}"')
        self.db_url = PG_ADMIN.rsplit("/", 1)[0] + f"/{self.db}"
        self.env = {k: v for k, v in os.environ.items() if k not in {"CELERY_TASK_ALWAYS_EAGER"}}
        self.env.update(
            DJANGO_SETTINGS_MODULE="config.settings.dev",
            DEBUG="0",
            ALLOWED_HOSTS="127.0.0.1,localhost",
            SECRET_KEY="bench-westeros-online",
            DATABASE_URL=self.db_url,
            REDIS_URL=REDIS_URL,
            CELERY_TASK_ALWAYS_EAGER="0",
            LOG_LEVEL="WARNING",
            VAR_DIR=str(tmp / "var"),
        )
        self.tmp, self.procs = tmp, []  # type: ignore[var-annotated]
        self.run("manage.py", "migrate", "--noinput")
        self.run("manage.py", "load_westeros")
        import redis

        redis.Redis.from_url(REDIS_URL).flushdb()
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.spawn("daphne", "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application")
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        self.spawn("worker", "-m", "celery", "-A", "config", "worker", "-B", "-P", "prefork", "-c", str(workers),
                   "-l", "warning", "-s", str(tmp / "beat"), "-n", f"benchwx{port}@%h")  # fmt: skip
        time.sleep(3)

    def run(self, *args: str) -> str:
        done = subprocess.run([sys.executable, *args], cwd=ROOT, env=self.env, capture_output=True, text=True)
        if done.returncode:
            raise SystemExit(done.stderr[-3000:])
        return done.stdout

    def spawn(self, name: str, *args: str) -> None:
        log = (self.tmp / f"{name}.log").open("w")
        self.procs.append(
            subprocess.Popen(
                [sys.executable, *args],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        )

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        import psycopg

        with psycopg.connect(self.db_url, autocommit=True) as conn:
            cur = conn.execute(query, params)
            return list(cur.fetchall()) if cur.description else []

    def close(self) -> None:
        import psycopg

        for proc in self.procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.db}" WITH (FORCE)')


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--games", type=int, default=int(os.environ.get("BENCH_GAMES", 4)), help="K concurrent games"
    )
    ap.add_argument("--workers", type=int, default=2, help="Celery worker processes")
    ap.add_argument("--timeout", type=float, default=1800, help="give up after this many seconds")
    args = ap.parse_args()
    import tempfile

    tmp = Path(tempfile.mkdtemp(prefix="bench-westeros-"))
    stack = Stack(args.workers, tmp)
    try:
        out = stack.run("-c", SEED_TOKENS.format(n=args.games))
        tokens = json.loads(out.split("TOKENS", 1)[1])
        t0 = time.monotonic()
        ids = []
        for token in tokens:
            match = call(stack.url, token, "POST", "/api/matches/", {
                "kind": "westeros", "vs_ai": True, "time_control": {"per_move_s": 60, "bank_s": 60},
                "rules_config": {"player_count": 6, "house": "random"},
            })  # fmt: skip
            ids.append(match["id"])
        for token, match_id in zip(tokens, ids, strict=True):
            call(stack.url, token, "POST", f"/api/matches/{match_id}/concede/")  # the AI takes the seat
        while True:
            rows = stack.sql("SELECT count(*) FROM matches_match WHERE status = 'active'")
            if rows[0][0] == 0:
                break
            if time.monotonic() - t0 > args.timeout:
                raise SystemExit(f"games still running after {args.timeout}s; logs in {tmp}")
            time.sleep(1)
        wall = time.monotonic() - t0
        stamps: dict[int, list[float]] = {}
        for match_id, created in stack.sql(
            "SELECT match_id, extract(epoch from created_at) FROM matches_actionlog ORDER BY match_id, version"
        ):
            stamps.setdefault(match_id, []).append(float(created))
        gaps = [1000 * (b - a) for s in stamps.values() for a, b in zip(s, s[1:], strict=False)]
        games = stack.sql(
            "SELECT status, extract(epoch from finished_at - started_at), result->>'reason' FROM matches_match"
        )
        decisions = sum(len(s) for s in stamps.values())
        durations = [float(d) for st, d, _ in games if st == "finished" and d is not None]
        report = {
            "bench": "westeros_online",
            "games": args.games,
            "workers": args.workers,
            "finished": sum(1 for st, _, _ in games if st == "finished"),
            "reasons": sorted({str(r) for _, _, r in games}),
            "decisions": decisions,
            "wall_s": round(wall, 2),
            "decisions_per_s": round(decisions / wall, 1),
            "decision_latency_ms_p50": round(percentile(gaps, 50), 1),
            "decision_latency_ms_p95": round(percentile(gaps, 95), 1),
            "game_time_s_median": round(statistics.median(durations), 1) if durations else None,
            "game_time_s_max": round(max(durations), 1) if durations else None,
        }
        print(f"{'games (6 AI houses each)':<34}{args.games} on {args.workers} Celery worker process(es)")
        print(f"{'finished':<34}{report['finished']} ({', '.join(report['reasons'])})")
        print(f"{'decisions':<34}{decisions} in {wall:.1f} s = {report['decisions_per_s']} /s")
        print(f"{'decision latency p50 / p95':<34}{report['decision_latency_ms_p50']} / "
              f"{report['decision_latency_ms_p95']} ms")  # fmt: skip
        print(
            f"{'full game time median / max':<34}{report['game_time_s_median']} / {report['game_time_s_max']} s"
        )
        print(json.dumps(report))
    finally:
        stack.close()


if __name__ == "__main__":
    main()
