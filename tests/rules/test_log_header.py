"""A log header whose game is not a name is refused like an unknown game (exit 2, one line)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rules.log import LogError, load


@pytest.mark.parametrize("game", [{"a": 1}, ["kamiza"], None, 5])
def test_g2_a_game_that_is_not_a_name_is_an_unknown_game(game: object) -> None:
    log = {"format": 1, "game": game, "players": ["a", "b", "c"], "setup": {}}
    with pytest.raises(LogError, match="unknown game"):
        load(log)
    done = subprocess.run(
        [sys.executable, "-m", "rules", "replay", "-"],
        input=json.dumps(log),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("log: unknown game") and done.stderr.count("\n") == 1
