"""`python -m bot`: run the Discord bot.

Exit status 0 after a clean stop (SIGINT/SIGTERM), 2 for bad settings (an `EXTRA_GAMES` package
that does not import included), a ledger file that cannot be opened or a refused token (one clear
line on standard error, never a traceback, never the token nor a password of a URL), 1 if Discord
is unreachable. Settings are all checked before any file or network is touched.
"""

from __future__ import annotations

import logging
import sys
from urllib.parse import urlsplit

from rules.plugins import PluginError

from .client import run
from .games import registry as games
from .runtime.heap import limit_arenas
from .settings import Settings, SettingsError, load_settings


class RedactingFormatter(logging.Formatter):
    """Formats records, then blanks out the secrets (token, URL passwords), wherever they appear."""

    def __init__(self, fmt: str, secrets: list[str]) -> None:
        super().__init__(fmt)
        self.secrets = [s for s in secrets if s]

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        for secret in self.secrets:
            text = text.replace(secret, "[redacted]")
        return text


def configure_logging(level: str, secrets: list[str]) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        RedactingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s", secrets)
    )
    logging.basicConfig(level=level, handlers=[handler], force=True)


def secrets_of(settings: Settings) -> list[str]:
    """The token and any password in a URL setting: a log line must show none of them, even
    where a library logs a URL that `redact_url` never saw."""
    urls = (settings.database_url, settings.discord_api_base, settings.discord_gateway_url)
    passwords = [_password(url) for url in urls if url]
    return [settings.discord_token.get_secret_value(), *(p for p in passwords if p)]


def _password(url: str) -> str | None:
    try:
        return urlsplit(url).password
    except ValueError:  # settings validated the URL; stay quiet on an odd one all the same
        return None


def main() -> int:
    try:
        settings = load_settings()
    except SettingsError as exc:
        for line in exc.lines:
            print(f"kamiza: {line}", file=sys.stderr)
        return 2
    games.load()  # the product's games: a failure there is a bug, with its traceback
    try:
        games.load(settings.extra_games)
    except PluginError as exc:
        print(f"kamiza: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level, secrets_of(settings))
    limit_arenas()  # before any thread starts: see `bot.runtime.heap`
    return run(settings)


if __name__ == "__main__":
    sys.exit(main())
