"""A member's own choices (migration 6): how their private hand reaches them, in every server."""

from __future__ import annotations

import dataclasses

from data.conn import Conn
from data.store import MemberPrefs, WebPresence


async def member_prefs(conn: Conn, user_id: int) -> MemberPrefs:
    async with conn.execute(
        "SELECT hand_delivery, lang, dm_failed, web FROM member_prefs WHERE user_id = ?",
        (user_id,),
    ) as cur:
        row = await cur.fetchone()
    if row is None:
        return MemberPrefs()
    return MemberPrefs(row["hand_delivery"], row["lang"], bool(row["dm_failed"]), row["web"])


async def store(conn: Conn, user_id: int, prefs: MemberPrefs, now: str) -> None:
    """Store how the member's hand reaches them; their web presence is left as it is (a
    choice of its own, `store_web`)."""
    await conn.execute(
        """INSERT INTO member_prefs (user_id, hand_delivery, lang, dm_failed, updated_at)
           VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (user_id) DO UPDATE SET hand_delivery = excluded.hand_delivery,
               lang = excluded.lang, dm_failed = excluded.dm_failed,
               updated_at = excluded.updated_at""",
        (user_id, prefs.hand_delivery, prefs.lang, int(prefs.dm_failed), now),
    )


async def change(conn: Conn, user_id: int, now: str, **changes: object) -> MemberPrefs:
    """Change some of the member's choices (inside a write unit); their choices before."""
    old = await member_prefs(conn, user_id)
    await store(conn, user_id, dataclasses.replace(old, **changes), now)  # type: ignore[arg-type]
    return old


async def mark_dm_failed(conn: Conn, user_id: int, now: str) -> None:
    """Back to private menus, a failure to tell: one statement, whatever others change at once."""
    await conn.execute(
        """INSERT INTO member_prefs (user_id, hand_delivery, dm_failed, updated_at)
           VALUES (?, 'ephemeral', 1, ?)
           ON CONFLICT (user_id) DO UPDATE SET hand_delivery = 'ephemeral', dm_failed = 1,
               updated_at = excluded.updated_at""",
        (user_id, now),
    )


async def claim_dm_failure(conn: Conn, user_id: int, now: str) -> bool:
    """Clear a failure still to tell; True for the one caller that cleared it. (For the
    PostgreSQL ledger, shared by processes: RETURNING needs SQLite 3.35.)"""
    async with conn.execute(
        """UPDATE member_prefs SET dm_failed = 0, updated_at = ?
           WHERE user_id = ? AND dm_failed = 1 RETURNING user_id""",
        (now, user_id),
    ) as cur:
        return await cur.fetchone() is not None


async def store_web(conn: Conn, user_id: int, web: WebPresence, now: str) -> None:
    """Shown on or hidden from the web companion: one statement, their other choices kept."""
    await conn.execute(
        """INSERT INTO member_prefs (user_id, web, updated_at) VALUES (?, ?, ?)
           ON CONFLICT (user_id) DO UPDATE SET web = excluded.web,
               updated_at = excluded.updated_at""",
        (user_id, web, now),
    )
