"""Link buttons to the web companion (`web/`): only for a server that turned its pages on
(`/settings web: on`) on a bot that knows the site's address (`WEB_BASE_URL`)."""

from __future__ import annotations

from typing import Any

import discord

from bot import web_paths as paths
from bot.i18n import t
from data.store import GuildSettings


def web_base_of(client: Any) -> str | None:
    """The bot's `WEB_BASE_URL` (None when unset, or for a client without settings)."""
    base = getattr(getattr(client, "settings", None), "web_base_url", None)
    return base if isinstance(base, str) and base else None


def web_url(client: Any, settings: GuildSettings | None, path: str) -> str | None:
    """The page at `path` when the server is on the web and the bot knows where; else None."""
    base = web_base_of(client)
    if base is None or settings is None or not settings.web:
        return None
    return paths.absolute(base, path)


def link_button(lang: str, url: str) -> discord.ui.Button[Any]:
    """A URL button to a web page (Discord opens it; no click reaches the bot)."""
    return discord.ui.Button(label=t(lang, "web.link"), url=url, emoji="🌐")
