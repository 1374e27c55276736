"""API serializers of a match's settings, generated from the engines' dataclasses (one source).

`rules_config` of each game kind is the fields of its adapter's `config_classes()` (the engine's
`RulesConfig`, plus the play layer's own keys such as Westeros' `WesterosSeating`); `time_control` is
the fields of `matches.clocks.TimeControl`. Each field's type comes from its default, its bounds from
its metadata (`min`/`max`, `choices`, `length`/`item_min`/`item_max`, `api: False` for fields players
may not set) and its help text from the comment above it in the source. Adding a field to an engine's
RulesConfig therefore adds it to the API, its validation and the OpenAPI schema at once.

Types are strict, as the engines' `from_dict` checks them: an integer is a JSON integer (never a
bool, a string or a float such as 1e400), a boolean is `true`/`false`; unknown keys are refused.
"""

from __future__ import annotations

import functools
import re
from dataclasses import MISSING, Field, fields
from typing import Any, TypeAlias, TypedDict, cast

from django.utils.translation import gettext
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from matches.clocks import TimeControl
from matches.games.registry import game_kinds, get_game
from matches.jsontypes import JSONObject
from matches.kit.compiled import source_of

# Any: DRF's fields differ in all four type parameters (value, data, representation, instance) and the
# stubs' Field is invariant in them, so a mapping of mixed fields can only name them as Field of Any.
APIField: TypeAlias = "serializers.Field[Any, Any, Any, Any]"


class _CommonOptions(TypedDict):
    required: bool
    help_text: str


