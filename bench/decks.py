#!/usr/bin/env python
"""Deck builder bench: C-3 validation time of a 60-card deck and card search latency over 5,000 cards.

Run `python bench/decks.py` (SQLite in var/bench_decks.sqlite3) or with DATABASE_URL set (PostgreSQL:
a throwaway `test_<name>` database is created and dropped). It never touches the dev database.
Targets: validation median <= 2 ms; search p95 <= 30 ms. Prints figures, then one JSON line.
Options: --cards N (default 5000), --runs N (validation runs, default 2000), --repeat N (search
repetitions per query, default 15), --keep (keep the SQLite file).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

VALIDATE_TARGET_MS = 2.0
SEARCH_P95_TARGET_MS = 30.0

QUERIES = [
    "dragon",
    "f:ember",
    "t:unit cp<=3",
    "f:tide t:event",
    "pow>=4 hp>=5",
    "kw:range_attack",
    "is:legendary",
    "o:damage cp:2",
    '"draw 2"',
    "(f:ember or f:stone) cp>=4",
    "-t:unit e>=2",
    "a:N,S t:unit",
    "name:storm",
    "knight or dragon",
    "t:planning f:gale",
    "legendary pow>=6",
]

ADJECTIVES = (
    "Ember Ash Cinder Flame Kiln Magma Pyre Smoke Tide Frost Storm Gale Stone Iron Shadow Dawn Dusk Thorn "
    "Moon Sun Star Void Blood Bone Silver Golden Crimson Azure Verdant Wild Silent Hollow Ancient Young "
    "Grim Bright Swift Broken Hidden"
).split()
NOUNS = (
    "Scout Runner Guard Archer Warden Brute Knight Sentry Dragon Mage Priest Rider Hound Titan Golem "
    "Witch Herald Lancer Reaper Shaman Serpent Drake Wolf Bear Hawk Sage Captain Duelist Ranger Monk "
    "Tyrant Seer Warlord Squire Harbinger Oracle Stalker Champion Keeper Vanguard"
).split()
TITLES = (
    "",
    "",
    "",
    " of the Deep",
    " of the Vale",
    " the Bold",
    " the Lost",
    " of Embers",
    " Reborn",
    " Prime",
)
TEXTS = (
    "Deploying: deal {n}000 damage to an enemy unit.",
    "Casting: draw 1 card.",
    "Spoil: gain 1 CP.",
    "Formation 3: this unit gets +{n}000 Power.",
    "Draw 2 cards, then retire 1 card from your hand.",
    "Heal {n}000 damage from one of your units.",
    "Return an enemy unit with Power {n}000 or less to its owner's hand.",
    "Your Range Attack units deal +1000 damage this turn.",
    "",
)
FACTIONS = [
    ("ember", "Ember Court"),
    ("tide", "Tide Pact"),
    ("stone", "Stone Legion"),
    ("gale", "Gale Riders"),
    ("shade", "Shade Circle"),
    ("grove", "Grove Kin"),
]
ARROWS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def _setup_django() -> tuple[str, Any]:
    """Configure Django on a throwaway database: a var/ SQLite file, or `test_<name>` on DATABASE_URL."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    bench_file = ROOT / "var" / "bench_decks.sqlite3"
    if not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = f"sqlite:///{bench_file}"
    import django

    django.setup()
    from django.db import connection

    if connection.vendor == "sqlite":
        connection.settings_dict.setdefault("TEST", {})["NAME"] = str(bench_file)
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    return old_name, connection


