"""`python -m rules bench`: quick smoke runs (tiny rounds) and the pieces they are made of."""

from __future__ import annotations

import importlib
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from rules.bench import engines
from rules.bench.cli import DEFAULT_REVISION, RACES
from rules.bench.compare import Settings, bench_game
from rules.bench.engines import current_engine, old_engine, project_root
from rules.bench.external import external_races
from rules.bench.race import Progress, Rate, Sample, Unit, Workload, alternate, ratio, timed
from rules.bench.workloads import (
    clone_apply_workload,
    cut_points,
    disagreements,
    playout_workload,
    positions,
    random_logs,
    replay_workload,
    rollout_workload,
)

TINY = ("--seconds", "0.05", "--rounds", "1", "--logs", "8")
SLOUCHART = Path(os.environ.get("SLOUCHART_PATH", "/work/ext/slouchart-kobayakawa"))


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rules", "bench", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def revision_available(rev: str) -> bool:
    try:
        done = subprocess.run(
            ["git", "-C", str(project_root()), "cat-file", "-e", f"{rev}^{{commit}}"],
            capture_output=True,
            check=False,
        )
    except OSError:
        return False
    return done.returncode == 0


needs_old = pytest.mark.skipif(
    not revision_available(DEFAULT_REVISION), reason=f"git revision {DEFAULT_REVISION} not here"
)


# -- the command -----------------------------------------------------------------------------------


@needs_old
def test_bench_races_old_against_new_and_prints_every_figure() -> None:
    done = bench("kobayakawa", "rights-of-losers", *TINY)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert (
        lines[0]
        == f"old = rules/ at {DEFAULT_REVISION}, new = this tree; one process, rates per CPU second"
    )
    assert done.stderr == ""  # no progress line when stderr is not a terminal
    for game, replay_target in (("kobayakawa", "4"), ("rights-of-losers", "2")):
        start = next(i for i, line in enumerate(lines) if line.startswith(f"{game}, 4 players"))
        replay, playout, rollout, cloning = lines[start + 1 : start + 5]
        assert replay.split()[:2] == ["replay", "old"] and "logs/s" in replay
        assert f"target >= {replay_target}x: " in replay and " new " in replay
        assert playout.split()[:2] == ["playout", "old"] and "games/s" in playout
        assert " x" in playout and "target" not in playout
        assert rollout.split()[:2] == ["rollout", "old"] and "games/s" in rollout
        assert "target >= 4x: " in rollout and " x" in rollout
        assert cloning.split()[:2] == ["clone+apply", "old"] and " new " in cloning


def test_bench_without_the_old_revision_benches_the_new_engine_alone() -> None:
    done = bench("kamiza", "--against", "no-such-revision", *TINY)
    assert done.returncode == 0, done.stderr
    first, header, replay, playout, rollout, cloning = done.stdout.splitlines()
    assert first.startswith("old engine no-such-revision: unavailable (")
    assert first.endswith("); benching the new engine alone")
    assert header.endswith("new engine only")
    assert replay.split()[:2] == ["replay", "new"] and "needs the old engine" in replay
    assert playout.split()[:2] == ["playout", "new"] and "games/s" in playout
    assert rollout.split()[:2] == ["rollout", "new"] and "needs the old engine" in rollout
    assert cloning.split()[:2] == ["clone+apply", "new"]


def test_bench_refuses_an_unknown_game() -> None:
    done = bench("chess")
    assert done.returncode == 2 and done.stdout == "" and "chess: unknown game" in done.stderr


def test_memory_replays_a_jsonl_file_one_line_at_a_time(tmp_path: Path) -> None:
    engine = current_engine()
    logs = [random_logs(engine, game, 1, 5)[0] for game in ("kamiza", "kobayakawa")]
    broken = {**logs[0], "actions": [*logs[0]["actions"][:3], {"player": "nobody"}]}
    path = tmp_path / "logs.jsonl"
    path.write_text("".join(json.dumps(log) + "\n" for log in [*logs, broken]) + "\n")
    done = bench("--jsonl", str(path))
    replayed, rss = done.stdout.splitlines()
    assert replayed.startswith(f"memory: replayed 3 logs streamed from {path} (1 refused)")
    assert rss.startswith("memory: peak RSS ") and "target < 100 MB: met" in rss
    assert done.returncode == 1  # a refused log is a failure of the check


