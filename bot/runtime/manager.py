"""Every lobby and table of this process, by channel and by game id; restores them on start."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.runtime.errors import TableError, TableExists
from bot.runtime.late_endings import announce_late_end, before_last, last_events
from bot.runtime.lobby import (
    COMPUTERS_NOTE,
    OPTIONS_NOTE,
    ComputerSeat,
    Lobby,
    bot_seat,
    computers_from,
    computers_note,
    human_seat,
    levels_of,
    seat_levels,
)
from bot.runtime.place import Place
from bot.runtime.presenter import Presenter
from bot.runtime.shards import Shards
from bot.runtime.table import Table, Timing
from bot.runtime.thinking import DEFAULT_LEVEL, Thinker
from data.store import GameRecord, Ledger, Seat
from rules.base import AnyGame, InvalidSetup, RulesError
from rules.log import load, new_header
from rules.registry import GAMES

log = logging.getLogger(__name__)

Seating = Lobby | Table[AnyGame]
SET_ASIDE = "table.set_aside"  # the end reason (a catalogue key) of a game that would not replay


@dataclass(frozen=True, slots=True)
class Defaults:
    """The bot-wide settings a guild may override."""

    turn_seconds: int = 90
    lobby_seconds: int = 900
    bot_delay: float = 0.4
    lobbies_per_host: int = 1  # open lobbies one member may host in one server
    tables_per_server: int = 50  # lobbies and tables open at once in one server


class TableManager:
    """Owns the live lobbies and tables; forgets them as soon as they close."""

    def __init__(
        self,
        ledger: Ledger,
        presenters: Mapping[str, Presenter[Any]],
        defaults: Defaults,
        shards: Shards | None = None,
        thinker: Thinker | None = None,
    ) -> None:
        self.ledger = ledger
        self.thinker = thinker or Thinker()  # the computer players' pool (None: in-process)
        self.presenters = presenters
        self.defaults = defaults
        # The guilds whose tables this process runs; the other processes run the others.
        self.shards = shards or Shards.single()
        self._by_home: dict[int, Seating] = {}
        self._by_id: dict[int, Seating] = {}
        # By guild, then game id: a server's limits are checked without reading every table
        # of the process (a thousand on one process, issue 20).
        self._by_guild: dict[int, dict[int, Seating]] = {}
        self._reserved: set[int] = set()

    def at(self, channel_id: int) -> Seating | None:
        """The lobby or table hosted in a channel or thread."""
        return self._by_home.get(channel_id)

    def get(self, game_id: int) -> Seating | None:
        return self._by_id.get(game_id)

    def live(self) -> list[Seating]:
        return list(self._by_id.values())

    def in_guild(self, guild_id: int) -> list[Seating]:
        """The live lobbies and tables of one server (at most its `tables_per_server`)."""
        return list(self._by_guild.get(guild_id, {}).values())

    # -- lobbies -----------------------------------------------------------------------------------

    def reserve(self, home: int) -> None:
        """Claim a channel for a new table before any await; raises TableExists."""
        if home in self._by_home or home in self._reserved:
            raise TableExists()
        self._reserved.add(home)

    def release(self, home: int) -> None:
        self._reserved.discard(home)

    def check_room(self, guild_id: int, host_id: int) -> None:
        """Refuse a new lobby past the per-host and per-server limits; raises TableError."""
        here = self.in_guild(guild_id)
        hosted = sum(isinstance(i, Lobby) and i.host_id == host_id and not i.closed for i in here)
        if hosted >= self.defaults.lobbies_per_host:
            raise TableError("lobby.host_limit", count=hosted)
        if len(here) >= self.defaults.tables_per_server:
            raise TableError("error.server_table_limit", count=len(here))

    async def open_lobby(
        self,
        *,
        game: str,
        place: Place,
        host_id: int,
        host_name: str,
        options: Mapping[str, Any] | None,
        bots: int,
        members: Sequence[Seat] = (),
        computers: Sequence[ComputerSeat] | None = None,
        rematch_of: int | None = None,
        level: str = DEFAULT_LEVEL,
    ) -> Lobby:
        """A new lobby with its host seated (then `members`, then `bots` computer seats at
        `level`, or the `computers` given); the home must have been reserved."""
        try:
            self.check_room(place.guild_id, host_id)
            cls = GAMES[game]
            opts = cls.normalise_options(options)
            computers = list(computers) if computers is not None else []
            computers += [ComputerSeat(level) for _ in range(bots - len(computers))]
            if bots < 0 or not len(computers) < cls.max_players - len(members):
                raise TableError("lobby.bad_bots", max=cls.max_players - 1)
            settings = await self.ledger.guild_settings(place.guild_id)
            game_id = await self.ledger.create_game(
                game=game,
                options=opts,
                guild_id=place.guild_id,
                channel_id=place.channel_id,
                thread_id=place.thread_id,
                host_id=host_id,
                rematch_of=rematch_of,
            )
            seats = [human_seat(host_id, host_name), *members]
            seats += [bot_seat(i + 1) for i in range(len(computers))]
            # Kept apart from the seats: a computer seat displaced by a member waits in it.
            await self.ledger.set_note(game_id, COMPUTERS_NOTE, computers_note(computers))
            await self.ledger.set_seats(game_id, seats)
            lobby_seconds = settings.lobby_seconds or self.defaults.lobby_seconds
            lobby = self._lobby(
                game_id,
                game,
                place,
                host_id,
                opts,
                seats,
                time.time() + lobby_seconds,
                computers,
            )
        finally:
            self.release(place.home)
        lobby.show()
        return lobby

    async def open_rematch(self, first: GameRecord, member_ids: Sequence[int]) -> Lobby:
        """A rematch of the finished game `first` in its home, linked to it in the ledger: its
        host and the members in `member_ids` keep their seats, its computer seats come back
        with their levels, and the seats of the members who did not opt in are free to join."""
        place = Place(first.guild_id, first.channel_id, first.thread_id)
        humans = {s.user_id: s for s in first.seats if not s.is_bot and s.user_id is not None}
        host = humans.get(first.host_id)
        if host is None:
            raise TableError("end.rematch_no_host")
        notes = await self.ledger.notes(first.id)
        seated_bots = sum(s.is_bot for s in first.seats)
        computers = computers_from(notes.get(COMPUTERS_NOTE), first.seats)[:seated_bots]
        others = [m for m in dict.fromkeys(member_ids) if m in humans and m != host.user_id]
        members = [humans[m] for m in others]
        self.reserve(place.home)
        lobby = await self.open_lobby(
            game=first.game,
            place=place,
            host_id=host.user_id or 0,
            host_name=host.display_name,
            options=first.options,
            bots=0,
            members=members,
            computers=computers,
            rematch_of=first.id,
        )
        return lobby

    def _lobby(
        self,
        game_id: int,
        game: str,
        place: Place,
        host_id: int,
        options: dict[str, Any],
        seats: list[Seat],
        expires_at: float,
        computers: list[ComputerSeat],
    ) -> Lobby:
        lobby = Lobby(
            game_id=game_id,
            game=game,
            place=place,
            host_id=host_id,
            options=options,
            seats=seats,
            ledger=self.ledger,
            presenter=self.presenters[game],
            expires_at=expires_at,
            computers=computers,
            on_closed=self._forget,
        )
        self._track(lobby)
        return lobby

    async def start(self, lobby: Lobby, user_id: int, can_manage: bool = False) -> Table[AnyGame]:
        """Seat the lobby at a table: seating and setup drawn now (G-1), written, then shown."""
        async with lobby.lock:
            seats = await lobby.take_seats(user_id, can_manage)
            by_player = {s.player: s for s in seats}
            header = new_header(lobby.game, [s.player for s in seats], lobby.options)
            seated = [by_player[p] for p in header["players"]]
            await self.ledger.start_game(lobby.game_id, header, seated)
            lobby.mark_closed()
            lobby.outbox.close()
        state = load(header)
        table = await self._table(
            lobby.game_id, lobby.place, lobby.host_id, seated, state, 0, header
        )
        table.levels.update(seat_levels(lobby.computers, seated))
        table.message_ids.update(lobby.message_ids)
        table.start(restored=False)
        return table

    async def _table(
        self,
        game_id: int,
        place: Place,
        host_id: int,
        seats: list[Seat],
        state: AnyGame,
        seq: int,
        log_doc: Mapping[str, Any],
    ) -> Table[AnyGame]:
        settings = await self.ledger.guild_settings(place.guild_id)
        timing = Timing(
            turn_seconds=settings.turn_seconds or self.defaults.turn_seconds,
            bot_delay=self.defaults.bot_delay,
        )
        table: Table[AnyGame] = Table(
            game_id=game_id,
            place=place,
            host_id=host_id,
            seats=seats,
            state=state,
            seq=seq,
            ledger=self.ledger,
            presenter=self.presenters[state.name],
            timing=timing,
            on_closed=self._forget,
            thinker=self.thinker,
            game_log=log_doc,
        )
        self._track(table)
        return table

    # -- bookkeeping -----------------------------------------------------------------------------

    def _track(self, item: Seating) -> None:
        self._by_home[item.place.home] = item
        self._by_id[item.game_id] = item
        self._by_guild.setdefault(item.place.guild_id, {})[item.game_id] = item

    def _forget(self, item: Seating) -> None:
        if self._by_home.get(item.place.home) is item:
            del self._by_home[item.place.home]
        if self._by_id.get(item.game_id) is item:
            del self._by_id[item.game_id]
        guild = self._by_guild.get(item.place.guild_id)
        if guild is not None and guild.get(item.game_id) is item:
            del guild[item.game_id]
            if not guild:  # a server without tables keeps nothing here
                del self._by_guild[item.place.guild_id]

    # -- restart -----------------------------------------------------------------------------------

    async def restore(self) -> tuple[int, int]:
        """Bring back every unfinished lobby and table of this process's guilds from the
        ledger, and announce the ends that may not have been told before the last stop;
        (lobbies, tables) restored. Another process's games are never touched."""
        lobbies = tables = 0
        for record in await self.ledger.unfinished_games():
            if not self.shards.owns(record.guild_id):
                continue
            if record.game not in self.presenters:
                log.warning("game %s: no presenter for %s; left as it is", record.id, record.game)
                continue
            try:
                notes = await self.ledger.notes(record.id)
                if record.status == "lobby":
                    await self._restore_lobby(record, notes)
                    lobbies += 1
                else:
                    await self._restore_table(record, notes)
                    tables += 1
            except Exception as exc:
                await self._set_aside(record, exc)
        for record in await self.ledger.unannounced_games():
            if record.game not in self.presenters or not self.shards.owns(record.guild_id):
                continue
            try:
                notes = await self.ledger.notes(record.id)
                await announce_late_end(record, notes, self.ledger, self.presenters[record.game])
            except Exception as exc:
                # Told nothing rather than told forever: one bad game never blocks the start.
                log.error("game %s: its end cannot be announced (%r); skipped", record.id, exc)
                await _quietly(self.ledger.mark_announced(record.id), record.id)
        return lobbies, tables

    async def _set_aside(self, record: GameRecord, exc: Exception) -> None:
        """A game that cannot be brought back ends as abandoned; its thread is told once (by
        `announce_late_end`, which does not replay it), and the other tables and the start go on."""
        if isinstance(exc, RulesError | InvalidSetup):
            log.error("game %s: cannot be replayed (%s); set aside", record.id, exc)
        else:
            log.error("game %s: cannot be restored; set aside", record.id, exc_info=exc)
        item = self._by_id.get(record.id)
        if item is not None:
            await item.stop()
            self._forget(item)
        await _quietly(self.ledger.end_game(record.id, "abandoned", SET_ASIDE), record.id)

    async def _restore_lobby(self, record: GameRecord, notes: dict[str, Any]) -> None:
        place = Place(record.guild_id, record.channel_id, record.thread_id)
        settings = await self.ledger.guild_settings(record.guild_id)
        lobby_seconds = settings.lobby_seconds or self.defaults.lobby_seconds
        expires = record.created_at.timestamp() + lobby_seconds
        lobby = self._lobby(
            record.id,
            record.game,
            place,
            record.host_id,
            dict(notes.get(OPTIONS_NOTE) or record.options),  # the host's house rules, if set
            list(record.seats),
            expires,
            computers_from(notes.get(COMPUTERS_NOTE), record.seats),
        )
        lobby.message_ids.update(notes.get("messages", {}))
        lobby.show()

    async def _restore_table(self, record: GameRecord, notes: dict[str, Any]) -> None:
        log_doc = record.log()
        assert log_doc is not None
        state = load(log_doc)
        place = Place(record.guild_id, record.channel_id, record.thread_id)
        table = await self._table(
            record.id,
            place,
            record.host_id,
            list(record.seats),
            state,
            len(record.actions),
            log_doc,
        )
        table.message_ids.update(notes.get("messages", {}))
        table.notes.update(notes)
        table.levels.update(levels_of(record, notes))
        table.autopilot.update(p for p in notes.get("autopilot", []) if p in table.seats)
        if state.over:  # the last action was committed, the results were not
            table.presenter.recall(table, before_last(log_doc))
            await table.resume_finish(last=last_events(log_doc))
            return
        table.presenter.recall(table, log_doc)
        table.start(restored=True)

    async def shutdown(self) -> None:
        for item in self.live():
            await item.stop()
        self.thinker.close()  # the computer players' workers stop with the bot


async def _quietly(write: Awaitable[None], game_id: int) -> None:
    """A bookkeeping write during the start; a failure is logged, never stops the start."""
    try:
        await write
    except Exception as exc:
        log.error("game %s: could not write to the ledger during the start (%r)", game_id, exc)
