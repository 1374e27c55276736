"""Game settings are typed and bounded from one source: the engines' RulesConfig
field metadata drives `from_dict`, the API's generated serializers and the OpenAPI schema."""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

import pytest
from rest_framework.test import APIClient

from boardgame.engine import RulesConfig as WesterosRules
from matches import rules_api
from matches.clocks import TimeControl
from matches.engine import RulesConfig as CommandeerRules
from matches.games.westeros import WesterosSeating
from matches.models import Match


def post_raw(user: Any, body: str) -> Any:
    """POST a raw JSON text (1e400 cannot be written by a Python dict: it must reach the server's parser)."""
    c = APIClient()
    c.force_authenticate(user)
    return c.post("/api/matches/", body, content_type="application/json")


# ---- the engines' from_dict ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"opening_hand": "x"}, "opening_hand"),
        ({"opening_hand": -3}, "opening_hand"),
        ({"opening_hand": 6.0}, "opening_hand"),
        ({"opening_hand": True}, "opening_hand"),
        ({"turn_limit": 10**9}, "turn_limit"),
        ({"turn_limit": float("inf")}, "turn_limit"),
        ({"board_layout": ["x"] * 36}, "board_layout"),
        ({"board_layout": [0] * 35}, "board_layout"),
        ({"board_layout": [-1] * 36}, "board_layout"),
        ({"strike_back": 1}, "strike_back"),
        ({"adjacency": "hex"}, "adjacency"),
    ],
)
def test_commandeer_from_dict_refuses_a_bad_setting_naming_the_field_c_6_5(data: Any, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        CommandeerRules.from_dict(data)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"max_rounds": "x"}, "max_rounds"),
        ({"castles_to_win": -1}, "castles_to_win"),
        ({"event_log": 0}, "event_log"),
    ],
)
def test_westeros_from_dict_refuses_a_bad_setting_naming_the_field_w_18_1(data: Any, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        WesterosRules.from_dict(data)


def test_every_setting_field_has_bounds_metadata_and_its_defaults_pass_them() -> None:
    """Every int field has min/max, every str field choices, and the defaults round-trip through from_dict."""
    for cls in (CommandeerRules, WesterosRules, WesterosSeating, TimeControl):
        for f in fields(cls):
            meta = f.metadata
            if isinstance(f.default, bool):
                continue
            if isinstance(f.default, int) or meta.get("null"):
                assert {"min", "max"} <= set(meta), f"{cls.__name__}.{f.name}"
                assert meta["min"] <= meta["max"]
            elif isinstance(f.default, str):
                assert "choices" in meta, f.name
            else:
                assert {"length", "item_min", "item_max"} <= set(meta), f.name
    assert CommandeerRules.from_dict(CommandeerRules().to_dict()) == CommandeerRules()
    assert WesterosRules.from_dict(WesterosRules().to_dict()) == WesterosRules()
    layout = CommandeerRules.from_dict({"board_layout": [1000] * 36})
    assert layout.board_layout == (1000,) * 36


def test_the_bounds_keep_a_match_finite_and_playable_c_3_1_c_6_5_w_3_1() -> None:
    """The largest opening hand plus every mulligan fits a 50-card deck; every match has a turn/round limit."""
    meta = {f.name: f.metadata for f in fields(CommandeerRules)}
    assert meta["opening_hand"]["max"] * 2 <= 50  # the hand and a full redraw of it (C-3.1, C-4.4)
    assert (
        meta["turn_limit"]["max"] <= 200
        and meta["cp_per_turn"]["min"] >= 1
        and meta["hand_limit"]["min"] >= 1
    )
    wmeta = {f.name: f.metadata for f in fields(WesterosRules)}
    assert wmeta["max_rounds"]["max"] == 10 and wmeta["castles_to_win"]["min"] >= 3


# ---- the API -------------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ('{"opening_hand": "x"}', "opening_hand"),
        ('{"opening_hand": -3}', "opening_hand"),
        ('{"turn_limit": 1e9}', "turn_limit"),
        ('{"turn_limit": 1000000000}', "turn_limit"),
        ('{"board_layout": ' + json.dumps(["x"] * 36) + "}", "board_layout"),
        ('{"opening_hnd": 5}', "opening_hnd"),
        ("[1, 2]", "rules_config"),
    ],
)
def test_commandeer_rules_config_is_a_400_naming_the_field(alice: Any, rules: str, field: str) -> None:
    r = post_raw(alice, '{"kind": "commandeer", "rules_config": ' + rules + "}")
    assert r.status_code == 400, r.content
    body = r.json()
    assert (
        body["code"] == "invalid_rules_config"
        and field in body["message"]
        and "rules_config" in body["extra"]["fields"]
    )
    assert not Match.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ('{"max_rounds": "x"}', "max_rounds"),
        ('{"castles_to_win": -1}', "castles_to_win"),
        ('{"player_count": 1e400}', "player_count"),
        ('{"player_count": 7}', "player_count"),
        ('{"house": "targaryen"}', "house"),
        ('{"event_log": false}', "event_log"),  # not settable by players ("api": False)
    ],
)
def test_westeros_rules_config_is_a_400_naming_the_field(alice: Any, rules: str, field: str) -> None:
    r = post_raw(alice, '{"kind": "westeros", "rules_config": ' + rules + "}")
    assert r.status_code == 400, r.content
    assert field in r.json()["message"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("tc", "code"),
    [
        ('{"per_move_s": 1e400}', "non_finite_number"),  # refused by the request parser, field named
        ('{"per_move_s": "60"}', "invalid_time_control"),
        ('{"initial_s": 1}', "invalid_time_control"),
        ('{"increment_s": true}', "invalid_time_control"),
        ('{"bank_s": 60}', "invalid_time_control"),
    ],
)
def test_time_control_is_a_400_naming_the_field(alice: Any, tc: str, code: str) -> None:
    r = post_raw(alice, '{"kind": "counting", "time_control": ' + tc + "}")
    assert r.status_code == 400, r.content
    assert r.json()["code"] == code and "time_control" in r.json()["message"]


