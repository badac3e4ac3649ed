"""What the bot still owes a table: the announced mark and game notes (migration 2)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from data.backends import open_ledger
from tests.data.ledger_helpers import UNDO_MIGRATION_8
from tests.data.test_ledger_game_ends import finish


async def _finished(ledger, guild: int = 1) -> int:
    return await finish(ledger, ["1", "2", "3"], guild=guild)


async def test_ended_games_stay_unannounced_until_marked(backend_url: str) -> None:
    ledger = await open_ledger(backend_url)
    try:
        finished = await _finished(ledger)
        lobby = await ledger.create_game(
            game="kamiza", options={}, guild_id=1, channel_id=3, thread_id=None, host_id=1
        )
        await ledger.end_game(lobby, "cancelled", "cancel.by_user")
        running = await ledger.create_game(
            game="kamiza", options={}, guild_id=1, channel_id=4, thread_id=None, host_id=1
        )
        owed = [r.id for r in await ledger.unannounced_games()]
        assert owed == [finished, lobby] and running not in owed
        await ledger.mark_announced(finished)
        assert [r.id for r in await ledger.unannounced_games()] == [lobby]
    finally:
        await ledger.close()


async def test_notes_are_replaced_not_added(backend_url: str) -> None:
    ledger = await open_ledger(backend_url)
    try:
        gid = await ledger.create_game(
            game="kamiza", options={}, guild_id=1, channel_id=3, thread_id=None, host_id=1
        )
        assert await ledger.notes(gid) == {}
        await ledger.set_note(gid, "messages", {"table": 1})
        await ledger.set_note(gid, "messages", {"table": 2, "lobby": 3})
        await ledger.set_note(gid, "autopilot", ["bot-1"])
        assert await ledger.notes(gid) == {
            "messages": {"table": 2, "lobby": 3},
            "autopilot": ["bot-1"],
        }
    finally:
        await ledger.close()


async def test_games_ended_before_migration_2_count_as_announced(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite3"
    ledger = await open_ledger(f"sqlite:///{path}")
    gid = await _finished(ledger)
    await ledger.close()
    conn = sqlite3.connect(path)  # back to version 1, as a ledger written before migration 2
    conn.executescript(
        UNDO_MIGRATION_8  # migration 8
        + "ALTER TABLE games DROP COLUMN rematch_of; ALTER TABLE games DROP COLUMN unrated_reason;"
        "DROP INDEX results_user_game; ALTER TABLE guild_settings DROP COLUMN web;"  # migration 7
        "DROP TABLE member_prefs;"  # migration 6
        "ALTER TABLE guild_settings DROP COLUMN archive_seconds;"  # migration 5
        "DROP TABLE guild_editions; ALTER TABLE guild_settings ADD COLUMN kamiza_edition TEXT"
        " NOT NULL DEFAULT 'second' CHECK (kamiza_edition IN ('second', 'classic'));"
        "DROP TABLE game_notes; DROP INDEX games_unannounced;"
        "ALTER TABLE games DROP COLUMN announced; PRAGMA user_version = 1;"
    )
    conn.close()
    ledger = await open_ledger(f"sqlite:///{path}")
    try:
        assert await ledger.unannounced_games() == []
        assert (await ledger.get_game(gid)).status == "finished"
    finally:
        await ledger.close()


async def test_the_games_holding_a_note_are_found_and_a_dropped_note_is_gone(
    backend_url: str,
) -> None:
    ledger = await open_ledger(backend_url)
    try:
        first, second, third = [await _finished(ledger) for _ in range(3)]
        await ledger.set_note(third, "archive", {"due": 3.5})
        await ledger.set_note(first, "archive", {"due": 1.5})
        await ledger.set_note(second, "messages", {"table": 2})
        assert await ledger.noted_games("archive") == [
            (first, {"due": 1.5}),
            (third, {"due": 3.5}),
        ]
        await ledger.drop_note(first, "archive")
        await ledger.drop_note(second, "archive")  # none there: nothing happens
        assert await ledger.noted_games("archive") == [(third, {"due": 3.5})]
        assert await ledger.notes(first) == {} and await ledger.notes(second) != {}
    finally:
        await ledger.close()
