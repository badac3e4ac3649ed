"""Finding the lobby or table an interaction is about, and the user's seat at it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.runtime.errors import NotSeated, TableClosed, TableError
from bot.runtime.lobby import Lobby
from bot.runtime.table import Table
from data.store import Seat

if TYPE_CHECKING:
    from bot.runtime.manager import TableManager


def manager_of(interaction: discord.Interaction) -> TableManager:
    return interaction.client.tables  # type: ignore[attr-defined]


def lobby(interaction: discord.Interaction, game_id: int) -> Lobby:
    item = manager_of(interaction).get(game_id)
    if isinstance(item, Table):
        raise TableError("lobby.already_started")
    if item is None or item.closed:
        raise TableClosed()
    return item


def table(interaction: discord.Interaction, game_id: int) -> Table:
    item = manager_of(interaction).get(game_id)
    if isinstance(item, Lobby):
        raise TableError("table.not_started")
    if item is None or item.closed:
        raise TableClosed()
    return item


def here(interaction: discord.Interaction, game: str) -> Lobby | Table:
    """The lobby or table of `game` in the channel or thread the command was typed in."""
    item = manager_of(interaction).at(interaction.channel_id or 0)
    if item is None or item.closed or item.game != game:
        raise TableError("error.no_table_here")
    return item


def seat(item: Lobby | Table, interaction: discord.Interaction) -> Seat:
    found = item.seat_of(interaction.user.id)
    if found is None:
        raise NotSeated()
    return found
