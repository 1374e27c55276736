"""Safe defaults, so a production deploy is safe with no extra step: production entry points, the refusal
without SECRET_KEY, `check --deploy` with the production environment of docs/operations.md, brute-force
lockout keyed by username and the real client address, sign-up throttling, API tokens that expire and can
be revoked, 401 for missing credentials, the Content-Security-Policy, the error pages and SQLite writes
that wait instead of failing."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

ROOT = Path(__file__).resolve().parent.parent
ENTRY_POINTS = ["config/asgi.py", "config/wsgi.py", "config/celery.py", "manage.py"]
User = get_user_model()


def clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """A process environment with none of the caller's Django settings: only what a fresh shell has."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "VAR_DIR": str(tmp_path / "var"),
    }
    env.update(extra)
    return env


def production_env_from_operations_doc() -> dict[str, str]:
    """The `NAME=value` lines of docs/operations.md's production block (after `<!-- production-env -->`)."""
    text = (ROOT / "docs" / "operations.md").read_text()
    block = text.split("<!-- production-env -->", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    found = dict(line.split("=", 1) for line in block.strip().splitlines() if re.match(r"^[A-Z_]+=", line))
    assert {"SECRET_KEY", "SECURE_HSTS_SECONDS", "SECURE_SSL_REDIRECT", "TRUSTED_PROXIES"} <= found.keys()
    return found


# ---- safe by default ------------------------------------------------------------------------------------
@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_every_entry_point_defaults_to_the_production_settings(entry: str) -> None:
    text = (ROOT / entry).read_text()
    assert 'setdefault("DJANGO_SETTINGS_MODULE", "config.settings.prod")' in text
    assert "config.settings.dev" not in text


def test_production_settings_keep_debug_off_even_when_the_environment_asks(tmp_path: Path) -> None:
    code = "import django; from django.conf import settings; django.setup(); print(settings.DEBUG)"
    env = clean_env(
        tmp_path, SECRET_KEY="x", SINGLE_PROCESS="1", DEBUG="1", DJANGO_SETTINGS_MODULE="config.settings.prod"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_without_secret_key_production_refuses_to_start_with_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=clean_env(tmp_path),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "SECRET_KEY is not set" in lines[0], done.stderr


def test_check_deploy_is_clean_with_the_documented_production_environment(tmp_path: Path) -> None:
    env = clean_env(tmp_path, **production_env_from_operations_doc())
    env["SECRET_KEY"] = "k" + os.urandom(40).hex()  # docs/operations.md shows how; any long random key
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "WARNING" not in output and "System check identified no issues" in output


def test_production_environment_turns_on_https_and_trusted_proxies(tmp_path: Path) -> None:
    code = (
        "import django, json; from django.conf import settings; django.setup(); print(json.dumps(["
        "settings.SECURE_SSL_REDIRECT, settings.SECURE_HSTS_SECONDS, settings.SECURE_HSTS_INCLUDE_SUBDOMAINS,"
        "settings.SECURE_HSTS_PRELOAD, list(settings.SECURE_PROXY_SSL_HEADER), settings.SESSION_COOKIE_SECURE,"
        "settings.CSRF_COOKIE_SECURE, settings.TRUSTED_PROXIES]))"
    )
    env = clean_env(tmp_path, **production_env_from_operations_doc())
    env["SECRET_KEY"] = "x"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings.prod"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout.strip()
        == '[true, 31536000, true, true, ["HTTP_X_FORWARDED_PROTO", "https"], true, true, 1]'
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_asgi_with_only_a_secret_key_answers_404_without_a_debug_page(tmp_path: Path) -> None:
    """docs/operations.md's production command with only SECRET_KEY=x: a branded 404, no settings dump."""
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--port", str(port), "config.asgi:application"],
        cwd=ROOT,
        env=clean_env(tmp_path, SECRET_KEY="x", SINGLE_PROCESS="1"),  # without REDIS_URL: one process alone
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/no-such-page/", timeout=5)
                raise AssertionError("a page that does not exist answered 200")
            except urllib.error.HTTPError as error:
                status, body, headers = error.code, error.read().decode(), error.headers
                break
            except (ConnectionError, urllib.error.URLError):
                assert server.poll() is None, server.stdout.read().decode()  # type: ignore[union-attr]
                assert time.monotonic() < deadline, "uvicorn did not start"
                time.sleep(0.3)
    finally:
        server.terminate()
        server.wait(timeout=20)
    assert status == 404
    assert "Page not found" in body and 'class="site-header"' in body  # the site's page, with its navigation
    for leak in ("DEBUG = True", "URLconf", "Traceback", "SECRET_KEY", "BROKER"):
        assert leak not in body
    assert "script-src 'self'" in headers["Content-Security-Policy"]


# ---- brute force ---------------------------------------------------------------------------------------
LIMIT = settings.AXES_FAILURE_LIMIT


@pytest.fixture
def victim(db: Any) -> Any:
    return User.objects.create_user("victim", password="right-password-1", is_staff=True)


def _guesses(
    client: Client, url: str, username: str, count: int, *, forwarded: str | None = None
) -> list[int]:
    codes = []
    for i in range(count):
        xff = forwarded or f"203.0.113.{i % 250}, 198.51.100.{i % 250}"  # a new "client" every time
        response = client.post(
            url, {"username": username, "password": f"guess-{i}"}, HTTP_X_FORWARDED_FOR=xff
        )
        codes.append(response.status_code)
    return codes


def test_login_page_locks_out_after_the_limit_even_with_a_rotating_forwarded_for(victim: Any) -> None:
    client = Client()
    codes = _guesses(client, "/accounts/login/", "victim", LIMIT + 3)
    assert codes[: LIMIT - 1] == [200] * (LIMIT - 1)  # the form again, "wrong password"
    assert set(codes[LIMIT:]) == {429}
    right = client.post(
        "/accounts/login/",
        {"username": "victim", "password": "right-password-1"},
        HTTP_X_FORWARDED_FOR="192.0.2.7",
    )
    assert right.status_code == 429 and "Too many login attempts" in right.content.decode()
    assert "_auth_user_id" not in client.session
    # the admin's login shares the lockout
    admin = client.post("/admin/login/?next=/admin/", {"username": "victim", "password": "right-password-1"})
    assert admin.status_code == 429 and "_auth_user_id" not in client.session


@override_settings(TRUSTED_PROXIES=1)
def test_token_endpoint_locks_the_username_and_address_pair_until_the_cool_off(victim: Any) -> None:
    from axes.models import AccessAttempt

    client = APIClient()
    codes = []
    for i in range(LIMIT + 2):
        r = client.post(
            "/api/auth/token/",
            {"username": "victim", "password": f"guess-{i}"},
            format="json",
            HTTP_X_FORWARDED_FOR="203.0.113.9",
        )
        codes.append(r.status_code)
    assert codes[: LIMIT - 1] == [400] * (LIMIT - 1) and codes[-1] == 429
    right = client.post(
        "/api/auth/token/",
        {"username": "victim", "password": "right-password-1"},
        format="json",
        HTTP_X_FORWARDED_FOR="203.0.113.9",
    )
    assert right.status_code == 429 and right.json()["code"] == "too_many_attempts"
    # the cool-off passes
    AccessAttempt.objects.update(
        attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1)
    )
    right = client.post(
        "/api/auth/token/",
        {"username": "victim", "password": "right-password-1"},
        format="json",
        HTTP_X_FORWARDED_FOR="203.0.113.9",
    )
    assert right.status_code == 200 and right.json()["token"]


def _login(username: str, password: str, address: str) -> int:
    return (
        Client()
        .post("/accounts/login/", {"username": username, "password": password}, HTTP_X_FORWARDED_FOR=address)
        .status_code
    )


@override_settings(TRUSTED_PROXIES=1)
def test_a_locked_pair_does_not_lock_the_others_behind_that_address_nor_the_name_elsewhere(
    victim: Any,
) -> None:
    """A school or a café: one pupil's ten wrong passwords must not lock out everyone behind its address."""
    User.objects.create_user("carol", password="carol-pass-123")
    school, home = "203.0.113.70", "198.51.100.70"
    assert set(_guesses(Client(), "/accounts/login/", "victim", LIMIT, forwarded=school)) <= {200, 429}
    assert _login("victim", "right-password-1", school) == 429  # that pair is locked
    assert _login("carol", "carol-pass-123", school) == 302  # the same address, another name
    assert _login("victim", "right-password-1", home) == 302  # the same name, another address


@override_settings(TRUSTED_PROXIES=1)
@pytest.mark.parametrize("via", ["page", "api"])
def test_a_successful_login_does_not_forget_the_failures_before_it(victim: Any, via: str) -> None:
    """7 wrong, 1 right, then the 3rd wrong of the next run is the 10th failure: locked (AXES_RESET_ON_SUCCESS
    is off, so a guesser cannot clear the count by logging in to an account they know now and then)."""
    address = "203.0.113.80"

    def attempt(password: str) -> int:
        if via == "page":
            return _login("victim", password, address)
        return (
            APIClient()
            .post(
                "/api/auth/token/",
                {"username": "victim", "password": password},
                format="json",
                HTTP_X_FORWARDED_FOR=address,
            )
            .status_code
        )

    wrong, right = (200, 302) if via == "page" else (400, 200)
    assert [attempt(f"guess-{i}") for i in range(7)] == [wrong] * 7
    assert attempt("right-password-1") == right
    assert [attempt(f"again-{i}") for i in range(4)] == [wrong, wrong, 429, 429]
    assert attempt("right-password-1") == 429


ADDRESS_LIMIT = settings.LOGIN_FAILURE_LIMITS[("ip_address",)]


@override_settings(TRUSTED_PROXIES=1)
def test_an_address_spraying_many_usernames_is_locked_out_and_others_are_not(victim: Any) -> None:
    assert LIMIT < ADDRESS_LIMIT
    client = Client()
    for i in range(ADDRESS_LIMIT - 1):
        client.post(
            "/accounts/login/", {"username": f"user{i}", "password": "x"}, HTTP_X_FORWARDED_FOR="203.0.113.50"
        )
    assert _login("victim", "right-password-1", "203.0.113.50") == 302  # under the address's limit
    client.post(
        "/accounts/login/", {"username": "user-last", "password": "x"}, HTTP_X_FORWARDED_FOR="203.0.113.50"
    )
    locked = client.post(
        "/accounts/login/",
        {"username": "victim", "password": "right-password-1"},
        HTTP_X_FORWARDED_FOR="203.0.113.50",
    )
    assert locked.status_code == 429
    elsewhere = Client().post(
        "/accounts/login/",
        {"username": "victim", "password": "right-password-1"},
        HTTP_X_FORWARDED_FOR="198.51.100.1",
    )
    assert elsewhere.status_code == 302  # logged in: another client, the account itself is not locked


@override_settings(
    TRUSTED_PROXIES=1,
    LOGIN_FAILURE_LIMITS={**settings.LOGIN_FAILURE_LIMITS, ("username",): 15},
)
def test_a_name_guessed_from_many_addresses_is_locked_at_the_username_limit(victim: Any) -> None:
    codes = _guesses(Client(), "/accounts/login/", "victim", 15)  # a new address each time: no pair locks
    assert codes[:14] == [200] * 14 and codes[14] == 429
    assert _login("victim", "right-password-1", "192.0.2.99") == 429


def test_without_trusted_proxies_the_forwarded_for_header_is_ignored(rf: Any) -> None:
    from config.client_address import TrustedProxyMiddleware, address_behind_proxies

    meta = {"REMOTE_ADDR": "10.0.0.1", "HTTP_X_FORWARDED_FOR": "1.1.1.1, 2.2.2.2, 3.3.3.3"}
    assert address_behind_proxies(meta, 0) == "10.0.0.1"
    assert address_behind_proxies(meta, 1) == "3.3.3.3"
    assert address_behind_proxies(meta, 2) == "2.2.2.2"
    assert address_behind_proxies(meta, 9) == "1.1.1.1"
    seen = []
    request = rf.get("/", HTTP_X_FORWARDED_FOR="1.1.1.1", REMOTE_ADDR="10.0.0.1")
    TrustedProxyMiddleware(lambda r: seen.append(r.META["REMOTE_ADDR"]))(request)
    assert seen == ["10.0.0.1"]


def _signup(client: APIClient, n: int, xff: str) -> int:
    body = {"username": f"new{n}", "password": "a-long-enough-pass-9"}
    return client.post("/api/auth/signup/", body, format="json", HTTP_X_FORWARDED_FOR=xff).status_code


@pytest.mark.django_db
def test_signup_is_throttled_per_client_address() -> None:
    from django.core.cache import cache

    cache.clear()
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "signup": "2/hour"}
    client = APIClient()
    with override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}):
        # no trusted proxy: a forged X-Forwarded-For changes nothing
        assert [_signup(client, n, f"203.0.113.{n}") for n in range(3)] == [201, 201, 429]
        page = Client().post(
            "/accounts/signup/",
            {
                "username": "pageuser",
                "password1": "a-long-enough-pass-9",
                "password2": "a-long-enough-pass-9",
            },
        )
        assert page.status_code == 429 and not User.objects.filter(username="pageuser").exists()
        cache.clear()
        with override_settings(TRUSTED_PROXIES=1):  # behind a proxy: per real client address
            assert [_signup(client, n, "203.0.113.1") for n in range(3, 6)] == [201, 201, 429]
            assert _signup(client, 6, "203.0.113.2") == 201
    cache.clear()


