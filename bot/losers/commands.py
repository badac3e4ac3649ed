"""`/losers start|hand|status|cancel|rules`: parse the options and hand over; no rule here."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import locale_key, t
from bot.tables import commands as common
from bot.tables.replies import lang_of

GAME = "rights-of-losers"

losers = app_commands.Group(
    name=locale_key("cmd.losers.name"),
    description=locale_key("cmd.losers.description"),
    guild_only=True,
)


@losers.command(
    name=locale_key("cmd.losers.start.name"),
    description=locale_key("cmd.losers.start.description"),
)
@app_commands.rename(bots=locale_key("cmd.losers.start.param.bots.name"), level=common.LEVEL_NAME)
@app_commands.describe(
    bots=locale_key("cmd.losers.start.param.bots.description"), level=common.LEVEL_DESCRIPTION
)
@app_commands.choices(level=common.LEVEL_CHOICES)
async def start(
    interaction: discord.Interaction,
    bots: app_commands.Range[int, 0, 4] = 0,
    level: str = common.DEFAULT_LEVEL,
) -> None:
    title = t(lang_of(interaction), f"game.{GAME}")
    await common.open_table(interaction, GAME, title, {}, bots, level)


for command in common.table_commands(GAME, rules="losers"):
    losers.add_command(command)
