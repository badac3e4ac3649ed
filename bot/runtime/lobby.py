"""A lobby: seats taken before a game starts; stored in the ledger so a restart keeps it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.runtime.errors import TableClosed, TableError
from bot.runtime.memory import Memory
from bot.runtime.place import Place
from bot.runtime.storage import note_storage_failure, remember, save_later
from bot.runtime.tasks import Outbox, spawn
from bot.runtime.thinking import DEFAULT_LEVEL, OFFERED_LEVELS
from data.errors import LedgerUnavailable
from data.store import GameRecord, Ledger, Seat
from rules.base import InvalidSetup
from rules.registry import GAMES

BOT_PREFIX = "bot-"
OPTIONS_NOTE = "options"  # the game note of the options as the host last set them (house rules)
HOUSE_RULE = "simultaneous"  # the one house rule a host may toggle (RULES.md H-1, H-2)
COMPUTERS_NOTE = "computers"  # the game note listing the computer seats asked for, by level


@dataclass(frozen=True, slots=True)
class ComputerSeat:
    """A computer player the lobby asked for (the `bots:` option or *Add computer player*), at
    its level (`ai.LEVELS`; the host chooses among `OFFERED_LEVELS`)."""

    level: str = DEFAULT_LEVEL


def computers_note(computers: Sequence[ComputerSeat]) -> list[str]:
    """How the computer seats are kept in the ledger (a game note): their levels, in order."""
    return [c.level for c in computers]


def computers_from(note: object, seats: Sequence[Seat]) -> list[ComputerSeat]:
    """The computer seats of a stored lobby or game: its note, or (stored before the note
    existed, or never changed) the computer seats it has; a level stored before levels existed
    (None) is the default one."""
    if isinstance(note, list):
        return [ComputerSeat(level if isinstance(level, str) else DEFAULT_LEVEL) for level in note]
    return [ComputerSeat() for s in seats if s.is_bot]


def seat_levels(computers: Sequence[ComputerSeat], seats: Sequence[Seat]) -> dict[str, str]:
    """The level of each computer seat: "bot-<n>" is the n-th computer asked for (the order of
    the computers note; seating shuffles the seats, never their player ids)."""
    levels: dict[str, str] = {}
    for seat in seats:
        if seat.is_bot:
            number = seat.player.removeprefix(BOT_PREFIX)
            index = int(number) - 1 if number.isdigit() else -1
            known = 0 <= index < len(computers)
            levels[seat.player] = computers[index].level if known else DEFAULT_LEVEL
    return levels


def levels_of(record: GameRecord, notes: Mapping[str, Any]) -> dict[str, str]:
    """The levels of a stored game's computer seats (its computers note)."""
    return seat_levels(computers_from(notes.get(COMPUTERS_NOTE), record.seats), record.seats)


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
        computers: list[ComputerSeat] | None = None,
        on_closed: Callable[[Lobby], None] = lambda lobby: None,
    ) -> None:
        self.game_id = game_id
        self.game = game
        self.place = place
        self.options = options
        # Every computer seat asked for, in order: the first ones that fit beside the members
        # are seated, the rest wait for a member to leave (a joining member displaces the last).
        self.computers = computers if computers is not None else computers_from(None, seats)
        self.ledger = ledger
        self.presenter = presenter
        self.expires_at = expires_at
        self.lock = asyncio.Lock()
        self.closed = False
        self.outbox = Outbox(f"lobby {game_id}")
        self.message_ids: dict[str, int] = {}
        self.memory = Memory()  # the presenter's facts (the click it speaks through), as a table's
        self._on_closed = on_closed
        self._expiry: asyncio.Task[Any] | None = None
        cls = GAMES[game]
        self.min_players, self.max_players = cls.min_players, cls.max_players
        humans = [s for s in seats if not s.is_bot]
        self.seats = self._seated(humans)
        # A host no longer seated (a lobby stored before the host was written with the seats)
        # hands over as a leaving host does.
        seated_host = any(s.user_id == host_id for s in humans)
        self.host_id = host_id if seated_host or not humans else humans[0].user_id or host_id

    def humans(self) -> list[Seat]:
        return [s for s in self.seats if not s.is_bot]

    def bots(self) -> list[Seat]:
        return [s for s in self.seats if s.is_bot]

    def seat_of(self, user_id: int) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def is_full(self) -> bool:
        return len(self.humans()) >= self.max_players

    def waiting_computers(self) -> list[ComputerSeat]:
        """Computer seats displaced by members; they come back, in order, as seats free up."""
        return self.computers[len(self.bots()) :]

    def others(self) -> list[Seat]:
        """The seated members besides the host: whom the host may kick or hand the lobby to."""
        return [s for s in self.humans() if s.user_id != self.host_id]

    def check_host(self, user_id: int, can_manage: bool) -> None:
        """The host's controls are the host's (or a moderator's with Manage Server)."""
        self._check_open()
        if user_id != self.host_id and not can_manage:
            raise TableError("lobby.only_host_controls")

    def other_member(self, user_id: int) -> Seat:
        """The seated member `user_id` other than the host; a stale choice is refused."""
        seat = self.seat_of(user_id)
        if seat is None or seat.is_bot:
            raise TableError("lobby.member_gone")
        if user_id == self.host_id:
            raise TableError("lobby.is_host")
        return seat

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
            await self._save([*self.humans(), human_seat(user_id, display_name)])

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
            await self._save(humans, host=humans[0].user_id if user_id == self.host_id else None)

    async def add_computer(
        self, user_id: int, can_manage: bool, level: str = DEFAULT_LEVEL
    ) -> None:
        """The host seats one more computer player, at `level`."""
        async with self.lock:
            self.check_host(user_id, can_manage)
            if len(self.seats) >= self.max_players:
                raise TableError("lobby.no_free_seat", max=self.max_players)
            await self._save_computers([*self.computers, ComputerSeat(level)])

    async def set_level(self, user_id: int, can_manage: bool, number: int, level: str) -> None:
        """The host sets the level of computer seat `number` ("Bot <number>", from 1); kept in
        the computers note, so a restart and a rematch keep it."""
        async with self.lock:
            self.check_host(user_id, can_manage)
            if level not in OFFERED_LEVELS:
                raise TableError("lobby.no_such_level")
            if not 1 <= number <= len(self.computers):
                raise TableError("lobby.no_computer")
            computers = list(self.computers)
            computers[number - 1] = ComputerSeat(level)
            await self._save_computers(computers)

    def level_of(self, number: int) -> str:
        """The level of computer seat `number` (from 1)."""
        return self.computers[number - 1].level

    async def remove_computer(self, user_id: int, can_manage: bool) -> None:
        """The host removes the last computer seat asked for (a waiting one first)."""
        async with self.lock:
            self.check_host(user_id, can_manage)
            if not self.computers:
                raise TableError("lobby.no_computer")
            await self._save_computers(self.computers[:-1])

    def offers_house_rule(self) -> bool:
        """Whether this game has the house rule (its rules accept the option)."""
        try:
            GAMES[self.game].normalise_options({**self.options, HOUSE_RULE: True})
        except InvalidSetup:
            return False
        return True

    async def set_house_rule(self, user_id: int, can_manage: bool, on: bool) -> None:
        """The host turns the house rule `simultaneous` on or off before the start; the options
        are checked by the rules and kept in a note (a restart reads them back)."""
        async with self.lock:
            self.check_host(user_id, can_manage)
            if not self.offers_house_rule():
                raise TableError("lobby.no_house_rule")
            wanted = {**self.options, HOUSE_RULE: on}
            options = GAMES[self.game].normalise_options(wanted)
            await self.ledger.set_note(self.game_id, OPTIONS_NOTE, options)
            self.options = options
            self.outbox.put(lambda: self.presenter.lobby_changed(self))

    async def kick(self, user_id: int, can_manage: bool, member_id: int) -> Seat:
        """The host removes a seated member (after confirming); a computer seat they displaced
        comes back. The member may join again."""
        async with self.lock:
            self.check_host(user_id, can_manage)
            seat = self.other_member(member_id)
            await self._save([s for s in self.humans() if s.user_id != member_id])
            return seat

    async def transfer_host(self, user_id: int, can_manage: bool, member_id: int) -> Seat:
        """The host hands the lobby (and the table it becomes) to another seated member."""
        async with self.lock:
            self.check_host(user_id, can_manage)
            seat = self.other_member(member_id)
            await self._save(self.humans(), host=member_id)
            return seat

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
        try:
            await self._expire_now()
        except LedgerUnavailable as exc:  # the disk full: closed once it can be saved
            note_storage_failure(exc, "a lobby's expiry", self.game_id)
            await save_later("a lobby's expiry", self.game_id, self._expire_now)

    async def _expire_now(self) -> None:
        async with self.lock:
            if not self.closed:
                await self._close("abandoned", "lobby.expired")

    def _seated(self, humans: list[Seat]) -> list[Seat]:
        """The seats: the members, then the first computer seats that fit, numbered 1, 2..."""
        fit = max(0, min(len(self.computers), self.max_players - len(humans)))
        return humans + [bot_seat(i + 1) for i in range(fit)]

    async def _save(self, humans: list[Seat], host: int | None = None) -> None:
        """Write the seats (and a new host) in one ledger write, then show them."""
        seats = self._seated(humans)
        await self.ledger.set_seats(self.game_id, seats, host_id=host)
        self.seats = seats
        if host is not None:
            self.host_id = host
        self.outbox.put(lambda: self.presenter.lobby_changed(self))

    async def _save_computers(self, computers: list[ComputerSeat]) -> None:
        """The computer seats asked for are written first: a restart seats them from the note,
        so a kill between the two writes loses nothing."""
        await self.ledger.set_note(self.game_id, COMPUTERS_NOTE, computers_note(computers))
        self.computers = computers
        await self._save(self.humans())

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
