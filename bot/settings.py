"""The bot's settings, read from the environment and from `.env` in the working directory.

Every setting is documented in `.env.example` and in the README. An empty value counts as unset.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR"]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        env_ignore_empty=True,
        extra="ignore",
    )

    discord_token: SecretStr
    database_url: str = "sqlite:///kamiza.sqlite3"
    dev_guild_id: int | None = Field(default=None, gt=0)
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    turn_seconds: int = Field(default=90, ge=5)
    lobby_seconds: int = Field(default=900, ge=10)
    bot_delay_seconds: float = Field(default=0.4, ge=0, le=5)
    log_level: LogLevel = "INFO"

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

    @field_validator("discord_api_base")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("must be an http:// or https:// URL, like https://discord.com/api/v10")
        return None if value is None else value.rstrip("/")

    @field_validator("discord_gateway_url")
    @classmethod
    def _ws_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("ws://", "wss://")):
            raise ValueError("must be a ws:// or wss:// URL, like wss://gateway.discord.gg/")
        return value


class SettingsError(Exception):
    """Invalid settings: one readable line per bad setting, never a secret value."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


_SECRET = {"discord_token"}


def _describe(error: dict) -> str:
    field = str(error["loc"][0]) if error["loc"] else "settings"
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
    return f"{name}={error.get('input')!r} is invalid: {message}"


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment and `.env`; `SettingsError` names every bad one."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        raise SettingsError([_describe(e) for e in exc.errors()]) from None
