"""The bot's settings, read from the environment and from `.env` in the working directory.

Every setting is documented in `.env.example` and in the README. An empty value counts as unset.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_core import ErrorDetails
from pydantic_settings import NoDecode

from data.urls import check_url, is_postgres, redact_url
from rules.plugins import PluginSettings

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR"]


class Settings(PluginSettings):
    """Every setting of the bot; `EXTRA_GAMES` (`extra_games`) and where settings are read
    from come from `PluginSettings`, which the other commands read too."""

    discord_token: SecretStr
    database_url: str = "sqlite:///kamiza.sqlite3"
    dev_guild_id: int | None = Field(default=None, gt=0)
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    turn_seconds: int = Field(default=90, ge=5)
    lobby_seconds: int = Field(default=900, ge=10)
    bot_delay_seconds: float = Field(default=0.4, ge=0, le=5)
    archive_seconds: int = Field(default=600, ge=1, le=7 * 86400)
    rematch_seconds: int = Field(default=60, ge=1, le=600)
    lobbies_per_host: int = Field(default=1, ge=1, le=25)
    tables_per_server: int = Field(default=50, ge=1, le=10_000)
    edit_pace_seconds: float = Field(default=1.0, ge=0, le=60)
    log_level: LogLevel = "INFO"
    # Scale-out (README "Growing past one process"): the bot's shards in all, and the ones this
    # process runs ("0,1"). Both unset: one process runs the whole bot, unsharded.
    shard_count: int | None = Field(default=None, ge=1, le=10_000)
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None
    # Discord starts one gateway session every 5 s (per bucket); the end-to-end tests shorten it.
    identify_spacing_seconds: float = Field(default=5.0, ge=0, le=60)
    # Computer players (README "Computer players in Discord"): worker processes that make their
    # decisions off the event loop, and the time budget of a `hard` decision.
    ai_workers: int = Field(default=1, ge=1, le=64)
    ai_think_ms: int = Field(default=300, ge=10, le=10_000)
    # The web companion's address (`python -m web`): the bot's link buttons point there, for
    # servers that turned their pages on. Unset: no links.
    web_base_url: str | None = None
    # The table benchmark's file of the bot's own time per click (`bot.click_timings`). Unset:
    # nothing is measured.
    click_timings_path: str | None = None

    @field_validator("discord_token")
    @classmethod
    def _token_not_blank(cls, value: SecretStr) -> SecretStr:
        token = value.get_secret_value().strip()
        if not token:
            raise ValueError("is empty")
        return SecretStr(token)

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("database_url")
    @classmethod
    def _ledger_url(cls, value: str) -> str:
        check_url(value)  # its ValueError does not quote the URL; `_describe` shows it redacted
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _id_list(cls, value: object) -> object:
        if not isinstance(value, str):
            return value
        parts = [part.strip() for part in value.split(",")]
        if not all(part.isdigit() for part in parts):
            raise ValueError("must be shard numbers separated by commas, like 0,1")
        return tuple(int(part) for part in parts)

    @model_validator(mode="after")
    def _shards(self) -> Settings:
        ids, count = self.shard_ids, self.shard_count
        if ids is not None and count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (the bot's shards in all)")
        if ids is not None and count is not None:
            if len(set(ids)) != len(ids):
                raise ValueError(f"SHARD_IDS={','.join(map(str, ids))} names a shard twice")
            outside = [i for i in ids if i >= count]
            if outside:
                raise ValueError(
                    f"SHARD_IDS: shard {outside[0]} is not below SHARD_COUNT={count} "
                    f"(shards are numbered 0 to {count - 1})"
                )
        # One process may run every shard on SQLite; a share of them means other processes.
        if set(self.shards) != set(range(count or 1)) and not is_postgres(self.database_url):
            raise ValueError(
                f"SHARD_COUNT={count} needs a PostgreSQL ledger that every process shares: set "
                "DATABASE_URL=postgresql://… (move the ledger with `python -m data copy`)"
            )
        return self

    @property
    def shards(self) -> tuple[int, ...]:
        """The shards this process runs: SHARD_IDS, else all of SHARD_COUNT, else (0,)."""
        if self.shard_ids is not None:
            return self.shard_ids
        return tuple(range(self.shard_count or 1))

    @property
    def sharded(self) -> bool:
        """Whether the bot runs as shards (SHARD_COUNT set), perhaps over several processes."""
        return self.shard_count is not None

    @field_validator("discord_api_base")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip()
        _check_url(value, ("http", "https"), "https://discord.com/api/v10")
        if "@" in urlsplit(value).netloc:
            # discord.py sends the token in an Authorization header, which aiohttp refuses to
            # combine with credentials in the URL: every request would fail.
            raise ValueError("must not contain a user or password (user:password@)")
        if "?" in value or "#" in value:
            raise ValueError("must not have a query (?…) or fragment (#…): paths are appended")
        return value.rstrip("/")

    @field_validator("web_base_url")
    @classmethod
    def _web_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip()
        _check_url(value, ("http", "https"), "https://cards.example.org")
        return value.rstrip("/")

    @field_validator("discord_gateway_url")
    @classmethod
    def _ws_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip()
        _check_url(value, ("ws", "wss"), "wss://gateway.discord.gg/")
        return value


def _check_url(value: str, schemes: tuple[str, ...], example: str) -> None:
    """ValueError unless `value` is a URL with one of `schemes`, a host, and a numeric port if
    any; its message never quotes the URL, which may carry a password."""
    kinds = " or ".join(f"{scheme}://" for scheme in schemes)
    try:
        parts = urlsplit(value)
        _ = parts.port  # a port that is no number from 0 to 65535 raises ValueError
    except ValueError:
        raise ValueError(f"is not a valid {kinds} URL, like {example}") from None
    if parts.scheme not in schemes or not value.lower().startswith(f"{parts.scheme}://"):
        raise ValueError(f"must be a URL starting with {kinds}, like {example}")
    if not parts.hostname:
        raise ValueError(f"has no host, like {example}")


class SettingsError(Exception):
    """Invalid settings: one readable line per bad setting, never a secret value."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


_SECRET = {"discord_token"}
_URLS = {"database_url", "discord_api_base", "discord_gateway_url"}  # may carry a password


def _describe(error: ErrorDetails) -> str:
    if not error["loc"]:  # a check of several settings together: its message names them
        return str(error["msg"]).removeprefix("Value error, ")
    field = str(error["loc"][0])
    name = field.upper()
    if error["type"] == "missing":
        if field == "discord_token":
            return (
                "DISCORD_TOKEN is not set: put the bot token from the Discord developer portal "
                "in the environment or in .env (see .env.example)"
            )
        return f"{name} is not set"
    message = error["msg"].removeprefix("Value error, ")
    if field in _SECRET:
        return f"{name} {message}"
    value = error.get("input")
    if field in _URLS and isinstance(value, str):
        value = redact_url(value)
    return f"{name}={value!r} is invalid: {message}"


def load_settings(**overrides: Any) -> Settings:
    """Settings from the environment and `.env`; `SettingsError` names every bad one."""
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        raise SettingsError([_describe(e) for e in exc.errors()]) from None
