"""Races of one of our games against another project's engine: `bench --<engine> PATH`.

A game offers such a race with a module of its own here, `rules/bench/<game>_<engine>.py`
(`<game>`: the name of its rules class's module, `rules/<game>.py`, as all its modules start), that
defines `race_<engine>(path, rounds, seconds, seed, out) -> int` (the exit status). The races
are found by their modules' names, without importing them: `python -m rules` builds its options
for every command, so naming the races stays cheap, and a race's module is imported only when it
runs.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TextIO

import rules.bench


@dataclass(frozen=True, slots=True)
class ExternalRace:
    game: str  # the log name of our game
    engine: str  # the other project's engine: also the option's name
    module: str  # the race's module, imported when it runs

    @property
    def option(self) -> str:
        return f"--{self.engine}"

    @property
    def help(self) -> str:
        return (
            f"race a checkout of {self.engine}'s engine at PATH against our {self.game} "
            "(README: Benchmarks)"
        )

    def run(self, path: str, rounds: int, seconds: float, seed: int, out: TextIO) -> int:
        race = getattr(importlib.import_module(self.module), f"race_{self.engine}")
        status: int = race(path, rounds, seconds, seed, out)
        return status


def external_races(games: Iterable[tuple[str, str]]) -> tuple[ExternalRace, ...]:
    """The races the bench package holds for `games`, (log name, rules module) pairs."""
    modules = sorted(m.name for m in pkgutil.iter_modules(rules.bench.__path__))
    found = []
    for game, game_module in games:
        prefix = f"{game_module.rsplit('.', 1)[-1]}_"
        for name in modules:
            engine = name.removeprefix(prefix)
            if name.startswith(prefix) and engine.isidentifier():
                found.append(ExternalRace(game, engine, f"{rules.bench.__name__}.{name}"))
    return tuple(found)
