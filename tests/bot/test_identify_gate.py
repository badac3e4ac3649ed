"""The IDENTIFY gate: one process spaces its shards' session starts by the time since its last
one; with turns (processes sharing a bot), each bucket's turn is taken there."""

from __future__ import annotations

import asyncio
import time

from bot.runtime.identify_gate import IdentifyGate


async def test_one_process_spaces_its_identifies_by_the_time_since_the_last():
    gate = IdentifyGate(0.2)
    began = time.monotonic()
    moments = []
    for shard in (0, 1, 2):
        await gate.wait_turn(shard)
        moments.append(time.monotonic() - began)
    assert moments[0] < 0.1  # the first goes at once
    assert moments[1] >= 0.19 and moments[2] - moments[1] >= 0.19
    await asyncio.sleep(0.25)  # a reconnect long after: no wait
    again = time.monotonic()
    await gate.wait_turn(0)
    assert time.monotonic() - again < 0.1


async def test_concurrent_identifies_of_one_process_wait_in_line():
    gate = IdentifyGate(0.2)
    began = time.monotonic()
    done: list[float] = []

    async def one(shard: int) -> None:
        await gate.wait_turn(shard)
        done.append(time.monotonic() - began)

    await asyncio.gather(one(0), one(1))
    assert sorted(done)[1] - sorted(done)[0] >= 0.19


class RecordedTurns:
    def __init__(self) -> None:
        self.buckets: list[int] = []
        self.closed = False

    async def take(self, bucket: int) -> None:
        self.buckets.append(bucket)

    async def close(self) -> None:
        self.closed = True


async def test_processes_sharing_a_bot_take_their_bucket_s_turn():
    turns = RecordedTurns()
    gate = IdentifyGate(5.0, turns, max_concurrency=2)
    began = time.monotonic()
    for shard in (0, 1, 2, 3):
        await gate.wait_turn(shard)
    assert time.monotonic() - began < 1  # the turns space them, not this process
    assert turns.buckets == [0, 1, 0, 1]
    await gate.close()
    assert turns.closed
