"""Game texts in the reader's language: an engine's message (key + tagged parameters, as JSON) rendered per
viewer (docs/play-layer.md, "Texts in the reader's language").

`render(message, language)` looks the key up in the engine catalogues (`matches/engine/locale`,
`boardgame/engine/locale`), fills every parameter in that language — a card, area or house by its translated
name from the database, a glossary term by gettext, a nested message recursively, a list joined as that
language joins lists — and gives back the sentence. The English rendering equals the engines' `english()`.
Names are read once per process and language and dropped when a translated row is saved.
"""

from __future__ import annotations

import functools
import gettext as gettext_module
import re
from pathlib import Path

from django.db.models.signals import post_delete, post_save
from django.utils import translation
from django.utils.translation import gettext, pgettext

from cards.data_translations import reader_language
from matches.agents import AGENT_NAMES
from matches.jsontypes import JSONObject, JSONValue

COMMANDEER = "commandeer"
WESTEROS = "westeros"

# A row logged as an automatic pass wraps its action's message in this one (the play layer's own words).
AUTO_PASS_KEY = "%(action)s (automatic pass: nothing else to do)."
# Marked for the catalogue here: the key is a literal, so makemessages finds it.
_AUTO_PASS_TEMPLATE = translation.gettext_noop("%(action)s (automatic pass: nothing else to do).")
PLAYER_LABEL = translation.gettext_noop("Player %(number)s")

_names: dict[tuple[str, str], dict[str, str]] = {}
_abilities: dict[str, list[JSONValue]] = {}  # a card's English name → its abilities (the card database's)


def _field(language: str) -> str:
    return "name_" + language.replace("-", "_")


def _load(kind: str, language: str) -> dict[str, str]:
    """English name (Commandeer cards) or id (Westeros) → the name in `language`, where one is translated."""
    column = _field(language)
    out: dict[str, str] = {}
    if kind == "card":
        from cards.models import Card

        for en, local in Card.objects.values_list("name_en", column):
            if en and local:
                out[en] = local
        return out
    from boardgame import models as bg

    sources: dict[str, list[type[bg.Area | bg.House | bg.WesterosCard | bg.WildlingCard | bg.HouseCard]]] = {
        "area": [bg.Area],
        "house": [bg.House],
        "wcard": [bg.WesterosCard, bg.WildlingCard, bg.HouseCard],  # house cards win a shared id
    }
    for model in sources[kind]:
        for slug, english, local in model.objects.values_list("slug", "name_en", column):
            # an untranslated record reads by its English name, never by its id
            out.setdefault(slug, local or english)
            if local:
                out[slug] = local
    return out


def _name(kind: str, key: str, language: str) -> str | None:
    if language == "en":
        return None
    cached = _names.get((kind, language))
    if cached is None:
        cached = _names[(kind, language)] = _load(kind, language)
    return cached.get(key)


def forget_names(**_kwargs: object) -> None:
    """Drops the cached names and abilities (a translated row changed)."""
    _names.clear()
    _abilities.clear()


def _connect() -> None:
    from boardgame import models as bg
    from cards.models import Card

    for model in (Card, bg.Area, bg.House, bg.WesterosCard, bg.WildlingCard, bg.HouseCard):
        post_save.connect(forget_names, sender=model, dispatch_uid=f"matches.messages.{model.__name__}")
        # a whole data set replaced (the Westeros import deletes every row, then bulk-creates: no post_save)
        post_delete.connect(
            forget_names, sender=model, dispatch_uid=f"matches.messages.deleted.{model.__name__}"
        )


def _ability(value: JSONObject, language: str) -> str:
    """What a card's ability does in `language`, worded from its ability data (`cards.describe`, C-1.5); the
    English words stored with it where the card database no longer holds that ability."""
    english = str(value.get("text", ""))
    ref = value.get("ability")
    if language == "en" or not isinstance(ref, dict):
        return english
    if not _abilities:
        from cards.models import Card

        _abilities.update(
            {
                name: list(abilities or [])
                for name, abilities in Card.objects.values_list("name_en", "abilities")
            }
        )
    index = ref.get("index")
    found = _abilities.get(str(ref.get("card")), [])
    if not isinstance(index, int) or not 0 <= index < len(found):
        return english
    from cards.describe import describe_effects, reader_words

    return describe_effects(found[index], words=reader_words())


