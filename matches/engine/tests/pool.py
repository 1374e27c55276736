"""A small two-faction test card pool covering every trigger, effect and keyword of the vocabulary."""

from __future__ import annotations

from typing import Any


def _unit(
    name: str,
    faction: str,
    cc: int,
    ec: int,
    power: int,
    health: int,
    arrows: list[str],
    *,
    keywords: list[str] | None = None,
    abilities: list[dict[str, Any]] | None = None,
    legendary: bool = False,
) -> dict[str, Any]:
    return {
        "name": name,
        "faction": faction,
        "type": "unit",
        "command_cost": cc,
        "energy_cost": ec,
        "power": power,
        "health": health,
        "arrows": arrows,
        "legendary": legendary,
        "unique": False,
        "event_type": None,
        "keywords": keywords or [],
        "rules_text": "",
        "abilities": abilities or [],
        "flavor_text": "",
    }


def _event(
    name: str,
    faction: str,
    cc: int,
    ec: int,
    event_type: str,
    abilities: list[dict[str, Any]],
    *,
    unique: bool = False,
) -> dict[str, Any]:
    return {
        "name": name,
        "faction": faction,
        "type": "event",
        "command_cost": cc,
        "energy_cost": ec,
        "power": None,
        "health": None,
        "arrows": [],
        "legendary": False,
        "unique": unique,
        "event_type": event_type,
        "keywords": [],
        "rules_text": "",
        "abilities": abilities,
        "flavor_text": "",
    }


def eff(effect: str, target: str, **params: Any) -> dict[str, Any]:
    return {"effect": effect, "target": target, **params}


def ab(trigger: str, *effects: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"trigger": trigger, "effects": list(effects), **extra}


ALL8 = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]


