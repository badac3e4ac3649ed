"""`python -m ai arena --game G --seats hard,normal,normal,normal --games N --seed 1
[--budget-ms N] [--iterations N] [--jobs N] [--logs out.jsonl]`, `python -m ai
train-kobayakawa [--hard] [--iterations N] [--seed S]` and `python -m ai train-kamiza [--games N]
[--seed S]` (README: Computer players)."""

from __future__ import annotations

import argparse
import contextlib
import sys
from dataclasses import replace
from pathlib import Path

from ai.arena import ArenaConfig, report, run_arena
from ai.kamiza_model import TABLE_PATH as KAMIZA_TABLE_PATH
from ai.kamiza_model import TRAINING_GAMES, TRAINING_SEED
from ai.kamiza_training import count_choices, write_counts
from ai.kobayakawa_cfr import TABLE_PATH, TRAINING_ITERATIONS, train, write_table
from ai.kobayakawa_response import (
    RESPONSE_ITERATIONS,
    RESPONSE_PATH,
    train_response,
    write_response,
)
from ai.levels import DEFAULT_BUDGET_MS, LEVELS
from rules.registry import GAMES


def _seats(text: str) -> tuple[str, ...]:
    seats = tuple(part.strip() for part in text.split(","))
    unknown = [s for s in seats if s not in LEVELS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown level {unknown[0]!r}; one of {LEVELS}")
    return seats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    arena = sub.add_parser("arena", help="computer players against each other, with figures")
    arena.add_argument("--game", required=True, choices=sorted(GAMES))
    arena.add_argument("--seats", required=True, type=_seats, help="levels, one per seat")
    arena.add_argument("--games", type=int, default=100)
    arena.add_argument("--seed", type=int, default=1)
    arena.add_argument("--budget-ms", type=float, default=DEFAULT_BUDGET_MS, help="hard's time")
    arena.add_argument(
        "--iterations", type=int, default=None, help="hard's fixed iterations (reproducible)"
    )
    arena.add_argument("--jobs", type=int, default=1)
    arena.add_argument("--logs", default=None, help="write each game's log as a JSON line")
    trainer = sub.add_parser("train-kobayakawa", help="train Kobayakawa's CFR table (offline)")
    trainer.add_argument(
        "--hard", action="store_true", help="hard's draw table: a best response to normal's"
    )
    trainer.add_argument("--iterations", type=int, default=None)
    trainer.add_argument("--seed", type=int, default=1)
    trainer.add_argument("--out", default=None)
    counter = sub.add_parser("train-kamiza", help="count normal's KAMIZA choices (offline)")
    counter.add_argument("--games", type=int, default=TRAINING_GAMES)
    counter.add_argument("--seed", type=int, default=TRAINING_SEED)
    counter.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    if args.command == "train-kobayakawa":
        return _train_kobayakawa(args)
    if args.command == "train-kamiza":
        out = Path(args.out or KAMIZA_TABLE_PATH)
        counts = count_choices(args.games, args.seed)
        write_counts(counts, out)
        print(f"{len(counts)} contexts written to {out}")
        return 0
    cls = GAMES[args.game]
    if not cls.min_players <= len(args.seats) <= cls.max_players:
        parser.error(f"{args.game} takes {cls.min_players} to {cls.max_players} seats")
    config = ArenaConfig(args.game, args.seats, args.games, args.seed, args.budget_ms)
    config = replace(config, iterations=args.iterations, jobs=args.jobs)
    with contextlib.ExitStack() as stack:
        logs = None
        if args.logs:
            logs = stack.enter_context(open(args.logs, "w", encoding="utf-8"))
        summary = run_arena(config, logs)
    print(report(summary))
    return 0


def _train_kobayakawa(args: argparse.Namespace) -> int:
    """`normal`'s CFR table, or with `--hard` the draw table `hard` plays against it."""
    table: dict[str, float] | dict[str, int]
    if args.hard:
        out = Path(args.out or RESPONSE_PATH)
        response = train_response(args.iterations or RESPONSE_ITERATIONS, args.seed)
        write_response(response, out)
        table = response
    else:
        out = Path(args.out or TABLE_PATH)
        table = train(args.iterations or TRAINING_ITERATIONS, args.seed)
        write_table(table, out)
    print(f"{len(table)} information sets written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
