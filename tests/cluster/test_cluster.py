"""The production topology, end to end (deploy/cluster.py, docs/deploy.md): nginx in front of two uvicorn
processes, a Celery worker per queue, one beat, PostgreSQL (a fresh database) and a private redis-server
this test stops and starts. The tests share one cluster and run in file order:

(b) two players on different web processes (each player's API on one, their socket on the other) never see a
    mixed or stale snapshot over 300+ moves, and no move is refused as stale when it was not;
(c) the `ai` worker killed (SIGKILL) in the middle of an AI match: a replacement starts, the match finishes;
(d) the beat killed while a timed match's deadline falls, and the worker holding its timer killed too: the
    replacement beats (two at once: an active one and a standby) apply the deadline exactly once;
(a) a WebSocket opened through the proxy at the start and left idle for 60 s is still open, and still
    receives the next update;
(e) Redis stopped for a few seconds: API posts answer 503 with Retry-After (never 500), and everything
    recovers once Redis is back.

Fails (never skips) under CI when nginx, redis-server or PostgreSQL is missing.
"""

from __future__ import annotations

import contextlib
import http.client
import http.cookiejar
import json
import os
import queue
import random
import re
import shutil
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.online_play import Client
from tests.services import unavailable

pytestmark = [pytest.mark.cluster, pytest.mark.timeout(600)]

