"""Crash safety: a child appending actions is killed with SIGKILL at random moments, 20 times."""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ledger_helpers import play

from data.store import open_ledger

CHILD = Path(__file__).with_name("crash_child.py")
KILLS = 20


async def _start(url: str) -> int:
    ledger = await open_ledger(url)
    try:
        game_id, _, _ = await play(ledger, actions=0)
        return game_id
    finally:
        await ledger.close()


async def _inspect(url: str, game_id: int) -> tuple[list[dict], list[str]]:
    ledger = await open_ledger(url)
    try:
        return (await ledger.game_log(game_id))["actions"], await ledger.integrity_problems()
    finally:
        await ledger.close()


def _run_and_kill(url: str, game_id: int, delay: float) -> list[int]:
    """Start the child, let it append for `delay` seconds after its first ack, SIGKILL it."""
    child = subprocess.Popen(
        [sys.executable, str(CHILD), url, str(game_id)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = child.stdout.readline()
        assert first.endswith("\n"), child.stderr.read()
        time.sleep(delay)  # a random moment in the middle of the appends
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        # Read on through the same buffered reader: `readline` may already hold later lines in
        # its buffer, which `communicate` (reading the pipe itself) would skip.
        rest = child.stdout.read()
        child.stderr.read()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -signal.SIGKILL
    lines = (first + rest).split("\n")
    return [int(line) for line in lines[:-1]]  # the last piece is "" (or a partial line)


@pytest.mark.slow
def test_acknowledged_appends_survive_sigkill(tmp_path):
    url = f"sqlite:///{tmp_path}/crash.sqlite3"
    game_id = asyncio.run(_start(url))
    rng = random.Random(2024)
    acknowledged: list[int] = []
    for _ in range(KILLS):
        acks = _run_and_kill(url, game_id, rng.uniform(0.0, 0.25))
        assert acks == list(range(acks[0], acks[0] + len(acks)))
        acknowledged += acks
        actions, problems = asyncio.run(_inspect(url, game_id))
        assert problems == []  # PRAGMA integrity_check, foreign keys, gap-free sequence
        assert [a["n"] for a in actions] == list(range(len(actions)))
        assert set(acknowledged) <= set(range(len(actions)))  # nothing acknowledged is lost
        assert acks[0] <= len(actions) - len(acks)  # appending resumed where the log ended
    assert len(acknowledged) > KILLS * 10
