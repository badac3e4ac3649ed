"""A running table: the rules state, its seats, one lock, the ledger writes, and its clock (run by
`bot.runtime.turn_clock` for a turn, `bot.runtime.step_clock` for a step of choices at once)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from bot.runtime import turn_clock
from bot.runtime.errors import StaleButton, TableClosed
from bot.runtime.memory import Memory
from bot.runtime.moment import Moment, moment_of, step_opened, turn_began
from bot.runtime.place import Place
from bot.runtime.step_clock import StepKey, run_step, step_key
from bot.runtime.storage import note_storage_failure, remember, save_later
from bot.runtime.tasks import Outbox, spawn
from bot.runtime.thinking import Thinker
from data.errors import LedgerUnavailable
from data.store import Ledger, ResultRow, Seat
from rules.base import AnyGame, Event

# The rules class a table plays. Covariant: a `Table[Kamiza]` is a table of some game, which is
# what the runtime keeps; only the click dispatch turns a table of unknown game back into a
# `Table[Kamiza]` (`bot.tables.lookup.table_of`), after checking its state's class.
G = TypeVar("G", bound=AnyGame, covariant=True)
G_in = TypeVar("G_in", bound=AnyGame, contravariant=True)

PLAYED_FOR = ("timeout", "autopilot")  # causes of an action the table chose for a member
AWAY_NOTE = "away"  # game note: member's player -> seq of the first action played for them


@dataclass(frozen=True, slots=True)
class Timing:
    """How long decisions may take."""

    turn_seconds: float = 90.0
    bot_delay: float = 0.4
    expiries_before_autopilot: int = 2


class TablePresenter(Protocol[G_in]):
    """What a table tells its presenter (`bot.runtime.presenter.Presenter` adds the lobby's
    calls): called in order, one call at a time per table, outside the table's lock."""

    def recall(self, table: Table[G_in], log: Mapping[str, Any]) -> None:
        """A table restored after a restart, before it is shown or played: rebuild what the
        presenter keeps of it (its `memory`) from the game's log."""

    async def table_opened(
        self, table: Table[G_in], restored: bool, moment: Moment[G_in]
    ) -> None: ...
    async def events(
        self,
        table: Table[G_in],
        player: str,
        events: Sequence[Event],
        cause: str,
        moment: Moment[G_in],
    ) -> None:
        """`cause`: "player", "bot", "timeout" or "autopilot"; `moment`: the table as this action
        left it (word that, not `table.state`, which may have moved on since)."""

    async def turn(self, table: Table[G_in], moment: Moment[G_in]) -> None:
        """After each action and the opening: who must act now (`moment.next`), and the member
        whose turn began there (`moment.turn_of`, to be told with a notification), if any."""

    async def reminder(self, table: Table[G_in], player: str, seconds_left: int) -> None: ...
    async def autopilot_changed(self, table: Table[G_in], player: str, on: bool) -> None: ...
    async def finished(self, table: Table[G_in], results: Sequence[ResultRow]) -> None: ...
    async def cancelled(self, item: Table[G_in], reason: str) -> None: ...


