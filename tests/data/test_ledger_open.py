"""Opening the ledger: files that cannot be a ledger are refused in one line, untouched, and no
connection is left open; a new ledger is private to its owner."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from ledger_helpers import play

from data.backends import open_ledger
from data.db import migrations
from data.errors import LedgerOpenError

# Generous: a hang (an aiosqlite thread left running) is what these timeouts catch.
TIMEOUT = 60


async def real_ledger(path: Path, games: int = 2) -> bytes:
    """A closed ledger file holding `games` finished games; its bytes."""
    ledger = await open_ledger(f"sqlite:///{path}")
    try:
        for seed in range(games):
            await play(ledger, seed=seed)
    finally:
        await ledger.close()
    return path.read_bytes()


def garbage(path: Path) -> bytes:
    data = bytes(range(256)) * 40  # not an SQLite header; 10 KiB of it
    path.write_bytes(data)
    return data


async def truncated(path: Path) -> bytes:
    data = await real_ledger(path)
    path.write_bytes(data[: len(data) // 2])
    return path.read_bytes()


async def newer_schema(path: Path) -> bytes:
    await real_ledger(path, games=0)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {len(migrations()) + 1}")
    conn.commit()
    conn.close()
    return path.read_bytes()


def foreign_database(path: Path) -> bytes:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount INTEGER)")
    conn.execute("INSERT INTO invoices (amount) VALUES (12)")
    conn.commit()
    conn.close()
    return path.read_bytes()


def companions(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir() if p.name.startswith(path.name + "-"))


def new_threads(before: set[threading.Thread]) -> list[threading.Thread]:
    """Threads started since `before` that are still alive after a moment to finish."""
    fresh = [t for t in threading.enumerate() if t not in before]
    for thread in fresh:
        thread.join(timeout=5)
    return [t for t in fresh if t.is_alive()]


# -- in process: the error, the file, the threads ------------------------------------------------


async def test_garbage_is_not_a_ledger_and_stays_untouched(tmp_path):
    path = tmp_path / "garbage.sqlite3"
    data = garbage(path)
    before = set(threading.enumerate())
    with pytest.raises(LedgerOpenError) as caught:
        await open_ledger(f"sqlite:///{path}")
    assert str(caught.value) == f"{path} is not a Kamiza ledger (file is not a database)"
    assert new_threads(before) == []  # the aiosqlite thread would keep the process alive
    assert path.read_bytes() == data and companions(path) == []


async def test_a_truncated_ledger_is_damaged_and_stays_untouched(tmp_path):
    path = tmp_path / "ledger.sqlite3"
    data = await truncated(path)
    before = set(threading.enumerate())
    with pytest.raises(LedgerOpenError, match="is damaged") as caught:
        await open_ledger(f"sqlite:///{path}")
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)
    assert new_threads(before) == []
    assert path.read_bytes() == data and companions(path) == []


async def test_a_newer_schema_is_refused_before_anything_is_written(tmp_path):
    path = tmp_path / "ledger.sqlite3"
    data = await newer_schema(path)
    before = set(threading.enumerate())
    with pytest.raises(LedgerOpenError) as caught:
        await open_ledger(f"sqlite:///{path}")
    message = str(caught.value)
    assert message.startswith(f"{path}: the ledger's schema is newer than this version of Kamiza")
    assert new_threads(before) == []
    assert path.read_bytes() == data and companions(path) == []


async def test_another_applications_database_is_not_migrated(tmp_path):
    path = tmp_path / "invoices.sqlite3"
    data = foreign_database(path)
    with pytest.raises(LedgerOpenError, match="is not a Kamiza ledger"):
        await open_ledger(f"sqlite:///{path}")
    assert path.read_bytes() == data
    tables = sqlite3.connect(path).execute("SELECT name FROM sqlite_master").fetchall()
    assert tables == [("invoices",)]


async def test_a_missing_directory_is_named_and_not_created(tmp_path):
    path = tmp_path / "nowhere" / "ledger.sqlite3"
    before = set(threading.enumerate())
    with pytest.raises(LedgerOpenError) as caught:
        await open_ledger(f"sqlite:///{path}")
    assert str(caught.value) == (
        f"cannot create the ledger {path}: the directory {path.parent} does not exist"
    )
    assert new_threads(before) == []
    assert not path.parent.exists()


async def test_a_directory_is_not_a_ledger_file(tmp_path):
    with pytest.raises(LedgerOpenError, match="is a directory"):
        await open_ledger(f"sqlite:///{tmp_path}")


async def test_a_new_ledger_and_its_wal_files_are_private(tmp_path):
    path = tmp_path / "ledger.sqlite3"
    old = os.umask(0)  # the most permissive umask: the mode must not depend on it
    try:
        ledger = await open_ledger(f"sqlite:///{path}")
    finally:
        os.umask(old)
    try:
        await play(ledger, actions=3)  # writes go through the -wal file, -shm indexes it
        assert companions(path) == ["ledger.sqlite3-shm", "ledger.sqlite3-wal"]
        modes = {
            name: stat.S_IMODE((tmp_path / name).stat().st_mode)
            for name in ["ledger.sqlite3", *companions(path)]
        }
        assert modes == dict.fromkeys(modes, 0o600)
    finally:
        await ledger.close()


async def test_an_existing_ledgers_mode_is_left_alone(tmp_path):
    path = tmp_path / "ledger.sqlite3"
    await real_ledger(path, games=0)
    path.chmod(0o640)  # the owner's choice, e.g. for a backup group
    await (await open_ledger(f"sqlite:///{path}")).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


# -- `python -m data check|export` ---------------------------------------------------------------


def run_data(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "data", *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,  # a hang fails the test
    )


async def broken(kind: str, path: Path) -> bytes:
    if kind == "garbage":
        return garbage(path)
    if kind == "truncated":
        return await truncated(path)
    return await newer_schema(path)


@pytest.mark.parametrize(
    ("kind", "says"),
    [
        ("garbage", "is not a Kamiza ledger (file is not a database)"),
        ("truncated", "is damaged (database disk image is malformed)"),
        ("newer", "the ledger's schema is newer than this version of Kamiza"),
    ],
)
@pytest.mark.parametrize("command", ["check", "export"])
async def test_data_cli_refuses_a_broken_ledger_in_one_line(tmp_path, kind, says, command):
    path = tmp_path / "ledger.sqlite3"
    data = await broken(kind, path)
    done = run_data(command, "--db", f"sqlite:///{path}")
    assert done.returncode == 2
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith(f"{command}: ") and str(path) in line and says in line
    assert path.read_bytes() == data and companions(path) == []


def test_data_cli_names_a_missing_directory(tmp_path):
    path = tmp_path / "nowhere" / "ledger.sqlite3"
    done = run_data("check", "--db", f"sqlite:///{path}")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [f"check: no ledger at {path}"]
    assert not path.parent.exists()


@pytest.mark.parametrize("command", ["check", "export", "bench"])
def test_data_cli_never_shows_a_url_password(command):
    # No server listens on port 1: refused at once.
    done = run_data(command, "--db", "postgresql://kamiza:hunter2@127.0.0.1:1/kamiza")
    assert (done.returncode, done.stdout) == (2, "")
    [line] = done.stderr.splitlines()
    assert "hunter2" not in line
    assert line.startswith(
        f"{command}: cannot reach the PostgreSQL server at "
        "postgresql://kamiza:***@127.0.0.1:1/kamiza ("
    )
    done = run_data(command, "--db", "mysql://kamiza:hunter2@db.example/kamiza")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"{command}: --db='mysql://kamiza:***@db.example/kamiza' is invalid: not a SQLite ledger "
        "URL (sqlite:///path/to/ledger.sqlite3)"
    ]
