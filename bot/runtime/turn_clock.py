"""The clock of a turn, and the moves a table makes for a seat.

A member has a turn's time (`Timing.turn_seconds`), with a reminder half-way; when it runs out
the table plays for them, as a timeout, and after `expiries_before_autopilot` timeouts in a row
it puts their seat on autopilot. A computer seat, or a seat on autopilot, plays a little after
the previous move was shown (`pace`). Every such move is the computer players' decision
(`bot.runtime.thinking`): at the seat's level for a computer, at `normal` for a member. A step of
choices made at the same time has its own clock (`bot.runtime.step_clock`), which paces and
decides the same way.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from bot.runtime.errors import StaleButton, TableClosed
from bot.runtime.storage import note_storage_failure
from bot.runtime.tasks import Outbox
from bot.runtime.thinking import DEFAULT_LEVEL, ThinkingTable, choose
from data.errors import LedgerUnavailable
from rules.base import IllegalAction

log = logging.getLogger(__name__)

ACT_FOR_BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0)  # seconds between tries when acting for a seat fails


class SeatTiming(Protocol):
    @property
    def turn_seconds(self) -> float: ...

    @property
    def bot_delay(self) -> float: ...

    @property
    def expiries_before_autopilot(self) -> int: ...


class SeatTable(ThinkingTable, Protocol):
    """What a turn's clock and a move made for a seat use of the table
    (`bot.runtime.table.Table`)."""

    autopilot: set[str]
    expiries: dict[str, int]
    outbox: Outbox
    levels: dict[str, str]

    @property
    def timing(self) -> SeatTiming: ...

    def act(
        self,
        player: str,
        action: Any,
        *,
        cause: str,
        expected_seq: int | None = None,
        still_shown: Callable[[Any], bool] | None = None,
    ) -> Awaitable[Any]: ...

    def set_autopilot(self, player: str) -> Awaitable[None]: ...

    def schedule(self) -> None: ...


async def computer_turn(table: SeatTable, player: str, seq: int, cause: str) -> None:
    """A computer seat's turn (`cause` "bot"), or a member's on autopilot ("autopilot")."""
    await pace(table)
    if not await act_for(table, player, await policy(table, player, cause), seq, cause):
        await start_over_later(table, seq)


async def member_turn(table: SeatTable, player: str, seq: int) -> None:
    """A member's turn: a reminder half-way, then the table plays for them (a timeout)."""
    timing = table.timing
    half = timing.turn_seconds / 2
    await asyncio.sleep(half)
    if table.seq == seq and not table.closed:
        table.outbox.put(functools.partial(table.presenter.reminder, table, player, round(half)))
    await asyncio.sleep(timing.turn_seconds - half)
    if table.seq != seq or table.closed:
        return
    table.expiries[player] += 1
    autopilot = table.expiries[player] >= timing.expiries_before_autopilot
    if autopilot:
        await table.set_autopilot(player)
    acted = await act_for(table, player, await policy(table, player, "timeout"), seq, "timeout")
    if autopilot and not table.closed:
        table.outbox.put(functools.partial(table.presenter.autopilot_changed, table, player, True))
    if not acted:
        await start_over_later(table, seq)


async def pace(table: SeatTable) -> None:
    """A computer or autopilot move comes `bot_delay` after the previous move was *shown*:
    counted from its commit, a slow thread (rate limits) fell behind the ledger and then
    showed a run of moves at once. Waiting for the display is bounded by a turn's time, so
    a message that hangs never stalls the game."""
    try:
        await asyncio.wait_for(table.outbox.drain(), table.timing.turn_seconds)
    except TimeoutError:
        log.warning("game %s: the table's messages lag; playing on", table.game_id)
    await asyncio.sleep(table.timing.bot_delay)


async def policy(table: SeatTable, player: str, cause: str) -> Any:
    """The move the table makes for `player` (`bot.runtime.thinking`): a computer seat's
    at its level, a timeout's or autopilot's at `normal`; a failing policy falls back to
    the first legal move."""
    level = table.levels.get(player, DEFAULT_LEVEL) if cause == "bot" else DEFAULT_LEVEL
    try:
        return await choose(table, player, level)
    except Exception:
        log.exception("game %s: the computer player failed; simplest move", table.game_id)
        return table.state.legal_actions(player)[0]


async def act_for(table: SeatTable, player: str, action: Any, seq: int, cause: str) -> bool:
    """Act for a seat (computer, timeout, autopilot); a failure is retried a few times with
    a growing pause, then given up loudly, leaving the table as it was. False when given up:
    the turn then starts over a turn's time later (`start_over_later`) instead of hanging or
    retrying without pause."""
    for attempt, pause in enumerate((*ACT_FOR_BACKOFF, None)):
        try:
            await table.act(player, action, cause=cause, expected_seq=seq)
            return True
        except (StaleButton, TableClosed):
            return True  # someone acted first, or the table closed: nothing to do
        except IllegalAction as exc:  # a policy bug must not stall the table
            log.error("game %s: %s chose an illegal move (%s)", table.game_id, player, exc)
            action = table.state.legal_actions(player)[0]
        except LedgerUnavailable as exc:  # the disk full: one line, not a traceback a try
            note_storage_failure(exc, "a move made for a seat", table.game_id)
        except Exception as exc:
            if attempt == 0:
                log.exception("game %s: acting for %s failed", table.game_id, player)
            else:
                log.warning("game %s: acting for %s failed: %r", table.game_id, player, exc)
        if pause is None or table.closed or table.seq != seq:
            break
        await asyncio.sleep(pause)
    if table.closed or table.seq != seq:
        return True  # the table moved on meanwhile: its clock is someone else's now
    log.error(
        "game %s: gave up acting for %s after %d tries; trying again in %.0f s",
        table.game_id,
        player,
        len(ACT_FOR_BACKOFF) + 1,
        table.timing.turn_seconds,
    )
    return False


async def start_over_later(table: SeatTable, seq: int) -> None:
    """After giving up on a seat: the turn starts over once a turn's time has passed. This
    runs on as the table's clock, so an action meanwhile (which restarts the clock) cancels
    it."""
    await asyncio.sleep(table.timing.turn_seconds)
    if not table.closed and table.seq == seq:
        table.schedule()
