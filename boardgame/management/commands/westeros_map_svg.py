"""Dev tool: draw the schematic Westeros map as SVG, from the database or from the bundled JSON files."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from boardgame.dataset import bundled_data, game_data_export, layout_export
from boardgame.selectors import map_svg


class Command(BaseCommand):
    help = (
        "Write the schematic Westeros map as SVG (from the database, or --from-files for the bundled JSON)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--output", "-o", default="westeros-map.svg")
        parser.add_argument("--from-files", action="store_true", help="Use boardgame/data/westeros/*.json.")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["from_files"]:
            data = bundled_data()
            svg = map_svg(data["map"], data["layout"])
        else:
            svg = map_svg(game_data_export()["map"], layout_export())
        with open(options["output"], "w", encoding="utf-8") as f:
            f.write(svg)
        self.stdout.write(self.style.SUCCESS(f"Wrote {options['output']}"))
