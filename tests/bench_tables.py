"""Benchmark: N concurrent 4-player KAMIZA tables played by scripted members through the fake
Discord against the real `python -m bot` process.

    python tests/bench_tables.py --tables 200 [--think 0.6] [--rate-limits]

Prints p50/p99 of the time from a click (or command) to the bot's interaction response, and the
number of bot-token REST calls (everything but interaction responses and follow-ups: messages
posted, edited or deleted, threads, DMs) per round, over whole matches (lobbies and final
standings included). Members "think" a random 0..2*think seconds before each click, as people do.
With `--rate-limits` the fake Discord enforces Discord's global 50 requests/s and per-route
buckets (`fakediscord.rate_limits`), and the 429s the bot earned are printed, with when they came.

The bot's own share is printed beside it, per kind of click: from the click's arrival at the bot
to its response leaving (`CLICK_TIMINGS_PATH`, `bot.click_timings`), and the lag of its event
loop; the rest of the end-to-end time is the fake server's and the scripted members' (they share
the CPU with the bot). The bot's resident memory (RSS) is sampled: before the tables, at its
peak, and per table.
"""

from __future__ import annotations

import argparse
import asyncio
import os
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
from fakediscord.rate_limits import RateLimits, Refusal  # noqa: E402
from fakediscord.state import Channel  # noqa: E402
from kamiza_play import open_table, play_turn, table_version, wait_turn  # noqa: E402

LOOP_LAG = "loop-lag"  # `bot.click_timings.LOOP_LAG`
API = len("/api/v10")  # where a path's route begins
INTERACTION_ROUTES = ("/interactions/", "/webhooks/")
STALE = [0]  # clicks on a table message that named a turn already over


