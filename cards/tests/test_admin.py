"""The staff admin: readable lists and forms, consistency errors on the right field, history."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from cards.admin import arrows_compass_html
from cards.models import Card, Faction, Keyword

# DEPLOY_DAMAGE in plain words (cards.describe)
DEPLOY_DAMAGE_WORDS = (
    "Deploying: when this unit enters the battlefield, deal 1000 damage to an enemy unit you choose."
)

pytestmark = pytest.mark.django_db


def test_compass_lights_exactly_the_card_arrows():
    html = str(arrows_compass_html(["N", "SE"]))
    assert html.count("background:#c0392b") == 2
    assert 'title="N">↑' in html and 'title="SE">↘' in html
    assert 'title="S">·' in html
    assert 'aria-label="N SE"' in html


def test_card_list_shows_columns_and_compass(small_set, admin_client, django_assert_max_num_queries):
    with django_assert_max_num_queries(12):  # session, user, counts, the page, filter choices
        response = admin_client.get("/admin/cards/card/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Ember Warlord" in html and "5000 / 6000" in html
    assert "Power / Health" in html and 'aria-label="N NE S NW"' in html
    for filter_title in ("By faction", "By card type", "By command cost", "By keywords", "By legendary"):
        assert filter_title in html


def test_card_list_filters_by_keyword_and_faction(small_set, admin_client):
    marking = Keyword.objects.get(code="marking")
    tide = Faction.objects.get(slug="tide")
    html = admin_client.get(
        f"/admin/cards/card/?keywords__id__exact={marking.pk}&faction__id__exact={tide.pk}"
    ).content
    assert b"Tide Archer" in html and b"Tide Phalanx" not in html


def test_admin_search_understands_the_query_language(small_set, admin_client):
    html = admin_client.get("/admin/cards/card/", {"q": "f:tide pow>=3.5"}).content.decode()
    assert "Tide Phalanx" in html and "Tide Archer" not in html


def test_admin_search_falls_back_to_words_on_a_malformed_query(small_set, admin_client):
    response = admin_client.get("/admin/cards/card/", {"q": "scout xyz:1"}, follow=True)
    html = response.content.decode()
    assert "unknown search key &#x27;xyz&#x27; at position 6" in html
    assert response.status_code == 200


def test_change_form_shows_abilities_in_plain_words(small_set, admin_client):
    card = Card.objects.get(name="Ember Warlord")
    html = admin_client.get(f"/admin/cards/card/{card.pk}/change/").content.decode()
    assert DEPLOY_DAMAGE_WORDS in html
    assert "Abilities in plain words" in html


def _post_data(**overrides):
    ember = Faction.objects.get(slug="ember")
    data = {
        "name_en": "Admin Card",  # the translated fields come per language (modeltranslation)
        "name_th": "",
        "name_zh_hans": "",
        "slug": "admin-card",
        "faction": ember.pk,
        "card_type": "unit",
        "command_cost": 2,
        "energy_cost": 0,
        "power": 2000,
        "health": 2000,
        "arrows": ["N"],
        "event_type": "",
        "rules_text_en": "",
        "rules_text_th": "",
        "rules_text_zh_hans": "",
        "abilities": "[]",
        "flavor_text_en": "",
        "flavor_text_th": "",
        "flavor_text_zh_hans": "",
    }
    data.update(overrides)
    return data


def test_admin_refuses_a_card_with_a_trigger_but_not_its_keyword(small_set, admin_client):
    ability = {"trigger": "spoil", "effects": [{"effect": "draw", "target": "controller", "count": 1}]}
    response = admin_client.post("/admin/cards/card/add/", _post_data(abilities=json.dumps([ability])))
    assert response.status_code == 200, "the form is shown again"
    errors = response.context["adminform"].form.errors
    assert errors["keywords"] == ["an ability with trigger 'spoil' needs the keyword 'spoil'"]
    assert not Card.objects.filter(name="Admin Card").exists()


def test_admin_refuses_an_event_with_power(small_set, admin_client):
    response = admin_client.post(
        "/admin/cards/card/add/", _post_data(card_type="event", event_type="planning", arrows=[], health="")
    )
    errors = response.context["adminform"].form.errors
    assert errors["power"] == ["an event has no Power (C-1.3)"]
    assert not Card.objects.filter(name="Admin Card").exists()


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            [
                "abilities[0]: unknown trigger 'sneeze' (known: deploying, casting, ",
                "abilities[0]: effects[0]: effect 'draw' needs 'count' (a whole number from 1 to 10)",
            ],
        ),
        (
            "th",
            [
                "abilities[0]: ไม่รู้จัก trigger 'sneeze' (ที่รู้จัก: deploying, casting, ",
                "abilities[0]: effects[0]: effect 'draw' ต้องมี 'count' (จำนวนเต็มตั้งแต่ 1 ถึง 10)",
            ],
        ),
        (
            "zh-hans",
            [
                "abilities[0]：未知的触发时机“sneeze”（已知：deploying, casting, ",
                "abilities[0]：effects[0]：效果“draw”需要“count”（1 到 10 之间的整数）",
            ],
        ),
    ],
)
def test_admin_words_an_abilitys_problems_in_the_staff_members_language(
    small_set, admin_client, language, expected
):
    """The ability vocabulary's checks (engine messages) in the admin's language; the data's names as written."""
    admin_client.cookies["django_language"] = language
    ability = {"trigger": "sneeze", "effects": [{"effect": "draw", "target": "controller"}]}
    with translation.override(None):  # the request's language does not stay active for the tests after
        response = admin_client.post("/admin/cards/card/add/", _post_data(abilities=json.dumps([ability])))
    assert response.status_code == 200, "the form is shown again"
    errors = response.context["adminform"].form.errors["abilities"]
    assert len(errors) == 2, errors
    assert errors[0].startswith(expected[0]) and errors[1] == expected[1], errors
    assert not Card.objects.filter(name="Admin Card").exists()


