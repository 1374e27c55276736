"""Validation of the Westeros data set's cards — house cards, Westeros cards and decks, wildling cards — in
its dict format: pure functions, no database, worded in the active language like the rest of
`boardgame.validation`, which checks the whole data set with them."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from django.utils.translation import gettext as _

from boardgame.data_format import (
    DOMINANCE_TOKENS,
    EFFECT_TYPES,
    HOUSE_CARD_KEYS,
    HOUSE_CARD_STRENGTHS,
    HOUSE_CARD_TIMINGS,
    HOUSE_CARD_TRANSLATED,
    WESTEROS_CARD_KEYS,
    WESTEROS_CARD_TRANSLATED,
    WILDLING_CARD_KEYS,
    WILDLING_CARD_TRANSLATED,
    entry_id,
    is_int,
    is_nat,
)
from cards.data_translations import translation_errors  # the one "translations" check of every data file


def house_cards_errors(hc: Any, house_ids: set[str]) -> list[str]:
    """Check the house cards (W-17.1): exactly 7 per house with strengths 4, 3, 2, 2, 1, 1, 0."""
    if not isinstance(hc, dict) or not isinstance(hc.get("cards"), list):
        return ["house_cards: " + _("expected an object with a 'cards' list")]
    errors: list[str] = []
    timings = set(hc.get("effect_timing_values") or {}) or set(HOUSE_CARD_TIMINGS)
    unknown_timings = timings - set(HOUSE_CARD_TIMINGS)
    if unknown_timings:
        errors.append(
            "house_cards: "
            + _("effect_timing_values has unknown tag(s) %(tags)s")
            % {"tags": ", ".join(sorted(unknown_timings))}
        )
    rules: dict[str, Any] = hc["rules"] if isinstance(hc.get("rules"), dict) else {}
    per_house = rules.get("cards_per_house", 7)
    ids: set[str] = set()
    by_house: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for n, c in enumerate(hc["cards"]):
        i = entry_id(
            c, HOUSE_CARD_KEYS, ("translations",), section="house_cards", noun="card", n=n, errors=errors
        )
        if i is None:
            continue
        errors += translations_problems(c, HOUSE_CARD_TRANSLATED, f"house_cards: {i}")
        if i in ids:
            errors.append("house_cards: " + _("card id %(id)s is listed twice") % {"id": i})
        ids.add(i)
        if c["house"] not in house_ids:
            errors.append(f"house_cards: {i}: " + _("unknown house %(house)s") % {"house": repr(c["house"])})
            continue
        if not (is_int(c["strength"]) and 0 <= c["strength"] <= 4):
            errors.append(f"house_cards: {i}: " + _("strength is 0 to 4"))
            continue
        if not (is_nat(c["swords"]) and is_nat(c["fortifications"])):
            errors.append(f"house_cards: {i}: " + _("swords and fortifications are non-negative integers"))
        if c["effect_timing"] not in timings:
            errors.append(
                f"house_cards: {i}: "
                + _("effect_timing %(value)s is not one of %(timings)s")
                % {"value": repr(c["effect_timing"]), "timings": ", ".join(sorted(timings))}
            )
        if (c["effect"] is None) != (c["effect_timing"] == "none") or c["effect"] == "":
            errors.append(
                f"house_cards: {i}: " + _("a card has effect text exactly when its timing is not 'none'")
            )
        by_house[c["house"]].append(c)
    for h in sorted(house_ids):
        hand = by_house[h]
        if len(hand) != per_house:
            errors.append(
                "house_cards: "
                + _("%(house)s has %(count)s house cards; each house keeps exactly %(per_house)s (W-17.1)")
                % {"house": h, "count": len(hand), "per_house": per_house}
            )
        elif per_house == 7 and sorted(c["strength"] for c in hand) != HOUSE_CARD_STRENGTHS:
            strengths = ", ".join(str(c["strength"]) for c in sorted(hand, key=lambda c: -c["strength"]))
            errors.append(
                "house_cards: "
                + _("%(house)s has strengths %(strengths)s; a hand is 4, 3, 2, 2, 1, 1, 0 (W-17.1)")
                % {"house": h, "strengths": strengths}
            )
    return errors


def westeros_card_errors(card: dict[str, Any], order_ids: set[str] | None) -> dict[str, list[str]]:
    """Check one Westeros card's effect fields (W-4): choice cards name a chooser and options, etc."""
    errors: dict[str, list[str]] = defaultdict(list)
    i = card.get("id")
    effect_type = card.get("effect_type")
    if effect_type not in EFFECT_TYPES:
        errors["effect_type"].append(
            f"{i}: " + _("unknown effect_type %(value)s") % {"value": repr(effect_type)}
        )
    if not (isinstance(card.get("effect"), str) and card["effect"]):
        errors["effect"].append(f"{i}: " + _("effect text is required"))
    chooser, options = card.get("chooser"), card.get("options")
    if not (isinstance(options, list) and all(isinstance(o, str) and o for o in options)):
        errors["options"].append(f"{i}: " + _("options is a list of option ids"))
        options = []
    if chooser is not None and chooser not in DOMINANCE_TOKENS:
        errors["chooser"].append(
            f"{i}: "
            + _("chooser is a dominance token (%(tokens)s)") % {"tokens": ", ".join(DOMINANCE_TOKENS)}
        )
    is_choice = effect_type == "choice"
    if is_choice and (chooser is None or len(options) < 2):
        errors["chooser"].append(f"{i}: " + _("a choice card names its chooser and at least two options"))
    if not is_choice and (chooser is not None or options):
        errors["chooser"].append(f"{i}: " + _("only choice cards have a chooser and options"))
    restricted = card.get("restricted_orders")
    if effect_type == "order_restriction":
        if not (isinstance(restricted, list) and restricted and all(isinstance(o, str) for o in restricted)):
            errors["restricted_orders"].append(
                f"{i}: " + _("an order restriction card lists the restricted order ids")
            )
        elif order_ids is not None:
            unknown = [o for o in restricted if o not in order_ids]
            if unknown:
                errors["restricted_orders"].append(
                    f"{i}: "
                    + _("unknown order id(s) %(orders)s (see order_tokens)") % {"orders": ", ".join(unknown)}
                )
    elif restricted is not None:
        errors["restricted_orders"].append(f"{i}: " + _("only order restriction cards restrict orders"))
    return {k: v for k, v in errors.items() if v}


