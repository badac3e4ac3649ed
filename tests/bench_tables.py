"""Benchmark: N concurrent 4-player KAMIZA tables played by scripted members through the fake
Discord against the real `python -m bot` process.

    python tests/bench_tables.py --tables 200 [--think 0.6]

Prints p50/p99 of the time from a click (or command) to the bot's interaction response, and the
number of non-interaction REST calls (messages posted or edited in the tables' threads) per
round. Members "think" a random 0..2*think seconds before each click, as people do.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent
sys.path[:0] = [str(TESTS), str(TESTS / "e2e")]

from bot_process import BotProcess, bot_env  # noqa: E402
from fakediscord import FakeDiscord, FakeUser  # noqa: E402
from kamiza_play import open_table, play_turn, table_version, wait_turn  # noqa: E402

INTERACTION_ROUTES = ("/interactions/", "/webhooks/")


async def one_table(fake: FakeDiscord, index: int, think: float, rng: random.Random) -> int:
    """Open, fill, start and play one table to the end; returns the rounds played."""
    state = fake.state
    players = [FakeUser(state, state.add_user(f"t{index}p{i}")) for i in range(4)]
    host, *others = players
    await asyncio.sleep(rng.uniform(0, think * 4))  # tables open over a few seconds
    thread, lobby = await open_table(host)
    for user in others:
        await asyncio.sleep(rng.uniform(0, 2 * think))
        await user.click(lobby, "Join")
    await state.wait_for(lambda: lobby.text.count("<@") >= 4, 30, "four seats")
    await host.click(lobby, "Start")
    by_id = {u.id: u for u in players}
    version = None
    turns = 0
    while (user := await wait_turn(by_id, thread, after=version, timeout=60)) is not None:
        version = table_version(user, thread)
        await asyncio.sleep(rng.uniform(0, 2 * think))
        await play_turn(user, thread, rng)
        turns += 1
    return turns // 4


def is_lobby_or_final(body: object) -> bool:
    """A lobby message (or its edits) or the final standings: once per table, not per round."""
    embeds = body.get("embeds") or [] if isinstance(body, dict) else []
    titles = [e.get("title", "") for e in embeds if isinstance(e, dict)]
    return any(t.endswith(" table") or "Final standings" in t for t in titles)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main(tables: int, think: float, seed: int) -> int:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            fake.state.interaction_deadline = 30.0  # measure slow answers instead of failing
            workdir = Path(tmp) / "bot"
            env = bot_env(fake, workdir, LOG_LEVEL="WARNING", TURN_SECONDS=600, LOBBY_SECONDS=3600)
            bot = BotProcess(fake, workdir, env)
            await bot.start()
            try:
                began = time.perf_counter()
                first_request = len(fake.state.requests)
                rounds = await asyncio.gather(
                    *(one_table(fake, i, think, random.Random(rng.random())) for i in range(tables))
                )
                elapsed = time.perf_counter() - began
            finally:
                await bot.kill9()
            state = fake.state
            answered = [i.elapsed for i in state.interactions if i.elapsed is not None]
            requests = state.requests[first_request:]
            table_calls = [
                r
                for r in requests
                if r.method in ("POST", "PATCH")
                and r.route.startswith(
                    (
                        "POST /channels/{channel_id}/messages",
                        "PATCH /channels/{channel_id}/messages",
                    )
                )
                and not any(p in r.path for p in INTERACTION_ROUTES)
            ]
            total_rounds = sum(rounds)
            overhead = [r for r in table_calls if is_lobby_or_final(r.body)]
    print(f"tables: {tables} concurrent 4-player KAMIZA matches, think time ~{think:g} s")
    print(
        f"played: {total_rounds} rounds in {elapsed:.1f} s; {len(answered)} interactions answered"
    )
    print(
        f"click -> interaction response: p50 {percentile(answered, 0.5) * 1000:.1f} ms, "
        f"p99 {percentile(answered, 0.99) * 1000:.1f} ms, "
        f"max {max(answered) * 1000:.1f} ms, mean {statistics.fmean(answered) * 1000:.1f} ms"
    )
    in_rounds = len(table_calls) - len(overhead)
    print(
        f"non-interaction REST calls: {len(table_calls)} in all, {len(overhead)} of them for "
        f"lobbies and final standings; {in_rounds} while playing = "
        f"{in_rounds / max(1, total_rounds):.2f} per round (target: at most players + 2 = 6)"
    )
    late = sum(1 for a in answered if a > 3.0)
    print(f"answers later than Discord's 3 s: {late}")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--think", type=float, default=0.6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sys.exit(asyncio.run(main(args.tables, args.think, args.seed)))
