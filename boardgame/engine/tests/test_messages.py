"""Game text as keys + parameters (docs/westeros-engine.md, "Messages"): every message the engine can emit
has its key in the catalogue, fills exactly its key's placeholders, round-trips through JSON, names things
by tagged ids, and renders the English words the log and the play layer have always shown; the Thai and
Chinese catalogues translate every key with the same placeholders."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from random import Random
from typing import Any

import pytest

from boardgame.engine import board as board_module
from boardgame.engine.actions import DESCRIBE_NAMES, Choose, PlaceOrder, secret_message
from boardgame.engine.data import GameData
from boardgame.engine.explain import explain_illegal, explain_message
from boardgame.engine.game import WesterosState, new_game
from boardgame.engine.log_messages import event_message
from boardgame.engine.messages import Msg, params_of

from .conftest import pure_python_only

ENGINE = Path(__file__).resolve().parent.parent
LANGUAGES = ("th", "zh_Hans")
PLAYOUTS = ((3, 7), (6, 5), (4, 11), (3, 23), (6, 31))  # (player count, seed)


def source_keys() -> set[str]:
    """Every `gettext_noop("...")` literal in the engine's modules (what makemessages extracts)."""
    keys: set[str] = set()
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "gettext_noop":
                assert node.args and isinstance(node.args[0], ast.Constant), (
                    f"{path.name}: a key must be a literal"
                )
                keys.add(str(node.args[0].value))
    return keys


def read_po(lang: str) -> dict[str, tuple[str, bool]]:
    """msgid → (msgstr, fuzzy) of the engine's catalogue for `lang` (the header entry left out)."""
    text = (ENGINE / "locale" / lang / "LC_MESSAGES" / "django.po").read_text()
    out: dict[str, tuple[str, bool]] = {}
    for block in text.split("\n\n"):
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in block.splitlines())
        parts: dict[str, str] = {}
        field = ""
        for line in block.splitlines():
            m = re.match(r'^(msgid|msgstr) (".*")$', line)
            if m:
                field = m.group(1)
                parts[field] = ast.literal_eval(m.group(2))
            elif line.startswith('"') and field:
                parts[field] += ast.literal_eval(line)
        if parts.get("msgid"):
            out[parts["msgid"]] = (parts.get("msgstr", ""), fuzzy)
    return out


def walk(m: Msg) -> Iterator[tuple[Msg, Any]]:
    """Each message (nested ones too) with each of its parameter values, lists opened."""
    yield m, None
    stack: list[Any] = list(m.params.values())
    while stack:
        v = stack.pop()
        if isinstance(v, Msg):
            yield from walk(v)
        elif isinstance(v, dict) and "msg" in v:
            inner = v["msg"]
            yield from walk(inner if isinstance(inner, Msg) else Msg.from_json(inner))
        elif isinstance(v, dict) and "list" in v:
            stack.extend(v["list"])
        else:
            yield m, v


EVENTS: list[
    tuple[str, Msg, dict[str, Any]]
] = []  # the log events of the playouts: their stored words and their messages


def playout(gd: GameData, count: int, seed: int, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Msg]]:
    """A seeded random game: every message it emits (events, action descriptions, secret-action texts,
    reasons for illegal actions, the outcome), each with the English the engine wrote or showed for it."""
    got: list[tuple[str, Msg]] = []
    original = board_module.Board.event

    def event(self: Any, message: Msg, to: list[str] | None = None, **kw: Any) -> None:
        original(self, message, to, **kw)
        stored = self.log[-1]
        got.append((stored["text"], message))
        EVENTS.append(
            (stored["text"], message, {k: v for k, v in stored.items() if k in ("card", "wildling_card")})
        )

    monkeypatch.setattr(board_module.Board, "event", event)
    st = new_game(gd, player_count=count, seed=seed)
    rng = Random(seed)
    while not st.is_terminal():
        legal = st.legal_actions(st.current_players()[0])
        a = rng.choice(legal)
        got.append((a.describe(st), a.message(st)))
        got.append((secret_message(a).english(), secret_message(a)))
        wrong = legal[0].player if len(st.houses) else ""
        for bad in (PlaceOrder(wrong, "winterfell", "raid"), Choose(wrong, "raven", "nowhere")):
            why = explain_message(st, bad)
            if why is not None:
                got.append((explain_illegal(st, bad), why))
        st.apply(a)
    out = st.outcome()
    assert out is not None
    got.append((out.message().english(), out.message()))
    monkeypatch.undo()
    return got


@pytest.fixture(scope="module")
def emitted(gd: GameData) -> list[tuple[str, Msg]]:
    pure_python_only()  # `playout` wraps Board.event
    mp = pytest.MonkeyPatch()
    try:
        return [x for count, seed in PLAYOUTS for x in playout(gd, count, seed, mp)]
    finally:
        mp.undo()


def test_every_emitted_key_and_term_is_in_the_catalogue_and_fills_its_placeholders(
    emitted: list[tuple[str, Msg]],
) -> None:
    keys = source_keys()
    catalogue = set(read_po("th"))
    assert keys <= catalogue, sorted(keys - catalogue)
    seen: set[str] = set()
    for _, message in emitted:
        for m, v in walk(message):
            if v is None:
                assert m.key in keys, m.key
                assert params_of(m.key) == set(m.params), (m.key, sorted(m.params))
                seen.add(m.key)
            elif isinstance(v, dict):
                assert len(v) == 1 and next(iter(v)) in ("area", "house", "card", "term"), v
                if "term" in v:
                    assert v["term"] in keys, f"{m.key}: term {v['term']!r} is not a catalogue key"
            else:
                assert isinstance(v, int | str), (m.key, v)
    assert len(seen) > 80  # the playouts reach most of the engine's texts


