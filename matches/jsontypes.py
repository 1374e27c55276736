"""JSON as the play layer stores and sends it, typed as what it is: a recursive union. A reader narrows a
value (``isinstance``) before it uses it. Pure Python (no Django), so the game interface can use it."""

from __future__ import annotations

from typing import TypeAlias

JSONValue: TypeAlias = "str | int | float | bool | None | list[JSONValue] | dict[str, JSONValue]"
JSONObject: TypeAlias = "dict[str, JSONValue]"
