"""Settings shared by every environment; everything secret or machine-specific comes from the environment."""

import os
import socket
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from django.utils.translation import gettext_lazy
from kombu.entity import Queue
from redis.asyncio.retry import Retry as AsyncRedisRetry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_float(name: str, default: float, low: float, high: float) -> float:
    """A float from the environment within [low, high]; anything else stops the process with one line."""
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SystemExit(f"{name}={raw!r} is not a number (expected {low}..{high}).") from None
    if not low <= value <= high:  # also refuses nan
        raise SystemExit(f"{name}={raw!r} is out of range (expected {low}..{high}).")
    return value


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    # One line on stderr and exit status 1 (uvicorn, celery and manage.py all stop at once), not a
    # traceback through the settings machinery: this is an operator's mistake, not a bug. (The
    # development settings, config.settings.dev, bring a key of their own.)
    raise SystemExit(
        "SECRET_KEY is not set: production settings refuse to start without it "
        "(set SECRET_KEY, or use `make run` for development)."
    )
ALLOWED_HOSTS = [
    h.strip() for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h
]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]

INSTALLED_APPS = [
    "daphne",
    "modeltranslation",  # before django.contrib.admin: its admin classes and static files
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "simple_history",
    "channels",
    "cards",
    "decks",
    "matches",
    "boardgame",
    "frontend",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages and API answers compressed (about 5× smaller). Below WhiteNoise, which answers static files
    # itself with their precompressed copies; above everything that writes a body. BREACH (a secret in
    # a compressed body guessed from its size) is answered as Django answers it: the CSRF token in a
    # page is masked afresh on every response, and Django's GZipMiddleware pads each compressed body with
    # random bytes ("Heal The Breach"); session ids and API tokens travel in headers, never in bodies.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "frontend.preferences.PresenceMiddleware",  # last seen, for the your-turn e-mails (throttled)
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES: list[dict[str, Any]] = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "frontend.context_processors.turns_waiting",
            ],
        },
    },
]

VAR_DIR.mkdir(parents=True, exist_ok=True)
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool("DB_POOL", True):
    # WebSocket consumers reach the database from short-lived threads, where persistent connections are
    # never reused: a psycopg pool per process keeps connections open instead (CONN_MAX_AGE must be 0).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # Server-side parameter binding lets PostgreSQL keep the plans of the statements a connection repeats
    # (psycopg prepares a statement after its 5th run) instead of parsing every one with its values
    # inlined, e.g. the 10+ KB game state written by each action.
    DATABASES["default"].setdefault("OPTIONS", {})["server_side_binding"] = env_bool(
        "DB_SERVER_SIDE_BINDING", True
    )
    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": int(os.environ.get("DB_POOL_MIN", "2")),
        "max_size": int(os.environ.get("DB_POOL_MAX", "20")),
        "timeout": 10,
    }
# Threads per server process that run HTTP requests through Django's WSGI handler (config/asgi.py): few,
# since they share one GIL (on 2 cores, 1-3 threads served ~10-20% more actions/s than 8); run one server
# process per core (`uvicorn --workers`).
HTTP_THREADS = int(os.environ.get("HTTP_THREADS", "2"))
# SQLite (`make run`'s default): concurrent writers wait for each other instead of failing with
# "database is locked". WAL lets readers go on while one connection writes; the busy timeout makes a
# second writer wait; IMMEDIATE takes the write lock when a transaction begins, so two transactions that
# both read then write queue up at BEGIN instead of deadlocking on the lock upgrade (which SQLite answers
# with an immediate SQLITE_BUSY that no timeout waits out).
SQLITE_OPTIONS = {
    "timeout": 20,
    "transaction_mode": "IMMEDIATE",
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(SQLITE_OPTIONS)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

TIME_ZONE = "UTC"
USE_TZ = True

# Curated game data (cards, factions, keywords, Westeros areas, houses, cards) carries per-language
# columns (name_th, name_zh_hans ...); English is the source and the fallback (docs/i18n-data.md).
MODELTRANSLATION_LANGUAGES = ("en", "th", "zh-hans")
MODELTRANSLATION_DEFAULT_LANGUAGE = "en"
MODELTRANSLATION_FALLBACK_LANGUAGES = ("en",)

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES: dict[str, dict[str, Any]] = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # fingerprinted names cached for a year (WhiteNoise and nginx: "immutable"), compressed copies beside
    "staticfiles": {"BACKEND": "config.storage.StaticStorage"},
}

