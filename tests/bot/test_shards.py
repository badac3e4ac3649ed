"""Scale-out: the SHARD_COUNT / SHARD_IDS settings, and a process restoring only its own guilds."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.runtime.manager import Defaults, TableManager
from bot.runtime.shards import Shards, shard_of
from bot.settings import load_settings
from data.backends import open_ledger
from tests.bot.test_runtime import Recorder, open_and_start, play_out
from tests.bot.test_settings import TOKEN, clean_environment, errors  # noqa: F401

PG = "postgresql://kamiza:hunter2@db.example/kamiza"
# Guild ids whose creation times put them on shards 0 and 1 of two.
GUILD_ON_0, GUILD_ON_1 = 1000 << 22, 1001 << 22


def test_unset_shards_are_one_unsharded_process() -> None:
    settings = load_settings()
    assert not settings.sharded and settings.shards == (0,)


def test_a_process_runs_the_shards_it_is_given(monkeypatch) -> None:
    monkeypatch.setenv("DATABASE_URL", PG)
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", " 2, 3")
    settings = load_settings()
    assert settings.sharded and settings.shard_count == 4 and settings.shards == (2, 3)
    monkeypatch.delenv("SHARD_IDS")
    assert load_settings().shards == (0, 1, 2, 3)  # no SHARD_IDS: all of them


@pytest.mark.parametrize(
    ("env", "line"),
    [
        (
            {"SHARD_COUNT": "2", "SHARD_IDS": "0,2"},
            "SHARD_IDS: shard 2 is not below SHARD_COUNT=2 (shards are numbered 0 to 1)",
        ),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "1,1"}, "SHARD_IDS=1,1 names a shard twice"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT (the bot's shards in all)"),
        (
            {"SHARD_COUNT": "2", "SHARD_IDS": "0;1"},
            "SHARD_IDS='0;1' is invalid: must be shard numbers separated by commas, like 0,1",
        ),
        (
            {"SHARD_COUNT": "0"},
            "SHARD_COUNT='0' is invalid: Input should be greater than or equal to 1",
        ),
    ],
)
def test_bad_shards_are_refused_with_one_clear_line(monkeypatch, env, line) -> None:
    assert errors(monkeypatch, DATABASE_URL=PG, **env) == [line]


def test_several_shards_on_sqlite_are_errors(monkeypatch, tmp_path) -> None:
    lines = errors(monkeypatch, SHARD_COUNT="2", SHARD_IDS="1")
    assert lines == [
        "SHARD_COUNT=2 needs a PostgreSQL ledger that every process shares: set "
        "DATABASE_URL=postgresql://… (move the ledger with `python -m data copy`)"
    ]
    assert list(tmp_path.iterdir()) == []  # nothing opened


@pytest.mark.parametrize("ids", [None, "1,0"])
def test_one_process_may_run_every_shard_on_sqlite(monkeypatch, ids) -> None:
    monkeypatch.setenv("SHARD_COUNT", "2")
    if ids is not None:
        monkeypatch.setenv("SHARD_IDS", ids)
    settings = load_settings()
    assert settings.database_url.startswith("sqlite:") and set(settings.shards) == {0, 1}


def test_a_guild_belongs_to_its_shard() -> None:
    assert shard_of(GUILD_ON_0, 2) == 0 and shard_of(GUILD_ON_1, 2) == 1
    second = Shards.of(2, [1])
    assert second.owns(GUILD_ON_1) and not second.owns(GUILD_ON_0)
    assert not second.gets_dms and Shards.of(2, [0]).gets_dms
    assert Shards.single().owns(GUILD_ON_0) and Shards.of(2, [0, 1]).owns(GUILD_ON_1)


@pytest.fixture
async def ledger(tmp_path: Path):
    store = await open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    yield store
    await store.close()


def manager_of(ledger, recorder: Recorder, shards: Shards) -> TableManager:
    defaults = Defaults(turn_seconds=60, lobby_seconds=600, bot_delay=0.0)
    return TableManager(ledger, {"kamiza": recorder}, defaults, shards)


async def test_a_process_restores_only_its_own_guilds_tables(ledger, monkeypatch) -> None:
    import tests.bot.test_runtime as runtime

    first = manager_of(ledger, Recorder(), Shards.single())
    tables = {}
    for guild in (GUILD_ON_0, GUILD_ON_1):
        monkeypatch.setattr(runtime, "GUILD", guild)
        tables[guild] = await open_and_start(first, humans=3, home=guild + 5)
    unannounced = tables[GUILD_ON_1]
    unannounced.announce_end = lambda **kwargs: None  # type: ignore[method-assign]
    await play_out(unannounced)
    await unannounced.outbox.drain()  # the game's end is written after the last play's answer
    await first.shutdown()

    on_0 = manager_of(ledger, Recorder(), Shards.of(2, [0]))
    assert await on_0.restore() == (0, 1)
    assert on_0.get(tables[GUILD_ON_0].game_id) is not None
    assert on_0.get(tables[GUILD_ON_1].game_id) is None
    # The other process's unannounced end is left for it to tell.
    assert [r.id for r in await ledger.unannounced_games()] == [unannounced.game_id]
    await on_0.shutdown()

    on_1 = manager_of(ledger, recorder := Recorder(), Shards.of(2, [1]))
    assert await on_1.restore() == (0, 0)
    assert on_1.get(tables[GUILD_ON_0].game_id) is None
    await runtime.until(lambda: recorder.named("finished"), recorder)
    await on_1.shutdown()


def test_the_bot_refuses_several_shards_on_sqlite_with_one_line_and_status_2(tmp_path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SHARD_IDS")}
    env |= {"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "2", "SHARD_IDS": "1"}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "kamiza: SHARD_COUNT=2 needs a PostgreSQL ledger that every process shares: set "
        "DATABASE_URL=postgresql://… (move the ledger with `python -m data copy`)"
    ]
    assert list(tmp_path.iterdir()) == []  # no ledger file made