class Table(Generic[G]):
    """One game in play. Every action is committed to the ledger before it is applied.

    `G` is the rules class: a game's presenter and hand view take a `Table[TheirGame]`, whose
    `state` is that game's, typed.
    """

    # The seeds of the computer players' decisions (`bot.runtime.thinking.choose`): one
    # generator for every table, as a table's own would cost 2.5 KB of state for nothing.
    decision_seeds = random.Random()

    def __init__(
        self,
        *,
        game_id: int,
        place: Place,
        host_id: int,
        seats: Sequence[Seat],
        state: G,
        seq: int,
        ledger: Ledger,
        presenter: TablePresenter[G],
        timing: Timing,
        on_closed: Callable[[Table[AnyGame]], None] = lambda table: None,
        thinker: Thinker | None = None,
        levels: Mapping[str, str] | None = None,
        game_log: Mapping[str, Any] | None = None,
    ) -> None:
        self.game_id = game_id
        self.place = place
        self.host_id = host_id
        self.seats = {seat.player: seat for seat in seats}
        self.state = state
        self.seq = seq
        self.ledger = ledger
        self.presenter = presenter
        self.timing = timing
        self.lock = asyncio.Lock()
        self.autopilot: set[str] = set()
        self.expiries: dict[str, int] = dict.fromkeys(self.seats, 0)
        self.closed = False
        self.outbox = Outbox(f"game {game_id}")
        self.message_ids: dict[str, int] = {}  # presenter's bookkeeping (e.g. the table message)
        self.notes: dict[str, Any] = {}  # facts kept in the ledger beside the log (keep_note)
        self.memory = Memory()  # the presenter's facts about this table, dropped with it
        self._clock: asyncio.Task[Any] | None = None
        self._finishing: asyncio.Task[Any] | None = None  # a game's end tried again (`_finish`)
        self._step: StepKey | None = None  # the step of choices at once its clock runs for
        self._on_closed = on_closed
        self.thinker = thinker or Thinker()  # None: in-process (tests)
        self.levels = dict(levels or {})  # a computer seat's level (`ai.LEVELS`), by player
        # The game's log as committed (a worker loads the state from it); None: decisions are
        # made in-process (a table built without it, in tests).
        self.game_log = (
            None if game_log is None else {**game_log, "actions": list(game_log.get("actions", []))}
        )

    @property
    def game(self) -> str:
        return self.state.name

    def seat_of(self, user_id: int) -> Seat | None:
        return next((s for s in self.seats.values() if s.user_id == user_id), None)

    # -- acting ------------------------------------------------------------------------------------

    async def act(
        self,
        player: str,
        action: Any,
        *,
        cause: str = "player",
        expected_seq: int | None = None,
        still_shown: Callable[[G], bool] | None = None,
    ) -> list[Event]:
        """Check, commit to the ledger, then apply; raises IllegalAction or a TableError.

        A click acts against the state it was shown for: `expected_seq` (the table's version) or
        `still_shown` (say, the same round) is checked under the lock, so a double click that
        lands after the first one changed the state is refused instead of acting twice.
        """
        async with self.lock:
            if self.closed:
                raise TableClosed()
            if expected_seq is not None and expected_seq != self.seq:
                raise StaleButton()
            if still_shown is not None and not still_shown(self.state):
                raise StaleButton()
            self.state.check(player, action)
            entry = {"player": player, **type(self.state).action_json(action)}
            await self.ledger.append_action(self.game_id, self.seq, entry)
            before, round_before = self.state.next(), self.state.round_number()
            events = self.state.apply(player, action)
            if self.game_log is not None:
                self.game_log["actions"].append(entry)
            if cause in PLAYED_FOR and player not in self.away:
                self.away[player] = self.seq
                await remember(self.ledger, self.game_id, AWAY_NOTE, self.away)
            self.seq += 1
            if cause == "player":
                self.expiries[player] = 0
            began = turn_began(before, round_before, self.state, self.seats, self.autopilot)
            opened = step_opened(before, round_before, self.state, self.seats, self.autopilot)
            moment = self.moment(began, opened)
            self.outbox.put(lambda: self.presenter.events(self, player, events, cause, moment))
            self.outbox.put(lambda: self.presenter.turn(self, moment))
            if self.state.over:
                # The click is answered once its action is durable and applied; the game's end
                # (results, ratings, season) is written after the action's own messages, in
                # the outbox: should the bot stop first, the next start writes it.
                self._stop_clock()
                self.outbox.put(self._finish_after_last_action)
            else:
                self.schedule()
            return events

    async def back(self, player: str) -> bool:
        """ "I'm back": leave autopilot; False when the seat was not on autopilot."""
        async with self.lock:
            if self.closed or player not in self.autopilot:
                return False
            self.autopilot.discard(player)
            self.expiries[player] = 0
            await remember(self.ledger, self.game_id, "autopilot", sorted(self.autopilot))
            self.outbox.put(lambda: self.presenter.autopilot_changed(self, player, False))
            # Back on their own turn: it is theirs again, told like any other.
            if turn_began(None, None, self.state, self.seats, self.autopilot) == player:
                moment = self.moment(player)
                self.outbox.put(lambda: self.presenter.turn(self, moment))
            self.schedule()
            return True

    @property
    def away(self) -> dict[str, int]:
        """Members the table played for and who have not been told yet: player -> the seq of
        the first such action (a game note, so the recap survives a restart)."""
        away = self.notes.setdefault(AWAY_NOTE, {})
        assert isinstance(away, dict)
        return away

    async def returned(self, player: str) -> int | None:
        """A member interacts again: the seq from which the table played for them (their recap
        is owed from there), once; None when nothing was played for them since last told."""
        if player not in self.away:  # the common case, after every click: no lock needed
            return None
        async with self.lock:
            since = self.away.pop(player, None)
            if since is not None:
                await remember(self.ledger, self.game_id, AWAY_NOTE, self.away)
            return since

    async def cancel(self, reason: str, status: str = "cancelled") -> None:
        """End the game without results (host's cancel, or abandoned); a game whose last action
        is played is finishing, not cancelled."""
        async with self.lock:
            if self.closed or self.state.over:
                raise TableClosed()
            await self.ledger.end_game(self.game_id, status, reason)
            self._close()
            self.announce_end(reason=reason)

    async def _finish(self, last: tuple[str, Sequence[Event]] | None = None) -> None:
        """Write the game's end (results, ratings, season: one transaction) and announce it.

        Should the storage fail (the disk full), nothing of the end is written, and the last
        action, committed already, stays played: the end is tried again later (bounded), else
        redone from the ledger's actions at the next start (`resume_finish`)."""
        try:
            results: Sequence[ResultRow] = await self.ledger.finish_game(self.game_id)
        except LedgerUnavailable as exc:
            note_storage_failure(exc, "a game's end", self.game_id)
            self._stop_clock()
            if self._finishing is None or self._finishing.done():
                again = save_later("a game's end", self.game_id, lambda: self._finish_again(last))
                self._finishing = spawn(again, name=f"game {self.game_id} end")
            return
        self._close()
        self.announce_end(results=results, last=last)

    async def _finish_after_last_action(self) -> None:
        """The outbox's job after the last action's messages (see `act`)."""
        async with self.lock:
            # Stopped meanwhile (the outbox closed: a shutdown): the next start finishes it.
            if not self.closed and not self.outbox.closed:
                await self._finish()

    async def _finish_again(self, last: tuple[str, Sequence[Event]] | None) -> None:
        async with self.lock:
            if self.closed:
                return
            results = await self.ledger.finish_game(self.game_id)
            self._close()
            self.announce_end(results=results, last=last)

    def announce_end(
        self,
        *,
        results: Sequence[ResultRow] | None = None,
        reason: str = "",
        last: tuple[str, Sequence[Event]] | None = None,
    ) -> None:
        """Tell the table how its game ended, then mark that told in the ledger.

        After a restart `last` replays the final action's events (the last reveal), so a game
        that ended just before a crash is still announced: at least once, never silently.
        """
        self.closed = True
        if self.outbox.closed:  # stopped meanwhile (a shutdown): the next start announces it
            return
        if last is not None:
            player, events = last
            moment = self.moment(None)
            self.outbox.put(lambda: self.presenter.events(self, player, events, "player", moment))
            self.outbox.put(lambda: self.presenter.turn(self, moment))  # the last ping goes
        if results is not None:
            self.outbox.put(lambda: self.presenter.finished(self, results))
        else:
            self.outbox.put(lambda: self.presenter.cancelled(self, reason))
        self.outbox.put(lambda: self.ledger.mark_announced(self.game_id))
        self._close_outbox()

    def _close_outbox(self) -> None:
        """No more messages: the queued ones go out, then the presenter's memory is dropped."""
        self.outbox.put(self._forget_memory)
        self.outbox.close()

    async def _forget_memory(self) -> None:
        self.memory.clear()

    async def keep_note(self, key: str, value: Any) -> None:
        """Keep a fact about this table in the ledger first, then here; raises if not written."""
        await self.ledger.set_note(self.game_id, key, value)
        self.notes[key] = value

    async def remember_messages(self) -> None:
        """Keep the ids of the table's messages, so a restart can update them instead."""
        await remember(self.ledger, self.game_id, "messages", self.message_ids)

    def _close(self) -> None:
        self.closed = True
        self._stop_clock()
        self._on_closed(self)

    # -- the clock ---------------------------------------------------------------------------

    def moment(self, turn_of: str | None, step_of: tuple[str, ...] = ()) -> Moment[G]:
        """The table now, kept for a presenter job that runs later (`bot.runtime.moment`)."""
        return moment_of(self.seq, self.state, self.autopilot, turn_of, step_of)

    def start(self, *, restored: bool) -> None:
        """Show the table, tell whoever must act, and start the clock for them."""
        seats, autopilot = self.seats, self.autopilot
        moment = self.moment(
            turn_began(None, None, self.state, seats, autopilot),
            step_opened(None, None, self.state, seats, autopilot),
        )
        self.outbox.put(lambda: self.presenter.table_opened(self, restored, moment))
        self.outbox.put(lambda: self.presenter.turn(self, moment))
        self.schedule()

    async def resume_finish(self, last: tuple[str, Sequence[Event]] | None = None) -> None:
        """A restored game whose last action was committed but whose results were not."""
        async with self.lock:
            await self._finish(last)

    def schedule(self) -> None:
        """Start the clock for whoever must act now (`bot.runtime.turn_clock`, or
        `bot.runtime.step_clock` for a step of choices made at once)."""
        key = step_key(self.state)
        clock = self._clock
        if key is not None and key == self._step and clock is not None and not clock.done():
            return  # the step's one clock runs on, whoever chose (H-3)
        self._stop_clock()
        self._step = key
        nxt = self.state.next()
        if nxt is None or self.closed:
            return
        if key is not None:  # choices made at once (RULES.md H-1, H-2): `bot.runtime.step_clock`
            self._clock = spawn(run_step(self, key), name=f"game {self.game_id} step")
            return
        seat = self.seats[nxt.player]
        if seat.is_bot or nxt.player in self.autopilot:
            cause = "bot" if seat.is_bot else "autopilot"
            job = turn_clock.computer_turn(self, nxt.player, self.seq, cause)
        else:
            job = turn_clock.member_turn(self, nxt.player, self.seq)
        self._clock = spawn(job, name=f"game {self.game_id} clock")

    def _stop_clock(self) -> None:
        if self._clock is not None and self._clock is not asyncio.current_task():
            self._clock.cancel()
        self._clock = None

    async def set_autopilot(self, player: str) -> None:
        """Put a seat on autopilot (before acting for it: its next turn is covered already)."""
        self.autopilot.add(player)
        await remember(self.ledger, self.game_id, "autopilot", sorted(self.autopilot))

    async def stop(self) -> None:
        """Stop the clock and flush messages, leaving the game as it is (shutdown, set aside)."""
        self._stop_clock()
        if self._finishing is not None:
            self._finishing.cancel()  # the next start finishes it from the ledger
        if not self.outbox.closed:
            self._close_outbox()
