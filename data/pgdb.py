"""PostgreSQL plumbing: the pool, opening errors, migrations, and a connection the shared SQL uses.

The ledger's SQL (`records`, `standings`, `seasons`) is written once, with `?` placeholders, for
aiosqlite's connection. `PgConn` gives an asyncpg connection that connection's small surface
(`execute` awaited or used as a cursor, `executemany`), numbering the placeholders `$1, $2, ...`,
so both backends run the same queries and cannot drift apart.
"""

from __future__ import annotations

import asyncio
import re
import socket
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import asyncpg

from data.errors import LedgerError, LedgerFull, LedgerOpenError, LedgerUnavailable
from data.urls import redact_url

CONNECT_TIMEOUT = 10.0  # seconds: an unreachable server is an error, not a hang
POOL_SIZE = 10
# The key of the advisory lock that lets one process at a time migrate a shared database.
MIGRATION_LOCK = -7_123_456_789
GUILD_LOCK_SPACE = 1263  # pg_advisory_xact_lock(space, hash): a guild's seasons and ratings

REFUSED_CREDENTIALS = (
    asyncpg.InvalidPasswordError,
    asyncpg.InvalidAuthorizationSpecificationError,
)
# A connection of the pool, or one of its own.
Connection = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy

_PLACEHOLDER = re.compile(r"\?")


def migrations() -> list[tuple[int, str, str]]:
    """(version, name, sql) of PostgreSQL's `NNNN_name.sql`: the same numbers as SQLite's."""
    from data.db import migrations as of_package

    found = of_package("data.migrations.postgres")
    if [v for v, _, _ in found] != [v for v, _, _ in of_package()]:
        raise LedgerError("PostgreSQL's migrations must be the same numbered steps as SQLite's")
    return found