class _Bounds(TypedDict, total=False):
    min_value: int
    max_value: int


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer only: "6", 6.0, true and 1e400 are refused (DRF's IntegerField would coerce some)."""

    default_error_messages = {"invalid": "An integer is required (not a string, a boolean or a float)."}

    def to_internal_value(self, data: object) -> int:
        if not isinstance(data, int) or isinstance(data, bool):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class StrictBooleanField(serializers.BooleanField):
    """A JSON boolean only: "yes", 1 and "true" are refused."""

    default_error_messages = {"invalid": "Must be true or false."}

    def to_internal_value(self, data: object) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class ClosedSerializer(serializers.Serializer[object]):
    """A serializer of an object whose keys are exactly its fields: an unknown key is a 400 naming it."""

    def to_internal_value(self, data: object) -> JSONObject:
        if isinstance(data, dict):
            unknown = sorted(str(k) for k in set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({k: [gettext("Unknown field.")] for k in unknown})
        validated: JSONObject = super().to_internal_value(data)
        return validated


@functools.cache
def _field_comments(cls: type) -> dict[str, str]:
    """The comment lines right above each field of a dataclass, joined (the field's documentation); read
    from the ``.py`` file when the engine is compiled (docs/speed.md)."""
    try:
        lines = source_of(cls).splitlines()
    except (OSError, TypeError):
        return {}
    out: dict[str, str] = {}
    comment: list[str] = []
    for line in lines:
        text = line.strip()
        if text.startswith("#"):
            comment.append(text.lstrip("#").strip())
            continue
        found = re.match(r"(\w+)\s*:", text)
        if found and comment:
            out[found.group(1)] = " ".join(comment)
        comment = []
    return out


def _serializer_field(cls: type, f: Field[object]) -> APIField:
    """The DRF field of one dataclass field: its type from the default, its bounds from its metadata."""
    meta = f.metadata
    default = f.default if f.default is not MISSING else None
    help_text = _field_comments(cls).get(f.name) or str(meta.get("rule", ""))
    if default is not None:
        help_text = f"{help_text} Default: {default!r}.".strip()
    common: _CommonOptions = {"required": False, "help_text": help_text}
    if "length" in meta:
        return serializers.ListField(
            child=StrictIntegerField(min_value=meta["item_min"], max_value=meta["item_max"]),
            min_length=meta["length"],
            max_length=meta["length"],
            allow_null=True,
            **common,
        )
    if isinstance(default, bool):
        return StrictBooleanField(**common)
    if isinstance(default, int) or meta.get("null"):
        bounds: _Bounds = {}  # a bound left out: unbounded (DRF's default of None)
        if meta.get("min") is not None:
            bounds["min_value"] = meta["min"]
        if meta.get("max") is not None:
            bounds["max_value"] = meta["max"]
        return StrictIntegerField(**bounds, allow_null=bool(meta.get("null")), **common)
    if "choices" in meta:
        return serializers.ChoiceField(choices=list(meta["choices"]), allow_blank=default == "", **common)
    raise TypeError(f"{cls.__name__}.{f.name}: no API field for its type; give it bounds metadata")


def fields_of(*classes: type) -> dict[str, APIField]:
    """The API fields of the settable (`api` not False) fields of these dataclasses, in their order."""
    out: dict[str, APIField] = {}
    for cls in classes:
        for f in fields(cls):
            if f.metadata.get("api", True):
                out[f.name] = _serializer_field(cls, f)
    return out


class TimeControlSerializer(ClosedSerializer):
    """A time control: Fischer `{initial_s, increment_s}` or per move `{per_move_s[, bank_s]}`."""

    def get_fields(self) -> dict[str, APIField]:
        return fields_of(TimeControl)

    def validate(self, attrs: JSONObject) -> JSONObject:
        try:
            TimeControl.from_json(attrs)
        except ValueError as exc:
            raise serializers.ValidationError(str(exc)) from None
        return attrs


@functools.cache
def rules_config_serializer(kind: str) -> type[serializers.Serializer[object]] | None:
    """The rules_config serializer of a game kind (None: a free-form object its adapter checks)."""
    game = get_game(kind)
    classes = game.config_classes()
    if not classes:
        return None

    def validate(self: serializers.Serializer[object], attrs: JSONObject) -> JSONObject:
        try:
            game.check_config(attrs)  # cross-field rules (e.g. a house of that player count)
        except ValueError as exc:
            raise serializers.ValidationError(str(exc)) from None
        return attrs

    name = "".join(part.title() for part in kind.split("_")) + "RulesConfig"
    doc = f"Rules settings of a {game.label} match: every key optional (the default applies)."
    namespace = {**fields_of(*classes), "validate": validate, "__doc__": doc, "__module__": __name__}
    # A class built at run time from the dataclasses' fields: its metaclass returns a Serializer subclass.
    return cast(
        "type[serializers.Serializer[object]]",
        serializers.SerializerMetaclass(name, (ClosedSerializer,), namespace),
    )


def validate_rules_config(kind: str, data: object) -> JSONObject:
    """The rules_config of a `kind` match checked by its generated serializer (ValidationError naming keys)."""
    if not isinstance(data, dict):
        raise serializers.ValidationError(gettext("rules_config must be an object of setting: value."))
    serializer_class = rules_config_serializer(kind)
    if serializer_class is None:
        return dict(data)
    s = serializer_class(data=data)
    s.is_valid(raise_exception=True)
    return dict(s.validated_data)


def _documented_rules_configs() -> list[type[serializers.Serializer[object]]]:
    return [c for c in (rules_config_serializer(k) for k in game_kinds()) if c is not None]


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="RulesConfig",
        serializers=_documented_rules_configs,
        resource_type_field_name=None,
    )
)
class RulesConfigField(serializers.Field[JSONObject, object, JSONObject, object]):
    """The rules_config object, passed as parsed; the create serializer checks it against the match
    kind's generated serializer (`validate_rules_config`), which names the offending key."""

    default_error_messages = {"invalid": "rules_config must be an object of setting: value."}

    def to_internal_value(self, data: object) -> JSONObject:
        if not isinstance(data, dict):
            self.fail("invalid")
        return data

    def to_representation(self, value: JSONObject) -> JSONObject:
        return value
