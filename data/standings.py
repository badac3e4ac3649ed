"""Results, ratings, seasons, leaderboards, member stats: SQL run inside a unit of work.

The SQL is what SQLite and PostgreSQL both run (no `min(a, b)`, every selected column grouped).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from data import ratings
from data.conn import Conn, Row
from data.errors import LedgerError
from data.store import (
    GuildSettings,
    LeaderboardPage,
    LeaderboardRow,
    ResultRow,
    Seat,
    StatsRow,
)
from rules.base import AnyGame

# -- results and ratings -----------------------------------------------------------------------


# Why a finished game is not rated (stored with its results; the bot words each reason).
TOO_FEW_MEMBERS = "too_few_members"
COMPUTER_SEATS = "computer_seats"
UNRATED_REASONS = (TOO_FEW_MEMBERS, COMPUTER_SEATS)


def unrated_reason(seats: Sequence[Seat], settings: GuildSettings) -> str | None:
    """Why a game with these seats is not rated, None when it is: 2+ members are needed, and
    computer seats make a game unrated unless the guild says otherwise."""
    humans = [s for s in seats if not s.is_bot]
    if len(humans) < 2:
        return TOO_FEW_MEMBERS
    if len(humans) < len(seats) and not settings.rate_bot_games:
        return COMPUTER_SEATS
    return None


def is_rated(seats: Sequence[Seat], settings: GuildSettings) -> bool:
    return unrated_reason(seats, settings) is None


async def record_results(
    conn: Conn,
    *,
    game_id: int,
    game_name: str,
    season_id: int,
    seats: Sequence[Seat],
    state: AnyGame,
    rated: bool,
    now: str,
) -> list[ResultRow]:
    """Write the result rows of a finished game and, if rated, its rating updates."""
    scores = state.scores()
    winners = set(state.winners())
    ranks = ratings.competition_ranks(state.ranking())
    humans = [s for s in seats if not s.is_bot]
    after: dict[str, tuple[ratings.Rating, ratings.Rating]] = {}
    if rated:
        before = [await _rating(conn, season_id, game_name, s.user_id) for s in humans]
        new = ratings.rate(before, [ranks[s.player] for s in humans])
        after = {s.player: (b, a) for s, b, a in zip(humans, before, new, strict=True)}
    rows = []
    for seat in seats:
        b, a = after.get(seat.player, (None, None))
        rows.append(
            ResultRow(
                player=seat.player,
                user_id=seat.user_id,
                display_name=seat.display_name,
                is_bot=seat.is_bot,
                score=int(scores[seat.player]),
                rank=ranks[seat.player],
                winner=seat.player in winners,
                rating_before=b.display if b else None,
                rating_after=a.display if a else None,
                mu_before=b.mu if b else None,
                sigma_before=b.sigma if b else None,
                mu_after=a.mu if a else None,
                sigma_after=a.sigma if a else None,
            )
        )
    await conn.executemany(
        """INSERT INTO results (game_id, player, user_id, is_bot, display_name, score, rank,
               winner, mu_before, sigma_before, mu_after, sigma_after)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        [
            (
                game_id,
                r.player,
                r.user_id,
                r.is_bot,
                r.display_name,
                r.score,
                r.rank,
                r.winner,
                r.mu_before,
                r.sigma_before,
                r.mu_after,
                r.sigma_after,
            )
            for r in rows
        ],
    )
    if rated:
        await conn.executemany(
            """INSERT INTO ratings (season_id, game, user_id, display_name, mu, sigma, rating,
                   games, wins, points, best_rank, updated_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)
               ON CONFLICT (season_id, game, user_id) DO UPDATE SET
                   display_name = excluded.display_name, mu = excluded.mu,
                   sigma = excluded.sigma, rating = excluded.rating,
                   games = ratings.games + 1, wins = ratings.wins + excluded.wins,
                   points = ratings.points + excluded.points,
                   best_rank = CASE WHEN excluded.best_rank < ratings.best_rank
                                    THEN excluded.best_rank ELSE ratings.best_rank END,
                   updated_at = excluded.updated_at""",
            [
                (
                    season_id,
                    game_name,
                    r.user_id,
                    r.display_name,
                    r.mu_after,
                    r.sigma_after,
                    r.rating_after,
                    r.winner,
                    r.score,
                    r.rank,
                    now,
                )
                for r in rows
                if r.player in after
            ],
        )
    return sorted(rows, key=lambda r: r.rank)  # stable: seating order among ties


async def _rating(conn: Conn, season_id: int, game: str, user_id: int | None) -> ratings.Rating:
    async with conn.execute(
        "SELECT mu, sigma FROM ratings WHERE season_id = ? AND game = ? AND user_id = ?",
        (season_id, game, user_id),
    ) as cur:
        row = await cur.fetchone()
    return ratings.Rating(row["mu"], row["sigma"]) if row else ratings.Rating()


def result_row(row: Row) -> ResultRow:
    def disp(mu: float | None, sigma: float | None) -> float | None:
        return None if mu is None or sigma is None else ratings.display(mu, sigma)

    return ResultRow(
        player=row["player"],
        user_id=row["user_id"],
        display_name=row["display_name"],
        is_bot=bool(row["is_bot"]),
        score=row["score"],
        rank=row["rank"],
        winner=bool(row["winner"]),
        rating_before=disp(row["mu_before"], row["sigma_before"]),
        rating_after=disp(row["mu_after"], row["sigma_after"]),
        mu_before=row["mu_before"],
        sigma_before=row["sigma_before"],
        mu_after=row["mu_after"],
        sigma_after=row["sigma_after"],
    )


