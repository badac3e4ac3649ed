"""The ledger interface the bot codes against: records and the `Ledger` protocol.

A backend (SQLite, `data/sqlite.py`; PostgreSQL, `data/postgres.py`) implements `Ledger`, and
`data.backends.open_ledger` opens the one a URL names; nothing outside `data/` writes SQL.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol, get_args

from rules.registry import GAMES

DEFAULT_URL = "sqlite:///kamiza.sqlite3"
UNFINISHED = ("lobby", "running")
ENDED = ("cancelled", "abandoned")
STATUSES = ("lobby", "running", "finished", "cancelled", "abandoned")


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat: `player` is the string in the log (str(user_id), "bot-1", ...)."""

    player: str
    user_id: int | None
    display_name: str
    is_bot: bool = False


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One player's result; ratings are None for bots and in unrated games."""

    player: str
    user_id: int | None
    display_name: str
    is_bot: bool
    score: int
    rank: int  # 1-based competition rank: tied players share it (1, 2, 2, 4)
    winner: bool
    rating_before: float | None = None  # the displayed rating (data.ratings.display)
    rating_after: float | None = None
    mu_before: float | None = None
    sigma_before: float | None = None
    mu_after: float | None = None
    sigma_after: float | None = None

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A stored game: meta data, header (None in the lobby), seats, actions, results."""

    id: int
    game: str
    guild_id: int
    channel_id: int
    thread_id: int | None
    host_id: int
    season_id: int
    status: str
    options: dict[str, Any]
    header: dict[str, Any] | None
    seats: list[Seat]
    actions: list[dict[str, Any]]
    created_at: datetime
    updated_at: datetime
    started_at: datetime | None = None
    ended_at: datetime | None = None
    end_reason: str | None = None
    rated: bool = False
    unrated_reason: str | None = None  # why a finished game is not rated (data.standings)
    rematch_of: int | None = None  # the game this one is a rematch of
    results: list[ResultRow] = field(default_factory=list)

    def log(self) -> dict[str, Any] | None:
        """The LOG_FORMAT.md document, ready for `rules.log.load`; None in the lobby."""
        if self.header is None:
            return None
        return {**self.header, "actions": list(self.actions)}


ARCHIVE_MIN, ARCHIVE_MAX = 10, 7 * 86400  # a server's archive delay: 10 s to a week

LOCALE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")


def game_editions(game: str) -> tuple[str, ...]:
    """The editions of a registered game, the default first; () for a game without any."""
    cls = GAMES.get(game)
    return cls.editions if cls is not None else ()


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Per-guild settings; None means "the bot's default"."""

    turn_seconds: int | None = None
    lobby_seconds: int | None = None
    rate_bot_games: bool = False
    # The server's choices of default edition, game -> edition (`edition`); a game it has not
    # chosen for plays its first edition.
    editions: Mapping[str, str] = field(default_factory=dict)
    locale: str | None = None
    archive_seconds: int | None = None  # a finished game's thread is archived after this
    web: bool = False  # the server's pages on the web companion (web/): off until an admin says

    def __post_init__(self) -> None:
        _int_or_none("turn_seconds", self.turn_seconds, 10, 3600)
        _int_or_none("lobby_seconds", self.lobby_seconds, 30, 86400)
        _int_or_none("archive_seconds", self.archive_seconds, ARCHIVE_MIN, ARCHIVE_MAX)
        if not isinstance(self.rate_bot_games, bool):
            raise ValueError("rate_bot_games must be true or false")
        if not isinstance(self.web, bool):
            raise ValueError("web must be true or false")
        if not isinstance(self.editions, Mapping):
            raise ValueError("editions must map games to editions")
        for game, edition in self.editions.items():
            known = game_editions(game) if isinstance(game, str) else ()
            if not known:
                raise ValueError(f"editions: {game!r} is not a game with editions")
            if edition not in known:
                raise ValueError(
                    f"editions: {game} has no edition {edition!r} ({', '.join(known)})"
                )
        if self.locale is not None and not (
            isinstance(self.locale, str) and LOCALE.match(self.locale)
        ):
            raise ValueError("locale must be a language tag such as 'en' or 'ja', or none")

    def edition(self, game: str) -> str | None:
        """The edition a new table of `game` plays when its host names none; None for a game
        without editions."""
        known = game_editions(game)
        return self.editions.get(game, known[0]) if known else None

    def changed(self, **changes: Any) -> GuildSettings:
        """A copy with `changes`; ValueError naming the setting on unknown names or bad values.
        `editions` adds to the choices made before: naming one game's keeps the others'."""
        known = [f.name for f in dataclasses.fields(self)]
        for name in changes:
            if name not in known:
                raise ValueError(f"unknown setting {name!r}; known: {', '.join(known)}")
        if "editions" in changes:
            chosen = changes["editions"]
            if not isinstance(chosen, Mapping):
                raise ValueError("editions must map games to editions")
            changes["editions"] = {**self.editions, **chosen}
        return dataclasses.replace(self, **changes)


