"""The OpenAPI schema as the API's contract: every operation documents the errors it can answer.

drf-spectacular documents what a view declares; the answers every view shares came from elsewhere and
were missing: a 400 from the parser or the input guard (malformed, too deep or non-finite JSON, NUL in
a path, query or body, too many query fields), a 404 for an unknown path parameter or page, 401/403
from authentication and permissions, 413/415 for bodies, 429 from throttles. `AutoSchema` adds each
that applies to an operation (never replacing what the view documents), all in the one error shape
(config/errors.py), and marks an operation as open to anonymous users whenever its permissions let an
anonymous request through (drf-spectacular only knows DRF's own permission classes, so the card reads
were documented as needing a login).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from drf_spectacular import openapi
from rest_framework import serializers
from rest_framework.request import Request

BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


class ApiErrorSerializer(serializers.Serializer[Any]):
    """Every API error: a stable code, a message naming the problem, and details (config/errors.py)."""

    code = serializers.CharField(
        help_text=_(
            "Stable code, e.g. invalid, not_found, not_authenticated, permission_denied, "
            "invalid_character, json_too_deep, non_finite_number, request_too_large, throttled"
        )
    )
    message = serializers.CharField(help_text=_("What is wrong, naming the field or parameter"))
    extra = serializers.DictField(
        help_text=_(
            "Details, e.g. {'fields': {...}} for invalid fields, {'parameter': 'search'}, {'field': 'cards[0].card'}"
        )
    )

    class Meta:
        ref_name = "ApiError"


GENERIC_ERRORS = {
    "400": _(
        "Input that cannot be used: invalid fields, JSON that is malformed, nested too deep or holds a "
        "non-finite number, a NUL character in the path, query or body, too many query fields."
    ),
    "401": _("Missing, invalid or expired credentials."),
    "403": _("Not allowed for this user (or, for a session, a failed CSRF check)."),
    "404": _("No such object, or not one you may see (an unknown path parameter or page)."),
    "413": _("The body is larger than the upload limit."),
    "415": _("The body is not JSON."),
    "429": _("Too many requests: try again later (Retry-After)."),
}


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's AutoSchema with the errors every operation shares and honest anonymous access."""

    def _anonymous_allowed(self) -> bool:
        """Whether the view's permissions let an anonymous request of this method through."""
        http = HttpRequest()
        http.method = self.method
        request = Request(http)
        request.user = AnonymousUser()
        try:
            return all(p.has_permission(request, self.view) for p in self.view.get_permissions())
        except Exception:  # a permission that needs more than a bare request: it refuses
            return False

    def get_auth(self) -> list[dict[str, Any]]:
        auths: list[dict[str, Any]] = super().get_auth()
        if {} not in auths and self._anonymous_allowed():
            auths.append({})
        return auths

    def _generic_error_codes(self) -> list[str]:
        codes = ["400"]
        authenticated = bool(self.view.get_authenticators())
        if authenticated or not self._anonymous_allowed():
            codes += ["401", "403"]
        query = {p.name for p in self.get_override_parameters() if hasattr(p, "name")}
        paginated = self.method == "GET" and getattr(self.view, "pagination_class", None) is not None
        if "{" in self.path or "page" in query or (paginated and self._is_list_view()):
            codes.append("404")
        if self.method in BODY_METHODS:
            codes += ["413", "415"]
        if self.view.get_throttles():
            codes.append("429")
        return codes

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        for code in self._generic_error_codes():
            if code not in responses:
                response = self._get_response_for_code(  # type: ignore[no-untyped-call]  # untyped in drf-spectacular
                    ApiErrorSerializer, code, direction=direction
                )
                response["description"] = str(GENERIC_ERRORS[code])  # in the language of the request
                responses[code] = response
        return responses

    def _map_serializer_field(self, field: Any, direction: Any, bypass_extensions: bool = False) -> Any:
        """drf-spectacular leaves out a nested list's bounds (`many=True, max_length=...`): add them."""
        schema = super()._map_serializer_field(field, direction, bypass_extensions)  # type: ignore[no-untyped-call]
        if isinstance(field, serializers.ListSerializer) and schema.get("type") == "array":
            # DRF sets both on every ListSerializer; its stubs leave them out
            max_length, min_length = getattr(field, "max_length", None), getattr(field, "min_length", None)
            if max_length is not None:
                schema["maxItems"] = max_length
            if min_length is not None:
                schema["minItems"] = min_length
        return schema