# -- leaderboards and stats --------------------------------------------------------------------

# A page in ONE statement, so that it is one round trip and its own snapshot (PostgreSQL needs
# no BEGIN/COMMIT around it): the season (the guild's current one, or the one asked if it is the
# guild's), the number of rated members, the page, and the number of members rated higher than
# its first row, from which the page's ranks follow (`_competition_ranks`). That count is asked
# once a page, not for each row: PostgreSQL computes a row's select list even for the rows OFFSET
# skips, so a deep page cost a count per skipped row. The outer join yields one row even for an
# empty page (a page past the end, or no season): its page columns are NULL.
PAGE = """
WITH season AS (
    SELECT id FROM seasons
    WHERE guild_id = ?
      AND CASE WHEN CAST(? AS BIGINT) IS NULL THEN ended_at IS NULL ELSE id = ? END
),
page AS (
    SELECT * FROM ratings
    WHERE season_id = (SELECT id FROM season) AND game = ?
    ORDER BY rating DESC, wins DESC, user_id
    LIMIT ? OFFSET ?
)
SELECT (SELECT id FROM season) AS page_season,
       (SELECT count(*) FROM ratings
        WHERE season_id = (SELECT id FROM season) AND game = ?) AS total,
       (SELECT count(*) FROM ratings
        WHERE season_id = (SELECT id FROM season) AND game = ?
          AND rating > (SELECT max(rating) FROM page)) AS higher,
       page.*
FROM (SELECT 1 AS one) AS always LEFT JOIN page ON always.one = 1
ORDER BY page.rating DESC, page.wins DESC, page.user_id
"""


async def leaderboard(
    conn: Conn, guild_id: int, game: str, season_id: int | None, page: int, size: int
) -> LeaderboardPage:
    """A page of the board of `season_id` (by default the guild's current season); LedgerError
    if `season_id` is not one of the guild's seasons."""
    params = (guild_id, season_id, season_id, game, size, page * size, game, game)
    async with conn.execute(PAGE, params) as cur:
        found = list(await cur.fetchall())
    first = found[0]  # the outer join's one row at least
    if first["page_season"] is None:
        if season_id is not None:
            raise LedgerError(f"season {season_id} is not a season of this guild")
        return LeaderboardPage(guild_id, game, None, page, size, 0, [])
    rows = [row for row in found if row["user_id"] is not None]
    ranks = _competition_ranks(first["higher"], page * size, rows)
    board = [board_row(row, rank) for rank, row in zip(ranks, rows, strict=True)]
    return LeaderboardPage(guild_id, game, first["page_season"], page, size, first["total"], board)


def _competition_ranks(higher: int, offset: int, rows: list[Row]) -> list[int]:
    """1 + the number of members rated higher, for each row of a page sorted by rating: `higher`
    counts them for the first row; a later row has the rank of the one before when they tie,
    else its own place (every member before it is rated higher)."""
    if not rows:
        return []
    ranks = [1 + int(higher)]
    for place, (before, row) in enumerate(pairwise(rows), start=offset + 2):
        ranks.append(ranks[-1] if row["rating"] == before["rating"] else place)
    return ranks


def board_row(row: Row, rank: int | None = None) -> LeaderboardRow:
    """A `ratings` row as the boards show it, at `rank` (by default its `position` column)."""
    return LeaderboardRow(
        rank=row["position"] if rank is None else rank,
        user_id=row["user_id"],
        display_name=row["display_name"],
        rating=row["rating"],
        mu=row["mu"],
        sigma=row["sigma"],
        games=row["games"],
        wins=row["wins"],
        win_rate=row["wins"] / row["games"],
        points=row["points"],
    )


STATS = """
SELECT g.game, g.season_id, s.number, s.name, count(*) AS games, sum(r.winner) AS wins,
       sum(r.score) AS points, min(r.rank) AS best_rank,
       t.mu, t.sigma, t.rating,
       CASE WHEN t.rating IS NULL THEN NULL ELSE 1 + (
           SELECT count(*) FROM ratings a
           WHERE a.season_id = g.season_id AND a.game = g.game AND a.rating > t.rating) END
       AS position
FROM results r
JOIN games g ON g.id = r.game_id
JOIN seasons s ON s.id = g.season_id
LEFT JOIN ratings t ON t.season_id = g.season_id AND t.game = g.game AND t.user_id = r.user_id
WHERE r.user_id = ? AND g.guild_id = ? AND g.status = 'finished'
GROUP BY g.game, g.season_id, s.number, s.name, t.mu, t.sigma, t.rating
ORDER BY s.number DESC, g.game
"""


async def member_stats(conn: Conn, guild_id: int, user_id: int) -> list[StatsRow]:
    async with conn.execute(STATS, (user_id, guild_id)) as cur:
        return [
            StatsRow(
                game=row["game"],
                season_id=row["season_id"],
                season_number=row["number"],
                season_name=row["name"],
                games=row["games"],
                wins=row["wins"],
                points=row["points"],
                best_rank=row["best_rank"],
                rating=row["rating"],
                mu=row["mu"],
                sigma=row["sigma"],
                position=row["position"],
            )
            async for row in cur
        ]
