"""`python -m rules replay` and `python -m data check`, each in its own process, know the games
`EXTRA_GAMES` adds, read as the bot reads it (the environment, else `.env`): high card, the
tests' own game, replays there exactly as in the bot's process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from data.backends import open_ledger
from data.store import Seat
from rules.plugins import PluginError, configured_packages, load_rules
from rules.random_play import random_match
from rules.registry import GAMES
from tests.games.highcard.rules import HighCard

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "tests.games.highcard.bot"
PLAYERS = ["ann", "ben", "cho"]
TIMEOUT = 120


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """`rules.registry` knows high card for this test only (other tests list the games)."""
    monkeypatch.setitem(GAMES, HighCard.name, HighCard)
    yield


def run(workdir: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m <args>` in `workdir`, where `tests` imports and no `.env` is unless written."""
    base = {k: v for k, v in os.environ.items() if k != "EXTRA_GAMES"}
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    return subprocess.run(
        [sys.executable, "-m", *args],
        cwd=workdir,
        env=base | {"PYTHONPATH": path} | env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        stdin=subprocess.DEVNULL,
    )


def high_card_log(seed: int = 4) -> tuple[HighCard, dict]:
    known = dict(GAMES)
    GAMES[HighCard.name] = HighCard  # `random_match` finds the class by its name
    try:
        state, log = random_match(HighCard.name, PLAYERS, seed)
    finally:
        GAMES.clear()
        GAMES.update(known)
    assert isinstance(state, HighCard)
    return state, log


def test_replay_knows_high_card_from_the_environment_or_dotenv(tmp_path: Path) -> None:
    state, log = high_card_log()
    (tmp_path / "game.json").write_text(json.dumps(log), encoding="utf-8")
    alone = run(tmp_path, "rules", "replay", "game.json")
    assert alone.returncode == 2 and "unknown game 'high-card'" in alone.stderr
    told = run(tmp_path, "rules", "replay", "game.json", EXTRA_GAMES=PACKAGE)
    assert told.returncode == 0, told.stderr
    assert json.loads(told.stdout)["scores"] == state.scores()
    (tmp_path / ".env").write_text(f"EXTRA_GAMES={PACKAGE}\n", encoding="utf-8")
    from_file = run(tmp_path, "rules", "replay", "game.json")
    assert from_file.returncode == 0 and from_file.stdout == told.stdout


def test_replay_names_a_plugin_that_does_not_import_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "game.json").write_text(json.dumps(high_card_log()[1]), encoding="utf-8")
    done = run(tmp_path, "rules", "replay", "game.json", EXTRA_GAMES="no_such_games.pkg")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith("EXTRA_GAMES='no_such_games.pkg' is invalid: cannot import")


async def test_data_check_replays_a_high_card_ledger(tmp_path: Path, registered: None) -> None:
    log = high_card_log(seed=9)[1]
    url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    ledger = await open_ledger(url)
    try:
        game_id = await ledger.create_game(
            game=HighCard.name, options={}, guild_id=1, channel_id=2, thread_id=None, host_id=1
        )
        seats = [Seat(p, i + 1, p, False) for i, p in enumerate(log["players"])]
        await ledger.set_seats(game_id, seats)
        await ledger.start_game(game_id, {k: v for k, v in log.items() if k != "actions"}, seats)
        for seq, entry in enumerate(log["actions"]):
            await ledger.append_action(game_id, seq, entry)
        await ledger.finish_game(game_id)
    finally:
        await ledger.close()
    alone = run(tmp_path, "data", "check", "--db", url)
    assert alone.returncode == 1 and f"game {game_id}: the log does not replay" in alone.stdout
    told = run(tmp_path, "data", "check", "--db", url, EXTRA_GAMES=PACKAGE)
    assert told.returncode == 0, told.stdout + told.stderr
    assert "ok: integrity ok; 1 finished games replayed; 0 disagree" in told.stderr
    bad = run(tmp_path, "data", "check", "--db", url, EXTRA_GAMES="tests.games")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.splitlines() == [
        "check: EXTRA_GAMES='tests.games' is invalid: cannot import tests.games.spec "
        "(ModuleNotFoundError: No module named 'tests.games.spec')"
    ]


def test_the_setting_is_read_as_the_bot_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("EXTRA_GAMES", raising=False)
    assert configured_packages() == ()
    (tmp_path / ".env").write_text("EXTRA_GAMES=a.games, b.games,a.games\n", encoding="utf-8")
    assert configured_packages() == ("a.games", "b.games")
    monkeypatch.setenv("EXTRA_GAMES", "c.games")  # the environment first, as for the bot
    assert configured_packages() == ("c.games",)
    monkeypatch.setenv("EXTRA_GAMES", "not a package")
    with pytest.raises(PluginError, match=r"^EXTRA_GAMES='not a package' is invalid: "):
        configured_packages()


def test_a_package_without_a_game_spec_is_refused(registered: None) -> None:
    with pytest.raises(PluginError, match=r"tests\.games\.highcard\.spec"):
        load_rules(["tests.games.highcard"])  # the game's rules package: no `spec` there
    load_rules([PACKAGE, PACKAGE])  # loading it again changes nothing
    assert GAMES[HighCard.name] is HighCard
