"""The end of a game in the ledger (migration 5): why a game is unrated, decided with its
results; a rematch linked to the game it follows; a server's archive delay; the last game of a
thread. A ledger of version 4 upgrades with its games and settings kept."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from data.backends import open_ledger
from data.db import migrations
from data.store import GuildSettings, Seat
from rules.random_play import random_match
from tests.data.ledger_helpers import UNDO_MIGRATION_8
from tests.data.test_ledger_editions import ledger_at_version

WHEN = "2025-01-01T00:00:00+00:00"


def seat(player: str) -> Seat:
    if player.startswith("bot-"):
        return Seat(player, None, f"Bot {player[4:]}", is_bot=True)
    return Seat(player, int(player), f"user{player}")


async def finish(
    ledger, players: list[str], *, thread: int | None = None, guild: int = 1, **link
) -> int:
    """A finished KAMIZA game of `players` (the first hosts it; "bot-N" are computers)."""
    _, log = random_match("kamiza", players, 5)
    gid = await ledger.create_game(
        game="kamiza",
        options=log["options"],
        guild_id=guild,
        channel_id=2,
        thread_id=thread,
        host_id=int(players[0]),
        **link,
    )
    header = {k: v for k, v in log.items() if k != "actions"}
    await ledger.start_game(gid, header, [seat(p) for p in log["players"]])
    for seq, action in enumerate(log["actions"]):
        await ledger.append_action(gid, seq, action)
    await ledger.finish_game(gid)
    return gid


@pytest.mark.parametrize(
    ("players", "rate_bot_games", "reason"),
    [
        (["1", "2", "3"], False, None),
        (["1", "bot-1", "bot-2"], False, "too_few_members"),
        (["1", "bot-1", "bot-2"], True, "too_few_members"),
        (["1", "2", "bot-1"], False, "computer_seats"),
        (["1", "2", "bot-1"], True, None),
    ],
)
async def test_a_finished_game_keeps_why_it_is_unrated(
    backend_url: str, players: list[str], rate_bot_games: bool, reason: str | None
) -> None:
    ledger = await open_ledger(backend_url)
    try:
        await ledger.update_guild_settings(1, rate_bot_games=rate_bot_games)
        record = await ledger.get_game(await finish(ledger, players))
        assert record is not None
        assert record.unrated_reason == reason
        assert record.rated is (reason is None)
        rated_rows = [r for r in record.results if r.rating_after is not None]
        assert bool(rated_rows) is (reason is None)
    finally:
        await ledger.close()


async def test_a_rematch_is_a_new_game_linked_to_the_first(backend_url: str) -> None:
    ledger = await open_ledger(backend_url)
    try:
        first = await finish(ledger, ["1", "2", "3"], thread=40)
        second = await finish(ledger, ["1", "2", "3"], thread=40, rematch_of=first)
        elsewhere = await finish(ledger, ["1", "2", "3"], thread=41)
        assert second != first
        assert (await ledger.get_game(second)).rematch_of == first
        assert (await ledger.get_game(first)).rematch_of is None
        assert (await ledger.last_game_at(1, 40)).id == second
        assert (await ledger.last_game_at(1, 41)).id == elsewhere
        assert await ledger.last_game_at(2, 40) is None  # another server's thread
        assert await ledger.last_game_at(1, 99) is None
    finally:
        await ledger.close()


async def test_the_archive_delay_is_a_setting_with_bounds(backend_url: str) -> None:
    ledger = await open_ledger(backend_url)
    try:
        assert (await ledger.guild_settings(1)).archive_seconds is None
        assert (await ledger.update_guild_settings(1, archive_seconds=30)).archive_seconds == 30
        for bad in (9, 7 * 86400 + 1, True):
            with pytest.raises(ValueError, match="archive_seconds"):
                await ledger.update_guild_settings(1, archive_seconds=bad)
        assert (await ledger.guild_settings(1)).archive_seconds == 30
        changed = await ledger.update_guild_settings(1, turn_seconds=20)
        assert changed.archive_seconds == 30 and changed.turn_seconds == 20
    finally:
        await ledger.close()


async def test_a_version_4_ledger_upgrades_with_its_games_and_settings(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    ledger_at_version(path, 4).close()
    ledger = await open_ledger(f"sqlite:///{path}")  # a version-5 ledger, to fill as v4 would
    try:
        old = await finish(ledger, ["1", "2", "bot-1"])
        await ledger.update_guild_settings(5, turn_seconds=30)
    finally:
        await ledger.close()
    conn = sqlite3.connect(path)  # back to version 4: what migrations 5 to 8 added goes
    conn.executescript(
        UNDO_MIGRATION_8  # migration 8
        + "ALTER TABLE games DROP COLUMN rematch_of; ALTER TABLE games DROP COLUMN unrated_reason;"
        "ALTER TABLE guild_settings DROP COLUMN archive_seconds; DROP TABLE member_prefs;"
        "DROP INDEX results_user_game; ALTER TABLE guild_settings DROP COLUMN web;"  # migration 7
        "PRAGMA user_version = 4;"
    )
    conn.close()
    ledger = await open_ledger(f"sqlite:///{path}")
    try:
        record = await ledger.get_game(old)
        assert record.status == "finished" and not record.rated
        assert record.unrated_reason is None and record.rematch_of is None  # not known then
        assert await ledger.guild_settings(5) == GuildSettings(turn_seconds=30)
    finally:
        await ledger.close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == len(migrations())
