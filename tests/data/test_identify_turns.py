"""Turns to IDENTIFY over PostgreSQL: two processes (two IdentifyTurns, each its own
connections) asking together for one bucket start their sessions `spacing` apart; another
bucket does not wait; a process that stops frees its turn; no database: a warning and the
spacing waited, never an endless wait."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from data.identify_turns import IdentifyTurns

SPACING = 0.5


async def moment_of_turn(turns: IdentifyTurns, bucket: int, began: float) -> float:
    await turns.take(bucket)
    return time.monotonic() - began


async def test_two_processes_take_one_bucket_s_turn_spacing_apart(pg_url):
    one, other = IdentifyTurns(pg_url, SPACING), IdentifyTurns(pg_url, SPACING)
    try:
        began = time.monotonic()
        first, second = sorted(
            await asyncio.gather(moment_of_turn(one, 0, began), moment_of_turn(other, 0, began))
        )
        assert second - first >= SPACING * 0.9
        elsewhere = time.monotonic()
        await other.take(1)  # another bucket: its own turns
        assert time.monotonic() - elsewhere < SPACING
    finally:
        await one.close()
        await other.close()


async def test_a_process_that_stops_frees_its_turn(pg_url):
    stopping, other = IdentifyTurns(pg_url, 30.0), IdentifyTurns(pg_url, 30.0)
    try:
        await stopping.take(0)
        await stopping.close()  # as a process killed: its connection, and the lock, gone
        began = time.monotonic()
        await asyncio.wait_for(other.take(0), 10)
        assert time.monotonic() - began < 5
    finally:
        await other.close()


async def test_no_database_waits_the_spacing_and_goes_on(caplog: pytest.LogCaptureFixture):
    turns = IdentifyTurns("postgresql://nobody:secret@127.0.0.1:1/none", 0.2)
    began = time.monotonic()
    with caplog.at_level(logging.WARNING):
        await turns.take(0)
    assert 0.2 <= time.monotonic() - began < 15
    warning = next(r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)
    assert "waiting 0 s instead" in warning or "waiting" in warning
    assert "secret" not in warning
