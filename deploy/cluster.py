"""The production topology on one machine: nginx in front of N uvicorn processes, a Celery worker per queue
(`celery` and `ai`), one beat, against DATABASE_URL and REDIS_URL with production settings.

`make cluster` runs it (Ctrl-C stops everything); the cluster test (tests/cluster/) and `bench/cluster.py`
drive it through `Cluster`: start, the proxy's URL, kill or restart a named process, stop. Before anything
starts it migrates the database, loads the data (cards, Westeros, starter decks, demo accounts) and
collects the static files, once. Each run gets a fresh random SECRET_KEY (sessions do not outlive it).

Files: VAR_DIR/cluster/ holds nginx's config, pid and logs and one log per process (`web1.log`, ...).

Processes and their stop signals (docs/deploy.md, "Graceful shutdown"):
- nginx: SIGQUIT, a graceful stop (requests in flight finish; WebSockets are closed when it exits).
- web1..webN (uvicorn): SIGTERM, stop accepting, finish requests in flight, close WebSockets (code
  1012, "service restart": the page reconnects to another process), at most --timeout-graceful-shutdown.
- worker-celery, worker-ai (Celery): SIGTERM, a warm shutdown (running tasks finish, none is started).
- beat (`celery -A config beat`: with REDIS_URL the settings choose RedBeat, config/beat.py, whose Redis lock
  makes a second beat a hot standby): SIGTERM releases the lock.

    python -m deploy.cluster [--web 2] [--port 8080] [--no-prepare]
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = Path(__file__).resolve().parent / "nginx.conf"
PROXY_PARAMS = Path(__file__).resolve().parent / "proxy_params.conf"
MIME_TYPES = Path("/etc/nginx/mime.types")

# Seconds a web process may take to finish its requests once told to stop (uvicorn), and a worker its
# tasks (Celery's warm shutdown), before the launcher kills it.
WEB_GRACE_S = 20
STOP_WAIT_S = 30
# How long the beat's lock in Redis outlives a beat that died without releasing it (REDBEAT_LOCK_TIMEOUT_S,
# config/settings/base.py): a standby or replacement beat takes over within about this. Short here, so that a
# replaced beat resumes quickly; production keeps the settings' default unless its environment says otherwise.
BEAT_LOCK_TIMEOUT_S = "10"
# uvicorn keeps an idle upstream connection longer than nginx does (keepalive_timeout 60s in nginx.conf):
# the side that closes first must be nginx, else a request can be sent on a connection being closed.
WEB_KEEPALIVE_S = 75

PREPARE_COMMANDS = (
    ("manage.py", "migrate", "--noinput"),
    ("manage.py", "load_sample_cards"),
    ("manage.py", "load_westeros"),
    ("manage.py", "starter_decks"),
    ("manage.py", "demo_users"),
    ("manage.py", "collectstatic", "--noinput", "--verbosity", "0"),
)


class ClusterError(RuntimeError):
    """A process of the cluster could not start (the message names it and ends with its log's tail)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def missing_requirements(env: dict[str, str]) -> str | None:
    """One line saying why the cluster cannot start here, or None."""
    missing = [name for name in ("DATABASE_URL", "REDIS_URL") if not env.get(name)]
    if missing:
        return (
            f"make cluster needs {' and '.join(missing)} (PostgreSQL and Redis), e.g. "
            "DATABASE_URL=postgresql://postgres@127.0.0.1:5432/cluster REDIS_URL=redis://127.0.0.1:6379/0"
        )
    if not env["DATABASE_URL"].startswith(("postgres://", "postgresql://")):
        return "make cluster needs PostgreSQL: DATABASE_URL must be a postgresql:// URL"
    if nginx_binary() is None:
        return "make cluster needs nginx: apt-get install -y nginx"
    return None


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
    )


def render_nginx(
    *, prefix: Path, listen: str, upstreams: list[str], static_root: Path, media_root: Path
) -> str:
    """deploy/nginx.conf with its placeholders filled in."""
    servers = "\n".join(f"        server {u} max_fails=1 fail_timeout=5s;" for u in upstreams)
    values = {
        "user_line": "user root;" if os.geteuid() == 0 else "",  # workers must read var/ and write prefix
        "prefix": str(prefix),
        "listen": listen,
        "upstreams": servers,
        "static_root": f"{static_root}/",
        "media_root": f"{media_root}/",
        "mime_types": str(MIME_TYPES),
    }
    text = TEMPLATE.read_text()
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    left = re.findall(r"\{\{\w+\}\}", text)
    if left:
        raise ClusterError(f"deploy/nginx.conf: placeholders left unfilled: {', '.join(sorted(set(left)))}")
    return text


