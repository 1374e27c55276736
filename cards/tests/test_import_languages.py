"""Card-file import errors, shown to staff in the admin, in the staff member's language; the positions and
field names stay as the file writes them, and the import still reads the records in English."""

from __future__ import annotations

import pytest
from django.utils import translation

from cards.card_files import cards_import
from cards.models import Card
from cards.tests.conftest import card_file


def _bad_file() -> dict:
    data = card_file([])
    data["format"] = "something"
    data["keywords"].append({"code": "flying", "name": "Flying", "reminder_text": "Flies."})
    data["cards"] = ["not a card"]
    return data


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            [
                "format: must be 'commandeer-cards'",
                "cards[0]: card: a card must be a JSON object",
                "keywords[",
                "unknown keyword code 'flying'",
            ],
        ),
        (
            "th",
            [
                "format: ต้องเป็น 'commandeer-cards'",
                "cards[0]: card: การ์ดต้องเป็นออบเจ็กต์ JSON",
                "keywords[",
                "ไม่รู้จักรหัสคีย์เวิร์ด 'flying'",
            ],
        ),
        (
            "zh-hans",
            [
                "format: 必须是“commandeer-cards”",
                "cards[0]: card: 卡牌必须是 JSON 对象",
                "keywords[",
                "未知的关键词代码“flying”",
            ],
        ),
    ],
)
def test_import_errors_are_worded_in_the_staff_members_language(language, expected):
    with translation.override(language):
        report = cards_import(_bad_file())
        summary = report.summary()
    text = "\n".join(report.errors)
    assert all(part in text for part in expected), text
    summaries = {
        "en": "3 error(s); nothing was imported",
        "th": "มีข้อผิดพลาด 3 รายการ ไม่ได้นำเข้าข้อมูลใดเลย",
        "zh-hans": "有 3 处错误；未导入任何内容",
    }
    assert len(report.errors) == 3 and summary == summaries[language]
    assert not Card.objects.exists()
    assert translation.get_language() == "en"  # the import's English reading does not leak out


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            [
                "power: a unit needs Power (C-1.1)",
                "unique: only events can be Unique; units are Legendary (C-1.4)",
            ],
        ),
        ("th", ["power: ยูนิตต้องมีค่า Power (C-1.1)", "unique: เฉพาะอีเวนท์เท่านั้นที่เป็น Unique ได้"]),
        ("zh-hans", ["power: 单位必须有攻击力（C-1.1）", "unique: 只有事件可以是唯一；单位用传奇（C-1.4）"]),
    ],
)
def test_a_cards_field_errors_are_worded_in_the_staff_members_language(language, expected):
    """The card's consistency rules (cards.models.card_field_errors, C-1) in the staff member's language."""
    from cards.tests.conftest import unit

    data = card_file([unit(power=None, unique=True)])
    with translation.override(language):
        report = cards_import(data)
    text = "\n".join(report.errors)
    assert all(part in text for part in expected), text
    assert not Card.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "abilities: abilities[0]: effects[0].amount: a positive multiple of 500 (e.g. 1000)"),
        ("th", "abilities: abilities[0]: effects[0].amount: จำนวนบวกที่เป็นพหุคูณของ 500 (เช่น 1000)"),
        ("zh-hans", "abilities: abilities[0]：effects[0].amount：500 的正整数倍（例如 1000）"),
    ],
)
def test_an_abilitys_problems_in_a_card_file_are_worded_in_the_staff_members_language(language, expected):
    """The ability vocabulary's checks (engine messages) as the import reports them, in the reader's language."""
    from cards.tests.conftest import unit

    bad = {
        "trigger": "deploying",
        "effects": [{"effect": "deal_damage", "target": "chosen_enemy_unit", "amount": 250}],
    }
    data = card_file([unit(keywords=["deploying"], abilities=[bad])])
    with translation.override(language):
        report = cards_import(data)
    assert len(report.errors) == 1 and report.errors[0].endswith(expected), report.errors
    assert not Card.objects.exists()
