"""Time-boxed rounds, alternated between contestants in one process, and their rates.

Timings on a shared machine drift (other processes, CPU frequency): rounds are timed in this
process's CPU time, not wall time, so that the time other processes hold the CPU is not counted;
alternating short rounds of each contestant spreads what drift remains over both, and the spread
of the per-round ratios shows how far one figure can be trusted.
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

Unit = Callable[[], object]
# Round number -> the unit of work to repeat during that round (a fresh cursor or RNG per round,
# so that every contestant starts round r from the same place).
Workload = Callable[[int], Unit]


@dataclass(frozen=True)
class Sample:
    count: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.count / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class Rate:
    """All rounds of one contestant: units done over time spent."""

    samples: tuple[Sample, ...]

    @property
    def per_second(self) -> float:
        seconds = sum(sample.seconds for sample in self.samples)
        return sum(sample.count for sample in self.samples) / seconds if seconds > 0 else 0.0


@dataclass(frozen=True)
class Ratio:
    """`new / old` over all rounds, and its lowest and highest value over single rounds."""

    overall: float
    low: float
    high: float


def ratio(new: Rate, old: Rate) -> Ratio:
    per_round = [
        n.per_second / o.per_second
        for n, o in zip(new.samples, old.samples, strict=True)
        if o.per_second > 0
    ]
    overall = new.per_second / old.per_second if old.per_second > 0 else 0.0
    return Ratio(overall, min(per_round, default=0.0), max(per_round, default=0.0))


def rounds_text(count: int) -> str:
    return "1 round" if count == 1 else f"{count} rounds"


def timed(unit: Unit, seconds: float) -> Sample:
    """Repeat `unit` until it has used `seconds` of CPU time (at least once)."""
    count = 0
    begin = time.process_time()
    deadline = begin + seconds
    while True:
        unit()
        count += 1
        now = time.process_time()
        if now >= deadline:
            return Sample(count, now - begin)


class Progress:
    """One self-erasing status line on a terminal's stderr; silent when stderr is not a tty."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty()
        self.width = 0

    def show(self, text: str) -> None:
        if self.enabled:
            self.stream.write("\r" + text.ljust(self.width))
            self.stream.flush()
            self.width = len(text)

    def clear(self) -> None:
        if self.enabled and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


def alternate(
    contestants: Sequence[tuple[str, Workload]],
    rounds: int,
    seconds: float,
    progress: Progress,
    title: str,
) -> dict[str, Rate]:
    """Round 1 of each contestant in turn, then round 2 of each, and so on; their rates.

    Each contestant first warms up briefly (caches, first allocations) outside the timing.
    """
    warm_up = min(0.2, seconds / 4)
    for label, workload in contestants:
        progress.show(f"{title}: warming up {label}")
        timed(workload(-1), warm_up)
    samples: dict[str, list[Sample]] = {label: [] for label, _ in contestants}
    for number in range(rounds):
        for label, workload in contestants:
            progress.show(f"{title}: round {number + 1}/{rounds}, {label}")
            unit = workload(number)
            gc.collect()  # start each round without the other contestant's garbage
            samples[label].append(timed(unit, seconds))
    progress.clear()
    return {label: Rate(tuple(done)) for label, done in samples.items()}
