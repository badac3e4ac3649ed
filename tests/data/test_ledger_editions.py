"""A server's default edition per game (migration 3): stored per (guild, game), checked against
the game registry, and moved over from the column a ledger of version 2 kept for KAMIZA."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from data.backends import open_ledger
from data.db import migrations
from data.store import GuildSettings
from rules.kamiza import Kamiza
from rules.registry import GAMES

WHEN = "2025-01-01T00:00:00+00:00"


def ledger_at_version(path: Path, version: int) -> sqlite3.Connection:
    """A ledger file created by the first `version` migrations only, as an older Kamiza made it."""
    conn = sqlite3.connect(path)
    for _number, _name, sql in migrations()[:version]:
        conn.executescript(sql)
    conn.execute(f"PRAGMA user_version = {version}")
    return conn


async def test_a_version_2_ledger_keeps_every_servers_edition(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = ledger_at_version(path, 2)
    conn.executemany(
        "INSERT INTO guild_settings VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(5, 30, None, 1, "classic", "ja", WHEN), (6, None, 600, 0, "second", None, WHEN)],
    )
    conn.commit()
    conn.close()
    ledger = await open_ledger(f"sqlite:///{path}")
    try:
        assert await ledger.guild_settings(5) == GuildSettings(
            30, None, True, {"kamiza": "classic"}, "ja"
        )
        assert await ledger.guild_settings(6) == GuildSettings(
            None, 600, False, {"kamiza": "second"}
        )
        assert await ledger.guild_settings(7) == GuildSettings()
        changed = await ledger.update_guild_settings(6, editions={"kamiza": "classic"})
        assert changed.edition("kamiza") == "classic" and changed.lobby_seconds == 600
    finally:
        await ledger.close()
    conn = sqlite3.connect(path)
    columns = [row[1] for row in conn.execute("PRAGMA table_info(guild_settings)")]
    assert columns == [
        "guild_id",
        "turn_seconds",
        "lobby_seconds",
        "rate_bot_games",
        "locale",
        "updated_at",
        "archive_seconds",  # migration 5
        "web",  # migration 7
    ]
    assert conn.execute("PRAGMA user_version").fetchone()[0] == len(migrations()) >= 3
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


@pytest.fixture
def two_games_with_editions(monkeypatch: pytest.MonkeyPatch) -> str:
    """A second game with editions, known to the rules registry for one test."""
    other = type("Other", (Kamiza,), {"name": "other", "editions": ("plain", "deluxe")})
    monkeypatch.setitem(GAMES, "other", other)
    return "other"


async def test_each_game_keeps_its_own_default(
    tmp_path: Path, two_games_with_editions: str
) -> None:
    other = two_games_with_editions
    ledger = await open_ledger(f"sqlite:///{tmp_path / 'l.sqlite3'}")
    try:
        assert (await ledger.guild_settings(1)).edition(other) == "plain"  # its first edition
        await ledger.update_guild_settings(1, editions={"kamiza": "classic"})
        await ledger.update_guild_settings(1, editions={other: "deluxe"})
        await ledger.update_guild_settings(1, turn_seconds=60)
        settings = await ledger.guild_settings(1)
        assert settings.editions == {"kamiza": "classic", other: "deluxe"}
        with pytest.raises(ValueError, match="editions: other has no edition 'classic'"):
            await ledger.update_guild_settings(1, editions={other: "classic"})
        assert await ledger.guild_settings(1) == settings
    finally:
        await ledger.close()


async def test_a_choice_for_a_game_no_longer_hosted_is_kept_but_not_read(
    tmp_path: Path, two_games_with_editions: str
) -> None:
    path = tmp_path / "l.sqlite3"
    ledger = await open_ledger(f"sqlite:///{path}")
    try:
        await ledger.update_guild_settings(1, editions={two_games_with_editions: "deluxe"})
    finally:
        await ledger.close()
    del GAMES[two_games_with_editions]  # the plugin is gone (monkeypatch puts nothing back)
    ledger = await open_ledger(f"sqlite:///{path}")
    try:
        assert (await ledger.guild_settings(1)).editions == {}
        await ledger.update_guild_settings(1, editions={"kamiza": "classic"})
        assert (await ledger.guild_settings(1)).editions == {"kamiza": "classic"}
    finally:
        await ledger.close()
    conn = sqlite3.connect(path)
    rows = conn.execute("SELECT game, edition FROM guild_editions ORDER BY game").fetchall()
    assert rows == [("kamiza", "classic"), ("other", "deluxe")]
    conn.close()
