"""The part of `data.sql_ledger.SqlLedger` about a server rather than a game: its settings, its
seasons and its standings, in SQL both backends run; and the connection every unit runs on."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from typing import Any, Protocol

from data import records, seasons, standings
from data.store import GuildSettings, LeaderboardPage, Season, StatsRow


class Units(Protocol):
    """A backend's database: `write()` one transaction, `read()` one consistent snapshot."""

    def write(self) -> AbstractAsyncContextManager[Any]: ...
    def read(self) -> AbstractAsyncContextManager[Any]: ...
    async def close(self) -> None: ...


class SqlGuilds:
    """See `data.store.Ledger` for what each method promises."""

    def __init__(self, db: Units, clock: Callable[[], datetime]) -> None:
        self._db = db
        self._clock = clock

    async def close(self) -> None:
        await self._db.close()

    def read(self) -> AbstractAsyncContextManager[Any]:
        """One consistent snapshot to read in, for the read-only modules of their own
        (`data/web_reads.py`): their SQL stays in `data/`, not in this unit-of-work class."""
        return self._db.read()

    def _statement(self) -> AbstractAsyncContextManager[Any]:
        """Where to run a read that is ONE statement (a statement is its own snapshot): a
        backend whose read transaction costs round trips of its own gives a plain connection."""
        return self._db.read()

    async def _lock_guild(self, conn: Any, guild_id: int) -> None:
        """Inside a write: be the only writer of this guild's seasons and ratings until it ends
        (nothing to do for a backend with a single writer)."""

    def _now(self) -> str:
        return self._clock().astimezone(UTC).isoformat(timespec="microseconds")

    # -- settings and seasons ----------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        async with self._db.read() as conn:
            return await records.guild_settings(conn, guild_id)

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        GuildSettings().changed(**changes)  # fail before taking the writer lock
        async with self._db.write() as conn:
            await self._lock_guild(conn, guild_id)  # changes of other settings are kept
            new = (await records.guild_settings(conn, guild_id)).changed(**changes)
            await conn.execute(
                """INSERT INTO guild_settings (guild_id, turn_seconds, lobby_seconds,
                       rate_bot_games, locale, archive_seconds, web, updated_at)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT (guild_id) DO UPDATE SET turn_seconds = excluded.turn_seconds,
                       lobby_seconds = excluded.lobby_seconds,
                       rate_bot_games = excluded.rate_bot_games, locale = excluded.locale,
                       archive_seconds = excluded.archive_seconds, web = excluded.web,
                       updated_at = excluded.updated_at""",
                (
                    guild_id,
                    new.turn_seconds,
                    new.lobby_seconds,
                    new.rate_bot_games,
                    new.locale,
                    new.archive_seconds,
                    new.web,
                    self._now(),
                ),
            )
            await conn.executemany(
                """INSERT INTO guild_editions (guild_id, game, edition) VALUES (?, ?, ?)
                   ON CONFLICT (guild_id, game) DO UPDATE SET edition = excluded.edition""",
                [(guild_id, game, edition) for game, edition in new.editions.items()],
            )
            return new

    async def current_season(self, guild_id: int) -> Season:
        async with self._db.read() as conn:
            season = await seasons.find_current_season(conn, guild_id)
        if season is not None:
            return season
        async with self._db.write() as conn:
            await self._lock_guild(conn, guild_id)
            return await seasons.ensure_season(conn, guild_id, self._now())

    async def new_season(self, guild_id: int, name: str | None = None) -> Season:
        async with self._db.write() as conn:
            await self._lock_guild(conn, guild_id)
            return await seasons.start_new_season(conn, guild_id, name, self._now())

    async def seasons(self, guild_id: int) -> list[Season]:
        async with self._db.read() as conn:
            return await seasons.list_seasons(conn, guild_id)

    # -- leaderboards, stats, integrity ------------------------------------------------------------

    async def leaderboard(
        self,
        guild_id: int,
        game: str,
        season_id: int | None = None,
        *,
        page: int = 0,
        page_size: int = 10,
    ) -> LeaderboardPage:
        if not 1 <= page_size <= 100 or page < 0:
            raise ValueError("page must be >= 0 and page_size 1 to 100")
        async with self._statement() as conn:
            return await standings.leaderboard(conn, guild_id, game, season_id, page, page_size)

    async def member_stats(self, guild_id: int, user_id: int) -> list[StatsRow]:
        async with self._statement() as conn:
            return await standings.member_stats(conn, guild_id, user_id)
