"""`manage.py ability_docs [--check]`: regenerate the vocabulary tables in docs/card-abilities.md."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.vocabulary_doc import DOC_PATH, render_document


class Command(BaseCommand):
    help = "Regenerate the ability vocabulary tables of docs/card-abilities.md from vocabulary.py."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="Fail if the document is out of date")

    def handle(self, *args: Any, **options: Any) -> None:
        current = DOC_PATH.read_text(encoding="utf-8")
        fresh = render_document(current)
        if options["check"]:
            if fresh != current:
                raise CommandError(f"{DOC_PATH} is out of date; run manage.py ability_docs")
            self.stdout.write("up to date")
            return
        DOC_PATH.write_text(fresh, encoding="utf-8")
        self.stdout.write(f"wrote {DOC_PATH}")
