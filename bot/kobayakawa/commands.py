"""`/kobayakawa start|hand|status|cancel|rules`: parse the options and hand over; no rule here."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import locale_key, t
from bot.tables import commands as common
from bot.tables.export import export_command
from bot.tables.replies import lang_of

GAME = "kobayakawa"

kobayakawa = app_commands.Group(
    name="kobayakawa",
    description=locale_key("cmd.kobayakawa.description"),
    guild_only=True,
)


@kobayakawa.command(name="start", description=locale_key("cmd.kobayakawa.start.description"))
@app_commands.describe(bots=locale_key("cmd.kobayakawa.start.param.bots.description"))
async def start(interaction: discord.Interaction, bots: app_commands.Range[int, 0, 5] = 0) -> None:
    title = t(lang_of(interaction), "game.kobayakawa")
    await common.open_table(interaction, GAME, title, {}, bots)


@kobayakawa.command(name="hand", description=locale_key("cmd.kobayakawa.hand.description"))
async def hand(interaction: discord.Interaction) -> None:
    await common.show_hand(interaction, GAME)


@kobayakawa.command(name="status", description=locale_key("cmd.kobayakawa.status.description"))
async def status(interaction: discord.Interaction) -> None:
    await common.show_status(interaction, GAME)


@kobayakawa.command(name="cancel", description=locale_key("cmd.kobayakawa.cancel.description"))
async def cancel(interaction: discord.Interaction) -> None:
    await common.ask_cancel(interaction, GAME)


@kobayakawa.command(name="rules", description=locale_key("cmd.kobayakawa.rules.description"))
async def rules(interaction: discord.Interaction) -> None:
    await common.show_rules(interaction, GAME)


kobayakawa.add_command(export_command(GAME))
