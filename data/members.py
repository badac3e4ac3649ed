"""A member's own choices (migration 6): how their private hand reaches them, in every server."""

from __future__ import annotations

import dataclasses

import aiosqlite

from data.store import MemberPrefs


async def member_prefs(conn: aiosqlite.Connection, user_id: int) -> MemberPrefs:
    async with conn.execute(
        "SELECT hand_delivery, lang, dm_failed FROM member_prefs WHERE user_id = ?", (user_id,)
    ) as cur:
        row = await cur.fetchone()
    if row is None:
        return MemberPrefs()
    return MemberPrefs(row["hand_delivery"], row["lang"], bool(row["dm_failed"]))


async def store(conn: aiosqlite.Connection, user_id: int, prefs: MemberPrefs, now: str) -> None:
    await conn.execute(
        """INSERT OR REPLACE INTO member_prefs (user_id, hand_delivery, lang, dm_failed, updated_at)
           VALUES (?, ?, ?, ?, ?)""",
        (user_id, prefs.hand_delivery, prefs.lang, int(prefs.dm_failed), now),
    )


async def change(
    conn: aiosqlite.Connection, user_id: int, now: str, **changes: object
) -> MemberPrefs:
    """Change some of the member's choices (inside a write unit); their choices before."""
    old = await member_prefs(conn, user_id)
    await store(conn, user_id, dataclasses.replace(old, **changes), now)  # type: ignore[arg-type]
    return old
