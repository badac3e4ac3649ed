"""Crash safety: a child appending actions is killed with SIGKILL at random moments, 20 times;
then a child appending to 8 games at once (their appends sharing commits), on both backends."""

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

from data.backends import open_ledger

CHILD = Path(__file__).with_name("crash_child.py")
KILLS = 20
TABLES = 8


async def _start(url: str, games: int = 1) -> list[int]:
    ledger = await open_ledger(url)
    try:
        return [(await play(ledger, actions=0))[0] for _ in range(games)]
    finally:
        await ledger.close()


async def _inspect(url: str, game_id: int) -> tuple[list[dict], list[str]]:
    ledger = await open_ledger(url)
    try:
        return (await ledger.game_log(game_id))["actions"], await ledger.integrity_problems()
    finally:
        await ledger.close()


def _run_and_kill(url: str, game_ids: list[int], delay: float) -> dict[int, list[int]]:
    """Start the child, let it append for `delay` seconds after its first ack, SIGKILL it; the
    sequence numbers it acknowledged, by game."""
    child = subprocess.Popen(
        [sys.executable, str(CHILD), url, *map(str, game_ids)],
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
    acks: dict[int, list[int]] = {game_id: [] for game_id in game_ids}
    for line in (first + rest).split("\n")[:-1]:  # the last piece is "" (or a partial line)
        game_id, seq = map(int, line.split())
        acks[game_id].append(seq)
    return acks


@pytest.mark.slow
def test_acknowledged_appends_survive_sigkill(tmp_path):
    url = f"sqlite:///{tmp_path}/crash.sqlite3"
    [game_id] = asyncio.run(_start(url))
    rng = random.Random(2024)
    acknowledged: list[int] = []
    for _ in range(KILLS):
        acks = _run_and_kill(url, [game_id], rng.uniform(0.0, 0.25))[game_id]
        assert acks == list(range(acks[0], acks[0] + len(acks)))
        acknowledged += acks
        actions, problems = asyncio.run(_inspect(url, game_id))
        assert problems == []  # PRAGMA integrity_check, foreign keys, gap-free sequence
        assert [a["n"] for a in actions] == list(range(len(actions)))
        assert set(acknowledged) <= set(range(len(actions)))  # nothing acknowledged is lost
        assert acks[0] <= len(actions) - len(acks)  # appending resumed where the log ended
    assert len(acknowledged) > KILLS * 10


@pytest.mark.slow
def test_acknowledged_appends_of_tables_sharing_commits_survive_sigkill(backend_url):
    game_ids = asyncio.run(_start(backend_url, TABLES))
    rng = random.Random(2025)
    acknowledged: dict[int, set[int]] = {game_id: set() for game_id in game_ids}
    for _ in range(KILLS // 2):
        for game_id, acks in _run_and_kill(backend_url, game_ids, rng.uniform(0.0, 0.25)).items():
            if acks:
                assert acks == list(range(acks[0], acks[0] + len(acks)))
            acknowledged[game_id] |= set(acks)
        for game_id in game_ids:
            actions, problems = asyncio.run(_inspect(backend_url, game_id))
            assert problems == []
            assert [a["n"] for a in actions] == list(range(len(actions)))
            assert acknowledged[game_id] <= set(range(len(actions)))  # nothing acknowledged lost
    assert all(len(acks) > KILLS for acks in acknowledged.values())
