"""`/kobayakawa start|hand|status|cancel|rules`: parse the options and hand over; no rule here."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import locale_key, t
from bot.tables import commands as common
from bot.tables.replies import lang_of

GAME = "kobayakawa"

kobayakawa = app_commands.Group(
    name=locale_key("cmd.kobayakawa.name"),
    description=locale_key("cmd.kobayakawa.description"),
    guild_only=True,
)


@kobayakawa.command(
    name=locale_key("cmd.kobayakawa.start.name"),
    description=locale_key("cmd.kobayakawa.start.description"),
)
@app_commands.rename(
    bots=locale_key("cmd.kobayakawa.start.param.bots.name"),
    simultaneous=locale_key("cmd.kobayakawa.start.param.simultaneous.name"),
    level=common.LEVEL_NAME,
)
@app_commands.describe(
    bots=locale_key("cmd.kobayakawa.start.param.bots.description"),
    simultaneous=locale_key("cmd.kobayakawa.start.param.simultaneous.description"),
    level=common.LEVEL_DESCRIPTION,
)
@app_commands.choices(level=common.LEVEL_CHOICES)
async def start(
    interaction: discord.Interaction,
    bots: app_commands.Range[int, 0, 5] = 0,
    simultaneous: bool = False,
    level: str = common.DEFAULT_LEVEL,
) -> None:
    title = t(lang_of(interaction), "game.kobayakawa")
    options = {"simultaneous": True} if simultaneous else {}  # the house rule (RULES.md H-2)
    await common.open_table(interaction, GAME, title, options, bots, level)


for command in common.table_commands(GAME):
    kobayakawa.add_command(command)
