"""What each page and API answer shows, as plain JSON-ready data: the pages render it with
templates, the API returns it as it is (its shapes are `web/openapi.json`'s schemas).

A server that has not turned its pages on, a member who hid themselves, a game of another
server or still in its lobby: `NotFound`, the same answer as for what does not exist.
Snowflakes (server, member ids) are strings: JSON numbers lose their last digits in JavaScript.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from bot import web_paths as paths
from data.store import LeaderboardRow, Ledger, Season
from data.web_reads import (
    SORTS,
    GameSummary,
    Player,
    RatingPoint,
    Reader,
    Sort,
    WebGame,
    WebReads,
    in_order_of,
    page_of,
)
from rules.registry import GAMES
from web.cache import Fresh
from web.replay import ReplayCache, public_step, seat_key

PAGE_SIZE = 25
RECENT = 20


class NotFound(Exception):
    """Nothing to show here, whether it does not exist or must not be shown."""


class BadRequest(Exception):
    """A query parameter out of range (a sort, a page): the English message (the API's), and
    its catalogue key and parameters (the page's, in the visitor's language)."""

    def __init__(self, message: str, key: str, **params: Any) -> None:
        super().__init__(message)
        self.key, self.params = key, params


class WebLedger(Ledger, Reader, Protocol):
    """The ledger the site reads: the bot's interface plus a read snapshot (`SqlLedger`)."""


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _season(season: Season) -> dict[str, Any]:
    return {
        "number": season.number,
        "name": season.name,
        "started_at": _time(season.started_at),
        "ended_at": _time(season.ended_at),
        "current": season.current,
    }


def _player(guild_id: int, player: Player) -> dict[str, Any]:
    shown = not player.hidden and not player.is_bot and player.user_id is not None
    return {
        "seat": seat_key(player.seat),
        "name": player.name,
        "user_id": str(player.user_id) if shown else None,
        "url": paths.player(guild_id, player.user_id) if shown and player.user_id else None,
        "is_bot": player.is_bot,
        "hidden": player.hidden,
        "score": player.score,
        "rank": player.rank,
        "winner": player.winner,
    }


def _summary(guild_id: int, game: GameSummary) -> dict[str, Any]:
    return {
        "id": game.id,
        "game": game.game,
        "status": game.status,
        "rated": game.rated,
        "started_at": _time(game.started_at),
        "ended_at": _time(game.ended_at),
        "url": paths.game(guild_id, game.id),
        "players": [_player(guild_id, p) for p in game.players],
    }


def _point(point: RatingPoint) -> dict[str, Any]:
    return {
        "game_id": point.game_id,
        "game": point.game,
        "ended_at": _time(point.ended_at),
        "rating": round(point.rating, 1),
    }


def parse_int(value: str | None, name: str, default: int, low: int = 0) -> int:
    if value is None or value == "":
        return default
    try:
        number = int(value)
    except ValueError:
        message = f"{name} must be a whole number"
        raise BadRequest(message, "web.error.whole_number", name=name) from None
    if number < low or number > 10**9:
        raise BadRequest(f"{name} must be from {low}", "web.error.at_least", name=name, low=low)
    return number


def parse_id(value: str) -> int:
    """A snowflake or game id from a path; NotFound for anything else."""
    if not value.isdigit() or len(value) > 20:
        raise NotFound
    return int(value)


class Site:
    """The data of every page, read from one ledger."""

    def __init__(self, ledger: WebLedger) -> None:
        self.ledger = ledger
        self.reads = WebReads(ledger)
        self.replays = ReplayCache()
        self._servers_on: Fresh[bool] = Fresh()
        self._boards: Fresh[Sequence[LeaderboardRow]] = Fresh()
        self._season_lists: Fresh[list[Season]] = Fresh()

    async def _server_on(self, guild_id: int) -> None:
        if not await self._servers_on.get(guild_id, lambda: self.reads.guild_on(guild_id)):
            raise NotFound

    async def _seasons(self, guild_id: int) -> list[Season]:
        # A read (never starts a season), kept like the boards.
        return await self._season_lists.get(guild_id, lambda: self.ledger.seasons(guild_id))

    async def _board(self, game: str, season_id: int, sort: Sort) -> Sequence[LeaderboardRow]:
        """A season's whole board in `sort` order: read, and sorted, once per few seconds."""

        async def sorted_board() -> Sequence[LeaderboardRow]:
            ranked = await self._boards.get(
                (game, season_id, "rating"), lambda: self.reads.board(game, season_id)
            )
            return in_order_of(ranked, sort)

        if sort == "rating":
            return await sorted_board()
        return await self._boards.get((game, season_id, sort), sorted_board)

    async def server(self, guild_id: int) -> dict[str, Any]:
        await self._server_on(guild_id)
        seasons = await self._seasons(guild_id)
        recent = await self.reads.recent_games(guild_id, limit=RECENT)
        return {
            "server_id": str(guild_id),
            "games": [
                {"game": name, "url": paths.leaderboard(guild_id, name)} for name in sorted(GAMES)
            ],
            "seasons": [_season(s) for s in seasons],
            "recent_games": [_summary(guild_id, g) for g in recent],
        }

    async def leaderboard(
        self, guild_id: int, game: str, season_number: int | None, sort: str, page: int
    ) -> dict[str, Any]:
        await self._server_on(guild_id)
        if game not in GAMES:
            raise NotFound
        if sort not in SORTS:
            choices = ", ".join(SORTS)
            raise BadRequest(
                f"sort must be one of {choices}", "web.error.one_of", name="sort", choices=choices
            )
        chosen: Sort = next(s for s in SORTS if s == sort)
        seasons = await self._seasons(guild_id)
        if season_number is None:
            season = next((s for s in seasons if s.current), None)
        else:
            season = next((s for s in seasons if s.number == season_number), None)
            if season is None:
                raise NotFound
        rows: list[dict[str, Any]] = []
        total, pages = 0, 1
        if season is not None:
            season_id = season.id
            board = page_of(
                await self._board(game, season_id, chosen),
                guild_id,
                game,
                season_id,
                sort=chosen,
                page=page,
                page_size=PAGE_SIZE,
                in_order=True,
            )
            total, pages = board.total, board.pages
            rows = [
                {
                    "rank": r.rank,
                    "user_id": str(r.user_id),
                    "name": r.display_name,
                    "url": paths.player(guild_id, r.user_id),
                    "rating": round(r.rating, 1),
                    "games": r.games,
                    "wins": r.wins,
                    "win_rate": round(r.win_rate, 4),
                    "points": r.points,
                }
                for r in board.rows
            ]
        return {
            "server_id": str(guild_id),
            "game": game,
            "season": _season(season) if season is not None else None,
            "seasons": [_season(s) for s in seasons],
            "sort": chosen,
            "sorts": list(SORTS),
            "page": page,
            "pages": pages,
            "page_size": PAGE_SIZE,
            "total": total,
            "rows": rows,
        }

    async def player(self, guild_id: int, user_id: int) -> dict[str, Any]:
        await self._server_on(guild_id)
        name = await self.reads.member_name(guild_id, user_id)
        if name is None:  # hidden, or never played here
            raise NotFound
        seasons = {s.id: s for s in await self._seasons(guild_id)}
        records = [
            {
                "game": row.game,
                "season": row.season_number,
                "season_name": row.season_name,
                "current": seasons[row.season_id].current if row.season_id in seasons else False,
                "games": row.games,
                "wins": row.wins,
                "points": row.points,
                "best_rank": row.best_rank,
                "rating": round(row.rating, 1) if row.rating is not None else None,
            }
            for row in await self.ledger.member_stats(guild_id, user_id)
        ]
        history = await self.reads.rating_history(guild_id, user_id)
        recent = await self.reads.recent_games(guild_id, user_id=user_id, limit=RECENT)
        return {
            "server_id": str(guild_id),
            "user_id": str(user_id),
            "name": name,
            "records": records,
            "history": [_point(p) for p in history],
            "recent_games": [_summary(guild_id, g) for g in recent],
        }

    async def _game(self, guild_id: int, game_id: int) -> tuple[WebGame, dict[str, Any]]:
        """The game and what every view of it shows: its facts and its seats."""
        await self._server_on(guild_id)
        found = await self.reads.game(game_id)
        if found is None or found.guild_id != guild_id:
            raise NotFound  # none, another server's, or a lobby (no table yet)
        return found, {"server_id": str(guild_id), **_summary(guild_id, found.summary)}

    async def game(self, guild_id: int, game_id: int) -> dict[str, Any]:
        """The game with its whole public replay (the API)."""
        found, facts = await self._game(guild_id, game_id)
        finished = found.summary.status == "finished"
        replay = self.replays.replay(game_id, found.log, finished)
        return {**facts, "steps": replay["steps"], "result": replay["result"] if finished else None}

    async def game_step(self, guild_id: int, game_id: int, step: int) -> dict[str, Any]:
        """The game with one step of its replay (a page): "step", "last", "result"."""
        found, facts = await self._game(guild_id, game_id)
        made = public_step(found.log, step)
        finished = found.summary.status == "finished"
        return {**facts, **made, "result": made["result"] if finished else None}
