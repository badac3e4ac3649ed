"""`/kamiza start|hand|status|cancel|rules`: parse the options and hand over; no rule here."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.i18n import t
from bot.tables import commands as common
from bot.tables.replies import lang_of

GAME = "kamiza"

kamiza = app_commands.Group(
    name="kamiza",
    description="KAMIZA: bluff your Boss into the top seat (3-4 players)",
    guild_only=True,
)


@kamiza.command(name="start", description="Open a KAMIZA table in a new thread")
@app_commands.describe(
    edition="second generation (default) or classic (2014)",
    advanced="the start player's card is played face up",
    bots="computer players to fill seats (0-3)",
)
async def start(
    interaction: discord.Interaction,
    edition: Literal["second", "classic"] | None = None,
    advanced: bool = False,
    bots: app_commands.Range[int, 0, 3] = 0,
) -> None:
    if edition is None:
        settings = await interaction.client.ledger.guild_settings(  # type: ignore[attr-defined]
            interaction.guild_id or 0
        )
        edition = settings.kamiza_edition  # type: ignore[assignment]
    title = t(lang_of(interaction), "game.kamiza")
    await common.open_table(
        interaction, GAME, title, {"edition": edition, "advanced": advanced}, bots
    )


@kamiza.command(name="hand", description="Show your hand privately")
async def hand(interaction: discord.Interaction) -> None:
    await common.show_hand(interaction, GAME)


@kamiza.command(name="status", description="Show the table privately")
async def status(interaction: discord.Interaction) -> None:
    await common.show_status(interaction, GAME)


@kamiza.command(name="cancel", description="Cancel this table (host or Manage Server)")
async def cancel(interaction: discord.Interaction) -> None:
    await common.ask_cancel(interaction, GAME)


@kamiza.command(name="rules", description="How to play KAMIZA")
async def rules(interaction: discord.Interaction) -> None:
    await common.show_rules(interaction, GAME)
