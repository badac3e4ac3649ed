"""PostgreSQL LISTEN/NOTIFY between the bot's processes: no other service to run.

A `Notices` holds one connection of its own (LISTEN needs a session that stays open; the
ledger's pool hands its connections around) and keeps listening through a lost connection: it
connects again and LISTENs again. A notice is a small JSON document (PostgreSQL caps a payload
at 8000 bytes: `send` refuses a bigger one). NOTIFY is not durable: a notice sent while nobody
listens is lost, so a sender that needs an answer waits for one (`bot.forwarding`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Mapping
from typing import Any

import asyncpg

from data.pgdb import CONNECT_TIMEOUT, connect_error
from data.urls import redact_url

log = logging.getLogger(__name__)

MAX_PAYLOAD = 7900  # bytes: PostgreSQL refuses a NOTIFY payload of 8000 or more
RECONNECT_SECONDS = 1.0
Handler = Callable[[dict[str, Any]], None]
# What a cut or refused connection raises (InternalClientError: a statement on a connection the
# server has just terminated, before asyncpg has noticed).
_CONNECTION_TROUBLE = (
    OSError,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
)


class NoticeNotSent(Exception):
    """A notice that could not be sent: no connection, or refused."""


class NoticeTooLarge(NoticeNotSent):
    pass


class Notices:
    """LISTEN on some channels, NOTIFY any channel, over one connection that comes back."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._handlers: dict[str, Handler] = {}
        self._conn: asyncpg.Connection | None = None
        self._connected = asyncio.Event()
        self._sending = asyncio.Lock()  # one statement at a time on a connection
        self._keeper: asyncio.Task[None] | None = None
        self._closed = False

    @classmethod
    async def open(cls, url: str, handlers: Mapping[str, Handler]) -> Notices:
        """Connected and listening on `handlers`' channels; LedgerOpenError if it cannot."""
        notices = cls(url)
        notices._handlers = dict(handlers)
        try:
            await notices._connect()
        except Exception as exc:
            raise connect_error(redact_url(url), exc) from None
        notices._keeper = asyncio.create_task(notices._keep(), name="LISTEN connection")
        return notices

    async def _connect(self) -> None:
        conn = await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT)
        for channel in self._handlers:
            await conn.add_listener(channel, self._received)
        conn.add_termination_listener(lambda _conn: self._connected.clear())
        self._conn = conn
        self._connected.set()

    def _received(self, _conn: object, _pid: int, channel: str, payload: object) -> None:
        handler = self._handlers.get(channel)
        if handler is None:
            return
        try:
            notice = json.loads(str(payload))
        except ValueError:
            log.warning("a notice on %s that is no JSON: ignored", channel)
            return
        try:
            handler(notice)
        except Exception:
            log.exception("a notice on %s could not be handled", channel)

    async def _keep(self) -> None:
        """Connect again, and LISTEN again, whenever the connection is lost."""
        while not self._closed:
            conn = self._conn
            if conn is not None and not conn.is_closed():
                await asyncio.sleep(RECONNECT_SECONDS)
                continue
            self._connected.clear()
            try:
                await self._connect()
                log.info("listening again for the other processes' notices")
            except Exception as exc:
                log.warning("cannot listen for notices yet (%s); trying again", exc)
                await asyncio.sleep(RECONNECT_SECONDS)

    async def send(self, channel: str, notice: dict[str, Any]) -> None:
        """NOTIFY `channel` with `notice` (committed at once: it is its own statement);
        NoticeNotSent if it cannot be."""
        payload = json.dumps(notice, separators=(",", ":"))
        if len(payload.encode()) > MAX_PAYLOAD:
            raise NoticeTooLarge(f"a notice of {len(payload.encode())} bytes is too large")
        try:
            await asyncio.wait_for(self._connected.wait(), CONNECT_TIMEOUT)
            async with self._sending:
                conn = self._conn
                assert conn is not None
                try:
                    await conn.execute("SELECT pg_notify($1, $2)", channel, payload)
                except _CONNECTION_TROUBLE:
                    # A connection cut mid-statement may not look closed yet: drop it, so that
                    # `_keep` connects (and LISTENs) again instead of waiting on a dead one.
                    self._connected.clear()
                    conn.terminate()
                    raise
        except (TimeoutError, *_CONNECTION_TROUBLE) as exc:
            raise NoticeNotSent(f"{exc.__class__.__name__}: {exc}") from None

    async def close(self) -> None:
        self._closed = True
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
        if self._conn is not None and not self._conn.is_closed():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._conn.close(), 5)
