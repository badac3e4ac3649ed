"""SQLite plumbing: URLs, connections, migrations, and the one-writer unit of work.

Durability: WAL with `synchronous=FULL` by default, so every commit is fsynced before
`append_action` returns: an acknowledged action survives a kill -9 of the process *and* a power
cut. `?synchronous=normal` in the URL keeps process-crash safety (WAL frames are written before
COMMIT returns) but may lose the last commits on a power cut or OS crash.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from typing import TypeVar
from urllib.parse import parse_qs, urlsplit

import aiosqlite

from data.errors import LedgerError

T = TypeVar("T")
SYNCHRONOUS = ("full", "normal")
BUSY_TIMEOUT_MS = 10_000


@dataclass(frozen=True, slots=True)
class SqliteUrl:
    path: str
    synchronous: str = "full"


def parse_url(url: str) -> SqliteUrl:
    """`sqlite:///relative.db`, `sqlite:////abs/path.db`, optional `?synchronous=full|normal`."""
    if not url.startswith("sqlite:///"):
        raise ValueError(f"not a SQLite ledger URL (sqlite:///path): {url!r}")
    parts = urlsplit(url)
    path = url[len("sqlite:///") :].split("?", 1)[0]
    if not path or path == ":memory:":
        raise ValueError("the ledger needs a file: sqlite:///path/to/ledger.sqlite3")
    query = parse_qs(parts.query)
    unknown = sorted(set(query) - {"synchronous"})
    if unknown:
        raise ValueError(f"unknown ledger URL parameter {unknown[0]!r}")
    synchronous = query.get("synchronous", ["full"])[-1].lower()
    if synchronous not in SYNCHRONOUS:
        raise ValueError("synchronous must be full or normal")
    return SqliteUrl(path, synchronous)


def migrations() -> list[tuple[int, str, str]]:
    """(version, name, sql) of every `NNNN_name.sql` in data/migrations, in order."""
    found = []
    for entry in resources.files("data.migrations").iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit():
            found.append((int(name[:4]), name, entry.read_text(encoding="utf-8")))
    found.sort()
    versions = [v for v, _, _ in found]
    if versions != list(range(1, len(found) + 1)):
        raise LedgerError(f"migrations must be numbered 1, 2, 3 ... without gaps: {versions}")
    return found


def split_statements(script: str) -> list[str]:
    """The statements of a SQL script (triggers included), using SQLite's own tokenizer."""
    statements, current = [], ""
    for piece in script.split(";"):
        current += piece + ";"
        if sqlite3.complete_statement(current):
            statements.append(current.strip())
            current = ""
    if current.strip(" \n\t;"):
        raise LedgerError("incomplete statement at the end of a migration")
    return [s for s in statements if s.strip(" \n\t;") and not _only_comments(s)]


def _only_comments(statement: str) -> bool:
    lines = [line.strip() for line in statement.splitlines()]
    return all(not line or line.startswith("--") or line == ";" for line in lines)


async def _connect(path: str, synchronous: str, readonly: bool) -> aiosqlite.Connection:
    try:
        conn = await aiosqlite.connect(path, isolation_level=None)
    except sqlite3.Error as exc:
        raise LedgerError(f"cannot open the ledger at {path}: {exc}") from None
    conn.row_factory = sqlite3.Row
    await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    if not readonly:
        await conn.execute("PRAGMA journal_mode = WAL")
    await conn.execute(f"PRAGMA synchronous = {synchronous.upper()}")
    await conn.execute("PRAGMA foreign_keys = ON")
    if readonly:
        await conn.execute("PRAGMA query_only = ON")
    return conn


async def migrate(conn: aiosqlite.Connection) -> int:
    """Apply every pending migration in one transaction; a no-op when up to date."""
    known = migrations()
    try:
        await conn.execute("BEGIN IMMEDIATE")
        version = await user_version(conn)
        if version > len(known):
            raise LedgerError(
                f"the ledger is at schema version {version}, newer than this code ({len(known)})"
            )
        for number, _name, sql in known[version:]:
            for statement in split_statements(sql):
                await conn.execute(statement)
            await conn.execute(f"PRAGMA user_version = {number}")
        await conn.execute("COMMIT")
    except BaseException:
        await _rollback(conn)
        raise
    return len(known)


async def user_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    return int(row[0])


async def _rollback(conn: aiosqlite.Connection) -> None:
    with contextlib.suppress(sqlite3.OperationalError):  # no transaction (BEGIN failed)
        await conn.execute("ROLLBACK")


class Database:
    """One writer connection behind an asyncio lock, one reader connection (WAL: never blocked).

    `write()` is a unit of work: BEGIN IMMEDIATE, the caller's statements, COMMIT (ROLLBACK on
    any error). `read()` runs the caller's statements in one read transaction (a snapshot).
    aiosqlite runs each connection's calls in order on its own thread, so a cancelled caller
    cannot reorder COMMIT/ROLLBACK with the next unit of work.
    """

    def __init__(self, writer: aiosqlite.Connection, reader: aiosqlite.Connection) -> None:
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()

    @classmethod
    async def open(cls, url: str) -> Database:
        parsed = parse_url(url)
        writer = await _connect(parsed.path, parsed.synchronous, readonly=False)
        try:
            await migrate(writer)
            reader = await _connect(parsed.path, parsed.synchronous, readonly=True)
        except BaseException:
            await writer.close()
            raise
        return cls(writer, reader)

    async def close(self) -> None:
        async with self._write_lock, self._read_lock:
            await self._reader.close()
            await self._writer.close()

    @asynccontextmanager
    async def write(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._write_lock:
            try:
                await self._writer.execute("BEGIN IMMEDIATE")
                yield self._writer
                await self._writer.execute("COMMIT")
            except BaseException:
                await _rollback(self._writer)
                raise

    async def write_fn(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """A unit of work as a plain function on the writer's thread: one thread hop in all.

        For the hot path (appends): BEGIN IMMEDIATE, `fn`, COMMIT cost one round trip to
        aiosqlite's worker thread instead of three. `_execute` is the queue every aiosqlite
        method goes through, so this call is ordered with them like any other.
        """
        writer = self._writer

        def unit() -> T:
            conn = writer._conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = fn(conn)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            return result

        async with self._write_lock:
            return await writer._execute(unit)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._read_lock:
            try:
                await self._reader.execute("BEGIN")
                yield self._reader
            finally:
                await _rollback(self._reader)