# ---- tokens and 401 ------------------------------------------------------------------------------------
def test_unauthenticated_api_calls_get_401_with_www_authenticate(db: Any) -> None:
    r = APIClient().get("/api/auth/me/")
    assert r.status_code == 401 and r["WWW-Authenticate"] == "Token"


def test_a_token_older_than_the_ttl_is_refused_and_replaced_on_login(victim: Any) -> None:
    token = Token.objects.create(user=victim)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get("/api/auth/me/").status_code == 200
    Token.objects.filter(pk=token.pk).update(
        created=timezone.now() - timedelta(seconds=settings.API_TOKEN_TTL + 5)
    )
    r = client.get("/api/auth/me/")
    assert r.status_code == 401 and "expired" in r.json()["message"]
    fresh = APIClient().post(
        "/api/auth/token/", {"username": "victim", "password": "right-password-1"}, format="json"
    )
    assert fresh.status_code == 200 and fresh.json()["token"] != token.key
    client.credentials(HTTP_AUTHORIZATION=f"Token {fresh.json()['token']}")
    assert client.get("/api/auth/me/").status_code == 200
    with override_settings(API_TOKEN_TTL=0):  # 0: tokens never expire
        Token.objects.update(created=timezone.now() - timedelta(days=3650))
        assert client.get("/api/auth/me/").status_code == 200