def test_admin_forms_show_their_help_texts_in_the_staff_members_language(small_set, admin_client):
    admin_client.cookies["django_language"] = "th"
    with translation.override(None):  # the request's language does not stay active for the tests after
        html = admin_client.get("/admin/cards/card/add/").content.decode()
    assert "ค่า Command จ่ายด้วย Command Point (C-1.1)" in html
    assert "เฉพาะยูนิต: ทิศทางการโจมตี โดย N หันไปทางฝ่ายตรงข้าม (C-1.2)" in html  # the admin form's own
    assert "Command cost, paid in Command Points" not in html
    code_help = Keyword._meta.get_field("code").help_text  # a help text with a value filled in
    with translation.override("zh-hans"):
        assert str(code_help).startswith("以下之一：range_attack, deploying, ")
    assert str(code_help).startswith("One of: range_attack, deploying, ")


def test_admin_saves_a_consistent_card_and_records_history(small_set, admin_client):
    spoil = Keyword.objects.get(code="spoil")
    ability = {"trigger": "spoil", "effects": [{"effect": "draw", "target": "controller", "count": 1}]}
    data = _post_data(abilities=json.dumps([ability]), keywords=[spoil.pk])
    response = admin_client.post("/admin/cards/card/add/", data)
    assert response.status_code == 302, response.context["adminform"].form.errors if response.context else ""
    card = Card.objects.get(name="Admin Card")
    response = admin_client.post(f"/admin/cards/card/{card.pk}/change/", data | {"power": 3000})
    assert response.status_code == 302
    assert [h.power for h in card.history.all()][0] == 3000
    assert 2000 in [h.power for h in card.history.all()]
    history = admin_client.get(f"/admin/cards/card/{card.pk}/history/")
    assert history.status_code == 200
    assert b"Admin Card" in history.content


