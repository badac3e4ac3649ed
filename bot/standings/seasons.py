"""`/newseason [name]` (Manage Server, confirmed by a button) and `/season list` (everyone).

Discord hides a command from members by its top-level `default_member_permissions`, so the
admin part cannot be a subcommand of `/season`, which every member sees: it is a command of its
own, hidden from members without Manage Server, and checked again when it runs (a server's
admins may show it to others).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import locale_key, t
from bot.standings import render
from bot.standings.access import failed, in_guild, is_manager, lang_of, ledger_of
from bot.standings.buttons import PROPOSED, CancelButton, NewSeasonButton

NAME_LENGTH = 50  # characters of a season's name


class Seasons(commands.Cog):
    season = app_commands.Group(
        name=locale_key("cmd.season.name"),
        description=locale_key("cmd.season.description"),
        guild_only=True,
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name=locale_key("cmd.newseason.name"), description=locale_key("cmd.newseason.description")
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)  # hidden from members; still checked
    @app_commands.rename(name=locale_key("cmd.newseason.param.name.name"))
    @app_commands.describe(name=locale_key("cmd.newseason.param.name.description"))
    async def new_season(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, NAME_LENGTH] | None = None,
    ) -> None:
        """Ask for confirmation, then archive the current standings and start a new season."""
        if not await is_manager(interaction):
            return
        try:
            lang = lang_of(interaction)
            guild_id = interaction.guild_id
            assert guild_id is not None
            current = await ledger_of(interaction).current_season(guild_id)
            name = name.strip().replace("\n", " ") if name else None
            upcoming = name or render.season_name(
                lang, current.number + 1, f"Season {current.number + 1}"
            )
            view = discord.ui.View(timeout=None)
            view.add_item(
                NewSeasonButton(
                    guild_id,
                    current.id,
                    PROPOSED.propose(name) if name else None,
                    t(lang, "common.confirm"),
                )
            )
            view.add_item(CancelButton(guild_id, t(lang, "common.cancel")))
            text = t(
                lang,
                "standings.season_new.confirm",
                season=upcoming,
                current=render.season_name(lang, current.number, current.name),
            )
            await interaction.response.send_message(text, view=view, ephemeral=True)
        except Exception as e:
            await failed(interaction, e, "/newseason")

    @season.command(
        name=locale_key("cmd.season.list.name"),
        description=locale_key("cmd.season.list.description"),
    )
    async def list_seasons(self, interaction: discord.Interaction) -> None:
        """Every season of this server, newest first, past ones with their champions."""
        if not await in_guild(interaction):
            return
        try:
            assert interaction.guild_id is not None
            ledger = ledger_of(interaction)
            await ledger.current_season(interaction.guild_id)  # a guild always has one
            seasons = await ledger.seasons(interaction.guild_id)
            await interaction.response.send_message(
                embed=render.seasons_embed(lang_of(interaction), seasons)
            )
        except Exception as e:
            await failed(interaction, e, "/season list")
