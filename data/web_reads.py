"""What the web companion (`web/`) reads of the ledger, on either backend: read-only queries.

Every read here leaves out the members who hid themselves (`member_prefs.web = 'hidden'`): a
leaderboard ranks the members it shows, a game lists a hidden member's seat without their name
or id (`GameSummary.players`). Whether a server is on the web at all is `WebReads.guild_on`;
the site checks it before any read of that server.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, Protocol, get_args

from data import ratings
from data.records import parse_time
from data.standings import board_row
from data.store import LeaderboardPage, LeaderboardRow

Sort = Literal["rating", "games", "wins", "win_rate", "points", "name"]
SORTS: tuple[Sort, ...] = get_args(Sort)
# Every order ends on the rating then the user id: a page boundary never splits ties at random.
SORT_KEYS: dict[Sort, Callable[[LeaderboardRow], tuple[Any, ...]]] = {
    "rating": lambda r: (-r.rating, -r.wins, r.user_id),
    "games": lambda r: (-r.games, -r.rating, r.user_id),
    "wins": lambda r: (-r.wins, -r.rating, r.user_id),
    "win_rate": lambda r: (-r.win_rate, -r.rating, r.user_id),
    "points": lambda r: (-r.points, -r.rating, r.user_id),
    "name": lambda r: (r.display_name.casefold(), -r.rating, r.user_id),
}


def in_order_of(board: Sequence[LeaderboardRow], sort: Sort) -> Sequence[LeaderboardRow]:
    """A ranked board (best first) in `sort` order."""
    return board if sort == "rating" else sorted(board, key=SORT_KEYS[sort])


def page_of(
    board: Sequence[LeaderboardRow],
    guild_id: int,
    game: str,
    season_id: int,
    *,
    sort: Sort = "rating",
    page: int = 0,
    page_size: int = 25,
    in_order: bool = False,
) -> LeaderboardPage:
    """One page of a whole ranked board (`WebReads.board`) in `sort` order; `in_order`: the
    board is in that order already (`in_order_of`)."""
    if sort not in SORTS:
        raise ValueError(f"sort must be one of {', '.join(SORTS)}")
    if not 1 <= page_size <= 100 or page < 0:
        raise ValueError("page must be >= 0 and page_size 1 to 100")
    ordered = board if in_order else in_order_of(board, sort)
    rows = list(ordered[page * page_size : (page + 1) * page_size])
    return LeaderboardPage(guild_id, game, season_id, page, page_size, len(board), rows)


def shown(column: str) -> str:
    """SQL true when the member `column` names has not hidden themselves from the web."""
    return (
        f"NOT EXISTS (SELECT 1 FROM member_prefs hidden_m"
        f" WHERE hidden_m.user_id = {column} AND hidden_m.web = 'hidden')"
    )


class Reader(Protocol):
    """A ledger that lends a read snapshot (`data.sql_ledger.SqlLedger.read`)."""

    def read(self) -> Any: ...


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A member's displayed rating after one rated game."""

    game_id: int
    game: str
    season_id: int
    ended_at: datetime | None
    rating: float


@dataclass(frozen=True, slots=True)
class Player:
    """One seat of a game as the web shows it: `user_id` and `name` are None for a member who
    hid themselves (and `hidden` True); bots are shown by their seat name."""

    seat: int
    name: str | None
    user_id: int | None
    is_bot: bool
    hidden: bool
    score: int | None
    rank: int | None
    winner: bool


@dataclass(frozen=True, slots=True)
class GameSummary:
    id: int
    game: str
    status: str
    season_id: int
    started_at: datetime | None
    ended_at: datetime | None
    rated: bool
    players: list[Player]


# Ranked among the members shown, in one pass (a window): a rank counted row by row would read
# the board again for every row.
@dataclass(frozen=True, slots=True)
class WebGame:
    """A started game as its page shows it: its summary (seats included), server and log."""

    summary: GameSummary
    guild_id: int
    log: dict[str, Any]


GAME = """SELECT id, game, guild_id, status, season_id, rated, started_at, ended_at, header
          FROM games WHERE id = ?"""
ACTIONS = "SELECT action FROM actions WHERE game_id = ? ORDER BY seq"

BOARD = f"""
SELECT r.user_id, r.display_name, r.rating, r.mu, r.sigma, r.games, r.wins, r.points,
       RANK() OVER (ORDER BY r.rating DESC) AS position
FROM ratings r
WHERE r.season_id = ? AND r.game = ? AND {shown("r.user_id")}
ORDER BY r.rating DESC, r.wins DESC, r.user_id
"""

HISTORY = """
SELECT g.id, g.game, g.season_id, g.ended_at, r.mu_after, r.sigma_after
FROM results r JOIN games g ON g.id = r.game_id
WHERE r.user_id = ? AND g.guild_id = ? AND g.status = 'finished' AND g.rated = 1
      AND r.mu_after IS NOT NULL
ORDER BY g.id
"""