def test_admin_edits_each_language_and_history_keeps_every_translation(small_set, admin_client):
    data = _post_data()
    assert admin_client.post("/admin/cards/card/add/", data).status_code == 302
    card = Card.objects.get(name="Admin Card")
    form = admin_client.get(f"/admin/cards/card/{card.pk}/change/").content.decode()
    assert 'name="name_th"' in form and 'name="name_zh_hans"' in form
    thai = data | {"name_th": "การ์ดของแอดมิน", "rules_text_zh_hans": "管理员的卡牌。"}
    assert admin_client.post(f"/admin/cards/card/{card.pk}/change/", thai).status_code == 302
    card.refresh_from_db()
    assert (card.name_en, card.name_th, card.name_zh_hans) == ("Admin Card", "การ์ดของแอดมิน", None)
    latest = card.history.first()
    assert (latest.name_en, latest.name_th, latest.rules_text_zh_hans) == (
        "Admin Card",
        "การ์ดของแอดมิน",
        "管理员的卡牌。",
    )
    assert card.history.last().name_th is None, "the first version had no Thai name"


def test_a_save_while_thai_is_active_keeps_english_in_the_source_column(small_set):
    card = Card.objects.get(name="Ember Warlord")
    with translation.override("th"):
        card.name_th = "ขุนศึกเพลิง"
        card.save()
        assert card.name == "ขุนศึกเพลิง", "a Thai reader reads the Thai name"
    # The plain column (read by joins from other tables) and the history's stay English.
    assert (
        Card.objects.rewrite(False).filter(pk=card.pk).values_list("name", flat=True).get() == "Ember Warlord"
    )
    assert card.history.values_list("name", flat=True).first() == "Ember Warlord"


def test_faction_and_keyword_admins(small_set, admin_client):
    html = admin_client.get("/admin/cards/faction/").content.decode()
    assert "Ember Legion" in html and "#c0392b" in html
    html = admin_client.get("/admin/cards/keyword/").content.decode()
    assert "Range Attack" in html
    response = admin_client.post(
        "/admin/cards/keyword/add/", {"code": "flying", "name_en": "Flying", "reminder_text_en": "Flies."}
    )
    assert "code" in response.context["adminform"].form.errors