PG_URL = os.environ.get("CLUSTER_TEST_PG_URL") or os.environ.get(
    "DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)
IDLE_S = 60
MOVES = 400  # half of them after a fresh read, half back to back
PASSWORD = "cluster-test-pw-7781"
_targets = iter(range(10**6, 2 * 10**6))


def counting() -> dict[str, Any]:
    """The counting test game (its moves cost no engine time), never ending within a test. A target of its
    own each time: the same settings again within a minute would return the same match (a double submit)."""
    return {"kind": "counting", "rules_config": {"target": next(_targets)}}


# ---- clients ------------------------------------------------------------------------------------------
class Player:
    """A user with an API token and a session cookie (the WebSocket authenticates by session)."""

    def __init__(self, base: str, name: str) -> None:
        status, body, _ = Client(base).call(
            "POST", "/api/auth/signup/", {"username": name, "password": PASSWORD}
        )
        assert status == 201, body
        self.name, self.token = name, body["token"]
        self.cookie = session_cookie(base, name, PASSWORD)

    def api(self, base: str) -> Client:
        return Client(base, self.token)


def session_cookie(base: str, username: str, password: str) -> str:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(f"{base}/accounts/login/", timeout=10).read().decode()
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert found, "no CSRF token on the login page"
    form = {"username": username, "password": password, "csrfmiddlewaretoken": found.group(1)}
    opener.open(f"{base}/accounts/login/", data=urllib.parse.urlencode(form).encode(), timeout=10)
    cookies = {c.name: c.value for c in jar}
    assert "sessionid" in cookies, "login failed"
    return "; ".join(f"{k}={v}" for k, v in cookies.items())


class Socket:
    """A match's WebSocket read by a thread: every message with its arrival time, and how it closed."""

    def __init__(self, base: str, match_id: int, cookie: str) -> None:
        from websockets.sync.client import connect

        url = base.replace("http://", "ws://") + f"/ws/matches/{match_id}/"
        self._exit = contextlib.ExitStack()
        self.ws = self._exit.enter_context(
            connect(url, additional_headers={"Cookie": cookie}, origin=base, open_timeout=10)  # type: ignore[arg-type]
        )
        self.messages: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
        self.seen: list[tuple[float, dict[str, Any]]] = []
        self.closed: tuple[float, Any] | None = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            for raw in self.ws:
                item = (time.monotonic(), json.loads(raw))
                self.messages.put(item)
                self.seen.append(item)
        except ConnectionClosed as exc:
            self.closed = (time.monotonic(), exc.rcvd.code if exc.rcvd else None)
        else:
            self.closed = (time.monotonic(), self.ws.close_code)

    def states(self) -> list[dict[str, Any]]:
        return [m["match"] for _, m in self.seen if m.get("type") == "state"]

    def wait_version(self, version: int, timeout: float = 10) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                _, msg = self.messages.get(timeout=0.2)
            except queue.Empty:
                continue
            if msg.get("type") == "state" and msg["match"]["state_version"] >= version:
                return msg["match"]
        raise AssertionError(f"no state of version >= {version} within {timeout} s (closed: {self.closed})")

    def close(self) -> None:
        self._exit.close()


def post_raw(base: str, path: str, body: Any, token: str | None = None) -> tuple[int, dict[str, str], Any]:
    """One POST on a fresh connection: status, headers, JSON body (None when it is not JSON)."""
    u = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(u.hostname or "127.0.0.1", u.port or 80, timeout=15)
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    try:
        conn.request("POST", path, body=json.dumps(body), headers=headers)
        resp = conn.getresponse()
        raw = resp.read()
        try:
            data = json.loads(raw) if raw else None
        except ValueError:
            data = None
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data
    finally:
        conn.close()


def get_status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
    except OSError:
        return 0


def new_counting_match(a: Client, b: Client, **extra: Any) -> dict[str, Any]:
    """A started match of the counting test game (cheap: the engine costs nothing) between two people."""
    status, m, _ = a.call("POST", "/api/matches/", {**counting(), "auto_start": False, **extra})
    assert status == 201, m
    status, body, _ = b.call("POST", f"/api/matches/{m['id']}/join/", {})
    assert status == 200, body
    status, state, _ = a.call("POST", f"/api/matches/{m['id']}/start/")
    assert status == 200, state
    return state


def move(c: Client, match_id: int, state: dict[str, Any], rng: random.Random) -> tuple[int, Any]:
    action = rng.choice(state["legal_actions"])["action"]
    body = {"action": action, "state_version": state["state_version"], "idempotency_key": uuid.uuid4().hex}
    status, res, _ = c.call("POST", f"/api/matches/{match_id}/actions/", body)
    return status, res


# ---- the cluster --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    from deploy.cluster import Cluster, ClusterError, RedisServer, drop_database, fresh_database, nginx_binary

    if nginx_binary() is None:
        unavailable("nginx is not installed (apt-get install -y nginx)")
    if shutil.which("redis-server") is None and not Path("/usr/bin/redis-server").exists():
        unavailable("redis-server is not installed (apt-get install -y redis-server)")
    if not PG_URL.startswith(("postgres://", "postgresql://")):
        unavailable("needs PostgreSQL: set DATABASE_URL=postgresql://...")
    tmp = tmp_path_factory.mktemp("cluster")
    try:
        db_url = fresh_database(PG_URL, f"cluster_{uuid.uuid4().hex[:8]}")
    except Exception as exc:
        unavailable(f"PostgreSQL is unreachable at {PG_URL}: {exc}")
    redis = RedisServer(tmp / "redis").start()
    env = {k: v for k, v in os.environ.items() if not k.endswith("REDIS_URL")}
    env.update(DATABASE_URL=db_url, REDIS_URL=redis.url(0))
    cluster = Cluster(
        env,
        var_dir=tmp / "var",
        extra_env={
            "MATCHES_EXTRA_GAMES": "matches.tests.fakegame",  # the counting game: moves cost no engine time
            "AI_BUDGET_SCALE": os.environ.get("AI_BUDGET_SCALE", "0.05"),
            "SIGNUP_RATE": "1000/hour",  # every test user signs up from 127.0.0.1
            "MATCHES_CREATE_RATE": "1000/min",
            "LOG_LEVEL": "INFO",
        },
        echo=lambda line: None,
    )
    try:
        cluster.start()
    except ClusterError:
        redis.stop()
        drop_database(db_url)
        raise
    base = cluster.url
    web = [f"http://127.0.0.1:{p}" for p in cluster.web_ports]
    run = uuid.uuid4().hex[:5]
    alice, bob, carol, dave, erin = (
        Player(base, f"{n}-{run}") for n in ("alice", "bob", "carol", "dave", "erin")
    )
    # (a)'s socket, opened now through the proxy and then left alone while (b)-(d) run.
    idle = new_counting_match(alice.api(base), bob.api(base))
    idle_socket = Socket(base, idle["id"], alice.cookie)
    first = idle_socket.wait_version(idle["state_version"])
    stack = {
        "cluster": cluster, "redis": redis, "db_url": db_url, "base": base, "web": web,
        "alice": alice, "bob": bob, "carol": carol, "readers": (dave, erin),
        "idle": {"match": idle, "socket": idle_socket, "since": time.monotonic(), "version": first["state_version"]},
    }  # fmt: skip
    try:
        yield stack
    finally:
        idle_socket.close()
        cluster.stop()
        redis.stop()
        drop_database(db_url)


def _check_snapshot(snap: dict[str, Any], truth: dict[int, int], where: str) -> None:
    """A snapshot's state is the state its version names: the total and whose turn it is."""
    version = snap["state_version"]
    assert version in truth, f"{where}: version {version} was never acknowledged"
    assert snap["view"]["total"] == truth[version], (
        f"{where}: mixed snapshot: version {version} with total {snap['view']['total']}, "
        f"but version {version} has total {truth[version]}"
    )
    if snap["status"] == "active":
        assert snap["current_players"] == [snap["view"]["turn"]], f"{where}: turn and current players differ"


def test_b_players_on_different_processes_never_see_a_mixed_or_stale_snapshot(stack: dict[str, Any]) -> None:
    web1, web2 = stack["web"]
    alice, bob = stack["alice"], stack["bob"]
    # Each player's API calls go to one process and their socket to the other one.
    clients = {0: alice.api(web1), 1: bob.api(web2)}
    state = new_counting_match(clients[0], clients[1])
    mid = state["id"]
    sockets = {0: Socket(web2, mid, alice.cookie), 1: Socket(web1, mid, bob.cookie)}
    truth = {state["state_version"]: state["view"]["total"]}
    # Two more viewers read the match as fast as their throttle allows, one on each process, while the
    # players move: a read that takes the version and the state from two moments shows up as a mixed pair.
    done, read = threading.Event(), []

    def reader(client: Client, where: str) -> None:
        while not done.is_set():
            status, snap, _ = client.call("GET", f"/api/matches/{mid}/state/")
            if status == 200:
                read.append((where, snap))
            time.sleep(0.03)  # below the 2000/min throttle of a user

    readers = [
        threading.Thread(target=reader, args=(viewer.api(url), f"reader on {url}"), daemon=True)
        for viewer, url in zip(stack["readers"], (web1, web2), strict=True)
    ]
    for t in readers:
        t.start()
    rng = random.Random(7)
    false_409, moves, reads = [], 0, 0
    views = {0: state, 1: None}
    acked, next_mover = state["state_version"], state["current_players"][0]
    while moves < MOVES:
        if moves >= MOVES // 2:
            # The second half back to back: each player moves on the version the other's answer named,
            # without reading first, so commits follow each other as closely as an AI's run of moves
            # and the readers' and sockets' reads fall between them.
            body = {"action": {"type": "add", "n": rng.choice((1, 2))}, "state_version": acked,
                    "idempotency_key": uuid.uuid4().hex}  # fmt: skip
            status, res, _ = clients[next_mover].call("POST", f"/api/matches/{mid}/actions/", body)
            if status == 409:
                false_409.append((moves, res))
                snap = clients[0].call("GET", f"/api/matches/{mid}/state/")[1]
                acked, next_mover = snap["state_version"], snap["current_players"][0]
                continue
            assert status == 200, res
            after = res["state"]
            truth[after["state_version"]] = after["view"]["total"]
            acked, next_mover = after["state_version"], after["current_players"][0]
            moves += 1
            continue
        for p in (0, 1):  # whoever's view is not the latest reads it again, from its own process
            if views[p] is None or views[p]["state_version"] < acked:
                status, snap, _ = clients[p].call("GET", f"/api/matches/{mid}/state/")
                assert status == 200, snap
                reads += 1
                assert snap["state_version"] >= acked, (
                    f"stale read: player {p} got version {snap['state_version']} after {acked} was acknowledged"
                )
                _check_snapshot(snap, truth, f"GET by player {p}")
                views[p] = snap
        who = views[0]["current_players"][0]
        status, res = move(clients[who], mid, views[who], rng)
        if status == 409:
            false_409.append((moves, res))
            views[who] = None
            continue
        assert status == 200, res
        after = res["state"]
        truth[after["state_version"]] = after["view"]["total"]
        acked = after["state_version"]
        views[who] = after
        next_mover = after["current_players"][0]
        moves += 1
    for p in (0, 1):  # after the last move, each player's own process shows it
        snap = clients[p].call("GET", f"/api/matches/{mid}/state/")[1]
        assert snap["state_version"] == acked, f"stale read by player {p}: {snap['state_version']} < {acked}"
        _check_snapshot(snap, truth, f"last GET by player {p}")
    done.set()
    for t in readers:
        t.join(10)
    for where, snap in read:
        _check_snapshot(snap, truth, where)
    # The readers read as fast as their process answers while the moves go on: how many they make depends on
    # the machine's load (309 for 400 moves on a busy CI machine), so this only checks that they took part.
    assert len(read) >= MOVES // 4, f"only {len(read)} concurrent reads"
    for p, sock in sockets.items():
        sock.wait_version(acked, timeout=15)
        states = sock.states()
        versions = [s["state_version"] for s in states]
        assert versions == sorted(versions), f"player {p}'s socket went back in time: {versions}"
        for s in states:
            _check_snapshot(s, truth, f"socket of player {p}")
        sock.close()
    assert not false_409, (
        f"{len(false_409)} moves refused as stale although made on a fresh read: {false_409[:3]}"
    )
    assert moves >= MOVES and reads >= MOVES // 2


def _play_human_turns(c: Client, mid: int, seat: int, rng: random.Random, until: float) -> dict[str, Any]:
    """Play seat `seat`'s turns with random legal actions until the match ends or `until`."""
    while time.monotonic() < until:
        status, snap, _ = c.call("GET", f"/api/matches/{mid}/state/")
        assert status == 200, snap
        if snap["status"] != "active":
            return snap
        if seat in snap["current_players"] and snap["legal_actions"]:
            status, res = move(c, mid, snap, rng)
            assert status in (200, 409), res
        else:
            time.sleep(0.2)
    return snap


def test_c_a_killed_ai_worker_s_match_finishes(stack: dict[str, Any]) -> None:
    cluster, base = stack["cluster"], stack["base"]
    carol = stack["carol"].api(base)
    starter = _starter_deck_id(stack["db_url"])
    status, m, _ = carol.call(
        "POST",
        "/api/matches/",
        {"kind": "commandeer", "starter_deck_id": starter, "vs_ai": True, "ai_agent": "hard",
         "rules_config": {"turn_limit": 4}},
    )  # fmt: skip
    assert status == 201, m
    mid, rng = m["id"], random.Random(3)
    # Play until the AI seat must act right after one of carol's moves, then kill its worker at once.
    killed_at = None
    deadline = time.monotonic() + 60
    while killed_at is None and time.monotonic() < deadline:
        status, snap, _ = carol.call("GET", f"/api/matches/{mid}/state/")
        assert snap["status"] == "active", "the match ended before the AI's worker could be killed"
        if 0 in snap["current_players"] and snap["legal_actions"]:
            status, res = move(carol, mid, snap, rng)
            if status == 200 and res["state"]["current_players"] and 0 not in res["state"]["current_players"]:
                cluster.kill("worker-ai")  # SIGKILL: its task is neither finished nor acknowledged
                killed_at = res["state"]["state_version"]
        else:
            time.sleep(0.1)
    assert killed_at is not None, "the AI never had to act after a move of carol's"
    cluster.add_process("worker-ai-2", like="worker-ai")
    cluster.start_process("worker-ai-2")
    final = _play_human_turns(carol, mid, 0, rng, until=time.monotonic() + 150)
    assert final["status"] == "finished", (
        f"the match did not finish after its AI worker was killed: {final['status']}"
    )
    status, log, _ = carol.call("GET", f"/api/matches/{mid}/log/?since={killed_at}")
    assert any(e["source"] == "ai" for e in log["entries"]), "the AI never moved again after its worker died"


def _starter_deck_id(db_url: str) -> int:
    import psycopg

    with psycopg.connect(db_url) as conn:
        row = conn.execute(
            "SELECT d.id FROM decks_deck d JOIN auth_user u ON u.id = d.owner_id "
            "WHERE u.username = 'starter' ORDER BY d.id LIMIT 1"
        ).fetchone()
    assert row, "no starter deck: the cluster's data was not loaded"
    return int(row[0])


def test_d_a_killed_beat_s_replacement_applies_a_deadline_exactly_once(stack: dict[str, Any]) -> None:
    cluster, base = stack["cluster"], stack["base"]
    a, b = stack["alice"].api(base), stack["bob"].api(base)
    cluster.kill("beat")  # SIGKILL: with celery-redbeat its lock stays held until it expires
    state = new_counting_match(a, b, time_control={"per_move_s": 5, "bank_s": 0})
    mid, rng = state["id"], random.Random(5)
    clients = {0: a, 1: b}
    for _ in range(2):  # both seats move once (a seat that never moved is aborted, not timed out)
        who = state["current_players"][0]
        status, snap, _ = clients[who].call("GET", f"/api/matches/{mid}/state/")
        status, res = move(clients[who], mid, snap, rng)
        assert status == 200, res
        state = res["state"]
    late_seat, version = state["current_players"][0], state["state_version"]
    # The deadline timer (an eta task) is held by the `celery` worker: kill it too, so only a sweep of
    # the beat can find the deadline (the timer comes back only after the broker's visibility timeout).
    cluster.kill("worker-celery")
    cluster.add_process("worker-celery-2", like="worker-celery")
    cluster.start_process("worker-celery-2")
    time.sleep(7)  # the deadline (5 s per move) passes while no beat runs
    cluster.add_process("beat-standby", like="beat")
    cluster.start_process("beat", wait=False)
    cluster.start_process("beat-standby", wait=False)
    end = time.monotonic() + 90  # a standby redbeat waits for the killed one's lock to expire first
    while time.monotonic() < end:
        status, snap, _ = a.call("GET", f"/api/matches/{mid}/state/")
        if snap["state_version"] > version:
            break
        time.sleep(0.3)
    else:
        raise AssertionError(
            f"the deadline was never applied after the beat came back:\n{cluster.log_tail('beat')}"
        )
    time.sleep(3)  # both beats' sweeps and any late timer run again meanwhile (the next deadline is 5 s away)
    status, log, _ = a.call("GET", f"/api/matches/{mid}/log/")
    timeouts = [e for e in log["entries"] if e["source"] == "timeout"]
    assert len(timeouts) == 1, f"expected exactly one timeout action, got {timeouts}"
    assert timeouts[0]["seat"] == late_seat and timeouts[0]["version"] == version + 1
    assert a.call("POST", f"/api/matches/{mid}/concede/")[0] == 200  # no further deadline in this match


def test_a_a_socket_idle_for_60_s_through_the_proxy_stays_open(stack: dict[str, Any]) -> None:
    idle = stack["idle"]
    sock: Socket = idle["socket"]
    rest = IDLE_S - (time.monotonic() - idle["since"])
    if rest > 0:
        time.sleep(rest)
    if sock.closed is not None:
        logs = "".join(stack["cluster"].log_tail(n, 100_000) for n in ("web1", "web2"))
        errors = sorted({line for line in logs.splitlines() if "Error" in line and not line.startswith(" ")})
        raise AssertionError(
            f"the idle socket was closed after {sock.closed[0] - idle['since']:.1f} s (code {sock.closed[1]}); "
            f"errors in the web processes' logs: {errors[-3:]}"
        )
    mid = idle["match"]["id"]
    clients = {0: stack["alice"].api(stack["base"]), 1: stack["bob"].api(stack["base"])}
    status, snap, _ = clients[0].call("GET", f"/api/matches/{mid}/state/")
    who = snap["current_players"][0]
    if who != 0:
        status, snap, _ = clients[who].call("GET", f"/api/matches/{mid}/state/")
    status, res = move(clients[who], mid, snap, random.Random(1))
    assert status == 200, res
    got = sock.wait_version(res["state"]["state_version"], timeout=10)
    assert got["state_version"] == res["state"]["state_version"]
    assert time.monotonic() - idle["since"] >= IDLE_S


def test_e_redis_down_gives_503_not_500_and_recovers(stack: dict[str, Any]) -> None:
    base, redis, alice = stack["base"], stack["redis"], stack["alice"]
    status, m, _ = alice.api(base).call("POST", "/api/matches/", counting())
    assert status == 201, m
    redis.stop()
    answers: list[tuple[str, int, dict[str, str], Any]] = []
    end = time.monotonic() + 4
    while time.monotonic() < end:
        for name, path, body, token in (
            ("token", "/api/auth/token/", {"username": alice.name, "password": PASSWORD}, None),
            ("create", "/api/matches/", counting(), alice.token),
            ("chat", f"/api/matches/{m['id']}/chat/", {"body": "hello"}, alice.token),
        ):
            status, headers, data = post_raw(base, path, body, token)
            answers.append((name, status, headers, data))
        time.sleep(0.2)
    ready_while_down = get_status(f"{base}/readyz")
    redis.start()
    statuses = sorted({(n, s) for n, s, _, _ in answers})
    assert ready_while_down == 503, ready_while_down
    assert not [a for a in answers if a[1] >= 500 and a[1] != 503], (
        f"server errors while Redis was down: {statuses}"
    )
    unavailable_answers = [a for a in answers if a[1] == 503]
    assert unavailable_answers, f"no API post answered 503 while Redis was down: {statuses}"
    for name, _, headers, data in unavailable_answers:
        assert "retry-after" in headers, f"{name}: 503 without Retry-After"
        assert isinstance(data, dict) and {"code", "message", "extra"} <= data.keys(), f"{name}: {data}"
    # Recovery, with nothing restarted: readiness, a login, a new match, a socket and its updates.
    end = time.monotonic() + 30
    while get_status(f"{base}/readyz") != 200:
        assert time.monotonic() < end, "not ready again 30 s after Redis came back"
        time.sleep(0.5)
    status, _, data = post_raw(base, "/api/auth/token/", {"username": alice.name, "password": PASSWORD})
    assert status == 200, (status, data)
    a, b = alice.api(base), stack["bob"].api(base)
    state = new_counting_match(a, b)
    sock = Socket(base, state["id"], alice.cookie)
    sock.wait_version(state["state_version"])
    who = state["current_players"][0]
    snap = (a if who == 0 else b).call("GET", f"/api/matches/{state['id']}/state/")[1]
    status, res = move(a if who == 0 else b, state["id"], snap, random.Random(2))
    assert status == 200, res
    sock.wait_version(res["state"]["state_version"])
    sock.close()
