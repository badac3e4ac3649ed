"""What the runtime tells the outside world; the bot implements it per game with messages."""

from __future__ import annotations

from typing import Protocol

from bot.runtime.lobby import Lobby, LobbyPresenter
from bot.runtime.table import G_in, Table, TablePresenter


class Presenter(LobbyPresenter, TablePresenter[G_in], Protocol[G_in]):
    """A game's presenter: its lobbies' messages and its tables' (one presenter per game)."""

    async def cancelled(self, item: Lobby | Table[G_in], reason: str) -> None:
        """A started game ended without results (`item` is a Lobby when only its seats and
        messages are known, e.g. a game set aside at a restart)."""
