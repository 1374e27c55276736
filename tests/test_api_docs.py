"""/api/docs/ and /api/redoc/ work offline: Swagger UI and ReDoc come from drf-spectacular-sidecar."""

from __future__ import annotations

import re

import pytest
from django.test import Client

# An address on another host: a scheme or a protocol-relative `//host`, in src/href or a quoted string.
EXTERNAL = re.compile(
    r"""(?:src|href|url)\s*=\s*["']?(?:https?:)?//|["'](?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}""", re.I
)


@pytest.mark.parametrize("path", ["/api/docs/", "/api/redoc/", "/api/docs/?script="])
def test_docs_pages_reference_no_other_host(path):
    response = Client().get(path)
    assert response.status_code == 200
    text = response.content.decode()
    assert not EXTERNAL.search(text), EXTERNAL.search(text)
    assert "cdn.jsdelivr.net" not in text and "fonts.googleapis" not in text


def test_the_docs_load_their_scripts_from_the_sidecar_package():
    html = Client().get("/api/docs/").content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    assert "<script>" not in html  # the page's own script is served from ?script (CSP-friendly)
    redoc = Client().get("/api/redoc/").content.decode()
    assert "/static/drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js" in redoc
