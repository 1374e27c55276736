"""Accounts API: sign up, exchange a password for an API token, revoke it, and who am I.

Pages log in with Django's session views (frontend); scripts and the SPA-style pages may use tokens.
Password guessing is limited by django-axes (settings: LOGIN_FAILURE_LIMIT, LOGIN_COOLOFF_MINUTES),
which watches every `authenticate()`; sign-up is throttled per client address (`SignupRateThrottle`,
also used by the sign-up page). Tokens expire after API_TOKEN_TTL (config.authentication).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, get_user_model, logout, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle
from rest_framework.views import APIView

from config.authentication import token_for
from config.errors import ApplicationError
from config.throttling import LoginRateThrottle

User = get_user_model()


class SignupInputSerializer(serializers.Serializer):
    username = serializers.RegexField(
        r"^[\w.@+-]+\Z", max_length=150, help_text=_("Letters, digits and @/./+/-/_ only")
    )
    password = serializers.CharField(write_only=True, style={"input_type": "password"})
    email = serializers.EmailField(required=False, allow_blank=True)


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(write_only=True, style={"input_type": "password"})


class UserOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField()
    is_staff = serializers.BooleanField()


TokenOutput = inline_serializer(
    "AuthToken", {"token": serializers.CharField(), "user": UserOutputSerializer()}
)


class SignupRateThrottle(SimpleRateThrottle):
    """Sign-ups per client address (rate `signup` of DEFAULT_THROTTLE_RATES), signed in or not."""

    scope = "signup"

    def get_rate(self) -> str | None:
        # Read when asked, not at import, so the rate follows the settings in force.
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


def _user_dict(user: Any) -> dict[str, Any]:
    return {"id": user.pk, "username": user.get_username(), "email": user.email, "is_staff": user.is_staff}


@transaction.atomic
def user_signup(*, username: str, password: str, email: str = "") -> tuple[Any, Token]:
    """Create a user whose password passes Django's validators, and their API token."""
    if User.objects.filter(username__iexact=username).exists():
        raise ApplicationError(
            "username_taken",
            gettext("The username '%(username)s' is taken.") % {"username": username},
            extra={"field": "username"},
        )
    candidate = User(username=username, email=email)
    try:
        password_validation.validate_password(password, user=candidate)
    except ValidationError as exc:
        raise ApplicationError(
            "weak_password", " ".join(exc.messages), extra={"field": "password", "problems": exc.messages}
        ) from exc
    try:
        user = User.objects.create_user(username=username, email=email, password=password)
    except IntegrityError as exc:  # a concurrent signup took the name
        raise ApplicationError(
            "username_taken", gettext("The username '%(username)s' is taken.") % {"username": username}
        ) from exc
    return user, token_for(user)


class SignupApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []
    throttle_classes = [AnonRateThrottle, SignupRateThrottle]

    @extend_schema(
        request=SignupInputSerializer, responses={201: TokenOutput}, summary=_("Create an account")
    )
    def post(self, request: Request) -> Response:
        body = SignupInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        user, token = user_signup(**body.validated_data)
        return Response({"token": token.key, "user": _user_dict(user)}, status=status.HTTP_201_CREATED)


class TokenApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []
    throttle_classes = [LoginRateThrottle]  # without Redis: lets logins through (the lockouts still hold)

    @extend_schema(
        request=CredentialsSerializer, responses=TokenOutput, summary=_("Username + password -> API token")
    )
    def post(self, request: Request) -> Response:
        body = CredentialsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        user = authenticate(request, **body.validated_data)
        if getattr(request, "axes_locked_out", False):
            # django-axes refused this username or address: too many wrong passwords (right ones too).
            raise ApplicationError(
                "too_many_attempts",
                gettext("Too many failed logins for this account or address: try again later."),
                status_code=status.HTTP_429_TOO_MANY_REQUESTS,
            )
        if user is None:
            raise ApplicationError(
                "bad_credentials",
                gettext("Wrong username or password."),
                status_code=status.HTTP_400_BAD_REQUEST,
            )
        token = token_for(user)
        return Response({"token": token.key, "user": _user_dict(user)})


class LogoutApi(APIView):
    """Revokes the caller's API token (every client using it must log in again); ends a session too."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={204: None},
        summary=_("Revoke my API token (and end my session)"),
        description=_(
            "Deletes the caller's API token, so requests with it get 401 from now on; a "
            "session-authenticated caller is also logged out. `POST /api/auth/token/` issues a new token."
        ),
    )
    def post(self, request: Request) -> Response:
        Token.objects.filter(user=request.user).delete()
        if request.auth is None:  # signed in by session cookie
            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=UserOutputSerializer, summary=_("The logged-in user"))
    def get(self, request: Request) -> Response:
        return Response(UserOutputSerializer(_user_dict(request.user)).data)
