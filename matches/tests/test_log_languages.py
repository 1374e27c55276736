"""The match log in each reader's language: stored as messages, rendered per request and per WebSocket in the
viewer's language (two viewers of one match at once), English as it always read, older rows in English."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.utils import translation
from rest_framework.test import APIClient

from boardgame import dataset
from boardgame.models import Area
from cards.models import Card
from config.routing import websocket_urlpatterns
from matches import messages
from matches.consumers import scope_language
from matches.engine.messages import Msg
from matches.games.registry import get_game
from matches.models import ActionLog, Match
from matches.services.lobby import match_create, match_join, match_start
from matches.services.submit import action_submit
from matches.storage import load_state
from matches.tests.commandeer_fixtures import legal_deck, load_cards
from matches.tests.rigging import DEPLOYER, rig_deploying_position

RAM_TH = "แกะศิลา"  # a test translation of the deploying card's name


@pytest.fixture(autouse=True)
def _english_afterwards() -> Any:
    """A request leaves its language active in the test's thread; the next test starts in English."""
    yield
    translation.activate("en")


def _match(alice: Any, bob: Any) -> Match:
    da, db = legal_deck(alice, "stonehold"), legal_deck(bob, "tidewardens")
    match = match_create(user=alice, kind="commandeer", deck_id=da.pk)
    match_join(match_id=match.pk, user=bob, deck_id=db.pk)
    match_start(match_id=match.pk, user=alice)
    return Match.objects.get(pk=match.pk)


def _deployed(alice: Any, bob: Any) -> tuple[Match, ActionLog]:
    """A match where alice deployed the Stonehide Ram (its name translated to Thai), and its log row."""
    match = rig_deploying_position(_match(alice, bob))
    Card.objects.filter(name_en=DEPLOYER).update(name_th=RAM_TH)
    messages.forget_names()
    game = get_game("commandeer")
    state = load_state(match, game)
    ram = next(a for a in game.legal_actions(state, 0) if a.to_json().get("square") == "c4")
    action_submit(match_id=match.pk, user=alice, action_json=ram.to_json(), state_version=match.state_version)
    return match, ActionLog.objects.get(match=match, version=match.state_version + 1)


def _client(user: Any, language: str | None) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    if language:
        c.cookies["django_language"] = language
    return c


def _entry(client: APIClient, match: Match, version: int) -> dict[str, Any]:
    log = client.get(f"/api/matches/{match.pk}/state/").json()["log"]
    return next(e for e in log if e["version"] == version)


@pytest.mark.django_db
def test_two_viewers_read_one_log_in_their_own_languages_and_english_is_unchanged(
    alice: Any, bob: Any
) -> None:
    match, row = _deployed(alice, bob)
    assert row.messages["0"]["key"] and row.messages["names"] == {"1": "alice", "2": "bob"}
    english = _entry(_client(alice, None), match, row.version)
    assert english["text"] == row.descriptions["0"]  # English reads as it was stored
    assert any("takes 1000 damage from Stonehide Ram" in c["text"] for c in english["consequences"])
    thai = _entry(_client(alice, "th"), match, row.version)
    chinese = _entry(_client(bob, "zh-hans"), match, row.version)
    assert RAM_TH in thai["text"] and "alice" in thai["text"], thai["text"]
    assert "Player" not in thai["text"] and "deploys" not in thai["text"]
    assert re.search("[\u4e00-\u9fff]", chinese["text"]) and "alice" in chinese["text"], chinese["text"]
    assert chinese["text"] != english["text"] and "deploys" not in chinese["text"]
    damage = next(c for c in thai["consequences"] if c["kind"] == "damage")
    assert RAM_TH in damage["text"] and "damage" not in damage["text"], damage
    assert "message" not in damage  # the API keeps its contract: a rendered text, no raw message
    assert all(re.search("[\u4e00-\u9fff]", c["text"]) for c in chinese["consequences"]), chinese


@pytest.mark.django_db
def test_a_row_stored_without_messages_still_reads_in_english(alice: Any, bob: Any) -> None:
    match, row = _deployed(alice, bob)
    ActionLog.objects.filter(pk=row.pk).update(messages={})
    thai = _entry(_client(alice, "th"), match, row.version)
    assert thai["text"] == row.descriptions["0"]


