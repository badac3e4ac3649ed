"""Whose turn it is to IDENTIFY with Discord, among every process of the bot on one PostgreSQL.

Discord lets a bot start one gateway session per rate-limit bucket (`shard_id %
max_concurrency`) every 5 seconds; a session started sooner is refused (op 9) and must start
again. One process spaces its own shards (discord.py waits before each); processes sharing a
bot do not see each other, so they take turns here: a turn is a PostgreSQL advisory lock held
by a connection of its own for the spacing after the turn began. A process killed meanwhile
drops its connection, and with it the lock: nobody waits on a dead turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import asyncpg

from data.pgdb import CONNECT_TIMEOUT
from data.urls import redact_url

log = logging.getLogger(__name__)

IDENTIFY_LOCK_SPACE = 1264  # pg_advisory_lock(space, bucket), beside the guild locks' 1263
LONGEST_WAIT = 120.0  # seconds: past this a turn is taken anyway (a stuck holder is a bug)


class IdentifyTurns:
    """Turns to IDENTIFY, spaced `spacing` seconds apart per bucket across processes."""

    def __init__(self, url: str, spacing: float) -> None:
        self.url = url
        self.spacing = spacing
        self._holders: set[asyncio.Task[None]] = set()

    async def take(self, bucket: int) -> None:
        """Return when this process may IDENTIFY in `bucket`: nobody else did in the last
        `spacing` seconds, and nobody else will in the next. Without the database (unreachable,
        or too slow to grant the lock), it waits `spacing` and goes on: one refused IDENTIFY,
        which discord.py starts again, is better than a shard that never connects."""
        conn: asyncpg.Connection | None = None
        try:
            conn = await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT)
            await conn.execute(f"SET lock_timeout = {int(LONGEST_WAIT * 1000)}")
            await conn.execute("SELECT pg_advisory_lock($1, $2)", IDENTIFY_LOCK_SPACE, bucket)
        except Exception as exc:
            log.warning(
                "could not take a turn to connect to Discord on %s (%s); waiting %.0f s instead",
                redact_url(self.url),
                exc.__class__.__name__,
                self.spacing,
            )
            if conn is not None:
                conn.terminate()
            await asyncio.sleep(self.spacing)
            return
        holder = asyncio.create_task(self._hold(conn), name=f"IDENTIFY turn {bucket}")
        self._holders.add(holder)
        holder.add_done_callback(self._holders.discard)

    async def _hold(self, conn: asyncpg.Connection) -> None:
        try:
            await asyncio.sleep(self.spacing)
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.close(), CONNECT_TIMEOUT)
            if not conn.is_closed():
                conn.terminate()

    async def close(self) -> None:
        """Give up the turns still held (the bot stops)."""
        for holder in list(self._holders):
            holder.cancel()
        for holder in list(self._holders):
            with contextlib.suppress(asyncio.CancelledError):
                await holder