def westeros_errors(w: Any, order_ids: set[str] | None) -> list[str]:
    """Check the Westeros decks (W-4): unique (deck, id), each deck's card counts add up to its size (10)."""
    if (
        not isinstance(w, dict)
        or not isinstance(w.get("cards"), list)
        or not isinstance(w.get("decks"), dict)
    ):
        return ["westeros_cards: " + _("expected an object with 'decks' and 'cards'")]
    errors: list[str] = []
    sizes: dict[int, int] = {}
    for key, deck in w["decks"].items():
        if not (
            key in ("1", "2", "3")
            and isinstance(deck, dict)
            and set(deck) == {"size"}
            and is_nat(deck["size"])
        ):
            errors.append(
                "westeros_cards: "
                + _("deck %(deck)s: decks are 1, 2, 3, each {'size': n}") % {"deck": repr(key)}
            )
        else:
            sizes[int(key)] = deck["size"]
    totals: Counter[int] = Counter()
    keys: set[tuple[int, str]] = set()
    for n, c in enumerate(w["cards"]):
        i = entry_id(
            c,
            WESTEROS_CARD_KEYS,
            ("restricted_orders", "translations"),
            section="westeros_cards",
            noun="card",
            n=n,
            errors=errors,
        )
        if i is None:
            continue
        errors += translations_problems(c, WESTEROS_CARD_TRANSLATED, f"westeros_cards: {i}")
        if c["deck"] not in sizes:
            errors.append(
                f"westeros_cards: {i}: "
                + _("deck %(deck)s is not one of the decks") % {"deck": repr(c["deck"])}
            )
            continue
        if (c["deck"], i) in keys:
            errors.append(
                "westeros_cards: "
                + _("%(card)s is listed twice in deck %(deck)s") % {"card": i, "deck": c["deck"]}
            )
        keys.add((c["deck"], i))
        if not (is_int(c["count"]) and c["count"] >= 1):
            errors.append(f"westeros_cards: {i}: " + _("count is a positive integer"))
            continue
        if not isinstance(c["wildling_icon"], bool):
            errors.append(f"westeros_cards: {i}: " + _("wildling_icon is true or false"))
        if not (isinstance(c["name"], str) and c["name"]):
            errors.append(f"westeros_cards: {i}: " + _("name is required"))
        errors += [
            f"westeros_cards: {m}" for msgs in westeros_card_errors(c, order_ids).values() for m in msgs
        ]
        totals[c["deck"]] += c["count"]
    for d, size in sorted(sizes.items()):
        if totals[d] != size:
            errors.append(
                "westeros_cards: "
                + _("deck %(deck)s holds %(count)s cards but must hold %(size)s (W-1.11)")
                % {"deck": d, "count": totals[d], "size": size}
            )
    return errors


def wildling_errors(wl: Any) -> list[str]:
    """Check the wildling deck (W-16.7): unique ids, three written effects each, deck_size = cards."""
    if not isinstance(wl, dict) or not isinstance(wl.get("cards"), list):
        return ["wildling_cards: " + _("expected an object with a 'cards' list")]
    errors: list[str] = []
    ids: set[str] = set()
    for n, c in enumerate(wl["cards"]):
        i = entry_id(
            c,
            WILDLING_CARD_KEYS,
            ("translations",),
            section="wildling_cards",
            noun="card",
            n=n,
            errors=errors,
        )
        if i is None:
            continue
        errors += translations_problems(c, WILDLING_CARD_TRANSLATED, f"wildling_cards: {i}")
        if i in ids:
            errors.append("wildling_cards: " + _("%(card)s is listed twice") % {"card": i})
        ids.add(i)
        nw, wv = c["nights_watch_victory"], c["wildling_victory"]
        ok = (
            isinstance(nw, dict)
            and set(nw) == {"highest_bidder"}
            and isinstance(wv, dict)
            and set(wv) == {"lowest_bidder", "everyone_else"}
            and all(isinstance(x, str) and x for x in (*nw.values(), *wv.values()))
        )
        if not ok:
            errors.append(
                f"wildling_cards: {i}: " + _("write highest_bidder, lowest_bidder and everyone_else (W-16.7)")
            )
    if wl.get("deck_size") is not None and wl["deck_size"] != len(wl["cards"]):
        errors.append(
            "wildling_cards: "
            + _("deck_size says %(size)s but there are %(count)s cards")
            % {"size": wl["deck_size"], "count": len(wl["cards"])}
        )
    return errors


def translations_problems(entry: dict[str, Any], limits: dict[str, int | None], where: str) -> list[str]:
    """Problems with an entry's optional "translations" object, each naming the entry, language and field."""
    if "translations" not in entry:
        return []
    return [f"{where}: {p}" for p in translation_errors(entry["translations"], limits=limits)]