def test_time_control_from_json_refuses_floats_and_overflow() -> None:
    for bad in ({"per_move_s": float("inf")}, {"initial_s": 60.5}, {"initial_s": "60"}, {"colour": 1}):
        with pytest.raises(ValueError):
            TimeControl.from_json(bad)


@pytest.mark.django_db
def test_a_westeros_seating_check_refuses_1e400_in_the_service_too(alice: Any) -> None:
    """The service checks as strictly as the API (an overflow is a clear error, not a 500)."""
    from config.errors import ApplicationError
    from matches.services.lobby import match_create

    with pytest.raises(ApplicationError) as info:
        match_create(user=alice, kind="westeros", rules_config={"player_count": float("inf")})
    assert info.value.code == "invalid_rules_config" and "player_count" in info.value.message


@pytest.mark.django_db
def test_good_settings_are_accepted_and_stored(alice: Any) -> None:
    r = post_raw(
        alice, '{"kind": "westeros", "rules_config": {"player_count": 4, "house": "stark", "max_rounds": 5}}'
    )
    assert r.status_code == 201, r.content
    stored = Match.objects.get(pk=r.json()["id"]).rules_config
    assert stored["player_count"] == 4 and stored["house"] == "stark" and stored["max_rounds"] == 5


def test_a_new_rules_field_reaches_the_api_and_the_schema_from_its_metadata() -> None:
    """One source: the generated serializer has exactly the settable fields, with the metadata's bounds."""
    commandeer = rules_api.rules_config_serializer("commandeer")
    assert commandeer is not None
    names = set(commandeer().fields)
    assert names == {f.name for f in fields(CommandeerRules)}
    hand = commandeer().fields["opening_hand"]
    assert (hand.min_value, hand.max_value) == (1, 20) and "C-4.3" in hand.help_text
    westeros = rules_api.rules_config_serializer("westeros")
    assert westeros is not None
    assert set(westeros().fields) == {"player_count", "house", "seating"} | {
        f.name for f in fields(WesterosRules) if f.name != "event_log"
    }


@pytest.mark.django_db
def test_the_schema_documents_rules_config_and_time_control_with_their_bounds() -> None:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    comps = schema["components"]["schemas"]
    assert comps["CommandeerRulesConfigRequest"]["properties"]["opening_hand"]["maximum"] == 20
    assert comps["WesterosRulesConfigRequest"]["properties"]["castles_to_win"]["minimum"] == 3
    assert "event_log" not in comps["WesterosRulesConfigRequest"]["properties"]
    assert comps["TimeControlRequest"]["properties"]["per_move_s"]["maximum"] == 14 * 86400
    assert "RulesConfigRequest" in json.dumps(comps["MatchCreateInputRequest"]["properties"]["rules_config"])
    variants = json.dumps(comps["RulesConfigRequest"]["oneOf"])
    assert "CommandeerRulesConfigRequest" in variants and "WesterosRulesConfigRequest" in variants