def _int_or_none(name: str, value: Any, low: int, high: int) -> None:
    if value is None:
        return
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number of seconds from {low} to {high}, or none")


HandDelivery = Literal["ephemeral", "dm"]
HAND_DELIVERIES: tuple[HandDelivery, ...] = get_args(HandDelivery)
WebPresence = Literal["shown", "hidden"]
WEB_PRESENCES: tuple[WebPresence, ...] = get_args(WebPresence)


@dataclass(frozen=True, slots=True)
class MemberPrefs:
    """A member's own choices, the same in every server (`Ledger.member_prefs`)."""

    hand_delivery: HandDelivery = "ephemeral"  # "dm": their hand and turn pings come by DM
    lang: str | None = None  # the language of those DMs ("en", "ja"); None: the server's
    dm_failed: bool = False  # a DM failed since they chose "dm": tell them at their next click
    web: WebPresence = "shown"  # "hidden": absent from every page of the web companion

    def __post_init__(self) -> None:
        if self.hand_delivery not in HAND_DELIVERIES:
            raise ValueError(f"hand_delivery must be one of {', '.join(HAND_DELIVERIES)}")
        if self.web not in WEB_PRESENCES:
            raise ValueError(f"web must be one of {', '.join(WEB_PRESENCES)}")
        if self.lang is not None and not LOCALE.match(self.lang):
            raise ValueError("lang must be a language tag such as 'en' or 'ja', or none")


@dataclass(frozen=True, slots=True)
class Champion:
    game: str
    user_id: int
    display_name: str
    rating: float


@dataclass(frozen=True, slots=True)
class Season:
    """A guild's season; `ended_at` is None for the current one. Champions once archived."""

    id: int
    guild_id: int
    number: int
    name: str
    started_at: datetime
    ended_at: datetime | None = None
    champions: list[Champion] = field(default_factory=list)

    @property
    def current(self) -> bool:
        return self.ended_at is None


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int  # competition rank on `rating`: equal ratings share a rank
    user_id: int
    display_name: str
    rating: float  # the displayed rating (data.ratings.display); 1500 for a new player
    mu: float
    sigma: float
    games: int
    wins: int
    win_rate: float  # wins / games, 0..1
    points: int


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    guild_id: int
    game: str
    season_id: int | None  # None: the guild has no season yet (and so no rows)
    page: int
    page_size: int
    total: int  # rated members in this (guild, game, season)
    rows: list[LeaderboardRow]

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.page_size))


@dataclass(frozen=True, slots=True)
class StatsRow:
    """A member's record for one (game, season) of a guild: every finished game they sat in."""

    game: str
    season_id: int
    season_number: int
    season_name: str
    games: int
    wins: int
    points: int
    best_rank: int
    rating: float | None  # None while they have no rated game in that season
    mu: float | None
    sigma: float | None
    position: int | None  # leaderboard rank, None when unrated


