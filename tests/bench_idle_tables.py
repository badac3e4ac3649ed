"""Benchmark: resident memory of one process holding idle tables.

    python tests/bench_idle_tables.py [--tables 1000] [--games kamiza,kobayakawa,rights-of-losers]
    python tests/bench_idle_tables.py --game kamiza --tables 100 --top 15   # where it goes

Each game is measured in a fresh child process: its RSS (VmRSS of /proc/self/status, after a
garbage collection) with 0, 100 and `--tables` idle 4-player tables, and the RSS per table
(the issue's target: under 200 KB). A table is opened, joined and started through the real
`TableManager` and the game's real presenter against the tests' fake bot (what it "posts" is
dropped, as Discord would take it) and a real SQLite ledger; it then waits for a member's move,
its turn clock running, with whatever the runtime keeps per table. The count starts from a warm
process (`warm_up`), with glibc's malloc arenas limited as `python -m bot` limits them
(`--all-arenas`: glibc's default). `--top N` (one game) lists the N largest allocations per
table that `tracemalloc` sees, by the line that made them.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import subprocess
import sys
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if not __package__:  # run as a script (imported by a test, the paths are set already)
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from bot.games import registry  # noqa: E402
from bot.runtime.heap import limit_arenas  # noqa: E402
from bot.runtime.manager import Defaults, TableManager  # noqa: E402
from bot.runtime.place import Place  # noqa: E402
from bot.runtime.table import Table  # noqa: E402
from data.backends import open_ledger  # noqa: E402
from data.store import Ledger  # noqa: E402
from tests.bot.fakes import FakeBot, Posted  # noqa: E402

GAMES = ("kamiza", "kobayakawa", "rights-of-losers")
PLAYERS = 4
TARGET_KB = 200
AT_ONCE = 25  # tables opening at the same time


class ForgetfulBot(FakeBot):
    """The fake bot, keeping nothing of what it posts: the benchmark measures the tables."""

    def __init__(self) -> None:
        super().__init__(posted=Forgotten())


class Forgotten(list[Posted]):
    def append(self, item: Posted) -> None:
        return None


def rss_kb() -> int:
    """This process's resident memory after a full collection, in KB."""
    gc.collect()
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


async def open_table(manager: TableManager, game: str, number: int) -> None:
    """Table `number`: opened by its host in a server of its own, joined, started, shown."""
    guild = 1_000 + number
    place = Place(guild, 10_000_000 + number, None)
    host = 100 * (number + 1)
    manager.reserve(place.home)
    lobby = await manager.open_lobby(
        game=game, place=place, host_id=host, host_name=f"host{number}", options={}, bots=0
    )
    for seat in range(1, PLAYERS):
        await lobby.join(host + seat, f"member{number}-{seat}")
    table = await manager.start(lobby, host)
    await lobby.outbox.drain()
    await table.outbox.drain()
    assert table.state.next() is not None and not table.closed


async def open_tables(manager: TableManager, game: str, first: int, count: int) -> None:
    """Opened some at a time, as members do: the ledger's writes overlap."""
    numbers = range(first, first + count)
    for start in range(0, count, AT_ONCE):
        batch = numbers[start : start + AT_ONCE]
        await asyncio.gather(*(open_table(manager, game, n) for n in batch))


async def warm_up(manager: TableManager, game: str) -> None:
    """One batch of tables opened, then cancelled, before the count starts from 0: imports,
    caches, the ledger and the picture threads' heaps are the process's, not the tables'."""
    await open_tables(manager, game, 0, AT_ONCE)
    for item in manager.live():
        if isinstance(item, Table):
            await item.cancel("cancel.by_user")
            await item.outbox.drain()
    assert not manager.live()


def make_manager(ledger: Ledger, game: str) -> TableManager:
    spec = registry.spec_of(game)
    defaults = Defaults(turn_seconds=3_600, lobby_seconds=3_600, bot_delay=0.0)
    return TableManager(ledger, {game: spec.presenter(ForgetfulBot())}, defaults)  # type: ignore[arg-type]


async def measure(game: str, tables: int, top: int, arenas: bool) -> None:
    """One game in this process: RSS at 0, 100 and `tables` tables (and `top` allocations)."""
    if arenas:
        limit_arenas()  # as `python -m bot` does
    registry.load()
    with tempfile.TemporaryDirectory() as tmp:
        ledger = await open_ledger(f"sqlite:///{Path(tmp) / 'ledger.sqlite3'}")
        manager = make_manager(ledger, game)
        await warm_up(manager, game)
        base = rss_kb()
        if top:
            tracemalloc.start(1)
            before = tracemalloc.take_snapshot()
        marks = sorted({min(100, tables), tables})
        done = 0
        print(f"{game}: RSS with 0 idle tables {base / 1024:.1f} MB")
        for mark in marks:
            await open_tables(manager, game, AT_ONCE + done, mark - done)
            done = mark
            now = rss_kb()
            per = (now - base) / mark
            verdict = "met" if per < TARGET_KB else "NOT met"
            print(
                f"{game}: RSS with {mark:>5} idle tables {now / 1024:.1f} MB; "
                f"{per:.1f} KB per table (target < {TARGET_KB} KB: {verdict})"
            )
        if top:
            print_top(before, tracemalloc.take_snapshot(), done, top)
        await manager.shutdown()
        await ledger.close()


def print_top(before: Any, after: Any, tables: int, top: int) -> None:
    stats = after.compare_to(before, "lineno")
    traced = sum(s.size_diff for s in stats)
    print(f"tracemalloc: {traced / tables / 1024:.1f} KB per table traced; the largest:")
    for stat in stats[:top]:
        frame = stat.traceback[0]
        where = f"{Path(frame.filename).name}:{frame.lineno}"
        size, blocks = stat.size_diff / tables, stat.count_diff / tables
        print(f"  {size:>9,.0f} B  {blocks:>7.1f} blocks  {where}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1_000)
    parser.add_argument("--game", help="measure this game in this process")
    parser.add_argument("--games", default=",".join(GAMES), help="each in a child process")
    parser.add_argument("--top", type=int, default=0, help="the N largest allocations per table")
    parser.add_argument(
        "--all-arenas", action="store_true", help="leave glibc's malloc arenas as they are"
    )
    args = parser.parse_args()
    if args.game:
        asyncio.run(measure(args.game, args.tables, args.top, not args.all_arenas))
        return 0
    for game in args.games.split(","):
        command = [sys.executable, __file__, "--game", game, "--tables", str(args.tables)]
        if args.top:
            command += ["--top", str(args.top)]
        if args.all_arenas:
            command.append("--all-arenas")
        subprocess.run(command, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
