# Two commands: `make run` (everything, on a fresh machine) and `make test` (the whole suite).
SHELL := /bin/bash
# The venv's interpreter: the operating system's Python 3.11+ when it has venv support (Debian and Ubuntu
# build theirs with profile-guided optimisation: about 30% faster than a default pyenv build on a
# pure-Python benchmark on our machine), else python3 from PATH. `make PYTHON=...` chooses another.
PYTHON ?= $(shell for p in /usr/bin/python3 python3; do \
    $$p -c 'import sys, ensurepip, venv; assert sys.version_info >= (3, 11)' 2>/dev/null && { echo $$p; break; }; done)
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
HOST ?= 127.0.0.1
# Development settings (DEBUG on, a development key) only here: every entry point (manage.py, asgi, wsgi,
# celery) defaults to config.settings.prod.
export DJANGO_SETTINGS_MODULE ?= config.settings.dev
export PYTHONFAULTHANDLER ?= 1

.PHONY: run test install messages engines lint format migrate data web worker beat bench screenshots clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e ".[dev]"
	touch $@

install: $(VENV)/.installed messages engines

# Part of `make install`: both rules engines compiled by mypyc into extension modules next to their sources
# (git-ignored; docs/speed.md), Commandeer about 2.3x, Westeros 1.9x as fast as pure Python. About 140 s of CPU on a fresh
# clone (2.5-4 minutes on two shared cores), then only after an engine's source changed (a hash of the sources is stamped into the build and
# checked at import, so an edited engine never runs stale compiled code). Without a C compiler or Python's
# headers (Debian: gcc, python3-dev) nothing is built and the engines run as pure Python, unchanged; a build
# that fails is removed and named in one line, and the engines run as pure Python too. ENGINES_COMPILE=0
# skips the build, ENGINES_PURE=1 also leaves an existing build unused, ENGINES_BUILD_STRICT=1 (CI) makes a
# missing compiler or a failed build fail the install.
engines: $(VENV)/.installed
	@$(BIN)/python -m matches.kit.compiled build

# The translation catalogues' .mo files (build products, git-ignored): Django's compilemessages with GNU
# gettext's msgfmt, else polib (config/messages.py), so a machine without gettext still runs the site.
messages: $(VENV)/.installed
	$(BIN)/python -m config.messages

migrate: install
	$(BIN)/python manage.py migrate --noinput

data: migrate
	$(BIN)/python manage.py load_sample_cards
	$(BIN)/python manage.py load_westeros
	$(BIN)/python manage.py demo_users
	$(BIN)/python manage.py starter_decks
	$(BIN)/python manage.py relog_messages

# The Procfile's web server (ASGI: HTTP + WebSockets), Celery worker and beat scheduler under honcho
# (config/procfile.py): Ctrl-C stops them all; if one dies the others are stopped and one line says
# why. Every process runs with PYTHONFAULTHANDLER=1, so a crash leaves its Python stack in the output.
# Without REDIS_URL the broker is kombu's filesystem transport under var/broker: nothing to install.
run: data
	@echo "Starting the web server on http://$(HOST):$(PORT)/ a Celery worker and its beat — Ctrl-C stops them."
	@WEB_ADDR=$(HOST):$(PORT) $(BIN)/python -m config.procfile Procfile

web: data
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# A worker never runs the beat: start exactly one `make beat` beside any number of workers (with REDIS_URL,
# a second `make beat` waits as a standby and takes over when the first dies).
worker: install
	DEBUG=0 $(BIN)/celery -A config worker -Q celery,ai --loglevel=INFO

beat: install
	DEBUG=0 $(BIN)/celery -A config beat --loglevel=INFO --schedule=var/celerybeat-schedule

# mypy --strict on the whole play layer (matches: the game kinds, services, APIs, the Commandeer engine and the
# AI kit; its tests and migrations are excluded in pyproject.toml), the Westeros engine and the conformance
# suite that binds both engines to the game interface.
TYPED := matches boardgame/engine tests/test_game_conformance.py

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict $(TYPED)

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# `compiled` when `make install` built the engines (and ENGINES_PURE is not set), else `pure`. Read when
# the recipe runs, after `install` has (re)built them.
ENGINES_MODE = $(shell $(BIN)/python -m matches.kit.compiled mode 2>/dev/null || echo pure)
ENGINE_SUITES := matches/engine/tests boardgame/engine/tests matches/kit/tests tests/test_game_conformance.py
# The pure-Python pass when the engines are compiled: same seeds → same games (golden playthroughs, byte
# identity, stored positions and snapshots) and the tests that only run pure (they subclass or replace
# engine code; matches/kit/tests/pure_only.py) — the rest of ENGINE_SUITES ran pure for years.
ENGINE_IDENTITY_SUITES := matches/engine/tests/test_golden.py matches/engine/tests/test_byte_identity.py \
  boardgame/engine/tests/test_golden.py boardgame/engine/tests/test_snapshots.py \
  boardgame/engine/tests/test_storage_format.py matches/kit/tests tests/test_game_conformance.py
