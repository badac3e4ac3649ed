"""Finding the lobby or table an interaction is about, and the user's seat at it."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeGuard, TypeVar

import discord

from bot.runtime.errors import NotSeated, TableClosed, TableError
from bot.runtime.lobby import Lobby
from bot.runtime.table import Table
from bot.tables.presenting import MessagePresenter
from data.store import Seat
from rules.base import AnyGame

if TYPE_CHECKING:
    from bot.runtime.manager import TableManager

G = TypeVar("G", bound=AnyGame)


def manager_of(interaction: discord.Interaction) -> TableManager:
    return manager_of_client(interaction.client)


def manager_of_client(client: discord.Client) -> TableManager:
    """`KamizaBot.tables` (a test's stand-in has it too). discord.py types every interaction's
    client as its `Client` base class (a callback cannot narrow it), so the attribute is read
    by name: an `isinstance` against a runtime-checkable protocol walked the client's classes
    on every click, a twentieth of the bot's time per click."""
    tables: TableManager | None = getattr(client, "tables", None)
    if tables is None:
        # `setup_hook` starts the tables before the bot takes any interaction.
        raise RuntimeError("the bot runs no tables")
    return tables


def presenter_of(item: Lobby | Table[G]) -> MessagePresenter[G]:
    """The item's presenter, with the private answers every game's presenter gives."""
    presenter = item.presenter
    assert isinstance(presenter, MessagePresenter)  # the bot's presenters all are
    return presenter


def item(interaction: discord.Interaction, game_id: int) -> Lobby | Table[AnyGame]:
    """The open lobby or table `game_id`, if it belongs to the server the click came from.

    Game ids are sequential and custom ids can be forged: a table of another server is answered
    exactly like one that does not exist.
    """
    found = manager_of(interaction).get(game_id)
    if found is None or found.closed or not reaches(interaction, found):
        raise TableClosed()
    return found


def reaches(interaction: discord.Interaction, found: Lobby | Table[AnyGame]) -> bool:
    """Whether the click may act on `found`: from its own server; from a DM (no server), only a
    table where the clicker is seated (their hand by DM, `bot.tables.delivery`)."""
    if interaction.guild_id is None:
        return isinstance(found, Table) and found.seat_of(interaction.user.id) is not None
    return found.place.guild_id == interaction.guild_id


def lobby(interaction: discord.Interaction, game_id: int) -> Lobby:
    found = item(interaction, game_id)
    if isinstance(found, Table):
        raise TableError("lobby.already_started")
    return found


def table(interaction: discord.Interaction, game_id: int) -> Table[AnyGame]:
    found = item(interaction, game_id)
    if isinstance(found, Lobby):
        raise TableError("table.not_started")
    return found


def plays(table: Table[AnyGame], rules: type[G]) -> TypeGuard[Table[G]]:
    """Whether `table` plays the game `rules`: then it is that game's `Table[G]`."""
    return isinstance(table.state, rules)


def table_of(interaction: discord.Interaction, game_id: int, rules: type[G]) -> Table[G]:
    """The table `game_id` for a game's own menu, typed for that game.

    The one place where a click's table, of any game, meets a game's code: a custom id of one
    game naming another game's table is forged, and answered like a table that does not exist.
    """
    found = table(interaction, game_id)
    if not plays(found, rules):
        raise TableClosed()
    return found


def here(interaction: discord.Interaction, game: str) -> Lobby | Table[AnyGame]:
    """The lobby or table of `game` in the channel or thread the command was typed in."""
    item = manager_of(interaction).at(interaction.channel_id or 0)
    if item is None or item.closed or item.game != game:
        raise TableError("error.no_table_here")
    return item


def seat(item: Lobby | Table[AnyGame], interaction: discord.Interaction) -> Seat:
    found = item.seat_of(interaction.user.id)
    if found is None:
        raise NotSeated()
    return found
