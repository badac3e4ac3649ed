"""SQLite plumbing: URLs, connections, migrations, and the one-writer unit of work.

Durability: WAL with `synchronous=FULL` by default, so every commit is fsynced before
`append_action` returns: an acknowledged action survives a kill -9 of the process *and* a power
cut. `?synchronous=normal` in the URL keeps process-crash safety (WAL frames are written before
COMMIT returns) but may lose the last commits on a power cut or OS crash.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib import resources
from typing import TypeVar

import aiosqlite

from data import one_process
from data.errors import LedgerError, LedgerFull, LedgerOpenError, LedgerUnavailable
from data.sqlite_writer import BUSY_TIMEOUT_MS, PlainWriter
from data.urls import SqliteUrl, parse_url

T = TypeVar("T")
PRIVATE_FILE_MODE = 0o600
LEDGER_TABLE = "games"  # created by the first migration: a database without it is not ours


def migrations(package: str = "data.migrations") -> list[tuple[int, str, str]]:
    """(version, name, sql) of every `NNNN_name.sql` in data/migrations (or the backend's
    `package` of them), in order."""
    found = []
    for entry in resources.files(package).iterdir():
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


async def _connect(
    url: SqliteUrl, readonly: bool, *, current_only: bool = False
) -> aiosqlite.Connection:
    """A configured connection to the file; on any error it is closed again, because its worker
    thread (not a daemon) would otherwise keep the process alive after the error."""
    try:
        conn = await aiosqlite.connect(url.path, isolation_level=None)
    except sqlite3.Error as exc:
        raise _open_error(url.path, exc) from None
    try:
        conn.row_factory = sqlite3.Row
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if not readonly:
            # Before WAL mode, which rewrites the header of a file that is not in WAL mode yet.
            await _check_is_ledger(conn, url.path, current_only=current_only)
            await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute(f"PRAGMA synchronous = {url.synchronous.upper()}")
        await conn.execute("PRAGMA foreign_keys = ON")
        if readonly:
            await conn.execute("PRAGMA query_only = ON")
    except BaseException as exc:
        await _close_quietly(conn)
        if isinstance(exc, sqlite3.Error):
            raise _open_error(url.path, exc) from None
        raise
    return conn


async def _close_quietly(conn: aiosqlite.Connection) -> None:
    """Close after a failure; the failure, not a second error from closing, is what to report."""
    with contextlib.suppress(sqlite3.Error):
        await conn.close()


def _prepare_file(path: str) -> None:
    """Refuse a path that cannot hold a ledger; create a missing file readable by its owner only.

    SQLite gives the -wal and -shm files it creates later the mode of the database file, so the
    whole ledger stays private (games, member ids) whatever the umask.
    """
    if os.path.isdir(path):
        raise LedgerOpenError(f"{path} is a directory, not a ledger file")
    if os.path.lexists(path):
        return
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise LedgerOpenError(
            f"cannot create the ledger {path}: the directory {folder} does not exist"
        )
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE_MODE)
    except FileExistsError:
        return  # another process created it in the meantime
    except OSError as exc:
        raise LedgerOpenError(f"cannot create the ledger {path}: {exc.strerror}") from None
    os.close(fd)
    os.chmod(path, PRIVATE_FILE_MODE)  # exactly 0600: os.open's mode is narrowed by the umask


async def _check_is_ledger(
    conn: aiosqlite.Connection, path: str, *, current_only: bool = False
) -> None:
    """Refuse, before anything is written, a file that is not an empty or Kamiza SQLite database
    at a schema version this code knows. Reading the schema is what finds garbage and truncation.
    `current_only` (a reader that must not migrate): refuse an older schema too.
    """
    version = await user_version(conn)
    async with conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'") as cur:
        tables = {row[0] async for row in cur}
    if version == 0 and tables:
        raise LedgerOpenError(f"{path} is not a Kamiza ledger (a database with other tables)")
    if version > 0 and LEDGER_TABLE not in tables:
        raise LedgerOpenError(
            f"{path} is not a Kamiza ledger (a database of schema version {version} without a "
            f"{LEDGER_TABLE} table)"
        )
    known = len(migrations())
    if version > known:
        raise LedgerOpenError(f"{path}: {_newer_schema(version, known)}")
    if current_only and version < known:
        raise LedgerOpenError(f"{path}: {older_schema(version, known)}")


def older_schema(version: int, known: int) -> str:
    """Why a process that does not migrate (the web companion) refuses a ledger."""
    return (
        f"the ledger's schema is older than this version of Kamiza (schema version {version}, "
        f"this version knows {known}): start the bot of this version once to upgrade it"
    )


def _newer_schema(version: int, known: int) -> str:
    return (
        f"the ledger's schema is newer than this version of Kamiza (schema version {version}, "
        f"this version knows {known}): run a newer Kamiza"
    )


def _open_error(path: str, exc: sqlite3.Error) -> LedgerOpenError:
    """One line naming the file and what SQLite found wrong with it."""
    kind = getattr(exc, "sqlite_errorname", "")
    if kind == "SQLITE_NOTADB":
        return LedgerOpenError(f"{path} is not a Kamiza ledger ({exc})")
    if kind.startswith("SQLITE_CORRUPT"):
        return LedgerOpenError(f"the ledger {path} is damaged ({exc}): restore it from a backup")
    if kind.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return LedgerOpenError(f"the ledger {path} is locked by another process ({exc})")
    return LedgerOpenError(f"cannot open the ledger {path} ({exc})")


def storage_failure(exc: BaseException) -> LedgerUnavailable | None:
    """The domain error for SQLite's storage failing a unit of work (the disk full, an I/O
    error), or None for any other error. SQLite rolls such a unit back whole: nothing is kept."""
    if not isinstance(exc, sqlite3.Error):
        return None
    kind = getattr(exc, "sqlite_errorname", "")
    if kind == "SQLITE_FULL":
        return LedgerFull(f"the ledger's disk is full ({exc})")
    if kind.startswith("SQLITE_IOERR"):
        return LedgerUnavailable(f"the ledger's storage failed ({kind}: {exc})")
    return None


async def migrate(conn: aiosqlite.Connection) -> int:
    """Apply every pending migration in one transaction; a no-op when up to date."""
    known = migrations()
    try:
        await conn.execute("BEGIN IMMEDIATE")
        version = await user_version(conn)
        if version > len(known):
            raise LedgerError(_newer_schema(version, len(known)))
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
    assert row is not None  # a PRAGMA that reads a value always returns one row
    return int(row[0])


async def _rollback(conn: aiosqlite.Connection) -> None:
    with contextlib.suppress(sqlite3.OperationalError):  # no transaction (BEGIN failed)
        await conn.execute("ROLLBACK")


class Database:
    """One writer behind an asyncio lock, one reader connection (WAL: never blocked).

    `write()` is a unit of work: BEGIN IMMEDIATE, the caller's statements, COMMIT (ROLLBACK on
    any error). `read()` runs the caller's statements in one read transaction (a snapshot).
    aiosqlite runs each connection's calls in order on its own thread, so a cancelled caller
    cannot reorder COMMIT/ROLLBACK with the next unit of work.

    The writer is two connections: aiosqlite's for `write()` and a plain one for `write_fn()`
    (see `PlainWriter`). The write lock runs one unit at a time on either; should a caller
    cancelled twice release it early, SQLite's own write lock (BEGIN IMMEDIATE waits out the
    busy timeout) still keeps the units whole and in order.
    """

    def __init__(
        self,
        writer: aiosqlite.Connection,
        plain_writer: PlainWriter,
        reader: aiosqlite.Connection,
        held: str,
    ) -> None:
        self._held = held  # `one_process`: this process's hold on the file ("" for none)
        self._writer = writer
        self._plain_writer = plain_writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()

    @classmethod
    async def open(cls, url: str, *, exclusive: bool = False, migrating: bool = True) -> Database:
        """Open the ledger file, creating and migrating it as needed.

        Raises ValueError for a bad URL and LedgerOpenError for a file that cannot be a ledger;
        no connection is left open then. `migrating=False` (the web companion, which must not
        upgrade the bot's ledger): a missing file or a schema other than this code's is refused
        instead, before anything is written.
        """
        parsed = parse_url(url)
        if migrating:
            _prepare_file(parsed.path)
        elif not os.path.isfile(parsed.path):
            raise LedgerOpenError(f"no ledger at {parsed.path}: start the bot once to create it")
        # `exclusive`: the process's hold, taken before anything reads or writes the file.
        held = one_process.acquire(parsed.path) if exclusive else ""
        try:
            writer = await _connect(parsed, readonly=False, current_only=not migrating)
        except BaseException:
            one_process.release(held)
            raise
        try:
            if migrating:
                await migrate(writer)
            plain_writer = await PlainWriter.open(parsed)
            try:
                reader = await _connect(parsed, readonly=True)
            except BaseException:
                await plain_writer.close()
                raise
        except BaseException as exc:
            await _close_quietly(writer)
            one_process.release(held)
            if isinstance(exc, sqlite3.Error):
                raise _open_error(parsed.path, exc) from None
            raise
        return cls(writer, plain_writer, reader, held)

    async def close(self) -> None:
        async with self._write_lock, self._read_lock:
            try:
                await self._reader.close()
            finally:  # a thread left running would keep the process alive
                try:
                    await self._plain_writer.close()
                finally:
                    try:
                        await self._writer.close()
                    finally:
                        held, self._held = self._held, ""  # released once, closed twice or not
                        if held:
                            one_process.release(held)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._write_lock:
            try:
                await self._writer.execute("BEGIN IMMEDIATE")
                yield self._writer
                await self._writer.execute("COMMIT")
            except BaseException as exc:
                await _rollback(self._writer)
                if (failure := storage_failure(exc)) is not None:
                    raise failure from exc
                raise

    async def write_fn(
        self, fn: Callable[[sqlite3.Connection], T], then: Callable[[T], None] | None = None
    ) -> T:
        """A unit of work as a plain function on the plain writer's thread: one thread hop in all.

        For the hot path (appends): BEGIN IMMEDIATE, `fn`, COMMIT cost one round trip to that
        thread instead of three to aiosqlite's. `then(result)`: see `PlainWriter.call`.
        """
        plain_writer = self._plain_writer

        def unit() -> T:
            conn = plain_writer.connection()
            try:
                conn.execute("BEGIN IMMEDIATE")
                result = fn(conn)
                conn.execute("COMMIT")
            except BaseException as exc:
                if conn.in_transaction:
                    with contextlib.suppress(sqlite3.Error):  # the failure is what to report
                        conn.execute("ROLLBACK")
                if (failure := storage_failure(exc)) is not None:
                    raise failure from exc
                raise
            return result

        async with self._write_lock:
            return await plain_writer.call(unit, then)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._read_lock:
            try:
                await self._reader.execute("BEGIN")
                yield self._reader
            finally:
                await _rollback(self._reader)
