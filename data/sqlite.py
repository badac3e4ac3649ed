"""The SQLite ledger: `data.store.Ledger` on one file; one writer, reads on their own connection."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial
from typing import Any

from data import members, records
from data.db import Database
from data.group_commit import Batch, GroupCommit
from data.sql_ledger import (
    SET_NOTE,
    Append,
    SqlLedger,
    _utcnow,
    checked_action,
    dumps,
    refusal_outcome,
)
from data.store import HandDelivery, MemberPrefs, WebPresence

DROP_NOTE = "DELETE FROM game_notes WHERE game_id = ? AND key = ?"
INSERT_ACTION = (
    "INSERT INTO actions (game_id, seq, player, action, created_at) VALUES (?, ?, ?, ?, ?)"
)


def _append_all(appends: Sequence[Append], conn: sqlite3.Connection) -> list[bool | Exception]:
    """On the writer's thread, inside one transaction: each append, or why it is refused.

    A refused INSERT (a constraint, the triggers' RAISE(ABORT)) undoes only itself in SQLite, so
    the others stay in the transaction; its refusal is read in that same transaction, which is
    what is committed with it (an earlier append of the batch took the number: a conflict).
    """
    outcomes: list[bool | Exception] = []
    for a in appends:
        try:
            conn.execute(INSERT_ACTION, (a.game_id, a.seq, a.player, a.text, a.created_at))
        except sqlite3.IntegrityError:
            outcomes.append(_refusal(conn, a))
        else:
            outcomes.append(True)
    return outcomes


def _set_all(notes: Sequence[tuple[int, str, str | None]], conn: sqlite3.Connection) -> list[None]:
    """On the writer's thread, inside one transaction: each note set (or dropped: None), in the
    order asked, so the last word on a key wins."""
    for game_id, key, value in notes:
        if value is None:
            conn.execute(DROP_NOTE, (game_id, key))
        else:
            conn.execute(SET_NOTE, (game_id, key, value))
    return [None] * len(notes)


def _refusal(conn: sqlite3.Connection, a: Append) -> bool | Exception:
    found = [
        conn.execute(sql, args).fetchone()
        for sql, args in records.refusal_queries(a.game_id, a.seq)
    ]
    return refusal_outcome(a, found)


class SqliteLedger(SqlLedger):
    """See `data.store.Ledger` for what each method promises."""

    def __init__(self, db: Database, clock: Callable[[], datetime]) -> None:
        super().__init__(db, clock)
        self._sqlite = db
        # Members' choices as the ledger holds them, read once per member: they are asked on
        # every turn and every click, and only this ledger (one writer) changes them.
        self._prefs: dict[int, MemberPrefs] = {}
        # One writer, one batch at a time: the next is what queued while the last one committed.
        self._appends: GroupCommit[Append, bool] = GroupCommit(self._write_appends)
        # Game notes the same way. A table keeps one as each message it posts (its ids, for a
        # restart): a dozen a round. As units of work of their own (`Database.write`, a thread
        # hop per statement) they held the writer while the clicks' appends queued behind them
        # (issue 20: a KAMIZA play's p99 of 0.4 s at 50 tables); batched, each costs one row.
        # A note dropped goes the same way, in line behind the notes set before it.
        self._notes: GroupCommit[tuple[int, str, str | None], None] = GroupCommit(self._write_notes)

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        clock: Callable[[], datetime] | None = None,
        exclusive: bool = False,
        migrating: bool = True,
    ) -> SqliteLedger:
        db = await Database.open(url, exclusive=exclusive, migrating=migrating)
        return cls(db, clock or _utcnow)

    async def append_action(self, game_id: int, seq: int, action: dict[str, Any]) -> bool:
        text = checked_action(seq, action)
        return await self._appends.submit(Append(game_id, seq, action["player"], text, self._now()))

    async def _write_appends(self, appends: Batch[Append, bool]) -> list[bool | Exception]:
        """One transaction, one COMMIT (one fsync) for every append waiting (`GroupCommit`),
        each caller told as the writer's thread answers (`Batch.written`)."""
        return await self._sqlite.write_fn(partial(_append_all, appends), appends.written)

    async def set_note(self, game_id: int, key: str, value: Any) -> None:
        await self._notes.submit((game_id, key, dumps(value)))

    async def drop_note(self, game_id: int, key: str) -> None:
        await self._notes.submit((game_id, key, None))

    async def _write_notes(self, notes: Batch[tuple[int, str, str | None], None]) -> list[None]:
        return await self._sqlite.write_fn(partial(_set_all, notes), notes.written)

    async def close(self) -> None:
        # The appends and notes already submitted are written first.
        await self._appends.close()
        await self._notes.close()
        await super().close()

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
