"""Benchmark: how long a 4-player KAMIZA match lasts with and without the house rule
`simultaneous` (RULES.md H-1), when each player thinks a random 2 to 20 seconds per choice.

    python tests/bench_house_rule.py [--matches 5] [--scale 0.01] [--seed 1]

The match runs through the real table runtime (ledger, lock, clock, outbox) with scripted
members: each waits its thinking time, then acts. Thinking is scaled down (`--scale 0.01`: 2-20 s
becomes 20-200 ms); the durations printed are scaled back up to real time. In turn, a round
takes the sum of its players' thinking; at once, the longest of it.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.runtime.manager import Defaults, TableManager
from bot.runtime.place import Place
from bot.runtime.table import Table
from data.backends import open_ledger
from rules.agents import random_action


class Quiet:
    """A presenter that shows nothing (the bench measures the game, not Discord)."""

    def __getattr__(self, name: str) -> Any:
        if name == "recall":
            return lambda *args: None

        async def nothing(*args: Any) -> None:
            return None

        return nothing


async def one_match(ledger: Any, simultaneous: bool, seed: int, scale: float) -> float:
    manager = TableManager(
        ledger, {"kamiza": Quiet()}, Defaults(turn_seconds=3600, lobby_seconds=600, bot_delay=0)
    )
    place = Place(1, seed * 2 + simultaneous, None)
    manager.reserve(place.home)
    options = {"simultaneous": True} if simultaneous else {}
    lobby = await manager.open_lobby(
        game="kamiza", place=place, host_id=1, host_name="p1", options=options, bots=0
    )
    for uid in (2, 3, 4):
        await lobby.join(uid, f"p{uid}")
    table = await manager.start(lobby, 1)
    rng = random.Random(seed)
    began = time.perf_counter()
    await asyncio.gather(*(member(table, player, rng, scale) for player in table.seats))
    elapsed = time.perf_counter() - began
    assert table.state.over
    await manager.shutdown()
    return elapsed / scale


async def member(table: Table[Any], player: str, rng: random.Random, scale: float) -> None:
    """Think 2-20 s (scaled) whenever it is this member's move, then make it."""
    thinking_for: object = None
    while not table.state.over:
        nxt = table.state.next()
        if nxt is None or player not in nxt.pending:
            await asyncio.sleep(0.001)
            continue
        moment = (table.state.round_number(), table.seq if not nxt.players else None)
        if moment != thinking_for:
            thinking_for = moment
            await asyncio.sleep(rng.uniform(2.0, 20.0) * scale)
        if player in (table.state.next() or nxt).pending:
            await table.act(player, random_action(table.state, player, rng))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=5)
    parser.add_argument("--scale", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        ledger = await open_ledger(f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        in_turn, at_once = [], []
        for n in range(args.matches):
            seed = args.seed + n
            in_turn.append(await one_match(ledger, False, seed, args.scale))
            at_once.append(await one_match(ledger, True, seed, args.scale))
        await ledger.close()
    mean_turn, mean_once = statistics.mean(in_turn), statistics.mean(at_once)
    print(f"4-player KAMIZA match, thinking 2-20 s a choice, {args.matches} matches each:")
    print(f"  in turn (the rule sheet):      {mean_turn / 60:5.1f} min on average")
    print(f"  at once (house rule):          {mean_once / 60:5.1f} min on average")
    print(f"  the house rule's match takes   {mean_once / mean_turn:5.2f} x as long")


if __name__ == "__main__":
    asyncio.run(main())
