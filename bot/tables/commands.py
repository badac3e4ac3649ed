"""The slash commands every game has: start, hand, status, cancel (and the group around them)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping
from typing import Any, Final

import discord
from discord import app_commands

from bot.i18n import locale_key, t
from bot.runtime.errors import TableError
from bot.runtime.place import Place
from bot.runtime.table import Table
from bot.runtime.thinking import DEFAULT_LEVEL, OFFERED_LEVELS
from bot.tables import lookup
from bot.tables.buttons import button, view_of
from bot.tables.delivery_buttons import tell_dm_failure
from bot.tables.end_buttons import status_after_end
from bot.tables.ending import ANNOUNCEMENT
from bot.tables.export import export_command
from bot.tables.lobby_buttons import check_may_cancel
from bot.tables.recap import offer_recap
from bot.tables.replies import explain_error, lang_of
from bot.tables.rules_pages import show_rules

__all__ = [
    "DEFAULT_LEVEL",
    "LEVEL_CHOICES",
    "LEVEL_DESCRIPTION",
    "LEVEL_NAME",
    "open_table",
    "table_commands",
]

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Final = 1440


# `level:` of every game's `/… start`: the level of the computer seats it adds.
LEVEL_NAME = locale_key("cmd.start.param.level.name")
LEVEL_DESCRIPTION = locale_key("cmd.start.param.level.description")
LEVEL_CHOICES = [
    app_commands.Choice(name=locale_key(f"level.{level}"), value=level) for level in OFFERED_LEVELS
]


async def open_table(
    interaction: discord.Interaction,
    game: str,
    title: str,
    options: Mapping[str, Any],
    bots: int,
    level: str = DEFAULT_LEVEL,
) -> None:
    """`/<game> start`: announce, open a thread for the table (else the channel), seat the host.

    A refusal is answered privately and stays: only a public announcement already posted, which
    would promise a table that is not there, is deleted (before the answer, which is a separate
    message then). Typed in a thread, the first answer is the refusal itself, never deleted.
    """
    try:
        await _open_table(interaction, game, title, options, bots, level)
    except Exception as exc:
        if _announced(interaction):
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        await explain_error(interaction, exc, 0)


def _announced(interaction: discord.Interaction) -> bool:
    """Whether this `/start` posted its public announcement (in a thread it only defers)."""
    return interaction.response.type == discord.InteractionResponseType.channel_message


async def _open_table(
    interaction: discord.Interaction,
    game: str,
    title: str,
    options: Mapping[str, Any],
    bots: int,
    level: str,
) -> None:
    manager = lookup.manager_of(interaction)
    channel = interaction.channel
    if channel is None or interaction.guild_id is None:
        raise TableError("error.guild_only")
    lang = lang_of(interaction)
    host = interaction.user
    manager.check_room(interaction.guild_id, host.id)  # before anything is posted
    announcement: int | None = None  # the public message inviting people to the table
    if isinstance(channel, discord.Thread):
        place = Place(interaction.guild_id, channel.parent_id or channel.id, channel.id)
        manager.reserve(place.home)
        await interaction.response.defer(ephemeral=True)
    else:
        callback = await interaction.response.send_message(
            t(lang, "start.announce", user=host.mention, game=title)
        )
        place = await _thread_or_channel(interaction, callback, channel, title, host)
        message = getattr(callback, "resource", None)
        announcement = message.id if place.thread_id and message is not None else None
    try:
        lobby = await manager.open_lobby(
            game=game,
            place=place,
            host_id=host.id,
            host_name=host.display_name,
            options=options,
            bots=bots,
            level=level,
        )
    except BaseException:
        manager.release(place.home)
        raise
    if announcement is not None:  # edited to show the result once the game ends
        lobby.message_ids[ANNOUNCEMENT] = announcement
        await lobby.remember_messages()
    if place.thread_id is not None and isinstance(channel, discord.Thread):
        await interaction.followup.send(t(lang, "start.lobby_here"), ephemeral=True)


async def _thread_or_channel(
    interaction: discord.Interaction,
    callback: discord.InteractionCallbackResponse[discord.Client],
    channel: discord.abc.Snowflake,
    title: str,
    host: discord.User | discord.Member,
) -> Place:
    manager = lookup.manager_of(interaction)
    guild_id = interaction.guild_id or 0
    message = getattr(callback, "resource", None)
    try:
        if not isinstance(message, discord.InteractionMessage):
            raise TypeError("no message came back with the response")
        thread = await message.create_thread(
            name=f"{title} · {host.display_name}"[:100],
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        )
    except (discord.HTTPException, TypeError, ValueError) as exc:
        log.info("no thread for a table in channel %s (%s); using the channel", channel.id, exc)
        place = Place(guild_id, channel.id, None)
        manager.reserve(place.home)
        return place
    place = Place(guild_id, channel.id, thread.id)
    manager.reserve(place.home)
    return place


async def show_hand(interaction: discord.Interaction, game: str) -> None:
    try:
        item = lookup.here(interaction, game)
        if not isinstance(item, Table):
            raise TableError("table.not_started")
        seat = lookup.seat(item, interaction)
        await lookup.presenter_of(item).show_hand(interaction, item, seat)
    except Exception as exc:
        await explain_error(interaction, exc, 0)
        return
    await offer_recap(interaction, item.game_id)


async def show_status(interaction: discord.Interaction, game: str) -> None:
    try:
        item = lookup.here(interaction, game)
    except TableError as exc:
        if not await status_after_end(interaction, game):
            await explain_error(interaction, exc, 0)
        return
    try:
        await lookup.presenter_of(item).show_status(interaction, item)
    except Exception as exc:
        await explain_error(interaction, exc, 0)
        return
    await offer_recap(interaction, item.game_id)
    await tell_dm_failure(interaction, item.game_id)  # `/… hand` tells it with the hand


async def ask_cancel(interaction: discord.Interaction, game: str) -> None:
    try:
        item = lookup.here(interaction, game)
        check_may_cancel(item, interaction)
        lang = lang_of(interaction)
        view = view_of(
            button(
                "cancel_yes",
                item.game_id,
                label=t(lang, "cancel.confirm_button"),
                style=discord.ButtonStyle.danger,
            )
        )
        await interaction.response.send_message(
            t(lang, "cancel.confirm"), view=view, ephemeral=True
        )
    except Exception as exc:
        await explain_error(interaction, exc, 0)


def table_commands(
    game: str, rules: str | None = None
) -> list[app_commands.Command[Any, ..., None]]:
    """`hand`, `status`, `cancel`, `rules` and `export`: the same for every game's group.

    `rules` names the catalogue prefix of the rules pages (`<rules>.rules.pageN`), default `game`.
    """

    async def hand(interaction: discord.Interaction) -> None:
        await show_hand(interaction, game)

    async def status(interaction: discord.Interaction) -> None:
        await show_status(interaction, game)

    async def cancel(interaction: discord.Interaction) -> None:
        await ask_cancel(interaction, game)

    async def rules_pages(interaction: discord.Interaction) -> None:
        await show_rules(interaction, rules or game)

    made: list[app_commands.Command[Any, ..., None]] = [
        app_commands.Command(
            name=locale_key(f"cmd.table.{name}.name"),
            description=locale_key(f"cmd.table.{name}.description"),
            callback=callback,
        )
        for name, callback in (
            ("hand", hand),
            ("status", status),
            ("cancel", cancel),
            ("rules", rules_pages),
        )
    ]
    return [*made, export_command(game)]
