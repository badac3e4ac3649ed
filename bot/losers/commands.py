"""`/losers start|hand|status|cancel|rules`: parse the options and hand over; no rule here."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import locale_key, t
from bot.tables import commands as common
from bot.tables.replies import lang_of

GAME = "rights-of-losers"

losers = app_commands.Group(
    name="losers",
    description=locale_key("cmd.losers.description"),
    guild_only=True,
)


@losers.command(name="start", description=locale_key("cmd.losers.start.description"))
@app_commands.describe(bots=locale_key("cmd.losers.start.param.bots.description"))
async def start(interaction: discord.Interaction, bots: app_commands.Range[int, 0, 4] = 0) -> None:
    title = t(lang_of(interaction), f"game.{GAME}")
    await common.open_table(interaction, GAME, title, {}, bots)


@losers.command(name="hand", description=locale_key("cmd.losers.hand.description"))
async def hand(interaction: discord.Interaction) -> None:
    await common.show_hand(interaction, GAME)


@losers.command(name="status", description=locale_key("cmd.losers.status.description"))
async def status(interaction: discord.Interaction) -> None:
    await common.show_status(interaction, GAME)


@losers.command(name="cancel", description=locale_key("cmd.losers.cancel.description"))
async def cancel(interaction: discord.Interaction) -> None:
    await common.ask_cancel(interaction, GAME)


@losers.command(name="rules", description=locale_key("cmd.losers.rules.description"))
async def rules(interaction: discord.Interaction) -> None:
    await common.show_rules(interaction, "losers")  # pages `losers.rules.pageN`
