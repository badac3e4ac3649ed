"""The ledger's SQLite writer: a plain sqlite3 connection on a thread of its own
(`Database.write_fn`'s unit of work as one function, one thread hop)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import Callable
from functools import partial
from queue import SimpleQueue
from typing import Any, TypeVar

from data.urls import SqliteUrl

T = TypeVar("T")
BUSY_TIMEOUT_MS = 10_000


# A call for the writer's thread: its future, the function, and what its result is handed to
# on the loop before the future is settled (`PlainWriter.call`'s `then`).
_Call = tuple[asyncio.Future[Any], Callable[[], Any], Callable[[Any], None] | None]


def _settle(
    future: asyncio.Future[Any],
    settle: Callable[[Any], None],
    value: Any,
    then: Callable[[Any], None] | None = None,
) -> None:
    """From the writer's thread: settle `future` on its loop unless it is done (cancelled),
    then `then(value)` if given, in the same callback: what it wakes goes on in the same turn of
    the loop as the caller, just after it (a group commit's drain first sends its next batch to
    the thread, then the batch's callers go on while that one is written)."""

    def settle_if_pending() -> None:
        if not future.done():
            settle(value)
        if then is not None:
            then(value)

    # A closed loop has no one left waiting for the result.
    with contextlib.suppress(RuntimeError):
        future.get_loop().call_soon_threadsafe(settle_if_pending)


def _nothing() -> None:
    return None


class PlainWriter:
    """A plain sqlite3 connection to the ledger that lives on a thread of its own.

    It serves `Database.write_fn`: aiosqlite has no public way to run a function on its
    connection's thread, and a unit of work as one plain function (BEGIN IMMEDIATE, `fn`, COMMIT)
    costs one thread hop where aiosqlite's API costs three. The thread works like aiosqlite's:
    a queue of calls run in order, results handed back with `call_soon_threadsafe`.
    """

    def __init__(self) -> None:
        self._calls: SimpleQueue[_Call | None] = SimpleQueue()
        self._conn: sqlite3.Connection | None = None
        self._closed = False
        # Not a daemon, like aiosqlite's threads: `close` ends it, and exiting never cuts a unit.
        self._thread = threading.Thread(target=self._serve, name="kamiza-ledger-writer")
        self._thread.start()

    @classmethod
    async def open(cls, url: SqliteUrl) -> PlainWriter:
        writer = cls()
        try:
            await writer.call(partial(writer._connect, url))
        except BaseException:
            await writer.close()
            raise
        return writer

    def _connect(self, url: SqliteUrl) -> None:
        """On the thread: the writer's settings of `_connect` (the file is in WAL mode by now)."""
        conn = sqlite3.connect(url.path, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            conn.execute(f"PRAGMA synchronous = {url.synchronous.upper()}")
            conn.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            conn.close()
            raise
        self._conn = conn

    def connection(self) -> sqlite3.Connection:
        """The connection, for functions running on the thread."""
        if self._conn is None:
            raise ValueError("Connection closed")
        return self._conn

    def _serve(self) -> None:
        """The thread: run the queued calls in order until `None`, which `close` queues last."""
        while (call := self._calls.get()) is not None:
            future, fn, then = call
            try:
                result = fn()
            except BaseException as exc:
                _settle(future, future.set_exception, exc)
            else:
                _settle(future, future.set_result, result, then)

    async def call(self, fn: Callable[[], T], then: Callable[[T], None] | None = None) -> T:
        """`fn()` on the thread. Like a call queued on aiosqlite's thread it runs to its end even
        if the caller is cancelled: the caller then waits for that end (so a lock it holds
        orders the next unit of work after this one) before the cancellation goes on.

        `then(result)`, if given, runs on the loop as the result arrives, waking whom it tells
        in the turn the caller wakes in, not a turn later (`data.group_commit.Batch.written`);
        not after a failure."""
        if self._closed:
            raise ValueError("Connection closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._calls.put((future, fn, then))
        try:
            return await future
        except asyncio.CancelledError:
            # `fn` runs on regardless: wait for a no-op queued after it to know it has ended.
            # (Not `asyncio.shield` on every call: that costs about a fifth of the hop.)
            ended: asyncio.Future[None] = loop.create_future()
            self._calls.put((ended, _nothing, None))
            await ended
            raise

    async def close(self) -> None:
        if self._closed:
            return
        try:
            await self.call(self._close_connection)
        finally:
            self._closed = True
            self._calls.put(None)  # the thread ends once the calls before this one are done

    def _close_connection(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
