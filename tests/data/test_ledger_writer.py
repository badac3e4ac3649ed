"""The writer's units of work: `write_fn` (the appends' one-hop unit on a plain sqlite3
connection of its own thread) and `write()` stay whole and in order, even for cancelled callers."""

from __future__ import annotations

import asyncio
import sqlite3
import threading

import pytest

from data.db import Database


@pytest.fixture
async def db(ledger_url):
    database = await Database.open(ledger_url)
    yield database
    await database.close()


def _set_locale(locale: str):
    def unit(conn: sqlite3.Connection) -> str:
        conn.execute(
            "INSERT OR REPLACE INTO guild_settings (guild_id, locale, updated_at)"
            " VALUES (1, ?, '')",
            (locale,),
        )
        return locale

    return unit


async def _locale(db: Database) -> str | None:
    async with db.read() as conn, conn.execute("SELECT locale FROM guild_settings") as cur:
        row = await cur.fetchone()
    return None if row is None else row[0]


async def test_write_fn_commits_and_returns_the_functions_result(db):
    assert await db.write_fn(_set_locale("ja")) == "ja"
    assert await _locale(db) == "ja"


async def test_write_fn_rolls_back_what_a_failing_function_wrote(db):
    def failing(conn: sqlite3.Connection) -> None:
        _set_locale("ja")(conn)
        raise ValueError("refused")

    with pytest.raises(ValueError, match="refused"):
        await db.write_fn(failing)
    assert await _locale(db) is None
    assert await db.write_fn(_set_locale("en")) == "en"  # no transaction was left open


async def test_a_cancelled_write_fn_still_lands_whole_before_the_next_unit(db):
    running, release = threading.Event(), threading.Event()

    def slow(conn: sqlite3.Connection) -> str:
        running.set()
        release.wait(timeout=10)
        return _set_locale("ja")(conn)

    first = asyncio.create_task(db.write_fn(slow))
    await asyncio.to_thread(running.wait, 10)
    first.cancel()
    second = asyncio.create_task(db.write_fn(_set_locale("en")))
    await asyncio.sleep(0.05)
    assert not first.done() and not second.done()  # the write lock is held until `slow` ends
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await first
    assert await second == "en"
    assert await _locale(db) == "en"  # `slow` committed first, the next unit after it


async def test_write_and_write_fn_take_turns(db):
    async with db.write() as conn:
        pending = asyncio.create_task(db.write_fn(_set_locale("en")))
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, locale, updated_at) VALUES (1, 'ja', '')"
        )
        await asyncio.sleep(0.05)
        assert not pending.done()
    assert await pending == "en"
    assert await _locale(db) == "en"


async def test_closing_ends_the_writer_thread_and_later_writes_are_refused(ledger_url):
    before = set(threading.enumerate())
    database = await Database.open(ledger_url)
    await database.write_fn(_set_locale("ja"))
    await database.close()
    fresh = [t for t in threading.enumerate() if t not in before]
    for thread in fresh:
        thread.join(timeout=5)
    assert [t for t in fresh if t.is_alive()] == []
    with pytest.raises(ValueError, match="closed"):
        await database.write_fn(_set_locale("en"))
