"""Accounts API: sign up with Django's password validators, token for username+password, me."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def signup(**body):
    return APIClient().post("/api/auth/signup/", body, format="json")


def test_signup_creates_the_user_and_returns_a_working_token():
    response = signup(username="carol", password="a-long-Secret-42", email="c@example.com")
    assert response.status_code == 201
    data = response.json()
    assert data["user"]["username"] == "carol" and data["user"]["is_staff"] is False
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {data['token']}")
    me = client.get("/api/auth/me/")
    assert me.status_code == 200 and me.json()["email"] == "c@example.com"


def test_email_is_optional():
    assert signup(username="dave", password="a-long-Secret-42").status_code == 201


@pytest.mark.parametrize("password", ["short", "12345678901", "password123", "erinerin1"])
def test_weak_passwords_are_refused_by_djangos_validators(password):
    response = signup(username="erinerin", password=password)
    assert response.status_code == 400 and response.json()["code"] == "weak_password"
    assert response.json()["extra"]["problems"]
    assert not get_user_model().objects.filter(username="erinerin").exists()


def test_taken_username_is_refused_case_insensitively():
    signup(username="frank", password="a-long-Secret-42")
    response = signup(username="FRANK", password="a-long-Secret-42")
    assert response.status_code == 400 and response.json()["code"] == "username_taken"


def test_bad_username_is_refused():
    assert signup(username="has space", password="a-long-Secret-42").status_code == 400


def test_token_for_username_and_password():
    get_user_model().objects.create_user("gina", password="a-long-Secret-42")
    client = APIClient()
    good = client.post(
        "/api/auth/token/", {"username": "gina", "password": "a-long-Secret-42"}, format="json"
    )
    assert good.status_code == 200 and len(good.json()["token"]) == 40
    again = client.post(
        "/api/auth/token/", {"username": "gina", "password": "a-long-Secret-42"}, format="json"
    )
    assert again.json()["token"] == good.json()["token"]
    bad = client.post("/api/auth/token/", {"username": "gina", "password": "nope"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_credentials"


def test_me_needs_authentication():
    assert APIClient().get("/api/auth/me/").status_code in (401, 403)


def test_session_login_works_for_me():
    user = get_user_model().objects.create_user("hank", password="a-long-Secret-42")
    client = APIClient()
    client.force_login(user)
    assert client.get("/api/auth/me/").json()["username"] == "hank"
