"""A Commandeer match against the `hard` AI in headless Chromium, to the end, the AI moving in a real Celery
worker (daphne + worker + Redis + PostgreSQL, the stack of `test_westeros_online`); the lobby offers the
three levels with their one-line descriptions and the seat names the level.

The AI's search time is scaled by AI_BUDGET_SCALE (0.05 unless set). Fails (never skips) under `CI` when
Chromium, Redis or PostgreSQL is missing. SCREENSHOT_DIR (optional) keeps pictures of the lobby at desktop
and phone sizes and of the match.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_browser_match import Player, hand_leaks, play_until_over
from tests.browser.test_westeros_online import Stack, in_browser, open_stack

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

SEED = (("-m", "tests.browser.seed_browser"),)  # sample cards, alice/bob/carol with a legal deck each


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    yield from open_stack(tmp_path_factory, "ai-levels", seed=SEED)


def shoot(page: Any, name: str) -> None:
    shots = os.environ.get("SCREENSHOT_DIR")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{shots}/{name}.png", full_page=True)


def test_the_lobby_offers_three_levels_at_desktop_and_phone_sizes(stack: Stack) -> None:
    def body(browser: Any) -> None:
        for width, height in ((1400, 900), (390, 844)):
            player = Player(browser, stack.url, "bob")
            page = player.page
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{stack.url}/play/")
            options = page.locator("[data-testid=ai-level] option")
            assert [o.get_attribute("value") for o in options.all()] == ["easy", "normal", "hard"]
            texts = [o.inner_text() for o in options.all()]
            assert texts[0] == "Easy — for learning the game" and texts[1].startswith("Normal")
            assert re.fullmatch(r"Hard — searches ~[\d.]+ m?s per move", texts[2]), texts[2]
            assert page.locator("[data-testid=ai-level]").input_value() == "normal"  # the default
            box = page.locator("[data-testid=ai-level]").bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width  # fits the screen
            shoot(page, f"lobby-{width}x{height}")
            page.select_option("[data-testid=ai-level]", "hard")
            page.select_option("[data-testid=kind]", "westeros")
            shoot(page, f"lobby-westeros-{width}x{height}")
            player.ctx.close()

    in_browser(body)


def test_a_commandeer_match_against_the_hard_ai_through_celery_to_the_end(stack: Stack) -> None:
    def body(browser: Any) -> None:
        carol = Player(browser, stack.url, "carol")
        c = carol.page
        c.set_default_timeout(20_000)
        c.goto(f"{stack.url}/play/")
        c.select_option("[data-testid=turn-limit]", "2")
        c.select_option("[data-testid=ai-level]", "hard")
        c.click("[data-testid=play-ai]")
        c.wait_for_url(re.compile(r"/play/\d+/$"))
        match_id = int(c.url.rstrip("/").split("/")[-1])
        c.wait_for_selector("[data-testid=board]:visible")
        assert stack.sql(
            "SELECT ai_agent FROM matches_seat WHERE match_id = %s AND position = 1", match_id
        ) == [("hard",)]
        c.wait_for_function("document.body.innerText.includes('AI (hard)')")  # the seat names the level
        started = time.monotonic()
        final = play_until_over([carol], [], limit=800)
        shoot(c, "commandeer-vs-hard-finished")
        c.wait_for_selector("[data-testid=result]:visible")
        sources = dict(
            stack.sql(
                "SELECT source, count(*) FROM matches_actionlog WHERE match_id = %s GROUP BY source", match_id
            )
        )
        assert sources.get("ai", 0) > 0 and sum(sources.values()) == final
        assert "matches.tasks.ai_move" in stack.worker_log()  # the AI moved in the Celery worker
        assert c.locator("[data-testid=log] li.log-ai").count() == sources["ai"]
        assert hand_leaks(carol.messages, 0) == []
        print(f"\nvs hard via Celery: {final} actions {sources} in {time.monotonic() - started:.1f}s")
        carol.ctx.close()

    in_browser(body)
