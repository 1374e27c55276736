"""Languages: resolution (user > cookie > Accept-Language), <html lang>, the switcher, the settings page and
API, bad codes (400 or ignored, never a 500), the JavaScript catalogue, and the catalogues' completeness."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import polib
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from config.messages import compile_with_polib, po_files
from frontend import language as site_language
from frontend import preferences
from frontend.models import UserSettings

User = get_user_model()
COOKIE = settings.LANGUAGE_COOKIE_NAME
ROOT = Path(settings.BASE_DIR)


@pytest.fixture(scope="module", autouse=True)
def _compiled_catalogues() -> None:
    """The .mo files (`make messages` builds them; here too when a test runs without make)."""
    stale = [
        p
        for p in po_files()
        if not p.with_suffix(".mo").exists() or p.with_suffix(".mo").stat().st_mtime < p.stat().st_mtime
    ]
    if stale:
        compile_with_polib(stale)
        translation.trans_real._translations = {}  # type: ignore[attr-defined]
        translation.trans_real._default = None  # type: ignore[attr-defined]
    site_language._catalogs.clear()


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


@pytest.fixture
def user(db: Any) -> Any:
    return User.objects.create_user("somchai", password="pw-somchai-12345")


def html_lang(response: Any) -> str:
    match = re.search(r'<html lang="([^"]+)"', response.content.decode())
    assert match, "no <html lang>"
    return match.group(1)


# ---------- resolution: user > cookie > Accept-Language ----------


@pytest.mark.django_db
def test_english_without_any_preference() -> None:
    response = Client().get("/accounts/login/")
    assert html_lang(response) == "en"
    assert "Log in" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("header", "expected", "word"),
    [
        ("th", "th", "เข้าสู่ระบบ"),
        ("zh-CN,zh;q=0.9", "zh-hans", "登录"),
        ("zh-Hans", "zh-hans", "登录"),
        ("de, th;q=0.5", "th", "เข้าสู่ระบบ"),
    ],
)
def test_accept_language_chooses_the_language(header: str, expected: str, word: str) -> None:
    response = Client(headers={"accept-language": header}).get("/accounts/login/")
    assert html_lang(response) == expected
    assert word in response.content.decode()
    assert response["Content-Language"] == expected


@pytest.mark.django_db
def test_the_cookie_beats_accept_language() -> None:
    client = Client(headers={"accept-language": "th"})
    client.cookies[COOKIE] = "zh-hans"
    assert html_lang(client.get("/accounts/login/")) == "zh-hans"


def test_the_users_setting_beats_the_cookie_and_accept_language(user: Any) -> None:
    preferences.settings_update(user=user, language="th")
    client = Client(headers={"accept-language": "zh-CN"})
    client.cookies[COOKIE] = "zh-hans"
    client.force_login(user)
    response = client.get("/accounts/settings/")
    assert html_lang(response) == "th"
    assert "การตั้งค่า" in response.content.decode()


def test_a_user_without_a_saved_language_follows_the_cookie(user: Any) -> None:
    client = Client(headers={"accept-language": "th"})
    client.cookies[COOKIE] = "zh-hans"
    client.force_login(user)
    assert html_lang(client.get("/accounts/settings/")) == "zh-hans"


@pytest.mark.django_db
@pytest.mark.parametrize("bad", ["xx", "de", "th-" + "x" * 500, "<script>", "", "zh_hant"])
def test_an_unknown_cookie_is_ignored(bad: str) -> None:
    client = Client(headers={"accept-language": "th"})
    client.cookies[COOKIE] = bad
    response = client.get("/accounts/login/")
    assert response.status_code == 200
    assert html_lang(response) == "th"


@pytest.mark.django_db
def test_a_malformed_accept_language_falls_back_to_english() -> None:
    response = Client(headers={"accept-language": ";;;q=x, *, ===" + "a" * 300}).get("/")
    assert response.status_code == 200
    assert html_lang(response) == "en"


# ---------- the switcher (POST /i18n/setlang/) ----------


@pytest.mark.django_db
def test_every_page_has_the_switcher_with_each_language_named_in_itself() -> None:
    body = Client().get("/accounts/login/").content.decode()
    assert 'action="/i18n/setlang/"' in body
    for code, name in (("en", "English"), ("th", "ไทย"), ("zh-hans", "简体中文")):
        assert f'name="language" value="{code}" lang="{code}"' in body
        assert f">{name}</button>" in body
    assert 'value="en" lang="en" data-testid="lang-en" aria-current="true"' in body


@pytest.mark.django_db
def test_the_switcher_sets_the_cookie_and_goes_back() -> None:
    client = Client()
    response = client.post("/i18n/setlang/", {"language": "th", "next": "/accounts/login/?next=/decks/"})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/decks/"
    assert response.cookies[COOKIE].value == "th"
    follow = client.get(response["Location"])
    assert html_lang(follow) == "th"
    assert html_lang(client.get("/accounts/signup/")) == "th"


@pytest.mark.django_db
def test_the_switcher_never_redirects_off_the_site() -> None:
    response = Client().post("/i18n/setlang/", {"language": "th", "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_the_switcher_saves_a_signed_in_users_language(user: Any) -> None:
    client = Client()
    client.force_login(user)
    client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/"})
    assert UserSettings.objects.get(user=user).language == "zh-hans"
    # a new browser (no cookie) of the same user gets it too
    other = Client(headers={"accept-language": "th"})
    other.force_login(user)
    assert html_lang(other.get("/accounts/settings/")) == "zh-hans"


@pytest.mark.django_db
@pytest.mark.parametrize("bad", ["xx", "", "th" * 40, "ZH-HANT"])
def test_the_switcher_answers_an_unknown_code_with_a_400_naming_the_codes(bad: str) -> None:
    response = Client().post("/i18n/setlang/", {"language": bad})
    assert response.status_code == 400
    body = response.content.decode()
    assert "en, th, zh-hans" in body
    assert COOKIE not in response.cookies
    as_json = Client().post("/i18n/setlang/", {"language": bad}, headers={"accept": "application/json"})
    assert as_json.status_code == 400
    assert as_json.json()["code"] == "invalid_language"
    assert as_json.json()["extra"] == {"allowed": ["en", "th", "zh-hans"]}


@pytest.mark.django_db
def test_the_switcher_needs_the_csrf_token() -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post("/i18n/setlang/", {"language": "th"})
    assert response.status_code == 403
    assert COOKIE not in response.cookies


@pytest.mark.django_db
def test_the_switcher_is_post_only() -> None:
    assert Client().get("/i18n/setlang/?language=th").status_code == 405


# ---------- the settings page and the API ----------


def test_the_settings_page_saves_the_language(user: Any) -> None:
    client = Client()
    client.force_login(user)
    page = client.get("/accounts/settings/").content.decode()
    assert 'name="language"' in page
    response = client.post(
        "/accounts/settings/",
        {"language": "th", "email": "", "sound": "on", "low_time_warning": "on"},
        follow=True,
    )
    assert UserSettings.objects.get(user=user).language == "th"
    assert html_lang(response) == "th"
    assert "บันทึกการตั้งค่าแล้ว" in response.content.decode()  # "Settings saved." in the new language
    assert response.redirect_chain and client.cookies[COOKIE].value == "th"


def test_the_settings_page_refuses_an_unknown_language(user: Any) -> None:
    client = Client()
    client.force_login(user)
    response = client.post("/accounts/settings/", {"language": "xx", "email": ""})
    assert response.status_code == 200  # the form again, with its error
    assert 'class="field-errors"' in response.content.decode()
    assert not UserSettings.objects.filter(user=user, language="xx").exists()


def test_the_api_reads_and_writes_the_language(user: Any) -> None:
    api = APIClient()
    api.force_authenticate(user)
    assert api.get("/api/me/settings/").json()["language"] == ""
    response = api.patch("/api/me/settings/", {"language": "zh-hans"}, format="json")
    assert response.status_code == 200
    assert response.json()["language"] == "zh-hans"
    assert UserSettings.objects.get(user=user).language == "zh-hans"
    assert api.patch("/api/me/settings/", {"language": ""}, format="json").json()["language"] == ""


@pytest.mark.parametrize("bad", ["xx", "zh-hant", 7, None, ["th"], "t" * 300])
def test_the_api_answers_an_unknown_language_with_a_400_naming_the_codes(user: Any, bad: Any) -> None:
    api = APIClient()
    api.force_authenticate(user)
    response = api.patch("/api/me/settings/", {"language": bad}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"code", "message", "extra"}
    assert "en, th, zh-hans" in str(body)
    assert UserSettings.objects.filter(user=user).exclude(language="").count() == 0


def test_settings_update_refuses_an_unknown_language(user: Any) -> None:
    with pytest.raises(ValueError, match="en, th, zh-hans"):
        preferences.settings_update(user=user, language="klingon")


def test_a_stored_unknown_language_is_ignored(user: Any) -> None:
    """A code that is no longer a language of the site (removed from LANGUAGES) is no 500."""
    UserSettings.objects.create(user=user, language="fr")
    client = Client(headers={"accept-language": "th"})
    client.force_login(user)
    response = client.get("/accounts/settings/")
    assert response.status_code == 200
    assert html_lang(response) == "th"


@pytest.mark.django_db
def test_signing_up_keeps_the_language_chosen_before() -> None:
    client = Client()
    client.cookies[COOKIE] = "th"
    response = client.post(
        "/accounts/signup/",
        {"username": "malee", "password1": "a-long-pass-phrase-42", "password2": "a-long-pass-phrase-42"},
    )
    assert response.status_code == 302
    assert UserSettings.objects.get(user__username="malee").language == "th"


# ---------- pages in Thai and Chinese ----------


@pytest.mark.django_db
def test_sign_up_form_errors_are_translated() -> None:
    client = Client(headers={"accept-language": "th"})
    body = client.post(
        "/accounts/signup/", {"username": "x", "password1": "123", "password2": "1234"}
    ).content.decode()
    assert "รหัสผ่านทั้งสองช่องไม่ตรงกัน" in body  # Django's Thai lacks it: frontend/django_strings.py
    zh = Client(headers={"accept-language": "zh-hans"})
    body = zh.post(
        "/accounts/signup/", {"username": "x", "password1": "123", "password2": "1234"}
    ).content.decode()
    assert "两次输入的密码不一致" in body


@pytest.mark.django_db
@pytest.mark.parametrize(("code", "title"), [("th", "ไม่พบหน้านี้"), ("zh-hans", "找不到页面")])
def test_error_pages_are_translated(code: str, title: str) -> None:
    response = Client(headers={"accept-language": code}).get("/no/such/page/")
    assert response.status_code == 404
    assert html_lang(response) == code
    assert title in response.content.decode()


@pytest.mark.django_db
def test_the_csrf_failure_page_is_translated() -> None:
    client = Client(enforce_csrf_checks=True, headers={"accept-language": "zh-hans"})
    response = client.post("/accounts/login/", {"username": "a", "password": "b"})
    assert response.status_code == 403
    assert "此表单已过期" in response.content.decode()


# ---------- the JavaScript catalogue ----------


def test_the_catalogue_is_served_per_language_and_linked_from_every_page(user: Any) -> None:
    client = Client(headers={"accept-language": "th"})
    client.force_login(user)
    body = client.get("/accounts/settings/").content.decode()  # a page with modules of its own
    url = re.search(r'<script src="(/jsi18n/th/\?v=[0-9a-f]{12})"></script>', body)
    assert url, "the page loads no catalogue"
    assert body.index(url.group(1)) < body.index('type="module"')  # before any page module
    response = Client().get(url.group(1))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "immutable" in response["Cache-Control"]
    text = response.content.decode()
    assert "django.gettext" in text or "django.catalog" in text
    assert json.dumps("%(hours)s ชม. %(minutes)s นาที") in text  # the clock's units (frontend's djangojs.po)
    assert Client().get(url.group(1), headers={"if-none-match": response["ETag"]}).status_code == 304
    zh = Client().get("/jsi18n/zh-hans/").content.decode()
    assert json.dumps("%(hours)s小时%(minutes)s分") in zh
    assert Client(headers={"accept-language": "zh-CN"}).get("/jsi18n/").content.decode() == zh


@pytest.mark.django_db
def test_the_catalogue_answers_an_unknown_language_with_a_400() -> None:
    response = Client().get("/jsi18n/xx/")
    assert response.status_code == 400
    assert response.json()["extra"]["allowed"] == ["en", "th", "zh-hans"]


# ---------- the catalogues: complete, not fuzzy, placeholders as in the msgid ----------

PLACEHOLDER = re.compile(r"%\((\w+)\)[sdif]|\{(\w*)\}")


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


def translated_catalogues() -> list[Path]:
    return [p for p in po_files() if p.parts[-3] in ("th", "zh_Hans")]


def test_every_th_and_zh_hans_catalogue_is_there() -> None:
    found = {(p.relative_to(ROOT).parts[0], p.parts[-3]) for p in translated_catalogues()}
    assert {("frontend", "th"), ("frontend", "zh_Hans")} <= found


@pytest.mark.parametrize("path", translated_catalogues(), ids=lambda p: str(p.relative_to(ROOT)))
def test_catalogue_is_complete_and_its_placeholders_match(path: Path) -> None:
    catalogue = polib.pofile(str(path))
    assert not catalogue.metadata_is_fuzzy, f"{path}: the header is marked fuzzy"
    problems = []
    for entry in catalogue:
        if entry.obsolete:
            continue
        where = f"{path.relative_to(ROOT)}:{entry.linenum} {entry.msgid[:60]!r}"
        if "fuzzy" in entry.flags:
            problems.append(f"fuzzy: {where}")
        translations = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        if not translations or any(not text.strip() for text in translations):
            problems.append(f"untranslated: {where}")
            continue
        wanted = placeholders(entry.msgid) | (
            placeholders(entry.msgid_plural) if entry.msgid_plural else set()
        )
        for text in translations:
            if placeholders(text) != wanted:
                problems.append(f"placeholders {sorted(placeholders(text))} != {sorted(wanted)}: {where}")
    assert not problems, "\n".join(problems)


def test_the_completeness_check_finds_each_kind_of_fault(tmp_path: Path) -> None:
    """The check above on a catalogue with one fault of each kind (it must not pass everything)."""
    bad = tmp_path / "th" / "LC_MESSAGES" / "django.po"
    bad.parent.mkdir(parents=True)
    bad.write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Empty"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "Fuzzy"\nmsgstr "ฟัซซี"\n\n'
        'msgid "Hello %(name)s"\nmsgstr "สวัสดี %(nam)s"\n\n'
        'msgid "Fine %(n)s"\nmsgstr "ดี %(n)s"\n',
        encoding="utf-8",
    )
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        with pytest.raises(AssertionError) as failure:
            test_catalogue_is_complete_and_its_placeholders_match(bad)
    finally:
        ROOT = saved
    report = str(failure.value)
    assert "untranslated" in report and "'Empty'" in report
    assert "fuzzy" in report and "'Fuzzy'" in report
    assert "placeholders ['nam'] != ['name']" in report
    assert "Fine" not in report


def test_the_polib_fallback_compiles_what_the_catalogue_says(tmp_path: Path) -> None:
    """`make messages` without msgfmt: the .mo that polib writes gives every translation of the .po."""
    import gettext
    import shutil

    source = next(p for p in translated_catalogues() if p.parts[-3] == "th" and p.name == "django.po")
    copy = tmp_path / "django.po"
    shutil.copy(source, copy)
    compile_with_polib([copy])
    with copy.with_suffix(".mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    entries = [e for e in polib.pofile(str(source)) if not e.obsolete]
    assert entries
    for entry in entries:
        if entry.msgid_plural:
            assert compiled.ngettext(entry.msgid, entry.msgid_plural, 2) == entry.msgstr_plural[0]
        elif entry.msgctxt:
            assert compiled.pgettext(entry.msgctxt, entry.msgid) == entry.msgstr
        else:
            assert compiled.gettext(entry.msgid) == entry.msgstr
