"""`python -m ai arena`: seats rotate, logs replay to the same result, figures are printed."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
from positions import GAME_NAMES

from ai.__main__ import main
from ai.arena import ArenaConfig, report, run_arena, seating
from ai.stats import percentile, share
from rules.__main__ import main as rules_main
from rules.log import new_header, replay


def test_seats_rotate_through_the_positions() -> None:
    seats = ("hard", "normal", "normal", "easy")
    assert seating(seats, 0) == ["hard-0", "normal-1", "normal-2", "easy-3"]
    assert seating(seats, 1) == ["easy-3", "hard-0", "normal-1", "normal-2"]
    assert {seating(seats, i).index("hard-0") for i in range(4)} == {0, 1, 2, 3}


def test_a_header_may_keep_the_seating_given() -> None:
    players = ["d", "c", "b", "a"]
    assert new_header("kamiza", players, seed=5, keep_seating=True)["players"] == players


@pytest.mark.parametrize("game", GAME_NAMES)
def test_arena_games_replay_to_the_same_winners(game: str) -> None:
    seats = ("hard", "normal", "easy", "random")
    config = ArenaConfig(game, seats, games=2, seed=3, iterations=8)
    logs = io.StringIO()
    summary = run_arena(config, logs)
    lines = logs.getvalue().splitlines()
    assert len(lines) == 2
    for index, line in enumerate(lines):
        log = json.loads(line)
        assert log["players"] == seating(seats, index)
        judged = replay(log)
        assert judged["over"]
        assert judged["winners"]
    # every seat's share of each game, split on a shared win: one win per game in all
    assert sum(sum(values) for values in summary.shares.values()) == pytest.approx(2)
    text = report(summary)
    for level in seats:
        assert f"\n{level} " in text
    assert "peak worker memory" in text


def test_the_cli_writes_logs_that_rules_replay_rejudges(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = tmp_path / "out.jsonl"
    argv = ["arena", "--game", "kobayakawa", "--seats", "hard,normal,easy"]
    argv += ["--games", "2", "--iterations", "8", "--logs", str(logs)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "kobayakawa: 2 games" in printed and "p99 ms" in printed
    for line in logs.read_text().splitlines():
        single = tmp_path / "one.json"
        single.write_text(line)
        assert rules_main(["replay", str(single)]) == 0
        judged = json.loads(capsys.readouterr().out)
        assert judged == replay(json.loads(line))
        assert all(p.rsplit("-", 1)[0] in ("hard", "normal", "easy") for p in judged["scores"])


def test_the_cli_refuses_a_wrong_number_of_seats() -> None:
    with pytest.raises(SystemExit):
        main(["arena", "--game", "kamiza", "--seats", "hard,normal", "--games", "1"])


def test_shares_and_percentiles() -> None:
    won = share([1.0, 0.0, 0.0, 0.0, 0.5, 0.5])
    assert won.mean == pytest.approx(1 / 3)
    assert 0 <= won.low < won.mean < won.high <= 1
    assert share([]).count == 0
    assert percentile([5.0, 1.0, 3.0, 2.0], 0.5) == 2.0
    assert percentile(list(map(float, range(1, 101))), 0.99) == 99.0


def test_worker_processes_play_the_same_games() -> None:
    config = ArenaConfig("kamiza", ("hard", "normal", "easy"), games=2, seed=4, iterations=6)
    alone, pooled = io.StringIO(), io.StringIO()
    run_arena(config, alone)
    run_arena(replace(config, jobs=2), pooled)
    assert alone.getvalue() == pooled.getvalue()