# Redis for the browser-test process: REDIS_URL's server, database 6 (the other process keeps its own).
BROWSER_REDIS_URL = $(if $(REDIS_URL),$(shell echo '$(REDIS_URL)' | sed -E 's#/[0-9]*$$##')/6,)

# The whole suite: static checks, then every test (engine, API, Celery/Redis, PostgreSQL, browser), on the
# engines as `make install` left them (compiled when a C compiler is present), then, when compiled, the
# engine suites once more as pure Python. PYTEST_ARGS adds options, e.g. `make test PYTEST_ARGS="-k deck"`.
test: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict $(TYPED)
	$(BIN)/python manage.py makemigrations --check --dry-run --settings=config.settings.test
	@# The browser tests run beside the rest, in a process of their own (Playwright's sync API keeps an
	@# event loop in the thread) with their own test database and Redis database, so both cores work: one
	@# after the other the suite took about 55 minutes on 2 cores. Their output follows the rest's.
	@mkdir -p var; \
	DJANGO_SETTINGS_MODULE=config.settings.test TEST_DATABASE_NAME=test_browser REDIS_URL="$(BROWSER_REDIS_URL)" \
	  $(BIN)/pytest -m browser $(PYTEST_ARGS) > var/browser-tests.log 2>&1 & browser=$$!; \
	DJANGO_SETTINGS_MODULE=config.settings.test ENGINES_EXPECT=$(ENGINES_MODE) $(BIN)/pytest -m "not browser" \
	  $(PYTEST_ARGS); rest=$$?; \
	pure=0; if [ "$(ENGINES_MODE)" = compiled ]; then \
	  echo "== the engines' identity suites and pure-only tests once more as pure Python"; \
	  DJANGO_SETTINGS_MODULE=config.settings.test ENGINES_PURE=1 ENGINES_EXPECT=pure $(BIN)/pytest -m "not browser" \
	    $(ENGINE_IDENTITY_SUITES) $(PYTEST_ARGS) || pure=$$?; \
	  DJANGO_SETTINGS_MODULE=config.settings.test ENGINES_PURE=1 ENGINES_EXPECT=pure $(BIN)/pytest -m pure_only \
	    $(ENGINE_SUITES) $(PYTEST_ARGS) || pure=$$?; fi; \
	wait $$browser; web=$$?; echo "== browser tests (var/browser-tests.log)"; cat var/browser-tests.log; \
	[ $$web -eq 5 ] && web=0; \
	echo "== exit codes: rest $$rest, pure engines $$pure, browser $$web"; \
	[ $$rest -eq 0 ] && [ $$pure -eq 0 ] && [ $$web -eq 0 ]

bench: install
	$(BIN)/python bench/decks.py
	$(BIN)/python bench/commandeer_engine.py
	$(BIN)/python bench/westeros_engine.py

# docs/screenshots/: both game pages and the pages around them at 1400×900 and 390×844, on a throwaway
# stack of its own (SQLite, filesystem broker); needs Debian's chromium.
screenshots: install
	$(BIN)/python docs/screenshots/take.py

# Back to a fresh clone's state, the compiled engines included (the next `make install` builds them again).
clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache
	rm -f matches/engine/*.so boardgame/engine/*.so matches/engine/_compiled.stamp boardgame/engine/_compiled.stamp

# The production topology on this machine (deploy/cluster.py, docs/deploy.md): nginx on CLUSTER_PORT in front
# of two uvicorn processes, a Celery worker per queue (`celery`, `ai`) and one beat, with production settings,
# against DATABASE_URL (PostgreSQL) and REDIS_URL; migrations, data and static files first. Ctrl-C stops all.
CLUSTER_PORT ?= 8080
.PHONY: cluster
cluster: install
	@$(BIN)/python -m deploy.cluster --port $(CLUSTER_PORT)
