"""`/leaderboard [game] [season]` and `/stats [member]`."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.registry import games
from bot.i18n import locale_key
from bot.standings import render
from bot.standings.access import failed, in_guild, lang_of, ledger_of, tell
from bot.standings.buttons import leaderboard_reply
from bot.weblinks import web_base_of
from data.store import Season

# Read when the cog is imported: `bot.client` has loaded the game registry by then.
GAME_CHOICES = [app_commands.Choice(name=locale_key(g.display_key), value=g.name) for g in games()]
DEFAULT_GAME = GAME_CHOICES[0].value


class Standings(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name=locale_key("cmd.leaderboard.name"),
        description=locale_key("cmd.leaderboard.description"),
    )
    @app_commands.guild_only()
    @app_commands.rename(
        game=locale_key("cmd.leaderboard.param.game.name"),
        season=locale_key("cmd.leaderboard.param.season.name"),
    )
    @app_commands.describe(
        game=locale_key("cmd.leaderboard.param.game.description"),
        season=locale_key("cmd.leaderboard.param.season.description"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str = DEFAULT_GAME,
        season: app_commands.Range[int, 1, 1_000_000] | None = None,
    ) -> None:
        """The guild's standings for a game and season, paged."""
        if not await in_guild(interaction):
            return
        try:
            ledger = ledger_of(interaction)
            guild_id = interaction.guild_id
            assert guild_id is not None
            chosen: Season | None
            if season is None:
                chosen = await ledger.current_season(guild_id)
            else:
                seasons = await ledger.seasons(guild_id)
                chosen = next((s for s in seasons if s.number == season), None)
                if chosen is None:
                    await tell(interaction, "standings.no_such_season", number=season)
                    return
            embed, view = await leaderboard_reply(
                ledger,
                lang_of(interaction),
                guild_id,
                game,
                chosen,
                0,
                web_base=web_base_of(interaction.client),
            )
            if view is None:
                await interaction.response.send_message(embed=embed)
            else:
                await interaction.response.send_message(embed=embed, view=view)
        except Exception as e:
            await failed(interaction, e, "/leaderboard")

    @app_commands.command(
        name=locale_key("cmd.stats.name"), description=locale_key("cmd.stats.description")
    )
    @app_commands.guild_only()
    @app_commands.rename(member=locale_key("cmd.stats.param.member.name"))
    @app_commands.describe(member=locale_key("cmd.stats.param.member.description"))
    async def stats(
        self, interaction: discord.Interaction, member: discord.User | None = None
    ) -> None:
        """A member's record per game, across seasons, with their best finish."""
        if not await in_guild(interaction):
            return
        try:
            who = member or interaction.user
            assert interaction.guild_id is not None
            rows = await ledger_of(interaction).member_stats(interaction.guild_id, who.id)
            embed = render.stats_embed(lang_of(interaction), who.display_name, rows)
            await interaction.response.send_message(embed=embed)
        except Exception as e:
            await failed(interaction, e, "/stats")