def join(items: list[str], language: str, *, pause: bool = False) -> str:
    """A list as the language writes one: "a, b" (English), "a b" (Thai), "a、b" (Chinese); `pause`: a
    list of short words inside parentheses, which Thai separates with a comma too ("alice, AI")."""
    if language.startswith("zh"):
        return "、".join(items)
    if language == "th" and not pause:
        return " ".join(items)
    return ", ".join(items)


# Each game's engine catalogue, by game: a term is first looked up there. Django merges every catalogue into
# one, the first listed winning a msgid they share, and the two engines share short words that mean other
# things in each game: "pass" is a Commandeer player's end of turn (C-5) but a Westeros house's "do not use"
# (the Raven, W-5.5); "keep", "bottom", "none" likewise.
ENGINE_LOCALES = {
    COMMANDEER: Path(__file__).resolve().parent / "engine" / "locale",
    WESTEROS: Path(__file__).resolve().parent.parent / "boardgame" / "engine" / "locale",
}


@functools.lru_cache(maxsize=32)
def _engine_catalogue(game: str, language: str) -> dict[str, str]:
    """The compiled catalogue (.mo) of `game`'s engine in `language`: msgid → msgstr ({} without one)."""
    folder = ENGINE_LOCALES.get(game)
    if folder is None:
        return {}
    found = gettext_module.translation(
        "django", localedir=str(folder), languages=[translation.to_locale(language)], fallback=True
    )
    catalogue = getattr(found, "_catalog", {})  # GNUTranslations keeps its entries there; a fallback has none
    return {str(k): str(v) for k, v in catalogue.items() if isinstance(k, str) and v}


def game_term(word: str, language: str, game: str) -> str:
    """A glossary term of `game` in `language`: its engine's own word, else the site's (gettext)."""
    return _engine_catalogue(game, language).get(word) or gettext(word)


def _param(value: object, language: str, game: str) -> object:
    if isinstance(value, bool) or not isinstance(value, dict):
        return value
    if "msg" in value:
        return _render(value["msg"], language, game)
    if "list" in value:
        return join([str(_param(v, language, game)) for v in value["list"]], language)
    if "ability" in value:
        return _ability(value, language)
    if "term" in value:
        return game_term(str(value["term"]), language, game)
    if "card" in value:
        name = str(value["card"])
        if game == COMMANDEER:
            return _name("card", name, language) or name
        # a Westeros card's id may carry its deck ("1:supply"); the database keys it by its slug
        return _name("wcard", name, language) or _name("wcard", name.split(":")[-1], language) or name
    if "area" in value:
        area = str(value["area"])
        return _name("area", area, language) or area
    if "house" in value:
        house = str(value["house"])
        return _name("house", house, language) or house.title()
    return str(value)


# A seat's marks as `Seat.display_name` / `Seat.title` write them: "alice (AI, left)", "AI (hard)",
# "Stark (alice, AI)" (usernames hold no spaces or parentheses, so the form reads back unambiguously).
_LEVEL = "a seat's mark: AI level"
_LEFT = "a seat's mark: the player left the game"
SEAT_MARKS = {  # mark → its context; each marked for the catalogue below
    "left": _LEFT,
    **dict.fromkeys(AGENT_NAMES, _LEVEL),
}
_MARKED = (  # lazy: only marked for makemessages (Django has no pgettext_noop)
    translation.pgettext_lazy("a seat's mark: the player left the game", "left"),
    translation.pgettext_lazy("a seat's mark: AI level", "easy"),
    translation.pgettext_lazy("a seat's mark: AI level", "normal"),
    translation.pgettext_lazy("a seat's mark: AI level", "hard"),
    translation.pgettext_lazy("a seat's mark: AI level", "random"),
    translation.pgettext_lazy("a seat's mark: AI level", "greedy"),
    translation.pgettext_lazy("a seat's mark: AI level", "flatmc"),
)
SEAT_WITH_MARKS = translation.gettext_noop("%(name)s (%(marks)s)")
_SEAT_FORM = re.compile(r"^(?P<head>[^\s()]+) \((?P<inner>[^()]+)\)$")


