"""Python's cyclic garbage collector, tuned for a process of many tables.

Measured in the table bench (`tests/bench_tables.py --tables 200 --think 2 --rate-limits`,
issue 20), the collector's own time (wall clock, the machine loaded): with Python's defaults (a
young collection every 700 allocations, a full one after 100 young ones once the heap grew by a
quarter) 99 s over a 6-minute run, 67 s of it in 57 full collections of up to 4.5 s each; while
one runs nothing else does, so every click waiting then waits that long. A full collection walks
every object the process holds: the modules, discord.py's caches, every table. With the settings
below: 14 s over a 4-minute run, 2 full collections (at start), the longest pause 1.2 s; the
bot's CPU per click 3.2-3.7 ms instead of 4.9-5.0.

So the bot collects less often, the same way: a young collection every `YOUNG` allocations
(most young objects a click makes are gone by then, freed by their reference counts, and are
never walked), and the objects made while starting (the modules, the commands, the settings: 77
MB before any table) are moved out of the collector's sight once (`gc.freeze`), before the
tables are restored: they live as long as the process, and a full collection no longer walks
them (a table is not frozen: it ends, and its cycles must stay collectable). Nothing is left
uncollected: cycles are still found, a little later.
"""

from __future__ import annotations

import gc
from typing import Final

YOUNG: Final = 20_000  # allocations between young collections (Python's default: 700)
MIDDLE: Final = 20  # young collections between middle ones (default: 10)
FULL: Final = 20  # middle collections between full ones (default: 10)


def collect_less() -> None:
    """Young collections every `YOUNG` allocations, and older ones less often (see above)."""
    gc.set_threshold(YOUNG, MIDDLE, FULL)


def settled() -> None:
    """The process has started (imports, commands, settings; no table yet): what it holds now
    lives as long as it does, and full collections stop walking it."""
    gc.collect()  # what starting left as garbage goes now, not frozen for ever
    gc.freeze()
