"""`/highcard start|hand|status|cancel|rules|export`: the options, then the shared table code."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import locale_key, t
from bot.tables import commands as common
from bot.tables.replies import lang_of
from tests.games.highcard.rules import HighCard

# From the rules class, not from `spec`: the spec imports this module (its `commands`).
GAME = HighCard.name
PREFIX = "highcard"  # the catalogue prefix, `SPEC.i18n_prefix`


def _key(path: str) -> app_commands.locale_str:
    key: app_commands.locale_str = locale_key(f"cmd.{PREFIX}.{path}")
    return key


highcard = app_commands.Group(name=_key("name"), description=_key("description"), guild_only=True)


@highcard.command(name=_key("start.name"), description=_key("start.description"))
@app_commands.rename(bots=_key("start.param.bots.name"))
@app_commands.describe(bots=_key("start.param.bots.description"))
async def start(interaction: discord.Interaction, bots: app_commands.Range[int, 0, 3] = 0) -> None:
    title = t(lang_of(interaction), f"game.{GAME}")
    await common.open_table(interaction, GAME, title, {}, bots)


# The rules pages are `highcard.rules.pageN`, titled `game.highcard` (`bot.tables.rules_pages`).
for command in common.table_commands(GAME, rules=PREFIX):
    highcard.add_command(command)
