"""`python -m ai arena`: computer players of given levels play each other; prints figures.

Seat k of `--seats` plays as `<level>-<k>` and sits at position (k + i) mod n in game i, so
every level plays every position equally often. Each finished game is one line of LOG_FORMAT.md
JSON (`rules.log.new_header` and the actions as logged), which `python -m rules replay`
re-judges. Game i is drawn from seed `seed * 1_000_003 + i`, whatever the number of jobs.
"""

from __future__ import annotations

import json
import random
import resource
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import IO, Any

from ai.infoset import Agent, decide
from ai.levels import make_agent
from ai.stats import percentile, share
from rules.log import new_header, start


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    game: str
    seats: tuple[str, ...]
    games: int
    seed: int = 1
    budget_ms: float = 300
    iterations: int | None = None  # `hard`'s fixed iterations instead of the time budget
    jobs: int = 1


@dataclass(slots=True)
class GameRecord:
    """One finished game: its log, each seat's share of the win, each level's decision times."""

    log: dict[str, Any]
    shares: dict[str, float]
    times_ms: dict[str, list[float]]
    peak_rss_mb: float


@dataclass(slots=True)
class Summary:
    config: ArenaConfig
    shares: dict[str, list[float]] = field(default_factory=dict)  # level -> a value per seat
    times_ms: dict[str, list[float]] = field(default_factory=dict)
    peak_rss_mb: float = 0.0

    def add(self, record: GameRecord) -> None:
        for player, value in record.shares.items():
            self.shares.setdefault(level_of(player), []).append(value)
        for level, times in record.times_ms.items():
            self.times_ms.setdefault(level, []).extend(times)
        self.peak_rss_mb = max(self.peak_rss_mb, record.peak_rss_mb)


def level_of(player: str) -> str:
    return player.rsplit("-", 1)[0]


def seating(seats: Sequence[str], index: int) -> list[str]:
    """Game `index`'s players, clockwise: seat k (`<level>-<k>`) at position (k + index) mod n."""
    n = len(seats)
    names = [f"{level}-{k}" for k, level in enumerate(seats)]
    order = [""] * n
    for k, name in enumerate(names):
        order[(k + index) % n] = name
    return order


def game_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def play_game(config: ArenaConfig, index: int) -> GameRecord:
    """Game `index` of the arena, played to its end."""
    seed = game_seed(config.seed, index)
    players = seating(config.seats, index)
    log = new_header(config.game, players, seed=seed, keep_seating=True)
    state = start(log)
    cls = type(state)
    agents: dict[str, Agent] = {
        player: make_agent(
            level_of(player),
            config.game,
            budget_ms=config.budget_ms,
            iterations=config.iterations,
        )
        for player in players
    }
    rng = random.Random(seed ^ 0x5EED)
    times: dict[str, list[float]] = {}
    while (nxt := state.next()) is not None:
        player = nxt.player
        began = time.perf_counter()
        action = decide(state, player, agents[player], rng)
        times.setdefault(level_of(player), []).append((time.perf_counter() - began) * 1000)
        state.apply(player, action)
        log["actions"].append({"player": player, **cls.action_json(action)})
    winners = state.winners()
    shares = {p: (1 / len(winners) if p in winners else 0.0) for p in players}
    return GameRecord(log, shares, times, peak_rss_mb())


def peak_rss_mb() -> float:
    """This process's peak resident memory (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _play_indexed(args: tuple[ArenaConfig, int]) -> GameRecord:
    return play_game(*args)


def records(config: ArenaConfig) -> Iterator[GameRecord]:
    """Every game's record, in game order (`jobs` worker processes; 1: this process)."""
    work = [(config, index) for index in range(config.games)]
    if config.jobs <= 1:
        yield from map(_play_indexed, work)
        return
    with ProcessPoolExecutor(max_workers=config.jobs) as pool:
        yield from pool.map(_play_indexed, work)


def run_arena(config: ArenaConfig, logs: IO[str] | None = None) -> Summary:
    """Play the arena's games, writing each log as one JSON line to `logs`."""
    summary = Summary(config)
    for record in records(config):
        summary.add(record)
        if logs is not None:
            logs.write(json.dumps(record.log, ensure_ascii=False, separators=(",", ":")) + "\n")
    return summary


def report(summary: Summary) -> str:
    """The figures the arena prints: per level, the win share per seat with its 95 % interval,
    and decision times; then the peak worker memory."""
    config = summary.config
    n = len(config.seats)
    budget = f"{config.iterations} iterations" if config.iterations else f"{config.budget_ms:g} ms"
    lines = [
        f"{config.game}: {config.games} games, seats {','.join(config.seats)}, "
        f"hard budget {budget}, fair share {1 / n:.1%}",
        f"{'level':<8}{'seats':>6}{'win/seat':>10}{'95% interval':>17}"
        f"{'decisions':>11}{'p50 ms':>9}{'p99 ms':>9}",
    ]
    for level in dict.fromkeys(config.seats):
        won = share(summary.shares.get(level, []))
        times = summary.times_ms.get(level, [])
        lines.append(
            f"{level:<8}{config.seats.count(level):>6}{won.mean:>10.1%}"
            f"{f'{won.low:.1%} - {won.high:.1%}':>17}{len(times):>11}"
            f"{percentile(times, 0.5):>9.1f}{percentile(times, 0.99):>9.1f}"
        )
    lines.append(f"peak worker memory: {summary.peak_rss_mb:.0f} MB")
    return "\n".join(lines)