def test_logout_revokes_the_token(victim: Any) -> None:
    key = (
        APIClient()
        .post("/api/auth/token/", {"username": "victim", "password": "right-password-1"}, format="json")
        .json()["token"]
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.post("/api/auth/logout/").status_code == 204
    assert client.get("/api/auth/me/").status_code == 401
    assert not Token.objects.filter(key=key).exists()
    assert APIClient().post("/api/auth/logout/").status_code == 401


def test_logout_is_in_the_schema(db: Any) -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    assert "204" in schema["paths"]["/api/auth/logout/"]["post"]["responses"]


# ---- headers -------------------------------------------------------------------------------------------
def test_pages_carry_a_csp_without_inline_scripts(db: Any) -> None:
    response = Client().get("/")
    policy = dict(
        part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";") if part.strip()
    )
    assert policy["script-src"] == "'self'" and "unsafe" not in policy["default-src"]
    assert policy["frame-ancestors"] == "'none'" and policy["object-src"] == "'none'"


def test_no_template_has_an_inline_script_or_event_handler() -> None:
    """The CSP forbids them: scripts are files; data goes in data- attributes or json_script."""
    offending = []
    for path in sorted((ROOT / "frontend" / "templates").rglob("*.html")):
        text = path.read_text()
        for tag in re.findall(r"<script\b[^>]*>", text):
            if "src=" not in tag and "application/json" not in tag:
                offending.append(f"{path.name}: {tag}")
        offending += [f"{path.name}: {m}" for m in re.findall(r"<[^>]*\son[a-z]+\s*=", text)]
    assert offending == []


