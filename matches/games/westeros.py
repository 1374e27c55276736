"""A Game of Thrones: The Board Game (Westeros) as a game kind (boardgame.engine): 3–6 houses, which house
each seat plays fixed at the start (W-1.1); the map and cards copied from the curated database."""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields

from django.utils.translation import gettext

from boardgame import dataset as board_dataset
from boardgame.engine import GameData, WesterosState, houses_in_play, load_default_game_data, new_game
from boardgame.engine import RulesConfig as WesterosRules
from boardgame.engine import action_from_json as westeros_action_from_json
from boardgame.engine.actions import ORDER_LABELS, order_label
from boardgame.engine.actions import Action as WesterosAction
from boardgame.engine.actions import secret_message as westeros_secret_message
from boardgame.engine.config import check_field
from boardgame.engine.log_messages import event_message
from boardgame.engine.views import log_view
from config.lru import LruCache
from matches.games.kind import JSON, GameKind, Player, Result, SummaryFacts
from matches.jsontypes import JSONValue

# The card names of each game data in use (a match's states share theirs, and it never changes in a match):
# id of the data -> (the data, its names); the data is kept so that its id cannot be reused meanwhile.
_CARD_IDS: LruCache[int, tuple[GameData, dict[str, str]]] = LruCache(64)


def _card_ids(state: WesterosState) -> dict[str, str]:
    """Printed card name → card id, over the game's decks (the first deck's card for a name two print);
    worked out once per game data (do not mutate the answer)."""
    gd = state.data
    known = _CARD_IDS.get(id(gd))
    if known is not None and known[0] is gd:
        return known[1]
    names: dict[str, str] = {}
    for deck in (gd.house_cards, gd.westeros_cards, gd.wildling_cards):
        for cid, c in sorted(deck.items(), reverse=True):
            names[str(c["name"])] = cid
    _CARD_IDS.put(id(gd), (gd, names))
    return names


def _printed_names(state: WesterosState, text: str) -> str:
    """An engine event's words as a player reads them: area and order-token ids ("the_shivering_sea",
    "march_plus_one") become their printed names (W-1.6), as the action descriptions already say them."""
    areas = state.data.areas

    def printed(m: re.Match[str]) -> str:
        word = m.group(0)
        if word in ORDER_LABELS:
            return order_label(word)
        if word in areas:
            return str(areas[word].get("name") or word.replace("_", " ").title())
        return word

    return re.sub(r"\b[a-z][a-z0-9_]*\b", printed, text)


# The Westeros rules (secret actions, timeout defaults, why an action is illegal, which house each seat
# plays) live in the engine (boardgame.engine): this game kind only delegates to it (through `matches.interface.Game`).
SEATING_CHOICES = ("choose", "random", "draft")
HOUSE_CHOICES = ("random", "stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell")
WESTEROS_VIEW_LOG = 150  # engine log entries sent with each view (the full game is in the match log/replay)


@dataclass(frozen=True)
class WesterosSeating:
    """The play layer's own rules_config keys of a Westeros match (next to the engine's RulesConfig)."""

    # W-1.1: the number of houses (3-6); the engine's set-up data names the houses of each count.
    player_count: int = field(default=6, metadata={"rule": "W-1.1", "min": 3, "max": 6})
    # W-1.1: the creator's house (seat 0), one of that player count's houses, or "random" (seeded draw).
    # "" = the set-up order of the houses.
    house: str = field(default="", metadata={"rule": "W-1.1", "choices": HOUSE_CHOICES})
    # How the other seats get their houses (services.lobby): "choose" (each joiner picks a free house),
    # "random" (drawn at the start with the match seed) or "draft" (in join order, from those left).
    seating: str = field(default="choose", metadata={"rule": "W-1.1", "choices": SEATING_CHOICES})


@functools.cache
def _houses_in_play(count: int) -> tuple[str, ...]:
    return tuple(houses_in_play(load_default_game_data(), count))