REDIS_URL = os.environ.get("REDIS_URL", "")

# The cache answers every request (throttles, sessions' neighbours, cached states): against a dead or stalled
# Redis it must fail within about a second, not after redis-py's defaults (5 s to connect, 5 s per read).
CACHE_REDIS_TIMEOUT_S = 1.0
CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "socket_connect_timeout": CACHE_REDIS_TIMEOUT_S,
                "socket_timeout": CACHE_REDIS_TIMEOUT_S,
                "socket_keepalive": True,
                "health_check_interval": 30,
                # one pool per process, not one per request (config/cache.py)
                "pool_class": "config.cache.SharedConnectionPool",
            },
        }
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# The channel layer (CHANNEL_LAYERS) is set up with the live sockets' limits, at the end of this file.

# Celery: Redis when REDIS_URL is set, otherwise kombu's filesystem transport (no server needed).
BROKER_DIR = VAR_DIR / "broker"
# Redis hands an unacknowledged message (a task in flight on a worker that was killed, or a timer a worker
# holds until its eta) to another worker after this many seconds. It must exceed the longest a task may
# run (the AI task's hard time limit, matches.tasks.ai_time_limits: about 26 s by default, 31 s at
# AI_BUDGET_SCALE=10) and the furthest eta a timer is armed with (matches.clocks.EAGER_TIMER_HORIZON plus
# its grace), or a message would be redelivered while still in hand; any more only makes a killed
# worker's tasks wait longer. (It was 3,600 s: a killed worker's task then waited an hour.)
CELERY_VISIBILITY_TIMEOUT_S = env_float("CELERY_VISIBILITY_TIMEOUT_S", 300.0, 60.0, 86400.0)
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {"visibility_timeout": CELERY_VISIBILITY_TIMEOUT_S}
else:
    for sub in ("in", "processed", "control"):
        (BROKER_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = (
        "filesystem-atomic://"  # kombu's filesystem transport, atomic writes: config/broker.py
    )
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "in"),
        "data_folder_out": str(BROKER_DIR / "in"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
        # How long the worker sleeps when it finds no message it may take. kombu's default, 1 s, also
        # applies while both pool processes are busy, which capped `make run` at about 2 tasks a second:
        # in a soak of 10 AI matches the AI's moves queued up behind the deadline sweeps and matches stalled.
        "polling_interval": 0.1,
    }
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_ACKS_LATE = True
# AI moves have a queue of their own, so a backlog of deadline timers never starves the AI (a soak of `make
# run` queued 32,000 timers beside 20,000 AI moves) and a long AI move never delays a deadline. A worker
# started without -Q consumes both; larger set-ups run `-Q ai` and `-Q celery` workers apart.
CELERY_TASK_QUEUES = (Queue("celery"), Queue("ai"))  # type: ignore[no-untyped-call]  # kombu is untyped here
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_ROUTES = {"matches.tasks.ai_move": {"queue": "ai"}}
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {}

# The beat (`celery -A config beat`, a process of its own; workers never run --beat): with Redis, RedBeat
# keeps the schedule in Redis under a lock, so a second beat started as a standby waits and takes over
# within about REDBEAT_LOCK_TIMEOUT_S of the first one's death (the holder renews the lock at every tick,
# at least every CELERY_BEAT_MAX_LOOP_INTERVAL; a standby tries again as often). Without Redis (`make run`)
# Celery's own file scheduler runs, and there must be exactly one beat: the Procfile's.
REDBEAT_LOCK_TIMEOUT_S = env_float("REDBEAT_LOCK_TIMEOUT_S", 30.0, 2.0, 3600.0)
CELERY_BEAT_MAX_LOOP_INTERVAL = max(1, int(REDBEAT_LOCK_TIMEOUT_S / 6))
if REDIS_URL:
    CELERY_BEAT_SCHEDULER = "config.beat:Scheduler"  # RedBeat, outliving a Redis outage
    # RedBeat's own names (it reads them without the CELERY_ prefix): its Redis, not the broker's options.
    REDBEAT_REDIS_URL = REDIS_URL
    REDBEAT_REDIS_OPTIONS: dict[str, object] = {}
    REDBEAT_LOCK_TIMEOUT = int(REDBEAT_LOCK_TIMEOUT_S)
