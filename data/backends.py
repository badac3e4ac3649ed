"""Opening a ledger: the backend a URL names (SQLite, `data/sqlite.py`; PostgreSQL,
`data/postgres.py`), behind the `data.store.Ledger` interface.

Kept apart from `data.store`, which the backends import for the records and the interface: the
interface does not know its implementations, so the two never import each other.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from data.sqlite import SqliteLedger
from data.store import DEFAULT_URL, Ledger
from data.urls import check_url, is_postgres


async def open_ledger(
    url: str = DEFAULT_URL,
    *,
    clock: Callable[[], datetime] | None = None,
    exclusive: bool = False,
    migrating: bool = True,
) -> Ledger:
    """Open (creating and migrating as needed) the ledger at `url`.

    `sqlite:///relative/path`, `sqlite:////absolute/path`; `?synchronous=normal` trades
    power-loss durability for speed (the default, FULL, fsyncs every commit).
    `postgresql://user:password@host:port/database`: a database that several processes may
    share (`data/postgres.py`); unreachable, refused credentials, a newer schema raise
    `LedgerOpenError` too. A bad URL raises
    ValueError; a file that cannot be a ledger (not one, damaged, a newer schema, no such
    directory) raises `LedgerOpenError`, with nothing written to it and no connection left open.

    `exclusive` (the bot): this process alone may hold a SQLite ledger so (`data.one_process`);
    another process opening it so is refused with `LedgerOpenError`. Tools and tests that look
    at the file meanwhile (`python -m data check`) open it without. PostgreSQL ignores it: its
    ledger is made to be shared.

    `migrating=False` (the web companion, read-only: it must not upgrade the bot's ledger): a
    missing SQLite file, or a schema older or newer than this code's, raises `LedgerOpenError`
    with nothing written.
    """
    check_url(url)
    if is_postgres(url):
        # Loaded here, not with this module: asyncpg takes about half a second to import, paid
        # only by a process that opens a PostgreSQL ledger.
        from data.postgres import PostgresLedger

        return await PostgresLedger.open(url, clock=clock, migrating=migrating)
    return await SqliteLedger.open(url, clock=clock, exclusive=exclusive, migrating=migrating)
