"""Hostile input gets a clear 4xx in the API's error shape, never a 500 or an HTML page.

The JSON parser (config/parsers.py) bounds depth and size and refuses non-finite numbers and characters
PostgreSQL cannot store; the middleware (config/middleware.py) does the same for paths and query
strings and keeps every /api/ error JSON.
"""

from __future__ import annotations

import io
import json

import pytest
from django.test import override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from config.errors import RequestTooLarge
from config.parsers import MAX_JSON_DEPTH, BoundedJSONParser, check_value, loads

pytestmark = pytest.mark.django_db
VALIDATE = "/api/decks/validate/"


def post_raw(body: str | bytes, content_type: str = "application/json", client: APIClient | None = None):
    return (client or APIClient()).generic("POST", VALIDATE, body, content_type=content_type)


def assert_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert set(body) == {"code", "message", "extra"} and body["code"] == code, body
    return body


# --- bodies ---------------------------------------------------------------------------------------------


def test_json_nested_1000_deep_is_a_400_not_a_recursion_500():
    body = assert_error(post_raw("[" * 1000 + "]" * 1000), 400, "json_too_deep")
    assert str(MAX_JSON_DEPTH) in body["message"]


def test_json_just_over_the_depth_bound_is_refused_and_at_the_bound_is_read():
    at_bound = {"cards": [], "x": json.loads("[" * (MAX_JSON_DEPTH - 1) + "]" * (MAX_JSON_DEPTH - 1))}
    assert post_raw(json.dumps(at_bound)).status_code == 200
    over = {"cards": [], "x": json.loads("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH)}
    body = assert_error(post_raw(json.dumps(over)), 400, "json_too_deep")
    assert body["extra"]["field"].startswith("x[0]")


@pytest.mark.parametrize("number", ["1e400", "-1e400", "NaN", "Infinity", "-Infinity"])
def test_non_finite_numbers_are_a_400(number):
    body = assert_error(post_raw('{"cards": [], "faction": ' + number + "}"), 400, "non_finite_number")
    assert number.lstrip("-") in body["message"]


@pytest.mark.parametrize(
    ("document", "field"),
    [
        ('{"cards": [{"card": "a\\u0000b", "count": 1}]}', "cards[0].card"),
        ('{"cards": [], "faction": "\\ud800"}', "faction"),
        ('{"cards": [], "x": {"k\\u0000": 1}}', "x"),
    ],
)
def test_unstorable_characters_in_a_body_are_a_400_naming_the_field(document, field):
    body = assert_error(post_raw(document), 400, "invalid_character")
    assert body["extra"]["field"] == field and field in body["message"]


def test_malformed_json_is_a_400_with_its_position():
    body = assert_error(post_raw('{"cards": [}'), 400, "malformed_json")
    assert "line 1 column" in body["message"]


def test_bytes_that_are_not_utf8_are_a_400():
    assert_error(post_raw(b'{"cards": [], "faction": "\xed\xa0\x80"}'), 400, "malformed_json")


def test_a_form_encoded_body_is_415_not_read_as_something_else():
    body = assert_error(
        post_raw("cards=1", "application/x-www-form-urlencoded"), 415, "unsupported_media_type"
    )
    assert "application/x-www-form-urlencoded" in body["message"]


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_a_body_over_the_upload_limit_is_413_in_the_error_shape():
    body = assert_error(post_raw('{"cards": [], "notes": "' + "x" * 2000 + '"}'), 413, "request_too_large")
    assert body["extra"] == {"limit": 1000}


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_the_parser_bounds_a_body_whose_length_was_not_declared():
    stream = io.BytesIO(b'{"x": "' + b"y" * 5000 + b'"}')
    with pytest.raises(RequestTooLarge) as info:
        BoundedJSONParser().parse(stream, "application/json", {})
    assert info.value.status_code == 413 and info.value.extra == {"limit": 1000}


@override_settings(DATA_UPLOAD_MAX_NUMBER_FIELDS=10)
def test_a_form_body_with_too_many_fields_is_a_json_4xx_even_through_the_csrf_check(django_user_model):
    """Once Django's HTML 400: the CSRF check of a session user reads the form through the API's parsers."""
    user = django_user_model.objects.create_user("csrf", password="pw-csrf-123")
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    client.cookies["csrftoken"] = "a" * 32  # the CSRF check reads the form for its token
    form = "&".join(f"f{i}=1" for i in range(20))
    response = client.generic("POST", "/api/decks/", form, content_type="application/x-www-form-urlencoded")
    assert_error(response, 415, "unsupported_media_type")


def test_check_value_walks_any_depth_without_recursion():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(Exception, match="nested more than"):
        check_value(deep)
    assert loads(b'{"a": [1, 2.5, "x", null, true]}') == {"a": [1, 2.5, "x", None, True]}


# --- paths and query strings ----------------------------------------------------------------------------


def test_nul_in_a_query_parameter_is_a_400_naming_it():
    body = assert_error(APIClient().get("/api/decks/?public=1&search=a%00b"), 400, "invalid_character")
    assert body["extra"] == {"parameter": "search"} and "search" in body["message"]


def test_nul_in_an_api_path_parameter_is_a_400_naming_it():
    body = assert_error(APIClient().get("/api/cards/a%00b/"), 400, "invalid_character")
    assert body["extra"] == {"parameter": "slug"}


def test_nul_in_a_page_path_is_a_400_page_not_a_500():
    response = APIClient().get("/decks/shared/a%00b/")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("exc_name", ["TooManyFieldsSent", "RequestDataTooBig"])
def test_django_refusals_raised_in_a_view_answer_the_error_shape(exc_name):
    from django.core import exceptions as django_exceptions

    from config.errors import api_exception_handler

    response = api_exception_handler(getattr(django_exceptions, exc_name)("x"), {})
    expected = {
        "TooManyFieldsSent": (400, "too_many_fields"),
        "RequestDataTooBig": (413, "request_too_large"),
    }
    assert (response.status_code, response.data["code"]) == expected[exc_name]


def test_a_query_string_with_too_many_fields_is_a_json_400():
    query = "&".join(f"f{i}=1" for i in range(1001))
    body = assert_error(APIClient().get(f"/api/decks/?public=1&{query}"), 400, "too_many_fields")
    assert body["extra"] == {"limit": 1000}


# --- every /api/ error is JSON ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/decks/null%2Cnull/", "/api/nothing-here/", "/api/decks/1/nope/"])
def test_unknown_api_addresses_are_json_404(path):
    body = assert_error(APIClient().get(path), 404, "not_found")
    assert "Nothing is found at /api/" in body["message"]


def test_a_method_an_endpoint_does_not_take_is_a_json_405():
    assert_error(APIClient().delete(VALIDATE), 405, "method_not_allowed")


def test_pages_outside_the_api_keep_html_404():
    response = APIClient().get("/no-such-page/")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")


def test_a_plain_django_405_under_the_api_becomes_json_and_keeps_allow():
    from django.http import HttpResponseNotAllowed
    from django.test import RequestFactory

    from config.middleware import InputGuardMiddleware

    middleware = InputGuardMiddleware(lambda request: HttpResponseNotAllowed(["GET"]))
    response = middleware(RequestFactory().post("/api/anything/"))
    assert response.status_code == 405 and response["Allow"] == "GET"
    assert json.loads(response.content)["code"] == "method_not_allowed"


def test_the_docs_pages_are_still_html():
    response = APIClient().get(reverse("api-docs"))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize(
    "body",
    [
        '{"kind": "commandeer", "time_control": {"per_move_s": 1e400}}',
        '{"kind": "westeros", "rules_config": {"player_count": 1e400}}',
    ],
)
def test_1e400_in_match_settings_is_a_400_before_any_view_logic(body, django_user_model):
    client = APIClient()
    client.force_authenticate(django_user_model.objects.create_user("m", password="pw-m-123456"))
    response = client.generic("POST", "/api/matches/", body, content_type="application/json")
    assert_error(response, 400, "non_finite_number")


def test_a_session_cookie_carrying_nul_is_ignored_not_a_500():
    """Django decodes a quoted cookie's octal escape `\\000` to NUL; the session lookup failed on it."""
    from django.test import Client

    response = Client().get("/api/auth/me/", HTTP_COOKIE='sessionid="aaaaaaaaaaaa\\000b"')
    assert response.status_code in (401, 403) and response.json()["code"] == "not_authenticated"
    assert Client().get("/", HTTP_COOKIE='sessionid="aaaaaaaaaaaa\\000b"').status_code == 200


@override_settings(DEBUG=True)
def test_api_404_is_json_even_with_debug_on_never_the_url_list():
    body = assert_error(APIClient().get("/api/decks/null%2Cnull/"), 404, "not_found")
    assert "urlpatterns" not in str(body)


def test_an_html_500_under_the_api_becomes_json_when_debug_is_off():
    from django.http import HttpResponseServerError
    from django.test import RequestFactory

    from config.middleware import InputGuardMiddleware

    middleware = InputGuardMiddleware(lambda request: HttpResponseServerError("<h1>Server Error (500)</h1>"))
    response = middleware(RequestFactory().get("/api/anything/"))
    assert response.status_code == 500 and json.loads(response.content)["code"] == "server_error"
    assert middleware(RequestFactory().get("/page/")).content == b"<h1>Server Error (500)</h1>"
