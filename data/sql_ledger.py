"""What both backends of `data.store.Ledger` share: every unit of work, in SQL both run.

`SqlLedger` runs its statements on the connection its database's `write()` / `read()` yield
(aiosqlite's for SQLite, `data.pgdb.PgConn` for PostgreSQL); a backend adds opening, appends
(its hot path), a member's choices and its integrity checks (`data/sqlite.py`,
`data/postgres.py`).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

from data import records, seasons, standings
from data.errors import (
    GameNotFound,
    GameNotOver,
    GameNotRunning,
    InvalidLog,
    WrongStatus,
)
from data.sql_guilds import SqlGuilds
from data.store import ENDED, GameRecord, ResultRow, Seat
from rules.base import RulesError
from rules.log import load, start
from rules.registry import GAMES

dumps = partial(json.dumps, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
SET_NOTE = """INSERT INTO game_notes (game_id, key, value) VALUES (?, ?, ?)
              ON CONFLICT (game_id, key) DO UPDATE SET value = excluded.value"""
BATCH = 200


def _utcnow() -> datetime:
    return datetime.now(UTC)


GAPS = """SELECT game_id FROM actions GROUP BY game_id
          HAVING count(*) <> max(seq) + 1 OR min(seq) <> 0"""


class SqlLedger(SqlGuilds):
    """See `data.store.Ledger` for what each method promises (a guild's settings, seasons and
    standings: `SqlGuilds`)."""

    async def _insert_game(self, conn: Any, sql: str, params: tuple[Any, ...]) -> int:
        """Run the INSERT of a game; its id. (SQLite before 3.35 has no RETURNING.)"""
        cur = await conn.execute(sql, params)
        game_id: int = cur.lastrowid
        return game_id

    async def _lock_game_row(self, conn: Any, game_id: int) -> None:
        """Inside a write: be the only one changing this game until it ends (its status is read,
        then changed)."""

    async def _lock_game(self, conn: Any, game_id: int) -> None:
        """Inside a write: be the only one finishing this game, and writing its guild's ratings."""

    async def _gaps(self, conn: Any) -> list[str]:
        async with conn.execute(GAPS) as cur:
            return [f"game {row[0]}: gap in its action sequence" async for row in cur]

    # -- games -----------------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        game: str,
        options: dict[str, Any],
        guild_id: int,
        channel_id: int,
        thread_id: int | None,
        host_id: int,
        rematch_of: int | None = None,
    ) -> int:
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; known: {', '.join(sorted(GAMES))}")
        now = self._now()
        async with self._db.write() as conn:
            await self._lock_guild(conn, guild_id)
            season = await seasons.ensure_season(conn, guild_id, now)
            return await self._insert_game(
                conn,
                """INSERT INTO games (guild_id, channel_id, thread_id, host_id, season_id, game,
                       options, rematch_of, created_at, updated_at)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                (
                    guild_id,
                    channel_id,
                    thread_id,
                    host_id,
                    season.id,
                    game,
                    dumps(options),
                    rematch_of,
                    now,
                    now,
                ),
            )

    async def set_seats(self, game_id: int, seats: list[Seat], host_id: int | None = None) -> None:
        records.check_seats(seats)
        async with self._db.write() as conn:
            await self._lock_game_row(conn, game_id)
            status = await records.game_status(conn, game_id)
            if status != "lobby":
                raise WrongStatus(game_id, status, "in the lobby")
            await records.replace_seats(conn, game_id, seats, self._now())
            if host_id is not None:
                await conn.execute("UPDATE games SET host_id = ? WHERE id = ?", (host_id, game_id))

    async def start_game(self, game_id: int, header: dict[str, Any], seats: list[Seat]) -> None:
        records.check_seats(seats)
        if header.get("actions"):
            raise InvalidLog("a new game's header has no actions")
        header = {k: v for k, v in header.items() if k != "actions"}
        try:
            start(header)
        except RulesError as exc:
            raise InvalidLog(f"game {game_id}: the rules refuse the header: {exc}") from None
        if [s.player for s in seats] != list(header["players"]):
            raise ValueError("seats must list the header's players in seating order")
        text, now = dumps(header), self._now()
        async with self._db.write() as conn:
            await self._lock_game_row(conn, game_id)
            async with conn.execute(
                "SELECT status, game, header FROM games WHERE id = ?", (game_id,)
            ) as cur:
                row = await cur.fetchone()
            if row is None:
                raise GameNotFound(game_id)
            if row["status"] == "running" and row["header"] == text:
                return  # a retry of a start that was committed
            if row["status"] != "lobby":
                raise WrongStatus(game_id, row["status"], "in the lobby")
            if header["game"] != row["game"]:
                raise InvalidLog(f"game {game_id} is {row['game']}, the header {header['game']}")
            await records.replace_seats(conn, game_id, seats, now)
            await conn.execute(
                """UPDATE games SET status = 'running', header = ?, started_at = ?, updated_at = ?
                   WHERE id = ?""",
                (text, now, now, game_id),
            )

    async def finish_game(self, game_id: int) -> list[ResultRow]:
        now = self._now()
        async with self._db.write() as conn:
            await self._lock_game(conn, game_id)
            record = await records.record(conn, await records.game_row(conn, game_id))
            if record.status == "finished":
                return record.results  # a retry of a finish that was committed
            if record.status != "running":
                raise GameNotRunning(game_id, record.status)
            try:
                state = load(record.log() or {})
            except RulesError as exc:
                raise InvalidLog(f"game {game_id}: the stored log does not replay: {exc}") from None
            if not state.over:
                raise GameNotOver(f"game {game_id} is not over ({len(record.actions)} actions)")
            settings = await records.guild_settings(conn, record.guild_id)
            season = await seasons.ensure_season(conn, record.guild_id, now)
            unrated = standings.unrated_reason(record.seats, settings)
            rated = unrated is None
            rows = await standings.record_results(
                conn,
                game_id=game_id,
                game_name=record.game,
                season_id=season.id,
                seats=record.seats,
                state=state,
                rated=rated,
                now=now,
            )
            await conn.execute(
                """UPDATE games SET status = 'finished', season_id = ?, rated = ?,
                       unrated_reason = ?, ended_at = ?, updated_at = ? WHERE id = ?""",
                (season.id, rated, unrated, now, now, game_id),
            )
            return rows

    async def end_game(self, game_id: int, status: str, reason: str) -> None:
        if status not in ENDED:
            raise ValueError(f"a game can only end as {' or '.join(ENDED)}, not {status!r}")
        now = self._now()
        async with self._db.write() as conn:
            await self._lock_game_row(conn, game_id)
            current = await records.game_status(conn, game_id)
            if current == status:
                return
            if current not in ("lobby", "running"):
                raise WrongStatus(game_id, current, "in the lobby or running")
            await conn.execute(
                """UPDATE games SET status = ?, end_reason = ?, ended_at = ?, updated_at = ?
                   WHERE id = ?""",
                (status, reason, now, now, game_id),
            )

    async def unfinished_games(self) -> list[GameRecord]:
        async with self._db.read() as conn:
            async with conn.execute(
                "SELECT * FROM games WHERE status IN ('lobby', 'running') ORDER BY id"
            ) as cur:
                rows = list(await cur.fetchall())
            return await records.records(conn, rows)

    async def get_game(self, game_id: int) -> GameRecord | None:
        async with self._db.read() as conn:
            async with conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
                row = await cur.fetchone()
            return await records.record(conn, row) if row else None

    async def unannounced_games(self) -> list[GameRecord]:
        async with self._db.read() as conn:
            async with conn.execute(
                """SELECT * FROM games WHERE announced = 0
                   AND status IN ('finished', 'cancelled', 'abandoned') ORDER BY id"""
            ) as cur:
                rows = list(await cur.fetchall())
            return await records.records(conn, rows)

    async def mark_announced(self, game_id: int) -> None:
        async with self._db.write() as conn:
            await conn.execute("UPDATE games SET announced = 1 WHERE id = ?", (game_id,))

    async def set_note(self, game_id: int, key: str, value: Any) -> None:
        async with self._db.write() as conn:
            await conn.execute(SET_NOTE, (game_id, key, dumps(value)))

    async def notes(self, game_id: int) -> dict[str, Any]:
        async with (
            self._db.read() as conn,
            conn.execute("SELECT key, value FROM game_notes WHERE game_id = ?", (game_id,)) as cur,
        ):
            return {row["key"]: json.loads(row["value"]) async for row in cur}

    async def drop_note(self, game_id: int, key: str) -> None:
        async with self._db.write() as conn:
            await conn.execute(
                "DELETE FROM game_notes WHERE game_id = ? AND key = ?", (game_id, key)
            )

    async def noted_games(self, key: str) -> list[tuple[int, Any]]:
        async with (
            self._db.read() as conn,
            conn.execute(
                "SELECT game_id, value FROM game_notes WHERE key = ? ORDER BY game_id", (key,)
            ) as cur,
        ):
            return [(row["game_id"], json.loads(row["value"])) async for row in cur]

    async def game_log(self, game_id: int) -> dict[str, Any]:
        record = await self.get_game(game_id)
        if record is None:
            raise GameNotFound(game_id)
        log = record.log()
        if log is None:
            raise WrongStatus(game_id, record.status, "started")
        return log

    async def last_game_at(self, guild_id: int, home: int) -> GameRecord | None:
        async with self._db.read() as conn:
            async with conn.execute(
                """SELECT * FROM games WHERE guild_id = ?
                       AND (thread_id = ? OR (thread_id IS NULL AND channel_id = ?))
                   ORDER BY id DESC LIMIT 1""",
                (guild_id, home, home),
            ) as cur:
                row = await cur.fetchone()
            return await records.record(conn, row) if row is not None else None

    async def iter_games(
        self, *, guild_id: int | None = None, game_id: int | None = None, status: str | None = None
    ) -> AsyncIterator[GameRecord]:
        """Games in id order, read in batches (each a consistent snapshot)."""
        where, args = ["id > ?"], []
        for column, value in (("guild_id", guild_id), ("id", game_id), ("status", status)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        sql = f"SELECT * FROM games WHERE {' AND '.join(where)} ORDER BY id LIMIT {BATCH}"
        last = 0
        while True:
            async with self._db.read() as conn:
                async with conn.execute(sql, (last, *args)) as cur:
                    rows = list(await cur.fetchall())
                batch = await records.records(conn, rows)
            for record in batch:
                yield record
            if len(rows) < BATCH:
                return
            last = rows[-1]["id"]


@dataclass(frozen=True, slots=True)
class Append:
    """One `append_action`, checked, on its way into a group commit (`data.group_commit`)."""

    game_id: int
    seq: int
    player: str
    text: str  # the action's stored JSON
    created_at: str


def refusal_outcome(append: Append, found: list[Any]) -> bool | Exception:
    """A refused append's outcome from its `records.refusal_queries` rows: an idempotent retry
    (False) or the error that is its own (returned, not raised: the batch goes on)."""
    try:
        return records.refused_append(
            append.game_id, append.seq, append.text, append.player, *found
        )
    except Exception as refusal:
        return refusal


def checked_action(seq: int, action: dict[str, Any]) -> str:
    """The action's stored text; ValueError for what can never be appended."""
    if not isinstance(action, dict) or not isinstance(action.get("player"), str):
        raise ValueError("an action is a JSON object with a 'player'")
    if not isinstance(seq, int) or seq < 0:
        raise ValueError("seq must be a non-negative integer")
    return dumps(action)
