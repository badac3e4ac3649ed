"""The connection the shared ledger SQL (`records`, `standings`, `seasons`, `members`) runs on.

aiosqlite's connection for SQLite, `data.pgdb.PgConn` for PostgreSQL: `?` placeholders, rows
read by column name or position, `execute` awaited or used as `async with ... as cursor`.
"""

from __future__ import annotations

from typing import Any, Protocol

Row = Any  # sqlite3.Row or asyncpg.Record: both read by name (row["id"]) and position (row[0])


class Conn(Protocol):
    def execute(self, sql: str, parameters: Any = ..., /) -> Any: ...
    async def executemany(self, sql: str, parameters: Any, /) -> Any: ...
