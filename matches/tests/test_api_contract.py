"""The matches endpoints' schema is the contract: every answer has exactly the fields
its documented shape (`matches.api_types`) declares, errors are documented, and limits are in the schema."""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework import serializers
from rest_framework.test import APIClient

from matches import api_types
from matches.models import Match
from matches.tests.conftest import mover

pytestmark = pytest.mark.django_db


def client_for(user: Any | None) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def conforms(data: Any, shape: serializers.Serializer, where: str = "") -> list[str]:
    """Where `data` has a key its shape does not declare, or lacks a required one (recursively)."""
    problems: list[str] = []
    if not isinstance(data, dict):
        return [f"{where}: not an object"]
    fields = shape.fields
    for key in set(data) - set(fields):
        problems.append(f"{where}.{key}: sent but not documented")
    for name, field in fields.items():
        if name not in data:
            if field.required:
                problems.append(f"{where}.{name}: documented as required but not sent")
            continue
        value = data[name]
        if value is None:
            if not field.allow_null:
                problems.append(f"{where}.{name}: null but not nullable")
            continue
        if isinstance(field, serializers.ListSerializer):
            for i, item in enumerate(value):
                problems += conforms(item, field.child, f"{where}.{name}[{i}]")
        elif isinstance(field, serializers.Serializer):
            problems += conforms(value, field, f"{where}.{name}")
    return problems


def test_every_answer_of_a_match_has_exactly_its_documented_fields(
    started: Match, alice: Any, bob: Any
) -> None:
    me, _ = mover(started, alice, bob)
    c = client_for(me)
    base = f"/api/matches/{started.pk}"
    page = c.get("/api/matches/").json()
    assert conforms(page, api_types.MatchPageOut()) == []
    assert conforms(c.get(f"{base}/").json(), api_types.MatchOut()) == []
    assert conforms(c.get(f"{base}/state/").json(), api_types.SnapshotOut()) == []
    assert conforms(c.get(f"{base}/legal-actions/").json(), api_types.LegalActionsOut()) == []
    r = c.post(f"{base}/actions/", {"action": {"type": "add", "n": 1}, "state_version": 0}, format="json")
    assert r.status_code == 200 and conforms(r.json(), api_types.SubmitOut()) == []
    assert conforms(c.get(f"{base}/log/").json(), api_types.MatchLogOut()) == []
    assert conforms(client_for(None).get(f"{base}/state/").json(), api_types.SnapshotOut()) == []
    r = c.post(f"{base}/concede/")
    assert r.status_code == 200 and conforms(r.json(), api_types.MatchOut()) == []
    replay = c.get(f"{base}/replay/").json()
    assert conforms(replay, api_types.ReplayOut()) == []
    assert conforms(client_for(None).get("/api/health/").json(), api_types.HealthOut()) == []


def test_an_error_answer_has_the_documented_error_shape(started: Match, alice: Any) -> None:
    r = client_for(alice).post(
        f"/api/matches/{started.pk}/actions/", {"action": None, "state_version": 0}, format="json"
    )
    assert r.status_code == 400 and conforms(r.json(), api_types.ErrorOut()) == []


@pytest.mark.parametrize("path", ["/api/matches/-1/", "/api/matches/null%2Cnull/", "/api/matches/1/unknown/"])
def test_a_malformed_match_path_is_the_apis_json_404(path: str) -> None:
    r = APIClient().get(path)
    assert r.status_code == 404 and r["Content-Type"].startswith("application/json")
    assert r.json()["code"] == "not_found"


def test_an_id_beyond_the_column_is_a_404_not_a_500(alice: Any) -> None:
    for path in ("/api/matches/180372398512308224000/", "/api/matches/180372398512308224000/concede/"):
        r = client_for(alice).post(path) if path.endswith("concede/") else client_for(alice).get(path)
        assert (r.status_code, r.json()["code"]) == (404, "not_found")


def test_an_empty_status_filter_is_a_400_as_the_enum_says(alice: Any) -> None:
    assert client_for(alice).get("/api/matches/", {"status": ""}).status_code == 400


@pytest.fixture(scope="module")
def schema(django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        return SchemaGenerator().get_schema(request=None, public=True)


def test_the_schema_documents_errors_pages_and_limits(schema: dict[str, Any]) -> None:
    paths = schema["paths"]
    listing = paths["/api/matches/"]["get"]["responses"]
    assert listing["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/MatchPage")
    for path, ops in paths.items():
        if not path.startswith("/api/matches/{match_id}/"):
            continue
        for method, op in ops.items():
            codes = set(op["responses"])
            assert {"403", "404"} <= codes, (method, path, codes)
            if method == "post":
                assert {"401", "409"} <= codes, (method, path, codes)
            for code in codes - {"200", "201", "204"}:
                ref = op["responses"][code]["content"]["application/json"]["schema"]["$ref"]
                assert ref.endswith("/ApiError"), (path, code)
    comps = schema["components"]["schemas"]
    assert set(comps["MatchSummary"]["properties"]) == set(api_types.MatchOut().fields)
    assert comps["ActionSubmitInputRequest"]["properties"]["action"]["type"] == "object"
    state = {p["name"]: p for p in paths["/api/matches/{match_id}/state/"]["get"]["parameters"]}
    assert state["log_since"]["schema"]["minimum"] == 0
    log = {p["name"]: p for p in paths["/api/matches/{match_id}/log/"]["get"]["parameters"]}
    assert log["since"]["schema"]["minimum"] == 0
