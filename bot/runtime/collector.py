"""Python's cyclic garbage collector, tuned for a process of many tables.

Measured in the table bench (200 tables, issue 20): with Python's defaults (a young collection
every 700 allocations, a full one every 100 young ones once the heap grew by a quarter) the bot
spent 16 s of two minutes in the collector, 9.4 s of it in 19 full collections of up to 1.1 s
each: while one runs, nothing else does, so every click waiting then waits that long. A full
collection walks every object the process holds: the modules, discord.py's caches, every table.

So the bot collects less often, the same way: a young collection every `YOUNG` allocations
(most young objects a click makes are gone by then, freed by their reference counts, and are
never walked), and the objects made while starting (the modules, the restored tables, the
caches of READY) are moved out of the collector's sight once (`gc.freeze`): they live as long as
the process, and a full collection no longer walks them. Nothing is left uncollected: cycles are
still found, a little later.
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
    """The process has started (imports, READY, tables restored): what it holds now lives as
    long as it does, and full collections stop walking it."""
    gc.collect()  # what starting left as garbage goes now, not frozen for ever
    gc.freeze()
