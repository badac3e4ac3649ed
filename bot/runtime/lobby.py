"""A lobby: seats taken before a game starts; stored in the ledger so a restart keeps it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, Protocol

from bot.runtime.errors import TableClosed, TableError
from bot.runtime.table import Place, remember
from bot.runtime.tasks import Outbox, spawn
from data.store import Ledger, Seat
from rules.registry import GAMES

BOT_PREFIX = "bot-"


def bot_seat(number: int) -> Seat:
    return Seat(
        player=f"{BOT_PREFIX}{number}", user_id=None, display_name=f"Bot {number}", is_bot=True
    )


def human_seat(user_id: int, display_name: str) -> Seat:
    return Seat(player=str(user_id), user_id=user_id, display_name=display_name, is_bot=False)


class LobbyPresenter(Protocol):
    """What a lobby tells its game's presenter, in order, outside the lobby's lock."""

    async def lobby_changed(self, lobby: Lobby) -> None: ...
    async def lobby_closed(self, lobby: Lobby, reason: str) -> None: ...
    async def cancelled(self, item: Lobby, reason: str) -> None:
        """The game of a closed lobby ended without results (set aside at a restart)."""


class Lobby:
    """Players gathering for one game: join, leave, start (host), cancel; closes itself."""

    def __init__(
        self,
        *,
        game_id: int,
        game: str,
        place: Place,
        host_id: int,
        options: dict[str, Any],
        seats: list[Seat],
        ledger: Ledger,
        presenter: LobbyPresenter,
        expires_at: float,
        on_closed: Callable[[Lobby], None] = lambda lobby: None,
    ) -> None:
        self.game_id = game_id
        self.game = game
        self.place = place
        self.host_id = host_id
        self.options = options
        self.seats = seats
        self.ledger = ledger
        self.presenter = presenter
        self.expires_at = expires_at
        self.lock = asyncio.Lock()
        self.closed = False
        self.outbox = Outbox(f"lobby {game_id}")
        self.message_ids: dict[str, int] = {}
        self._on_closed = on_closed
        self._expiry: asyncio.Task[Any] | None = None
        cls = GAMES[game]
        self.min_players, self.max_players = cls.min_players, cls.max_players

    def humans(self) -> list[Seat]:
        return [s for s in self.seats if not s.is_bot]

    def bots(self) -> list[Seat]:
        return [s for s in self.seats if s.is_bot]

    def seat_of(self, user_id: int) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def is_full(self) -> bool:
        return len(self.humans()) >= self.max_players

    def show(self) -> None:
        """Present the lobby (again) and arm its expiry."""
        self.outbox.put(lambda: self.presenter.lobby_changed(self))
        if self._expiry is None:
            self._expiry = spawn(self._expire(), name=f"lobby {self.game_id} expiry")

    async def join(self, user_id: int, display_name: str) -> None:
        async with self.lock:
            self._check_open()
            if self.seat_of(user_id):
                raise TableError("lobby.already_seated")
            if self.is_full():
                raise TableError("lobby.full", max=self.max_players)
            seats = [*self.humans(), human_seat(user_id, display_name)]
            bots = self.bots()[: max(0, self.max_players - len(seats))]
            await self._save(seats + _renumbered(bots))

    async def leave(self, user_id: int) -> None:
        """Leave; a leaving host hands the lobby to the next player, the last one closes it."""
        async with self.lock:
            self._check_open()
            if not self.seat_of(user_id):
                raise TableError("error.not_seated")
            humans = [s for s in self.humans() if s.user_id != user_id]
            if not humans:
                await self._close("cancelled", "lobby.closed_empty")
                return
            if user_id == self.host_id:
                self.host_id = humans[0].user_id or self.host_id
            await self._save(humans + self.bots())

    async def take_seats(self, user_id: int, can_manage: bool) -> list[Seat]:
        """Validate a start request by `user_id`; the seats as they will play."""
        self._check_open()
        if user_id != self.host_id and not can_manage:
            raise TableError("lobby.only_host_starts")
        if len(self.seats) < self.min_players:
            raise TableError("lobby.too_few", min=self.min_players, have=len(self.seats))
        return list(self.seats)

    async def cancel(self, reason: str) -> None:
        async with self.lock:
            self._check_open()
            await self._close("cancelled", reason)

    async def _expire(self) -> None:
        await asyncio.sleep(max(0.0, self.expires_at - time.time()))
        async with self.lock:
            if not self.closed:
                await self._close("abandoned", "lobby.expired")

    async def _save(self, seats: list[Seat]) -> None:
        await self.ledger.set_seats(self.game_id, seats)
        self.seats = seats
        self.outbox.put(lambda: self.presenter.lobby_changed(self))

    async def _close(self, status: str, reason: str) -> None:
        await self.ledger.end_game(self.game_id, status, reason)
        self.mark_closed()
        self.announce_end(reason)

    def announce_end(self, reason: str, *, started: bool = False) -> None:
        """Show the lobby closed (or, `started`, its game cancelled), then mark that told in the
        ledger (again after a restart)."""
        self.closed = True
        if started:
            self.outbox.put(lambda: self.presenter.cancelled(self, reason))
        else:
            self.outbox.put(lambda: self.presenter.lobby_closed(self, reason))
        self.outbox.put(lambda: self.ledger.mark_announced(self.game_id))
        self.outbox.close()

    async def remember_messages(self) -> None:
        """Keep the ids of the lobby's messages, so a restart edits them instead of reposting."""
        await remember(self.ledger, self.game_id, "messages", self.message_ids)

    def mark_closed(self) -> None:
        """The lobby is over (closed, or started as a table)."""
        self.closed = True
        if self._expiry is not None and self._expiry is not asyncio.current_task():
            self._expiry.cancel()
        self._on_closed(self)

    def _check_open(self) -> None:
        if self.closed:
            raise TableClosed()

    async def stop(self) -> None:
        if self._expiry is not None:
            self._expiry.cancel()
        self.outbox.close()


def _renumbered(bots: list[Seat]) -> list[Seat]:
    return [bot_seat(i + 1) for i in range(len(bots))]