else:
    CELERY_BEAT_SCHEDULER = "celery.beat:PersistentScheduler"

REST_FRAMEWORK: dict[str, Any] = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "config.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # orjson: the same JSON as DRF's renderer at a fraction of the CPU (config/renderers.py)
    "DEFAULT_RENDERER_CLASSES": [
        "config.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.errors.api_exception_handler",
    "DEFAULT_THROTTLE_RATES": {"anon": "120/min", "user": "2000/min"},
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Commandeer & Westeros API",
    # Lazy: the schema is built per request in the reader's language (config/schema.py).
    "DESCRIPTION": gettext_lazy(
        "Card database, deck builder and online play for Commandeer TCG and the Westeros board game."
    ),
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
}

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # the pages' fetch() reads it to send X-CSRFToken
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

_TASK_LOG_LEVEL = os.environ.get("CELERY_TASK_LOG_LEVEL", "WARNING")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"drop_task_sends": {"()": "config.logfilters.DropTaskSends"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # Django's default gives the "django" loggers a console handler of their own when DEBUG is on; with
    # the root's, every line (e.g. each request under `make run`) was printed twice.
    "loggers": {
        "django": {"handlers": [], "level": os.environ.get("LOG_LEVEL", "INFO")},
        # The beat sends the deadline sweep every second: at INFO each one was three lines ("Sending due
        # task", "received", "succeeded"), two thirds of a worker's output. The worker's task loggers print
        # only warnings and errors (a task's failure: one ERROR with its traceback, from celery.app.trace),
        # and the beat drops its "Sending due task" lines but keeps its own life (starting, the lock taken or
        # lost) at INFO; CELERY_TASK_LOG_LEVEL=INFO shows every task again.
        **{name: {"level": _TASK_LOG_LEVEL} for name in ("celery.worker.strategy", "celery.app.trace")},
        "celery.beat": {
            "filters": [] if _TASK_LOG_LEVEL in ("INFO", "DEBUG") else ["drop_task_sends"],
        },
    },
}


# --- Languages (docs/i18n.md) -----------------------------------------------------------------------------
# English is the source; Thai and Simplified Chinese have catalogues per app (<app>/locale/<ll>/LC_MESSAGES:
# django.po for Python and templates, djangojs.po for the static JS, served at /jsi18n/). The `.mo` files
# are build products (`make messages`). Each language is named in itself, as the switcher shows it.
USE_I18N = True
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("th", "ไทย"), ("zh-hans", "简体中文")]
# The project's catalogues by path: Django ranks LOCALE_PATHS above every app, so our words (docs/glossary.md)
# win over django.contrib's where both translate one msgid (the admin's zh-hans "Page not found", say); an
# app listed in INSTALLED_APPS after contrib would lose to it. config is no app: only this finds its folder.
LOCALE_PATHS = [
    BASE_DIR / app / "locale" for app in ("frontend", "config", "cards", "decks", "matches", "boardgame")
] + [
    # The engines are packages, not apps: their catalogues of game texts are listed here.
    BASE_DIR / "matches" / "engine" / "locale",
    BASE_DIR / "boardgame" / "engine" / "locale",
]
LANGUAGE_COOKIE_NAME = "django_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
# Django's LocaleMiddleware resolves cookie > Accept-Language; ours puts the signed-in user's saved language
# first, so it needs the user: after sessions and authentication. It must also come before CommonMiddleware
# (its redirects) and CSRF (the CSRF failure page is rendered in the chosen language), so authentication
# moves up with it; nothing between sessions and CSRF needs the language or the user in another order.
MIDDLEWARE.remove("django.contrib.auth.middleware.AuthenticationMiddleware")
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.common.CommonMiddleware"),
    "django.contrib.auth.middleware.AuthenticationMiddleware",
)
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.common.CommonMiddleware"), "frontend.language.LanguageMiddleware"
)
TEMPLATES[0]["OPTIONS"]["context_processors"] += [
    "django.template.context_processors.i18n",
    "frontend.language.context",  # the switcher's languages, the JS catalogue's URL
]

