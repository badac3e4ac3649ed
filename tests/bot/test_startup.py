"""`python -m bot` refuses bad settings and unusable ledger files before it touches the network:
one line on standard error, exit status 2, no traceback, no hang, no secret shown."""

from __future__ import annotations

import os
import socket
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from data.db import migrations

SETTINGS = (
    "DISCORD_TOKEN",
    "DATABASE_URL",
    "DEV_GUILD_ID",
    "DISCORD_API_BASE",
    "DISCORD_GATEWAY_URL",
    "TURN_SECONDS",
    "LOBBY_SECONDS",
    "BOT_DELAY_SECONDS",
    "LOG_LEVEL",
    "EXTRA_GAMES",
)
TOKEN = "MTIzNDU2Nzg5.startup.token"
TIMEOUT = 60  # a hang (a connection's thread kept alive) fails the test instead of blocking it


class Listener:
    """A listening socket standing in for Discord: it records whether anything connected."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.setblocking(False)
        self.port = self.sock.getsockname()[1]

    def contacted(self) -> bool:
        # The kernel completes a connection into the backlog even before accept().
        try:
            conn, _ = self.sock.accept()
        except BlockingIOError:
            return False
        conn.close()
        return True


@pytest.fixture
def discord() -> Iterator[Listener]:
    listener = Listener()
    yield listener
    listener.sock.close()


def run_bot(workdir: Path, port: int, **settings: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot` with Discord at 127.0.0.1:`port` unless `settings` say otherwise."""
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env |= {
        "DISCORD_TOKEN": TOKEN,
        "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
        "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{port}/",
        **settings,
    }
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=workdir,  # no .env there
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        stdin=subprocess.DEVNULL,
    )


def ledger_file(path: Path, kind: str) -> None:
    """A file that cannot be opened as a ledger, of the given kind."""
    if kind == "garbage":
        path.write_bytes(b"\x00\xffnot a database\n" * 700)
        return
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, filler BLOB)")
    conn.executemany("INSERT INTO games (filler) VALUES (?)", [(b"x" * 3000,)] * 40)
    conn.execute(f"PRAGMA user_version = {len(migrations()) + (kind == 'newer')}")
    conn.commit()
    conn.close()
    if kind == "truncated":
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])


@pytest.mark.parametrize(
    ("kind", "says"),
    [
        ("garbage", "{path} is not a Kamiza ledger (file is not a database)"),
        ("truncated", "the ledger {path} is damaged (database disk image is malformed)"),
        ("newer", "{path}: the ledger's schema is newer than this version of Kamiza"),
    ],
)
def test_an_unusable_ledger_is_one_line_exit_2_before_discord(tmp_path, discord, kind, says):
    path = tmp_path / "ledger.sqlite3"
    ledger_file(path, kind)
    data = path.read_bytes()
    done = run_bot(tmp_path, discord.port, DATABASE_URL=f"sqlite:///{path}")
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith("kamiza: " + says.format(path=path))
    assert path.read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ledger.sqlite3"]
    assert not discord.contacted()


def test_a_missing_directory_is_one_line_exit_2(tmp_path, discord):
    path = tmp_path / "nowhere" / "ledger.sqlite3"
    done = run_bot(tmp_path, discord.port, DATABASE_URL=f"sqlite:///{path}")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"kamiza: cannot create the ledger {path}: the directory {path.parent} does not exist"
    ]
    assert not path.parent.exists() and not discord.contacted()


def test_bad_settings_touch_no_file_nor_network_and_show_no_secret(tmp_path, discord):
    done = run_bot(
        tmp_path,
        discord.port,
        DATABASE_URL="postgresql://kamiza:hunter2@db.example",
        DISCORD_API_BASE="https://proxy:hunter3@proxy.example/api/v10",
        DISCORD_GATEWAY_URL="wss://proxy.example:gateway/",
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "kamiza: DATABASE_URL='postgresql://kamiza:***@db.example' is invalid: a "
        "PostgreSQL URL needs a database: postgresql://user@host/database",
        "kamiza: DISCORD_API_BASE='https://proxy:***@proxy.example/api/v10' is invalid: must not "
        "contain a user or password (user:password@)",
        "kamiza: DISCORD_GATEWAY_URL='wss://proxy.example:gateway/' is invalid: is not a valid "
        "ws:// or wss:// URL, like wss://gateway.discord.gg/",
    ]
    assert done.stdout == "" and TOKEN not in done.stderr


def test_a_bad_endpoint_is_refused_before_the_ledger_is_created(tmp_path, discord):
    path = tmp_path / "ledger.sqlite3"
    done = run_bot(
        tmp_path,
        discord.port,
        DATABASE_URL=f"sqlite:///{path}",
        DISCORD_GATEWAY_URL=f"http://127.0.0.1:{discord.port}/",
    )
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert line.startswith("kamiza: DISCORD_GATEWAY_URL=")
    assert list(tmp_path.iterdir()) == [] and not discord.contacted()


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        (None, "cannot import nowhere.games.spec (ModuleNotFoundError: No module named 'nowhere')"),
        ("raise RuntimeError('the plugin broke')", "(RuntimeError: the plugin broke)"),
        ("SPEC = 'not a GameSpec'", "nowhere.games.spec has no SPEC = GameSpec(...)"),
    ],
)
def test_an_extra_game_that_gives_no_game_is_one_line_exit_2(tmp_path, discord, spec, says):
    """A bad `EXTRA_GAMES` is reported like any bad setting, before the ledger or Discord."""
    plugins = tmp_path / "plugins"
    if spec is not None:
        package = plugins / "nowhere" / "games"
        package.mkdir(parents=True)
        (package.parent / "__init__.py").write_text("")
        (package / "__init__.py").write_text("")
        (package / "spec.py").write_text(spec + "\n")
    path = tmp_path / "ledger.sqlite3"
    done = run_bot(
        tmp_path,
        discord.port,
        DATABASE_URL=f"sqlite:///{path}",
        EXTRA_GAMES="nowhere.games",
        PYTHONPATH=str(plugins),
    )
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith("kamiza: EXTRA_GAMES='nowhere.games' is invalid: ")
    assert line.endswith(says)
    assert not path.exists() and not discord.contacted()


def test_the_log_shows_no_url_password_and_the_new_ledger_is_private(tmp_path):
    closed = socket.create_server(("127.0.0.1", 0))  # a port nobody listens on once closed
    port = closed.getsockname()[1]
    closed.close()
    path = tmp_path / "ledger.sqlite3"
    done = run_bot(
        tmp_path,
        port,
        DATABASE_URL=f"sqlite:///{path}",
        DISCORD_GATEWAY_URL="wss://proxy:hunter2@gateway.example/",
        LOG_LEVEL="DEBUG",
    )
    assert done.returncode == 1, done.stderr
    assert "Gateway at wss://proxy:***@gateway.example/" in done.stderr
    assert f"kamiza: cannot reach http://127.0.0.1:{port}/api/v10" in done.stderr
    assert "hunter2" not in done.stderr and TOKEN not in done.stderr
    assert "Traceback" not in done.stderr
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
