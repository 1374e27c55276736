"""Garbage-collector settings for long-running server processes (web, Celery worker).

After start-up, the imported code and data (a few hundred thousand objects: Django, the card catalog,
the Westeros map) never become garbage, yet every full collection walks them again. `gc.freeze()` moves
them out of the collector's sight, and a higher first-generation threshold makes young collections rarer
(cycles are still collected), as Instagram did for its Django servers. `bench/online_play.py` measures
the collection time per action.
"""

from __future__ import annotations

import gc
import os

GEN0_THRESHOLD = 20_000  # CPython's default is 700 allocations


def tune_for_server() -> None:
    """Freeze what start-up allocated and collect young objects less often (SERVER_GC_TUNING=0: leave as is)."""
    if os.environ.get("SERVER_GC_TUNING", "1").strip().lower() in {"0", "false", "no", "off"}:
        return
    gc.collect()
    gc.freeze()
    _, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(GEN0_THRESHOLD, gen1, gen2)
