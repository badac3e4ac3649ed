"""Settings are all validated up front, one line per bad setting, never showing a secret."""

from __future__ import annotations

import pytest

from bot.__main__ import secrets_of
from bot.settings import SettingsError, load_settings

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
    "SHARD_COUNT",
    "SHARD_IDS",
    "AI_WORKERS",
    "AI_THINK_MS",
    "WEB_BASE_URL",
)
TOKEN = "MTIzNDU2Nzg5.test.token"


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch, tmp_path):
    """Only what a test sets: no setting from the environment, no `.env` in the directory."""
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)


def errors(monkeypatch, **env: str) -> list[str]:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as caught:
        load_settings()
    return caught.value.lines


def test_good_settings_load(monkeypatch, tmp_path):
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/ledger.sqlite3?synchronous=normal")
    monkeypatch.setenv("DISCORD_API_BASE", " http://127.0.0.1:8080/api/v10/ ")
    monkeypatch.setenv("DISCORD_GATEWAY_URL", "ws://127.0.0.1:8081/")
    settings = load_settings()
    assert settings.discord_api_base == "http://127.0.0.1:8080/api/v10"
    assert settings.discord_gateway_url == "ws://127.0.0.1:8081/"
    assert settings.database_url.endswith("/ledger.sqlite3?synchronous=normal")
    assert list(tmp_path.iterdir()) == []  # validating touched no file
    assert settings.web_base_url is None  # no web companion: no link buttons


def test_the_web_companions_address_is_kept_without_its_trailing_slash(monkeypatch):
    monkeypatch.setenv("WEB_BASE_URL", " https://kamiza.example.org/ ")
    assert load_settings().web_base_url == "https://kamiza.example.org"


def test_computer_players_settings_default_and_bounds(monkeypatch):
    settings = load_settings()
    assert (settings.ai_workers, settings.ai_think_ms) == (1, 300)
    lines = errors(monkeypatch, AI_WORKERS="0", AI_THINK_MS="5")
    assert [line.split("=")[0] for line in lines] == ["AI_WORKERS", "AI_THINK_MS"], lines


def test_a_bad_postgresql_url_is_refused_at_settings_time_with_its_password_hidden(monkeypatch):
    lines = errors(monkeypatch, DATABASE_URL="postgresql://kamiza:hunter2@db.example:5432")
    assert lines == [
        "DATABASE_URL='postgresql://kamiza:***@db.example:5432' is invalid: a PostgreSQL URL "
        "needs a database: postgresql://user@host/database"
    ]


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("mysql://kamiza:hunter2@db/kamiza", "not a SQLite ledger URL"),
        ("sqlite://ledger.sqlite3", "not a SQLite ledger URL"),
        ("sqlite:///:memory:", "the ledger needs a file"),
        ("sqlite:///ledger.sqlite3?synchronous=off", "synchronous must be full or normal"),
        ("sqlite:///ledger.sqlite3?password=hunter2", "unknown ledger URL parameter 'password'"),
    ],
)
def test_a_bad_database_url_is_one_line(monkeypatch, url, says):
    [line] = errors(monkeypatch, DATABASE_URL=url)
    assert line.startswith("DATABASE_URL=") and "is invalid: " in line and says in line
    assert "hunter2" not in line


@pytest.mark.parametrize(
    ("name", "url", "says"),
    [
        ("DISCORD_API_BASE", "ftp://example.com/api", "must be a URL starting with http://"),
        ("DISCORD_API_BASE", "https:///api/v10", "has no host"),
        ("DISCORD_API_BASE", "https://example.com:http/api", "is not a valid http://"),
        ("DISCORD_API_BASE", "https://example.com/api?v=10", "must not have a query"),
        ("DISCORD_API_BASE", "example.com/api/v10", "must be a URL starting with http://"),
        ("DISCORD_GATEWAY_URL", "https://gateway.example/", "must be a URL starting with ws://"),
        ("DISCORD_GATEWAY_URL", "wss://gateway.example:99999/", "is not a valid ws://"),
        ("DISCORD_GATEWAY_URL", "wss://", "has no host"),
        ("WEB_BASE_URL", "kamiza.example.org", "must be a URL starting with http://"),
    ],
)
def test_a_bad_endpoint_is_one_line(monkeypatch, name, url, says):
    [line] = errors(monkeypatch, **{name: url})
    assert line.startswith(f"{name}={url!r} is invalid: ") and says in line


def test_credentials_in_an_endpoint_are_hidden(monkeypatch):
    # The REST base cannot carry credentials at all: the token has the Authorization header.
    lines = errors(
        monkeypatch,
        DISCORD_API_BASE="https://proxy:hunter2@proxy.example/api/v10",
        DISCORD_GATEWAY_URL="http://proxy:hunter3@proxy.example/",
    )
    assert lines == [
        "DISCORD_API_BASE='https://proxy:***@proxy.example/api/v10' is invalid: must not "
        "contain a user or password (user:password@)",
        "DISCORD_GATEWAY_URL='http://proxy:***@proxy.example/' is invalid: must be a URL "
        "starting with ws:// or wss://, like wss://gateway.discord.gg/",
    ]


def test_every_bad_setting_is_named_in_field_order(monkeypatch):
    lines = errors(
        monkeypatch,
        DATABASE_URL="postgres://u:p@h",
        DISCORD_API_BASE="nope",
        DISCORD_GATEWAY_URL="nope",
        TURN_SECONDS="1",
    )
    assert [line.split("=")[0] for line in lines] == [
        "DATABASE_URL",
        "DISCORD_API_BASE",
        "DISCORD_GATEWAY_URL",
        "TURN_SECONDS",
    ]


def test_the_token_is_never_shown(monkeypatch):
    lines = errors(monkeypatch, DATABASE_URL="mysql://x", TURN_SECONDS="x")
    assert len(lines) == 2 and TOKEN not in "\n".join(lines)
    monkeypatch.setenv("DISCORD_TOKEN", "   ")
    assert errors(monkeypatch)[0] == "DISCORD_TOKEN is empty"


def test_log_secrets_are_the_token_and_url_passwords(monkeypatch):
    monkeypatch.setenv("DISCORD_GATEWAY_URL", "wss://proxy:hunter2@gateway.example/")
    assert secrets_of(load_settings()) == [TOKEN, "hunter2"]
