"""Seasons: a guild always has a current one; a new one archives the old one's standings."""

from __future__ import annotations

from datetime import datetime

from data.conn import Conn, Row
from data.store import Champion, Season


def _season(row: Row, champions: list[Champion] | None = None) -> Season:
    return Season(
        id=row["id"],
        guild_id=row["guild_id"],
        number=row["number"],
        name=row["name"],
        started_at=datetime.fromisoformat(row["started_at"]),
        ended_at=datetime.fromisoformat(row["ended_at"]) if row["ended_at"] else None,
        champions=champions or [],
    )


async def find_current_season(conn: Conn, guild_id: int) -> Season | None:
    async with conn.execute(
        "SELECT * FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
    ) as cur:
        row = await cur.fetchone()
    return _season(row) if row else None


async def ensure_season(conn: Conn, guild_id: int, now: str) -> Season:
    """The guild's current season, creating season 1 if it has none (inside a write unit)."""
    season = await find_current_season(conn, guild_id)
    if season is not None:
        return season
    await _insert_season(conn, guild_id, 1, None, now)
    season = await find_current_season(conn, guild_id)
    assert season is not None
    return season


async def _insert_season(
    conn: Conn, guild_id: int, number: int, name: str | None, now: str
) -> None:
    await conn.execute(
        "INSERT INTO seasons (guild_id, number, name, started_at) VALUES (?, ?, ?, ?)",
        (guild_id, number, name or f"Season {number}", now),
    )


async def start_new_season(conn: Conn, guild_id: int, name: str | None, now: str) -> Season:
    """Archive the current season (its champions recorded, its standings frozen), open the next."""
    if name is not None and not (isinstance(name, str) and 0 < len(name.strip()) <= 100):
        raise ValueError("a season name must be 1 to 100 characters")
    name = name.strip() if name else None
    old = await find_current_season(conn, guild_id)
    if old is None:
        await _insert_season(conn, guild_id, 1, name, now)
    else:
        await conn.execute(
            """INSERT INTO season_champions (season_id, game, user_id, display_name, rating)
               SELECT season_id, game, user_id, display_name, rating FROM ratings r
               WHERE season_id = ? AND rating = (
                   SELECT max(rating) FROM ratings WHERE season_id = r.season_id AND game = r.game)
            """,
            (old.id,),
        )
        await conn.execute("UPDATE seasons SET ended_at = ? WHERE id = ?", (now, old.id))
        await _insert_season(conn, guild_id, old.number + 1, name, now)
    season = await find_current_season(conn, guild_id)
    assert season is not None
    return season


async def list_seasons(conn: Conn, guild_id: int) -> list[Season]:
    champions: dict[int, list[Champion]] = {}
    async with conn.execute(
        """SELECT c.* FROM season_champions c JOIN seasons s ON s.id = c.season_id
           WHERE s.guild_id = ? ORDER BY c.game, c.user_id""",
        (guild_id,),
    ) as cur:
        async for row in cur:
            champions.setdefault(row["season_id"], []).append(
                Champion(row["game"], row["user_id"], row["display_name"], row["rating"])
            )
    async with conn.execute(
        "SELECT * FROM seasons WHERE guild_id = ? ORDER BY number DESC", (guild_id,)
    ) as cur:
        return [_season(row, champions.get(row["id"])) async for row in cur]
