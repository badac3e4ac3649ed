"""LISTEN/NOTIFY between processes (`data.notify`), on a real PostgreSQL server: a notice
reaches its listener, one too large is refused before it is sent, concurrent sends share the
connection, and a listener whose connection is cut listens again."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import pytest

from data.errors import LedgerOpenError
from data.notify import NoticeNotSent, Notices, NoticeTooLarge


class Inbox:
    def __init__(self) -> None:
        self.notices: list[dict[str, Any]] = []
        self.changed = asyncio.Event()

    def __call__(self, notice: dict[str, Any]) -> None:
        self.notices.append(notice)
        self.changed.set()

    async def until(self, count: int, timeout: float = 10) -> list[dict[str, Any]]:
        async def wait() -> None:
            while len(self.notices) < count:
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(wait(), timeout)
        return self.notices


async def test_a_notice_reaches_the_listener_of_its_channel_only(pg_url) -> None:
    inbox, other = Inbox(), Inbox()
    listener = await Notices.open(pg_url, {"table_shard_1": inbox, "table_shard_2": other})
    sender = await Notices.open(pg_url, {})
    try:
        await asyncio.gather(*(sender.send("table_shard_1", {"n": n}) for n in range(20)))
        assert sorted(n["n"] for n in await inbox.until(20)) == list(range(20))
        assert other.notices == []
        with pytest.raises(NoticeTooLarge):
            await sender.send("table_shard_1", {"bulk": "x" * 8000})
    finally:
        await sender.close()
        await listener.close()


async def test_a_listener_whose_connection_is_cut_listens_again(pg_url) -> None:
    inbox = Inbox()
    listener = await Notices.open(pg_url, {"table_shard_0": inbox})
    sender = await Notices.open(pg_url, {})
    try:
        admin = await asyncpg.connect(pg_url)
        try:
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )  # both the listener's connection and the sender's
        finally:
            await admin.close()
        for attempt in range(50):  # until both are back: a notice sent before is lost
            try:
                await sender.send("table_shard_0", {"n": attempt})
                await inbox.until(1, timeout=0.2)
                break
            except (TimeoutError, NoticeNotSent):
                continue
        assert inbox.notices, "the listener never listened again"
    finally:
        await sender.close()
        await listener.close()


async def test_an_unreachable_server_is_one_clear_error() -> None:
    url = "postgresql://kamiza:hunter2@127.0.0.1:1/kamiza"
    with pytest.raises(LedgerOpenError) as caught:
        await Notices.open(url, {})
    assert "hunter2" not in str(caught.value) and "cannot reach" in str(caught.value)
