"""`manage.py load_sample_cards`: import cards/data/sample_cards.json (idempotent; used by make run)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from cards.management.commands.import_cards import import_file
from matches.engine.decks import SAMPLE_CARDS


class Command(BaseCommand):
    help = "Import the sample card set (cards/data/sample_cards.json); safe to run again."

    def handle(self, *args: Any, **options: Any) -> None:
        if not SAMPLE_CARDS.exists():
            raise CommandError(f"{SAMPLE_CARDS} does not exist")
        report = import_file(SAMPLE_CARDS)
        self.stdout.write(self.style.SUCCESS(f"sample cards: {report.summary()}"))