def test_the_english_of_each_message_is_what_the_engine_wrote(emitted: list[tuple[str, Msg]]) -> None:
    """Action descriptions name areas and cards as printed; the log keeps ids (the stored format)."""
    for text, m in emitted:
        if text in (m.english(), m.english(**DESCRIBE_NAMES)):
            continue
        # Events that always carried another form of their words (lists of raw ids, nested descriptions)
        # still say the same message: its English with every id in place.
        flat = text.lower().replace(" ", "_")
        assert all(str(v).lower().replace(" ", "_") in flat for x, v in walk(m) if isinstance(v, int)), text


def test_messages_round_trip_through_json(emitted: list[tuple[str, Msg]]) -> None:
    for _, m in emitted:
        data = json.loads(json.dumps(m.to_json()))
        assert Msg.from_json(data) == Msg.from_json(m.to_json())
        assert Msg.from_json(data).english() == m.english()
        assert set(data) == {"key", "params"}


def test_a_message_names_houses_and_areas_by_id(gd: GameData) -> None:
    st = new_game(gd, player_count=3, seed=1)
    area = next(a for a, u in sorted(st.units.items()) if u.house == "stark" and a in gd.land_areas)
    m = PlaceOrder("stark", area, "march_plus_one").message(st)
    assert m.to_json() == {
        "key": "%(player)s places %(order)s in %(area)s",
        "params": {"player": {"house": "stark"}, "order": {"term": "March +1 ★"}, "area": {"area": area}},
    }
    assert m.english(**DESCRIBE_NAMES) == f"Stark places March +1 ★ in {area.replace('_', ' ').title()}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalogue_translates_every_key_with_the_same_placeholders(lang: str) -> None:
    po = read_po(lang)
    assert set(po) == source_keys()
    for msgid, (msgstr, fuzzy) in po.items():
        assert msgstr and not fuzzy, msgid
        assert params_of(msgstr) == params_of(msgid), (msgid, msgstr)
        assert re.sub(r"%\(\w+\)s", "", msgstr).count("%") == 0, msgstr  # no stray % for %-formatting
        assert (
            msgstr != msgid or not re.search(r"[a-z]{3}", re.sub(r"%\(\w+\)s", "", msgid)) or lang == "th"
        ), msgid


def test_an_old_decision_name_is_no_longer_shown_as_an_enum(gd: GameData) -> None:
    """A refused menu answer names the awaited decision by its id (it showed `<Decision.X: 'x'>`)."""
    st, rng = new_game(gd, player_count=3, seed=2), Random(2)
    while (st.pending is None or st.pending.kind != "choose") and not st.is_terminal():
        st.apply(rng.choice(st.legal_actions(st.current_players()[0])))
    assert st.pending is not None
    p = st.pending.players[0]
    other = "raven" if st.pending.decision != "raven" else "tie_order"
    why = st.explain_illegal(Choose(p, other, "x"))
    assert f"the decision now is '{st.pending.decision}', not '{other}'" in why
    assert "<Decision." not in why


def test_a_state_keeps_its_stored_log_words(gd: GameData) -> None:
    """The stored log holds English words, as every stored game does: a state loaded from it plays on."""
    st, rng = new_game(gd, player_count=3, seed=4), Random(4)
    for _ in range(30):
        st.apply(rng.choice(st.legal_actions(st.current_players()[0])))
    d = st.to_dict()
    assert all(set(e) >= {"n", "round", "text"} and "msg" not in e for e in d["log"])
    again = WesterosState.from_dict(d)
    assert again.log == st.log


def test_every_stored_event_reads_back_as_the_message_it_was_written_from(
    gd: GameData, emitted: list[tuple[str, Msg]]
) -> None:
    """Old and new stored games alike: the log's words give back the engine's message (W-20)."""
    names: dict[str, str] = {}
    for deck in (gd.house_cards, gd.westeros_cards, gd.wildling_cards):
        for cid, c in sorted(deck.items(), reverse=True):
            names[str(c["name"])] = cid  # the first deck's card for a name two decks print
    assert len(EVENTS) > 1000
    for text, m, extra in EVENTS:
        back = event_message({"text": text, **extra}, names)
        assert back is not None, text
        if back.key == "Resolving %(card)s":  # "1:supply" and "2:supply" are one card in two decks
            assert gd.westeros_cards[back.params["card"]["card"]]["name"] == text.removeprefix("Resolving ")
            continue
        assert back.to_json() == m.to_json(), text


@pytest.mark.pure_only
def test_an_event_of_a_game_stored_before_messages_reads_back() -> None:
    ev = {"n": 7, "round": 1, "text": "Stark marches footman, siege_engine into The Neck (attack)"}
    back = event_message(ev)
    assert back is not None and back.to_json() == {
        "key": "%(action)s (attack)",
        "params": {"action": {"msg": {
            "key": "%(player)s marches %(units)s into %(dest)s",
            "params": {"player": {"house": "stark"}, "units": {"list": [{"term": "footman"}, {"term": "siege_engine"}]},
                       "dest": {"area": "the_neck"}},
        }}},
    }  # fmt: skip
    assert event_message({"text": "Something no key says"}) is None
