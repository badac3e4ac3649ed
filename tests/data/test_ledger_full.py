"""The SQLite ledger on a real full filesystem (`small_disk`): a write the disk cannot hold
raises `LedgerFull` and leaves nothing of itself; once space is back the same writes succeed and
the ledger checks clean. PostgreSQL's "disk full" is mapped the same way (`data.pgdb`)."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest
from ledger_helpers import play
from small_disk import fill

from data.backends import open_ledger
from data.errors import LedgerFull, LedgerUnavailable
from data.pgdb import storage_failures


async def test_writes_on_a_full_disk_raise_ledger_full_and_change_nothing(small_disk):
    ledger = await open_ledger(f"sqlite:///{small_disk / 'ledger.sqlite3'}")
    try:
        game_id, _, log = await play(ledger, actions=3, finish=False)
        filler = fill(small_disk)
        following = log["actions"][3:9]
        # Appends at once share one batch: each caller is told, none is written one by one.
        refused = await asyncio.gather(
            ledger.append_action(game_id, 3, following[0]),
            *(ledger.append_action(game_id + 1, 0, a) for a in following[1:]),
            return_exceptions=True,
        )
        assert all(isinstance(r, LedgerFull) for r in refused), refused
        with pytest.raises(LedgerFull):
            await ledger.set_note(game_id, "messages", {"table": 1})
        with pytest.raises(LedgerUnavailable):  # a unit of work of its own (`Database.write`)
            await ledger.end_game(game_id, "cancelled", "full")
        record = await ledger.get_game(game_id)  # reads still work
        assert record.status == "running" and len(record.actions) == 3
        assert await ledger.notes(game_id) == {}

        filler.unlink()
        assert await ledger.append_action(game_id, 3, following[0])
        await ledger.set_note(game_id, "messages", {"table": 1})
        assert len((await ledger.get_game(game_id)).actions) == 4
        assert await ledger.integrity_problems() == []
    finally:
        await ledger.close()


def test_a_postgresql_server_out_of_space_is_ledger_full_too():
    with pytest.raises(LedgerFull), storage_failures():
        raise asyncpg.DiskFullError("could not extend file: No space left on device")
    with pytest.raises(LedgerUnavailable), storage_failures():
        raise asyncpg.PostgresIOError("could not write block")
    with pytest.raises(asyncpg.UniqueViolationError), storage_failures():
        raise asyncpg.UniqueViolationError("taken")  # a refusal stays what it is
