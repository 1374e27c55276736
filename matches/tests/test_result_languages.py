"""Results, seat names and the Westeros table's event list in the reader's language: the reason labels and
texts, "X won — why", a seat's house and marks ("Stark (alice, AI, left)"), the lost-on-time text."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from boardgame import dataset
from matches import messages, selectors
from matches.models import Seat
from matches.services import submit
from matches.services.lobby import match_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice: Any) -> tuple[Any, list[Seat]]:
    """alice plays Stark at a three-house table against AI houses (the Westeros data loaded)."""
    dataset.game_data_import(data=dataset.bundled_data())
    match = match_create(
        user=alice,
        kind="westeros",
        vs_ai=True,
        ai_agent="hard",
        rules_config={"player_count": 3, "house": "stark"},
    )
    return match, list(Seat.objects.filter(match=match).select_related("user").order_by("position"))


def test_a_seats_house_and_marks_read_in_the_language(table: Any) -> None:
    for language, alice_left, ai in (
        ("en", "Stark (alice, AI, left)", "AI (hard)"),
        ("th", "Stark (alice, AI, ออกจากเกมแล้ว)", "AI (ยาก)"),
        ("zh-hans", "史塔克（alice、AI、已离开）", "AI（困难）"),
    ):
        assert messages.seat_name("Stark (alice, AI, left)", language) == alice_left
        assert messages.seat_name("AI (hard)", language) == ai
        assert messages.seat_name("alice", language) == "alice"  # a username stays as it is


def test_westeros_results_name_the_house_and_the_reason_in_the_language(table: Any) -> None:
    """W-18: "Stark (alice) won (seven castles)" and the banner's "Seven castles held (W-18.1)"."""
    match, seats = table
    match.result = {"winner": 0, "reason": "seven_castles", "text": "Stark wins"}
    expected = {
        "en": ("Stark (alice) won (seven castles)", "Seven castles held (W-18.1)"),
        "th": ("Stark (alice) ชนะ (ครอบครองเจ็ดปราสาท)", "ครอบครองปราสาทครบ 7 แห่ง (W-18.1)"),
        "zh-hans": ("史塔克（alice）获胜（七座城堡）", "占据七座城堡（W-18.1）"),
    }
    for language, (line, reason) in expected.items():
        with translation.override(language):
            assert selectors.result_line(match, seats) == line
            assert selectors.match_summary(match, you=None)["result_reason"] == reason


def test_lost_on_time_names_the_house_in_the_language(table: Any) -> None:
    """The play layer's own result (stored as a message): the house by its translated name."""
    match, seats = table
    ai = next(s for s in seats if s.is_ai)
    outcome = submit.lost_on_time(0, ai)
    match.result = {"winner": 0, "reason": "timeout", "text": outcome.text, "message": outcome.message}
    house_zh = {"lannister": "兰尼斯特", "baratheon": "拜拉席恩", "greyjoy": "葛雷乔伊"}[ai.house]
    with translation.override("zh-hans"):
        text = str(selectors.reader_result(match.result, match.kind)["text"])  # type: ignore[index]
    assert text.startswith(f"{house_zh}（AI、困难）"), text
    with translation.override("th"):
        assert "(AI, ยาก)" in str(selectors.reader_result(match.result, match.kind)["text"])  # type: ignore[index]


@pytest.mark.django_db
def test_a_stored_winner_name_reads_in_the_language() -> None:
    """The result keeps the winning seat's title as stored ("AI (normal)"); each reader gets its AI level in
    their own language, on the match, its summary and its replay (all through `reader_result`)."""
    stored = {"text": "alice conceded.", "reason": "concede", "winner": 1, "winner_name": "AI (normal)"}
    with translation.override("zh-hans"):
        assert selectors.reader_result(stored)["winner_name"] == "AI（普通）"  # type: ignore[index]
    with translation.override("th"):
        assert selectors.reader_result(stored)["winner_name"] == "AI (ปกติ)"  # type: ignore[index]
    with translation.override("en"):
        assert selectors.reader_result(stored)["winner_name"] == "AI (normal)"  # type: ignore[index]
