"""/api/docs/ and /api/redoc/ work offline: Swagger UI and ReDoc come from drf-spectacular-sidecar."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

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


def _descriptions(client: Client) -> tuple[str, str, str]:
    """A serializer field's help text, a model field's help text and a shared error's description, as the
    schema the docs pages load gives them to this client."""
    with translation.override(None):  # the request's language does not stay active for the tests after
        spec = client.get("/api/schema/?format=json").json()
    schemas = spec["components"]["schemas"]
    return (
        schemas["ApiError"]["properties"]["message"]["description"],
        schemas["Faction"]["properties"]["color"]["description"],
        spec["paths"]["/api/cards/"]["post"]["responses"]["401"]["description"],
    )


@pytest.mark.django_db
def test_the_schema_the_docs_show_is_written_in_the_readers_language():
    """ReDoc and Swagger UI fetch /api/schema/ with the reader's cookie and Accept-Language: the schema is
    built per request in that language (no copy of one language is kept for another)."""
    english = (
        "What is wrong, naming the field or parameter",
        "Hex colour for card frames, e.g. #c0392b",
        "Missing, invalid or expired credentials.",
    )
    thai = (
        "สิ่งที่ผิดพลาด โดยระบุชื่อฟิลด์หรือพารามิเตอร์",
        "สีกรอบการ์ดแบบเลขฐานสิบหก เช่น #c0392b",
        "ไม่มีข้อมูลยืนยันตัวตน หรือข้อมูลนั้นไม่ถูกต้องหรือหมดอายุ",
    )
    assert _descriptions(Client()) == english
    assert _descriptions(Client(headers={"accept-language": "th"})) == thai
    cookie = Client(headers={"accept-language": "en"})
    cookie.cookies["django_language"] = "th"  # the switcher's cookie wins over the browser's language
    assert _descriptions(cookie) == thai
    chinese = _descriptions(Client(headers={"accept-language": "zh-CN"}))
    assert (
        chinese[0] == "出错的原因，并指明相关字段或参数" and chinese[1] == "卡框的十六进制颜色，例如 #c0392b"
    )
    assert _descriptions(Client()) == english  # asked again in English after the others: still English
    with translation.override(None):
        response = Client(headers={"accept-language": "th"}).get("/api/schema/?format=json")
    assert "Accept-Language" in response["Vary"] and "Cookie" in response["Vary"]  # caches keep them apart


def _operation_texts(client: Client) -> tuple[str, str, str]:
    """An operation's summary, its description, and a parameter's description (a bound filled in), as the
    schema the docs pages load gives them to this client."""
    with translation.override(None):
        spec = client.get("/api/schema/?format=json").json()
    cards = spec["paths"]["/api/cards/"]["get"]
    public = spec["paths"]["/api/decks/public/"]["get"]
    page_size = next(p for p in public["parameters"] if p["name"] == "page_size")
    return cards["summary"], cards["description"], page_size["description"]


@pytest.mark.django_db
def test_operation_summaries_and_parameters_are_written_in_the_readers_language():
    """extend_schema's summaries and descriptions and OpenApiParameter's descriptions are lazy: the schema
    built for a Thai or Chinese reader words them in that language, bounds filled in."""
    english = (
        "List and search cards",
        "Cards: read for everyone, write for staff with the same consistency rules as the admin (C-1).",
        "Decks a page (default 24, at most 60)",
    )
    assert _operation_texts(Client()) == english
    assert _operation_texts(Client(headers={"accept-language": "th"})) == (
        "รายการและค้นหาการ์ด",
        "การ์ด: ทุกคนอ่านได้ ทีมงานแก้ไขได้ โดยใช้กฎความสอดคล้องเดียวกับหน้าผู้ดูแล (C-1)",
        "จำนวนเด็คต่อหน้า (ค่าเริ่มต้น 24 สูงสุด 60)",
    )
    summary, _, page_size = _operation_texts(Client(headers={"accept-language": "zh-CN"}))
    assert summary == "列出与搜索卡牌" and page_size == "每页卡组数（默认 24，最多 60）"
    assert _operation_texts(Client()) == english
