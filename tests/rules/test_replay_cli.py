"""`python -m rules replay`: the answers and errors of LOG_FORMAT.md."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.random_play import random_match


def run_replay(log: object, tmp_path: Path | None = None) -> subprocess.CompletedProcess[str]:
    text = log if isinstance(log, str) else json.dumps(log)
    if tmp_path is None:
        args, stdin = ["-"], text
    else:
        path = tmp_path / "log.json"
        path.write_text(text)
        args, stdin = [str(path)], None
    return subprocess.run(
        [sys.executable, "-m", "rules", "replay", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def kamiza_log() -> dict:
    return {
        "format": 1,
        "game": "kamiza",
        "options": {"edition": "second", "advanced": False},
        "players": ["ann", "ben", "cho", "dev"],
        "setup": {"start_player": "ann", "seed": 9},
        "actions": [
            {"player": "ann", "card": "boss", "area": "kamiza"},
            {"player": "ben", "card": "hitman", "area": "kamiza"},
        ],
    }


def test_replay_unfinished_log_reports_next_player(tmp_path: Path) -> None:
    done = run_replay(kamiza_log(), tmp_path)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["game"] == "kamiza" and answer["over"] is False
    assert answer["scores"] == {"ann": 0, "ben": 0, "cho": 0, "dev": 0}
    assert answer["winners"] == []
    assert answer["next"] == {"player": "cho", "expects": "play"}
    assert answer["wanted"] == {"ann": 0, "ben": 0, "cho": 0, "dev": 0}


def test_replay_finished_match_from_stdin() -> None:
    state, log = random_match("kamiza", ["ann", "ben", "cho", "dev"], seed=11)
    done = run_replay(log)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["over"] is True and answer["next"] is None
    assert answer["scores"] == state.scores() and answer["winners"] == state.winners()


@pytest.mark.parametrize(
    ("mutate", "index", "words"),
    [
        (
            lambda log: log["actions"].append(
                {"player": "ann", "card": "hitman", "area": "kamiza"}
            ),
            2,
            "K-3",
        ),
        (
            lambda log: log["actions"].insert(
                1, {"player": "ben", "card": "joker", "area": "kamiza"}
            ),
            1,
            "unknown card",
        ),
        (lambda log: log["actions"][1].update(extra=1), 1, "unknown field"),
        (lambda log: log["actions"][0].pop("area"), 0, "missing field"),
        (lambda log: log["actions"][1].update(card="raid"), 1, "K-1"),
        (lambda log: log["actions"][0].update(player="zed"), 0, "unknown player"),
    ],
)
def test_replay_illegal_action_names_index_and_reason(mutate, index: int, words: str) -> None:
    log = kamiza_log()
    mutate(log)
    done = run_replay(log)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert lines[0].startswith(f"action {index}:") and words in lines[0]


@pytest.mark.parametrize(
    ("log", "words"),
    [
        ("{not json", "not valid JSON"),
        ({**kamiza_log(), "options": {"edition": "third"}}, "edition"),
        ({**kamiza_log(), "options": {"speed": 1}}, "unknown option"),
        ({**kamiza_log(), "players": ["ann", "ann", "cho"]}, "distinct"),
        ({**kamiza_log(), "setup": {"start_player": "zed"}}, "start_player"),
        ({**kamiza_log(), "game": "poker"}, "unknown game"),
        ([1, 2], "object"),
    ],
)
def test_replay_bad_header_is_one_line_exit_2(log, words: str) -> None:
    done = run_replay(log)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and words in done.stderr


def test_replay_missing_file_is_exit_2(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rules", "replay", str(tmp_path / "nope.json")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "cannot read" in done.stderr
