"""The SQLite ledger: `data.store.Ledger` on one file; one writer, reads on their own connection."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable
from datetime import datetime
from typing import Any

from data import members, records
from data.db import Database
from data.sql_ledger import SqlLedger, _utcnow, checked_action
from data.store import HandDelivery, MemberPrefs, WebPresence


class SqliteLedger(SqlLedger):
    """See `data.store.Ledger` for what each method promises."""

    def __init__(self, db: Database, clock: Callable[[], datetime]) -> None:
        super().__init__(db, clock)
        self._sqlite = db
        # Members' choices as the ledger holds them, read once per member: they are asked on
        # every turn and every click, and only this ledger (one writer) changes them.
        self._prefs: dict[int, MemberPrefs] = {}

    @classmethod
    async def open(cls, url: str, *, clock: Callable[[], datetime] | None = None) -> SqliteLedger:
        return cls(await Database.open(url), clock or _utcnow)

    async def append_action(self, game_id: int, seq: int, action: dict[str, Any]) -> bool:
        text, player, now = checked_action(seq, action), action["player"], self._now()

        def append(conn: sqlite3.Connection) -> bool:
            try:
                conn.execute(
                    "INSERT INTO actions (game_id, seq, player, action, created_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (game_id, seq, player, text, now),
                )
            except sqlite3.IntegrityError:
                queries = records.refusal_queries(game_id, seq)
                found = [conn.execute(sql, args).fetchone() for sql, args in queries]
                return records.refused_append(game_id, seq, text, player, *found)
            return True

        return await self._sqlite.write_fn(append)

    # -- a member's own choices ----------------------------------------------------------------

    async def member_prefs(self, user_id: int) -> MemberPrefs:
        prefs = self._prefs.get(user_id)
        if prefs is None:
            async with self._db.read() as conn:
                prefs = self._prefs[user_id] = await members.member_prefs(conn, user_id)
        return prefs

    async def set_hand_delivery(
        self, user_id: int, delivery: HandDelivery, lang: str | None
    ) -> MemberPrefs:
        MemberPrefs(delivery, lang)  # checked before taking the writer lock
        async with self._db.write() as conn:
            await members.change(
                conn, user_id, self._now(), hand_delivery=delivery, lang=lang, dm_failed=False
            )
            new = await members.member_prefs(conn, user_id)
        self._prefs[user_id] = new
        return new

    async def set_web_presence(self, user_id: int, web: WebPresence) -> MemberPrefs:
        MemberPrefs(web=web)  # checked before taking the writer lock
        async with self._db.write() as conn:
            await members.store_web(conn, user_id, web, self._now())
            new = await members.member_prefs(conn, user_id)
        self._prefs[user_id] = new
        return new

    async def dm_failed(self, user_id: int) -> None:
        changes: dict[str, Any] = {"hand_delivery": "ephemeral", "dm_failed": True}
        async with self._db.write() as conn:
            old = await members.change(conn, user_id, self._now(), **changes)
        self._prefs[user_id] = dataclasses.replace(old, **changes)

    async def claim_dm_failure(self, user_id: int) -> bool:
        if not (await self.member_prefs(user_id)).dm_failed:  # the usual answer: no I/O
            return False
        async with self._db.write() as conn:
            old = await members.change(conn, user_id, self._now(), dm_failed=False)
        self._prefs[user_id] = dataclasses.replace(old, dm_failed=False)
        return old.dm_failed

    async def integrity_problems(self) -> list[str]:
        """SQLite's integrity and foreign key checks, plus gap-free action sequences."""
        problems = []
        async with self._db.read() as conn:
            async with conn.execute("PRAGMA integrity_check") as cur:
                problems += [row[0] async for row in cur if row[0] != "ok"]
            async with conn.execute("PRAGMA foreign_key_check") as cur:
                problems += [f"foreign key: {tuple(row)}" async for row in cur]
            problems += await self._gaps(conn)
        return problems
