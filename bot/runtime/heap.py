"""Fewer malloc arenas: the memory a process of many tables keeps after its pictures are drawn.

glibc gives a thread that allocates while another holds the main heap an arena of its own, up to
8 per core, and keeps each arena's freed memory for that arena. The worker threads that draw the
tables' pictures (`asyncio.to_thread`) and the ledger's thread each grew their own heap: a
process that had drawn 25 Rights of Losers tables held 98.8 MB, 85.3 MB with 2 arenas, and with
1,000 idle tables 122.0 MB against 116.1 MB (`tests/bench_idle_tables.py`, `--all-arenas` for
glibc's default). An operator's own `MALLOC_ARENA_MAX` is left as it is.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

M_ARENA_MAX = -8  # glibc's mallopt parameter (malloc.h)
ARENAS = 2


def limit_arenas(arenas: int = ARENAS) -> bool:
    """Ask glibc's malloc for at most `arenas` arenas; False where that cannot be asked (not
    Linux, not glibc, or `MALLOC_ARENA_MAX` already set). Call it before threads start."""
    if not sys.platform.startswith("linux") or "MALLOC_ARENA_MAX" in os.environ:
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False  # another C library (musl has no mallopt)
    return bool(mallopt(M_ARENA_MAX, arenas))
