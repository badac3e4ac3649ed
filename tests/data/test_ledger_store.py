"""The ledger store: migrations, URLs, the game lifecycle, restore, settings, read isolation."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest
from ledger_helpers import header_of, new_game, play, seat_for

from data.backends import open_ledger
from data.db import migrations, parse_url, split_statements
from data.errors import GameNotFound, GameNotRunning, InvalidLog, LedgerError, WrongStatus
from data.store import GuildSettings, Seat
from rules.log import load, replay
from rules.random_play import random_match


def _path(url: str) -> str:
    return parse_url(url).path


# -- migrations and URLs ---------------------------------------------------------------------


async def test_migrations_from_empty_file(ledger_url):
    ledger = await open_ledger(ledger_url)
    await ledger.close()
    conn = sqlite3.connect(_path(ledger_url))
    assert conn.execute("PRAGMA user_version").fetchone()[0] == len(migrations()) >= 1
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"games", "seats", "actions", "results", "ratings", "seasons"} <= tables
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


async def test_migrations_rerun_is_a_no_op(ledger_url):
    ledger = await open_ledger(ledger_url)
    game_id, _, log = await play(ledger, actions=5)
    await ledger.close()
    schema = sqlite3.connect(_path(ledger_url)).execute("SELECT sql FROM sqlite_master").fetchall()
    ledger = await open_ledger(ledger_url)
    try:
        assert (await ledger.game_log(game_id))["actions"] == log["actions"][:5]
    finally:
        await ledger.close()
    conn = sqlite3.connect(_path(ledger_url))
    assert conn.execute("SELECT sql FROM sqlite_master").fetchall() == schema
    assert conn.execute("PRAGMA user_version").fetchone()[0] == len(migrations())


async def test_a_newer_schema_is_refused(ledger_url):
    await (await open_ledger(ledger_url)).close()
    conn = sqlite3.connect(_path(ledger_url))
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    with pytest.raises(LedgerError, match="newer"):
        await open_ledger(ledger_url)


def test_split_statements_keeps_triggers_whole():
    script = "CREATE TABLE t (a);\n-- note; with a semicolon\nCREATE TRIGGER x AFTER INSERT ON t"
    script += " BEGIN SELECT 1; SELECT 2; END;\n"
    statements = split_statements(script)
    assert len(statements) == 2
    assert statements[1].endswith("END;")


def test_urls():
    assert parse_url("sqlite:///kamiza.sqlite3").path == "kamiza.sqlite3"
    assert parse_url("sqlite:////var/lib/k.db").path == "/var/lib/k.db"
    assert parse_url("sqlite:///k.db?synchronous=normal").synchronous == "normal"
    assert parse_url("sqlite:///k.db").synchronous == "full"
    for bad in ("postgres-ish", "sqlite:///", "sqlite:///:memory:", "sqlite:///k.db?x=1"):
        with pytest.raises(ValueError):
            parse_url(bad)


async def test_a_postgres_url_needs_a_host_and_a_database():
    for bad in ("postgresql:///kamiza", "postgresql://localhost", "postgresql://h:port/db"):
        with pytest.raises(ValueError, match="PostgreSQL URL"):
            await open_ledger(bad)


# -- games ---------------------------------------------------------------------------------------


async def test_lobby_seats_then_start(ledger):
    game_id = await new_game(ledger, guild=7, host=101)
    record = await ledger.get_game(game_id)
    assert record is not None
    assert (record.status, record.header, record.guild_id, record.thread_id) == (
        "lobby",
        None,
        7,
        20,
    )
    assert record.season_id == (await ledger.current_season(7)).id
    await ledger.set_seats(game_id, [seat_for("101"), seat_for("102")])
    await ledger.set_seats(game_id, [seat_for("101"), seat_for("102"), seat_for("103")])
    assert [s.player for s in (await ledger.get_game(game_id)).seats] == ["101", "102", "103"]

    _, log = random_match("kamiza", ["101", "102", "103"], 3)
    seats = [seat_for(p) for p in log["players"]]
    with pytest.raises(ValueError, match="seating order"):
        await ledger.start_game(game_id, header_of(log), seats[::-1])
    with pytest.raises(InvalidLog):
        await ledger.start_game(game_id, {**header_of(log), "setup": {}}, seats)
    await ledger.start_game(game_id, header_of(log), seats)
    await ledger.start_game(game_id, header_of(log), seats)  # a retry is recognised
    record = await ledger.get_game(game_id)
    assert record.status == "running" and record.header == header_of(log)
    assert record.seats == seats and record.started_at is not None
    with pytest.raises(WrongStatus):
        await ledger.set_seats(game_id, seats)


async def test_unknown_games_are_refused(ledger):
    with pytest.raises(ValueError, match="unknown game"):
        await ledger.create_game(
            game="poker", options={}, guild_id=1, channel_id=1, thread_id=None, host_id=1
        )


async def test_seats_are_validated(ledger):
    game_id = await new_game(ledger)
    with pytest.raises(ValueError, match="user id"):
        await ledger.set_seats(game_id, [Seat("x", None, "x")])
    with pytest.raises(ValueError, match="one seat"):
        await ledger.set_seats(game_id, [Seat("a", 1, "a"), Seat("b", 1, "b")])
    with pytest.raises(GameNotFound):
        await ledger.set_seats(999, [seat_for("101")])


async def test_game_log_is_the_log_format_document(ledger):
    game_id, state, log = await play(ledger, seed=11)
    stored = await ledger.game_log(game_id)
    assert stored == log
    assert replay(stored)["scores"] == state.scores()
    lobby = await new_game(ledger)
    with pytest.raises(WrongStatus):
        await ledger.game_log(lobby)
    with pytest.raises(GameNotFound):
        await ledger.game_log(12345)


async def test_unfinished_games_restore_after_restart(ledger_url):
    ledger = await open_ledger(ledger_url)
    running, _, log = await play(ledger, seed=5, actions=9)
    lobby = await new_game(ledger)
    await play(ledger, seed=6)  # finished: not restored
    cancelled = await new_game(ledger)
    await ledger.end_game(cancelled, "cancelled", "host left")
    await ledger.close()

    ledger = await open_ledger(ledger_url)
    try:
        restored = {r.id: r for r in await ledger.unfinished_games()}
    finally:
        await ledger.close()
    assert set(restored) == {running, lobby}
    assert restored[lobby].header is None and restored[lobby].log() is None
    record = restored[running]
    assert record.actions == log["actions"][:9]
    assert (record.channel_id, record.thread_id, record.host_id) == (10, 20, 101)
    assert record.updated_at >= record.created_at
    expected = load({**log, "actions": log["actions"][:9]})
    assert load(record.log()).view(None) == expected.view(None)


async def test_end_game(ledger):
    lobby = await new_game(ledger)
    await ledger.end_game(lobby, "cancelled", "nobody joined")
    await ledger.end_game(lobby, "cancelled", "retry")  # idempotent
    running, _, log = await play(ledger, actions=3)
    await ledger.end_game(running, "abandoned", "players left")
    record = await ledger.get_game(running)
    assert (record.status, record.end_reason) == ("abandoned", "players left")
    assert record.ended_at is not None
    with pytest.raises(GameNotRunning):
        await ledger.append_action(running, 3, log["actions"][3])
    with pytest.raises(WrongStatus):
        await ledger.end_game(running, "cancelled", "too late")
    with pytest.raises(ValueError):
        await ledger.end_game(lobby, "finished", "not like this")


# -- settings ------------------------------------------------------------------------------------


async def test_guild_settings(ledger_url):
    ledger = await open_ledger(ledger_url)
    assert await ledger.guild_settings(5) == GuildSettings()
    updated = await ledger.update_guild_settings(5, turn_seconds=60, rate_bot_games=True)
    assert updated == GuildSettings(turn_seconds=60, rate_bot_games=True)
    await ledger.update_guild_settings(5, editions={"kamiza": "classic"}, locale="ja")
    await ledger.update_guild_settings(5, turn_seconds=None)
    await ledger.close()
    ledger = await open_ledger(ledger_url)
    try:
        settings = await ledger.guild_settings(5)
        assert settings == GuildSettings(None, None, True, {"kamiza": "classic"}, "ja")
        assert (settings.edition("kamiza"), GuildSettings().edition("kamiza")) == (
            "classic",
            "second",
        )
        assert settings.edition("kobayakawa") is None  # a game without editions
        for bad, message in [
            ({"colour": "red"}, "unknown setting 'colour'"),
            ({"turn_seconds": 0}, "turn_seconds"),
            ({"lobby_seconds": "10"}, "lobby_seconds"),
            ({"rate_bot_games": "yes"}, "rate_bot_games"),
            ({"editions": {"kamiza": "third"}}, "editions: kamiza has no edition 'third'"),
            ({"editions": {"kobayakawa": "second"}}, "'kobayakawa' is not a game with editions"),
            ({"editions": "kamiza:classic"}, "editions must map games to editions"),
            ({"locale": "Japanese!"}, "locale"),
        ]:
            with pytest.raises(ValueError, match=message):
                await ledger.update_guild_settings(5, **bad)
        assert await ledger.guild_settings(5) == settings
    finally:
        await ledger.close()


# -- reads never block on the writer -------------------------------------------------------------


async def test_reads_do_not_wait_for_a_writer(sqlite_ledger, ledger_url):
    ledger = sqlite_ledger
    game_id, _, _ = await play(ledger, actions=4)
    other = sqlite3.connect(_path(ledger_url), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the write lock
    other.execute("UPDATE guild_settings SET locale = 'en'")
    try:
        record = await asyncio.wait_for(ledger.get_game(game_id), timeout=2)
        assert len(record.actions) == 4
        board = await asyncio.wait_for(ledger.leaderboard(1, "kamiza"), timeout=2)
        assert board.total == 0
    finally:
        other.execute("ROLLBACK")
        other.close()
