"""Write the Westeros data set from the database as one JSON file (six sections plus layout)."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from boardgame.dataset import westeros_export_all


class Command(BaseCommand):
    help = (
        "Export the Westeros data (map, setup, house_cards, westeros_cards, wildling_cards, tracks, layout)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--output", "-o", help="File to write; standard output when omitted.")

    def handle(self, *args: Any, **options: Any) -> None:
        text = json.dumps(westeros_export_all(), indent=2, ensure_ascii=False) + "\n"
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as f:
                f.write(text)
            self.stderr.write(self.style.SUCCESS(f"Wrote {options['output']}."))
        else:
            self.stdout.write(text, ending="")