# --- Input bounds and the API contract --------------------------------------------------------------------
# One JSON parser with size and depth bounds and no unstorable characters; JSON only, so a form-encoded body
# is a 415 (config/parsers.py). Paths and query strings are checked, and /api/ errors kept JSON, by
# config/middleware.py. The schema documents every error answer (config/schema.py); Swagger UI and ReDoc
# are served from the drf-spectacular-sidecar package, so /api/docs/ works without internet.
REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"] = ["config.parsers.BoundedJSONParser"]
REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"] = "config.schema.AutoSchema"
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
    "config.middleware.InputGuardMiddleware",
)
INSTALLED_APPS.append("drf_spectacular_sidecar")
SPECTACULAR_SETTINGS.update(
    {
        "SWAGGER_UI_DIST": "SIDECAR",
        "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
        "REDOC_DIST": "SIDECAR",
        # No call to validator.swagger.io (Swagger UI's default badge): the docs load nothing from elsewhere.
        "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    }
)
TEMPLATES[0]["DIRS"] = [*TEMPLATES[0]["DIRS"], BASE_DIR / "config" / "templates"]  # the ReDoc page (offline)

# --- Security: HTTPS, trusted proxies, brute force, Content-Security-Policy, API tokens ------------------
# Everything HTTPS-related is off unless the environment turns it on (docs/deploy.md, "Environment variables"): the same
# settings serve a laptop over plain HTTP and a deployment behind a TLS-terminating proxy.
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", False)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
# The load balancer's probes reach a web process directly over HTTP: a redirect would read as "unhealthy".
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
# "HTTP_X_FORWARDED_PROTO,https": the header (as Django names it) and value by which the proxy says the
# client used HTTPS. Set it only behind a proxy that always sets (or strips) that header.
_proxy_ssl_header = os.environ.get("SECURE_PROXY_SSL_HEADER", "").strip()
if _proxy_ssl_header:
    _header, _, _value = _proxy_ssl_header.partition(",")
    SECURE_PROXY_SSL_HEADER = (_header.strip(), _value.strip() or "https")
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

# How many reverse proxies in front of the app append to X-Forwarded-For. 0: the header is the client's
# word and is ignored. The client's address is worked out once, by config.client_address's middleware
# (first in the chain), which rewrites REMOTE_ADDR; login lockouts and DRF's throttles read that.
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", "0"))
MIDDLEWARE.insert(0, "config.client_address.TrustedProxyMiddleware")
REST_FRAMEWORK["NUM_PROXIES"] = 0  # DRF: REMOTE_ADDR (as set above), never the raw X-Forwarded-For

# Login brute force (django-axes, config/lockout.py): LOGIN_FAILURE_LIMIT wrong passwords for one username
# from one address lock that pair out (429, even with the right password) for the cool-off; the others
# behind that address (a school, a café) still log in. Wider nets: LOGIN_ADDRESS_FAILURE_LIMIT failures
# from one address whatever the names (spraying), or LOGIN_USERNAME_FAILURE_LIMIT for one name whatever the
# addresses (a guesser with many addresses; 0 turns a net off). Covers every authenticate() call: the login
# page, /api/auth/token/, the admin.
INSTALLED_APPS.append("axes")
MIDDLEWARE.append("axes.middleware.AxesMiddleware")
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_FAILURE_LIMITS = {  # a set of axes' lockout parameters -> failures within the cool-off that lock it
    ("username", "ip_address"): max(1, int(os.environ.get("LOGIN_FAILURE_LIMIT", "10"))),
    ("ip_address",): int(os.environ.get("LOGIN_ADDRESS_FAILURE_LIMIT", "50")),
    ("username",): int(os.environ.get("LOGIN_USERNAME_FAILURE_LIMIT", "100")),
}
LOGIN_FAILURE_LIMITS = {key: limit for key, limit in LOGIN_FAILURE_LIMITS.items() if limit > 0}
AXES_LOCKOUT_PARAMETERS: list[str | list[str]] = [
    list(key) if len(key) > 1 else key[0] for key in LOGIN_FAILURE_LIMITS
]
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMITS[("username", "ip_address")]
AXES_HANDLER = "config.lockout.LockoutHandler"  # a limit per parameter set (axes has one for all)
AXES_COOLOFF_TIME = timedelta(minutes=float(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
AXES_CLIENT_IP_CALLABLE = "config.client_address.client_address"
# Failures are forgotten only when the cool-off has passed, not on a success: otherwise a guesser could
# log into an account of their own now and then to clear the count of their address.
AXES_RESET_ON_SUCCESS = False
AXES_DISABLE_ACCESS_LOG = True  # failed attempts are kept (admin: Axes); not a row per successful login
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
# Sign-up (page and API) per client address; match creation has its own limits (matches app).
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {
    **REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
    "signup": os.environ.get("SIGNUP_RATE", "10/hour"),
}

# API tokens expire API_TOKEN_TTL seconds after they were issued (0: never); POST /api/auth/logout/
# revokes one. Token authentication comes first so that a request without credentials gets
# 401 with `WWW-Authenticate: Token` (DRF asks the first class for that header; sessions have none).
API_TOKEN_TTL = int(os.environ.get("API_TOKEN_TTL", str(30 * 24 * 3600)))
REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"] = [
    "config.authentication.TokenAuthentication",
    "rest_framework.authentication.SessionAuthentication",
]

CSRF_FAILURE_VIEW = "frontend.errors.csrf_failure"  # the site's 403 page, not Django's bare one

# Content-Security-Policy (django-csp): scripts only from this site's files (no inline script, no
# eval); styles may be inline (style attributes and the API docs' <style>). Violations show in the
# browser console; CSP_REPORT_URI sends reports there too.
INSTALLED_APPS.append("csp")
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1, "csp.middleware.CSPMiddleware"
)
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        **({"report-uri": [os.environ["CSP_REPORT_URI"]]} if os.environ.get("CSP_REPORT_URI") else {}),
    }
}
# The API docs pass that policy only when Swagger UI and ReDoc come from this site (the sidecar package),
# not from a CDN; guarded so that a second, identical setting elsewhere in this file changes nothing.
if "drf_spectacular_sidecar" not in INSTALLED_APPS:
    INSTALLED_APPS.append("drf_spectacular_sidecar")
