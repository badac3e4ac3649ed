"""The clock of a step of choices made at the same time (the house rule `simultaneous`, RULES.md
H-1 to H-3): one clock for the whole step, not one per choice.

When a step opens, the computer seats and the seats on autopilot choose first, one after another,
each from its own seat's view (the policy reads nothing of a choice kept aside, which the state
does not show). The members have the step's time, counted from its opening whoever chooses
meanwhile (H-3: the timer runs for everyone who has not chosen), with a reminder half-way; when
it runs out, the computer players' policy chooses for each member still to choose, as a timeout.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Mapping
from typing import Protocol

from bot.runtime.errors import StaleButton, TableClosed
from bot.runtime.storage import note_storage_failure
from bot.runtime.turn_clock import SeatTable, pace, policy
from data.errors import LedgerUnavailable
from data.store import Seat
from rules.base import AnyGame, IllegalAction

log = logging.getLogger(__name__)

TRIES = (0.5, 1.0, 2.0)  # pauses between tries of a choice made for a seat that failed

StepKey = tuple[int, str]  # (round, what is expected): one step each


class StepTable(SeatTable, Protocol):
    """What a step's clock uses of its table (`bot.runtime.table.Table`): what a turn's clock
    uses (`bot.runtime.turn_clock`, whose pace and decisions it shares), and the seats."""

    @property
    def seats(self) -> Mapping[str, Seat]: ...


def step_key(state: AnyGame) -> StepKey | None:
    """The step of choices at once under way, or None (a turn, or the game is over)."""
    nxt = state.next()
    if nxt is None or not nxt.players:
        return None
    return state.round_number(), nxt.expects


def waiting(table: StepTable, key: StepKey) -> tuple[str, ...]:
    """Who still has to choose in step `key` (none once it is over)."""
    if step_key(table.state) != key:
        return ()
    nxt = table.state.next()
    return nxt.players if nxt is not None else ()


def still_waiting(player: str, key: StepKey) -> Callable[[AnyGame], bool]:
    """A click's guard: `player` still has to choose in step `key`."""

    def check(state: AnyGame) -> bool:
        nxt = state.next()
        return step_key(state) == key and nxt is not None and player in nxt.players

    return check


async def run_step(table: StepTable, key: StepKey) -> None:
    loop = asyncio.get_running_loop()
    opened = loop.time()
    for player in waiting(table, key):
        seat = table.seats[player]
        if seat.is_bot or player in table.autopilot:
            await pace(table)
            await choose_for(table, player, key, "bot" if seat.is_bot else "autopilot")
    if not waiting(table, key):
        return
    turn = table.timing.turn_seconds
    await asyncio.sleep(max(0.0, opened + turn / 2 - loop.time()))
    for player in waiting(table, key):
        table.outbox.put(
            functools.partial(table.presenter.reminder, table, player, round(turn / 2))
        )
    await asyncio.sleep(max(0.0, opened + turn - loop.time()))
    for player in waiting(table, key):
        table.expiries[player] += 1
        autopilot = table.expiries[player] >= table.timing.expiries_before_autopilot
        if autopilot:
            await table.set_autopilot(player)
        await choose_for(table, player, key, "timeout")
        if autopilot and not table.closed:
            table.outbox.put(
                functools.partial(table.presenter.autopilot_changed, table, player, True)
            )


async def choose_for(table: StepTable, player: str, key: StepKey, cause: str) -> None:
    """Choose for a seat with the computer players' policy, a few tries at most; a failure
    leaves the seat to choose (a member) or to the next start of the step's clock."""
    action = await policy(table, player, cause)
    for pause in (*TRIES, None):
        try:
            await table.act(player, action, cause=cause, still_shown=still_waiting(player, key))
            return
        except (StaleButton, TableClosed):
            return  # chosen meanwhile, or the table closed
        except IllegalAction as exc:  # a policy bug must not stall the step
            log.error("game %s: %s chose an illegal move (%s)", table.game_id, player, exc)
            action = table.state.legal_actions(player)[0]
        except LedgerUnavailable as exc:  # the disk full: one line, however many tries
            note_storage_failure(exc, "a choice made for a seat", table.game_id)
        except Exception as exc:
            log.warning("game %s: choosing for %s failed: %r", table.game_id, player, exc)
        if pause is None or table.closed:
            break
        await asyncio.sleep(pause)
    log.error("game %s: gave up choosing for %s in this step", table.game_id, player)
