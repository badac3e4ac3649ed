"""What the runtime tells the outside world; the bot implements it per game with messages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from data.store import ResultRow
from rules.base import Event

if TYPE_CHECKING:
    from bot.runtime.lobby import Lobby
    from bot.runtime.table import Table


class Presenter(Protocol):
    """Called in order, one call at a time per table, outside the table's lock."""

    async def lobby_changed(self, lobby: Lobby) -> None: ...
    async def lobby_closed(self, lobby: Lobby, reason: str) -> None: ...
    async def table_opened(self, table: Table, restored: bool) -> None: ...
    async def events(self, table: Table, player: str, events: Sequence[Event], cause: str) -> None:
        """`cause`: "player", "bot", "timeout" or "autopilot"."""

    async def reminder(self, table: Table, player: str, seconds_left: int) -> None: ...
    async def autopilot_changed(self, table: Table, player: str, on: bool) -> None: ...
    async def finished(self, table: Table, results: Sequence[ResultRow]) -> None: ...
    async def cancelled(self, item: Lobby | Table, reason: str) -> None:
        """A started game ended without results (`item` is a Lobby when only its seats and
        messages are known, e.g. a game set aside at a restart)."""
