"""What is timed, for one game and one engine: replaying logs, random playouts, clone + apply.

Every workload goes through the public entry points only (`Engine`), so that the same code
measures today's engines and their rewrites.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.bench.engines import Engine, Log
from rules.bench.race import Unit, Workload
from rules.registry import game_class


def seat_names(game: str) -> list[str]:
    return [f"p{i}" for i in range(game_class(game).bench_players)]


def round_seed(seed: int, number: int) -> int:
    """The same seed for round `number` of every contestant (-1 is the warm-up)."""
    return seed * 1_000_003 + number + 1


def random_logs(engine: Engine, game: str, count: int, seed: int) -> list[dict[str, Any]]:
    """`count` complete logs of random legal play, reproducible from `seed`."""
    rng = random.Random(seed)
    players = seat_names(game)
    return [engine.random_match(game, players, rng.randrange(2**32))[1] for _ in range(count)]


def replay_workload(engine: Engine, logs: Sequence[Log]) -> Workload:
    """Rebuild a whole log with every legality check (`rules.log.load`), the logs in turn."""

    def for_round(number: int) -> Unit:
        cursor = iter(range(1 << 62))

        def unit() -> object:
            return engine.load(logs[next(cursor) % len(logs)])

        return unit

    return for_round


def playout_workload(engine: Engine, game: str, seed: int) -> Workload:
    """A whole game from a fresh header, every action drawn by `random_action`."""
    return _random_games(engine, game, seed, quick=False)


def rollout_workload(engine: Engine, game: str, seed: int) -> Workload:
    """The games of `playout_workload`, each played by the state's own `playout(rng)` (a search's
    rollout: the same draws and the same end, no events built), or by the step loop for an engine
    without one."""
    return _random_games(engine, game, seed, quick=True)


def _random_games(engine: Engine, game: str, seed: int, *, quick: bool) -> Workload:
    players = seat_names(game)

    def for_round(number: int) -> Unit:
        rng = random.Random(round_seed(seed, number))

        def unit() -> object:
            header = engine.new_header(game, players, seed=rng.randrange(2**32))
            state = engine.start(header)
            playout = getattr(state, "playout", None) if quick else None
            if playout is not None:
                playout(rng)
                return state
            while (nxt := state.next()) is not None:
                state.apply(nxt.player, engine.random_action(state, nxt.player, rng))
            return state

        return unit

    return for_round


@dataclass(frozen=True)
class Position:
    """A mid-game state, whose turn it is, and one random legal action for that player."""

    state: Any
    player: str
    action: Any


def cut_points(logs: Sequence[Log], seed: int) -> list[int]:
    """For each log, how many of its actions lead to a mid-game state (never the end)."""
    rng = random.Random(seed)
    return [rng.randrange(len(log["actions"])) if log["actions"] else 0 for log in logs]


def positions(
    engine: Engine, logs: Sequence[Log], cuts: Sequence[int], seed: int
) -> list[Position]:
    """The states after `cuts[i]` actions of `logs[i]`, rebuilt by `engine`."""
    rng = random.Random(seed)
    found: list[Position] = []
    for log, cut in zip(logs, cuts, strict=True):
        state = engine.load({**log, "actions": log["actions"][:cut]})
        nxt = state.next()
        if nxt is None:
            continue
        action = engine.random_action(state.clone(), nxt.player, rng)
        found.append(Position(state, nxt.player, action))
    return found


def clone_apply_workload(found: Sequence[Position]) -> Workload:
    """Copy a mid-game state and apply one legal action to the copy: one step of a search."""

    def for_round(number: int) -> Unit:
        cursor = iter(range(1 << 62))

        def unit() -> object:
            position = found[next(cursor) % len(found)]
            return position.state.clone().apply(position.player, position.action)

        return unit

    return for_round


def replay_answer(engine: Engine, log: Log) -> dict[str, Any] | str:
    """The replay answer of LOG_FORMAT.md, or the error raised instead."""
    try:
        return engine.result(engine.load(log))
    except Exception as exc:  # an engine under construction may fail anywhere: report it
        return f"{type(exc).__name__}: {exc}"


def disagreements(old: Engine, new: Engine, logs: Sequence[Log]) -> list[int]:
    """Indexes of the logs whose replay answer differs between the engines."""
    return [
        index
        for index, log in enumerate(logs)
        if replay_answer(old, log) != replay_answer(new, log)
    ]
