"""The one deck validator (C-3): every caller — API, pages, CLI, match start — asks this module.

Pure Python: it takes `(card, count)` pairs where a card is a `cards.Card`, a card-JSON mapping or a
`CardFacts`, so it runs on plain data as well as on database rows. Copies are summed by card name
(case-insensitively), so the same card listed on two lines counts once with both counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext

from decks.cardfacts import CardFacts, card_facts, faction_of
from decks.messages import card_names, faction_names, render
from matches.engine.deckrules import DEFAULT_DECK_RULES, DeckIssue, DeckRules, deck_issues

# The numbers of C-3 live with the rules themselves (matches.engine.deckrules), shared with the engine.
DEFAULT_RULES = DEFAULT_DECK_RULES


@dataclass(frozen=True)
class Issue:
    """One broken rule (error) or advice (warning), citing the rule and naming the cards involved."""

    rule: str
    code: str
    message: str
    cards: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "code": self.code, "message": self.message, "cards": list(self.cards)}

    @classmethod
    def of(cls, issue: DeckIssue) -> Issue:
        """The builder's form of a rules issue of ``matches.engine.deckrules``, its message in the active
        language (the rule number stays in the text)."""
        message = render(issue.msg) if issue.msg is not None else issue.message
        return cls(issue.rule, issue.code, message, list(issue.cards))


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

    pairs = [(facts, count) for facts, count in by_name.values()]
    names = {facts.faction: facts.faction_name for facts, _ in pairs if facts.faction_name}
    declared = faction_of(faction) if faction is not None else None
    if declared is not None and declared[0] == declared[1] and declared[0] in names:
        declared = (declared[0], names[declared[0]])  # a bare slug: its display name when a card knows it
    issues = deck_issues(pairs, rules=rules, deck_faction=declared, faction_names=names)
    bare = {slug for slug, name in names.items() if slug == name} | (
        {declared[0]} if declared is not None and declared[0] == declared[1] else set()
    )
    if bare and any(i.code == "mixed_factions" for i in issues):
        # cards given as data name their faction by slug: the message names it in the reader's language
        # (looked up only then, so validating plain data needs no database)
        names.update(faction_names(bare))
        if declared is not None and declared[0] in bare:
            declared = (declared[0], names[declared[0]])
        issues = deck_issues(pairs, rules=rules, deck_faction=declared, faction_names=names)
    errors.extend(
        Issue.of(i) for i in issues
    )  # C-3.1 … C-3.4, the same rules the engine checks at match start

    has_legendary = any(f.is_unit and f.legendary for f, _ in by_name.values())
    if commander is not None:  # C-4.1: a Legendary unit of this deck
        cfacts: CardFacts = card_facts(commander, with_keywords=False)
        shown = card_names([cfacts.name]).get(cfacts.name, cfacts.name)
        if not (cfacts.is_unit and cfacts.legendary):
            errors.append(
                Issue(
                    "C-4.1",
                    "commander_not_legendary",
                    gettext("%(card)s cannot be the Commander: only a Legendary unit can (C-4.1)")
                    % {"card": shown},
                    [cfacts.name],
                )
            )
        if cfacts.name.casefold() not in by_name:
            errors.append(
                Issue(
                    "C-4.1",
                    "commander_not_in_deck",
                    gettext("%(card)s cannot be the Commander: it is not in the deck (C-4.1)")
                    % {"card": shown},
                    [cfacts.name],
                )
            )
    if not has_legendary and rules.warn_without_legendary:  # C-3.5 Decision
        warnings.append(
            Issue(
                "C-3.5",
                "no_legendary_unit",
                gettext("No Legendary unit: the deck is legal but has no Commander to choose (C-3.5)"),
            )
        )
    return DeckValidation(valid=not errors, errors=errors, warnings=warnings, total_cards=total)
