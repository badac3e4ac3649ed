"""Whether a process has ended, judged from /proc rather than from a handle: a multiprocessing
handle shared with another thread that reaps it (an executor's own thread) can report a dead
process as alive, and a process's children outlive it by a moment after it exits."""

from __future__ import annotations

import time
from pathlib import Path


def running(pid: int) -> bool:
    """True while `pid` exists and is not a zombie (ended, only waiting to be reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"  # the state follows the command's name


def still_running(pids: list[int], seconds: float) -> list[int]:
    """The `pids` that are still running after up to `seconds` of waiting for them to end."""
    deadline = time.monotonic() + seconds
    left = [pid for pid in pids if running(pid)]
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = [pid for pid in left if running(pid)]
    return left
