"""The OpenAPI schema is the contract: every operation of /api/schema/ is fuzzed through the Django app.

Schemathesis generates requests from the schema (valid and invalid ones) and calls the WSGI app in
process (no server), once anonymous and once as a user with an API token who owns decks and matches.
Every answer must pass `not_a_server_error`, `status_code_conformance` (the status is documented),
`content_type_conformance` and `response_schema_conformance` (the body matches the documented schema).
A request is sent as generated and again with its path parameters pointing at objects that exist (the
user's deck, a public deck's share id, a card, the user's running match), so bodies and queries are also
tried against real objects rather than only answering 404; integer path parameters are also tried
beyond any database integer (2**63, 2**64).

Each operation first runs schemathesis' coverage phase (deterministic boundary and invalid values; about
1,900 requests in all, SCHEMA_FUZZ_COVERAGE=0 skips it), then random examples: SCHEMA_FUZZ_EXAMPLES per
operation (small by default for CI; raise it for a longer run, e.g. SCHEMA_FUZZ_EXAMPLES=200).
SCHEMA_FUZZ_RANDOM=1 draws new examples each run instead of the same derandomized ones.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.generation.drivers import CoverageGenerator
from schemathesis.generation.feedback import NO_FEEDBACK
from schemathesis.generation.modes import GenerationMode
from schemathesis.generation.overrides import Override
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from decks.tests.factories import cards, legal_payload  # noqa: F401 (the card pool fixture)

EXAMPLES = int(os.environ.get("SCHEMA_FUZZ_EXAMPLES", "8"))
COVERAGE = os.environ.get("SCHEMA_FUZZ_COVERAGE", "1") != "0"
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]

app = get_wsgi_application()
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", app)
OPERATIONS = [result.ok() for result in schema.get_all_operations()]
FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=os.environ.get("SCHEMA_FUZZ_RANDOM", "") == "",
    database=None,
)


def _label(operation: Any) -> str:
    return f"{operation.method.upper()} {operation.path}"


@contextmanager
def keep_connection() -> Iterator[None]:
    """Keep the test's database connection across requests, as Django's test client does: the WSGI app
    closes connections when a request starts and finishes, which on PostgreSQL ends the test's
    transaction. (The test client connects the handlers again after each of its requests.)"""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture
def world(cards, django_user_model) -> dict[str, Any]:  # noqa: F811
    """A user with a token, two decks (private and public), a waiting and a running match."""
    from rest_framework.test import APIClient

    from matches.services.lobby import match_create, match_join, match_start

    user = django_user_model.objects.create_user("fuzz", password="pw-fuzz-12345")
    rival = django_user_model.objects.create_user("rival", password="pw-rival-12345")
    token = Token.objects.create(user=user)
    client = APIClient()
    client.force_authenticate(user)
    deck = client.post("/api/decks/", legal_payload("Fuzz deck"), format="json").json()
    public = client.post("/api/decks/", legal_payload("Open deck", visibility="public"), format="json").json()
    rival_client = APIClient()
    rival_client.force_authenticate(rival)
    rival_deck = rival_client.post("/api/decks/", legal_payload("Rival deck"), format="json").json()
    match_create(user=user, kind="commandeer", deck_id=deck["id"])  # one waiting
    running = match_create(user=user, kind="commandeer", deck_id=deck["id"])
    match_join(match_id=running.pk, user=rival, deck_id=rival_deck["id"])
    match_start(match_id=running.pk, user=user)
    return {
        "headers": {"Authorization": f"Token {token.key}"},
        "path": {
            "pk": deck["id"],
            "id": running.pk,
            "match_id": running.pk,
            "share_id": public["share_id"],
            "slug": "ember-scout",
            "code": "range_attack",
            "number": 1,
            "player_count": 3,
            "username": "rival",
            "kind": "commandeer",  # a leaderboard (GET /api/leaderboard/<kind>/)
        },
    }


def _call(case: Any, headers: dict[str, str] | None) -> None:
    # The WSGI call hands the body over as the app wrote it, and the app gzips answers for clients that
    # accept it (GZipMiddleware; tests/test_static_and_compression.py): ask for the plain body here.
    plain = {**(headers or {}), "Accept-Encoding": "identity"}
    case.call_and_validate(headers=plain, checks=CHECKS)


def _with_existing_objects(case: Any, world: dict[str, Any]) -> Any | None:
    """The same request with its path parameters pointing at objects that exist (None: no path params)."""
    params = case.path_parameters or {}
    known = {name: world["path"][name] for name in params if name in world["path"]}
    if not known:
        return None
    if "slug" in known and "faction" in case.operation.path:
        known["slug"] = "fire"
    original = dict(params)
    case.path_parameters = {**original, **known}
    return original


def _run(case: Any, world: dict[str, Any], headers: dict[str, str] | None) -> None:
    _call(case, headers)
    original = _with_existing_objects(case, world)
    if original is not None:
        try:
            _call(case, headers)
        finally:
            case.path_parameters = original


def _coverage_cases(operation: Any) -> Any:
    """Schemathesis' coverage phase for one operation: deterministic boundary and invalid values of every
    parameter and body field (huge and negative numbers, wrong types, missing and extra fields...)."""
    generation = schema.config.generation_for(operation=operation, phase="coverage")
    override = Override(query={}, headers={}, cookies={}, path_parameters={}, body={})
    return CoverageGenerator(
        operation=operation,
        generation_modes=list(GenerationMode),
        generation_config=generation,
        auth_storage=None,
        override=override,
        feedback=NO_FEEDBACK,
    )


def _out_of_range_ids(operation: Any, world: dict[str, Any]) -> list[Any]:
    """Cases whose integer path parameters are beyond any database integer (2**63, 2**64): no schema bound
    makes the coverage phase try them, and they once reached SQLite/PostgreSQL as an OverflowError."""
    params = list(operation.path_parameters)
    integers = [p.name for p in params if p.definition.get("schema", {}).get("type") == "integer"]
    if not integers:
        return []
    others = {p.name: world["path"].get(p.name, "x") for p in params if p.name not in integers}
    return [
        operation.Case(path_parameters={**others, **dict.fromkeys(integers, huge)}) for huge in (2**63, 2**64)
    ]


def _fuzz(operation: Any, world: dict[str, Any], headers: dict[str, str] | None) -> None:
    """One operation: its coverage-phase cases, then valid and invalid requests from Hypothesis (bounded
    examples). Each is sent as generated and, but for anonymous coverage cases (which mostly meet the
    permission check), again with its path parameters pointing at objects the user can reach."""
    cases = st.one_of(
        operation.as_strategy(GenerationMode.POSITIVE), operation.as_strategy(GenerationMode.NEGATIVE)
    )

    @FUZZ_SETTINGS
    @given(case=cases)
    def run(case: Any) -> None:
        _run(case, world, headers)

    with keep_connection():
        for case in _out_of_range_ids(operation, world):
            _call(case, headers)
        if COVERAGE:
            for case in _coverage_cases(operation):
                if headers is None:
                    _call(case, headers)
                else:
                    _run(case, world, headers)
        run()


@pytest.mark.django_db
@pytest.mark.parametrize("operation", OPERATIONS, ids=_label)
def test_every_operation_anonymous(operation, world):
    _fuzz(operation, world, None)


@pytest.mark.django_db
@pytest.mark.parametrize("operation", OPERATIONS, ids=_label)
def test_every_operation_with_a_token(operation, world):
    _fuzz(operation, world, world["headers"])
