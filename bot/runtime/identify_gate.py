"""When a shard may IDENTIFY (start its gateway session): discord.py asks before each one.

Discord starts one session per bucket every 5 seconds (`IDENTIFY_SPACING_SECONDS`); an IDENTIFY
sooner is refused (op 9) and has to start again. discord.py's own hook sleeps 5 s before every
IDENTIFY but a process's first, which spaces one process's shards only: two processes of one
bot starting together would IDENTIFY at the same moment. Here a process alone spaces its shards
by the time since its last IDENTIFY (a reconnect an hour later does not wait), and processes
sharing a bot take turns through their PostgreSQL ledger (`data.identify_turns`).
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from typing import Protocol


class Turns(Protocol):
    async def take(self, bucket: int) -> None: ...

    async def close(self) -> None: ...


class IdentifyGate:
    """Holds each IDENTIFY until its bucket's turn (`max_concurrency` buckets, Discord's
    `session_start_limit`; 1, every bot's least, unless told)."""

    def __init__(self, spacing: float, turns: Turns | None = None, max_concurrency: int = 1):
        self.spacing = spacing
        self.turns = turns
        self.max_concurrency = max_concurrency
        self._in_line: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._last: dict[int, float] = {}

    def bucket(self, shard_id: int | None) -> int:
        return (shard_id or 0) % self.max_concurrency

    async def wait_turn(self, shard_id: int | None) -> None:
        bucket = self.bucket(shard_id)
        async with self._in_line[bucket]:  # this process's shards, one at a time
            if self.turns is not None:
                await self.turns.take(bucket)  # held `spacing` after: the next waits on it
                return
            last = self._last.get(bucket)
            if last is not None:
                await asyncio.sleep(max(0.0, last + self.spacing - time.monotonic()))
            self._last[bucket] = time.monotonic()

    async def close(self) -> None:
        if self.turns is not None:
            await self.turns.close()
