"""The language switcher in a real browser: a click on ไทย reloads the page in Thai, the next page stays
Thai; at phone size through the menu; signed in, the choice is saved; the page's scripts read the JS
catalogue (i18n.js) under the site's real CSP."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from config.messages import compile_with_polib, po_files
from frontend.models import UserSettings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module", autouse=True)
def _compiled_catalogues() -> None:
    missing = [p for p in po_files() if not p.with_suffix(".mo").exists()]
    if missing:
        compile_with_polib(missing)


@pytest.fixture
def phone_page(chromium_browser: Any) -> Iterator[Any]:
    context = chromium_browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def test_clicking_thai_reloads_the_page_in_thai_and_it_stays_thai(
    live_server: Any, browser_page: Any
) -> None:
    page, url = browser_page, live_server.url
    page.goto(f"{url}/accounts/login/")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("h1").inner_text() == "Log in"
    page.locator("[data-testid=lang-th]").click()
    page.wait_for_url(f"{url}/accounts/login/")
    assert page.locator("html").get_attribute("lang") == "th"
    assert page.locator("h1").inner_text() == "เข้าสู่ระบบ"
    assert page.locator("[data-testid=lang-th]").get_attribute("aria-current") == "true"
    page.goto(f"{url}/accounts/signup/")  # the next page stays Thai
    assert page.locator("html").get_attribute("lang") == "th"
    assert page.locator("h1").inner_text() == "สร้างบัญชี"
    assert page.title().startswith("สมัครสมาชิก")
    # The served Thai font is the one the page uses for Thai text.
    assert page.evaluate("document.fonts.check('16px \"Noto Sans Thai\"', 'เข้าสู่ระบบ')")
    page.locator("[data-testid=lang-zh-hans]").click()
    page.wait_for_url(f"{url}/accounts/signup/")
    assert page.locator("html").get_attribute("lang") == "zh-hans"
    assert page.locator("h1").inner_text() == "创建账号"


def test_switching_at_phone_size_through_the_menu(live_server: Any, phone_page: Any) -> None:
    page, url = phone_page, live_server.url
    page.goto(f"{url}/accounts/login/")
    switch = page.locator("[data-testid=lang-th]")
    assert not switch.is_visible()  # inside the closed phone menu
    page.locator("label.nav-toggle-label").click()
    switch.click()
    page.wait_for_url(f"{url}/accounts/login/")
    assert page.locator("html").get_attribute("lang") == "th"
    page.locator("label.nav-toggle-label").click()
    assert page.get_by_role("link", name="ตารางอันดับ").is_visible()
    # The page is no wider than the phone: the Thai header wraps instead of overflowing.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_signed_in_users_choice_is_saved_and_follows_them(
    live_server: Any, browser_page: Any, chromium_browser: Any
) -> None:
    user = get_user_model().objects.create_user("nok", password="pw-nok-123456")
    page, url = browser_page, live_server.url
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", "nok")
    page.fill("input[name=password]", "pw-nok-123456")
    page.locator("form.form button[type=submit]").click()
    page.wait_for_load_state()
    page.goto(f"{url}/accounts/settings/")
    page.locator("[data-testid=lang-zh-hans]").click()
    page.wait_for_url(f"{url}/accounts/settings/")
    assert page.locator("h1").inner_text() == "设置"
    assert UserSettings.objects.get(user=user).language == "zh-hans"
    # The settings page's select shows it; the page's script (a module importing i18n.js) ran without error.
    assert page.locator("select[name=language]").input_value() == "zh-hans"
    # settings_page.js says what the browser allows through i18n.js, in Chinese now.
    note = page.locator("[data-testid=notify-permission]")
    assert note.inner_text() in {
        "此浏览器无法显示通知：标签页标题仍会提示轮到你了。",
        "此浏览器屏蔽了本站的通知：请在网站设置中允许（地址栏左侧的图标）。",
        "此浏览器已允许本站的通知。",
        "勾选后，浏览器会请求你的许可。",
    }


def test_the_catalogue_loads_under_the_sites_csp_and_i18n_js_translates(
    live_server: Any, chromium_browser: Any
) -> None:
    """No bypass_csp here: the catalogue is a same-origin script, allowed by the policy."""
    context = chromium_browser.new_context(locale="th-TH")
    page = context.new_page()
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    try:
        page.goto(f"{live_server.url}/accounts/login/")  # Accept-Language: th from the browser's locale
        assert page.locator("html").get_attribute("lang") == "th"
        assert page.evaluate("window.django.jsi18n_initialized") is True  # a classic script: run before load
        # i18n.js's functions over the page's catalogue, in a module like the page scripts.
        result = page.evaluate(
            """async () => {
                const m = await import('/static/frontend/js/i18n.js');
                const clock = await import('/static/frontend/js/clock.js');
                return [m.fmt(m._('%(hours)sh %(minutes)sm'), {hours: 2, minutes: 5}), m.language,
                        clock.clockText(299000), clock.clockText(7500000), m.fmt('%(a)s and %(b)s', {a: 1})];
            }"""
        )
        assert result == ["2 ชม. 5 นาที", "th", "4:59", "2 ชม. 5 นาที", "1 and %(b)s"]
        assert violations == []
    finally:
        context.close()