def servers(fake: FakeDiscord, tables: int, per_server: int) -> list[Channel]:
    """Each table's #general: `per_server` tables in a server, as a bot's tables spread over
    the servers it is in (the bot opens at most `TABLES_PER_SERVER`, 50, in one; and Discord
    creates threads from one channel's messages slowly). The servers exist before the bot
    connects: they come in its READY."""
    state = fake.state
    generals = [state.general]
    for n in range(1, -(-tables // per_server)):
        guild_id = state.add_guild(f"server {n}")
        generals.append(
            next(
                c for c in state.channels.values() if c.guild_id == guild_id and c.name == "general"
            )
        )
    return [generals[i // per_server] for i in range(tables)]


async def one_table(
    fake: FakeDiscord, index: int, think: float, rng: random.Random, where: Channel
) -> int:
    """Open, fill, start and play one table to the end; returns the rounds played."""
    state = fake.state
    players = [FakeUser(state, state.add_user(f"t{index}p{i}")) for i in range(4)]
    host, *others = players
    await asyncio.sleep(rng.uniform(0, think * 4))  # tables open over a few seconds
    thread, lobby = await open_table(host, patience=120, where=where)
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


async def main(tables: int, think: float, seed: int, rate_limits: bool, per_server: int) -> int:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            where = servers(fake, tables, per_server)
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
                CLICK_TIMINGS_PATH=workdir / "click-timings.txt",
            )
            bot = BotProcess(fake, workdir, env)
            await bot.start()
            assert bot.proc is not None
            memory = RssSampler(bot.proc.pid)
            sampling = asyncio.create_task(memory.run())
            try:
                began = time.perf_counter()
                began_monotonic = time.monotonic()  # the fake's clock (`Refusal.at`)
                first_request = len(fake.state.requests)
                outcomes = await asyncio.gather(
                    *(
                        one_table(fake, i, think, random.Random(rng.random()), where[i])
                        for i in range(tables)
                    ),
                    return_exceptions=True,
                )
                elapsed = time.perf_counter() - began
                await asyncio.sleep(1.2)  # the bot writes its timings once a second
            finally:
                sampling.cancel()
                await bot.kill9()
            own = bot_side(workdir / "click-timings.txt")
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
    print(
        f"tables: {tables} concurrent 4-player KAMIZA matches, think time ~{think:g} s, "
        f"{len(set(map(id, where)))} servers"
    )
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
        print_refusals(limits.refused, began_monotonic)
    late = sum(1 for a in answered if a > 3.0)
    print(f"answers later than Discord's 3 s: {late}; clicks on a turn already over: {STALE[0]}")
    slow = Counter(kind(i.name) for i in state.interactions if (i.elapsed or 0) > 1.0)
    print(f"answers later than 1 s, by kind: {dict(slow.most_common())}")
    end_to_end: dict[str, list[float]] = {}
    for i in state.interactions:
        if i.elapsed is not None:
            end_to_end.setdefault(kind(i.name), []).append(i.elapsed * 1000)
    print_shares(end_to_end, own)
    memory.print(tables, elapsed, len(answered))
    return 0


def print_refusals(refused: list[Refusal], began: float) -> None:
    """When the 429s came (seconds since the tables began), by scope and route: a burst of
    tables opening, or the matches' steady state."""
    by_second: dict[int, Counter[str]] = {}
    for refusal in refused:
        second = int(refusal.at - began)
        by_second.setdefault(second, Counter())[f"{refusal.scope} {refusal.route}"] += 1
    for second, kinds in sorted(by_second.items()):
        what = ", ".join(f"{count} {kind}" for kind, count in kinds.most_common())
        print(f"    {second:4d}-{second + 1} s: {what}")


def bot_side(path: Path) -> dict[str, list[float]]:
    """The bot's own milliseconds per kind of click (and its loop's lag), from its file."""
    found: dict[str, list[float]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            name, _, ms = line.rpartition(" ")
            found.setdefault(name, []).append(float(ms))
    return found


def print_shares(end_to_end: dict[str, list[float]], own: dict[str, list[float]]) -> None:
    """End to end (the fake's clock) beside the bot's own share (the bot's clock), per kind."""
    everything = [ms for name, values in own.items() if name != LOOP_LAG for ms in values]
    if not everything:
        print("the bot's own time per click: none recorded")
        return
    print(
        f"the bot's own time, click arrived -> response sent: p50 "
        f"{percentile(everything, 0.5):.1f} ms, p99 {percentile(everything, 0.99):.1f} ms, "
        f"max {max(everything):.1f} ms, over 1 s {sum(1 for v in everything if v > 1000)}"
    )
    print("  kind               n   end to end p50/p99/max ms    bot's own p50/p99/max ms")
    for name, values in sorted(end_to_end.items(), key=lambda kv: -len(kv[1])):
        mine = own.get(name, [])
        print(f"  {name:14s} {len(values):6d}   {spread(values):26s} {spread(mine)}")
    lag = own.get(LOOP_LAG, [])
    if lag:
        print(f"bot's event loop lag (a 50 ms sleep's overshoot): {spread(lag)} ms p50/p99/max")


def spread(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{percentile(values, 0.5):7.1f} {percentile(values, 0.99):7.1f} {max(values):7.1f}"


class RssSampler:
    """The bot process's resident memory, sampled every half second, and its CPU time beside
    this process's (the fake Discord and the scripted members)."""

    def __init__(self, pid: int) -> None:
        self.status = Path(f"/proc/{pid}/status")
        self.stat = Path(f"/proc/{pid}/stat")
        self.first: int | None = None
        self.peak = 0
        self.bot_cpu = [0.0, 0.0]  # seconds: when sampling began, the latest sample
        self.own_cpu = [time.process_time(), time.process_time()]

    def sample(self) -> None:
        try:
            text = self.status.read_text()
            fields = self.stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            return
        cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
        self.bot_cpu = [cpu, cpu] if self.first is None else [self.bot_cpu[0], cpu]
        self.own_cpu[1] = time.process_time()
        for line in text.splitlines():
            if line.startswith("VmRSS:"):
                kb = int(line.split()[1])
                self.first = kb if self.first is None else self.first
                self.peak = max(self.peak, kb)

    async def run(self) -> None:
        while True:
            self.sample()
            await asyncio.sleep(0.5)

    def print(self, tables: int, elapsed: float, clicks: int) -> None:
        if self.first is None:
            return
        bot = self.bot_cpu[1] - self.bot_cpu[0]
        fake = self.own_cpu[1] - self.own_cpu[0]
        print(
            f"CPU over the run ({elapsed:.0f} s): the bot {bot:.1f} s ({bot / elapsed:.0%} of a "
            f"core), the fake Discord and scripted members {fake:.1f} s ({fake / elapsed:.0%}); "
            f"the bot's CPU per click (all its work over the clicks answered: the click, what it "
            f"shows in public, the ledger) {bot * 1000 / max(1, clicks):.2f} ms"
        )
        grown = self.peak - self.first
        print(
            f"bot RSS: {self.first / 1024:.1f} MB before the tables, peak {self.peak / 1024:.1f} "
            f"MB: {grown / max(1, tables):.1f} KB per playing table (lobbies, games, ledger "
            "and caches while they play; idle tables: tests/bench_idle_tables.py)"
        )


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
    parser.add_argument(
        "--per-server", type=int, default=25, help="tables opened in one server (at most 50)"
    )
    args = parser.parse_args()
    sys.exit(
        asyncio.run(main(args.tables, args.think, args.seed, args.rate_limits, args.per_server))
    )