def seat_name(text: str, language: str | None = None) -> str:
    """A seat's name or title (`Seat.display_name`, `Seat.title`) in `language`: its house by its translated
    name, its marks (an AI level, "left") translated; the username and "AI" stay as they are."""
    language = language or reader_language()
    found = _SEAT_FORM.match(text)
    if language == "en" or found is None:
        return text
    head, parts = found["head"], [p.strip() for p in found["inner"].split(",")]
    house = _name("house", head.lower(), language)
    with translation.override(language):
        marks = [pgettext(SEAT_MARKS[p], p) if p in SEAT_MARKS else p for p in parts]
        return gettext(SEAT_WITH_MARKS) % {"name": house or head, "marks": join(marks, language, pause=True)}


def house_name(slug: str, language: str | None = None) -> str:
    """A Westeros house id ("stark") as the house's name in `language` ("Stark", "史塔克")."""
    return _name("house", slug, language or reader_language()) or slug.title()


def seat_names(texts: list[str], language: str | None = None) -> str:
    """Several seats' names (`Seat.display_name`) in `language`, joined as that language lists names."""
    language = language or reader_language()
    return join([seat_name(t, language) for t in texts], language, pause=True)


def _render(message: object, language: str, game: str) -> str:
    if not isinstance(message, dict) or not isinstance(message.get("key"), str):
        raise ValueError("a message must be a JSON object with a string 'key'")
    key = message["key"]
    params = message.get("params") or {}
    if key == AUTO_PASS_KEY:
        inner = str(_param(params.get("action"), language, game)).rstrip(".。")
        return gettext(_AUTO_PASS_TEMPLATE) % {"action": inner}
    template = gettext(key)
    if not params:
        return template
    filled = {name: _param(v, language, game) for name, v in params.items()}
    name = filled.get("name")
    if key in SEAT_NAMED and isinstance(name, str):  # "Stark (alice)": the house translated
        filled["name"] = seat_name(name, language)
    return template % filled


def render(message: object, language: str | None = None, *, game: str = COMMANDEER) -> str:
    """The message (`Msg.to_json()`) as a sentence in `language` (default: the active one)."""
    language = language or reader_language()
    with translation.override(language):
        return _render(message, language, game)


# The play layer's own words for the ends it makes (stored as messages like the engines' outcomes).
LOST_ON_TIME = translation.gettext_noop("%(name)s lost on time")
LOST_ON_TIME_IN_A_ROW = translation.gettext_noop(
    "%(name)s lost on time (out of time %(turns)s turns in a row)"
)
CONCEDED = translation.gettext_noop("%(name)s conceded.")
NEVER_MOVED = translation.gettext_noop("%(name)s never made a first move.")
CANCELLED = translation.gettext_noop("The creator cancelled the match.")
SEAT_NAMED = frozenset({LOST_ON_TIME, LOST_ON_TIME_IN_A_ROW, CONCEDED, NEVER_MOVED})


def play_message(key: str, **params: JSONValue) -> tuple[str, JSONObject]:
    """(the English text, the message) of one of the play layer's own result texts above."""
    message: JSONObject = {"key": key, "params": params}
    return (key % params if params else key), message


def auto_pass(message: JSONValue) -> JSONObject:
    """The message of an action taken as an automatic pass (every reader sees nobody chose it)."""
    return {"key": AUTO_PASS_KEY, "params": {"action": {"msg": message}}}


def player_label(number: int, language: str | None = None) -> str:
    """How a game text names seat `number` (1-based) in `language` ("Player 1", "ผู้เล่น 1", "玩家 1")."""
    with translation.override(language or reader_language()):
        return gettext(PLAYER_LABEL) % {"number": number}


_connect_done = False


def connect_signals() -> None:
    """Called once from the app's ready(): drop the names cache on a translated row's save."""
    global _connect_done
    if not _connect_done:
        _connect()
        _connect_done = True