def test_memory_option_writes_logs_of_every_game_and_replays_them() -> None:
    done = bench("--memory", "6")
    assert done.returncode == 0, done.stderr
    wrote, replayed, rss = done.stdout.splitlines()
    assert wrote.startswith("memory: wrote 6 random logs (kamiza, rights-of-losers, kobayakawa;")
    assert "memory: replayed 6 logs streamed from " in replayed and "(0 refused)" in replayed
    assert "target < 100 MB: met" in rss


@pytest.mark.skipif(not SLOUCHART.is_dir(), reason="no slouchart/kobayakawa checkout")
def test_race_against_slouchart_prints_both_rates_and_how_comparable_they_are() -> None:
    done = bench("--slouchart", str(SLOUCHART), "--seconds", "0.05", "--rounds", "1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("kobayakawa vs slouchart/kobayakawa at ")
    assert lines[1] == "  1 round of 0.05 s each, alternating in one process, rates per CPU second"
    assert lines[2].split()[0] == "ours" and lines[2].endswith("games/s")
    assert lines[3].split()[0] == "slouchart" and lines[3].endswith("games/s")
    assert lines[4].split()[0] == "ratio" and "target >= 2.5x: " in lines[4]
    ours, theirs = lines[7].split(), lines[8].split()
    assert ours[0] == "ours" and theirs[0] == "slouchart"
    assert 1 <= float(ours[1]) <= 7 and float(theirs[1]) == 7.0  # rounds per game
    assert any(line.strip().startswith("not the same games:") for line in lines)


def test_race_against_a_folder_that_is_not_slouchart(tmp_path: Path) -> None:
    done = bench("--slouchart", str(tmp_path))
    assert done.returncode == 2 and "has no engine/kobayakawa.py" in done.stdout


def test_the_races_are_the_games_own_modules_found_by_name() -> None:
    (race,) = RACES
    assert (race.game, race.engine, race.option) == ("kobayakawa", "slouchart", "--slouchart")
    assert callable(importlib.import_module(race.module).race_slouchart)
    assert external_races([("kamiza", "rules.kamiza"), ("rights-of-losers", "rules.losers")]) == ()


# -- the old engine --------------------------------------------------------------------------------


def test_absolute_imports_are_renamed_and_nothing_else() -> None:
    source = (
        "from rules.base import Game\n"
        "import rules.log as log\n"
        "from rules import agents\n"
        "    from rules.kamiza import Kamiza  # lazy\n"
        "from rulesets import x\n"
        '"""See rules.log.load."""\n'
    )
    renamed = engines._ABSOLUTE_IMPORT.sub(rf"\1\2 {engines.OLD_PACKAGE}", source)
    assert renamed.splitlines() == [
        "from rules_old.base import Game",
        "import rules_old.log as log",
        "from rules_old import agents",
        "    from rules_old.kamiza import Kamiza  # lazy",
        "from rulesets import x",
        '"""See rules.log.load."""',
    ]


@pytest.fixture
def old_package(tmp_path: Path) -> Iterator[engines.Engine]:
    """The old engine imported in this process, forgotten again afterwards."""
    path = list(sys.path)
    try:
        yield old_engine(DEFAULT_REVISION, tmp_path)
    finally:
        sys.path[:] = path
        for name in [n for n in sys.modules if n.split(".")[0] == engines.OLD_PACKAGE]:
            del sys.modules[name]


@needs_old
def test_the_old_engine_runs_from_its_own_copy(old_package: engines.Engine) -> None:
    new = current_engine()
    logs = random_logs(old_package, "kamiza", 5, 3)
    state = old_package.load(logs[0])
    assert type(state).__module__.startswith("rules_old.")
    assert type(new.load(logs[0])).__module__.startswith("rules.")
    assert disagreements(old_package, new, logs) == []


# -- the pieces ------------------------------------------------------------------------------------


def test_a_changed_judgement_is_reported() -> None:
    new = current_engine()
    logs = random_logs(new, "kobayakawa", 4, 2)
    lying = replace(new, result=lambda state: {**new.result(state), "over": False})
    assert disagreements(new, lying, logs) == [0, 1, 2, 3]

    def load(log: Mapping[str, Any]) -> Any:
        if log is logs[2]:
            raise RuntimeError("half-written engine")
        return new.load(log)

    assert disagreements(new, replace(new, load=load), logs) == [2]


def test_engines_that_disagree_get_no_timings() -> None:
    new = current_engine()
    lying = replace(new, result=lambda state: {**new.result(state), "over": False})
    out = io.StringIO()
    settings = Settings(("kamiza",), "unused", 0.01, 1, 1, 3)
    old = replace(new, label="old")
    assert not bench_game("kamiza", lying, old, settings, Progress(io.StringIO()), out)
    header, verdict = out.getvalue().splitlines()
    assert header.startswith("kamiza, 4 players: 3 logs from random_match (old engine, seed 1)")
    assert verdict == (
        "  DISAGREE: old and new replay answers differ on 3 of 3 logs (first: log 0); no timings"
    )


@pytest.mark.parametrize("game", ["kamiza", "kobayakawa", "rights-of-losers"])
def test_every_workload_runs_on_the_current_engine(game: str) -> None:
    new = current_engine()
    logs = random_logs(new, game, 3, 4)
    assert all(new.load(log).next() is None for log in logs)
    found = positions(new, logs, cut_points(logs, 4), 4)
    assert found and all(p.state.next().player == p.player for p in found)
    for workload in (
        replay_workload(new, logs),
        playout_workload(new, game, 4),
        rollout_workload(new, game, 4),
        clone_apply_workload(found),
    ):
        unit = workload(0)
        for _ in range(4):
            unit()
    # clone + apply leaves the mid-game states as they were
    assert [p.state.next().player for p in found] == [p.player for p in found]


def test_playouts_of_one_round_are_the_same_games_for_every_contestant() -> None:
    new = current_engine()
    first, second = playout_workload(new, "kamiza", 9)(2), playout_workload(new, "kamiza", 9)(2)
    assert [new.result(first()) for _ in range(3)] == [new.result(second()) for _ in range(3)]


def test_rates_and_ratios_over_rounds() -> None:
    old = Rate((Sample(100, 1.0), Sample(300, 2.0)))
    new = Rate((Sample(400, 1.0), Sample(300, 1.0)))
    assert old.per_second == pytest.approx(400 / 3)
    gain = ratio(new, old)
    assert gain.overall == pytest.approx(350 / (400 / 3))
    assert (gain.low, gain.high) == (pytest.approx(2.0), pytest.approx(4.0))


def test_rounds_alternate_between_contestants() -> None:
    order: list[tuple[str, int]] = []

    def workload(label: str) -> Workload:
        def for_round(number: int) -> Unit:
            order.append((label, number))
            return lambda: None

        return for_round

    rates = alternate(
        [("old", workload("old")), ("new", workload("new"))], 2, 0.001, Progress(io.StringIO()), "t"
    )
    assert order == [("old", -1), ("new", -1), ("old", 0), ("new", 0), ("old", 1), ("new", 1)]
    assert [len(rate.samples) for rate in rates.values()] == [2, 2]


def test_timed_repeats_until_the_time_is_up() -> None:
    sample = timed(lambda: None, 0.01)
    assert sample.count > 1 and sample.seconds >= 0.01


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_on_a_terminal_only() -> None:
    piped, terminal = io.StringIO(), FakeTerminal()
    for stream in (piped, terminal):
        progress = Progress(stream)
        progress.show("kamiza replay: round 1/3, old")
        progress.clear()
    assert piped.getvalue() == ""
    assert terminal.getvalue().startswith("\rkamiza replay: round 1/3, old")
    assert terminal.getvalue().endswith("\r")
