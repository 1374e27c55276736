"""Check the Commandeer sample card set: file format, every card's consistency, the set's requirements.

Run from the project root::

    .venv/bin/python cards/data/check_sample.py [path/to/cards.json]

It prints a summary per faction and every problem found, and exits 1 when there is any problem.
Abilities are validated by ``matches.engine.vocabulary.validate_abilities`` (the single source of truth);
field consistency by ``cards.models.card_field_errors`` (Django is set up for it). Rules text and each ability's ``text`` must be exactly the plain-English rendering of the
structured abilities by ``cards.describe`` (the project's one renderer, also used by the admin, the API
and the docs), so the engine can be tested card by card against what the card says.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from django.utils.text import slugify  # how the database derives a card's unique slug

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from cards.describe import describe_ability, rules_text_for  # noqa: E402
from matches.engine import vocabulary as vocab  # noqa: E402
from matches.engine.decks import SAMPLE_CARDS  # noqa: E402

DEFAULT_PATH = SAMPLE_CARDS
FILE_FORMAT = "commandeer-cards"
FILE_VERSION = 1
EVENT_TYPES = ("planning", "defensive", "ongoing")  # C-1.3
KEYWORD_NAMES = {
    "range_attack": "Range Attack",
    "deploying": "Deploying",
    "casting": "Casting",
    "marking": "Marking",
    "spoil": "Spoil",
    "formation": "Formation",
}
CARD_KEYS: dict[str, type | tuple[type, ...]] = {
    "name": str,
    "faction": str,
    "type": str,
    "command_cost": int,
    "energy_cost": int,
    "power": (int, type(None)),
    "health": (int, type(None)),
    "arrows": list,
    "legendary": bool,
    "unique": bool,
    "event_type": (str, type(None)),
    "keywords": list,
    "rules_text": str,
    "abilities": list,
    "flavor_text": str,
}

# Requirements of the sample set (issue: sample card set).
MIN_FACTIONS = 3
MIN_DISTINCT_PER_FACTION = 30
MIN_LEGENDARY_PER_FACTION = 3
MIN_UNIQUE_PER_FACTION = 2
MIN_OPENING_UNITS = 4  # units payable in the first player's first turn: <= 2 CP (C-4.6), no Energy
DECKS_TO_BUILD = 3
# Deck construction (C-3).
DECK_MIN_CARDS = 50  # C-3.1
MAX_COPIES = 4  # C-3.2
MAX_COPIES_SINGLETON = 1  # C-3.3 Legendary units and Unique events
# Balance ranges of the sample set (edge squares take 3000 Health, C-2.3). A player gains 3 CP a turn
# (C-5.1) and loses what is unspent when the Planning phase ends (C-5.4): CP cannot be saved up, so a
# Command cost above 3 could only be paid with gain_cp effects. Strong cards cost Energy instead.
CP_PER_TURN = 3
COMMAND_COST = (1, CP_PER_TURN)
ENERGY_COST = (0, 3)
POWER = (1000, 6000)
HEALTH = (2000, 9000)
STAT_STEP = 500
CHEAP_UNIT_COST = 2
CHEAP_UNIT_MAX_ARROWS = 3

NAME_MAX = 80  # Card.name / Card.slug max_length
FACTION_MAX = 60  # Faction.name / Faction.slug max_length
SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
COLOR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")
# Optional "translations" of each record (th, zh-hans): the translatable fields and their length bounds.
FACTION_TRANSLATED: dict[str, int | None] = {"name": FACTION_MAX, "description": None}
KEYWORD_TRANSLATED: dict[str, int | None] = {"name": FACTION_MAX, "reminder_text": None}
CARD_TRANSLATED: dict[str, int | None] = {"name": NAME_MAX, "rules_text": None, "flavor_text": None}


def translation_problems(record: Mapping[str, Any], limits: dict[str, int | None]) -> list[str]:
    """The problems of a record's optional "translations" (cards.data_translations, the importer's check)."""
    if "translations" not in record:
        return []
    from cards.data_translations import translation_errors  # needs Django's settings (set up by now)

    return translation_errors(record["translations"], limits=limits)


# --- Card field consistency -------------------------------------------------------------------------


def load_card_field_errors() -> tuple[Callable[..., dict[str, list[str]]], str]:
    """cards.models.card_field_errors for a card record, after setting up Django (the checker runs inside
    the project)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from cards.services import record_field_errors

    return record_field_errors, "cards.models.card_field_errors"


