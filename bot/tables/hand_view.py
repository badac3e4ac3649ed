"""What a game's private menu is to the shared table code: the `HandView` of its package."""

from __future__ import annotations

from typing import Protocol, TypeVar

import discord

from bot.runtime.table import Table
from data.store import Seat
from rules.base import AnyGame

G = TypeVar("G", bound=AnyGame)

Menu = tuple[discord.Embed, discord.ui.View | None]


class HandView(Protocol[G]):
    """A game's private menu. Texts `<prefix>.hand.stale` and `<prefix>.hand.not_your_turn`
    (with `{player}`) come from its catalogue."""

    @property
    def prefix(self) -> str: ...

    @property
    def rules(self) -> type[G]:
        """The game it draws: a click's table is checked to be one (`lookup.table_of`)."""
        ...

    def message(self, table: Table[G], seat: Seat, lang: str, note: str | None = None) -> Menu:
        """The seat's menu now (None as the view once nothing can be pressed)."""
        ...

    def shown_for(self, state: G, seq: int) -> str:
        """What a menu drawn now is drawn for; it travels in the menu's custom ids."""
        ...
