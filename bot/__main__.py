"""`python -m bot`: run the Discord bot.

Exit status 0 after a clean stop (SIGINT/SIGTERM), 2 for bad settings or a refused token (one
clear line on standard error, never a traceback, never the token), 1 if Discord is unreachable.
"""

from __future__ import annotations

import logging
import sys

from .client import run
from .settings import SettingsError, load_settings


class RedactingFormatter(logging.Formatter):
    """Formats records, then blanks out the secrets (the token), wherever they appear."""

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


def main() -> int:
    try:
        settings = load_settings()
    except SettingsError as exc:
        for line in exc.lines:
            print(f"kamiza: {line}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level, [settings.discord_token.get_secret_value()])
    return run(settings)


if __name__ == "__main__":
    sys.exit(main())