def pool_cards() -> list[dict[str, Any]]:
    E, T = "ember", "tide"
    return [
        _unit("Ember Scout", E, 1, 0, 2000, 4000, ["N", "NE", "NW"]),
        _unit("Ember Archer", E, 2, 0, 2000, 4000, ["N"], keywords=["range_attack"]),
        _unit(
            "Ember Marker",
            E,
            2,
            1,
            1000,
            5000,
            ["N", "E", "W"],
            keywords=["marking"],
            abilities=[ab("marking", eff("deal_damage", "attack_target", amount=500))],
        ),
        _unit(
            "Ember Zealot",
            E,
            1,
            0,
            3000,
            4000,
            ["N"],
            keywords=["deploying"],
            abilities=[ab("deploying", eff("deal_damage", "chosen_enemy_unit", amount=1000))],
        ),
        _unit(
            "Ember Sage",
            E,
            2,
            0,
            1000,
            5000,
            ["N", "S"],
            keywords=["casting"],
            abilities=[ab("casting", eff("draw", "controller", count=1))],
        ),
        _unit(
            "Ember Reaver",
            E,
            2,
            0,
            3000,
            5000,
            ["N", "NE", "NW"],
            keywords=["spoil"],
            abilities=[ab("spoil", eff("gain_cp", "controller", amount=1))],
        ),
        _unit(
            "Ember Phalanx",
            E,
            2,
            0,
            2000,
            5000,
            ["N", "E", "W"],
            keywords=["formation"],
            abilities=[ab("formation", eff("modify_power", "self", amount=1000), x=3)],
        ),
        _unit(
            "Ember Bomb",
            E,
            1,
            0,
            1000,
            4000,
            ["N"],
            abilities=[ab("on_defeated", eff("deal_damage", "adjacent_enemy_units", amount=1000))],
        ),
        _unit(
            "Ember Smith",
            E,
            2,
            0,
            1000,
            5000,
            ["N"],
            abilities=[
                ab(
                    "planning_activated",
                    eff("modify_power", "chosen_friendly_unit", amount=1000),
                    cost={"cp": 1},
                )
            ],
        ),
        _unit(
            "Ember Queen",
            E,
            3,
            1,
            4000,
            7000,
            ALL8,
            legendary=True,
            abilities=[ab("static", eff("modify_health", "all_other_friendly_units", amount=1000))],
        ),
        _event(
            "Fireball",
            E,
            1,
            1,
            "planning",
            [ab("on_play", eff("deal_damage", "chosen_enemy_unit", amount=2000))],
        ),
        _event(
            "Ember Shield",
            E,
            0,
            0,
            "defensive",
            [
                ab(
                    "on_play",
                    eff("heal", "chosen_friendly_unit", amount=2000),
                    eff("modify_health", "all_friendly_units", amount=1000),
                )
            ],
        ),
        _event(
            "Burning Brand",
            E,
            1,
            0,
            "ongoing",
            [ab("attached", eff("modify_power", "attached_unit", amount=1000))],
        ),
        _event(
            "Inferno",
            E,
            2,
            2,
            "planning",
            [ab("on_play", eff("deal_damage", "all_enemy_units", amount=1000))],
            unique=True,
        ),
        _unit(
            "Tide Caller",
            T,
            1,
            0,
            2000,
            4000,
            ["N", "E", "W"],
            abilities=[ab("start_of_turn", eff("gain_energy", "controller", count=1))],
        ),
        _unit(
            "Tide Warden",
            T,
            2,
            0,
            1000,
            6000,
            ["N", "S", "E", "W"],
            abilities=[ab("start_of_defending", eff("heal", "all_friendly_units", amount=1000))],
        ),
        _unit(
            "Tide Lancer",
            T,
            2,
            0,
            3000,
            4000,
            ["N"],
            abilities=[ab("on_attack", eff("move", "attack_target"))],
        ),
        _unit(
            "Tide Mystic",
            T,
            1,
            0,
            1000,
            4000,
            ["N"],
            abilities=[
                ab("start_of_planning", eff("lose_cp", "opponent", amount=1)),
                ab("defending_activated", eff("modify_health", "self", amount=1000)),
            ],
        ),
        _unit(
            "Tide Thief",
            T,
            2,
            0,
            2000,
            4000,
            ["N", "NE"],
            keywords=["deploying"],
            abilities=[ab("deploying", eff("discard", "opponent", count=1))],
        ),
        _unit(
            "Tide Drainer",
            T,
            2,
            0,
            2000,
            4000,
            ["N"],
            keywords=["deploying"],
            abilities=[ab("deploying", eff("retire_energy", "opponent", count=1))],
        ),
        _unit(
            "Tide Bouncer",
            T,
            2,
            0,
            2000,
            4000,
            ["N"],
            keywords=["deploying"],
            abilities=[ab("deploying", eff("return_to_hand", "chosen_enemy_unit"))],
        ),
        _unit(
            "Tide Exile",
            T,
            3,
            0,
            3000,
            5000,
            ["N", "NE", "NW"],
            keywords=["spoil"],
            abilities=[ab("spoil", eff("remove_from_game", "defeated_unit"))],
        ),
        _unit(
            "Tide Sniper",
            T,
            2,
            0,
            1000,
            4000,
            ["N"],
            abilities=[
                ab(
                    "planning_activated",
                    eff("grant_range_attack", "self"),
                    cost={"cp": 1},
                    once_per_turn=False,
                )
            ],
        ),
        _unit(
            "Tide King",
            T,
            3,
            0,
            4000,
            8000,
            ALL8,
            legendary=True,
            keywords=["formation"],
            abilities=[ab("formation", eff("grant_range_attack", "self"), x=2)],
        ),
        _event("Riptide", T, 1, 0, "planning", [ab("on_play", eff("move", "chosen_enemy_unit"))]),
        _event(
            "Undertow",
            T,
            0,
            1,
            "defensive",
            [ab("on_play", eff("modify_power", "chosen_enemy_unit", amount=-1000))],
        ),
        _event(
            "Tidal Mark",
            T,
            1,
            0,
            "ongoing",
            [ab("attached", eff("modify_health", "attached_unit", amount=-1000))],
        ),
        _event(
            "Maelstrom",
            T,
            2,
            1,
            "planning",
            [ab("on_play", eff("defeat", "chosen_unit"), eff("draw", "controller", count=2))],
            unique=True,
        ),
    ]


def pool_file() -> dict[str, Any]:
    return {
        "format": "commandeer-cards",
        "version": 1,
        "factions": [
            {"slug": "ember", "name": "Ember", "description": "", "color": "#c33"},
            {"slug": "tide", "name": "Tide", "description": "", "color": "#33c"},
        ],
        "keywords": [],
        "cards": pool_cards(),
    }