@override_settings(SECURE_HSTS_SECONDS=3600, SECURE_HSTS_INCLUDE_SUBDOMAINS=True)
def test_hsts_is_sent_over_https_when_configured(db: Any) -> None:
    assert Client().get("/", secure=True)["Strict-Transport-Security"] == "max-age=3600; includeSubDomains"


def test_hsts_is_off_by_default(db: Any) -> None:
    assert "Strict-Transport-Security" not in Client().get("/", secure=True)


# ---- error pages ---------------------------------------------------------------------------------------
def test_404_is_the_sites_page_with_its_navigation(db: Any) -> None:
    response = Client().get("/nowhere/")
    body = response.content.decode()
    assert response.status_code == 404
    assert "Page not found" in body and 'aria-label="Main"' in body and "/cards/" in body


def test_400_for_a_foreign_host_is_the_sites_page(db: Any) -> None:
    response = Client().get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400 and "Bad request" in response.content.decode()


def test_500_is_the_sites_page(rf: Any) -> None:
    from django.contrib.auth.models import AnonymousUser

    from frontend.errors import server_error

    request = rf.get("/boom/")
    request.user = AnonymousUser()
    response = server_error(request)
    assert response.status_code == 500 and "Something went wrong" in response.content.decode()
    assert 'aria-label="Main"' in response.content.decode()