def test_non_staff_cannot_open_the_admin(small_set, client, django_user_model):
    user = django_user_model.objects.create_user(username="player", password="pw")
    client.force_login(user)
    response = client.get("/admin/cards/card/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_system_checks_stay_clean_after_the_admin_forms_were_opened(small_set, admin_client):
    from django.core import checks

    card = Card.objects.get(name="Ember Warlord")
    assert admin_client.get(f"/admin/cards/card/{card.pk}/change/").status_code == 200
    assert admin_client.get("/admin/boardgame/area/add/").status_code == 200
    assert [e.id for e in checks.run_checks() if e.level >= checks.ERROR] == []


def _staff_curator(django_user_model):
    """A staff member who may read and change cards and factions (no superuser)."""
    from django.contrib.auth.models import Permission

    user = django_user_model.objects.create_user(username="curator_th", password="pw", is_staff=True)
    user.user_permissions.set(
        Permission.objects.filter(
            content_type__app_label="cards", codename__in=("view_card", "change_card", "view_faction")
        )
    )
    return user


def test_the_card_change_form_reads_in_thai_for_a_thai_staff_member(small_set, client, django_user_model):
    """Fieldset titles, the abilities note, the read-only rows' labels and the factions' Cards column in the
    staff member's language (the language cookie), none of their English left."""
    import re

    client.force_login(_staff_curator(django_user_model))
    client.cookies["django_language"] = "th"
    card = Card.objects.get(name="Ember Scout")
    assert card.abilities == []  # shows the "no abilities" note
    with translation.override(None):  # the request's language does not stay active for the tests after
        html = client.get(f"/admin/cards/card/{card.pk}/change/").content.decode()
        factions = client.get("/admin/cards/faction/").content.decode()
    headings = re.findall(r'<h2 id="fieldset-[^"]*" class="fieldset-heading">([^<]*)</h2>', html)
    assert headings == ["ยูนิต", "อีเวนท์", "ข้อความและความสามารถ", "ภาพการ์ด", "ประวัติ"]
    assert "ความสามารถเขียนเป็น JSON ตามคำศัพท์ใน docs/card-abilities.md" in html  # the fieldset's description
    assert "<em>ไม่มีความสามารถ</em>" in html
    assert "ลูกศร (เข็มทิศ)" in html and "ความสามารถเป็นภาษาธรรมดา" in html
    for english in (
        "Text and abilities",
        "History",
        "Abilities are JSON",
        "no abilities",
        "Abilities in plain words",
        "Arrows (compass)",
        "Art as the pages show it",
    ):
        assert english not in html, english
    assert ">Unit<" not in html and ">Event<" not in html
    column = re.search(r'<th scope="col" class="[^"]*column-card_count[^"]*">(.*?)</th>', factions, re.S)
    assert column is not None and "การ์ด" in column.group(1) and "Cards" not in column.group(1)


def _column_heads(html: str) -> dict[str, str]:
    """A change list's column titles by field name (without the sort controls)."""
    import re

    heads = re.findall(r'<th scope="col" class="[^"]*column-([a-z_]+)[^"]*">(.*?)</th>', html, re.S)
    return {
        name: re.sub(
            r"<[^>]+>|\s+", " ", re.sub(r'<div class="sortoptions">.*?</div>', "", text, flags=re.S)
        ).strip()
        for name, text in heads
    }


def test_the_card_list_and_form_name_the_fields_in_thai(small_set, client, django_user_model):
    """Field and model names (the models' verbose names) in the staff member's language: the sidebar, the
    change list's columns and filters, the change form's labels, modeltranslation's per-language fields."""
    import re

    client.force_login(_staff_curator(django_user_model))
    client.cookies["django_language"] = "th"
    card = Card.objects.get(name="Ember Scout")
    with translation.override(None):
        listing = client.get("/admin/cards/card/").content.decode()
        form = client.get(f"/admin/cards/card/{card.pk}/change/").content.decode()
    heads = _column_heads(listing)
    assert heads["faction"] == "สังกัด" and heads["card_type"] == "ประเภทการ์ด"
    assert heads["command_cost"] == "ค่า Command" and heads["energy_cost"] == "ค่า Energy"
    assert "โดย ประเภทการ์ด" in listing and "โดย ค่า Command" in listing  # Django's "By %(filter_title)s"
    assert '<a href="/admin/cards/card/" aria-current="page">การ์ด</a>' in listing  # the sidebar's model entry
    assert re.search(r'<a href="/admin/cards/" class="section"[^>]*>การ์ด</a>', listing)  # the app's heading
    for label in (
        "ชื่อ [th]:",
        "ชื่อ [en]:",
        "ประเภทการ์ด:",
        "ค่า Command:",
        "ค่า Power:",
        "ข้อความบรรยาย [zh-hans]:",
    ):
        assert label in form, label
    for english in ("Command cost", "Card type", "By card type", "Flavor text", "Name [th]", ">Cards<"):
        assert english not in listing + form, english


def test_the_card_form_names_the_fields_in_chinese(small_set, client, django_user_model):
    client.force_login(_staff_curator(django_user_model))
    client.cookies["django_language"] = "zh-hans"
    card = Card.objects.get(name="Ember Scout")
    with translation.override(None):
        form = client.get(f"/admin/cards/card/{card.pk}/change/").content.decode()
    for label in ("名称 [zh-hans]:", "阵营:", "卡牌类型:", "指挥费用:", "攻击力:", "生命值:", "关键词:"):
        assert label in form, label
    assert "Command cost" not in form and "Card type" not in form