def test_the_parse_caches_never_let_a_float_or_bool_through_after_the_int() -> None:
    """from_dict/from_json remember checked values (the hot path parses the same stored ones); 300.0 == 300
    and True == 1 in Python, so the memo keys carry the type."""
    assert CommandeerRules.from_dict({"turn_limit": 30}).turn_limit == 30
    with pytest.raises(ValueError, match="turn_limit"):
        CommandeerRules.from_dict({"turn_limit": 30.0})
    with pytest.raises(ValueError, match="strike_back"):
        CommandeerRules.from_dict({"strike_back": 0}) if CommandeerRules.from_dict(
            {"strike_back": False}
        ) else None
    layout = [3000] * 36
    assert CommandeerRules.from_dict({"board_layout": layout}) == CommandeerRules.from_dict(
        {"board_layout": layout}
    )
    assert TimeControl.from_json({"initial_s": 300}).initial_s == 300
    with pytest.raises(ValueError, match="initial_s"):
        TimeControl.from_json({"initial_s": 300.0})


def _extreme(cls: type, which: str) -> dict[str, Any]:
    """Every bounded int field of a RulesConfig at its `which` ("min"/"max") bound, the rest default."""
    return {f.name: f.metadata[which] for f in fields(cls) if which in f.metadata}


@pytest.mark.parametrize("which", ["min", "max"])
@pytest.mark.parametrize("seed", [0, 1])
def test_a_commandeer_match_at_the_bounds_is_playable_and_ends_c_6_5(which: str, seed: int) -> None:
    """All settings at their lowest, or all at their highest: random play still finds a legal action at
    every step and the match ends (the turn limit or a loss)."""
    from random import Random

    from matches.engine import new_match
    from matches.engine.agents import RandomAgent
    from matches.engine.decks import default_decks

    decks = list(default_decks().values())
    state = new_match(
        decks[0], decks[1], seed=seed, config=CommandeerRules.from_dict(_extreme(CommandeerRules, which))
    )
    agent, steps = RandomAgent(Random(seed)), 0
    while not state.is_terminal() and steps < 50_000:
        state.apply(agent.choose(state, state.current_players()[0]))
        steps += 1
    assert state.is_terminal() and state.outcome() is not None


@pytest.mark.parametrize("which", ["min", "max"])
def test_a_westeros_game_at_the_bounds_is_playable_and_ends_w_3_1_w_18_1(which: str) -> None:
    from random import Random

    from boardgame.engine import load_default_game_data, new_game
    from boardgame.engine.agents import make_agent

    config = WesterosRules.from_dict({**_extreme(WesterosRules, which), "event_log": False})
    state = new_game(load_default_game_data(), player_count=3, seed=1, config=config)
    agent, steps = make_agent("random", Random(1)), 0
    while not state.is_terminal() and steps < 50_000:
        state.apply(agent.choose(state, state.current_players()[0]))
        steps += 1
    assert state.is_terminal() and state.outcome() is not None


@pytest.mark.django_db
def test_open_matches_stored_with_refused_settings_are_aborted_by_the_migration(alice: Any) -> None:
    """Matches made before the checks with settings they now refuse can never be played: the data
    migration aborts them (no result); good and finished matches are left alone."""
    import importlib

    from django.apps import apps

    from matches.services.lobby import match_create

    migration = importlib.import_module("matches.migrations.0005_abort_matches_with_bad_settings")
    bad = match_create(user=alice, kind="counting")
    Match.objects.filter(pk=bad.pk).update(kind="commandeer", rules_config={"board_layout": ["x"] * 36})
    good = match_create(user=alice, kind="westeros", rules_config={"player_count": 3})
    done = match_create(user=alice, kind="westeros", rules_config={"player_count": 4})
    Match.objects.filter(pk=done.pk).update(status="finished", rules_config={"castles_to_win": -1})
    migration.abort_bad_settings(apps, None)
    bad.refresh_from_db()
    assert (
        bad.status == "aborted"
        and bad.result["reason"] == "invalid_settings"
        and bad.result["winner"] is None
    )
    assert "board_layout" in bad.result["text"]
    assert (
        Match.objects.get(pk=good.pk).status == "waiting"
        and Match.objects.get(pk=done.pk).status == "finished"
    )
