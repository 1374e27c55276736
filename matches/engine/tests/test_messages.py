"""Game texts as messages (docs/commandeer-engine.md, "Messages"): every key the engine can emit is a
``gettext_noop``'d literal of the engine, in the catalogue, with placeholders that match its parameters;
a message renders to the English text shown beside it and round-trips through JSON; the Thai and
Chinese catalogues translate every key with the same placeholders (rule numbers kept).

Keys are collected from seeded random playouts (pool decks with every trigger, effect and keyword, and the
sample decks), as the conformance suite plays them: the description of every legal action, the log and
the consequences for both players and a spectator, the reasons for unplayable cards and for stale and
wrong-player actions, the timeout defaults and the outcome.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from random import Random
from typing import Any

import pytest

from matches.engine import build_deck, load_card_file, new_match
from matches.engine.actions import Concede, Pass, timeout_message, timeout_secret
from matches.engine.consequences import consequences, squares_before
from matches.engine.decks import default_decks
from matches.engine.legality import card_hint, situation
from matches.engine.messages import TERMS, Msg, english_param, term
from matches.engine.state import GameState
from matches.engine.tests.pool import pool_file

ENGINE = Path(__file__).resolve().parent.parent
LOCALES = ("th", "zh_Hans")
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
RULE = re.compile(r"C-\d+(?:\.\d+)?")


def _keys_in(path: Path) -> set[str]:
    """Every string literal a module passes to ``gettext_noop`` (what makemessages extracts)."""
    keys: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "gettext_noop":
            arg = node.args[0]
            assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), (path.name, node.lineno)
            keys.add(arg.value)
    return keys


def _source_keys() -> set[str]:
    """Every string literal the engine passes to ``gettext_noop``."""
    return {key for path in ENGINE.glob("*.py") for key in _keys_in(path)}


def _po(lang: str) -> dict[str, tuple[str, bool]]:
    """A catalogue: msgid -> (msgstr, fuzzy), from the .po text (continuation lines joined)."""
    entries: dict[str, tuple[str, bool]] = {}
    text = (ENGINE / "locale" / lang / "LC_MESSAGES" / "django.po").read_text()
    for block in text.split("\n\n"):
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in block.splitlines())
        parts: dict[str, str] = {}
        field = None
        for line in block.splitlines():
            if line.startswith(("msgid ", "msgstr ")):
                field, _, rest = line.partition(" ")
                parts[field] = ast.literal_eval(rest)
            elif line.startswith('"') and field is not None:
                parts[field] += ast.literal_eval(line)
        if parts.get("msgid"):
            entries[parts["msgid"]] = (parts.get("msgstr", ""), fuzzy)
    return entries


def _decks(seed: int) -> list[dict[str, Any]]:
    if seed % 2:
        cat = load_card_file(pool_file())
        return [build_deck(cat, "ember"), build_deck(cat, "tide")]
    decks = list(default_decks().values())
    return [decks[seed % len(decks)], decks[(seed + 1) % len(decks)]]


def _emitted(seed: int) -> Iterator[tuple[Msg, str | None]]:
    """Every message a seeded playout produces, with the English text shown beside it (if any)."""
    decks = _decks(seed)
    g = new_match(decks[0], decks[1], seed=seed)
    rng = Random(seed * 31)
    stale: list[Any] = []
    while not g.is_terminal():
        p = g.current_players()[0]
        legal = [a for a in g.legal_actions(p) if not isinstance(a, Concede)]
        for a in legal:
            yield a.message(g), a.describe(g)
        for m in g.unplayable_messages(p).values():
            yield m, None
            yield card_hint(m), None
        for a in stale[:3] + [Pass(1 - p)]:  # actions legal before, and the other player's
            yield g.explain_message(a), g.explain_illegal(a)
        yield situation(g), g.situation()
        default = g.timeout_action(p)
        yield timeout_message(default, default.message(g), g.phase_name(), g.decision, g.card_name), None
        yield timeout_secret(default), None
        a = legal[rng.randrange(len(legal))]
        stale = legal
        before = squares_before(g)
        g.apply(a)
        for viewer in (0, 1, None):
            for item in consequences(g, viewer, before):
                yield Msg.from_json(item["message"]), item["text"]
    for viewer in (0, 1, None):
        for entry in g.log_view(viewer):
            yield Msg.from_json(entry["message"]), entry["text"]
    out = g.outcome()
    assert out is not None
    yield out.message(), None


def _flatten(m: Msg) -> Iterator[Msg]:
    """``m`` and every message nested in its parameters."""
    yield m

    def walk(value: Any) -> Iterator[Msg]:
        if isinstance(value, dict):
            if "msg" in value:
                yield from _flatten(Msg.from_json(value["msg"]))
            for v in value.get("list", []):
                yield from walk(v)

    for value in m.params.values():
        yield from walk(value)


def _terms(m: Msg) -> Iterator[str]:
    def walk(value: Any) -> Iterator[str]:
        if isinstance(value, dict):
            if "term" in value:
                yield value["term"]
            for v in value.get("list", []):
                yield from walk(v)

    for value in m.params.values():
        yield from walk(value)


@pytest.fixture(scope="module")
def emitted() -> list[tuple[Msg, str | None]]:
    return [pair for seed in (1, 2, 3, 4) for pair in _emitted(seed)]


def test_every_emitted_message_is_a_catalogued_key_with_matching_placeholders(
    emitted: list[tuple[Msg, str | None]],
) -> None:
    source = _source_keys()
    catalogue = _po("th")
    keys: set[str] = set()
    for top, _text in emitted:
        for m in _flatten(top):
            keys.add(m.key)
            assert m.key in source, f"not a gettext_noop'd key of the engine: {m.key!r}"
            assert m.key in catalogue, f"not in the catalogue: {m.key!r}"
            assert set(PLACEHOLDER.findall(m.key)) == set(m.params), (m.key, m.params)
            for word in _terms(m):
                assert word in TERMS and word in catalogue, word
    assert len(keys) > 60  # the playouts reach actions, log, consequences, reasons, timeouts and outcomes


def test_a_message_renders_to_the_english_text_beside_it(emitted: list[tuple[Msg, str | None]]) -> None:
    shown = [(m, text) for m, text in emitted if text is not None]
    assert len(shown) > 1000
    for m, text in shown:
        assert m.english() == text


def test_messages_round_trip_through_json(emitted: list[tuple[Msg, str | None]]) -> None:
    for m, _text in emitted:
        again = Msg.from_json(json.loads(json.dumps(m.to_json())))
        assert again == m and again.english() == m.english()


def test_a_message_is_rendered_by_its_tagged_parameters() -> None:
    m = Msg(
        "%(unit)s attacks %(target)s (%(direction)s): %(list)s, %(why)s",
        {
            "unit": {"card": "Ember Scout"},
            "target": {"card": "Dummy"},
            "direction": term("NE"),
            "list": {"list": ["c3", {"card": "Ram"}]},
            "why": {"msg": Msg("%(square)s is occupied (C-5.2)", {"square": "d4"}).to_json()},
        },
    )
    assert m.english() == "Ember Scout attacks Dummy (NE): c3, Ram, d4 is occupied (C-5.2)"
    assert english_param(7) == "7"
    with pytest.raises(ValueError):
        term("north-east")
    bad: Any
    for bad in (None, "text", {"params": {}}, {"key": "x", "params": []}):
        with pytest.raises(ValueError):
            Msg.from_json(bad)


def test_the_catalogue_holds_exactly_the_engine_keys() -> None:
    source = _source_keys()
    for lang in LOCALES:
        assert set(_po(lang)) == source, lang


@pytest.mark.parametrize("lang", LOCALES)
def test_every_key_is_translated_with_the_same_placeholders_and_rule_numbers(lang: str) -> None:
    for key, (text, fuzzy) in _po(lang).items():
        assert text and not fuzzy, (lang, key)
        assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(key)), (lang, key, text)
        assert RULE.findall(text) == RULE.findall(key), (lang, key, text)
        if lang == "zh_Hans" and len(key) > 3 and key not in TERMS:
            assert re.search(r"[\u4e00-\u9fff]", text) or key.startswith("%("), (key, text)
        if lang == "th" and len(key) > 12 and key not in TERMS:
            assert re.search(r"[\u0e00-\u0e7f]", text) or key.startswith("%("), (key, text)


def test_a_state_explains_in_english_what_its_message_says() -> None:
    g: GameState = new_match(*_decks(2), seed=5)
    wrong = Pass(1 - g.current_players()[0])
    assert g.explain_illegal(wrong) == g.explain_message(wrong).english()
    assert "is illegal: player" in g.explain_illegal(wrong)


def test_deck_issues_carry_their_message() -> None:
    from dataclasses import dataclass

    from matches.engine.deckrules import deck_issues

    @dataclass(frozen=True)
    class Card:
        name: str
        faction: str
        legendary: bool = False
        unique: bool = False
        is_unit: bool = True

    pairs = [
        (Card("Ram", "ember"), 5),
        (Card("Queen", "ember", legendary=True), 2),
        (Card("Veil", "ember", unique=True, is_unit=False), 3),
        (Card("Mystic", "tide"), 1),
    ]
    issues = deck_issues(pairs, faction_names={"ember": "Cinder Legion", "tide": "Tidewarden Covenant"})
    assert [i.rule for i in issues] == ["C-3.1", "C-3.2", "C-3.3", "C-3.3", "C-3.4"]
    assert issues[1].message == "5 copies of Ram: at most 4 (C-3.2)"
    assert issues[2].message == "2 copies of Queen: a Legendary unit may appear at most 1 time (C-3.3)"
    assert issues[4].message == (
        "1 card is not Cinder Legion: Mystic (Tidewarden Covenant); a deck uses one faction (C-3.4)"
    )
    catalogue, source = _po("zh_Hans"), _source_keys()
    for issue in issues:
        assert issue.msg is not None and issue.msg.english() == issue.message
        for m in _flatten(issue.msg):
            assert m.key in catalogue and m.key in source
            assert set(PLACEHOLDER.findall(m.key)) == set(m.params), m.key


# One card's abilities (card type, event type) for every problem the ability vocabulary can report (C-1.5).
_DRAW = {"effect": "draw", "target": "controller", "count": 1}
_BAD_ABILITIES: list[tuple[Any, str, str | None]] = [
    ("not a list", "unit", None),
    ([3], "unit", None),
    ([{"trigger": "deploying", "effects": [_DRAW], "junk": 1}], "unit", None),
    ([{"trigger": "sneeze", "effects": [_DRAW]}], "unit", None),
    ([{"trigger": "on_play", "effects": [_DRAW]}], "unit", None),
    ([{"trigger": "deploying", "effects": [_DRAW]}], "event", "planning"),
    ([{"trigger": "deploying", "effects": [_DRAW]}], "land", None),
    (
        [{"trigger": "attached", "effects": [{"effect": "defeat", "target": "attached_unit"}]}],
        "event",
        "planning",
    ),
    (
        [{"trigger": "formation", "effects": [{"effect": "modify_power", "target": "self", "amount": 500}]}],
        "unit",
        None,
    ),
    (
        [
            {
                "trigger": "deploying",
                "x": 3,
                "cost": {"cp": 1},
                "once_per_turn": True,
                "text": 3,
                "effects": [],
            }
        ],
        "unit",
        None,
    ),
    ([{"trigger": "planning_activated", "cost": 3, "effects": ["x"]}], "unit", None),
    (
        [
            {
                "trigger": "planning_activated",
                "cost": {"cp": 11},
                "effects": [{"effect": "explode", "target": "self"}],
            }
        ],
        "unit",
        None,
    ),
    (
        [{"trigger": "deploying", "effects": [{"effect": "draw", "target": "nobody", "count": 1}]}],
        "unit",
        None,
    ),
    (
        [{"trigger": "deploying", "effects": [{"effect": "draw", "target": "self", "count": 11}]}],
        "unit",
        None,
    ),
    (
        [{"trigger": "deploying", "effects": [{"effect": "defeat", "target": "defeated_unit", "bogus": 1}]}],
        "unit",
        None,
    ),
    (
        [{"trigger": "on_play", "effects": [{"effect": "defeat", "target": "attached_unit"}]}],
        "event",
        "planning",
    ),
    ([{"trigger": "static", "effects": [{"effect": "deal_damage", "target": "self"}]}], "unit", None),
    (
        [
            {
                "trigger": "static",
                "effects": [
                    {
                        "effect": "modify_power",
                        "target": "chosen_enemy_unit",
                        "amount": 250,
                        "duration": "forever",
                    },
                    {"effect": "modify_health", "target": "self", "amount": "x"},
                    {"effect": "deal_damage", "target": "self", "amount": 250},
                ],
            }
        ],
        "unit",
        None,
    ),
]
# Keys of the vocabulary no ability can reach: a duration is never missing (it defaults to "turn") and every
# parameter kind is known; both stay in the catalogue (docs/card-abilities.md lists the kinds).
_UNREACHABLE = {"turn or permanent", "unknown parameter kind %(kind)s"}


def _render(m: Msg, catalogue: dict[str, tuple[str, bool]]) -> str:
    """``m`` worded from a catalogue as the play layer words it: nested messages too, plain values as they are."""
    params = {
        name: _render(Msg.from_json(value["msg"]), catalogue) if isinstance(value, dict) else str(value)
        for name, value in m.params.items()
    }
    text = catalogue[m.key][0]
    return text % params if params else text


def test_ability_problems_are_catalogued_messages_whose_english_is_what_validate_abilities_says() -> None:
    from matches.engine.vocabulary import abilities_problems, validate_abilities

    source, reached, vocabulary = _source_keys(), set(), _keys_in(ENGINE / "vocabulary.py")
    catalogues = {lang: _po(lang) for lang in LOCALES}
    for abilities, card_type, event_type in _BAD_ABILITIES:
        problems = abilities_problems(abilities, card_type=card_type, event_type=event_type)
        assert problems, abilities
        assert [m.english() for m in problems] == validate_abilities(
            abilities, card_type=card_type, event_type=event_type
        )
        for top in problems:
            assert Msg.from_json(json.loads(json.dumps(top.to_json()))) == top
            for m in _flatten(top):
                reached.add(m.key)
                assert m.key in source, m.key
                assert set(PLACEHOLDER.findall(m.key)) == set(m.params), (m.key, m.params)
            thai, chinese = _render(top, catalogues["th"]), _render(top, catalogues["zh_Hans"])
            assert re.search(r"[\u0e00-\u0e7f]", thai) and re.search(r"[\u4e00-\u9fff]", chinese), top
    assert reached == vocabulary - _UNREACHABLE
    # The data's own words stay as written in every language: "abilities[0]: effects[0]: ไม่รู้จัก effect ..."
    unknown = abilities_problems(
        [{"trigger": "deploying", "effects": [{"effect": "explode", "target": "self"}]}], card_type="unit"
    )
    assert _render(unknown[0], catalogues["th"]).startswith(
        "abilities[0]: effects[0]: ไม่รู้จัก effect 'explode'"
    )
    assert _render(unknown[0], catalogues["zh_Hans"]).startswith(
        "abilities[0]：effects[0]：未知的效果“explode”"
    )


def test_an_event_card_is_named_with_an() -> None:
    from matches.engine.vocabulary import validate_abilities

    problems = validate_abilities(
        [{"trigger": "deploying", "effects": [_DRAW]}], card_type="event", event_type="planning"
    )
    assert problems == ["abilities[0]: trigger 'deploying' is not allowed on an event card"]
