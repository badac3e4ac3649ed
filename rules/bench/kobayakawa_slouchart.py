"""`python -m rules bench --slouchart PATH`: our Kobayakawa raced against slouchart/kobayakawa.

slouchart/kobayakawa is a public Python implementation of the game. Its checkout is imported
in-process from PATH (nothing of it is copied here) and driven the way its own `game_stats.py`
does: a `GameEngine`, four `agents.random.KobayakawaRandom` players (a random legal move, then a
random card to keep), `start_game` with a random first player. Its package `agents/__init__.py`
also imports its Tk and console agents, so only `agents.player` and `agents.random` are loaded.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import random
import subprocess
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from rules.bench.engines import current_engine
from rules.bench.race import Progress, Unit, Workload, alternate, ratio, rounds_text
from rules.bench.workloads import playout_workload, round_seed, seat_names

GAME = "kobayakawa"
TARGET = 2.5
STATS_GAMES = 500
# Read from its code: why a "game" is not quite the same work on both engines.
DIFFERENCES = (
    "not the same games: slouchart's random agent covers the Kobayakawa with p=1/2 (ours: 1/3,",
    "uniform over the three draw actions), plays its agents' moves unchecked (ours checks each",
    "action), always plays 7 rounds (ours stops when fewer than 2 are in, B-7) and gives an",
    "unfought round's centre kamon to the last player (ours: back to the box, B-6)",
)


class SlouchartUnavailable(Exception):
    """PATH is not a checkout of slouchart/kobayakawa that can be imported."""


@dataclass(frozen=True)
class Slouchart:
    """The parts of slouchart/kobayakawa the race uses."""

    engine_class: Any  # engine.kobayakawa.GameEngine
    random_agent: Any  # agents.random.KobayakawaRandom
    observer_class: Any  # engine.events.GameObserver
    events: Any  # engine.events.GameEventTypes
    version: str

    def play(self, names: list[str]) -> Any:
        """One whole game, as `game_stats.run_trial` plays one."""
        game = self.engine_class()
        for name in names:
            game.attach_player(self.random_agent(game, name))
        game.start_game(random.choice(game.players_by_name))
        return game


def load_slouchart(path: str) -> Slouchart:
    root = Path(path).resolve()
    if not (root / "engine" / "kobayakawa.py").is_file():
        raise SlouchartUnavailable(f"{root} has no engine/kobayakawa.py")
    for name in ("engine", "agents"):
        if name in sys.modules:
            raise SlouchartUnavailable(f"a module named {name!r} is already imported")
    sys.path.insert(0, str(root))
    # A bare `agents` package: its __init__ would import the Tk and console agents.
    agents = types.ModuleType("agents")
    agents.__path__ = [str(root / "agents")]
    sys.modules["agents"] = agents
    writing, sys.dont_write_bytecode = sys.dont_write_bytecode, True  # leave the checkout as is
    try:
        engine = importlib.import_module("engine.kobayakawa")
        events = importlib.import_module("engine.events")
        agent = importlib.import_module("agents.random")
    except ImportError as exc:
        raise SlouchartUnavailable(f"cannot import it: {exc}") from None
    finally:
        sys.dont_write_bytecode = writing
    return Slouchart(
        engine.GameEngine,
        agent.KobayakawaRandom,
        events.GameObserver,
        events.GameEventTypes,
        _commit(root),
    )


def _commit(root: Path) -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return "unknown commit"
    return done.stdout.strip() if done.returncode == 0 else "unknown commit"


def slouchart_workload(theirs: Slouchart, seed: int) -> Workload:
    names = seat_names(GAME)

    def for_round(number: int) -> Unit:
        random.seed(round_seed(seed, number))  # its deck and agents use the global RNG

        def unit() -> object:
            return theirs.play(names)

        return unit

    return for_round


@dataclass(frozen=True)
class PerGame:
    """Averages over untimed games: how much play one "game" is on each engine."""

    rounds: float
    decisions: float  # draw-phase and fight-phase choices
    covers: float  # draw-phase choices that replaced the Kobayakawa
    fights: float  # fight-phase choices that bet
    out: float  # players who lost their last kamon


def our_per_game(games: int, seed: int) -> PerGame:
    engine = current_engine()
    totals = dict.fromkeys(("rounds", "decisions", "covers", "fights", "out"), 0)
    rng = random.Random(seed)
    for _ in range(games):
        _, log = engine.random_match(GAME, seat_names(GAME), rng.randrange(2**32))
        answer = engine.result(engine.load(log))
        kinds = [entry["action"] for entry in log["actions"]]
        totals["rounds"] += answer["round"]
        totals["decisions"] += len(kinds)
        totals["covers"] += kinds.count("kobayakawa")
        totals["fights"] += kinds.count("fight")
        totals["out"] += len(answer["out"])
    return PerGame(**{key: value / games for key, value in totals.items()})


def their_per_game(theirs: Slouchart, games: int, seed: int) -> PerGame:
    """Counted through its own event observers, removed again before anything is timed."""
    kinds = theirs.events
    counted = {
        kinds.TURN_WINNER: ("rounds",),
        kinds.PLAYER_OFF: ("out",),
        kinds.PLAYER_ACTION_DISCARD: ("decisions",),
        kinds.PLAYER_ACTION_FOLD: ("decisions",),
        kinds.PLAYER_ACTION_COVER: ("decisions", "covers"),
        kinds.PLAYER_ACTION_BET: ("decisions", "fights"),
    }
    totals = dict.fromkeys(("rounds", "decisions", "covers", "fights", "out"), 0)

    def seen(name: str, *data: object) -> None:
        for key in counted[name]:
            totals[key] += 1

    observer = theirs.observer_class()
    for kind in counted:
        observer.observe(kind, seen)
    random.seed(seed)
    try:
        for _ in range(games):
            theirs.play(seat_names(GAME))
    finally:
        theirs.observer_class.observers.remove(observer)
    return PerGame(**{key: value / games for key, value in totals.items()})


def race_slouchart(path: str, rounds: int, seconds: float, seed: int, out: TextIO) -> int:
    try:
        theirs = load_slouchart(path)
    except SlouchartUnavailable as exc:
        print(f"slouchart: {exc}", file=out)
        return 2
    progress = Progress()
    ours = playout_workload(current_engine(), GAME, seed)
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        progress.show("slouchart: counting rounds and decisions")
        mine, its = our_per_game(STATS_GAMES, seed), their_per_game(theirs, STATS_GAMES, seed)
        rates = alternate(
            [("ours", ours), ("slouchart", slouchart_workload(theirs, seed))],
            rounds,
            seconds,
            progress,
            "kobayakawa vs slouchart",
        )
    gain = ratio(rates["ours"], rates["slouchart"])
    print(
        f"kobayakawa vs slouchart/kobayakawa at {theirs.version} ({path}): "
        f"{len(seat_names(GAME))} players, random legal play;\n  {rounds_text(rounds)} of "
        f"{seconds:g} s each, alternating in one process, rates per CPU second",
        file=out,
    )
    for label in ("ours", "slouchart"):
        print(f"  {label:<10} {rates[label].per_second:>8,.0f} games/s", file=out)
    verdict = "met" if gain.overall >= TARGET else "not met"
    print(
        f"  ratio      x{gain.overall:.2f} (rounds x{gain.low:.2f}-{gain.high:.2f})  "
        f"target >= {TARGET:g}x: {verdict}",
        file=out,
    )
    print(f"  one game, averaged over {STATS_GAMES} untimed games of each:", file=out)
    print("               rounds  decisions  covers  fights  players out", file=out)
    for label, per_game in (("ours", mine), ("slouchart", its)):
        print(
            f"  {label:<10} {per_game.rounds:>7.2f} {per_game.decisions:>10.1f} "
            f"{per_game.covers:>7.1f} {per_game.fights:>7.1f} {per_game.out:>12.2f}",
            file=out,
        )
    for line in DIFFERENCES:
        print(f"  {line}", file=out)
    return 0
