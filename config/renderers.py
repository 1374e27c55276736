"""The API's JSON renderer: orjson (through drf-orjson-renderer), with DRF's encoder for the rest.

The same JSON DRF's `JSONRenderer` writes with its defaults (compact, UTF-8, `Z` for UTC datetimes),
at a fraction of the CPU: a player's view is about 10 KB of JSON on every submit and state read. One
difference in bytes, not in value: DRF escapes U+2028/U+2029 (for pasting into old JavaScript), orjson
writes them as they are, which JSON allows and `JSON.parse` reads alike.
Types orjson does not know (lazy translations, Decimal, timedelta, querysets...) go through DRF's
`JSONEncoder.default`, which raises for what it cannot encode (the library's own default would write
`null`); a document orjson refuses as a whole (an integer beyond 64 bits) is rendered by DRF's renderer.
"""

from __future__ import annotations

from typing import Any

import orjson
from drf_orjson_renderer.renderers import ORJSONRenderer
from rest_framework import renderers
from rest_framework.utils.encoders import JSONEncoder

_drf_encoder = JSONEncoder()


class JSONRenderer(ORJSONRenderer):
    options = orjson.OPT_NON_STR_KEYS | orjson.OPT_UTC_Z
    default = staticmethod(_drf_encoder.default)

    def render(self, data: Any, media_type: str | None = None, renderer_context: Any = None) -> bytes:
        try:
            return super().render(data, media_type, renderer_context)
        except orjson.JSONEncodeError:
            return renderers.JSONRenderer().render(data, media_type, renderer_context)
