"""`python -m data export|check|bench`."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys

import pytest
from ledger_helpers import UNDO_MIGRATION_8, new_game, play

from data import bench
from data.__main__ import main
from data.backends import open_ledger
from data.db import migrations, parse_url
from rules.log import replay
from rules.registry import GAMES

LOG_KEYS = {"format", "game", "options", "players", "setup", "actions"}


def _fill(url: str) -> dict[str, int]:
    async def fill() -> dict[str, int]:
        ledger = await open_ledger(url)
        try:
            ids = {}
            ids["finished"], _, _ = await play(ledger, seed=1)
            ids["other_guild"], _, _ = await play(ledger, seed=2, guild=2)
            ids["running"], _, _ = await play(ledger, seed=3, actions=4)
            ids["lobby"] = await new_game(ledger)
            ids["with_bot"], _, _ = await play(ledger, (101, 102), bots=1, seed=4)
            return ids
        finally:
            await ledger.close()

    return asyncio.run(fill())


def _export(capsys, *args: str) -> list[dict]:
    assert main(["export", *args]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_export_writes_log_documents_as_json_lines(backend_url, capsys):
    ids = _fill(backend_url)
    docs = _export(capsys, "--db", backend_url)
    assert [d["id"] for d in docs] == sorted(set(ids.values()) - {ids["lobby"]})
    for doc in docs:
        assert set(doc) == LOG_KEYS | {"id", "guild", "status", "results"}
        answer = replay({k: v for k, v in doc.items() if k in LOG_KEYS})
        if doc["status"] == "finished":
            assert answer["over"]
            assert {r["player"]: r["score"] for r in doc["results"]} == answer["scores"]
        else:
            assert not answer["over"] and doc["results"] == []
    assert [d["id"] for d in _export(capsys, "--db", backend_url, "--guild", "2")] == [
        ids["other_guild"]
    ]
    assert [
        d["id"] for d in _export(capsys, "--db", backend_url, "--game", str(ids["running"]))
    ] == [ids["running"]]


def test_check_confirms_a_consistent_ledger(backend_url, capsys):
    _fill(backend_url)
    assert main(["check", "--db", backend_url]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "ok" in captured.err and "3 finished games" in captured.err


def test_check_names_the_games_that_disagree(ledger_url, capsys):
    ids = _fill(ledger_url)
    conn = sqlite3.connect(parse_url(ledger_url).path)
    conn.execute(
        "UPDATE results SET score = score + 1 WHERE game_id = ? AND rank = 1", (ids["finished"],)
    )
    conn.execute("UPDATE results SET winner = 1 - winner WHERE game_id = ?", (ids["with_bot"],))
    conn.commit()
    conn.close()
    assert main(["check", "--db", ledger_url]) == 1
    captured = capsys.readouterr()
    assert [line.split(":")[0] for line in captured.out.splitlines()] == [
        f"game {ids['finished']}",
        f"game {ids['with_bot']}",
    ]
    assert f"{ids['finished']} {ids['with_bot']}" in captured.err


def test_check_without_a_ledger(tmp_path, capsys):
    assert main(["check", "--db", f"sqlite:///{tmp_path}/missing.sqlite3"]) == 2
    assert "no ledger" in capsys.readouterr().err
    assert not (tmp_path / "missing.sqlite3").exists()


def test_python_m_data_check_runs_as_a_module(ledger_url):
    _fill(ledger_url)
    done = subprocess.run(
        [sys.executable, "-m", "data", "check", "--db", ledger_url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


def test_bench_on_a_small_ledger(tmp_path, capsys):
    url = f"sqlite:///{tmp_path}/bench.sqlite3"
    assert main(["bench", "--db", url, "--games", "150", "--appends", "64", "--queries", "3"]) == 0
    out = capsys.readouterr().out
    assert "built 150 finished games" in out
    assert "durable appends, one table" in out and "leaderboard page 0" in out
    assert out.count("load average: ") == 2  # before and after: the figures' context
    assert main(["bench", "--db", url, "--games", "150", "--appends", "16", "--queries", "1"]) == 0
    assert "reusing" in capsys.readouterr().out
    assert main(["check", "--db", url]) == 0


def test_bench_migrates_a_fixture_an_older_version_built(tmp_path, capsys):
    """`copy` (the PostgreSQL bench) takes only a ledger of the current schema."""
    path = tmp_path / "bench.sqlite3"
    args = ["bench", "--db", f"sqlite:///{path}", "--games", "30", "--appends", "4"]
    assert main([*args, "--queries", "1"]) == 0
    conn = sqlite3.connect(path)
    conn.executescript(UNDO_MIGRATION_8 + "PRAGMA user_version = 7;")
    conn.close()
    assert main([*args, "--queries", "1"]) == 0
    assert "reusing" in capsys.readouterr().out
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == len(migrations())
    conn.close()


def test_bench_plays_the_first_registered_game_or_the_one_named(tmp_path, capsys):
    url = f"sqlite:///{tmp_path}/bench.sqlite3"
    assert main(["bench", "--db", url, "--games", "30", "--appends", "8", "--queries", "1"]) == 0
    assert f"finished games of {next(iter(GAMES))} in" in capsys.readouterr().out
    other = f"sqlite:///{tmp_path}/other.sqlite3"
    args = ["--games", "30", "--appends", "8", "--queries", "1"]
    assert main(["bench", "--db", other, "--game", "rights-of-losers", *args]) == 0
    assert "finished games of rights-of-losers in" in capsys.readouterr().out
    assert main(["check", "--db", other]) == 0  # a deal by player names the members too
    assert main(["bench", "--db", other, "--game", "chess", *args]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_bench_never_rebuilds_a_ledger_it_did_not_build(tmp_path, capsys):
    url = f"sqlite:///{tmp_path}/bench.sqlite3"
    assert main(["bench", "--db", url, "--games", "150", "--appends", "4", "--queries", "1"]) == 0
    before = (tmp_path / "bench.sqlite3").read_bytes()
    assert main(["bench", "--db", url, "--games", "40", "--appends", "4", "--queries", "1"]) == 2
    assert "refusing to rebuild" in capsys.readouterr().err
    assert (tmp_path / "bench.sqlite3").read_bytes() == before


@pytest.mark.parametrize("command", ["export", "check"])
def test_bad_url(command, capsys):
    assert main([command, "--db", "mysql://nope"]) == 2
    assert "URL" in capsys.readouterr().err


def test_bench_on_postgresql_fills_an_empty_database_from_the_sqlite_fixture(
    tmp_path, pg_url, capsys, monkeypatch
):
    monkeypatch.setattr(bench, "_fixture_folder", lambda: str(tmp_path))
    args = ["bench", "--db", pg_url, "--games", "30", "--appends", "8", "--queries", "1"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "built 30 finished games" in out and "copied 30 games" in out
    for tables in ("one table", "16 tables at once", "200 tables at once"):
        assert f"durable appends, {tables}: " in out
    assert "leaderboard page 0 (" in out and "p99" in out
    assert main(args) == 0
    assert "reusing postgresql://" in capsys.readouterr().out
    assert main(["check", "--db", pg_url]) == 0
    assert main([*args[:4], "20", *args[5:]]) == 2  # not a bench ledger of 20 games: left alone
    assert "but not the bench's: point --db at an empty database" in capsys.readouterr().err