def generate_cards(n: int, seed: int = 2026) -> None:
    """A seeded, realistic card pool: ~70% units, Legendary/Unique ~5%, keywords, rules text."""
    from cards.models import Card, Faction, Keyword
    from matches.engine.vocabulary import KEYWORDS

    rng = random.Random(seed)
    factions = [Faction.objects.create(name=name, slug=slug) for slug, name in FACTIONS]
    keywords = [
        Keyword.objects.create(code=code, name=code.replace("_", " ").title(), reminder_text=text)
        for code, text in KEYWORDS.items()
    ]
    names: set[str] = set()
    cards: list[Card] = []
    while len(cards) < n:
        name = f"{rng.choice(ADJECTIVES)} {rng.choice(NOUNS)}{rng.choice(TITLES)}"
        if name in names:
            name = f"{name} {len(cards)}"
        names.add(name)
        is_unit = rng.random() < 0.7
        cp = min(8, int(rng.expovariate(0.45)))
        cards.append(
            Card(
                name=name,
                slug=name.lower().replace(" ", "-"),
                faction=rng.choice(factions),
                card_type="unit" if is_unit else "event",
                command_cost=cp,
                energy_cost=rng.choice((0, 0, 0, 1, 1, 2, 3)),
                power=rng.randint(1, 8) * 1000 if is_unit else None,
                health=rng.randint(1, 9) * 1000 if is_unit else None,
                arrows=sorted(rng.sample(ARROWS, rng.randint(1, 4)), key=ARROWS.index) if is_unit else [],
                legendary=is_unit and rng.random() < 0.05,
                unique=not is_unit and rng.random() < 0.05,
                event_type="" if is_unit else rng.choice(("planning", "defensive", "ongoing")),
                rules_text=rng.choice(TEXTS).format(n=rng.randint(1, 4)),
            )
        )
    Card.objects.bulk_create(cards, batch_size=500)
    through = Card.keywords.through
    links = []
    for card in Card.objects.only("id"):
        for kw in rng.sample(keywords, rng.choice((0, 0, 1, 1, 2))):
            links.append(through(card_id=card.id, keyword_id=kw.id))
    through.objects.bulk_create(links, batch_size=1000)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def bench_validation(runs: int) -> dict[str, float]:
    """Median time of validate_deck on a 60-card deck of database rows (as the API calls it)."""
    from cards.models import Card
    from decks.validation import validate_deck

    faction = Card.objects.values_list("faction", flat=True).first()
    pool = list(
        Card.objects.select_related("faction").filter(faction=faction, legendary=False, unique=False)[:15]
    )
    legendary = Card.objects.select_related("faction").filter(faction=faction, legendary=True).first()
    entries = [(card, 4) for card in pool[:14]] + [(pool[14], 3)] + ([(legendary, 1)] if legendary else [])
    assert sum(c for _, c in entries) in (59, 60)
    if legendary is None:
        entries.append((pool[0], 1))
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        result = validate_deck(entries, commander=legendary, faction=pool[0].faction)
        timings.append((time.perf_counter() - start) * 1000)
    assert result.total_cards == 60
    return {"median_ms": statistics.median(timings), "p95_ms": percentile(timings, 0.95)}


def bench_search(repeat: int) -> tuple[dict[str, float], dict[str, dict[str, Any]]]:
    """p50/p95 of card_search over the query mix, counted and first page (50) fetched like the API."""
    from cards.selectors import card_search

    timings: list[float] = []
    per_query: dict[str, dict[str, Any]] = {}
    for query in QUERIES:  # warm-up + hit counts
        qs = card_search(query)
        per_query[query] = {"hits": qs.count()}
    for _ in range(repeat):
        for query in QUERIES:
            start = time.perf_counter()
            qs = card_search(query)
            qs.count()
            list(qs[:50])
            elapsed = (time.perf_counter() - start) * 1000
            timings.append(elapsed)
            per_query[query].setdefault("ms", []).append(elapsed)
    for data in per_query.values():
        data["median_ms"] = round(statistics.median(data.pop("ms")), 2)
    return {
        "p50_ms": percentile(timings, 0.5),
        "p95_ms": percentile(timings, 0.95),
        "samples": len(timings),
    }, per_query


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--keep", action="store_true", help="keep the SQLite bench file")
    args = parser.parse_args()

    old_name, connection = _setup_django()
    try:
        start = time.perf_counter()
        generate_cards(args.cards)
        print(
            f"database: {connection.vendor}; generated {args.cards} cards in {time.perf_counter() - start:.1f} s"
        )
        validation = bench_validation(args.runs)
        print(
            f"validate_deck, 60 cards: median {validation['median_ms']:.3f} ms, p95 {validation['p95_ms']:.3f} ms "
            f"(target median <= {VALIDATE_TARGET_MS} ms)"
        )
        search, per_query = bench_search(args.repeat)
        for query, data in per_query.items():
            print(f"  {query!r:34} {data['hits']:5} hits  median {data['median_ms']:7.2f} ms")
        print(
            f"card_search over {args.cards} cards: p50 {search['p50_ms']:.2f} ms, p95 {search['p95_ms']:.2f} ms "
            f"({search['samples']} samples; target p95 <= {SEARCH_P95_TARGET_MS} ms)"
        )
    finally:
        if connection.vendor == "sqlite" and args.keep:
            connection.close()
        else:
            connection.creation.destroy_test_db(old_name, verbosity=0)
    ok = validation["median_ms"] <= VALIDATE_TARGET_MS and search["p95_ms"] <= SEARCH_P95_TARGET_MS
    print(
        json.dumps(
            {
                "bench": "decks",
                "database": connection.vendor,
                "cards": args.cards,
                "validate_60_median_ms": round(validation["median_ms"], 4),
                "validate_60_p95_ms": round(validation["p95_ms"], 4),
                "search_p50_ms": round(search["p50_ms"], 2),
                "search_p95_ms": round(search["p95_ms"], 2),
                "search_samples": search["samples"],
                "targets": {"validate_median_ms": VALIDATE_TARGET_MS, "search_p95_ms": SEARCH_P95_TARGET_MS},
                "ok": ok,
            }
        )
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
