"""The web companion only reads: it never creates, migrates nor otherwise writes the bot's ledger.
A ledger whose schema is older or newer than the code is refused in one line, exit status 2."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from data.backends import open_ledger
from data.db import migrations, split_statements
from data.errors import LedgerOpenError

TIMEOUT = 60


def older_ledger(path: Path) -> bytes:
    """A ledger the bot of an older version left: only the first migration applied."""
    conn = sqlite3.connect(path, isolation_level=None)
    number, _name, sql = migrations()[0]
    for statement in split_statements(sql):
        conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {number}")
    conn.close()
    return path.read_bytes()


async def newer_ledger(path: Path) -> bytes:
    ledger = await open_ledger(f"sqlite:///{path}")
    await ledger.close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {len(migrations()) + 1}")
    conn.commit()
    conn.close()
    return path.read_bytes()


def run_web(path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{path}", "WEB_PORT": "1"}
    return subprocess.run(
        [sys.executable, "-m", "web"],
        cwd=path.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


def refused_in_one_line(done: subprocess.CompletedProcess[str], words: str) -> None:
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("web: ") and words in lines[0]


def test_the_site_refuses_an_older_ledger_and_leaves_it_as_it_was(tmp_path):
    path = tmp_path / "ledger.sqlite3"
    before = older_ledger(path)
    refused_in_one_line(run_web(path), "older than this version of Kamiza")
    assert path.read_bytes() == before
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1  # not migrated
    conn.close()


async def test_the_site_refuses_a_newer_ledger_and_leaves_it_as_it_was(tmp_path):
    path = tmp_path / "ledger.sqlite3"
    before = await newer_ledger(path)
    refused_in_one_line(run_web(path), "newer than this version of Kamiza")
    assert path.read_bytes() == before


def test_the_site_does_not_create_a_missing_ledger(tmp_path):
    path = tmp_path / "ledger.sqlite3"
    refused_in_one_line(run_web(path), "no ledger at")
    assert not path.exists()


async def test_a_current_ledger_opens_without_migrating(tmp_path):
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    await (await open_ledger(url)).close()  # the bot made it
    ledger = await open_ledger(url, migrating=False)
    try:
        assert await ledger.get_game(1) is None
    finally:
        await ledger.close()


async def test_postgresql_an_older_or_newer_ledger_is_refused_unchanged(pg_url):
    import asyncpg

    with pytest.raises(LedgerOpenError, match="older than this version of Kamiza"):
        await open_ledger(pg_url, migrating=False)  # an empty database: schema version 0
    conn = await asyncpg.connect(pg_url)
    try:
        assert await conn.fetchval("SELECT to_regclass('ledger_schema')") is None  # not created
        await (await open_ledger(pg_url)).close()  # the bot migrates it
        known = len(migrations())
        for version, words in ((known - 1, "older"), (known + 1, "newer")):
            await conn.execute("UPDATE ledger_schema SET version = $1", version)
            with pytest.raises(LedgerOpenError, match=f"{words} than this version of Kamiza"):
                await open_ledger(pg_url, migrating=False)
            assert await conn.fetchval("SELECT version FROM ledger_schema") == version
        await conn.execute("UPDATE ledger_schema SET version = $1", known)
        await (await open_ledger(pg_url, migrating=False)).close()
    finally:
        await conn.close()