def numbered(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1, $2, ...` (the ledger's SQL has no `?` in literals)."""
    count = 0

    def number(_match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


def _args(params: Iterable[Any]) -> list[Any]:
    # Flags are 0/1 integers in both schemas; asyncpg wants an int, not a bool, for them.
    return [int(p) if isinstance(p, bool) else p for p in params]


class _Result:
    """What `PgConn.execute` returns: awaited, the statement ran; `async with`, a cursor."""

    def __init__(self, conn: Connection, sql: str, params: Sequence[Any]) -> None:
        self._conn, self._sql, self._params = conn, numbered(sql), _args(params)
        self._rows: list[asyncpg.Record] | None = None

    def __await__(self) -> Any:
        return self._run().__await__()

    async def _run(self) -> _Result:
        self._rows = list(await self._conn.fetch(self._sql, *self._params))
        return self

    async def __aenter__(self) -> _Result:
        return await self._run()

    async def __aexit__(self, *exc: object) -> None:
        return None

    async def fetchone(self) -> asyncpg.Record | None:
        assert self._rows is not None
        return self._rows[0] if self._rows else None

    async def fetchall(self) -> list[asyncpg.Record]:
        assert self._rows is not None
        return self._rows

    def __aiter__(self) -> AsyncIterator[asyncpg.Record]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[asyncpg.Record]:
        for row in await self.fetchall():
            yield row


class PgConn:
    """An asyncpg connection with the part of aiosqlite's API the shared ledger SQL uses."""

    def __init__(self, conn: Connection) -> None:
        self.raw = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Result:
        return _Result(self.raw, sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = [_args(row) for row in rows]
        if rows:
            await self.raw.executemany(numbered(sql), rows)

    async def lock_guild(self, guild_id: int) -> None:
        """Until the transaction ends, be the only one changing this guild's seasons and ratings:
        a finish reads its players' ratings and writes them back, and two processes finishing
        games with the same member at once must not both read the old value."""
        await self.raw.execute(
            "SELECT pg_advisory_xact_lock($1, hashtext($2))", GUILD_LOCK_SPACE, str(guild_id)
        )


class PgDatabase:
    """A pool of connections; `write()` is one transaction, `read()` one read-only snapshot."""

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = url

    @classmethod
    async def open(cls, url: str, *, migrating: bool = True) -> PgDatabase:
        """Connect, refuse what cannot be a ledger before writing, migrate; LedgerOpenError
        (one line, the URL without its password) for anything that stops it. `migrating=False`
        (the web companion): a schema other than this code's is refused, nothing written."""
        shown = redact_url(url)
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=POOL_SIZE,
                timeout=CONNECT_TIMEOUT,
                reset=_session_kept,
            )
        except Exception as exc:
            raise connect_error(shown, exc) from None
        try:
            async with pool.acquire() as conn:
                if migrating:
                    await migrate(conn, shown)
                else:
                    await check_is_ledger(conn, shown, current_only=True)
        except BaseException as exc:
            await pool.close()
            if isinstance(exc, LedgerOpenError):
                raise
            if isinstance(exc, asyncpg.PostgresError | OSError):
                raise LedgerOpenError(f"cannot open the ledger {shown} ({exc})") from None
            raise
        return cls(pool, url)

    async def close(self) -> None:
        await self._pool.close()

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[Connection]:
        """A connection of the pool, outside any transaction (for `data.copy`)."""
        async with self._pool.acquire() as conn:
            yield conn

    @asynccontextmanager
    async def single(self) -> AsyncIterator[PgConn]:
        """For ONE statement, its own snapshot: no BEGIN/COMMIT round trips around it."""
        async with self._pool.acquire() as conn:
            with storage_failures():
                yield PgConn(conn)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[PgConn]:
        with storage_failures():
            async with self._pool.acquire() as conn, conn.transaction():
                yield PgConn(conn)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[PgConn]:
        async with (
            self._pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield PgConn(conn)


async def _session_kept(conn: asyncpg.Connection) -> None:
    """What a connection needs when it goes back to the pool: nothing more than asyncpg's own
    reset (an open transaction rolled back, listeners dropped). The ledger leaves no session
    state behind: its locks are transaction-scoped (`pg_advisory_xact_lock`) but the
    migration's, which `migrate` releases itself (and should that fail, `open` closes the pool);
    its settings are `SET LOCAL`, its LISTEN and IDENTIFY turns on connections of their own
    (`data.notify`, `data.identify_turns`). asyncpg's default reset query (unlock all, CLOSE ALL,
    UNLISTEN, RESET ALL) was one more round trip at the end of every unit of work, a group
    commit's included."""


@contextmanager
def storage_failures() -> Iterator[None]:
    """The server's storage failing a transaction (its disk full, an I/O error) as the ledger's
    `LedgerFull` / `LedgerUnavailable`; PostgreSQL has rolled the transaction back."""
    try:
        yield
    except asyncpg.DiskFullError as exc:
        raise LedgerFull(f"the PostgreSQL server's disk is full ({exc})") from exc
    except asyncpg.PostgresIOError as exc:
        raise LedgerUnavailable(f"the PostgreSQL server's storage failed ({exc})") from exc


def connect_error(shown: str, exc: BaseException) -> LedgerOpenError:
    """One line for a failed connection: no server, refused credentials, no such database."""
    if isinstance(
        exc, asyncpg.InvalidPasswordError | asyncpg.InvalidAuthorizationSpecificationError
    ):
        return LedgerOpenError(f"the PostgreSQL server at {shown} refused the credentials ({exc})")
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        return LedgerOpenError(f"no such PostgreSQL database: {shown} ({exc})")
    if isinstance(exc, TimeoutError | asyncio.TimeoutError):
        return LedgerOpenError(f"cannot reach the PostgreSQL server at {shown} (timed out)")
    if isinstance(exc, OSError | socket.gaierror):
        reason = exc.strerror or str(exc) or exc.__class__.__name__
        return LedgerOpenError(f"cannot reach the PostgreSQL server at {shown} ({reason})")
    if isinstance(exc, asyncpg.PostgresError):
        return LedgerOpenError(f"cannot open the ledger {shown} ({exc})")
    return LedgerOpenError(f"cannot open the ledger {shown} ({exc.__class__.__name__}: {exc})")


async def schema_version(conn: Connection) -> int | None:
    """The ledger's schema version; None in a database without the version table."""
    if await conn.fetchval("SELECT to_regclass('ledger_schema')") is None:
        return None
    version = await conn.fetchval("SELECT version FROM ledger_schema")
    return int(version or 0)


async def check_is_ledger(conn: Connection, shown: str, *, current_only: bool = False) -> None:
    """Refuse, before anything is written, a database with other tables or a newer schema;
    `current_only` (a reader that must not migrate), an older one too."""
    from data.db import _newer_schema, older_schema

    version = await schema_version(conn)
    known = len(migrations())
    if current_only and (version or 0) < known:
        raise LedgerOpenError(f"{shown}: {older_schema(version or 0, known)}")
    if version is None:
        tables = await conn.fetchval(
            "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()"
        )
        if tables:
            raise LedgerOpenError(f"{shown} is not a Kamiza ledger (a database with other tables)")
        return
    if version > known:
        raise LedgerOpenError(f"{shown}: {_newer_schema(version, known)}")


async def migrate(conn: Connection, shown: str) -> int:
    """Refuse what cannot be a ledger (`check_is_ledger`), then apply every pending migration in
    one transaction; processes starting together take turns, the check included (a check made
    while another process migrates would find its new tables and call the database foreign)."""
    from data.db import _newer_schema

    known = migrations()
    # The lock is taken before the transaction begins: a transaction that waited for it inside
    # would still see the catalogue as it was before the other process's migration committed
    # (`to_regclass` says no table, and CREATE TABLE then finds one).
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        await check_is_ledger(conn, shown)
        async with conn.transaction():
            version = await schema_version(conn)
            if version is None:
                await conn.execute("CREATE TABLE ledger_schema (version INTEGER NOT NULL)")
                await conn.execute("INSERT INTO ledger_schema VALUES (0)")
                version = 0
            if version > len(known):
                raise LedgerOpenError(_newer_schema(version, len(known)))
            for number, _name, sql in known[version:]:
                await conn.execute(sql)  # a whole script: asyncpg sends it as one simple query
                await conn.execute("UPDATE ledger_schema SET version = $1", number)
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
    return len(known)