class WesterosGame(GameKind[WesterosState, WesterosAction]):
    """Westeros (boardgame.engine): 3–6 houses; which house each seat plays is fixed at the start.

    rules_config: `{"player_count": 3..6, "house": "random"|<house id>, ...engine WesterosRules fields}`.
    `house` is the creator's (seat 0) choice: a house of that player count, the others follow in set-up
    order (W-1.1); "random" draws every seat's house with the match seed. The map and cards are copied
    from the curated database at the start (an admin edit changes the next game, never a running one).
    """

    kind = "westeros"
    label = "A Game of Thrones: The Board Game"
    players = 6
    # W-3.3: orders (placing, taking back, Ready and its take-back), bids and house cards are chosen at once.
    simultaneous_action_types = frozenset(
        {"place_order", "remove_order", "finish_orders", "reopen_orders", "bid", "play_house_card"}
    )

    def seat_count(self, config: JSON) -> int:
        count = (config or {}).get("player_count", self.players)
        return int(count) if isinstance(count, int | float | str) else self.players

    def houses(self, config: JSON) -> list[str]:
        return self.houses_in_play(self.seat_count(config))

    @staticmethod
    def houses_in_play(count: int) -> list[str]:
        """The houses of a `count`-player game in set-up order (W-1.1, W-2)."""
        return list(_houses_in_play(count))

    def config_classes(self) -> tuple[type, ...]:
        return (WesterosSeating, WesterosRules)

    def check_config(self, config: JSON) -> JSON:
        """The seating keys (WesterosSeating) and the engine's WesterosRules, each checked strictly."""
        if not isinstance(config, dict):
            raise ValueError(gettext("rules_config must be an object"))
        config = dict(config)
        seating = {f.name: f for f in dataclass_fields(WesterosSeating)}
        count = check_field(seating["player_count"], config.pop("player_count", self.players))
        house = config.pop("house", "") or ""
        if not isinstance(house, str):
            raise ValueError(gettext("house must be a house id or 'random'"))
        out: JSON = {"player_count": count}
        seating_mode = config.pop("seating", "choose")
        if seating_mode not in SEATING_CHOICES:
            raise ValueError(
                gettext("seating must be one of %(choices)s") % {"choices": ", ".join(SEATING_CHOICES)}
            )
        if seating_mode != "choose":
            out["seating"] = seating_mode
        if house:
            allowed = ["random", *self.houses_in_play(count)]
            if house not in allowed:
                raise ValueError(
                    gettext("house must be one of %(houses)s in a %(count)s-player game")
                    % {"houses": ", ".join(allowed), "count": count}
                )
            out["house"] = house
        return {**out, **(WesterosRules.from_dict(config).to_dict() if config else {})}

    def _game_data(self) -> GameData:
        try:
            data = board_dataset.game_data_export()
            if data.get("map") and data["map"].get("areas"):
                return GameData.from_dict(data)
        except Exception:  # an empty or half-curated database: fall back to the project's data files
            pass
        return load_default_game_data()

    @staticmethod
    def seat_order(houses: list[str], *, house: str, seed: int) -> list[str]:
        """Which house each seat plays: the creator's choice first, or a seeded random draw."""
        if house == "random":
            order = list(houses)
            random.Random(seed ^ 0x40_5E).shuffle(order)
            return order
        if house in houses:
            return [house, *(h for h in houses if h != house)]
        return list(houses)

    def new_state(self, *, decks: list[JSON], seed: int, config: JSON) -> WesterosState:
        seating = ("player_count", "house", "seating", "seat_houses")  # the play layer's keys
        engine_config = {k: v for k, v in (config or {}).items() if k not in seating}
        data = self._game_data()
        count = self.seat_count(config)
        houses = houses_in_play(data, count)  # W-1.1, in set-up order
        fixed = (config or {}).get("seat_houses")  # fixed by the lobby at the start
        house = (config or {}).get("house", "")
        return new_game(
            data,
            player_count=count,
            seed=seed,
            config=WesterosRules.from_dict(engine_config) if engine_config else None,
            seat_houses=[str(h) for h in fixed]
            if isinstance(fixed, list) and fixed
            else self.seat_order(houses, house=house if isinstance(house, str) else "", seed=seed),
        )

    def load(self, data: JSON) -> WesterosState:
        return WesterosState.from_dict(data)  # the snapshot holds which house each seat plays

    def dump(self, state: WesterosState) -> JSON:
        return dict(state.to_dict())

    @staticmethod
    def _houses(state: WesterosState) -> list[str]:
        """Seat i plays `_houses(state)[i]` (the engine's `players()`, fixed for the game)."""
        return list(state.players())

    def engine_player(self, state: WesterosState, player: Player) -> str:
        """The house seat `player` plays (W-1.1). Its legal actions (the interface's) are its decision, or
        out of turn taking its Ready back while other houses still place orders (W-5.1)."""
        return self._houses(state)[player]

    def action_from_json(self, data: object) -> WesterosAction:
        if not isinstance(data, dict):
            raise ValueError(gettext("an action must be a JSON object"))
        return westeros_action_from_json(data)

    def action_to_json(self, action: WesterosAction) -> JSON:
        return dict(action.to_json())

    def describe(self, state: WesterosState, action: WesterosAction, viewer: Player | None) -> str:
        if self.action_is_secret(state, action) and (
            viewer is None or self.engine_player(state, viewer) != action.player
        ):
            return westeros_secret_message(action).english()
        text = action.describe(state)  # the action's message (`Action.message`) in English
        return text if text.endswith(".") else text + "."

    def explain_message(self, state: WesterosState, action: WesterosAction) -> JSON | None:
        from boardgame.engine.explain import explain_message

        found = explain_message(state, action)
        return found.to_json() if found is not None else None

    def describe_message(self, state: WesterosState, action: WesterosAction, viewer: Player | None) -> JSON:
        if self.action_is_secret(state, action) and (
            viewer is None or self.engine_player(state, viewer) != action.player
        ):
            return westeros_secret_message(action).to_json()
        return action.message(state).to_json()

    def outcome(self, state: WesterosState) -> Result:
        out = state.outcome()
        if out is None:
            return Result(winner=None, reason="unknown")
        winner = self.seat_of(state, out.winner) if out.winner in self._houses(state) else None
        message = out.message()
        return Result(
            winner=winner, reason=str(out.reason.value), text=message.english(), message=message.to_json()
        )

    def summary_facts(self, state: WesterosState) -> SummaryFacts:
        """The round, and each house's castles/strongholds (W-18) and supply position (W-12) — public."""
        return {
            "turns": state.round,
            "turns_label": "rounds",
            "by_round": True,
            "seats": {
                seat: {"house": house, "castles": state.castle_count(house), "supply": state.supply[house]}
                for seat, house in enumerate(self._houses(state))
            },
        }

    def standing(self, state: WesterosState) -> list[list[Player]] | None:
        """Every seat by its house's final standing (W-18: the winner, then W-18.2's order and tie-breaks)."""
        return [[self.seat_of(state, house)] for house in state.final_standing()]

    def consequences_basis(self, state: WesterosState) -> int:
        return state.log_length  # the engine's event log: what this action adds to it is what it caused

    def consequences(self, state: WesterosState, viewer: Player | None, basis: object = None) -> list[JSON]:
        """The engine's events made by the action, as the seat's house may read them (`log_view`: private
        events only to their addressees, W-20); each is plain text, kind "event"."""
        return self.consequences_by_viewer(state, [viewer], basis)[0]

    def consequences_by_viewer(
        self, state: WesterosState, viewers: Sequence[Player | None], basis: object = None
    ) -> list[list[JSON]]:
        """`consequences` per viewer, each event's words and message worked out once for all who see it
        (what each viewer sees is still `log_view`'s choice for their house)."""
        if not isinstance(basis, int):
            return [[] for _ in viewers]
        names = _card_ids(state)
        items: dict[str, JSON] = {}  # an event as stored (its repr) -> its item

        def item_of(event: JSON) -> JSON:
            key = repr(event)
            found = items.get(key)
            if found is None:
                found = {
                    "text": _printed_names(state, str(event["text"])).rstrip(".") + ".",
                    "kind": "event",
                    "square": None,
                    "amount": None,
                }
                message = event_message(event, names)  # the event's words as a message, rendered per reader
                if message is not None:
                    found["message"] = message.to_json()
                items[key] = found
            return dict(found)

        return [
            [
                item_of(e)
                for e in log_view(state, self.engine_player(state, v) if v is not None else None, basis)
            ]
            for v in viewers
        ]

    def player_view(self, state: WesterosState, player: Player | None) -> JSON:
        """The engine's view for the seat's house (with castles, control, combat strength: W-8, W-9.3, W-18)."""
        house = self.engine_player(state, player) if player is not None else None
        view = dict(state.player_view(house))
        log = view.get("log") or []
        view["log"], view["log_total"] = log[-WESTEROS_VIEW_LOG:], len(log)  # the table shows the tail only
        return view  # castles, control and public combat_strength come from the engine's view


def westeros_event_messages(state: WesterosState, events: Sequence[JSONValue]) -> list[JSON | None]:
    """Each engine log event of a Westeros view as its message (`event_message`), None where its words
    read back as none: the page's log is rendered per reader from them (`selectors.view_for_reader`)."""
    names = _card_ids(state)
    out: list[JSON | None] = []
    for e in events:
        message = event_message(e, names) if isinstance(e, dict) and "text" in e else None
        out.append(message.to_json() if message is not None else None)
    return out
