"""`/about`: what the bot is, the games it hosts and their commands, its version."""

from __future__ import annotations

from importlib import metadata

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.registry import games
from bot.i18n import locale_key, t


def version() -> str:
    try:
        return metadata.version("kamiza")
    except metadata.PackageNotFoundError:
        return "unknown"


def about_embed(locale: discord.Locale | str) -> discord.Embed:
    embed = discord.Embed(
        title=t(locale, "about.title"),
        description=t(locale, "about.description"),
        colour=discord.Colour.dark_red(),
    )
    for game in games():
        embed.add_field(
            name=f"{t(locale, game.display_key)} — /{game.command}",
            value=t(locale, game.about_key),
            inline=False,
        )
    embed.set_footer(text=t(locale, "about.version", version=version()))
    return embed


class Meta(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name=locale_key("cmd.about.name"), description=locale_key("cmd.about.description")
    )
    async def about(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            embed=about_embed(interaction.locale), ephemeral=True
        )