class Ledger(Protocol):
    """What the bot may ask of the ledger. Every write is one atomic unit of work."""

    async def close(self) -> None: ...

    # games
    async def create_game(
        self,
        *,
        game: str,
        options: dict[str, Any],
        guild_id: int,
        channel_id: int,
        thread_id: int | None,
        host_id: int,
        rematch_of: int | None = None,
    ) -> int: ...
    async def set_seats(self, game_id: int, seats: list[Seat], host_id: int | None = None) -> None:
        """Replace a lobby's seats (and, given `host_id`, its host) in one write."""
        ...

    async def start_game(self, game_id: int, header: dict[str, Any], seats: list[Seat]) -> None: ...
    async def append_action(self, game_id: int, seq: int, action: dict[str, Any]) -> bool: ...
    async def finish_game(self, game_id: int) -> list[ResultRow]: ...
    async def end_game(self, game_id: int, status: str, reason: str) -> None: ...
    async def unfinished_games(self) -> list[GameRecord]: ...
    async def get_game(self, game_id: int) -> GameRecord | None: ...
    async def unannounced_games(self) -> list[GameRecord]:
        """Ended games whose last messages may not have gone out (see `mark_announced`)."""
        ...

    async def mark_announced(self, game_id: int) -> None: ...
    async def set_note(self, game_id: int, key: str, value: Any) -> None:
        """Keep a small JSON fact about a game (not part of its log); replaces the old value."""
        ...

    async def notes(self, game_id: int) -> dict[str, Any]: ...
    async def drop_note(self, game_id: int, key: str) -> None:
        """Forget a note that has served (a no-op when there is none)."""
        ...

    async def noted_games(self, key: str) -> list[tuple[int, Any]]:
        """Every game holding a note `key`, as (game id, value), by game id: what the bot
        still owes after a restart (a thread to archive, a rematch to open)."""
        ...

    async def game_log(self, game_id: int) -> dict[str, Any]: ...
    async def last_game_at(self, guild_id: int, home: int) -> GameRecord | None:
        """The latest game hosted in a thread (or in a channel without a thread)."""
        ...

    def iter_games(
        self, *, guild_id: int | None = None, game_id: int | None = None, status: str | None = None
    ) -> AsyncIterator[GameRecord]: ...

    # settings and seasons
    async def guild_settings(self, guild_id: int) -> GuildSettings: ...
    async def update_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettings: ...
    async def current_season(self, guild_id: int) -> Season: ...
    async def new_season(self, guild_id: int, name: str | None = None) -> Season: ...
    async def seasons(self, guild_id: int) -> list[Season]: ...

    # a member's own choices
    async def member_prefs(self, user_id: int) -> MemberPrefs: ...
    async def set_hand_delivery(
        self, user_id: int, delivery: HandDelivery, lang: str | None
    ) -> MemberPrefs:
        """The member's choice (and the language of their DMs); clears a failure not yet told."""
        ...

    async def set_web_presence(self, user_id: int, web: WebPresence) -> MemberPrefs:
        """Whether the member appears on the web companion's pages ("shown") or not ("hidden")."""
        ...

    async def dm_failed(self, user_id: int) -> None:
        """A DM to the member failed (closed DMs): back to ephemeral menus, to be told once."""
        ...

    async def claim_dm_failure(self, user_id: int) -> bool:
        """Whether a DM failure is still to be told; True once (the flag is cleared)."""
        ...

    # leaderboards, stats, integrity
    async def leaderboard(
        self,
        guild_id: int,
        game: str,
        season_id: int | None = None,
        *,
        page: int = 0,
        page_size: int = 10,
    ) -> LeaderboardPage: ...
    async def member_stats(self, guild_id: int, user_id: int) -> list[StatsRow]: ...
    async def integrity_problems(self) -> list[str]: ...
