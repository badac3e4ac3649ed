"""`python -m rules replay FILE|-` and `python -m rules bench GAME`."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from rules.agents import random_action
from rules.base import RulesError
from rules.log import LogError, UnsupportedGame, load, new_header, result, start
from rules.registry import GAMES, PLANNED_GAMES

EXIT_BAD_LOG = 2

BENCH_PLAYERS = {"kamiza": 4, "kobayakawa": 5, "rights-of-losers": 4}


def _fail(message: str) -> int:
    print(message.replace("\n", " "), file=sys.stderr)
    return EXIT_BAD_LOG


def replay_command(path: str) -> int:
    """Print the replay answer of LOG_FORMAT.md, or one line on stderr and exit status 2."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as file:
                text = file.read()
    except OSError as exc:
        return _fail(f"log: cannot read {path}: {exc.strerror}")
    try:
        log = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return _fail(f"log: not valid JSON: {exc}")
    try:
        state = load(log)
    except UnsupportedGame as exc:
        return _fail(f"log: {exc}")
    except LogError as exc:
        return _fail(str(exc))
    except RulesError as exc:
        return _fail(f"log: {exc}")
    print(json.dumps(result(state), ensure_ascii=False))
    return 0


def bench_command(game: str, seconds: float, seed: int) -> int:
    """Random full games per second on one core."""
    if game not in GAMES:
        return _fail(
            f"{game}: not supported yet" if game in PLANNED_GAMES else f"unknown game {game!r}"
        )
    players = [f"p{i}" for i in range(BENCH_PLAYERS.get(game, 4))]
    rng = random.Random(seed)
    games = actions = 0
    begin = time.perf_counter()
    deadline = begin + seconds
    while time.perf_counter() < deadline:
        state = start(new_header(game, players, seed=rng.randrange(2**32)))
        while (nxt := state.next()) is not None:
            state.apply(nxt.player, random_action(state, nxt.player, rng))
            actions += 1
        games += 1
    elapsed = time.perf_counter() - begin
    print(f"{game}: {games} random full games in {elapsed:.2f} s on one core")
    print(f"{game}: {games / elapsed:,.0f} games/s, {actions / elapsed:,.0f} actions/s")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="re-judge a game log (LOG_FORMAT.md)")
    rp.add_argument("file", help="the log file, or - for standard input")
    bp = sub.add_parser("bench", help="random full games per second")
    bp.add_argument("game", choices=sorted(GAMES.keys() | PLANNED_GAMES))
    bp.add_argument("--seconds", type=float, default=3.0)
    bp.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.command == "replay":
        return replay_command(args.file)
    return bench_command(args.game, args.seconds, args.seed)


if __name__ == "__main__":
    sys.exit(main())
