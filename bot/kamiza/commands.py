"""`/kamiza start|hand|status|cancel|rules|export`: parse the options and hand over; no rule here.

Names, descriptions and choices are catalogue keys (`cmd.kamiza.*`, `bot/i18n/*/commands.json`):
Discord shows them in Japanese to Japanese clients (`bot.i18n.translator`).
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import locale_key, t
from bot.standings.access import ledger_of
from bot.tables import commands as common
from bot.tables.replies import lang_of
from rules.kamiza import EDITIONS, Kamiza

# From the rules, not from `bot.kamiza.spec`: the spec imports this module (its `commands`).
GAME = Kamiza.name


def _key(path: str) -> app_commands.locale_str:
    return locale_key(f"cmd.kamiza.{path}")


kamiza = app_commands.Group(
    name=_key("name"),
    description=_key("description"),
    guild_only=True,
)


@kamiza.command(name=_key("start.name"), description=_key("start.description"))
@app_commands.rename(
    edition=_key("start.param.edition.name"),
    advanced=_key("start.param.advanced.name"),
    bots=_key("start.param.bots.name"),
    simultaneous=_key("start.param.simultaneous.name"),
    level=common.LEVEL_NAME,
)
@app_commands.describe(
    edition=_key("start.param.edition.description"),
    advanced=_key("start.param.advanced.description"),
    bots=_key("start.param.bots.description"),
    simultaneous=_key("start.param.simultaneous.description"),
    level=common.LEVEL_DESCRIPTION,
)
@app_commands.choices(
    edition=[
        app_commands.Choice(name=_key(f"start.param.edition.choice.{e}"), value=e) for e in EDITIONS
    ],
    level=common.LEVEL_CHOICES,
)
async def start(
    interaction: discord.Interaction,
    edition: str | None = None,
    advanced: bool = False,
    bots: app_commands.Range[int, 0, 3] = 0,
    simultaneous: bool = False,
    level: str = common.DEFAULT_LEVEL,
) -> None:
    if edition is None:
        settings = await ledger_of(interaction).guild_settings(interaction.guild_id or 0)
        edition = settings.edition(GAME)
    title = t(lang_of(interaction), "game.kamiza")
    options: dict[str, object] = {"edition": edition, "advanced": advanced}
    if simultaneous:  # the house rule (RULES.md H-1): absent when off, as in every older game
        options["simultaneous"] = True
    await common.open_table(interaction, GAME, title, options, bots, level)


for command in common.table_commands(GAME):
    kamiza.add_command(command)
