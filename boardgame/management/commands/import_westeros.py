"""Replace the Westeros data set with a JSON export file; all or nothing, every error reported."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from boardgame.dataset import game_data_import
from config.errors import ApplicationError


class Command(BaseCommand):
    help = (
        "Import a file written by export_westeros (one JSON object with the six sections, optional layout)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="JSON file to import.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            with open(options["file"], encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, json.JSONDecodeError) as exc:
            raise CommandError(f"Cannot read {options['file']}: {exc}") from exc
        try:
            counts = game_data_import(data=data)
        except ApplicationError as exc:
            raise CommandError(
                "\n".join([exc.message, *(f"- {e}" for e in exc.extra.get("errors", []))])
            ) from exc
        summary = ", ".join(f"{n} {k}" for k, n in counts.items())
        self.stdout.write(self.style.SUCCESS(f"Imported {summary}."))
