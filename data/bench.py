"""`python -m data bench`: durable appends per second and leaderboard page times.

The fixture, a ledger of N finished games of one game (by default the first registered one; real
logs from random play, real openskill ratings), is bulk-loaded straight into SQLite once and
reused from the temp dir; the figures are then measured through the public `Ledger` API with the
default durability (FULL): appends from 1, 16 and 200 tables at once (their appends share commits,
`data.group_commit`), then leaderboard pages and member stats. `--db postgresql://…` measures a
PostgreSQL ledger, filled once from that SQLite fixture by `data.copy`.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from typing import Any

from data import ratings
from data.backends import open_ledger
from data.errors import LedgerError
from data.store import Seat
from data.urls import is_postgres, parse_url, redact_url
from rules.log import new_header
from rules.random_play import random_match
from rules.registry import GAMES, game_class

BIG_GUILD = 1  # most games; two seasons, the first archived
SMALL_GUILDS = 20
BIG_MEMBERS, SMALL_MEMBERS = 2000, 150
DISTINCT_LOGS = 400
BENCH_GUILD = 999


def _remap(value: Any, names: dict[str, str]) -> Any:
    """`value` with every placeholder player name replaced, in keys too (a deal by player)."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_remap(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): _remap(v, names) for k, v in value.items()}
    return value


def default_game() -> str:
    """The game the bench plays unless told: the first registered one."""
    return next(iter(GAMES))


def build(path: str, games: int, game: str, seed: int = 1) -> None:
    """Bulk-load `games` finished games of `game` (the schema must exist already)."""
    rng = random.Random(seed)
    cls = game_class(game)
    seat_counts = range(cls.min_players, cls.max_players + 1)
    templates = []
    for i in range(DISTINCT_LOGS):
        placeholders = [f"p{k}" for k in range(seat_counts[i % len(seat_counts)])]
        state, log = random_match(game, placeholders, seed * 100_000 + i)
        templates.append((log, state.scores(), set(state.winners()), state.ranking()))
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("BEGIN")
    jan, jun = "2025-01-01T00:00:00+00:00", "2025-06-01T00:00:00+00:00"
    seasons = [(1, BIG_GUILD, 1, "Season 1", jan, jun), (2, BIG_GUILD, 2, "Season 2", jun, None)]
    seasons += [(1 + g, g, 1, "Season 1", jan, None) for g in range(2, 2 + SMALL_GUILDS)]
    conn.executemany("INSERT INTO seasons VALUES (?, ?, ?, ?, ?, ?)", seasons)
    standings: dict[tuple[int, int], dict[str, Any]] = {}
    for game_id in range(1, games + 1):
        if rng.random() < 0.7:
            guild, members = BIG_GUILD, BIG_MEMBERS
            season = 1 if game_id < games * 0.3 else 2
        else:
            guild, members = 2 + rng.randrange(SMALL_GUILDS), SMALL_MEMBERS
            season = guild + 1
        log, scores, winners, ranking = templates[rng.randrange(DISTINCT_LOGS)]
        users = rng.sample(range(guild * 100_000, guild * 100_000 + members), len(log["players"]))
        names = {p: str(u) for p, u in zip(log["players"], users, strict=True)}
        header = _remap({k: v for k, v in log.items() if k != "actions"}, names)
        when = f"2025-{1 + game_id * 11 // games:02d}-01T00:00:00+00:00"
        conn.execute(
            """INSERT INTO games (id, guild_id, channel_id, thread_id, host_id, season_id, game,
                   options, header, status, rated, created_at, started_at, updated_at, ended_at)
               VALUES (?, ?, 1, NULL, ?, ?, ?, '{}', ?, 'running', 1, ?, ?, ?, NULL)""",
            (
                game_id,
                guild,
                users[0],
                season,
                game,
                json.dumps(header, sort_keys=True),
                when,
                when,
                when,
            ),
        )
        conn.executemany(
            "INSERT INTO seats VALUES (?, ?, ?, ?, ?, 0)",
            [(game_id, i, str(u), u, f"member {u}") for i, u in enumerate(users)],
        )
        conn.executemany(
            "INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
            [
                (game_id, seq, names[a["player"]], json.dumps(_remap(a, names)), when)
                for seq, a in enumerate(log["actions"])
            ],
        )
        conn.execute(
            "UPDATE games SET status = 'finished', ended_at = updated_at WHERE id = ?", (game_id,)
        )
        ranks = ratings.competition_ranks(ranking)
        before = [standings.get((season, u), {}).get("r", ratings.Rating()) for u in users]
        after = ratings.rate(before, [ranks[p] for p in log["players"]])
        rows = []
        for p, u, b, a in zip(log["players"], users, before, after, strict=True):
            won = p in winners
            rows.append((game_id, str(u), u, f"member {u}", scores[p], ranks[p], won, *b, *a))
            s = standings.setdefault((season, u), {"games": 0, "wins": 0, "points": 0, "best": 9})
            s["r"] = a
            s["games"] += 1
            s["wins"] += won
            s["points"] += scores[p]
            s["best"] = min(s["best"], ranks[p])
        conn.executemany("INSERT INTO results VALUES (?,?,?,0,?,?,?,?,?,?,?,?)", rows)
    conn.executemany(
        "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                season,
                game,
                u,
                f"member {u}",
                s["r"].mu,
                s["r"].sigma,
                s["r"].display,
                s["games"],
                s["wins"],
                s["points"],
                s["best"],
                "2025-12-01T00:00:00+00:00",
            )
            for (season, u), s in standings.items()
        ],
    )
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("ANALYZE")
    conn.close()


