"""A card record of the card JSON format (docs/card-format.md): its keys and defaults, and the one builder.

Pure Python (no Django), so engine tests, test pools and sample data can build records too.
"""

from __future__ import annotations

import copy
from typing import Any

REQUIRED_CARD_FIELDS = ("name", "faction", "type", "command_cost")
CARD_DEFAULTS: dict[str, Any] = {
    "energy_cost": 0,
    "power": None,
    "health": None,
    "arrows": [],
    "legendary": False,
    "unique": False,
    "event_type": None,
    "keywords": [],
    "rules_text": "",
    "abilities": [],
    "flavor_text": "",
}
# The keys of a card record, in file order: the required ones, then those with a default.
CARD_FIELDS = (*REQUIRED_CARD_FIELDS, *CARD_DEFAULTS)


def card_record(**fields: Any) -> dict[str, Any]:
    """A card record: ``fields`` over fresh copies of CARD_DEFAULTS, keys in CARD_FIELDS order (the one
    builder of records for fixtures, test pools and sample data)."""
    record = {name: copy.deepcopy(CARD_DEFAULTS.get(name)) for name in CARD_FIELDS}
    record.update(fields)
    return record
