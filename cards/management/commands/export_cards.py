"""`manage.py export_cards [--output FILE]`: the whole card database as a card file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from cards.card_files import cards_export


def export_text() -> str:
    """The export as JSON text: 2-space indent, UTF-8 kept readable (Thai names), final newline."""
    return json.dumps(cards_export(), indent=2, ensure_ascii=False) + "\n"


class Command(BaseCommand):
    help = "Export every faction, keyword and card as a card file (stdout unless --output)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--output", "-o", type=Path, help="Write to this file instead of stdout")

    def handle(self, *args: Any, **options: Any) -> None:
        text = export_text()
        if options["output"]:
            options["output"].write_text(text, encoding="utf-8")
            self.stderr.write(f"wrote {options['output']}")
        else:
            self.stdout.write(text, ending="")