for _key in ("SWAGGER_UI_DIST", "SWAGGER_UI_FAVICON_HREF", "REDOC_DIST"):
    SPECTACULAR_SETTINGS.setdefault(_key, "SIDECAR")

# --- Abuse bounds of online play (matches/apis.py, matches/services/lobby.py) ----------------------------
MATCHES_CREATE_RATE: str | None = os.environ.get("MATCHES_CREATE_RATE", "30/min")  # match creations per user
MATCHES_MAX_OPEN_PER_USER = int(os.environ.get("MATCHES_MAX_OPEN_PER_USER", "20"))  # waiting or running


# --- AI opponents (matches/agents.py) --------------------------------------------------------------------
# Multiplies every level's thinking time (the engines' LEVEL_BUDGET_S); CI and the tests use a small one.
AI_BUDGET_SCALE = env_float("AI_BUDGET_SCALE", 1.0, 0.01, 10.0)
# matches.tasks.ai_move: one task plays AI moves for about AI_TASK_SLICE_S, then queues the rest; Celery's
# soft/hard time limits are that slice, plus twice the longest level budget, plus AI_TIME_LIMIT_MARGIN_S.
AI_TASK_SLICE_S = env_float("AI_TASK_SLICE_S", 5.0, 0.1, 300.0)
AI_TIME_LIMIT_MARGIN_S = env_float("AI_TIME_LIMIT_MARGIN_S", 10.0, 1.0, 300.0)
# Commandeer's AI searches as if it knew the opponent's decklist (not the hand, not the order of the deck).
AI_OPPONENT_DECKLIST_KNOWN = env_bool("AI_OPPONENT_DECKLIST_KNOWN", True)


# --- Ratings (matches/services/ratings.py; docs/play-layer.md, "Ratings: aborted games and repeated pairings")
# The same two people count at most RATED_PAIR_MAX_GAMES rated games against each other within
# RATED_PAIR_WINDOW_H hours; their further games in that window are played unrated (the answer says why).
RATED_PAIR_MAX_GAMES = int(env_float("RATED_PAIR_MAX_GAMES", 5, 1, 100))
RATED_PAIR_WINDOW_H = env_float("RATED_PAIR_WINDOW_H", 24.0, 1.0, 24.0 * 30)


