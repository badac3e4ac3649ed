"""The PostgreSQL ledger: `data.store.Ledger` on a database several bot processes share.

The units of work are `SqlLedger`'s; what differs from SQLite: a pool instead of one writer, so
a unit that reads what it then changes locks it first (a finish, a new season, a settings
change: their guild, `PgConn.lock_guild`; a lobby's seats, a start, an end: the game's row), and
a member's choices are read from the database every time (another process may have changed
them) and changed with single statements.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any

import asyncpg

from data import members, records
from data.group_commit import GroupCommit
from data.pgdb import PgConn, PgDatabase
from data.sql_ledger import Append, SqlLedger, _utcnow, checked_action, refusal_outcome
from data.store import HandDelivery, MemberPrefs, WebPresence

# What a refused INSERT into actions raises: a taken number, a player without a seat, and the
# trigger's refusals (not running, a gap).
REFUSED_APPEND = (
    asyncpg.UniqueViolationError,
    asyncpg.ForeignKeyViolationError,
    asyncpg.RaiseError,
)
# Columns in `Append`'s order.
INSERT_ONE = """INSERT INTO actions (game_id, seq, player, action, created_at)
                VALUES ($1, $2, $3, $4, $5)"""
INSERT_ALL = """INSERT INTO actions (game_id, seq, player, action, created_at)
                SELECT * FROM unnest($1::bigint[], $2::integer[], $3::text[], $4::text[],
                                     $5::text[])"""

UNSEATED = """SELECT DISTINCT game_id FROM actions a WHERE NOT EXISTS
              (SELECT 1 FROM seats s WHERE s.game_id = a.game_id AND s.player = a.player)
              ORDER BY game_id"""


class PostgresLedger(SqlLedger):
    """See `data.store.Ledger` for what each method promises."""

    def __init__(self, db: PgDatabase, clock: Callable[[], datetime]) -> None:
        super().__init__(db, clock)
        self._pg = db
        # While one batch commits on a connection of the pool, the next is written on another.
        self._appends: GroupCommit[Append, bool] = GroupCommit(self._write_appends, drains=2)

    @classmethod
    async def open(
        cls, url: str, *, clock: Callable[[], datetime] | None = None, migrating: bool = True
    ) -> PostgresLedger:
        return cls(await PgDatabase.open(url, migrating=migrating), clock or _utcnow)

    def _statement(self) -> AbstractAsyncContextManager[PgConn]:
        # No BEGIN ... COMMIT: two round trips fewer for a leaderboard page or a member's stats.
        return self._pg.single()

    async def _lock_guild(self, conn: PgConn, guild_id: int) -> None:
        await conn.lock_guild(guild_id)

    async def _insert_game(self, conn: PgConn, sql: str, params: tuple[Any, ...]) -> int:
        async with conn.execute(f"{sql} RETURNING id", params) as cur:
            row = await cur.fetchone()
        assert row is not None  # an INSERT ... RETURNING returns its row
        game_id: int = row[0]
        return game_id

    async def _lock_game_row(self, conn: PgConn, game_id: int) -> None:
        await conn.raw.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game_id)

    async def _lock_game(self, conn: PgConn, game_id: int) -> None:
        guild_id = await conn.raw.fetchval(
            "SELECT guild_id FROM games WHERE id = $1 FOR UPDATE", game_id
        )
        if guild_id is not None:
            await conn.lock_guild(guild_id)

    async def append_action(self, game_id: int, seq: int, action: dict[str, Any]) -> bool:
        text = checked_action(seq, action)
        return await self._appends.submit(Append(game_id, seq, action["player"], text, self._now()))

    async def _write_appends(self, appends: Sequence[Append]) -> list[bool | Exception]:
        """Every append waiting in one transaction (`GroupCommit`), in (game, seq) order: the
        trigger locks each game's row, and two batches taking them in one order cannot deadlock.
        """
        order = sorted(range(len(appends)), key=lambda i: (appends[i].game_id, appends[i].seq))
        ordered = [appends[i] for i in order]
        try:
            await self._insert_all(ordered)
            written: list[bool | Exception] = [True] * len(ordered)
        except REFUSED_APPEND:  # one of them is refused: which, and why, one savepoint each
            written = await self._insert_each(ordered)
        outcomes: list[bool | Exception] = [True] * len(appends)
        for i, outcome in zip(order, written, strict=True):
            outcomes[i] = outcome
        return outcomes

    async def _insert_all(self, appends: Sequence[Append]) -> None:
        """The batch as ONE statement, one round trip (a statement alone is a transaction)."""
        # Plain attribute reads: `dataclasses.astuple` deep-copies, a cost per append.
        columns = [
            [a.game_id for a in appends],
            [a.seq for a in appends],
            [a.player for a in appends],
            [a.text for a in appends],
            [a.created_at for a in appends],
        ]
        async with self._pg.single() as conn:
            await conn.raw.execute(INSERT_ALL, *columns)

    async def _insert_each(self, appends: Sequence[Append]) -> list[bool | Exception]:
        """Each append under a savepoint of one transaction; a refusal is read in it."""
        outcomes: list[bool | Exception] = []
        async with self._pg.write() as conn:
            for a in appends:
                try:
                    async with conn.raw.transaction():
                        await conn.raw.execute(
                            INSERT_ONE, a.game_id, a.seq, a.player, a.text, a.created_at
                        )
                except REFUSED_APPEND:
                    found = []
                    for sql, args in records.refusal_queries(a.game_id, a.seq):
                        async with conn.execute(sql, args) as cur:
                            found.append(await cur.fetchone())
                    outcomes.append(refusal_outcome(a, found))
                else:
                    outcomes.append(True)
        return outcomes

    async def close(self) -> None:
        await self._appends.close()  # the appends already submitted are written first
        await super().close()

    # -- a member's own choices: never cached, another process may change them ----------------

    async def member_prefs(self, user_id: int) -> MemberPrefs:
        # Asked on every turn and click: one statement, one round trip.
        async with self._pg.single() as conn:
            return await members.member_prefs(conn, user_id)

    async def set_hand_delivery(
        self, user_id: int, delivery: HandDelivery, lang: str | None
    ) -> MemberPrefs:
        new = MemberPrefs(delivery, lang)
        async with self._pg.write() as conn:
            await members.store(conn, user_id, new, self._now())
            return await members.member_prefs(conn, user_id)  # with their web presence

    async def set_web_presence(self, user_id: int, web: WebPresence) -> MemberPrefs:
        MemberPrefs(web=web)
        async with self._pg.write() as conn:
            await members.store_web(conn, user_id, web, self._now())
            return await members.member_prefs(conn, user_id)

    async def dm_failed(self, user_id: int) -> None:
        async with self._pg.write() as conn:
            await members.mark_dm_failed(conn, user_id, self._now())

    async def claim_dm_failure(self, user_id: int) -> bool:
        async with self._pg.write() as conn:
            return await members.claim_dm_failure(conn, user_id, self._now())

    async def integrity_problems(self) -> list[str]:
        """Gap-free action sequences, results of finished games and a seat for every action's
        player (PostgreSQL enforces the other foreign keys and checks itself, and finds damaged
        pages as it reads them)."""
        async with self._pg.read() as conn:
            problems = await self._gaps(conn)
            async with conn.execute(
                """SELECT id FROM games WHERE status = 'finished' AND NOT EXISTS
                   (SELECT 1 FROM results WHERE game_id = games.id) ORDER BY id"""
            ) as cur:
                problems += [f"game {row[0]}: finished without results" async for row in cur]
            # The trigger refuses such an append (version 8: no foreign key any more); `copy`
            # moves actions past it.
            async with conn.execute(UNSEATED) as cur:
                problems += [
                    f"game {row[0]}: an action by a player without a seat" async for row in cur
                ]
        return problems
