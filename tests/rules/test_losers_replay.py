"""`python -m rules replay` and `bench` on Rights of Losers logs, as a subprocess (G-1)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from losers_helpers import FOUR, suit_hands

from rules.log import load, result
from rules.random_play import random_match


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rules", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def replay(log: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    return run("replay", "-", stdin=json.dumps(log))


def hand_log(actions: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "format": 1,
        "game": "rights-of-losers",
        "players": list(FOUR),
        "setup": {"lead_player": "ann", "hands": suit_hands(), "seed": 1},
        "actions": actions,
    }


def test_g1_replay_of_a_random_game_prints_the_result(tmp_path: Path) -> None:
    game, log = random_match("rights-of-losers", ["ann", "ben", "cho", "dev", "eve"], 11)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    done = run("replay", str(path))
    assert done.returncode == 0 and done.stderr == ""
    answer = json.loads(done.stdout)
    assert answer == json.loads(json.dumps(result(game)))
    assert answer["over"] and answer["next"] is None and answer["winners"]
    assert {"trick", "reversed", "lead", "chips_left", "land", "owners"} <= set(answer)
    assert len(answer["owners"]) == 25 and sum(answer["land"].values()) <= 5


def test_r7_replay_of_an_unfinished_game_scores_zero() -> None:
    actions = [
        {"player": "ann", "action": "play", "card": "red-3"},
        {"player": "ben", "action": "play", "card": "yellow-9"},
        {"player": "cho", "action": "play", "card": "green-9"},
        {"player": "dev", "action": "play", "card": "blue-9"},
        {"player": "ben", "action": "chip", "at": [4, 4]},
    ]
    done = replay(hand_log(actions))
    assert done.returncode == 0
    answer = json.loads(done.stdout)
    assert answer["scores"] == dict.fromkeys(FOUR, 0) and answer["winners"] == []
    assert answer["next"] == {"player": "cho", "expects": "chip"}
    assert answer["chips_left"] == {"ann": 10, "ben": 9, "cho": 10, "dev": 10}
    assert "owners" not in answer


def test_replay_of_a_malformed_action_exits_2_naming_its_index() -> None:
    _, log = random_match("rights-of-losers", list(FOUR), 3)
    index = next(i for i, a in enumerate(log["actions"]) if a["action"] == "chip")
    log["actions"][index]["at"] = [1, True]
    done = replay(log)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert (
        len(lines) == 1 and lines[0].startswith(f"action {index}: ") and "Traceback" not in lines[0]
    )


def test_r4_replay_of_a_revoke_exits_2_naming_the_rule() -> None:
    log = hand_log(
        [
            {"player": "ann", "action": "play", "card": "red-3"},
            {"player": "ben", "action": "play", "card": "yellow-9"},
            {"player": "cho", "action": "play", "card": "green-9"},
            {"player": "dev", "action": "play", "card": "blue-9"},
        ]
    )
    log["setup"]["hands"]["ben"] = [*log["setup"]["hands"]["ben"][:9], "red-10"]
    log["setup"]["hands"]["ann"] = [*log["setup"]["hands"]["ann"][:9], "yellow-10"]
    assert load({**log, "actions": log["actions"][:1]}).next().player == "ben"
    done = replay(log)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == "action 1: R-4: ben must follow red"


def test_replay_of_a_bad_setup_exits_2() -> None:
    log = hand_log([])
    log["setup"]["hands"]["dev"] = log["setup"]["hands"]["cho"]
    done = replay(log)
    assert done.returncode == 2 and done.stderr.startswith("log: ") and "R-1" in done.stderr


def test_bench_runs_random_full_games() -> None:
    done = run("bench", "rights-of-losers", "--seconds", "0.3", "--rounds", "1")
    assert done.returncode == 0 and "rights-of-losers" in done.stdout and "games/s" in done.stdout
