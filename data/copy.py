"""`python -m data copy --from sqlite:///… --to postgresql://…`: move a community's ledger.

The source is opened read-only (SQLite's `mode=ro`): it is never migrated nor written. The target
is created and migrated like any PostgreSQL ledger, then filled in ONE transaction, so a copy
that fails half-way leaves it as it was. A target that already holds games is refused unless
`force` (its tables are then emptied first, in the same transaction); a target that already
holds this very copy (the same number of rows in every table and the same latest changes) is left
as it is, so running the command twice is harmless.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from typing import Any

import aiosqlite

from data.db import migrations as sqlite_migrations
from data.errors import LedgerError, LedgerOpenError
from data.pgdb import Connection, PgDatabase
from data.urls import is_postgres, parse_url, redact_url

# Parents before children, as the foreign keys want them.
TABLES = (
    "seasons",
    "season_champions",
    "guild_settings",
    "guild_editions",
    "games",
    "seats",
    "actions",
    "results",
    "ratings",
    "game_notes",
    "member_prefs",
)
IDENTITIES = ("seasons", "games")  # their `id` continues after the copied ones
BATCH = 5000
# What tells two ledgers' contents apart without reading every row: every table's size and the
# latest change to a game (every append touches it) and to a rating.
LATEST = (
    ("games", "SELECT max(updated_at) FROM games"),
    ("ratings", "SELECT max(updated_at) FROM ratings"),
)


class CopyRefused(LedgerError):
    """The target holds another ledger and `force` was not given."""


def _converter(pg_type: str) -> Callable[[Any], Any]:
    """SQLite's value as the PostgreSQL column's type wants it (REAL may read back as an int)."""
    if pg_type == "double precision":
        return lambda v: None if v is None else float(v)
    if pg_type in ("bigint", "integer"):
        return lambda v: None if v is None else int(v)
    return lambda v: v


async def _fingerprint_sqlite(src: aiosqlite.Connection) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for table in TABLES:
        async with src.execute(f"SELECT count(*) FROM {table}") as cur:
            row = await cur.fetchone()
        found[table] = row[0] if row else 0
    for name, sql in LATEST:
        async with src.execute(sql) as cur:
            row = await cur.fetchone()
        found[f"latest {name}"] = row[0] if row else None
    return found


async def _fingerprint_pg(conn: Connection) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for table in TABLES:
        found[table] = await conn.fetchval(f"SELECT count(*) FROM {table}")
    for name, sql in LATEST:
        found[f"latest {name}"] = await conn.fetchval(sql)
    return found


async def open_source(url: str) -> aiosqlite.Connection:
    """The SQLite ledger, read-only, at the schema version this code writes to PostgreSQL."""
    path = parse_url(url).path
    if not os.path.isfile(path):
        raise LedgerOpenError(f"no ledger at {path}")
    try:
        src = await aiosqlite.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise LedgerOpenError(f"cannot open the ledger {path} ({exc})") from None
    try:
        async with src.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        version, known = (row[0] if row else 0), len(sqlite_migrations())
    except sqlite3.Error as exc:
        await src.close()
        raise LedgerOpenError(f"{path} is not a Kamiza ledger ({exc})") from None
    if version != known:
        await src.close()
        raise LedgerOpenError(
            f"{path} has schema version {version}, this Kamiza copies version {known}: "
            "open it once with this version (python -m data check --db URL) first"
        )
    return src


async def copy_ledger(source: str, target: str, *, force: bool = False) -> str:
    """Copy the SQLite ledger `source` into the PostgreSQL ledger `target`; one line saying
    what was done. Raises LedgerError (CopyRefused for a target holding another ledger)."""
    if not is_postgres(target):
        raise LedgerError(f"--to must be a postgresql:// URL, not {redact_url(target)}")
    if is_postgres(source):
        raise LedgerError("--from must be a sqlite:/// URL (the ledger to move to PostgreSQL)")
    src = await open_source(source)
    try:
        db = await PgDatabase.open(target)
        try:
            async with db.connection() as conn:
                return await _copy(src, conn, redact_url(target), force)
        finally:
            await db.close()
    finally:
        await src.close()


async def _copy(src: aiosqlite.Connection, conn: Connection, shown: str, force: bool) -> str:
    wanted = await _fingerprint_sqlite(src)
    present = await _fingerprint_pg(conn)
    if present == wanted:
        return f"{shown} already holds this ledger ({wanted['games']} games): nothing copied"
    if any(present[table] for table in TABLES) and not force:
        raise CopyRefused(
            f"{shown} already holds a ledger ({present['games']} games): "
            "--force replaces it with the copy"
        )
    async with conn.transaction():
        # The actions trigger checks appends as the bot makes them; copied actions are history.
        await conn.execute("SET LOCAL ledger.copying = 'on'")
        await conn.execute(f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY")
        for table in TABLES:
            await _copy_table(src, conn, table)
        for table in IDENTITIES:
            await conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                f" coalesce(max(id), 0) + 1, false) FROM {table}"
            )
        copied = await _fingerprint_pg(conn)
        if copied != wanted:
            raise LedgerError(f"the copy differs from the source: {copied} != {wanted}")
        # Statistics now, not when autovacuum gets to it: until then the planner knows nothing
        # of the copied rows, and a member's stats took a plan 50 times too slow.
        await conn.execute(f"ANALYZE {', '.join(TABLES)}")
    return f"copied {wanted['games']} games, {wanted['actions']} actions to {shown}"


async def _copy_table(src: aiosqlite.Connection, conn: Connection, table: str) -> None:
    rows = await conn.fetch(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = $1",
        table,
    )
    types: dict[str, str] = {row["column_name"]: row["data_type"] for row in rows}
    async with src.execute(f"SELECT * FROM {table}") as cur:
        columns = [d[0] for d in cur.description]
        convert = [_converter(types[c]) for c in columns]
        while batch := await cur.fetchmany(BATCH):
            records = [tuple(f(v) for f, v in zip(convert, row, strict=True)) for row in batch]
            await conn.copy_records_to_table(table, records=records, columns=columns)