# --- Checks -----------------------------------------------------------------------------------------


def check_file_format(data: Any) -> list[str]:
    """Top-level format: format/version, factions and keywords lists, cards list."""
    if not isinstance(data, dict):
        return ["the file must hold a JSON object"]
    problems = []
    expected = {"format", "version", "factions", "keywords", "cards"}
    if set(data) != expected:
        problems.append(f"top-level keys must be exactly {sorted(expected)}, got {sorted(data)}")
    if data.get("format") != FILE_FORMAT:
        problems.append(f"format must be '{FILE_FORMAT}'")
    if data.get("version") != FILE_VERSION:
        problems.append(f"version must be {FILE_VERSION}")
    factions = data.get("factions")
    if not isinstance(factions, list) or not factions:
        problems.append("factions must be a non-empty list")
    else:
        slugs = []
        for i, f in enumerate(factions):
            if not isinstance(f, dict) or set(f) - {"translations"} != {
                "slug",
                "name",
                "description",
                "color",
            }:
                problems.append(
                    f"factions[{i}] must have exactly slug, name, description, color (and translations)"
                )
                continue
            problems.extend(f"factions[{i}].{p}" for p in translation_problems(f, FACTION_TRANSLATED))
            slugs.append(f["slug"])
            if not isinstance(f["slug"], str) or not SLUG_RE.match(f["slug"]):
                problems.append(f"factions[{i}].slug '{f['slug']}' is not a slug")
            if not isinstance(f["color"], str) or not COLOR_RE.match(f["color"]):
                problems.append(f"factions[{i}].color '{f['color']}' is not a #rrggbb colour")
            for key in ("name", "description"):
                if not isinstance(f[key], str) or not f[key].strip():
                    problems.append(f"factions[{i}].{key} must be a non-empty string")
            for key in ("name", "slug"):
                if isinstance(f[key], str) and len(f[key]) > FACTION_MAX:
                    problems.append(f"factions[{i}].{key} is longer than {FACTION_MAX} characters")
        for slug, n in Counter(slugs).items():
            if n > 1:
                problems.append(f"faction slug '{slug}' appears {n} times")
        names = [f.get("name") for f in factions if isinstance(f, dict)]
        for name, n in Counter(names).items():
            if n > 1:
                problems.append(f"faction name '{name}' appears {n} times")
    keywords = data.get("keywords")
    if not isinstance(keywords, list):
        problems.append("keywords must be a list")
    else:
        codes = []
        for i, k in enumerate(keywords):
            if not isinstance(k, dict) or set(k) - {"translations"} != {"code", "name", "reminder_text"}:
                problems.append(
                    f"keywords[{i}] must have exactly code, name, reminder_text (and translations)"
                )
                continue
            problems.extend(f"keywords[{i}].{p}" for p in translation_problems(k, KEYWORD_TRANSLATED))
            codes.append(k["code"])
            if k["code"] not in vocab.KEYWORDS:
                problems.append(f"keywords[{i}].code '{k['code']}' is not an engine keyword")
            elif k["name"] != KEYWORD_NAMES[k["code"]]:
                problems.append(f"keywords[{i}].name must be '{KEYWORD_NAMES[k['code']]}'")
            if not isinstance(k["reminder_text"], str) or len(k["reminder_text"].strip()) < 20:
                problems.append(f"keywords[{i}].reminder_text must explain the keyword")
        if sorted(codes) != sorted(vocab.KEYWORDS):
            problems.append(f"keywords must list each of {sorted(vocab.KEYWORDS)} once, got {sorted(codes)}")
    if not isinstance(data.get("cards"), list) or not data.get("cards"):
        problems.append("cards must be a non-empty list")
    return problems


