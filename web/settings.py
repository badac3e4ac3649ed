"""The web companion's settings, from the environment or `.env` like the bot's (README "Web
companion"); it needs no Discord token."""

from __future__ import annotations

from pydantic import Field, field_validator

from data.urls import check_url
from rules.plugins import PluginSettings


class WebSettings(PluginSettings):
    database_url: str = "sqlite:///kamiza.sqlite3"
    web_host: str = "127.0.0.1"  # loopback: a reverse proxy with TLS faces the internet
    web_port: int = Field(default=8080, ge=1, le=65535)
    web_base_url: str | None = None  # where people reach the site; the bot links there
    # Processes serving the same port (SO_REUSEPORT): one is one Python thread, so a busy site
    # on a machine with several cores runs several.
    web_workers: int = Field(default=1, ge=1, le=32)

    @field_validator("database_url")
    @classmethod
    def _ledger_url(cls, value: str) -> str:
        check_url(value)
        return value