def _finished_games(path: str, game: str) -> int:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            finished: int = conn.execute(
                "SELECT count(*) FROM games WHERE status = 'finished' AND game = ?", (game,)
            ).fetchone()[0]
            return finished
        finally:
            conn.close()
    except sqlite3.Error:
        return -1


def _ms(samples: list[float]) -> str:
    samples = sorted(samples)
    p50 = statistics.median(samples) * 1000
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))] * 1000
    return f"p50 {p50:.2f} ms, p99 {p99:.2f} ms"


async def _appends(url: str, game: str, count: int, tables: int) -> float:
    """Durable appends per second: `tables` games, each appending one action after another (the
    actions of a random match, over and over: the ledger stores actions, it does not judge them).
    """
    ledger = await open_ledger(url)
    players = [str(n) for n in range(1, game_class(game).bench_players + 1)]
    seats = {p: Seat(p, int(p), f"member {p}") for p in players}
    actions = random_match(game, players, 1)[1]["actions"]
    ids = []
    for _ in range(tables):
        gid = await ledger.create_game(
            game=game, options={}, guild_id=BENCH_GUILD, channel_id=1, thread_id=None, host_id=1
        )
        header = {k: v for k, v in new_header(game, players, seed=gid).items() if k != "actions"}
        await ledger.start_game(gid, header, [seats[p] for p in header["players"]])
        ids.append(gid)

    async def table(gid: int, n: int) -> None:
        for seq in range(n):
            await ledger.append_action(gid, seq, actions[seq % len(actions)])

    start = time.perf_counter()
    await asyncio.gather(*(table(gid, count // tables) for gid in ids))
    elapsed = time.perf_counter() - start
    for gid in ids:
        await ledger.end_game(gid, "abandoned", "bench")
    await ledger.close()
    return (count // tables * tables) / elapsed


async def _queries(url: str, game: str, queries: int) -> list[str]:
    ledger = await open_ledger(url)
    rng = random.Random(7)
    first = await ledger.leaderboard(BIG_GUILD, game)
    top, deep, stats = [], [], []
    for _ in range(queries):
        t = time.perf_counter()
        await ledger.leaderboard(BIG_GUILD, game)
        top.append(time.perf_counter() - t)
        t = time.perf_counter()
        await ledger.leaderboard(BIG_GUILD, game, page=rng.randrange(first.pages))
        deep.append(time.perf_counter() - t)
        t = time.perf_counter()
        await ledger.member_stats(BIG_GUILD, BIG_GUILD * 100_000 + rng.randrange(BIG_MEMBERS))
        stats.append(time.perf_counter() - t)
    await ledger.close()
    return [
        f"leaderboard page 0 ({first.total} rated members): {_ms(top)}",
        f"leaderboard random page of {first.pages}: {_ms(deep)}",
        f"member stats: {_ms(stats)}",
    ]


def _fixture_folder() -> str:
    """Where the bench keeps the fixtures it builds and may rebuild."""
    return os.path.abspath(os.path.join(tempfile.gettempdir(), "kamiza-ledger-bench"))


TABLES = (1, 16, 200)  # concurrent tables appending at once


def run(url: str | None, *, game: str | None = None, games: int, appends: int, queries: int) -> int:
    """The figures for the ledger at `url`: a SQLite file (by default one in the temp dir) or a
    PostgreSQL database, which is filled from the SQLite fixture (`data.copy`) when empty."""
    game = game or default_game()
    if game not in GAMES:
        print(f"bench: unknown game {game!r}; known: {', '.join(GAMES)}", file=sys.stderr)
        return 2
    fixture = url if url is not None and not is_postgres(url) else None
    if fixture is None:
        folder = _fixture_folder()
        os.makedirs(folder, exist_ok=True)
        fixture = f"sqlite:///{os.path.join(folder, f'ledger-{game}-{games}.sqlite3')}"
    if url is not None and is_postgres(url):
        try:  # the server first: an unreachable one is refused before a fixture is built
            held = asyncio.run(_postgres_games(url, game, games))
            if held is not None and not _sqlite_fixture(fixture, game, games):
                return 2
            print(asyncio.run(_postgres_fixture(fixture, url, held)))
        except LedgerError as exc:
            print(f"bench: {exc}", file=sys.stderr)
            return 2
    elif not _sqlite_fixture(fixture, game, games):
        return 2
    else:
        url = fixture
        print(f"ledger size: {os.path.getsize(parse_url(url).path) / 2**20:.0f} MiB")
    print(_load())
    for tables in TABLES:
        rate = asyncio.run(_appends(url, game, max(appends, tables), tables))
        print(f"durable appends, {_tables(tables)}: {rate:.0f}/s")
    for line in asyncio.run(_queries(url, game, queries)):
        print(line)
    print(_load())
    return 0


def _load() -> str:
    """The machine's load: the figures mean little on a busy machine (p99s above all)."""
    one, five, _ = os.getloadavg()
    return f"load average: {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} CPUs"


def _tables(count: int) -> str:
    return "one table" if count == 1 else f"{count} tables at once"


def _sqlite_fixture(url: str, game: str, games: int) -> bool:
    """Build the SQLite fixture at `url`, or reuse it; False (said why) when it may not."""
    path = parse_url(url).path
    if _finished_games(path, game) == games:
        print(f"reusing {path} ({games} finished games of {game})")
        asyncio.run(_migrate(url))  # built by an older version: `copy` wants the current schema
        return True
    if os.path.exists(path) and os.path.dirname(os.path.abspath(path)) != _fixture_folder():
        print(
            f"bench: {path} is not a bench fixture of {games} games of {game}; refusing to "
            "rebuild (and so delete) it: point --db at a new file",
            file=sys.stderr,
        )
        return False
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    start = time.perf_counter()
    asyncio.run(_migrate(url))
    build(path, games, game)
    elapsed = time.perf_counter() - start
    print(f"built {games} finished games of {game} in {elapsed:.1f} s: {path}")
    return True


async def _postgres_games(url: str, game: str, games: int) -> int | None:
    """None when the PostgreSQL ledger at `url` is a bench ledger of `games` games of `game`;
    else the number of games it holds (0: empty, to be filled). LedgerOpenError if it cannot be
    opened (unreachable, refused, a newer schema)."""
    from data.pgdb import PgDatabase

    db = await PgDatabase.open(url)
    try:
        async with db.connection() as conn:
            held: int = await conn.fetchval("SELECT count(*) FROM games")
            finished = await conn.fetchval(
                "SELECT count(*) FROM games WHERE status = 'finished' AND game = $1", game
            )
    finally:
        await db.close()
    return None if finished == games else held


async def _postgres_fixture(source: str, target: str, held: int | None) -> str:
    """Fill an empty PostgreSQL ledger with the SQLite fixture (`data.copy`), or reuse it."""
    from data.copy import copy_ledger

    shown = redact_url(target)
    if held is None:
        return f"reusing {shown}"
    if held:
        raise LedgerError(
            f"{shown} holds {held} games but not the bench's: point --db at an empty database"
        )
    start = time.perf_counter()
    done = await copy_ledger(source, target)
    return f"{done} in {time.perf_counter() - start:.1f} s"


async def _migrate(url: str) -> None:
    await (await open_ledger(url)).close()
