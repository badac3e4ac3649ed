"""Rows to records and the checks the SQLite ledger runs inside its units of work."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from data.conn import Conn, Row
from data.errors import GameNotFound, GameNotRunning, SequenceConflict
from data.standings import result_row
from data.store import GameRecord, GuildSettings, ResultRow, Seat, game_editions


def parse_time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def check_seats(seats: Sequence[Seat]) -> None:
    players = [s.player for s in seats]
    if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
        raise ValueError("seats need distinct non-empty player strings")
    users = [s.user_id for s in seats if s.user_id is not None]
    if len(set(users)) != len(users):
        raise ValueError("a member can take only one seat")
    for seat in seats:
        if not seat.is_bot and seat.user_id is None:
            raise ValueError(f"seat {seat.player!r}: a human seat needs a user id")


async def game_row(conn: Conn, game_id: int) -> Row:
    async with conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
        row = await cur.fetchone()
    if row is None:
        raise GameNotFound(game_id)
    return row


async def game_status(conn: Conn, game_id: int) -> str:
    async with conn.execute("SELECT status FROM games WHERE id = ?", (game_id,)) as cur:
        row = await cur.fetchone()
    if row is None:
        raise GameNotFound(game_id)
    status: str = row[0]
    return status


async def replace_seats(conn: Conn, game_id: int, seats: Sequence[Seat], now: str) -> None:
    await conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
    await conn.executemany(
        """INSERT INTO seats (game_id, position, player, user_id, display_name, is_bot)
           VALUES (?, ?, ?, ?, ?, ?)""",
        [
            (game_id, i, s.player, s.user_id, s.display_name, bool(s.is_bot))
            for i, s in enumerate(seats)
        ],
    )
    await conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))


def refusal_queries(game_id: int, seq: int) -> list[tuple[str, tuple[int, ...]]]:
    """What `refused_append` needs to know: the action stored at that number, the next number
    expected, the game's status (each a query and its parameters)."""
    return [
        ("SELECT action FROM actions WHERE game_id = ? AND seq = ?", (game_id, seq)),
        ("SELECT coalesce(max(seq) + 1, 0) FROM actions WHERE game_id = ?", (game_id,)),
        ("SELECT status FROM games WHERE id = ?", (game_id,)),
    ]


def refused_append(
    game_id: int, seq: int, text: str, player: str, existing: Row, expected: Row, status: Row
) -> bool:
    """Why an INSERT into actions failed, from the `refusal_queries` rows: an idempotent retry
    (False) or a precise error."""
    if existing is not None:
        if existing[0] == text:
            return False
        raise SequenceConflict(game_id, seq, expected[0], "taken by a different action")
    if status is None:
        raise GameNotFound(game_id)
    if status[0] != "running":
        raise GameNotRunning(game_id, status[0])
    if seq != expected[0]:
        raise SequenceConflict(game_id, seq, expected[0], "not the next action")
    raise ValueError(f"game {game_id}: player {player!r} has no seat")


async def guild_settings(conn: Conn, guild_id: int) -> GuildSettings:
    async with conn.execute("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cur:
        row = await cur.fetchone()
    if row is None:
        return GuildSettings()
    async with conn.execute(
        "SELECT game, edition FROM guild_editions WHERE guild_id = ?", (guild_id,)
    ) as cur:
        chosen = [(game, edition) async for game, edition in cur]
    return GuildSettings(
        turn_seconds=row["turn_seconds"],
        lobby_seconds=row["lobby_seconds"],
        rate_bot_games=bool(row["rate_bot_games"]),
        # A choice for a game this bot no longer hosts, or of an edition it no longer has, stays
        # stored but is not read: that game or edition is back to its default.
        editions={game: edition for game, edition in chosen if edition in game_editions(game)},
        locale=row["locale"],
        archive_seconds=row["archive_seconds"],
        web=bool(row["web"]),
    )


async def record(conn: Conn, row: Row) -> GameRecord:
    return (await records(conn, [row]))[0]


async def records(conn: Conn, rows: Sequence[Row]) -> list[GameRecord]:
    """GameRecords for game rows, with seats, actions and results in three batched queries."""
    if not rows:
        return []
    ids = [row["id"] for row in rows]
    marks = ",".join("?" * len(ids))
    seats: dict[int, list[Seat]] = {i: [] for i in ids}
    actions: dict[int, list[dict[str, Any]]] = {i: [] for i in ids}
    results: dict[int, list[ResultRow]] = {i: [] for i in ids}
    query = f"SELECT * FROM seats WHERE game_id IN ({marks}) ORDER BY game_id, position"
    async with conn.execute(query, ids) as cur:
        async for s in cur:
            seat = Seat(s["player"], s["user_id"], s["display_name"], bool(s["is_bot"]))
            seats[s["game_id"]].append(seat)
    query = f"SELECT game_id, action FROM actions WHERE game_id IN ({marks}) ORDER BY game_id, seq"
    async with conn.execute(query, ids) as cur:
        async for a in cur:
            actions[a["game_id"]].append(json.loads(a["action"]))
    query = f"""SELECT r.* FROM results r JOIN seats s USING (game_id, player)
                WHERE game_id IN ({marks}) ORDER BY game_id, r.rank, s.position"""
    async with conn.execute(query, ids) as cur:
        async for r in cur:
            results[r["game_id"]].append(result_row(r))
    return [
        GameRecord(
            id=row["id"],
            game=row["game"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            thread_id=row["thread_id"],
            host_id=row["host_id"],
            season_id=row["season_id"],
            status=row["status"],
            options=json.loads(row["options"]),
            header=json.loads(row["header"]) if row["header"] else None,
            seats=seats[row["id"]],
            actions=actions[row["id"]],
            created_at=datetime.fromisoformat(row["created_at"]),
            updated_at=datetime.fromisoformat(row["updated_at"]),
            started_at=parse_time(row["started_at"]),
            ended_at=parse_time(row["ended_at"]),
            end_reason=row["end_reason"],
            rated=bool(row["rated"]),
            unrated_reason=row["unrated_reason"],
            rematch_of=row["rematch_of"],
            results=results[row["id"]],
        )
        for row in rows
    ]
