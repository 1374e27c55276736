"""Match chat: channels and who reads/writes them, bounds, escaping, throttling, mutes, hiding."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import override_settings
from django.utils import translation
from rest_framework.test import APIClient

from matches.models import ChatMessage, Match
from matches.services import chat as chat_service
from matches.services.lobby import match_concede, match_create, match_create_with_ai, match_join, match_start

pytestmark = pytest.mark.django_db

WX_PRIVATE = (
    "private:lannister-stark"  # seat 0 Stark, seat 1 Lannister, seat 2 Baratheon (W-1.1 set-up order)
)


@pytest.fixture(autouse=True)
def _fresh_throttles() -> Any:
    cache.clear()  # the throttles count in the cache, which outlives a test
    yield
    cache.clear()


def client_for(user: Any = None) -> APIClient:
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def chat_url(match: Match, channel: str = "table", **extra: Any) -> str:
    query = "&".join(f"{k}={v}" for k, v in {"channel": channel, **extra}.items())
    return f"/api/matches/{match.pk}/chat/?{query}"


def post(user: Any, match: Match, body: Any, channel: str = "table") -> Any:
    return client_for(user).post(chat_url(match, channel), {"body": body}, format="json")


def channel_ids(user: Any, match: Match) -> list[str]:
    state = client_for(user).get(f"/api/matches/{match.pk}/state/").json()
    return [c["id"] for c in state["chat"]["channels"]]


@pytest.fixture
def table(alice: Any, bob: Any) -> Match:
    """A started public counting match (two seats) whose creator allowed spectator chat."""
    match = match_create(user=alice, kind="counting", spectator_chat=True)
    match_join(match_id=match.pk, user=bob)
    match_start(match_id=match.pk, user=alice)
    return Match.objects.get(pk=match.pk)


@pytest.fixture
def westeros(alice: Any, bob: Any, carol: Any) -> Match:
    match = match_create(user=alice, kind="westeros", rules_config={"player_count": 3})
    match_join(match_id=match.pk, user=bob)
    match_join(match_id=match.pk, user=carol)
    match_start(match_id=match.pk, user=alice)
    return Match.objects.get(pk=match.pk)


# ---- channels ---------------------------------------------------------------------------------------------------
def test_players_write_the_table_and_a_spectator_reads_it_live_after_reload(
    table: Match, alice: Any, make_user: Any
) -> None:
    viewer = make_user("viewer")
    assert post(alice, table, "good luck!").status_code == 201
    assert post(viewer, table, "hi").json()["code"] == "chat_read_only"
    for reader in (alice, viewer, None):
        got = client_for(reader).get(chat_url(table)).json()
        assert [m["body"] for m in got["messages"]] == ["good luck!"]
        assert got["messages"][0]["author"] == "alice" and got["messages"][0]["seat"] == 0


def test_spectators_write_their_own_channel_which_players_do_not_see_while_the_game_runs(
    table: Match, alice: Any, make_user: Any
) -> None:
    viewer = make_user("viewer")
    assert channel_ids(viewer, table) == ["table", "spectators"]
    assert channel_ids(alice, table) == ["table"]  # no kibitzing during play
    assert post(viewer, table, "nice move", "spectators").status_code == 201
    assert post(alice, table, "hello", "spectators").status_code == 403
    assert client_for(alice).get(chat_url(table, "spectators")).json()["code"] == "chat_not_allowed"
    assert client_for(None).get(chat_url(table, "spectators")).json()["messages"][0]["body"] == "nice move"
    assert post(None, table, "anon", "spectators").status_code in (401, 403)


def test_without_the_creators_permission_there_is_no_spectator_channel(alice: Any, make_user: Any) -> None:
    match = match_create(user=alice, kind="counting")
    viewer = make_user("viewer")
    assert channel_ids(viewer, match) == ["table"]
    answer = post(viewer, match, "hi", "spectators")
    assert answer.status_code == 404 and answer.json()["code"] == "no_spectator_chat"


def test_spectator_chat_is_a_create_setting(alice: Any) -> None:
    answer = client_for(alice).post(
        "/api/matches/", {"kind": "counting", "spectator_chat": True}, format="json"
    )
    assert answer.status_code == 201
    assert Match.objects.get(pk=answer.json()["id"]).spectator_chat is True


def test_a_westeros_pair_of_houses_has_a_private_channel_only_they_read(
    westeros: Match, alice: Any, bob: Any, carol: Any, make_user: Any
) -> None:
    assert channel_ids(alice, westeros) == ["table", WX_PRIVATE, "private:baratheon-stark"]
    assert WX_PRIVATE not in channel_ids(carol, westeros)
    assert post(alice, westeros, "an alliance against Baratheon?", WX_PRIVATE).status_code == 201
    assert client_for(bob).get(chat_url(westeros, WX_PRIVATE)).json()["messages"][0]["author"] == "alice"
    staff = make_user("staff")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    for outsider in (carol, staff, make_user("viewer"), None):
        answer = client_for(outsider).get(chat_url(westeros, WX_PRIVATE))
        assert answer.status_code == 403 and "alliance" not in answer.content.decode()
        assert post(outsider, westeros, "let me in", WX_PRIVATE).status_code in (401, 403)


def test_private_channels_stay_private_after_the_game(westeros: Match, alice: Any, carol: Any) -> None:
    post(alice, westeros, "secret pact", WX_PRIVATE)
    match_concede(match_id=westeros.pk, user=carol)
    Match.objects.filter(pk=westeros.pk).update(status="finished")
    answer = client_for(carol).get(chat_url(westeros, WX_PRIVATE))
    assert answer.status_code == 403
    assert "secret pact" not in client_for(carol).get(f"/api/matches/{westeros.pk}/state/").content.decode()


def test_an_ai_house_has_no_private_channel(alice: Any, bob: Any) -> None:
    match = match_create_with_ai(user=alice, kind="westeros", ai_seats=1, rules_config={"player_count": 3})
    match_join(match_id=match.pk, user=bob)
    match_start(match_id=match.pk, user=alice)
    match = Match.objects.get(pk=match.pk)
    ids = channel_ids(alice, match)  # one private channel: with bob's house, none with the AI's
    assert len(ids) == 2 and ids[0] == "table" and ids[1].startswith("private:") and "stark" in ids[1]
    assert channel_ids(bob, match) == ids


# ---- bounds and text -----------------------------------------------------------------------------------------------
def test_a_message_is_trimmed_and_control_characters_are_removed(table: Match, alice: Any) -> None:
    answer = post(alice, table, "  hi\x07 \u202ethere\x1b  ")
    assert answer.status_code == 201 and answer.json()["body"] == "hi there"


def test_html_is_stored_and_returned_as_plain_text(table: Match, alice: Any) -> None:
    body = '<script>alert("x")</script><b>bold</b>'
    assert post(alice, table, body).status_code == 201
    assert ChatMessage.objects.get().body == body  # stored as written; pages render it as text
    assert client_for(alice).get(chat_url(table)).json()["messages"][0]["body"] == body


def test_empty_too_long_and_malformed_messages_are_refused_with_a_reason(table: Match, alice: Any) -> None:
    assert post(alice, table, " \n\t ").json()["code"] == "empty_message"
    assert post(alice, table, "x" * 500).status_code == 201
    cache.clear()
    long = post(alice, table, "x" * 501)
    assert long.status_code == 400 and long.json()["code"] == "message_too_long"
    assert "500" in long.json()["message"]
    assert post(alice, table, "y" * 5000).status_code == 400  # beyond the serializer's own bound
    assert post(alice, table, ["not", "text"]).status_code == 400
    assert client_for(alice).post(chat_url(table), {}, format="json").status_code == 400
    assert ChatMessage.objects.count() == 1


def test_unknown_channels_and_bad_parameters_are_400s(table: Match, alice: Any) -> None:
    for channel in ("lobby", "private:", "x" * 41, "private:a-b-c"):
        answer = post(alice, table, "hi", channel)
        assert answer.status_code == 400 and answer.json()["code"] == "unknown_channel", channel
    assert client_for(alice).get(chat_url(table, limit=0)).json()["code"] == "invalid_parameter"
    assert client_for(alice).get(chat_url(table, limit=101)).status_code == 400
    assert client_for(alice).get(chat_url(table, before="x")).status_code == 400
    assert client_for(alice).get("/api/matches/999999/chat/").status_code == 404


def test_history_pages_back_with_before(table: Match, alice: Any, bob: Any) -> None:
    for i in range(6):
        ChatMessage.objects.create(match=table, channel="table", author=alice, body=f"m{i}")
    first = client_for(bob).get(chat_url(table, limit=4)).json()
    assert [m["body"] for m in first["messages"]] == ["m2", "m3", "m4", "m5"] and first["has_more"]
    older = client_for(bob).get(chat_url(table, limit=4, before=first["messages"][0]["id"])).json()
    assert [m["body"] for m in older["messages"]] == ["m0", "m1"] and not older["has_more"]


# ---- throttling ----------------------------------------------------------------------------------------------------
def test_a_burst_of_messages_is_throttled_with_a_plain_message(table: Match, alice: Any) -> None:
    codes = [post(alice, table, f"spam {i}").status_code for i in range(3)]
    assert codes == [201, 201, 201]
    answer = post(alice, table, "one too many")
    assert answer.status_code == 429
    assert answer.json()["code"] == "throttled" and "too fast" in answer.json()["message"]
    assert ChatMessage.objects.count() == 3


@override_settings(CHAT_BURST_RATE=None, CHAT_RATE="4/min")
def test_the_per_user_rate_covers_every_match(alice: Any, bob: Any, make_user: Any) -> None:
    matches = []
    for i in range(2):
        m = match_create(user=alice, kind="counting")
        match_join(match_id=m.pk, user=make_user(f"opp{i}"))
        matches.append(m)
    codes = [post(alice, matches[i % 2], f"m{i}").status_code for i in range(5)]
    assert codes == [201, 201, 201, 201, 429]


# ---- mutes and hiding ----------------------------------------------------------------------------------------------
def test_a_muted_author_disappears_for_the_muter_only(
    table: Match, alice: Any, bob: Any, make_user: Any
) -> None:
    post(alice, table, "from alice")
    post(bob, table, "from bob")
    assert client_for(alice).put("/api/chat/mutes/bob/").json() == {"muted": ["bob"]}
    assert [m["body"] for m in client_for(alice).get(chat_url(table)).json()["messages"]] == ["from alice"]
    assert len(client_for(make_user("viewer")).get(chat_url(table)).json()["messages"]) == 2
    assert client_for(alice).get("/api/chat/mutes/").json() == {"muted": ["bob"]}
    assert client_for(alice).delete("/api/chat/mutes/bob/").json() == {"muted": []}
    assert len(client_for(alice).get(chat_url(table)).json()["messages"]) == 2


def test_muting_yourself_or_nobody_is_refused(alice: Any) -> None:
    assert client_for(alice).put("/api/chat/mutes/alice/").json()["code"] == "cannot_mute_self"
    assert client_for(alice).put("/api/chat/mutes/nobody/").status_code == 404
    assert client_for(None).put("/api/chat/mutes/alice/").status_code in (401, 403)


def test_staff_hide_a_message_from_the_admin_and_it_is_kept_for_review(
    table: Match, alice: Any, make_user: Any
) -> None:
    post(alice, table, "rude words")
    staff = make_user("mod")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    c = client_for()
    c.force_login(staff)
    message = ChatMessage.objects.get()
    answer = c.post(
        "/admin/matches/chatmessage/",
        {"action": "hide_messages", "_selected_action": [message.pk]},
    )
    assert answer.status_code == 302
    message.refresh_from_db()
    assert message.hidden and message.hidden_by == staff and message.body == "rude words"
    assert client_for(alice).get(chat_url(table)).json()["messages"] == []
    c.post("/admin/matches/chatmessage/", {"action": "unhide_messages", "_selected_action": [message.pk]})
    message.refresh_from_db()
    assert not message.hidden and message.hidden_by is None  # a mistaken hide is undone
    assert [m["body"] for m in client_for(alice).get(chat_url(table)).json()["messages"]] == ["rude words"]


def test_the_admin_never_lists_private_channels(westeros: Match, alice: Any, make_user: Any) -> None:
    post(alice, westeros, "public hello")
    cache.clear()
    post(alice, westeros, "our secret plan", WX_PRIVATE)
    staff = make_user("mod")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    c = client_for()
    c.force_login(staff)
    page = c.get("/admin/matches/chatmessage/").content.decode()
    assert "public hello" in page and "our secret plan" not in page
    private = ChatMessage.objects.get(channel=WX_PRIVATE)
    assert c.get(f"/admin/matches/chatmessage/{private.pk}/change/").status_code in (302, 404)
    assert "our secret plan" not in c.get("/admin/matches/chatmessage/?q=secret").content.decode()


def test_the_service_never_lets_an_ai_seat_or_outsider_post(westeros: Match, carol: Any) -> None:
    from config.errors import ApplicationError

    with pytest.raises(ApplicationError):
        chat_service.message_post(match=westeros, you=None, user=carol, channel=WX_PRIVATE, body="hi")
    assert get_user_model().objects.count() == 3 and ChatMessage.objects.count() == 0


# ---- the schema is the contract -------------------------------------------------------------------------------------
def test_chat_answers_have_exactly_their_documented_shapes(table: Match, alice: Any, make_user: Any) -> None:
    from matches import api_types
    from matches.tests.test_api_contract import conforms

    posted = post(alice, table, "shape")
    assert conforms(posted.json(), api_types.ChatMessageOut()) == []
    history = client_for(alice).get(chat_url(table)).json()
    assert conforms(history, api_types.ChatHistoryOut()) == []
    state = client_for(make_user("viewer")).get(f"/api/matches/{table.pk}/state/").json()
    assert conforms(state["chat"], api_types.ChatStateOut()) == []
    assert conforms(client_for(alice).put("/api/chat/mutes/viewer/").json(), api_types.ChatMutesOut()) == []


def test_the_chat_endpoints_and_their_limits_are_in_the_schema(alice: Any) -> None:
    spec = client_for(None).get("/api/schema/?format=json").json()
    chat = spec["paths"]["/api/matches/{match_id}/chat/"]
    params = {p["name"]: p["schema"] for p in chat["get"]["parameters"]}
    assert params["channel"]["maxLength"] == 40 and params["limit"]["maximum"] == 100
    assert {"201", "400", "403", "404", "429"} <= set(chat["post"]["responses"])
    assert (
        "500 characters"
        in spec["components"]["schemas"]["ChatMessageInputRequest"]["properties"]["body"]["description"]
    )
    assert {"put", "delete"} <= set(spec["paths"]["/api/chat/mutes/{username}/"])
    snapshot = spec["components"]["schemas"]["MatchState"]["properties"]
    assert "chat" in snapshot


def test_a_called_off_match_closes_its_chat(alice: Any) -> None:
    match = match_create(user=alice, kind="counting")
    Match.objects.filter(pk=match.pk).update(status="aborted")
    answer = post(alice, match, "anyone?")
    assert answer.status_code == 409 and answer.json()["code"] == "chat_closed"


def test_chat_never_enters_the_action_log_or_the_game_state(table: Match, alice: Any) -> None:
    from matches.models import ActionLog

    before = (ActionLog.objects.filter(match=table).count(), table.state_version, table.state)
    post(alice, table, "hello")
    after = Match.objects.get(pk=table.pk)
    assert (ActionLog.objects.filter(match=table).count(), after.state_version, after.state) == before
    log = client_for(alice).get(f"/api/matches/{table.pk}/log/").content.decode()
    assert "hello" not in log


def test_a_long_message_keeps_at_most_six_lines() -> None:
    text = chat_service.clean_body("a\r\nb\n\n\nc\nd\ne\nf\ng")
    assert text.count("\n") == 5 and text.endswith("f g")
    assert chat_service.clean_body("e\u0301") == "\u00e9"  # one form of each character (NFC)


def test_the_throttled_answer_says_how_long_to_wait(table: Match, alice: Any) -> None:
    for i in range(3):
        post(alice, table, f"m{i}")
    body = post(alice, table, "again").json()
    assert body["code"] == "throttled" and "wait" in body["message"]
    assert 1 <= body["extra"]["wait"] <= 5 and f"wait {body['extra']['wait']} s." in body["message"]


def test_players_chat_in_the_waiting_room_before_the_start(alice: Any, bob: Any) -> None:
    match = match_create(user=alice, kind="counting")
    assert post(alice, match, "anyone for a game?").status_code == 201
    match_join(match_id=match.pk, user=bob)
    assert client_for(bob).get(chat_url(match)).json()["messages"][0]["body"] == "anyone for a game?"
    assert [
        c["write"] for c in client_for(bob).get(f"/api/matches/{match.pk}/state/").json()["chat"]["channels"]
    ] == [True]


def test_a_huge_message_is_refused_with_the_same_bound_in_words(table: Match, alice: Any) -> None:
    answer = post(alice, table, "z" * 3000)
    assert answer.status_code == 400 and "at most 500 characters" in answer.json()["message"]


def test_a_house_handed_to_the_ai_loses_its_private_channels(westeros: Match, alice: Any, bob: Any) -> None:
    post(alice, westeros, "before you go", WX_PRIVATE)
    match_concede(match_id=westeros.pk, user=bob)  # the AI plays Lannister from now on
    assert Match.objects.get(pk=westeros.pk).seats.get(user=bob).is_ai
    assert channel_ids(alice, westeros) == ["table", "private:baratheon-stark"]
    assert channel_ids(bob, westeros) == ["table"]
    assert client_for(bob).get(chat_url(westeros, WX_PRIVATE)).status_code == 403
    assert post(bob, westeros, "gg").json()["code"] == "chat_read_only"


def test_a_refused_message_is_explained_in_the_readers_language(table: Match, alice: Any) -> None:
    """The bounds of a message (the serializer's own and the service's) answer in the reader's language;
    the code stays the same."""
    thai, chinese = client_for(alice), client_for(alice)
    thai.credentials(HTTP_ACCEPT_LANGUAGE="th")
    chinese.credentials(HTTP_ACCEPT_LANGUAGE="zh-hans")
    with translation.override(None):  # the request's language does not stay active for the tests after
        huge = thai.post(chat_url(table), {"body": "z" * 3000}, format="json").json()
        long = chinese.post(chat_url(table), {"body": "x" * 501}, format="json").json()
        empty = thai.post(chat_url(table), {"body": " "}, format="json").json()
    assert huge["code"] == "invalid" and "ข้อความแชทยาวได้ไม่เกิน 500 ตัวอักษร" in huge["message"]
    assert long["code"] == "message_too_long"
    assert long["message"] == "聊天消息最多 500 个字符（这条有 501 个）。"
    assert empty == {"code": "empty_message", "message": "ข้อความแชทต้องไม่ว่างเปล่า", "extra": {"field": "body"}}