@dataclass
class Proc:
    """One supervised process: its command, log file and how to tell that it is ready."""

    name: str
    cmd: list[str]
    log: Path
    ready: Callable[[Proc], bool]
    stop_signal: int = signal.SIGTERM
    popen: subprocess.Popen[bytes] | None = None
    expected_exit: bool = False
    reported: bool = False
    starts: int = 0
    env: dict[str, str] = field(default_factory=dict)

    @property
    def pid(self) -> int | None:
        return self.popen.pid if self.popen else None

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None


def _log_says(text: str) -> Callable[[Proc], bool]:
    """Ready once the process's log (its own, since its last start) contains `text`."""

    def ready(proc: Proc) -> bool:
        if not proc.log.exists():
            return False
        tail = proc.log.read_text(errors="replace").rsplit("---- cluster:", 1)[-1]
        return text in tail

    return ready


def _web_ready(port: int) -> Callable[[Proc], bool]:
    return lambda _: _http_ok(f"http://127.0.0.1:{port}/healthz")


def _http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            return bool(r.status == 200)
    except (OSError, urllib.error.URLError):
        return False


class Cluster:
    """nginx + `web` uvicorn processes + a `celery` worker + an `ai` worker + one beat.

    `env` must hold DATABASE_URL and REDIS_URL; `extra_env` is added to every process (e.g. short AI
    budgets in tests). `port` is the proxy's (0: a free one). Use as a context manager, or start()/stop().
    """

    def __init__(
        self,
        env: dict[str, str] | None = None,
        *,
        web: int = 2,
        port: int = 0,
        var_dir: Path | None = None,
        extra_env: dict[str, str] | None = None,
        worker_concurrency: int = 2,
        prepare: bool = True,
        echo: Callable[[str], None] | None = None,
    ) -> None:
        base = dict(os.environ if env is None else env)
        problem = missing_requirements(base)
        if problem:
            raise ClusterError(problem)
        self.var_dir = Path(var_dir or base.get("VAR_DIR") or ROOT / "var").resolve()
        self.dir = self.var_dir / "cluster"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.web_ports = [free_port() for _ in range(web)]
        self.worker_concurrency = worker_concurrency
        self.prepare_first = prepare
        self.echo = echo or (lambda line: print(line, flush=True))
        self.env = {k: v for k, v in base.items() if k not in {"CELERY_TASK_ALWAYS_EAGER", "DEBUG"}}
        self.env.update(
            DJANGO_SETTINGS_MODULE="config.settings.prod",
            SECRET_KEY=secrets.token_urlsafe(50),
            VAR_DIR=str(self.var_dir),
            TRUSTED_PROXIES="1",  # nginx appends the client's address to X-Forwarded-For
            ALLOWED_HOSTS=base.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]"),
            PYTHONUNBUFFERED="1",
            PYTHONFAULTHANDLER="1",
            REDBEAT_LOCK_TIMEOUT_S=base.get("REDBEAT_LOCK_TIMEOUT_S", BEAT_LOCK_TIMEOUT_S),
            **(extra_env or {}),
        )
        self.procs: dict[str, Proc] = {}
        for i, web_port in enumerate(self.web_ports, start=1):
            self._define(f"web{i}", self._web_cmd(web_port), ready=_web_ready(web_port))
        for queue in ("celery", "ai"):
            self._define(f"worker-{queue}", self._worker_cmd(queue), ready=_log_says("ready."))
        self._define("beat", self._beat_cmd(), ready=_log_says("beat: Starting"))
        self._define("nginx", self._nginx_cmd(), ready=lambda _: _http_ok(f"{self.url}/healthz"))
        self.procs["nginx"].stop_signal = signal.SIGQUIT

    # ---- commands ------------------------------------------------------------------------------------
    def _web_cmd(self, port: int) -> list[str]:
        # --no-proxy-headers: the client's address is worked out once, by Django (TRUSTED_PROXIES=1,
        # config/client_address.py), not a second time by uvicorn. nginx logs every request.
        return [
            sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
            "--port", str(port), "--no-access-log", "--no-proxy-headers",
            "--timeout-graceful-shutdown", str(WEB_GRACE_S), "--timeout-keep-alive", str(WEB_KEEPALIVE_S),
        ]  # fmt: skip

    def _worker_cmd(self, queue: str, node: str | None = None) -> list[str]:
        return [
            sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue,
            "-n", f"{node or queue}@%h", "--concurrency", str(self.worker_concurrency), "--loglevel", "INFO",
        ]  # fmt: skip

    def _beat_cmd(self, name: str = "beat") -> list[str]:
        # With REDIS_URL the settings choose the scheduler: RedBeat under its lock (config/beat.py), so a
        # second beat is a standby, never a second schedule.
        return [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel", "INFO"]

    def _nginx_cmd(self) -> list[str]:
        conf = self.dir / "nginx.conf"
        return [nginx_binary() or "nginx", "-p", str(self.dir), "-c", str(conf), "-e", str(self.dir / "error.log"),
                "-g", "daemon off;"]  # fmt: skip

    def _define(self, name: str, cmd: list[str], ready: Callable[[Proc], bool]) -> Proc:
        proc = Proc(name=name, cmd=cmd, log=self.dir / f"{name}.log", ready=ready)
        self.procs[name] = proc
        return proc

    # ---- life cycle ----------------------------------------------------------------------------------
    def prepare(self) -> None:
        """Migrations, data and static files, once, before any process starts."""
        for args in PREPARE_COMMANDS:
            done = subprocess.run(
                [sys.executable, *args], cwd=ROOT, env=self.env, capture_output=True, text=True
            )
            if done.returncode != 0:
                raise ClusterError(f"`{' '.join(args)}` failed:\n{(done.stdout + done.stderr)[-3000:]}")
            if args[1] == "demo_users":
                self.echo(done.stdout.strip())

    def write_nginx_config(self) -> Path:
        for sub in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.dir / sub).mkdir(exist_ok=True)
        shutil.copyfile(PROXY_PARAMS, self.dir / "proxy_params.conf")
        conf = self.dir / "nginx.conf"
        conf.write_text(
            render_nginx(
                prefix=self.dir,
                listen=f"127.0.0.1:{self.port}",
                upstreams=[f"127.0.0.1:{p}" for p in self.web_ports],
                static_root=self.var_dir / "static",
                media_root=self.var_dir / "media",
            )
        )
        return conf

    def start(self) -> Cluster:
        if self.prepare_first:
            self.prepare()
        self.write_nginx_config()
        try:
            for name in self.procs:  # all at once; the proxy's URL answers once every process is ready
                self.start_process(name, wait=False)
            for name in self.procs:
                self.wait_ready(name, timeout=120)
        except BaseException:
            self.stop()
            raise
        return self

    def start_process(self, name: str, *, wait: bool = True, timeout: float = 60) -> Proc:
        """Start (or start again) the process `name`; with `wait`, until it is ready."""
        proc = self.procs[name]
        if proc.alive():
            raise ClusterError(f"{name} is already running (pid {proc.pid})")
        proc.starts += 1
        proc.expected_exit = proc.reported = False
        mode = "a" if proc.starts > 1 else "w"
        with proc.log.open(mode) as log:
            if proc.starts > 1:
                log.write(f"\n---- cluster: {name} started again ----\n")
                log.flush()
            proc.popen = subprocess.Popen(
                proc.cmd, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        if wait:
            self.wait_ready(name, timeout=timeout)
        return proc

    def add_process(self, name: str, like: str) -> Proc:
        """A further process of the same kind as `like` ("beat", "worker-ai", ...) under a new name: a
        standby beat, a replacement worker with a node name of its own. Not started yet."""
        model = self.procs[like]
        cmd = list(model.cmd)
        if like.startswith("worker-"):
            cmd = self._worker_cmd(like.removeprefix("worker-"), node=name)
        elif like == "beat":
            cmd = self._beat_cmd(name)
        proc = self._define(name, cmd, ready=model.ready)
        proc.stop_signal = model.stop_signal
        return proc

    def wait_ready(self, name: str, timeout: float = 60) -> None:
        proc = self.procs[name]
        deadline = time.monotonic() + timeout
        while not proc.ready(proc):
            if not proc.alive():
                raise ClusterError(f"{name} exited while starting:\n{self.log_tail(name)}")
            if time.monotonic() > deadline:
                raise ClusterError(f"{name} was not ready after {timeout:.0f} s:\n{self.log_tail(name)}")
            time.sleep(0.1)

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        """Send `sig` to the process group of `name` (SIGKILL: no shutdown at all) and wait for it."""
        proc = self.procs[name]
        if not proc.alive():
            return
        assert proc.popen is not None
        proc.expected_exit = True
        os.killpg(proc.popen.pid, sig)
        try:
            proc.popen.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            os.killpg(proc.popen.pid, signal.SIGKILL)
            proc.popen.wait(10)

    def stop_process(self, name: str) -> None:
        """Its own graceful stop (see the module docstring), then SIGKILL after STOP_WAIT_S."""
        self.kill(name, self.procs[name].stop_signal)

    def restart(self, name: str) -> Proc:
        self.stop_process(name)
        return self.start_process(name)

    def stop(self) -> None:
        """Proxy first (no new requests), then web processes (draining), beat, workers (warm shutdown)."""
        order = ["nginx"] + [n for n in self.procs if n.startswith("web")]
        order += [n for n in self.procs if n not in order]
        for name in order:
            proc = self.procs[name]
            if proc.alive() and proc.popen is not None:
                proc.expected_exit = True
                os.killpg(proc.popen.pid, proc.stop_signal)
                if name == "nginx":
                    self._wait(proc)  # the proxy gone before the processes behind it
        for name in order:
            self._wait(self.procs[name])

    def _wait(self, proc: Proc) -> None:
        if proc.popen is None:
            return
        try:
            proc.popen.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            self.echo(f"cluster: {proc.name} did not stop within {STOP_WAIT_S} s; killing it")
            os.killpg(proc.popen.pid, signal.SIGKILL)
            proc.popen.wait(10)

    def deaths(self) -> list[str]:
        """One line per process that exited on its own since the last call (each reported once)."""
        from config.procfile import describe_exit

        lines = []
        for proc in self.procs.values():
            if proc.popen is None or proc.alive() or proc.expected_exit or proc.reported:
                continue
            proc.reported = True
            code = proc.popen.returncode
            # The same words as `make run`'s, but the others keep running: a cluster outlives one process.
            what = describe_exit(proc.name, code, False).removesuffix("; stopping the others")
            lines.append(f"cluster: {what}; the others keep running (log: {proc.log})")
        return lines

    def log_tail(self, name: str, chars: int = 3000) -> str:
        log = self.procs[name].log
        return log.read_text(errors="replace")[-chars:] if log.exists() else "(no log)"

    def pids(self) -> dict[str, int]:
        return {n: p.popen.pid for n, p in self.procs.items() if p.popen is not None and p.alive()}

    def __enter__(self) -> Cluster:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


class RedisServer:
    """A private redis-server on a port of its own (the cluster test stops and starts it; the benchmark
    measures against an empty one). No persistence: a restart comes back empty, the harder case."""

    def __init__(self, directory: Path, port: int = 0) -> None:
        self.dir = directory
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.popen: subprocess.Popen[bytes] | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self, timeout: float = 10) -> RedisServer:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        log = (self.dir / "redis.log").open("a")
        self.popen = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--maxmemory-policy", "noeviction", "--dir", str(self.dir)],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + timeout
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return self
            except OSError:
                if self.popen.poll() is not None or time.monotonic() > deadline:
                    raise ClusterError(f"redis-server did not start on port {self.port}") from None
                time.sleep(0.05)

    def stop(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.terminate()
            self.popen.wait(10)


def fresh_database(server_url: str, name: str) -> str:
    """Create (drop first) the PostgreSQL database `name` on the server of `server_url`; its URL."""
    import urllib.parse

    import psycopg

    url = urllib.parse.urlsplit(server_url)
    admin = url._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return url._replace(path=f"/{name}").geturl()


def drop_database(url: str) -> None:
    import urllib.parse

    import psycopg

    parts = urllib.parse.urlsplit(url)
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}" WITH (FORCE)')


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description="nginx + uvicorn x N + Celery workers by queue + beat, on one machine"
    )
    ap.add_argument("--web", type=int, default=2, help="uvicorn processes behind the proxy")
    ap.add_argument(
        "--port", type=int, default=int(os.environ.get("CLUSTER_PORT", "8080")), help="the proxy's port"
    )
    ap.add_argument("--no-prepare", action="store_true", help="skip migrations, data and collectstatic")
    args = ap.parse_args(argv)
    problem = missing_requirements(dict(os.environ))
    if problem:
        print(problem, file=sys.stderr)
        return 2
    cluster = Cluster(web=args.web, port=args.port, prepare=not args.no_prepare)
    stopping = False

    def on_signal(signum: int, _: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    cluster.echo(f"cluster: preparing the database and static files, then starting (logs in {cluster.dir})")
    try:
        cluster.start()
    except ClusterError as exc:
        print(f"cluster: {exc}", file=sys.stderr)
        return 1
    for name, pid in cluster.pids().items():
        cluster.echo(f"cluster: {name:<14} pid {pid:<8} log {cluster.procs[name].log}")
    cluster.echo(f"cluster: ready on {cluster.url}/ — Ctrl-C stops everything")
    try:
        while not stopping:
            for line in cluster.deaths():
                cluster.echo(line)
            if not any(p.alive() for p in cluster.procs.values()):
                cluster.echo("cluster: every process has exited")
                return 1
            time.sleep(0.5)
    finally:
        cluster.echo("cluster: stopping (proxy, web processes, beat, workers)")
        cluster.stop()
        cluster.echo("cluster: stopped")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
