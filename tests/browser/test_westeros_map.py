"""The Westeros map explorer and game table in a real browser: every area is drawn, visible and
clickable; the panel follows the click; phone width puts the panel under the map; in a real match
against AI houses orders are placed by clicking the map (W-5.1) and show face up only to their owner
(W-20.1)."""

from __future__ import annotations

from typing import Any

import pytest

from boardgame import dataset as board_dataset

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LABEL_POINT_JS = """(id) => {
  const el = document.querySelector(`svg [data-area-id="${id}"]`);
  if (el.dataset.kind === "port") { const b = el.getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; }
  const p = el.ownerSVGElement.createSVGPoint();
  p.x = Number(el.dataset.x); p.y = Number(el.dataset.y);
  const q = p.matrixTransform(el.getScreenCTM());
  return [q.x, q.y];
}"""


def _load() -> dict[str, Any]:
    data = board_dataset.bundled_data()
    board_dataset.game_data_import(data=data)
    return data


def _click_area(page: Any, area_id: str) -> None:
    """Click an area where a player would: on its name (a port: its middle)."""
    page.locator(f'svg [data-area-id="{area_id}"]').scroll_into_view_if_needed()
    x, y = page.evaluate(LABEL_POINT_JS, area_id)
    page.mouse.click(x, y)


def test_every_area_is_drawn_visible_and_opens_its_panel_w_1_2(live_server: Any, browser_page: Any) -> None:
    data = _load()
    page = browser_page
    page.goto(f"{live_server.url}/westeros/map/")
    page.locator("svg [data-area-id]").first.wait_for()
    areas = data["map"]["areas"]
    assert len(areas) == 58
    assert page.locator("svg [data-area-id]").count() == 58
    name = page.locator("[data-testid=area-name]")
    for area in areas:
        shape = page.locator(f'svg [data-area-id="{area["id"]}"]')
        assert shape.count() == 1, area["id"]
        assert shape.is_visible(), area["id"]
        _click_area(page, area["id"])
        assert name.text_content() == area["name"], area["id"]
        assert page.evaluate("document.body.dataset.selectedArea") == area["id"]
    # The neighbours listed are exactly the adjacent areas (W-10.1).
    _click_area(page, "winterfell")
    listed = page.locator("[data-testid=neighbours] [data-neighbour]").evaluate_all(
        "(ns) => ns.map((n) => n.dataset.neighbour)"
    )
    expected = sorted(
        {b for a, b in data["map"]["adjacency"] if a == "winterfell"}
        | {a for a, b in data["map"]["adjacency"] if b == "winterfell"}
    )
    assert sorted(listed) == expected


def test_areas_answer_the_keyboard(live_server: Any, browser_page: Any) -> None:
    _load()
    page = browser_page
    page.goto(f"{live_server.url}/westeros/map/")
    shape = page.locator('svg [data-area-id="the_shivering_sea"]')
    shape.focus()
    page.keyboard.press("Enter")
    assert page.locator("[data-testid=area-name]").text_content() == "The Shivering Sea"


def test_phone_width_puts_the_panel_under_the_map(live_server: Any, chromium_browser: Any) -> None:
    _load()
    context = chromium_browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{live_server.url}/westeros/map/?players=4")
        board = page.locator("[data-testid=board]").bounding_box()
        panel = page.locator("[data-testid=area-panel]").bounding_box()
        assert board["width"] <= 390 and board["width"] > 300
        assert panel["y"] >= board["y"] + board["height"]
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        _click_area(page, "kings_landing")
        assert page.locator("[data-testid=area-name]").text_content() == "King's Landing"
        assert page.locator("svg [data-overlay=kings_landing] .wx-neutral").count() == 1
    finally:
        context.close()
    assert not errors, errors


def test_game_page_plays_through_the_matches_api_w_5_1_w_20_1(live_server: Any, browser_page: Any) -> None:
    """A game against AI houses (a real match, the real adapter): orders are placed by clicking the map,
    the AI houses' orders stay face down (W-20.1), and the finished match replays frame by frame."""
    from django.contrib.auth.models import User

    from matches.services.lobby import match_create

    _load()
    user = User.objects.create_user("ned", password="pw-ned-12345")
    match = match_create(
        user=user, kind="westeros", vs_ai=True, rules_config={"player_count": 3, "house": "stark"}
    )
    page = browser_page
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "ned")
    page.fill("input[name=password]", "pw-ned-12345")
    page.click("main button[type=submit], main input[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(f"{live_server.url}/westeros/games/{match.pk}/")
    page.locator("[data-testid=map-hint]").wait_for()
    assert "Place an order in each of your areas" in page.locator("#wx-decide-title").text_content()
    assert "Stark" in page.locator("[data-testid=you]").text_content()
    # The AI houses have placed their orders: face down for us (W-20.1), and marked as done.
    assert page.locator('svg .wx-order[data-house="lannister"][data-face=down]').count() > 0
    assert (
        page.locator('[data-testid=deciding] [data-house="lannister"]').get_attribute("data-deciding") == "0"
    )
    version = page.evaluate("document.body.dataset.version")
    _click_area(page, "white_harbor")
    page.locator("[data-testid=area-actions] button", has_text="Support +0").click()
    page.wait_for_function(f"document.body.dataset.version !== '{version}'")
    own = page.locator('svg .wx-order[data-order="white_harbor"]')
    assert own.get_attribute("data-token") == "support"
    from matches.models import Match

    assert Match.objects.get(pk=match.pk).state["orders"]["white_harbor"] == ["stark", "support"]

    # Once the match is over, the replay page steps through it with the same table (as Stark sees it).
    Match.objects.filter(pk=match.pk).update(status="finished")
    page.goto(f"{live_server.url}/westeros/games/{match.pk}/replay/")
    label = page.locator("[data-testid=replay-frame]")
    label.wait_for()
    frames = Match.objects.get(pk=match.pk).state_version + 1
    assert label.text_content() == f"Frame 1 of {frames}"
    assert page.locator('svg .wx-order[data-order="white_harbor"]').count() == 0
    page.click("[data-testid=replay-next]")
    assert label.text_content() == f"Frame 2 of {frames}"
    page.locator("[data-testid=replay-slider]").fill(str(frames - 1))
    assert label.text_content() == f"Frame {frames} of {frames}"
    assert page.locator('svg .wx-order[data-order="white_harbor"]').get_attribute("data-token") == "support"
    assert (
        page.locator('svg .wx-order[data-house="lannister"][data-face=up]').count() == 0
    )  # still secret (W-20.1)