def test_a_signed_in_stranger_is_told_the_match_is_private(victim: Any) -> None:
    from matches.models import Match

    owner = User.objects.create_user("owner", password="pw-owner-123")
    private = Match.objects.create(kind="commandeer", created_by=owner, seed=1, is_public=False)
    client = Client()
    client.force_login(victim)
    response = client.get(f"/play/{private.pk}/")
    assert response.status_code == 403 and "This match is private." in response.content.decode()
    assert client.get("/play/987654/").status_code == 404
    anonymous = Client().get(f"/play/{private.pk}/")
    assert anonymous.status_code == 403 and 'data-testid="error-login"' in anonymous.content.decode()


# ---- SQLite: concurrent writes wait --------------------------------------------------------------------
def test_two_threads_writing_at_once_on_sqlite_both_succeed(tmp_path: Path, django_db_blocker: Any) -> None:
    """Two read-then-write transactions at once, as two requests run them: with `BEGIN IMMEDIATE` the
    second waits for the first; with SQLite's default (deferred) BEGIN one fails "database is locked"."""
    from django.db import connections, transaction
    from django.db.utils import ConnectionHandler

    alias = "sqlite_concurrency_probe"
    database = {"ENGINE": "django.db.backends.sqlite3", "NAME": str(tmp_path / "db.sqlite3")}
    configured = {"default": {**database, "OPTIONS": dict(settings.SQLITE_OPTIONS)}}
    connections.settings[alias] = ConnectionHandler(configured).settings["default"]  # defaults filled in
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def increment() -> None:
        try:
            barrier.wait()
            with transaction.atomic(using=alias), connections[alias].cursor() as cursor:
                cursor.execute("SELECT n FROM counter")
                n = cursor.fetchone()[0]
                time.sleep(0.3)  # both threads hold their transaction open at once
                cursor.execute("UPDATE counter SET n = %s", [n + 1])
        except BaseException as error:  # collected for the assertion below
            errors.append(error)
        finally:
            connections[alias].close()

    try:
        with django_db_blocker.unblock():
            with connections[alias].cursor() as cursor:
                cursor.execute("CREATE TABLE counter (n INTEGER)")
                cursor.execute("INSERT INTO counter VALUES (0)")
                cursor.execute("PRAGMA journal_mode")
                assert cursor.fetchone()[0] == "wal"
            threads = [threading.Thread(target=increment) for _ in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert errors == []
            with connections[alias].cursor() as cursor:
                cursor.execute("SELECT n FROM counter")
                assert cursor.fetchone()[0] == 2  # and no lost update
    finally:
        connections[alias].close()
        del connections.settings[alias]


@override_settings(TRUSTED_PROXIES=1)
def test_a_login_of_ones_own_does_not_clear_an_address_s_failures(victim: Any) -> None:
    User.objects.create_user("mallory", password="mallory-pass-123")
    client, address = Client(), "203.0.113.60"
    for i in range(ADDRESS_LIMIT - 1):
        client.post(
            "/accounts/login/", {"username": f"user{i}", "password": "x"}, HTTP_X_FORWARDED_FOR=address
        )
    own = client.post(
        "/accounts/login/",
        {"username": "mallory", "password": "mallory-pass-123"},
        HTTP_X_FORWARDED_FOR=address,
    )
    assert own.status_code == 302  # still under the limit
    client.post("/accounts/login/", {"username": "someone", "password": "x"}, HTTP_X_FORWARDED_FOR=address)
    locked = client.post(
        "/accounts/login/",
        {"username": "victim", "password": "right-password-1"},
        HTTP_X_FORWARDED_FOR=address,
    )
    assert locked.status_code == 429
