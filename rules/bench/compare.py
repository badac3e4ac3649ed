"""`python -m rules bench [GAME ...]`: this tree's engines raced against an older revision's."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from rules.bench.engines import (
    Engine,
    OldEngineUnavailable,
    current_engine,
    old_engine,
    resolve_revision,
)
from rules.bench.race import Progress, Rate, Workload, alternate, ratio, rounds_text
from rules.bench.workloads import (
    clone_apply_workload,
    cut_points,
    disagreements,
    playout_workload,
    positions,
    random_logs,
    replay_workload,
    rollout_workload,
    seat_names,
)
from rules.registry import game_class

# The target for random playouts, new / old: a search's rollout (`Game.playout`, the old
# engines' only way being the step loop). The step loop itself, what a table does with a
# timed-out turn, is printed beside it as "playout".
PLAYOUT_TARGET = 4.0
EXIT_DISAGREE = 1


@dataclass(frozen=True)
class Settings:
    games: tuple[str, ...]
    against: str
    seconds: float
    rounds: int
    seed: int
    logs: int


def run(settings: Settings, out: TextIO) -> int:
    """Print the race for each game; exit status 1 if the engines disagree on a log."""
    progress = Progress()
    new = current_engine()
    agree = True
    with tempfile.TemporaryDirectory(prefix="rules-bench-") as folder:
        old = _old_or_none(settings.against, Path(folder), out)
        for game in settings.games:
            agree &= bench_game(game, new, old, settings, progress, out)
    return 0 if agree else EXIT_DISAGREE


def _old_or_none(rev: str, folder: Path, out: TextIO) -> Engine | None:
    try:
        engine = old_engine(rev, folder)
    except OldEngineUnavailable as exc:
        print(f"old engine {rev}: unavailable ({exc}); benching the new engine alone", file=out)
        return None
    print(
        f"old = rules/ at {resolve_revision(rev)}, new = this tree; "
        "one process, rates per CPU second",
        file=out,
    )
    return engine


def bench_game(
    game: str,
    new: Engine,
    old: Engine | None,
    settings: Settings,
    progress: Progress,
    out: TextIO,
) -> bool:
    """The three races of one game; False if the engines judge a log differently."""
    maker = old or new
    progress.show(f"{game}: generating {settings.logs} logs")
    logs = random_logs(maker, game, settings.logs, settings.seed)
    progress.clear()
    order = "alternating old/new" if old else "new engine only"
    print(
        f"{game}, {len(seat_names(game))} players: {len(logs)} logs from random_match "
        f"({maker.label} engine, seed {settings.seed}); {rounds_text(settings.rounds)} of "
        f"{settings.seconds:g} s, {order}",
        file=out,
    )
    if old is not None:
        progress.show(f"{game}: checking that both engines judge the logs alike")
        differ = disagreements(old, new, logs)
        progress.clear()
        if differ:
            # A faster engine that judges differently proves nothing: no timings then.
            print(
                f"  DISAGREE: old and new replay answers differ on {len(differ)} of "
                f"{len(logs)} logs (first: log {differ[0]}); no timings",
                file=out,
            )
            return False
    engines = [engine for engine in (old, new) if engine is not None]

    def race(title: str, workloads: Sequence[tuple[str, Workload]]) -> dict[str, Rate]:
        return alternate(workloads, settings.rounds, settings.seconds, progress, f"{game} {title}")

    replays = race("replay", [(e.label, replay_workload(e, logs)) for e in engines])
    print(_line("replay", "logs/s", replays, game_class(game).bench_replay_target), file=out)
    playouts = race(
        "playout", [(e.label, playout_workload(e, game, settings.seed)) for e in engines]
    )
    print(_line("playout", "games/s", playouts, None), file=out)
    rollouts = race(
        "rollout", [(e.label, rollout_workload(e, game, settings.seed)) for e in engines]
    )
    print(_line("rollout", "games/s", rollouts, PLAYOUT_TARGET), file=out)
    cuts = cut_points(logs, settings.seed)
    cloning = [
        (e.label, clone_apply_workload(positions(e, logs, cuts, settings.seed)))
        for e in engines
        if hasattr(e.start(logs[0]), "clone")
    ]
    print(_line("clone+apply", "/s", race("clone+apply", cloning), None), file=out)
    return True


def _line(name: str, unit: str, rates: dict[str, Rate], target: float | None) -> str:
    figures = "   ".join(
        f"{label} {rate.per_second:>9,.0f} {unit:<7}" for label, rate in rates.items()
    )
    text = f"  {name:<12} {figures}"
    if "old" in rates and "new" in rates:
        gain = ratio(rates["new"], rates["old"])
        text += f"  x{gain.overall:.2f} (rounds x{gain.low:.2f}-{gain.high:.2f})"
        if target is not None:
            text += f"  target >= {target:g}x: {'met' if gain.overall >= target else 'not met'}"
    elif target is not None:
        text += f"  (target >= {target:g}x needs the old engine)"
    return text.rstrip()
