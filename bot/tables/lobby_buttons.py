"""Join, Leave, Start and Cancel on a lobby; Your hand, I'm back and cancelling at a table."""

from __future__ import annotations

import discord

from bot.i18n import t
from bot.runtime.errors import TableError
from bot.tables import lookup
from bot.tables.buttons import button, handles, view_of
from bot.tables.replies import can_manage, ephemeral, lang_of


@handles("join")
async def join(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    lobby = lookup.lobby(interaction, game_id)
    await lobby.join(interaction.user.id, interaction.user.display_name)
    await interaction.response.defer()


@handles("leave")
async def leave(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    lobby = lookup.lobby(interaction, game_id)
    await lobby.leave(interaction.user.id)
    await interaction.response.defer()


@handles("start")
async def start(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    lobby = lookup.lobby(interaction, game_id)
    await lookup.manager_of(interaction).start(lobby, interaction.user.id, can_manage(interaction))
    await interaction.response.defer()


@handles("hand")
async def hand(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    table = lookup.table(interaction, game_id)
    seat = lookup.seat(table, interaction)
    await lookup.presenter_of(table).show_hand(interaction, table, seat)


@handles("back")
async def back(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    table = lookup.table(interaction, game_id)
    seat = lookup.seat(table, interaction)
    if await table.back(seat.player):
        await ephemeral(interaction, t(lang_of(interaction), "table.back_ok"))
    else:
        await ephemeral(interaction, t(lang_of(interaction), "table.back_not_needed"))


def check_may_cancel(item: object, interaction: discord.Interaction) -> None:
    if getattr(item, "host_id", None) != interaction.user.id and not can_manage(interaction):
        raise TableError("error.only_host_cancels")


@handles("cancel")
async def cancel(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    """Ask for confirmation; `cancel_yes` does it."""
    item = lookup.item(interaction, game_id)
    check_may_cancel(item, interaction)
    lang = lang_of(interaction)
    view = view_of(
        button(
            "cancel_yes",
            game_id,
            label=t(lang, "cancel.confirm_button"),
            style=discord.ButtonStyle.danger,
        )
    )
    await ephemeral(interaction, t(lang, "cancel.confirm"), view=view)


@handles("cancel_yes")
async def cancel_yes(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    item = lookup.item(interaction, game_id)
    check_may_cancel(item, interaction)
    await item.cancel("cancel.by_user")
    await interaction.response.edit_message(
        content=t(lang_of(interaction), "cancel.done"), view=None
    )
