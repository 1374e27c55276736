"""Load the bundled Westeros data (boardgame/data/westeros/*.json) into the database; safe to run twice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from boardgame.dataset import DATA_DIR, westeros_load_bundled
from config.errors import ApplicationError


class Command(BaseCommand):
    help = (
        "Load boardgame/data/westeros/*.json (and layout.json) into the database. Does nothing when the "
        "database already holds Westeros data (admin edits are kept) unless --force is given; then it only fills "
        "in the translations the database lacks (a translation a curator wrote is never replaced)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--force", action="store_true", help="Replace the data even if some is loaded.")
        parser.add_argument("--directory", default=str(DATA_DIR), help="Folder holding the JSON files.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            outcome = westeros_load_bundled(force=options["force"], directory=Path(options["directory"]))
        except ApplicationError as exc:
            raise CommandError("\n".join([exc.message, *exc.extra.get("errors", [])])) from exc
        messages = {
            "loaded": "Westeros data loaded.",
            "unchanged": "Westeros data already loaded and identical; nothing to do.",
            "kept": "Westeros data already present and edited; kept it (use --force to replace).",
            "translated": "Westeros data already present and edited; kept it and filled in the translations it "
            "lacked from the files (use --force to replace).",
        }
        self.stdout.write(self.style.SUCCESS(messages[outcome]))
