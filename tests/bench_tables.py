"""Benchmark: N concurrent 4-player KAMIZA tables played by scripted members through the fake
Discord against the real `python -m bot` process.

    python tests/bench_tables.py --tables 200 [--think 0.6] [--rate-limits]

Prints p50/p99 of the time from a click (or command) to the bot's interaction response, and the
number of bot-token REST calls (everything but interaction responses and follow-ups: messages
posted, edited or deleted, threads, DMs) per round, over whole matches (lobbies and final
standings included). Members "think" a random 0..2*think seconds before each click, as people do.
With `--rate-limits` the fake Discord enforces Discord's global 50 requests/s and per-route
buckets (`fakediscord.rate_limits`), and the 429s the bot earned are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent
sys.path[:0] = [str(TESTS), str(TESTS / "e2e")]

from bot_process import BotProcess, bot_env  # noqa: E402
from fakediscord import FakeDiscord, FakeUser  # noqa: E402
from fakediscord.rate_limits import RateLimits  # noqa: E402
from kamiza_play import open_table, play_turn, table_version, wait_turn  # noqa: E402

API = len("/api/v10")  # where a path's route begins
INTERACTION_ROUTES = ("/interactions/", "/webhooks/")
STALE = [0]  # clicks on a table message that named a turn already over


async def one_table(fake: FakeDiscord, index: int, think: float, rng: random.Random) -> int:
    """Open, fill, start and play one table to the end; returns the rounds played."""
    state = fake.state
    players = [FakeUser(state, state.add_user(f"t{index}p{i}")) for i in range(4)]
    host, *others = players
    await asyncio.sleep(rng.uniform(0, think * 4))  # tables open over a few seconds
    thread, lobby = await open_table(host, patience=120)
    for user in others:
        await asyncio.sleep(rng.uniform(0, 2 * think))
        await user.click(lobby, "Join")
    await state.wait_for(lambda: lobby.text.count("<@") >= 4, 120, "four seats")
    await host.click(lobby, "Start")
    by_id = {u.id: u for u in players}
    version = None
    turns = 0
    while (user := await wait_turn(by_id, thread, after=version, timeout=120)) is not None:
        version = table_version(user, thread)
        await asyncio.sleep(rng.uniform(0, 2 * think))
        try:
            await play_turn(user, thread, rng)
        except AssertionError:  # the message named a turn already over (an edit still on its
            STALE[0] += 1  # way under the rate limits): the hand says so; wait for the next
            continue
        turns += 1
    return turns // 4


def kind(name: str) -> str:
    """An interaction's kind: the verb of a button's custom id, or the command."""
    return name.split(":")[1] if name.startswith("g:") else name


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main(tables: int, think: float, seed: int, rate_limits: bool) -> int:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            fake.state.interaction_deadline = 30.0  # measure slow answers instead of failing
            limits = fake.state.rate_limits = RateLimits() if rate_limits else None
            workdir = Path(tmp) / "bot"
            env = bot_env(
                fake,
                workdir,
                LOG_LEVEL="WARNING",
                TURN_SECONDS=600,
                LOBBY_SECONDS=3600,
                EDIT_PACE_SECONDS=1.0,  # Discord's pace, not the end-to-end tests' quick one
            )
            bot = BotProcess(fake, workdir, env)
            await bot.start()
            try:
                began = time.perf_counter()
                first_request = len(fake.state.requests)
                outcomes = await asyncio.gather(
                    *(
                        one_table(fake, i, think, random.Random(rng.random()))
                        for i in range(tables)
                    ),
                    return_exceptions=True,
                )
                elapsed = time.perf_counter() - began
            finally:
                await bot.kill9()
            state = fake.state
            answered = [i.elapsed for i in state.interactions if i.elapsed is not None]
            requests = state.requests[first_request:]
            bot_token = [
                r
                for r in requests
                if r.method != "GET"
                and r.status != 429
                and not r.path.startswith(INTERACTION_ROUTES, API)
            ]
            by_route = Counter(f"{r.route}" for r in bot_token)
            riding = [
                r
                for r in requests
                if r.status != 429 and r.path.startswith(INTERACTION_ROUTES[1], API)
            ]
            refused = Counter(r.route for r in requests if r.status == 429)
            rounds = [r for r in outcomes if isinstance(r, int)]
            stuck = [r for r in outcomes if not isinstance(r, int)]
            total_rounds = sum(rounds)
    print(f"tables: {tables} concurrent 4-player KAMIZA matches, think time ~{think:g} s")
    print(
        f"played: {total_rounds} rounds in {elapsed:.1f} s; {len(answered)} interactions answered"
    )
    if stuck:  # a table whose messages never came (the bot gave up on a call), or a bug
        kinds = Counter(f"{type(e).__name__}: {str(e)[:60]}" for e in stuck)
        print(f"tables that did not finish: {len(stuck)} {dict(kinds)}")
    print(
        f"click -> interaction response: p50 {percentile(answered, 0.5) * 1000:.1f} ms, "
        f"p99 {percentile(answered, 0.99) * 1000:.1f} ms, "
        f"max {max(answered) * 1000:.1f} ms, mean {statistics.fmean(answered) * 1000:.1f} ms"
    )
    print(
        f"bot-token calls (messages, edits, deletes, threads, DMs): {len(bot_token)} in all = "
        f"{len(bot_token) / max(1, total_rounds):.2f} per round over whole matches"
    )
    for route, count in by_route.most_common():
        print(f"  {count:6d}  {count / max(1, total_rounds):5.2f}/round  {route}")
    print(
        f"clicks' follow-ups (exempt from the budget): {len(riding)} = "
        f"{len(riding) / max(1, total_rounds):.2f} per round"
    )
    if limits is not None:
        print(f"429s with Discord's rate limits: {limits.total} {dict(limits.too_many)}")
        for route, count in refused.most_common():
            print(f"  {count:6d}  {route}")
    late = sum(1 for a in answered if a > 3.0)
    print(f"answers later than Discord's 3 s: {late}; clicks on a turn already over: {STALE[0]}")
    slow = Counter(kind(i.name) for i in state.interactions if (i.elapsed or 0) > 1.0)
    print(f"answers later than 1 s, by kind: {dict(slow.most_common())}")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--think", type=float, default=0.6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rate-limits",
        action="store_true",
        help="the fake Discord enforces the global 50/s and per-route limits; 429s are printed",
    )
    args = parser.parse_args()
    sys.exit(asyncio.run(main(args.tables, args.think, args.seed, args.rate_limits)))
