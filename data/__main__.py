"""`python -m data export|check|bench --db URL`: the ledger from the command line.

- export: game logs as JSON lines, each a LOG_FORMAT.md document plus `id`, `guild`, `status`
  and the stored `results` (games still in the lobby have no log and are skipped).
- check: SQLite integrity and foreign keys (on PostgreSQL, finished games with results), gap-free
  action sequences, then every finished game replayed through `rules` against its stored
  results (running games must replay too). Exit status 1 and one line per game that disagrees
  (`game ID: reason`) on standard output. The games `EXTRA_GAMES` adds are known, read as the
  bot reads it (`rules.plugins`).
- bench: durable appends per second from 1, 16 and 200 tables at once, and leaderboard query
  times, on 100,000 finished games of one game (`--game`; by default the first registered one),
  on SQLite or on an empty (or bench) PostgreSQL database (`data/bench.py`).
- copy: a SQLite ledger into a PostgreSQL one (`data/copy.py`), then `check` on the copy.

A bad URL, a bad `EXTRA_GAMES`, a ledger that cannot be opened (no such file, an unreachable
server, refused credentials, a newer schema) or a refused copy: one line on standard error, exit
status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from data.backends import open_ledger
from data.errors import LedgerError
from data.ratings import competition_ranks
from data.store import DEFAULT_URL, GameRecord, Ledger
from data.urls import check_url, is_postgres, parse_url, redact_url
from rules.base import RulesError
from rules.log import load
from rules.plugins import PluginError, load_configured_rules

EXIT_PROBLEMS = 1
EXIT_USAGE = 2


def export_document(record: GameRecord) -> dict[str, Any] | None:
    log = record.log()
    if log is None:
        return None
    return {
        **log,
        "id": record.id,
        "guild": record.guild_id,
        "status": record.status,
        "results": [r.to_json() for r in record.results],
    }


def disagreement(record: GameRecord) -> str | None:
    """Why a game's stored results (or log) disagree with a replay, or None if they agree."""
    try:
        state = load(record.log() or {})
    except RulesError as exc:
        return f"the log does not replay: {exc}"
    if record.status != "finished":
        return None
    if not state.over:
        return "finished, but the replayed game is not over"
    scores, winners = state.scores(), set(state.winners())
    ranks = competition_ranks(state.ranking())
    stored = {r.player: r for r in record.results}
    if set(stored) != set(state.players):
        return f"results for {sorted(stored)}, players {sorted(state.players)}"
    for player in state.players:
        row = stored[player]
        replayed = (scores[player], ranks[player], player in winners)
        if (row.score, row.rank, row.winner) != replayed:
            return (
                f"player {player}: stored score/rank/winner {row.score}/{row.rank}/{row.winner},"
                f" replayed {replayed[0]}/{replayed[1]}/{replayed[2]}"
            )
    return None


async def export(ledger: Ledger, guild_id: int | None, game_id: int | None) -> int:
    async for record in ledger.iter_games(guild_id=guild_id, game_id=game_id):
        doc = export_document(record)
        if doc is not None:
            sys.stdout.write(json.dumps(doc, ensure_ascii=False) + "\n")
    return 0


async def check(ledger: Ledger) -> int:
    problems = await ledger.integrity_problems()
    for problem in problems:
        print(f"integrity: {problem}")
    checked, bad = 0, []
    for status in ("finished", "running"):
        async for record in ledger.iter_games(status=status):
            checked += status == "finished"
            reason = disagreement(record)
            if reason is not None:
                bad.append(record.id)
                print(f"game {record.id}: {reason}")
    verdict = "ok" if not (problems or bad) else "PROBLEMS"
    print(
        f"{verdict}: integrity {'ok' if not problems else 'failed'}; {checked} finished games"
        f" replayed; {len(bad)} disagree" + (f": {' '.join(map(str, bad))}" if bad else ""),
        file=sys.stderr,
    )
    return EXIT_PROBLEMS if problems or bad else 0


async def copy_then_check(source: str, target: str, force: bool) -> int:
    from data.copy import copy_ledger

    print(await copy_ledger(source, target, force=force), file=sys.stderr)
    return await _with_ledger(target, "check", argparse.Namespace())


async def _with_ledger(url: str, command: str, args: argparse.Namespace) -> int:
    ledger = await open_ledger(url)
    try:
        if command == "export":
            return await export(ledger, args.guild, args.game)
        return await check(ledger)
    finally:
        await ledger.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m data", description=__doc__.splitlines()[0])
    default_db = os.environ.get("DATABASE_URL", DEFAULT_URL)
    sub = parser.add_subparsers(dest="command", required=True)
    exp = sub.add_parser("export", help="game logs as JSON lines")
    exp.add_argument("--db", default=default_db, help="ledger URL (default: $DATABASE_URL)")
    exp.add_argument("--game", type=int, help="only this game id")
    exp.add_argument("--guild", type=int, help="only this guild's games")
    chk = sub.add_parser("check", help="integrity check and replay of every finished game")
    chk.add_argument("--db", default=default_db, help="ledger URL (default: $DATABASE_URL)")
    bench = sub.add_parser("bench", help="durable appends/s and leaderboard query time")
    bench.add_argument("--db", help="ledger URL (default: a reusable file in the temp dir)")
    bench.add_argument("--game", help="the game it plays (default: the first registered one)")
    bench.add_argument("--games", type=int, default=100_000, help="finished games in the ledger")
    bench.add_argument(
        "--appends", type=int, default=10_000, help="appends to time at each number of tables"
    )
    bench.add_argument("--queries", type=int, default=300, help="leaderboard pages to time")
    cpy = sub.add_parser("copy", help="copy a SQLite ledger into PostgreSQL, then check it")
    cpy.add_argument("--from", dest="source", required=True, help="sqlite:///path (only read)")
    cpy.add_argument("--to", dest="db", required=True, help="postgresql://user@host/database")
    cpy.add_argument("--force", action="store_true", help="replace a ledger the target holds")
    args = parser.parse_args(argv)

    for option, url in (("--from", getattr(args, "source", None)), ("--db", args.db)):
        if url is None:
            continue
        try:
            check_url(url)
        except ValueError as exc:
            print(
                f"{args.command}: {option}={redact_url(url)!r} is invalid: {exc}", file=sys.stderr
            )
            return EXIT_USAGE
    try:
        if args.command == "bench":
            from data.bench import run

            return run(
                args.db,
                game=args.game,
                games=args.games,
                appends=args.appends,
                queries=args.queries,
            )
        if args.command in ("check", "copy"):
            load_configured_rules()
        if args.command == "copy":
            return asyncio.run(copy_then_check(args.source, args.db, args.force))
        if not is_postgres(args.db) and not os.path.exists(path := parse_url(args.db).path):
            print(f"{args.command}: no ledger at {path}", file=sys.stderr)
            return EXIT_USAGE
        return asyncio.run(_with_ledger(args.db, args.command, args))
    except (LedgerError, PluginError) as exc:  # one line naming what is wrong
        print(f"{args.command}: {exc}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
