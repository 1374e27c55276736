"""The API's orjson renderer and the snapshot codec write the JSON the standard library would."""

from __future__ import annotations

import datetime
import decimal
import json

import pytest
from django.utils import timezone
from django.utils.translation import gettext_lazy
from rest_framework.renderers import JSONRenderer as DRFJSONRenderer

from config import jsoncodec
from config.renderers import JSONRenderer

SAMPLE = {
    "id": 7,
    2: "an integer key",
    "now": datetime.datetime(2026, 11, 22, 4, 5, 6, 789000, tzinfo=datetime.UTC),
    "naive": datetime.datetime(2020, 1, 1, 1, 2, 3),
    "day": datetime.date(2020, 1, 2),
    "price": decimal.Decimal("1.50"),
    "lazy": gettext_lazy("Hello"),
    "text": "Ñoño — 象",
    "float": 0.1,
    "delay": datetime.timedelta(seconds=3),
    "nested": [{"x": None, "y": True, "z": (1, 2)}],
}


def test_the_renderer_writes_what_drfs_renderer_writes() -> None:
    assert JSONRenderer().render(SAMPLE) == DRFJSONRenderer().render(SAMPLE)
    assert JSONRenderer().render({"at": timezone.now()}).endswith(b'Z"}')
    separators = {"text": "line\u2028paragraph\u2029end"}  # DRF escapes these two; the value is the same
    assert json.loads(JSONRenderer().render(separators)) == json.loads(DRFJSONRenderer().render(separators))


def test_what_orjson_refuses_is_rendered_by_drf_or_refused_as_drf_would() -> None:
    assert JSONRenderer().render({"big": 2**70}) == b'{"big":1180591620717411303424}'

    class Opaque:
        pass

    with pytest.raises(TypeError, match="not JSON serializable"):
        JSONRenderer().render({"x": Opaque()})


def test_the_codec_round_trips_as_the_standard_library() -> None:
    value = {"a": [1, 2.5, None, True], 3: {"é": "ü"}, "big": 2**70}
    assert json.loads(jsoncodec.dumps(value)) == json.loads(json.dumps(value))
    assert jsoncodec.loads(jsoncodec.dumps(value)) == {
        "a": [1, 2.5, None, True],
        "3": {"é": "ü"},
        "big": 2**70,
    }
    with pytest.raises(ValueError):
        jsoncodec.loads("{not json")
    with pytest.raises(TypeError):
        jsoncodec.dumps({"x": object()})
