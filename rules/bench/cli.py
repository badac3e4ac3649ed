"""The options of `python -m rules bench` and which benchmark they run.

`python -m rules` builds its parser with these options for every command, `replay` included: so
this module imports nothing heavy, and each benchmark's module is imported only when it runs.
"""

from __future__ import annotations

import argparse
import sys

from rules.bench.external import external_races
from rules.registry import GAMES, PLANNED_GAMES

EXIT_USAGE = 2
DEFAULT_REVISION = "06bca01"  # the engines before the "Rules core" rewrite
# The races against other projects' engines that the games offer: one option each.
RACES = external_races((name, cls.__module__) for name, cls in GAMES.items())


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "games", nargs="*", metavar="GAME", help=f"games to bench (default: {', '.join(GAMES)})"
    )
    parser.add_argument(
        "--against",
        default=DEFAULT_REVISION,
        metavar="REV",
        help=f"git revision of the old engines to race (default {DEFAULT_REVISION})",
    )
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per engine and race")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--logs", type=int, default=100, help="logs per game to replay")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--memory",
        type=int,
        metavar="N",
        help="write N random logs to a temporary JSONL file, replay it streaming, print peak RSS",
    )
    mode.add_argument(
        "--jsonl", metavar="FILE", help="replay a JSONL file of logs streaming, print peak RSS"
    )
    for race in RACES:
        mode.add_argument(race.option, dest=race.engine, metavar="PATH", help=race.help)


def run_bench(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except KeyboardInterrupt:  # temporary folders are gone already (context managers)
        print("\nbench: interrupted", file=sys.stderr)
        return 130


def _run(args: argparse.Namespace) -> int:
    games: list[str] = args.games or list(GAMES)
    for game in games:
        if game not in GAMES:
            known = "not supported yet" if game in PLANNED_GAMES else "unknown game"
            print(f"{game}: {known}", file=sys.stderr)
            return EXIT_USAGE
    if args.seconds <= 0 or args.rounds < 1 or args.logs < 1:
        print("bench: --seconds, --rounds and --logs must be positive", file=sys.stderr)
        return EXIT_USAGE
    if args.jsonl is not None:
        from rules.bench.memory import replay_jsonl

        return replay_jsonl(args.jsonl, sys.stdout)
    if args.memory is not None:
        from rules.bench.memory import memory_check

        return memory_check(games, args.memory, args.seed, sys.stdout)
    for race in RACES:
        path = getattr(args, race.engine)
        if path is not None:
            return race.run(path, args.rounds, args.seconds, args.seed, sys.stdout)
    from rules.bench.compare import Settings, run

    settings = Settings(
        games=tuple(games),
        against=args.against,
        seconds=args.seconds,
        rounds=args.rounds,
        seed=args.seed,
        logs=args.logs,
    )
    return run(settings, sys.stdout)