@pytest.mark.django_db
def test_a_card_name_renders_from_its_thai_translation_and_an_area_in_chinese() -> None:
    load_cards()
    Card.objects.filter(name_en=DEPLOYER).update(name_th=RAM_TH)
    messages.forget_names()
    chose = {
        "key": "Player %(player)s chooses %(card)s as Commander",
        "params": {"player": 1, "card": {"card": DEPLOYER}},
    }
    assert messages.render(chose, "en") == Msg.from_json(chose).english()
    assert messages.render(chose, "th") == f"ผู้เล่น 1 เลือก {RAM_TH} เป็น Commander"
    dataset.game_data_import(data=dataset.bundled_data())
    area = Area.objects.get(slug="winterfell")
    Area.objects.filter(pk=area.pk).update(name_zh_hans="测试之地")
    messages.forget_names()
    assert (
        messages.render({"key": "%(a)s", "params": {"a": {"area": area.slug}}}, "zh-hans", game="westeros")
        == "测试之地"
    )
    assert messages.join(["a", "b"], "zh-hans") == "a、b" and messages.join(["a", "b"], "th") == "a b"


def test_the_socket_language_is_resolved_like_a_requests() -> None:
    def scope(headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
        return {"user": None, "headers": headers}

    assert scope_language(scope([(b"cookie", b"django_language=th")])) == "th"
    assert scope_language(
        scope([(b"cookie", b"django_language=xx"), (b"accept-language", b"zh-CN,zh;q=0.9")])
    ) in ("zh-hans",)
    assert scope_language(scope([(b"accept-language", b"de")])) == "en"


async def _connect(match_id: int, user: Any, language: str) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(
        URLRouter(websocket_urlpatterns),
        f"/ws/matches/{match_id}/",
        headers=[(b"cookie", f"django_language={language}".encode())],
    )
    comm.scope["user"] = user
    connected, _ = await comm.connect()
    assert connected
    return comm


@pytest.mark.django_db(transaction=True)
def test_two_sockets_of_one_match_get_the_log_in_their_own_languages(alice: Any, bob: Any) -> None:
    match, row = _deployed(alice, bob)

    @async_to_sync
    async def run() -> None:
        a = await _connect(match.pk, alice, "th")
        b = await _connect(match.pk, bob, "zh-hans")
        first = [await c.receive_json_from(timeout=10) for c in (a, b)]
        texts = [next(e for e in f["match"]["log"] if e["version"] == row.version)["text"] for f in first]
        assert RAM_TH in texts[0] and "Player" not in texts[0], texts
        assert re.search("[\u4e00-\u9fff]", texts[1]) and "deploys" not in texts[1], texts
        # The language is the socket's, not the thread's: nothing is left active after a snapshot.
        assert await sync_to_async(translation.get_language)() in ("en", "en-us", None)
        for c in (a, b):
            await c.disconnect()

    run()


def _keys(message: Any) -> set[str]:
    out = {message["key"]}
    for v in (message.get("params") or {}).values():
        if isinstance(v, dict) and "msg" in v:
            out |= _keys(v["msg"])
        if isinstance(v, dict) and "list" in v:
            for x in v["list"]:
                if isinstance(x, dict) and "msg" in x:
                    out |= _keys(x["msg"])
    return out


def _play(match: Match, alice: Any, bob: Any, steps: int, seed: int = 7) -> None:
    """`steps` seeded random legal actions (no concession) submitted as the players would."""
    game = get_game("commandeer")
    rng = random.Random(seed)
    users = {0: alice, 1: bob}
    for _ in range(steps):
        match.refresh_from_db()
        if match.status != "active":
            break
        state = load_state(match, game)
        options = [
            (seat, a)
            for seat in (0, 1)
            for a in game.legal_actions(state, seat)
            if a.to_json().get("type") != "concede"
        ]
        if not options:
            break
        seat, action = rng.choice(options)
        action_submit(
            match_id=match.pk,
            user=users[seat],
            action_json=action.to_json(),
            state_version=match.state_version,
        )


@pytest.mark.django_db
def test_every_key_of_a_seeded_commandeer_playout_renders_in_thai_and_chinese(alice: Any, bob: Any) -> None:
    for seed in (7, 8, 9):  # random play ends early (C-6.2): a few matches sample more of the keys
        _play(_match(alice, bob), alice, bob, 60, seed=seed)
    rows = list(ActionLog.objects.all())
    assert len(rows) >= 15
    keys: set[str] = set()
    for row in rows:
        for k in ("0", "1", "spectator"):
            keys |= _keys(row.messages[k])
            for c in row.consequences[k]:
                keys |= _keys(c["message"])
    for language in ("th", "zh-hans"):
        with translation.override(language):
            untranslated = [
                k
                for k in keys
                if re.search("[A-Za-z]{3}", re.sub(r"%\(\w+\)s", "", k)) and translation.gettext(k) == k
            ]
        assert not untranslated, (language, untranslated)
        for row in rows:
            text = messages.render(row.messages["spectator"], language)
            assert "%(" not in text


@pytest.mark.django_db
def test_legal_actions_and_an_illegal_actions_reason_in_the_readers_language(alice: Any, bob: Any) -> None:
    match = rig_deploying_position(_match(alice, bob))
    english = _client(alice, None).get(f"/api/matches/{match.pk}/state/").json()["legal_actions"]
    thai = _client(alice, "th").get(f"/api/matches/{match.pk}/state/").json()["legal_actions"]
    assert [a["action"] for a in english] == [a["action"] for a in thai] and english
    game = get_game("commandeer")
    state = load_state(match, game)
    seats = list(match.seats.all())
    from matches.selectors import describe_action

    # English reads exactly as the stored log's words do; Thai differs wherever the sentence has words.
    assert [a["description"] for a in english] == [
        describe_action(game, state, game.action_from_json(a["action"]), 0, seats) for a in english
    ]
    deploy = next(i for i, a in enumerate(english) if a["action"]["type"] == "deploy")
    assert "Deploy" not in thai[deploy]["description"] and "ลง" in thai[deploy]["description"], thai[deploy]
    # A deploy to a square it may not go to (C-7.1): the 400 names why in the reader's language.
    legal = [a["action"] for a in english]
    wrong = next(
        {**english[deploy]["action"], "square": f"{col}{row}"}
        for col in "abcdef"
        for row in range(1, 7)
        if {**english[deploy]["action"], "square": f"{col}{row}"} not in legal
    )

    def refused(language: str | None) -> str:
        answer = _client(alice, language).post(
            f"/api/matches/{match.pk}/actions/",
            {"action": wrong, "state_version": match.state_version},
            format="json",
        )
        assert answer.status_code == 400, answer.content
        return str(answer.json()["message"])

    assert refused(None) == state.explain_illegal(game.action_from_json(wrong))
    assert re.search(r"[\u4e00-\u9fff]", refused("zh-hans"))
    assert re.search(r"[\u0e00-\u0e7f]", refused("th"))


@pytest.mark.django_db
def test_a_result_reads_in_each_readers_language_and_in_english_as_stored(alice: Any, bob: Any) -> None:
    from matches.selectors import reader_result, result_line

    match = _match(alice, bob)
    message = {"key": "six cards in the Defeated zone (C-6.1)", "params": {}}
    stored = {"winner": 0, "reason": "six_defeated", "text": message["key"], "message": message}
    assert reader_result(stored) == {k: v for k, v in stored.items() if k != "message"}
    with translation.override("zh-hans"):
        chinese = reader_result(stored)
    assert chinese is not None and chinese["text"] != message["key"] and "C-6.1" in chinese["text"]
    assert "message" not in chinese
    match.result = stored
    seats = list(match.seats.all())
    with translation.override("th"):
        assert "Defeated zone" not in result_line(match, seats) and "C-6.1" in result_line(match, seats)
    assert result_line(match, seats) == "alice won — six cards in the Defeated zone (C-6.1)"


@pytest.mark.django_db
def test_an_old_row_reads_in_thai_after_relog_messages(alice: Any, bob: Any) -> None:
    from django.core.management import call_command

    match = _match(alice, bob)
    _play(match, alice, bob, 25, seed=3)
    before = {r.pk: r for r in ActionLog.objects.filter(match=match)}
    assert len(before) >= 10
    # rows as stored before messages existed: no messages, consequences without theirs
    for r in before.values():
        ActionLog.objects.filter(pk=r.pk).update(
            messages={},
            consequences={
                k: [{x: y for x, y in c.items() if x != "message"} for c in v]
                for k, v in r.consequences.items()
            },
        )
    last = max(before.values(), key=lambda r: r.version)
    english = last.descriptions["0"]
    assert _entry(_client(alice, "th"), match, last.version)["text"] == english  # English until relogged
    call_command("relog_messages", verbosity=0)
    for pk, r in before.items():
        after = ActionLog.objects.get(pk=pk)
        assert after.messages == r.messages and after.consequences == r.consequences, r.version
    thai = _entry(_client(alice, "th"), match, last.version)["text"]
    assert thai != english and re.search(r"[\u0e00-\u0e7f]", thai), thai


@pytest.mark.django_db
def test_every_key_of_a_seeded_westeros_playout_renders_in_thai_and_chinese() -> None:
    from boardgame.engine import load_default_game_data, new_game
    from boardgame.engine.actions import secret_message
    from boardgame.engine.agents import make_agent

    dataset.game_data_import(data=dataset.bundled_data())  # the houses', areas' and cards' translated names
    messages.forget_names()
    state = new_game(load_default_game_data(), player_count=3, seed=5)
    agent = make_agent("greedy", random.Random(5))
    sampled: list[dict[str, Any]] = []
    westeros, events = get_game("westeros"), 0
    for _ in range(400):
        if state.is_terminal():
            break
        action = agent.choose(state, state.current_players()[0])
        sampled += [action.message(state).to_json(), secret_message(action).to_json()]
        basis = westeros.consequences_basis(state)
        state.apply(action)
        caused = westeros.consequences(state, None, basis)  # the events, as the log stores them
        assert all("message" in c for c in caused), caused
        sampled += [c["message"] for c in caused]
        events += len(caused)
    assert len(sampled) >= 200 and events >= 50
    keys = set().union(*(_keys(m) for m in sampled))
    for language in ("th", "zh-hans"):
        with translation.override(language):
            untranslated = [
                k
                for k in keys
                if re.search("[A-Za-z]{3}", re.sub(r"%\(\w+\)s", "", k)) and translation.gettext(k) == k
            ]
        assert not untranslated, (language, untranslated)
        for m in sampled:
            text = messages.render(m, language, game=messages.WESTEROS)
            assert "%(" not in text
    houses = [m for m in sampled if "%(player)s" in m["key"] and isinstance(m["params"].get("player"), dict)]
    assert houses
    english = messages.render(houses[0], "en", game=messages.WESTEROS)
    chinese = messages.render(houses[0], "zh-hans", game=messages.WESTEROS)
    house = houses[0]["params"]["player"]["house"]
    assert house.title() in english and house.title() not in chinese, (english, chinese)


@pytest.mark.django_db
def test_a_concession_reads_in_the_readers_language(alice: Any, bob: Any) -> None:
    match = _match(alice, bob)
    assert _client(bob, None).post(f"/api/matches/{match.pk}/concede/", {}, format="json").status_code == 200
    english = _client(alice, None).get(f"/api/matches/{match.pk}/").json()
    chinese = _client(alice, "zh-hans").get(f"/api/matches/{match.pk}/").json()
    assert english["result"]["text"] == "bob conceded." and "message" not in english["result"]
    assert chinese["result"]["text"] == "bob 认输了。", chinese["result"]
    summary = _client(alice, "th").get(f"/api/matches/{match.pk}/summary/").json()
    assert summary["result"]["text"] == "bob ยอมแพ้" and summary["reason_text"] == "bob ยอมแพ้", summary
    assert (
        _client(alice, None).get(f"/api/matches/{match.pk}/summary/").json()["reason_text"] == "bob conceded."
    )


@pytest.mark.django_db
def test_a_timeout_default_reads_as_one_in_the_readers_language(alice: Any, bob: Any) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from matches.models import Seat
    from matches.services.timeouts import clock_enforce

    match = rig_deploying_position(_match(alice, bob), own_unit=True)
    past = timezone.now() - timedelta(seconds=1)
    Seat.objects.filter(match=match, position=0).update(deadline=past, clock_started_at=past)
    clock_enforce(match_id=match.pk)
    row = ActionLog.objects.get(match=match, version=match.state_version + 1)
    assert row.source == ActionLog.Source.TIMEOUT
    english = _entry(_client(bob, None), match, row.version)["text"]
    assert english == "alice's time ran out — automatic pass: the Planning phase ends."
    thai = _entry(_client(bob, "th"), match, row.version)["text"]
    chinese = _entry(_client(bob, "zh-hans"), match, row.version)["text"]
    assert thai.startswith("เวลาของ alice หมดแล้ว") and "Planning" in thai, thai
    assert chinese.startswith("alice 的时间已用完"), chinese


# The short words the two engines translate apart: (Westeros, Commandeer) in Thai and Chinese.
APART = {
    "th": {
        "pass": ("ไม่ใช้", "การประกาศจบ"),
        "keep": ("เก็บไว้", "การเก็บการ์ดในมือ"),
        "bottom": ("ล่างสุด", "วางการ์ดไว้ใต้กองการ์ด"),
        "none": ("ไม่เลือก", "ไม่มี"),
    },
    "zh-hans": {
        "pass": ("放弃", "宣布结束"),
        "keep": ("保留", "保留手牌"),
        "bottom": ("底部", "放到卡组底"),
        "none": ("不选", "无"),
    },
}


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["th", "zh-hans", "en"])
def test_a_word_both_games_use_reads_as_each_game_means_it(language: str) -> None:
    """ "pass" is a Westeros house declining the Raven (W-5.5) but a Commandeer player's end of turn (C-5):
    each game's log takes the word from its own engine's catalogue, whichever catalogue Django lists first."""
    from boardgame.engine.actions import Choose
    from matches.engine.messages import term

    words = APART.get(language, {w: (w, w) for w in ("pass", "keep", "bottom", "none")})
    raven = Choose("stark", "raven", "pass").message().to_json()
    assert messages.render(raven, language, game=messages.WESTEROS).endswith(words["pass"][0])
    ended = {"key": "%(kind)s", "params": {"kind": term("pass")}}
    assert messages.render(ended, language, game=messages.COMMANDEER) == words["pass"][1]
    for word, (westeros, commandeer) in words.items():
        assert messages.game_term(word, language, messages.WESTEROS) == westeros
        assert messages.game_term(word, language, messages.COMMANDEER) == commandeer