def check_card(
    card: Any, *, faction_slugs: set[str], field_errors: Callable[..., dict[str, list[str]]]
) -> list[str]:
    """Problems with one card: shape, field consistency, abilities, keywords, balance ranges, text."""
    if not isinstance(card, dict):
        return ["a card must be a JSON object"]
    problems = []
    missing, extra = set(CARD_KEYS) - set(card), set(card) - set(CARD_KEYS) - {"translations"}
    if missing or extra:
        return [f"keys: missing {sorted(missing)}, unknown {sorted(extra)}"]
    problems.extend(translation_problems(card, CARD_TRANSLATED))
    for key, kind in CARD_KEYS.items():
        value = card[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            problems.append(f"{key} has the wrong type ({type(value).__name__})")
    if problems:
        return problems
    if not card["name"].strip():
        problems.append("name must not be empty")
    if len(card["name"]) > NAME_MAX:
        problems.append(f"name is longer than {NAME_MAX} characters")
    if card["faction"] not in faction_slugs:
        problems.append(f"faction '{card['faction']}' is not declared in factions")
    if card["type"] == "event" and card["event_type"] not in EVENT_TYPES:
        problems.append(f"event_type must be one of {', '.join(EVENT_TYPES)}")
    if card["type"] == "unit" and card["event_type"] is not None:
        problems.append("a unit's event_type must be null")
    keyword_codes = card["keywords"]
    unknown = [c for c in keyword_codes if c not in vocab.KEYWORDS]
    if unknown:
        problems.append(f"unknown keywords {unknown}")
    if len(set(keyword_codes)) != len(keyword_codes):
        problems.append("a keyword is listed twice")
    errors = field_errors(card, keyword_codes=[c for c in keyword_codes if c in vocab.KEYWORDS])
    for field, messages in errors.items():
        problems.extend(f"{field}: {m}" for m in messages)
    if problems:
        return problems
    problems.extend(_balance_problems(card))
    problems.extend(_ability_style_problems(card))
    if not problems:
        expected = rules_text_for(card)
        if card["rules_text"] != expected:
            problems.append(f"rules_text must say exactly what the abilities do: {expected!r}")
    if not card["flavor_text"].strip():
        problems.append("flavor_text is empty")
    return problems


def _balance_problems(card: Mapping[str, Any]) -> list[str]:
    """The sample set's number ranges (costs, stats, arrows) and payable costs in each phase."""
    problems = []
    lo, hi = ENERGY_COST
    if not lo <= card["energy_cost"] <= hi:
        problems.append(f"energy_cost {card['energy_cost']} outside {lo}-{hi}")
    lo, hi = COMMAND_COST
    if card["event_type"] == "defensive":
        # C-5.4/C-5.11: CP is lost when the Planning phase ends, so a defender has 0 CP to pay with.
        if card["command_cost"] != 0:
            problems.append("a Defensive event must cost 0 CP: the defender has no CP (C-5.4, C-5.11)")
    elif not lo <= card["command_cost"] <= hi:
        problems.append(
            f"command_cost {card['command_cost']} outside {lo}-{hi} (3 CP a turn, not saved: C-5.1, C-5.4)"
        )
    if card["type"] == "unit":
        for field, (lo, hi) in (("power", POWER), ("health", HEALTH)):
            value = card[field]
            if not lo <= value <= hi or value % STAT_STEP:
                problems.append(f"{field} {value} outside {lo}-{hi} in steps of {STAT_STEP}")
        arrows = card["arrows"]
        if not arrows:
            problems.append("a unit needs at least one arrow")
        if card["command_cost"] <= CHEAP_UNIT_COST and len(arrows) > CHEAP_UNIT_MAX_ARROWS:
            problems.append(
                f"a unit costing {card['command_cost']} CP has more than {CHEAP_UNIT_MAX_ARROWS} arrows"
            )
        if card["legendary"] and card["command_cost"] < 3:
            problems.append("a Legendary unit should cost at least 3 CP")
    for i, ability in enumerate(card["abilities"]):
        if ability["trigger"] == "defending_activated" and ability.get("cost", {}).get("cp"):
            problems.append(f"abilities[{i}]: a Defending-phase ability cannot cost CP (C-5.4, C-5.11)")
        if ability.get("cost", {}).get("cp", 0) > CP_PER_TURN:
            problems.append(f"abilities[{i}]: a cost above {CP_PER_TURN} CP can never be paid (C-5.1, C-5.4)")
    return problems


def _ability_style_problems(card: Mapping[str, Any]) -> list[str]:
    """Keep abilities unambiguous: one chosen target per ability, marking trigger only with Marking."""
    problems = []
    for i, ability in enumerate(card["abilities"]):
        chosen = [e for e in ability["effects"] if e["target"] in vocab.CHOSEN_TARGETS]
        if len(chosen) > 1:
            problems.append(f"abilities[{i}]: more than one chosen target is ambiguous")
        if ability["trigger"] == "marking" and "marking" not in card["keywords"]:
            problems.append(f"abilities[{i}]: a 'marking' trigger needs the Marking keyword")
        if "text" not in ability:
            problems.append(f"abilities[{i}]: text is missing")
        elif ability["text"] != (expected := describe_ability(ability, event_type=card["event_type"])):
            problems.append(f"abilities[{i}].text must be {expected!r}")
        if ability["trigger"] == "on_defeated" and any(e["target"] == "self" for e in ability["effects"]):
            problems.append(
                f"abilities[{i}]: a defeated unit is off the battlefield and cannot affect itself"
            )
    if card["event_type"] == "ongoing" and not any(a["trigger"] == "attached" for a in card["abilities"]):
        problems.append("an Ongoing event needs an 'attached' ability")
    if card["event_type"] in ("planning", "defensive") and not card["abilities"]:
        problems.append("an event needs an ability")
    return problems


def copies_allowed(card: Mapping[str, Any]) -> int:
    """C-3.2/C-3.3: 4 copies of a name, 1 of a Legendary unit or Unique event."""
    return MAX_COPIES_SINGLETON if card["legendary"] or card["unique"] else MAX_COPIES


def deck_errors(deck: Mapping[str, int], cards_by_name: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Deck construction rules C-3.1-C-3.4 for a deck given as {card name: copies}."""
    problems = []
    if sum(deck.values()) < DECK_MIN_CARDS:
        problems.append(f"C-3.1: {sum(deck.values())} cards, at least {DECK_MIN_CARDS} needed")
    for name, n in deck.items():
        card = cards_by_name.get(name)
        if card is None:
            problems.append(f"unknown card '{name}'")
        elif n > copies_allowed(card):
            rule = "C-3.3" if copies_allowed(card) == 1 else "C-3.2"
            problems.append(f"{rule}: {n} copies of '{name}'")
    factions = {cards_by_name[n]["faction"] for n in deck if n in cards_by_name}
    if len(factions) > 1:
        problems.append(f"C-3.4: cards of several factions {sorted(factions)}")
    return problems


def build_decks(cards: Sequence[Mapping[str, Any]], count: int) -> list[dict[str, int]]:
    """`count` different 50-card decks from one faction's cards, each starting at a different card."""
    ordered = sorted(cards, key=lambda c: (c["command_cost"], c["name"]))
    decks = []
    for k in range(count):
        start = k * len(ordered) // count
        deck: dict[str, int] = {}
        for card in ordered[start:] + ordered[:start]:
            room = DECK_MIN_CARDS - sum(deck.values())
            if room <= 0:
                break
            deck[card["name"]] = min(copies_allowed(card), room)
        decks.append(deck)
    return decks


def check_set(cards: list[dict[str, Any]], factions: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """Requirements of the sample set; returns (problems, summary lines)."""
    problems: list[str] = []
    summary: list[str] = []
    if len(factions) < MIN_FACTIONS:
        problems.append(f"{len(factions)} factions, at least {MIN_FACTIONS} needed")
    names = Counter(c["name"] for c in cards)
    for name, n in names.items():
        if n > 1:
            problems.append(f"card name '{name}' appears {n} times (names are unique)")
    slugs = Counter(slugify(c["name"]) for c in cards)
    for slug, n in slugs.items():
        if n > 1:
            problems.append(f"{n} card names share the slug '{slug}' (slugs are unique)")
    key = [(c["faction"], c["name"]) for c in cards]
    if key != sorted(key):
        problems.append("cards must be sorted by faction, then name")
    cards_by_name = {c["name"]: c for c in cards}
    used_triggers: set[str] = set()
    used_effects: set[str] = set()
    used_targets: set[str] = set()
    for slug in [f["slug"] for f in factions]:
        own = [c for c in cards if c["faction"] == slug]
        units = [c for c in own if c["type"] == "unit"]
        events = Counter(c["event_type"] for c in own if c["type"] == "event")
        legendary = sum(c["legendary"] for c in own)
        unique = sum(c["unique"] for c in own)
        keywords = {k for c in own for k in c["keywords"]}
        formation_x = sorted({a["x"] for c in own for a in c["abilities"] if a["trigger"] == "formation"})
        opening = [c for c in units if c["command_cost"] <= CHEAP_UNIT_COST and c["energy_cost"] == 0]
        available = sum(copies_allowed(c) for c in own)
        where = f"faction '{slug}'"
        if len(own) < MIN_DISTINCT_PER_FACTION:
            problems.append(f"{where}: {len(own)} distinct cards, at least {MIN_DISTINCT_PER_FACTION}")
        if legendary < MIN_LEGENDARY_PER_FACTION:
            problems.append(f"{where}: {legendary} Legendary units, at least {MIN_LEGENDARY_PER_FACTION}")
        if unique < MIN_UNIQUE_PER_FACTION:
            problems.append(f"{where}: {unique} Unique events, at least {MIN_UNIQUE_PER_FACTION}")
        for code in vocab.KEYWORDS:
            if code not in keywords:
                problems.append(f"{where}: no card with keyword '{code}'")
        for event_type in EVENT_TYPES:
            if not events[event_type]:
                problems.append(f"{where}: no {event_type} event")
        if len(opening) < MIN_OPENING_UNITS:
            problems.append(f"{where}: {len(opening)} units payable on turn one, {MIN_OPENING_UNITS} needed")
        decks = build_decks(own, DECKS_TO_BUILD)
        for i, deck in enumerate(decks):
            for p in deck_errors(deck, cards_by_name):
                problems.append(f"{where}: sample deck {i + 1} is not legal: {p}")
        if len({tuple(sorted(d.items())) for d in decks}) < DECKS_TO_BUILD:
            problems.append(f"{where}: could not build {DECKS_TO_BUILD} different legal decks")
        summary.append(
            f"{slug}: {len(own)} cards ({len(units)} units, {sum(events.values())} events: "
            f"{events['planning']} planning, {events['defensive']} defensive, {events['ongoing']} ongoing), "
            f"{legendary} Legendary, {unique} Unique, {available} copies available, "
            f"{len(opening)} turn-one units, Formation X in {formation_x}, "
            f"{DECKS_TO_BUILD} legal 50-card decks built"
        )
        for c in own:
            for a in c["abilities"]:
                used_triggers.add(a["trigger"])
                for e in a["effects"]:
                    used_effects.add(e["effect"])
                    used_targets.add(e["target"])
    for kind, used, known in (
        ("trigger", used_triggers, vocab.TRIGGERS),
        ("effect", used_effects, vocab.EFFECTS),
    ):
        for name in known:
            if name not in used:
                problems.append(f"no card uses the {kind} '{name}'")
    unused_targets = sorted(set(vocab.TARGETS) - used_targets)
    summary.append(
        f"set: {len(cards)} cards; {len(used_triggers)}/{len(vocab.TRIGGERS)} triggers, "
        f"{len(used_effects)}/{len(vocab.EFFECTS)} effects, {len(used_targets)}/{len(vocab.TARGETS)} targets used"
        + (f" (unused targets: {', '.join(unused_targets)})" if unused_targets else "")
    )
    return problems, summary


def check(data: Any, field_errors: Callable[..., dict[str, list[str]]]) -> tuple[list[str], list[str]]:
    """Every check on a loaded card file; returns (problems, summary lines)."""
    problems = check_file_format(data)
    if problems:
        return problems, []
    slugs = {f["slug"] for f in data["factions"]}
    good_cards = []
    for i, card in enumerate(data["cards"]):
        label = card.get("name", f"cards[{i}]") if isinstance(card, dict) else f"cards[{i}]"
        card_problems = check_card(card, faction_slugs=slugs, field_errors=field_errors)
        problems.extend(f"{label}: {p}" for p in card_problems)
        if not card_problems:
            good_cards.append(card)
    if problems:
        return problems, []
    set_problems, summary = check_set(good_cards, data["factions"])
    return problems + set_problems, summary


def main(argv: list[str] | None = None) -> int:
    """Check the file named on the command line (default: the sample set); 0 when sound, 1 otherwise."""
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else DEFAULT_PATH
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        print(f"cannot read {path}: {exc}")
        return 1
    field_errors, source = load_card_field_errors()
    problems, summary = check(data, field_errors)
    print(f"{path}: field consistency by {source}")
    for line in summary:
        print("  " + line)
    for p in problems:
        print("PROBLEM: " + p)
    print(f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
