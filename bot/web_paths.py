"""The web companion's URL layout: the site (`web.app`) serves these paths, the bot links to them.

Paths only, no server: it lives in the bot, which the site imports, never the other way.
"""

from __future__ import annotations

from urllib.parse import urlencode

API = "/api/v1"


def server(guild_id: int) -> str:
    return f"/s/{guild_id}"


def leaderboard(guild_id: int, game: str, *, season: int | None = None) -> str:
    """A game's leaderboard; `season` is the season's number (the current one when None)."""
    query = f"?{urlencode({'season': season})}" if season is not None else ""
    return f"{server(guild_id)}/leaderboard/{game}{query}"


def player(guild_id: int, user_id: int) -> str:
    return f"{server(guild_id)}/players/{user_id}"


def game(guild_id: int, game_id: int, *, step: int | None = None) -> str:
    """A game's page; `step` is the replay's step (0: the opening; the last: the end)."""
    query = f"?{urlencode({'step': step})}" if step is not None else ""
    return f"{server(guild_id)}/games/{game_id}{query}"


def absolute(base_url: str, path: str) -> str:
    """`path` on the site at `base_url` (WEB_BASE_URL, which may end with a slash)."""
    return base_url.rstrip("/") + path