# --- Your-turn notices (frontend/preferences.py, matches/services/emails.py) -----------------------------
# E-mail: SMTP from the environment in production; `make run` prints mails on the console
# (config/settings/dev.py) and the tests keep them in memory (locmem).
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "20"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Commandeer <noreply@localhost>")
# The site's address as players reach it, for links in e-mails (no trailing slash).
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000").rstrip("/")
# A correspondence move waits on a player: e-mail them once they have been away this long.
NOTIFY_ABSENT_AFTER_S = int(env_float("NOTIFY_ABSENT_AFTER_S", 600, 0, 7 * 86400))
NOTIFY_EMAIL_SWEEP_S = env_float("NOTIFY_EMAIL_SWEEP_S", 60, 1, 3600)  # how often the e-mail task looks

# --- Live sockets: the channel layer and each user's open sockets (matches/consumers.py, matches/sockets.py) -
# A user (an anonymous viewer: a client address) holds at most MATCHES_WS_MAX_PER_MATCH open sockets on one
# match and MATCHES_WS_MAX_PER_USER in all; one more is accepted and closed at once with code 4429
# (docs/play-layer.md). With the Redis channel layer they are counted in Redis, so the caps hold across web
# processes; every socket renews its entry each third of MATCHES_WS_LEASE_S, so the entries of a process that
# died without closing its sockets are forgotten after at most MATCHES_WS_LEASE_S.
MATCHES_WS_MAX_PER_MATCH = int(env_float("MATCHES_WS_MAX_PER_MATCH", 8, 1, 100))
MATCHES_WS_MAX_PER_USER = int(env_float("MATCHES_WS_MAX_PER_USER", 30, 1, 1000))
MATCHES_WS_LEASE_S = env_float("MATCHES_WS_LEASE_S", 60, 10, 3600)
# A member of a channel-layer group that nobody removed (its process died) is dropped after this long; live
# sockets re-join their groups with every renewal, so this only has to be longer than MATCHES_WS_LEASE_S.
CHANNEL_GROUP_EXPIRY_S = int(env_float("CHANNEL_GROUP_EXPIRY_S", 900, 60, 7 * 86400))
if CHANNEL_GROUP_EXPIRY_S <= MATCHES_WS_LEASE_S:
    raise SystemExit(
        f"CHANNEL_GROUP_EXPIRY_S={CHANNEL_GROUP_EXPIRY_S} must be longer than MATCHES_WS_LEASE_S={MATCHES_WS_LEASE_S}."
    )
# Redis connections a web process's channel layer may hold; a burst beyond them (hundreds of sockets closing
# at once) waits up to 10 s for a free one instead of failing (config/channel_layer.py).
CHANNEL_LAYER_POOL_SIZE = int(env_float("CHANNEL_LAYER_POOL_SIZE", 50, 4, 1000))
# The channel layer waits for messages with a blocking pop that the server ends after 5 s on an idle
# channel (channels-redis' brpop_timeout). redis-py 8 gives up on any read after 5 s by default, which
# raced that pop and closed every idle socket every 5 s. Its reads have no time limit here, as before
# redis-py 8: any finite one also sends each command through asyncio.wait_for, which on Python 3.11 can
# swallow the cancellation of a closing socket's receive, leaving its consumer waiting forever. A peer
# that vanished is found by TCP keepalive instead (probes after 30 s of silence, 3 of them 5 s apart),
# and by a PING before reusing a connection that sat idle for 30 s. Set explicitly, so that every
# redis-py the pin allows behaves the same.
REDIS_KEEPALIVE_OPTIONS = {
    getattr(socket, name): value
    for name, value in (("TCP_KEEPIDLE", 30), ("TCP_KEEPINTVL", 5), ("TCP_KEEPCNT", 3))
    if hasattr(socket, name)
}
# After Redis restarted, every pooled connection is dead; redis-py's default is not to retry, so the first
# use of each (a socket's connect, a group_add) failed with "Connection closed by server" and the socket was
# refused with a 500 until the pool had cycled. Retried with a fresh connection instead: every command the
# layer sends is safe to repeat (a lease claim, a group add or discard, a blocking pop).
CHANNEL_LAYER_REDIS_RETRY = AsyncRedisRetry(ExponentialBackoff(cap=1.0, base=0.05), 3)
CHANNEL_LAYER_REDIS_OPTIONS: dict[str, object] = {
    "retry": CHANNEL_LAYER_REDIS_RETRY,
    "retry_on_error": [RedisConnectionError],
    "socket_timeout": None,
    "socket_connect_timeout": 5.0,
    "socket_keepalive": True,
    "socket_keepalive_options": REDIS_KEEPALIVE_OPTIONS,
    "health_check_interval": 30,
    "max_connections": CHANNEL_LAYER_POOL_SIZE,
    "pool_timeout": 10.0,
}


