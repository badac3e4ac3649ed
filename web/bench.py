"""`python -m web.bench`: the web companion under load, from a second process, bounded.

Builds (or reuses) a SQLite fixture of 100,000 finished games like `python -m data bench`'s,
turns its big server's pages on, starts `python -m web` over it in a process of its own, sends it
requests at a fixed rate (200/s for 10 s by default: open loop, each request leaves at its time
whether or not the earlier ones came back): half leaderboard pages (a random page and sort),
half game pages (a random game of the server, a random step). Prints the figures; exit status 1
when the p99 latency is over the target (20 ms), 2 when the site could not be measured.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

import aiohttp

from bot import web_paths as paths
from data.backends import open_ledger
from data.bench import BIG_GUILD, _finished_games, _migrate, build

SORTS = ("rating", "wins", "games", "name")


def fixture(games: int, game: str) -> str:
    """The fixture's path, built when missing, as `python -m data bench` builds its own, in a
    folder of its own: a data bench run at the same time would take a fixture it finds
    half-built for a stale one and delete it."""
    folder = os.path.join(tempfile.gettempdir(), "kamiza-web-bench")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"ledger-{game}-{games}.sqlite3")
    if _finished_games(path, game) != games:
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.remove(path + suffix)
        start = time.perf_counter()
        asyncio.run(_migrate(f"sqlite:///{path}"))
        build(path, games, game)
        print(f"built {games} finished games of {game} in {time.perf_counter() - start:.1f} s")
    return path


async def _web_on(url: str) -> None:
    ledger = await open_ledger(url)
    try:
        await ledger.update_guild_settings(BIG_GUILD, web=True)
    finally:
        await ledger.close()


def _sample(path: str, game: str, rng: random.Random) -> tuple[list[tuple[int, int]], int]:
    """(game id, its number of actions) of up to 2000 of the server's games, and its board's
    number of pages (25 a page) in the current season."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        ids = [
            row[0]
            for row in conn.execute(
                "SELECT id FROM games WHERE guild_id = ? AND status = 'finished'", (BIG_GUILD,)
            )
        ]
        chosen = rng.sample(ids, min(2000, len(ids)))
        marks = ",".join("?" * len(chosen))
        counts = dict(
            conn.execute(
                f"""SELECT game_id, count(*) FROM actions WHERE game_id IN ({marks})
                    GROUP BY game_id""",
                chosen,
            ).fetchall()
        )
        rated = conn.execute(
            """SELECT count(*) FROM ratings r JOIN seasons s ON s.id = r.season_id
               WHERE s.guild_id = ? AND s.ended_at IS NULL AND r.game = ?""",
            (BIG_GUILD, game),
        ).fetchone()[0]
    finally:
        conn.close()
    return [(i, counts.get(i, 0)) for i in chosen], max(1, -(-rated // 25))


class SiteDidNotStart(Exception):
    pass


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Served(NamedTuple):
    url: str  # the site's base URL
    pid: int  # the `python -m web` process (the parent of its workers, if any)


@contextmanager
def serving(url: str, cwd: str | None = None) -> Iterator[Served]:
    """`python -m web` over the ledger at `url` in a process of its own, on a free loopback
    port, until the block ends. SiteDidNotStart when it does not listen in 30 s."""
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": url, "WEB_PORT": str(port), "WEB_HOST": "127.0.0.1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "web"],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SiteDidNotStart(f"python -m web did not start over {url}") from None
                time.sleep(0.1)
        yield Served(f"http://127.0.0.1:{port}", server.pid)
    finally:
        server.terminate()
        server.wait(timeout=10)


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    if not ordered:
        return "no samples"
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.90))]
    return (
        f"p50 {statistics.median(ordered) * 1000:.2f} ms, p90 {p90 * 1000:.2f} ms, "
        f"p99 {p99 * 1000:.2f} ms, max {ordered[-1] * 1000:.2f} ms"
    )


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else float("inf")


async def _load(
    base: str, targets: list[str], rate: float
) -> tuple[dict[str, list[float]], int, float]:
    """Send every target at `rate` per second; latencies by kind, errors, the elapsed time."""
    latencies: dict[str, list[float]] = {"leaderboard": [], "game": []}
    errors = 0
    connector = aiohttp.TCPConnector(limit=256)
    async with aiohttp.ClientSession(base, connector=connector) as session:

        async def one(path: str) -> None:
            nonlocal errors
            sent = time.perf_counter()
            try:
                async with session.get(path) as response:
                    await response.read()
                    ok = response.status == 200
            except aiohttp.ClientError:
                ok = False
            if not ok:
                errors += 1
                return
            kind = "leaderboard" if "/leaderboard/" in path else "game"
            latencies[kind].append(time.perf_counter() - sent)

        for path in targets[:20]:  # warm up: connections, the templates' first compile
            await one(path)
        latencies = {"leaderboard": [], "game": []}
        errors = 0
        start = time.perf_counter()
        tasks = []
        for n, path in enumerate(targets):
            delay = start + n / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(one(path)))
        await asyncio.gather(*tasks)
        elapsed = time.perf_counter() - start
    return latencies, errors, elapsed


def run(games: int, game: str, rate: float, seconds: float, target_ms: float) -> int:
    path = fixture(games, game)
    url = f"sqlite:///{path}"
    asyncio.run(_web_on(url))
    rng = random.Random(21)
    sample, pages = _sample(path, game, rng)
    count = int(rate * seconds)
    targets = []
    for n in range(count):
        if n % 2 == 0:
            page, sort = rng.randrange(pages), rng.choice(SORTS)
            targets.append(f"{paths.leaderboard(BIG_GUILD, game)}?sort={sort}&page={page}")
        else:
            game_id, actions = rng.choice(sample)
            targets.append(paths.game(BIG_GUILD, game_id, step=rng.randrange(actions + 1)))
    try:
        with serving(url) as site:
            latencies, errors, elapsed = asyncio.run(_load(site.url, targets, rate))
    except SiteDidNotStart as exc:
        print(f"web bench: {exc}", file=sys.stderr)
        return 2
    every = latencies["leaderboard"] + latencies["game"]
    print(f"ledger: {games} finished games of {game}, {os.path.getsize(path) / 2**20:.0f} MiB")
    print(f"sent {count} requests in {elapsed:.1f} s ({count / elapsed:.0f}/s), {errors} errors")
    print(f"leaderboard pages ({pages} pages): {_ms(latencies['leaderboard'])}")
    print(f"game pages (a random step): {_ms(latencies['game'])}")
    print(f"all: {_ms(every)}")
    worst = p99(every) * 1000
    verdict = "within" if worst < target_ms and not errors else "OVER"
    print(f"p99 {worst:.2f} ms: {verdict} the {target_ms:.0f} ms target")
    return 0 if verdict == "within" else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m web.bench", description=__doc__)
    parser.add_argument("--games", type=int, default=100_000, help="finished games in the ledger")
    parser.add_argument("--game", default="kamiza", help="the game the fixture plays")
    parser.add_argument("--rate", type=float, default=200, help="requests per second")
    parser.add_argument("--seconds", type=float, default=10, help="how long (bounded)")
    parser.add_argument("--target-ms", type=float, default=20, help="the p99 to stay within")
    args = parser.parse_args(argv)
    if not (0 < args.rate <= 2000 and 0 < args.seconds <= 120):
        print("web bench: --rate 1..2000 and --seconds up to 120", file=sys.stderr)
        return 2
    return run(args.games, args.game, args.rate, args.seconds, args.target_ms)


if __name__ == "__main__":
    sys.exit(main())
