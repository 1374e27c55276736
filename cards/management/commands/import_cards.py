"""`manage.py import_cards FILE`: import a card file all-or-nothing (docs/card-format.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.card_files import ImportReport, cards_import


def import_file(path: Path, *, dry_run: bool = False) -> ImportReport:
    """Read and import one card file; raise CommandError listing every problem (nothing written)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CommandError(f"{path}: cannot read the file: {exc.strerror or exc}") from exc
    except json.JSONDecodeError as exc:
        raise CommandError(
            f"{path}: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from exc
    report = cards_import(data, dry_run=dry_run)
    if not report.ok:
        raise CommandError(f"{path}: {report.summary()}:\n" + "\n".join(f"  {e}" for e in report.errors))
    return report


class Command(BaseCommand):
    help = "Import a Commandeer card file (all or nothing; cards matched by name, so it is idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="Card file (JSON, docs/card-format.md)")
        parser.add_argument("--dry-run", action="store_true", help="Validate and count, write nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        report = import_file(options["file"], dry_run=options["dry_run"])
        self.stdout.write(self.style.SUCCESS(f"{options['file']}: {report.summary()}"))