def redis_channel_layer(url: str) -> dict[str, object]:
    """The channel layer on the Redis at `url` (the tests build one on a Redis of their own)."""
    return {
        "BACKEND": "config.channel_layer.RedisChannelLayer",
        "CONFIG": {
            "hosts": [{"address": url, **CHANNEL_LAYER_REDIS_OPTIONS}],
            "group_expiry": CHANNEL_GROUP_EXPIRY_S,
        },
    }


CHANNEL_LAYERS = {
    "default": (
        redis_channel_layer(REDIS_URL)
        if REDIS_URL
        else {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"group_expiry": CHANNEL_GROUP_EXPIRY_S},
        }
    )
}

# --- Uploaded files: card art (cards/art.py; docs/operations.md, "Card art") --------------------------------
# Local files under VAR_DIR/media by default (served by Django, or by nginx at /media/); an S3-compatible
# object store when MEDIA_S3_BUCKET is set (django-storages; credentials as boto3 reads them:
# AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, or the machine's role). Every stored name is new for each upload
# and each thumbnail is named after its upload, so every file is served with a year's cache lifetime.
INSTALLED_APPS.append("imagekit")
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", VAR_DIR / "media"))
MEDIA_URL = os.environ.get("MEDIA_URL", "/media/")
MEDIA_CACHE_CONTROL = "public, max-age=31536000, immutable"
MEDIA_S3_BUCKET = os.environ.get("MEDIA_S3_BUCKET", "").strip()
if MEDIA_S3_BUCKET:
    _s3_domain = os.environ.get("MEDIA_S3_CUSTOM_DOMAIN", "").strip() or None
    STORAGES["default"] = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": MEDIA_S3_BUCKET,
            "endpoint_url": os.environ.get("MEDIA_S3_ENDPOINT_URL", "").strip() or None,
            "region_name": os.environ.get("MEDIA_S3_REGION", "").strip() or None,
            "custom_domain": _s3_domain,
            "location": os.environ.get("MEDIA_S3_PREFIX", "media").strip("/"),
            # Card art is public: plain URLs (no signed query strings that change and defeat caches).
            "querystring_auth": False,
            "default_acl": os.environ.get("MEDIA_S3_ACL", "").strip() or None,
            "file_overwrite": False,
            "object_parameters": {"CacheControl": MEDIA_CACHE_CONTROL},
        },
    }
    # The pictures come from the bucket's (or its CDN's) origin: the Content-Security-Policy allows it.
    _media_origin = os.environ.get("MEDIA_S3_PUBLIC_ORIGIN", "").strip() or (
        f"https://{_s3_domain}" if _s3_domain else ""
    )
    if _media_origin:
        CONTENT_SECURITY_POLICY["DIRECTIVES"]["img-src"].append(_media_origin)
else:
    MEDIA_ROOT.mkdir(parents=True, exist_ok=True)
# Thumbnails (django-imagekit): made when the art is saved, never checked for on a page view (the
# Optimistic strategy: a URL costs no storage round trip, which matters on an object store).
IMAGEKIT_DEFAULT_CACHEFILE_STRATEGY = "imagekit.cachefiles.strategies.Optimistic"
IMAGEKIT_CACHEFILE_DIR = "art-cache"
# Django serves /media/ itself (cards/art_views.py) unless MEDIA_SERVED_BY_PROXY says nginx (deploy/nginx.conf)
# or an object store answers there.
MEDIA_SERVED_BY_DJANGO = not MEDIA_S3_BUCKET and not env_bool("MEDIA_SERVED_BY_PROXY", False)

# Generic classes of Django and DRF (`ModelAdmin[Match]`, `Serializer[Any]`) subscriptable at run time,
# as their stubs declare them, so the code that mypy --strict checks runs unchanged.
import django_stubs_ext  # noqa: E402
from rest_framework import fields as _drf_fields  # noqa: E402
from rest_framework import serializers as _drf_serializers  # noqa: E402

django_stubs_ext.monkeypatch(
    extra_classes=(_drf_fields.Field, _drf_serializers.BaseSerializer, _drf_serializers.Serializer)
)
