"""`manage.py validate_deck PATH`: check a text decklist against C-3 and print one JSON object.

Exit status: 0 legal, 1 illegal (errors cite C-3.x), 2 unreadable input or unknown cards (reported
with rule null, line numbers and suggestions).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from decks.formats import CardCatalog, MappingCatalog, parse_text, resolve
from decks.selectors import DbCatalog
from decks.validation import validate_deck

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2


def _input_error(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"rule": None, "code": code, "message": message, "cards": [], **extra}


class Command(BaseCommand):
    help = "Validate a text decklist (C-3) and print one JSON object; exit 0 valid, 1 invalid, 2 unreadable."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="Text decklist ('-' reads standard input)")
        parser.add_argument(
            "--cards",
            help="Card file in the commandeer-cards JSON format to look names up in, instead of the database",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        result, code = self.run(options["path"], options.get("cards"))
        self.stdout.write(json.dumps(result, ensure_ascii=False))
        sys.exit(code)

    def run(self, path: str, cards_file: str | None) -> tuple[dict[str, Any], int]:
        try:
            text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            return {
                "valid": False,
                "errors": [_input_error("unreadable", f"cannot read {path}: {exc}")],
                "warnings": [],
            }, EXIT_UNREADABLE
        catalog: CardCatalog
        if cards_file:
            try:
                data = json.loads(Path(cards_file).read_text(encoding="utf-8"))
                names = {f["slug"]: f["name"] for f in data.get("factions", [])}
                catalog = MappingCatalog(
                    {**c, "faction": {"slug": c["faction"], "name": names.get(c["faction"], c["faction"])}}
                    for c in data["cards"]
                )
            except (OSError, ValueError, KeyError, TypeError) as exc:
                return {
                    "valid": False,
                    "errors": [_input_error("unreadable", f"cannot read cards {cards_file}: {exc}")],
                    "warnings": [],
                }, EXIT_UNREADABLE
        else:
            catalog = DbCatalog()
        resolved = resolve(parse_text(text), catalog)
        if resolved.errors:
            errors = [
                {
                    "rule": None,
                    "code": e.code,
                    "message": f"line {e.line}: {e.message}" if e.line else e.message,
                    "cards": [e.text] if e.code == "unknown_card" else [],
                    "line": e.line,
                    "suggestions": e.suggestions,
                }
                for e in resolved.errors
            ]
            return {"valid": False, "errors": errors, "warnings": []}, EXIT_UNREADABLE
        verdict = validate_deck(resolved.entries, commander=resolved.commander)
        return verdict.to_dict(), EXIT_VALID if verdict.valid else EXIT_INVALID