class WebReads:
    """The web's reads of one ledger (SQLite or PostgreSQL)."""

    def __init__(self, ledger: Reader) -> None:
        self._ledger = ledger

    async def guild_on(self, guild_id: int) -> bool:
        """Whether an admin turned the server's web pages on (`/settings web: on`)."""
        async with (
            self._ledger.read() as conn,
            conn.execute("SELECT web FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cur,
        ):
            row = await cur.fetchone()
        return row is not None and bool(row[0])

    async def hidden(self, user_ids: Iterable[int]) -> set[int]:
        """Which of these members hid themselves from the web."""
        ids = sorted(set(user_ids))
        if not ids:
            return set()
        marks = ",".join("?" * len(ids))
        sql = f"SELECT user_id FROM member_prefs WHERE web = 'hidden' AND user_id IN ({marks})"
        async with self._ledger.read() as conn, conn.execute(sql, ids) as cur:
            return {row[0] async for row in cur}

    async def member_name(self, guild_id: int, user_id: int) -> str | None:
        """The name a shown member last played under in this server; None for a hidden member
        or one who never sat at a table there."""
        sql = f"""SELECT s.display_name FROM seats s JOIN games g ON g.id = s.game_id
                  WHERE s.user_id = ? AND g.guild_id = ? AND {shown("s.user_id")}
                  ORDER BY g.id DESC LIMIT 1"""
        async with self._ledger.read() as conn, conn.execute(sql, (user_id, guild_id)) as cur:
            row = await cur.fetchone()
        return None if row is None else str(row[0])

    async def board(self, game: str, season_id: int) -> list[LeaderboardRow]:
        """A season's whole board of shown members, ranked among themselves, best first (the
        site pages and sorts it, `page_of`)."""
        async with self._ledger.read() as conn, conn.execute(BOARD, (season_id, game)) as cur:
            return [board_row(row) async for row in cur]

    async def rating_history(self, guild_id: int, user_id: int) -> list[RatingPoint]:
        """The member's displayed rating after each of their rated games in this server, oldest
        first (every game and season: the chart draws one line per game)."""
        async with self._ledger.read() as conn, conn.execute(HISTORY, (user_id, guild_id)) as cur:
            return [
                RatingPoint(
                    game_id=row["id"],
                    game=row["game"],
                    season_id=row["season_id"],
                    ended_at=parse_time(row["ended_at"]),
                    rating=ratings.display(row["mu_after"], row["sigma_after"]),
                )
                async for row in cur
            ]

    async def players(self, game_id: int) -> list[Player]:
        """A game's seats as the web shows them (hidden members nameless), by seat."""
        async with self._ledger.read() as conn:
            return (await _players(conn, [game_id])).get(game_id, [])

    async def game(self, game_id: int) -> WebGame | None:
        """A started game's facts, log and seats in one snapshot (three queries; a game page
        needs nothing else); None for no such game or a lobby."""
        async with self._ledger.read() as conn:
            rows = await fetch_all(conn, GAME, (game_id,))
            if not rows or rows[0]["header"] is None:
                return None
            row = rows[0]
            actions = await fetch_all(conn, ACTIONS, (game_id,))
            players = (await _players(conn, [game_id])).get(game_id, [])
        return WebGame(
            summary=_summary(row, players),
            guild_id=row["guild_id"],
            log={**json.loads(row["header"]), "actions": [json.loads(a[0]) for a in actions]},
        )

    async def recent_games(
        self, guild_id: int, *, user_id: int | None = None, limit: int = 20
    ) -> list[GameSummary]:
        """The server's latest started games (of one member, given `user_id`), newest first."""
        where, args = ["g.guild_id = ?", "g.header IS NOT NULL"], [guild_id]
        if user_id is not None:
            where.append("EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?)")
            args.append(user_id)
        sql = f"""SELECT g.id, g.game, g.status, g.season_id, g.started_at, g.ended_at, g.rated
                  FROM games g WHERE {" AND ".join(where)} ORDER BY g.id DESC LIMIT ?"""
        async with self._ledger.read() as conn:
            async with conn.execute(sql, (*args, limit)) as cur:
                games = list(await cur.fetchall())
            players = await _players(conn, [row["id"] for row in games])
        return [_summary(row, players.get(row["id"], [])) for row in games]


def _summary(row: Any, players: list[Player]) -> GameSummary:
    return GameSummary(
        id=row["id"],
        game=row["game"],
        status=row["status"],
        season_id=row["season_id"],
        started_at=parse_time(row["started_at"]),
        ended_at=parse_time(row["ended_at"]),
        rated=bool(row["rated"]),
        players=players,
    )


async def fetch_all(conn: Any, sql: str, params: Sequence[Any]) -> list[Any]:
    """Every row of a query in one call to the database's thread where the connection can
    (aiosqlite's `execute_fetchall`; a cursor's execute, fetch and close are three), else by a
    cursor (PostgreSQL's `PgConn`, whose statements are one round trip anyway)."""
    quick = getattr(conn, "execute_fetchall", None)
    if quick is not None:
        return list(await quick(sql, params))
    async with conn.execute(sql, params) as cur:
        return list(await cur.fetchall())


async def _players(conn: Any, game_ids: list[int]) -> dict[int, list[Player]]:
    """The seats of these games with their results, hidden members nameless."""
    if not game_ids:
        return {}
    marks = ",".join("?" * len(game_ids))
    sql = f"""SELECT s.game_id, s.position, s.user_id, s.display_name, s.is_bot,
                     r.score, r.rank, r.winner,
                     CASE WHEN s.user_id IS NULL THEN 0 WHEN {shown("s.user_id")} THEN 0
                          ELSE 1 END AS hidden
              FROM seats s LEFT JOIN results r ON r.game_id = s.game_id AND r.player = s.player
              WHERE s.game_id IN ({marks}) ORDER BY s.game_id, s.position"""
    found: dict[int, list[Player]] = {}
    for row in await fetch_all(conn, sql, game_ids):
        hidden = bool(row["hidden"])
        found.setdefault(row["game_id"], []).append(
            Player(
                seat=row["position"],
                name=None if hidden else row["display_name"],
                user_id=None if hidden else row["user_id"],
                is_bot=bool(row["is_bot"]),
                hidden=hidden,
                score=row["score"],
                rank=row["rank"],
                winner=bool(row["winner"]),
            )
        )
    return found
