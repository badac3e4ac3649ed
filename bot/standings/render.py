"""Pure rendering of leaderboards, member stats and seasons: ledger records in, embeds out.

No Discord calls and no ledger calls here, so every function is a fast unit test.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import discord

from bot.games.registry import names
from bot.i18n import Language, count, t
from data.store import Champion, LeaderboardPage, Season, StatsRow

COLOUR = discord.Colour.dark_gold()
MAX_LINES = 4000  # an embed description holds 4096 characters


def game_name(lang: Language, game: str) -> str:
    return t(lang, f"game.{game}")


def ordinal(lang: Language, n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st ... in English; 1位, 2位 ... in Japanese."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return t(lang, f"standings.ordinal.{suffix}", n=n)


def season_name(lang: Language, number: int, name: str) -> str:
    """A season's name; the ledger's default name ("Season 3") is shown in the reader's language."""
    if name == f"Season {number}":
        return t(lang, "standings.season.default", number=number)
    return name


def season_label(lang: Language, season: Season) -> str:
    label = season_name(lang, season.number, season.name)
    return t(lang, "standings.season.current_mark", season=label) if season.current else label


def percent(rate: float) -> str:
    return f"{round(rate * 100)}%"


def _name(text: str) -> str:
    return discord.utils.escape_markdown(text)


def _when(moment: datetime) -> str:
    return discord.utils.format_dt(moment, "d")


def leaderboard_embed(lang: Language, board: LeaderboardPage, season: Season) -> discord.Embed:
    """One page of a game's standings: rank, member, rating, games, wins, win rate, points."""
    title = t(lang, "standings.board.title", game=game_name(lang, board.game))
    embed = discord.Embed(title=title, colour=COLOUR)
    embed.set_author(name=season_label(lang, season))
    if not board.rows:
        embed.description = t(lang, "standings.board.empty")
    else:
        lines = [
            t(
                lang,
                "standings.board.row",
                rank=row.rank,
                name=_name(row.display_name),
                rating=f"{row.rating:.0f}",
                games=count(lang, "game", row.games),
                wins=count(lang, "win", row.wins),
                rate=percent(row.win_rate),
                points=count(lang, "point", row.points),
            )
            for row in board.rows
        ]
        embed.description = "\n".join(lines)[:MAX_LINES]
    embed.set_footer(
        text=t(
            lang,
            "standings.board.footer",
            page=board.page + 1,
            pages=board.pages,
            total=board.total,
        )
    )
    return embed


def stats_embed(lang: Language, name: str, rows: Sequence[StatsRow]) -> discord.Embed:
    """A member's record: per game, the totals across seasons with the best finish, then each
    season (newest first) with its rating and leaderboard position when rated."""
    embed = discord.Embed(title=t(lang, "standings.stats.title", name=name), colour=COLOUR)
    if not rows:
        embed.description = t(lang, "standings.stats.empty", name=_name(name))
        return embed
    games = [g for g in names() if any(r.game == g for r in rows)]
    games += sorted({r.game for r in rows} - set(games))
    for game in games[:25]:
        mine = [r for r in rows if r.game == game]
        embed.add_field(name=game_name(lang, game), value=_game_record(lang, mine), inline=False)
    return embed


def _game_record(lang: Language, rows: Sequence[StatsRow]) -> str:
    games = sum(r.games for r in rows)
    wins = sum(r.wins for r in rows)
    lines = [
        t(
            lang,
            "standings.stats.total",
            games=count(lang, "game", games),
            wins=count(lang, "win", wins),
            rate=percent(wins / games if games else 0),
            points=count(lang, "point", sum(r.points for r in rows)),
            best=ordinal(lang, min(r.best_rank for r in rows)),
        )
    ]
    placed = [r for r in rows if r.position is not None]
    if placed:
        top = min(placed, key=lambda r: (r.position, -r.season_number))
        lines.append(
            t(
                lang,
                "standings.stats.best_standing",
                position=ordinal(lang, top.position or 0),
                season=season_name(lang, top.season_number, top.season_name),
            )
        )
    for r in rows:
        line = t(
            lang,
            "standings.stats.season",
            season=season_name(lang, r.season_number, r.season_name),
            games=count(lang, "game", r.games),
            wins=count(lang, "win", r.wins),
            points=count(lang, "point", r.points),
            best=ordinal(lang, r.best_rank),
        )
        if r.rating is not None and r.position is not None:
            line += t(
                lang,
                "standings.stats.rated",
                rating=f"{r.rating:.0f}",
                position=ordinal(lang, r.position),
            )
        if sum(len(x) + 1 for x in lines) + len(line) > 1000:  # a field holds 1024
            lines.append("…")
            break
        lines.append(line)
    return "\n".join(lines)


def champions_text(lang: Language, season: Season) -> str:
    if not season.champions:
        return t(lang, "standings.seasons.no_champions")
    by_game: dict[str, list[Champion]] = {}
    for champion in season.champions:
        by_game.setdefault(champion.game, []).append(champion)
    known = names()
    order = [g for g in known if g in by_game] + sorted(set(by_game) - set(known))
    parts = [
        t(
            lang,
            "standings.seasons.champion",
            game=game_name(lang, game),
            names=", ".join(_name(c.display_name) for c in by_game[game]),
            rating=f"{by_game[game][0].rating:.0f}",
        )
        for game in order
    ]
    return t(lang, "standings.seasons.champions", list=" · ".join(parts))


def seasons_embed(lang: Language, seasons: Sequence[Season]) -> discord.Embed:
    """Every season of a guild, newest first; past ones with their champions."""
    embed = discord.Embed(title=t(lang, "standings.seasons.title"), colour=COLOUR)
    lines: list[str] = []
    for season in seasons:
        label = season_name(lang, season.number, season.name)
        if season.ended_at is None:  # the current season
            line = t(
                lang, "standings.seasons.current", season=label, start=_when(season.started_at)
            )
        else:
            line = t(
                lang,
                "standings.seasons.past",
                season=label,
                start=_when(season.started_at),
                end=_when(season.ended_at),
            )
            line += "\n" + champions_text(lang, season)
        if sum(len(x) + 2 for x in lines) + len(line) > MAX_LINES - 100:
            lines.append(t(lang, "standings.seasons.more", n=len(seasons) - len(lines)))
            break
        lines.append(line)
    embed.description = "\n\n".join(lines) if lines else t(lang, "standings.seasons.empty")
    return embed
