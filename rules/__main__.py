"""`python -m rules replay FILE|-` and `python -m rules bench [GAME ...]` (see rules/bench/).

`replay` knows the games `EXTRA_GAMES` adds (`rules.plugins`), read as the bot reads it.
"""

from __future__ import annotations

import argparse
import json
import sys

from rules.base import RulesError
from rules.log import LogError, UnsupportedGame, load, result
from rules.plugins import PluginError, load_configured_rules

EXIT_BAD_LOG = 2


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
        load_configured_rules()
    except PluginError as exc:
        return _fail(str(exc))
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="re-judge a game log (LOG_FORMAT.md)")
    rp.add_argument("file", help="the log file, or - for standard input")
    bp = sub.add_parser(
        "bench", help="engine speed against an older revision, and memory (README: Benchmarks)"
    )
    # Imported here: the benchmark runs git and child processes, `replay` needs none of it.
    from rules.bench.cli import add_arguments, run_bench

    add_arguments(bp)
    args = parser.parse_args(argv)
    if args.command == "replay":
        return replay_command(args.file)
    return run_bench(args)


if __name__ == "__main__":
    sys.exit(main())
