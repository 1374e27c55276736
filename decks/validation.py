"""The one deck validator (C-3): every caller — API, pages, CLI, match start — asks this module.

Pure Python: it takes `(card, count)` pairs where a card is a `cards.Card`, a card-JSON mapping or a
`CardFacts`, so it runs on plain data as well as on database rows. Copies are summed by card name
(case-insensitively), so the same card listed on two lines counts once with both counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from decks.cardfacts import CardFacts, card_facts, faction_of


@dataclass(frozen=True)
class DeckRules:
    """The numbers of C-3 and the C-3.5 Decision, kept in one place."""

    min_cards: int = 50  # C-3.1
    max_copies: int = 4  # C-3.2
    max_legendary_copies: int = 1  # C-3.3: Legendary units and Unique events
    warn_without_legendary: bool = True  # C-3.5 Decision: legal, but the builder warns


DEFAULT_RULES = DeckRules()


@dataclass(frozen=True)
class Issue:
    """One broken rule (error) or advice (warning), citing the rule and naming the cards involved."""

    rule: str
    code: str
    message: str
    cards: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "code": self.code, "message": self.message, "cards": list(self.cards)}


@dataclass(frozen=True)
class DeckValidation:
    """The verdict on a deck: legal when there is no error; warnings never make it illegal."""

    valid: bool
    errors: list[Issue]
    warnings: list[Issue]
    total_cards: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "errors": [i.to_dict() for i in self.errors],
            "warnings": [i.to_dict() for i in self.warnings],
        }


def _copies(n: int) -> str:
    return f"{n} cop{'y' if n == 1 else 'ies'}"


def validate_deck(
    entries: Iterable[tuple[Any, int]],
    commander: Any = None,
    faction: Any = None,
    *,
    rules: DeckRules = DEFAULT_RULES,
) -> DeckValidation:
    """Check a deck against C-3.1–C-3.5 and its optional Commander against C-4.1.

    `faction` (slug, mapping or Faction row) is the deck's declared faction; without it the faction
    holding most copies is taken as the deck's and the others are named as off-faction (C-3.4).
    """
    # name key -> [facts, copies]; dict keeps first-seen order for stable messages.
    by_name: dict[str, list[Any]] = {}
    total = 0
    for card, count in entries:
        if count < 1:
            raise ValueError(f"count must be at least 1, got {count} for {card!r}")
        facts = card_facts(card, with_keywords=False)
        key = facts.name.casefold()
        slot = by_name.get(key)
        if slot is None:
            by_name[key] = [facts, count]
        else:
            slot[1] += count
        total += count

    errors: list[Issue] = []
    warnings: list[Issue] = []

    if total < rules.min_cards:  # C-3.1
        errors.append(
            Issue("C-3.1", "too_few_cards", f"{total} cards: a deck needs at least {rules.min_cards} (C-3.1)")
        )

    for facts, count in by_name.values():
        is_one_of = (facts.is_unit and facts.legendary) or (not facts.is_unit and facts.unique)
        if is_one_of and count > rules.max_legendary_copies:  # C-3.3
            kind = "a Legendary unit" if facts.is_unit else "a Unique event"
            errors.append(
                Issue(
                    "C-3.3",
                    "too_many_copies_of_one_of",
                    f"{_copies(count)} of {facts.name}: {kind} may appear at most "
                    f"{rules.max_legendary_copies} time{'s' if rules.max_legendary_copies != 1 else ''} (C-3.3)",
                    [facts.name],
                )
            )
        elif count > rules.max_copies:  # C-3.2
            errors.append(
                Issue(
                    "C-3.2",
                    "too_many_copies",
                    f"{_copies(count)} of {facts.name}: at most {rules.max_copies} (C-3.2)",
                    [facts.name],
                )
            )

    _check_one_faction(by_name, faction, errors)  # C-3.4

    has_legendary = any(f.is_unit and f.legendary for f, _ in by_name.values())
    if commander is not None:  # C-4.1: a Legendary unit of this deck
        cfacts: CardFacts = card_facts(commander, with_keywords=False)
        if not (cfacts.is_unit and cfacts.legendary):
            errors.append(
                Issue(
                    "C-4.1",
                    "commander_not_legendary",
                    f"{cfacts.name} cannot be the Commander: only a Legendary unit can (C-4.1)",
                    [cfacts.name],
                )
            )
        if cfacts.name.casefold() not in by_name:
            errors.append(
                Issue(
                    "C-4.1",
                    "commander_not_in_deck",
                    f"{cfacts.name} cannot be the Commander: it is not in the deck (C-4.1)",
                    [cfacts.name],
                )
            )
    if not has_legendary and rules.warn_without_legendary:  # C-3.5 Decision
        warnings.append(
            Issue(
                "C-3.5",
                "no_legendary_unit",
                "No Legendary unit: the deck is legal but has no Commander to choose (C-3.5)",
            )
        )
    return DeckValidation(valid=not errors, errors=errors, warnings=warnings, total_cards=total)


def _check_one_faction(by_name: dict[str, list[Any]], faction: Any, errors: list[Issue]) -> None:
    """C-3.4: every card belongs to one and the same faction; name the cards outside it."""
    if faction is not None:
        deck_slug, deck_name = faction_of(faction)
    else:
        copies_per_faction: dict[str, int] = {}
        names: dict[str, str] = {}
        for facts, count in by_name.values():
            copies_per_faction[facts.faction] = copies_per_faction.get(facts.faction, 0) + count
            names[facts.faction] = facts.faction_name or facts.faction
        if len(copies_per_faction) <= 1:
            return
        deck_slug = max(sorted(copies_per_faction), key=lambda s: copies_per_faction[s])
        deck_name = names[deck_slug]
    off = [facts for facts, _ in by_name.values() if facts.faction != deck_slug]
    if not off:
        return
    listed = ", ".join(f"{f.name} ({f.faction_name or f.faction})" for f in off)
    n = len(off)
    errors.append(
        Issue(
            "C-3.4",
            "mixed_factions",
            f"{n} card{'s are' if n != 1 else ' is'} not {deck_name}: {listed}; "
            f"a deck uses one faction (C-3.4)",
            [f.name for f in off],
        )
    )
